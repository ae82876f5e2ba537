"""The edits that turn one text into another, line by line, for ``Tree.edit``.

A document re-opened with a text close to one whose tree we still hold
(:mod:`nextedit.syntax.closed_trees`) is parsed incrementally from that tree:
tree-sitter needs to know which byte ranges changed. :func:`line_edits` finds
them with a patience diff over lines (:mod:`nextedit.text.patience`): the
lines the two texts share at both ends are skipped in bulk; between them, the
lines found exactly once on each side anchor the match, the longest run of
anchors in the same order on both sides is kept, and what lies between two
kept anchors, less its equal first and last lines, is one hunk. Each hunk becomes one
:class:`~nextedit.syntax.tree.ByteEdit`, so tree-sitter keeps every subtree
outside the changed hunks. Any edit script is *correct* (the edited tree
spans the new text); a better match only lets tree-sitter reuse more.
O(n log n) in lines, most of it in C (``split``, ``Counter``, list
equality): ~2 ms on two versions of a 160 KB C++ header, against a 25 ms
parse (``benchmarks/results/trace-latency-reopen.md``).

Must not know about documents, sessions or position encodings: it reads and
speaks UTF-8 bytes and tree-sitter points ``(row, byte_column)``, rows
counted by ``\\n`` as tree-sitter counts them.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate

from nextedit.syntax.tree import ByteEdit
from nextedit.text.patience import patience_hunks

__all__ = ["line_edits"]


def line_edits(old: bytes, new: bytes) -> list[ByteEdit]:
    """Edits turning ``old`` into ``new``, each in the coordinates of the text
    the previous ones left (``SyntaxTree.apply_edits`` order): they run from
    the end of the text to its start, so every edit's offsets and points are
    those of ``old``. Empty when the texts are equal."""
    if old == new:
        return []
    a = _lines(old)
    b = _lines(new)
    prefix = _common_run(a, b, lambda lines, n: lines[:n])
    limit = min(len(a), len(b)) - prefix
    suffix = _common_run(a, b, lambda lines, n: lines[len(lines) - n :], limit)
    a_mid = a[prefix : len(a) - suffix]
    b_mid = b[prefix : len(b) - suffix]
    hunks = patience_hunks(a_mid, b_mid) if a_mid and b_mid else [(0, len(a_mid), 0, len(b_mid))]
    a_starts = _Starts(a, len(old))
    b_starts = _Starts(b, len(new))
    edits = []
    for i1, i2, j1, j2 in reversed(hunks):
        i1, i2, j1, j2 = i1 + prefix, i2 + prefix, j1 + prefix, j2 + prefix
        start = a_starts[i1]
        edits.append(
            ByteEdit(
                start_byte=start,
                old_end_byte=a_starts[i2],
                new_end_byte=start + b_starts[j2] - b_starts[j1],
                start_point=(i1, 0),
                old_end_point=_end_point(a, i1, i1, i2),
                new_end_point=_end_point(b, i1, j1, j2),
            )
        )
    return edits


def _lines(text: bytes) -> list[bytes]:
    """``text`` cut at every ``\n``: line ``i`` starts at row ``i``. Every line
    but the last was followed by a ``\n``; the last (after the last ``\n``,
    maybe empty) is given one, so that it equals no other line but the last
    line of another text with the same ending."""
    lines = text.split(b"\n")
    lines[-1] += b"\n"
    return lines


def _common_run(
    a: list[bytes], b: list[bytes], run: Callable[[list[bytes], int], list[bytes]], limit: int | None = None
) -> int:
    """The largest ``n`` (at most ``limit``) with ``run(a, n) == run(b, n)``:
    a binary search whose every step compares lists in C."""
    lo, hi = 0, min(len(a), len(b)) if limit is None else limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if run(a, mid) == run(b, mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


class _Starts:
    """Byte offset of the start of line ``i`` (``[i]``); the text's size for ``i == len(lines)``."""

    __slots__ = ("_ends", "_size")

    def __init__(self, lines: list[bytes], size: int) -> None:
        self._ends = list(accumulate(map(len, lines)))  # without the line breaks but the last's
        self._size = size

    def __getitem__(self, line: int) -> int:
        if line == 0:
            return 0
        if line == len(self._ends):
            return self._size
        return self._ends[line - 1] + line


def _end_point(lines: list[bytes], row: int, first: int, end: int) -> tuple[int, int]:
    """The point after ``lines[first:end]`` laid down from ``(row, 0)``: the
    next line's start, or the end of the text after its last line."""
    if end > first and end == len(lines):
        return (row + end - first - 1, len(lines[-1]) - 1)
    return (row + end - first, 0)
