"""A patience diff of two sequences of lines: the runs that differ, in O(n log n).

The lines found exactly once on each side anchor the match, the longest run
of anchors in the same order on both sides is kept, and what lies between
two kept anchors, less its equal first and last lines, is one hunk. Unlike
:class:`difflib.SequenceMatcher`, whose search is quadratic in the lines a
hunk repeats (``}``, blank lines, a table's rows: a 1,000-line rewrite of
such lines took 1.1 s), its cost grows with the lines, and most of it runs
in C (``Counter``, list equality).

Used where two versions of the same lines are compared: the syntax layer's
edits for ``Tree.edit`` (:mod:`nextedit.syntax.line_diff`) and the rename
suggester's reading of a rewritten hunk (:mod:`nextedit.suggest.rename.evidence`).
Pure sequences of hashable lines; knows nothing of documents or encodings.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Hashable, Sequence

__all__ = ["patience_hunks"]


def patience_hunks(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int, int, int]]:
    """The runs ``(i1, i2, j1, j2)`` of ``a[i1:i2]`` replaced by ``b[j1:j2]``,
    in order, that turn ``a`` into ``b`` (patience diff: the lines found once
    in each side anchor the match, the longest run of anchors in order in
    both is kept, and between two kept anchors the lines equal at either end
    are matched and the rest is one hunk)."""
    count_a, count_b = Counter(a), Counter(b)
    unique = {line for line, n in count_a.items() if n == 1 and count_b.get(line) == 1}
    where_b = dict(zip(b, range(len(b)), strict=True))  # a unique line's only index
    anchors = _increasing([(i, where_b[line]) for i, line in enumerate(a) if line in unique])
    hunks = []
    i = j = 0
    for i_next, j_next in (*anchors, (len(a), len(b))):
        if i_next == i and j_next == j:
            pass  # two anchors in a row: nothing between them
        elif i_next - i != j_next - j or a[i:i_next] != b[j:j_next]:
            # match the equal lines at both ends of the gap, the rest is one hunk
            lo, hi_a, hi_b = i, i_next, j_next
            while lo < hi_a and lo - i + j < hi_b and a[lo] == b[lo - i + j]:
                lo += 1
            while hi_a > lo and hi_b > lo - i + j and a[hi_a - 1] == b[hi_b - 1]:
                hi_a -= 1
                hi_b -= 1
            hunks.append((lo, hi_a, lo - i + j, hi_b))
        i, j = i_next + 1, j_next + 1
    return hunks


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``pairs`` (increasing in their first
    element) whose second elements increase too (patience sorting)."""
    seconds = [j for _, j in pairs]
    if all(x < y for x, y in zip(seconds, seconds[1:], strict=False)):
        return pairs  # nothing moved: the usual case
    tails: list[int] = []  # tails[k]: the smallest last second of an increasing run of k + 1
    tail_at: list[int] = []  # index in pairs of that last element
    back = [-1] * len(pairs)
    for n, j in enumerate(seconds):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_at.append(n)
        else:
            tails[k] = j
            tail_at[k] = n
        back[n] = tail_at[k - 1] if k else -1
    out = []
    n = tail_at[-1] if tail_at else -1
    while n >= 0:
        out.append(pairs[n])
        n = back[n]
    out.reverse()
    return out
