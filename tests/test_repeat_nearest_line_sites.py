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
