"""The patience diff of two sequences of lines (``nextedit.text.patience``).

Whatever the lines, the hunks it gives, applied in order, turn one side into
the other, and they never overlap or run backwards; equal sides give none.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from nextedit.text.patience import patience_hunks

# few distinct lines, so that most repeat (braces, blank lines, the same call)
_LINES = st.lists(st.sampled_from(["}", "", "x = 1", "y = 2", "return x", "f(x)", "g(y)"]), max_size=40)


def _apply(a: list[str], b: list[str], hunks: list[tuple[int, int, int, int]]) -> list[str]:
    out: list[str] = []
    at = 0
    for i1, i2, j1, j2 in hunks:
        out += a[at:i1] + b[j1:j2]
        at = i2
    return out + a[at:]


@given(_LINES, _LINES)
def test_the_hunks_turn_one_side_into_the_other(a: list[str], b: list[str]) -> None:
    hunks = patience_hunks(a, b)
    assert _apply(a, b, hunks) == b
    ends = [(i2, j2) for _, i2, _, j2 in hunks]
    starts = [(i1, j1) for i1, _, j1, _ in hunks]
    # in order, apart, and each unequal lines against the other side
    assert all(e[0] <= s[0] and e[1] <= s[1] for e, s in zip(ends, starts[1:], strict=False))
    assert all(a[i1:i2] != b[j1:j2] for i1, i2, j1, j2 in hunks)


@given(_LINES)
def test_equal_sides_have_no_hunk(a: list[str]) -> None:
    assert patience_hunks(a, list(a)) == []


def test_lines_found_once_anchor_the_match() -> None:
    a = ["def f():", "}", "x = 1", "}", "def g():", "}"]
    b = ["def f():", "}", "x = 2", "}", "def g():", "}", "def h():"]
    assert patience_hunks(a, b) == [(2, 3, 2, 3), (6, 6, 6, 7)]
