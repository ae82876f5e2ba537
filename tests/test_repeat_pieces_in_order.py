"""A template rule's regex runs only where its literal pieces stand in order.

The site search (:func:`nextedit.suggest.repeat.sites._matches`) asks
:func:`pieces_in_order` of each region around the anchor before it runs the
rule's regex there, so that a big example's template (many holes, hundreds
of characters: milliseconds to compile) is not compiled for regions it
cannot match. The check must never lose a match.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.suggest.repeat import model, sites
from nextedit.suggest.repeat.model import make_rule
from nextedit.suggest.repeat.sites import _matches, _Scan, pieces_in_order
from nextedit.suggest.repeat.tokens import IDENT, NUMBER, STRING

ALPHABET = st.sampled_from(list("ab_ (,)\n'\"1x"))
TEXT = st.text(ALPHABET, max_size=60)
LITERAL = st.text(ALPHABET, min_size=1, max_size=3)
HOLE_KINDS = st.sampled_from([IDENT, NUMBER, STRING])


@st.composite
def templates(draw: st.DrawFn) -> tuple[list[str | int], list[str]]:
    """A before template: literals between holes (a hole may come back)."""
    parts: list[str | int] = []
    kinds: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            parts.append(draw(LITERAL))
        elif kinds and draw(st.booleans()):
            parts.append(draw(st.integers(0, len(kinds) - 1)))
        else:
            kinds.append(draw(HOLE_KINDS))
            parts.append(len(kinds) - 1)
    if not any(isinstance(p, str) for p in parts):
        parts.append(draw(LITERAL))
    return parts, kinds


@settings(max_examples=500, deadline=None)
@given(template=templates(), text=TEXT, bounds=st.tuples(st.integers(0, 60), st.integers(0, 60)))
def test_a_match_in_a_window_has_its_pieces_in_order_there(
    template: tuple[list[str | int], list[str]], text: str, bounds: tuple[int, int]
) -> None:
    before, kinds = template
    pos, endpos = sorted(min(b, len(text)) for b in bounds)
    rule = make_rule(before, ["x"], kinds, 1, 1.0, ())
    pieces = [p for p in rule.before if isinstance(p, str)]
    if rule.regex.search(text, pos, endpos) is not None:
        assert pieces_in_order(text, pieces, pos, endpos)


@settings(max_examples=300, deadline=None)
@given(template=templates(), text=TEXT)
def test_the_site_search_finds_the_same_matches_without_the_check(
    template: tuple[list[str | int], list[str]], text: str
) -> None:
    before, kinds = template
    rule = make_rule(before, ["x"], kinds, 1, 1.0, ())
    checked = [m.span() if hasattr(m, "span") else (m.start(), m.end()) for m in _matches(text, rule, _Scan())]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sites, "_pieces", lambda rule: None)
        unchecked = [m.span() if hasattr(m, "span") else (m.start(), m.end()) for m in _matches(text, rule, _Scan())]
    assert checked == unchecked


def test_pieces_must_stand_apart_and_in_order() -> None:
    text = "name: a, url: b"
    assert pieces_in_order(text, ["name: ", ", url: "], 0, len(text))
    assert not pieces_in_order(text, [", url: ", "name: "], 0, len(text))
    assert not pieces_in_order(text, ["name: ", "name: "], 0, len(text))
    assert not pieces_in_order(text, ["name: ", ", url: "], 1, len(text))


def test_a_big_template_is_not_compiled_where_its_pieces_are_not_in_order() -> None:
    """An example that rewrote three entries of a list: the template holds
    every entry's keys between string holes. The list left has entries of
    another shape (a missing ``url``), so no region can match, and the
    template's regex is never built."""
    entry = "  {{\n    name: {0},\n    logo: {1},\n    url: {2},\n  }},\n"
    before: list[str | int] = []
    for i in range(3):
        before += ["  {\n    name: ", 3 * i, ",\n    logo: ", 3 * i + 1, ",\n    url: ", 3 * i + 2, ",\n  },\n"]
    rule = make_rule(before, ["x"], [STRING] * 9, 1, 1.0, ())
    text = (
        "const sponsors = [\n"
        + "".join(
            entry.format(f"'s{i}'", f"'l{i}'", f"'u{i}'")
            if i % 2
            else f"  {{\n    name: 's{i}',\n    logo: 'l{i}',\n  }},\n"
            for i in range(8)
        )
        + "];\n"
    )
    model._compile.cache_clear()
    assert list(_matches(text, rule, _Scan())) == []
    assert model._compile.cache_info().misses == 0
    # where three entries of the template's shape do stand in a row, it
    # matches; its string holes each end at a quote, so it is walked
    # (template_walk), still not compiled
    text = "const sponsors = [\n" + "".join(entry.format(f"'s{i}'", f"'l{i}'", f"'u{i}'") for i in range(3)) + "];\n"
    assert len(list(_matches(text, rule, _Scan()))) == 1
    assert model._compile.cache_info().misses == 0
