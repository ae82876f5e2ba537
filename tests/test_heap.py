"""The process's memory policy: start-up's heap frozen, a wider young generation, large blocks kept."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from nextedit import heap


@pytest.fixture
def restored_collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("restored_collector")
def test_settle_freezes_what_exists_and_widens_only_the_young_generation() -> None:
    _, older, oldest = gc.get_threshold()
    kept = [object() for _ in range(3)]  # noqa: F841 - alive at settle time
    heap.settle()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (heap.YOUNG_THRESHOLD, older, oldest)


_COPIES = """
import resource, sys
from nextedit import heap
if sys.argv[1] == "kept" and not heap.keep_large_blocks():
    print(-1)
    raise SystemExit
text = "\\N{GRINNING FACE}" + "x" * 3_000_000  # four bytes a character: 12 MB
for _ in range(3):
    copy = text[:-1] + "y"
    del copy
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    copy = text[:-1] + "y"  # what a flushed edit of a large document does
    del copy
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _page_faults(policy: str) -> int:
    done = subprocess.run([sys.executable, "-c", _COPIES, policy], capture_output=True, text=True, check=True)
    return int(done.stdout)


@pytest.mark.e2e
def test_a_large_text_copied_again_and_again_reuses_its_pages() -> None:
    """Each copy of a large document's text touched fresh pages (a fault per
    4 KB, ~6 ms for a 2.4 M character text); with large blocks kept, the
    copies reuse the memory freed by the previous one."""
    kept = _page_faults("kept")
    if kept < 0:
        pytest.skip("no glibc mallopt here")
    default = _page_faults("default")
    assert default > 10 * 2000  # ten 12 MB copies, each faulting its pages in
    assert kept < default / 20
