"""The process's collector policy: start-up's heap frozen, a wider young generation."""

from __future__ import annotations

import gc
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
