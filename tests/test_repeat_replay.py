"""The shared lazy search of the repeat suggester: every reader sees the same items, each found once."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given
from hypothesis import strategies as st

from nextedit.suggest.repeat.replay import Replay


@given(st.lists(st.one_of(st.none(), st.integers())), st.integers(min_value=0, max_value=30))
def test_every_reader_sees_the_items_in_order_and_each_is_searched_once(items: list[int | None], first: int) -> None:
    pulled: list[int | None] = []

    def search() -> Iterator[int | None]:
        for item in items:
            pulled.append(item)
            yield item

    replay = Replay(search())
    head = []
    for item in replay:  # a first reader stops early: the rest is not searched yet
        if len(head) == first:
            break
        head.append(item)
    assert head == items[:first]
    assert len(pulled) <= first + 1
    assert list(replay) == items
    assert list(replay) == items
    assert pulled == items
