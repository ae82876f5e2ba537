"""The process's memory policy: start-up's heap frozen, a wider young generation, large blocks kept."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from nextedit import heap


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


@pytest.fixture
def collections_seen() -> Iterator[list[int]]:
    """The generation of every collection started while the test runs (the
    automatic ones switched off, so only what the test asks for is seen)."""
    seen: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    enabled = gc.isenabled()
    gc.disable()
    gc.callbacks.append(watch)
    try:
        yield seen
    finally:
        gc.callbacks.remove(watch)
        if enabled:
            gc.enable()


def test_between_requests_collects_once_per_computation_that_came_back(collections_seen: list[int]) -> None:
    between = heap.BetweenRequests(older_every=3)
    assert not between.after(0)  # idle before anything was computed: nothing to collect
    assert collections_seen == []
    assert between.due(1)
    assert between.after(1)
    assert collections_seen == [0]  # the youngest generation
    assert not between.due(1)
    assert not between.after(1)  # idle again with nothing new back (a burst of notifications)
    assert between.after(2)
    assert collections_seen == [0, 0]
    assert between.after(5)  # several came back while the agent was never idle: one collection
    assert collections_seen == [0, 0, 1]  # every third one takes the middle generation too
    assert between.collections == 3


def test_collected_between_requests_the_young_generation_holds_nothing_left_over(collections_seen: list[int]) -> None:
    garbage = []
    for _ in range(1000):  # cycles the reference counts cannot free
        node: list[object] = []
        node.append(node)
        garbage.append(node)
    del garbage, node
    before = len(gc.get_objects(0))
    assert heap.BetweenRequests().after(1)
    assert len(gc.get_objects(0)) < before - 1000  # collected (survivors moved on to the next generation)
