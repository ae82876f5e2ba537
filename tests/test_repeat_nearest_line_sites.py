"""Whole-line rules build only the sites they offer: ``nearest_line_sites``
gives what sorting every site of ``line_sites`` from the cursor gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.suggest.repeat.lines import LineRule, line_sites, nearest_line_sites
from nextedit.suggest.repeat.model import PastEdit

LINES = ["x = 1", "    x = 1", "y = 2", "x = 1  # kept", "", "    y = 2"]


def _expected(text: str, rule: LineRule, cursor: int, keep: int, both_sides: bool):
    every = line_sites(text, rule, both_sides=both_sides)
    if every is None:
        return None
    every.sort(key=lambda x: (x.site.start < cursor, x.site.start))
    return len(every), [x.site for x in every[:keep]]


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.sampled_from(LINES), min_size=0, max_size=30),
    kind=st.sampled_from(["clone", "insert-after", "insert-before"]),
    before=st.sampled_from([("x = 1",), ("x = 1", "y = 2"), ("x = 1", "x = 1")]),
    after=st.sampled_from([("x = 2",), ("x = 1", "z = 3"), ()]),
    cursor_at=st.floats(min_value=0.0, max_value=1.0),
    keep=st.integers(min_value=1, max_value=4),
    both_sides=st.booleans(),
)
def test_the_nearest_sites_are_those_of_every_site_sorted_from_the_cursor(
    lines: list[str],
    kind: str,
    before: tuple[str, ...],
    after: tuple[str, ...],
    cursor_at: float,
    keep: int,
    both_sides: bool,
) -> None:
    text = "\n".join(lines) + "\n"
    if kind != "clone":
        before = before[:1]
        after = after or ("z = 3",)
    rule = LineRule(kind, before, after, PastEdit(0, "", "", 1), other_side="y = 2" if kind != "clone" else None)  # type: ignore[arg-type]
    cursor = int(cursor_at * len(text))
    got = nearest_line_sites(text, rule, cursor, keep, both_sides=both_sides and kind != "clone")
    want = _expected(text, rule, cursor, keep, both_sides and kind != "clone")
    if want is not None and want[0] == 0:
        assert got == (0, [])
    else:
        assert (got and (got[0], [x.site for x in got[1]])) == want


def test_a_rule_standing_at_many_places_offers_the_first_ones_from_the_cursor() -> None:
    text = "".join(f"def f{i}():\n    x = 1\n\n" for i in range(40))
    rule = LineRule("clone", ("x = 1",), ("x = 2",), PastEdit(0, "", "", 1))
    cursor = text.index("def f30")
    count, sites = nearest_line_sites(text, rule, cursor, 3)  # type: ignore[misc]
    assert count == 40
    assert [text.count("\n", 0, x.site.start) for x in sites] == [91, 94, 97]  # f30, f31, f32


def _blocks_line_by_line(text: str, line: str, exclude: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Where the one-line block ``line`` stands, read the long way: every
    line of the text, its indent removed, trailing blanks dropped."""
    found = []
    start = 0
    while True:
        end = text.find("\n", start)
        if end < 0:
            return found  # a last line without its break is no block
        indent = text[start:end][: len(text[start:end]) - len(text[start:end].lstrip(" \t"))]
        body = text[start + len(indent) : end]
        excluded = any(start <= xe and xs <= start for xs, xe in exclude)
        if body.rstrip() == line and not excluded:
            found.append((start, end + 1, indent))
        start = end + 1


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(
        st.sampled_from(
            ["total = 0", "  total = 0", "\ttotal = 0 \t", "x = total = 0", "total = 0\r", "total = 01", ""]
        ),
        max_size=12,
    ),
    last_break=st.booleans(),
    excluded=st.lists(st.tuples(st.integers(0, 120), st.integers(0, 20)), max_size=2),
)
def test_a_one_line_block_stands_where_its_text_fills_a_line(
    lines: list[str], last_break: bool, excluded: list[tuple[int, int]]
) -> None:
    """The quick reading of a one-line block (no line list built) finds
    exactly the lines that hold it after their indent, and nothing else."""
    from nextedit.suggest.repeat.lines import _blocks

    text = "\n".join(lines) + ("\n" if last_break else "")
    exclude = [(a, a + n) for a, n in excluded]
    found = [b for b in _blocks(text, ("total = 0",), exclude, None) if b is not None]
    assert found == _blocks_line_by_line(text, "total = 0", exclude)
