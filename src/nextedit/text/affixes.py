"""What two versions of a piece of text share at their ends.

The history, the repeat suggester and the bench's scorer all reduce an edit
``old → new`` to the region that really changed; this is the one place that
computes it. Slices are compared at C speed with a binary search, so a
whole-line or whole-document replacement costs O(log n) comparisons. The
ends are compared as characters of a ``str`` or as items of a tuple (the
tokens of two versions of a line, :mod:`nextedit.suggest.rename.evidence`).
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["changed_part", "common_affixes", "common_prefix_len"]

# a text, or a tuple of tokens: both slice and compare the same way
Seq = TypeVar("Seq", str, tuple[str, ...])


def common_prefix_len(a: Seq, b: Seq, upto: int | None = None) -> int:
    """How many of the first ``upto`` (default: all) characters ``a`` and
    ``b`` share, found by halving with slice comparisons at C speed."""
    n = min(len(a), len(b)) if upto is None else min(len(a), len(b), upto)
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n  # a[:lo] == b[:lo]; a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def _common_suffix_len(a: Seq, b: Seq, limit: int) -> int:
    n = min(len(a), len(b), limit)
    if n <= 0:
        return 0
    if a[len(a) - n :] == b[len(b) - n :]:
        return n
    lo, hi = 0, n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[len(a) - mid : len(a) - lo] == b[len(b) - mid : len(b) - lo]:
            lo = mid
        else:
            hi = mid
    return lo


def common_affixes(old: Seq, new: Seq) -> tuple[int, int]:
    """``(prefix, suffix)``: lengths shared at the start and, not overlapping it, at the end.

    ``common_affixes("foo(a)", "foo(a, b)")`` is ``(5, 1)``: the change is
    ``old[5:-1]`` (empty) → ``new[5:-1]`` (``", b"``).
    """
    prefix = common_prefix_len(old, new)
    return prefix, _common_suffix_len(old, new, min(len(old), len(new)) - prefix)


def changed_part(old: str, new: str) -> tuple[str, str]:
    """What really changed from ``old`` to ``new``, blanks at its ends stripped:
    ``changed_part("foo(a)", "foo(a, b)")`` is ``("", ", b")``; two edits that
    make the same change at different places read alike."""
    p, s = common_affixes(old, new)
    return old[p : len(old) - s].strip(), new[p : len(new) - s].strip()
