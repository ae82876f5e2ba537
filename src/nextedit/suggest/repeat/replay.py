"""A lazy search shared by several readers: each item found once, replayed to the next.

Owns :class:`Replay`: after a burst of similar edits many rules start from the
same pattern (or the same lines) and differ only in what they write, so the
site search of the first rule is remembered for the others; items are pulled
from the underlying search only when a reader gets past what was found so far.

Must not know what is searched (patterns, lines, sites) nor LSP/ACP.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

__all__ = ["Replay"]

T = TypeVar("T")


class Replay(Generic[T]):
    """The items of ``search``, pulled lazily, remembered and replayed in order to every iteration."""

    __slots__ = ("_rest", "_seen", "_done")

    def __init__(self, search: Iterator[T]) -> None:
        self._rest = search
        self._seen: list[T] = []
        self._done = False

    def __iter__(self) -> Iterator[T]:
        i = 0
        while True:
            if i == len(self._seen):
                if self._done:
                    return
                item = next(self._rest, _END)
                if item is _END:
                    self._done = True
                    return
                self._seen.append(item)  # type: ignore[arg-type]
            yield self._seen[i]
            i += 1


_END = object()
