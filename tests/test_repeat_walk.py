"""Repeated edits past the site limit: the developer walking down the file.

A rule found in more places than its limit is too generic to list, but when
the developer made the very same change three times in a row, each below the
last, with no match between them left alone, the next match below is where
they go next — however many the file holds (issue 10: "from 5k lines up it
then offers nothing").
"""

from __future__ import annotations

from nextedit.session import PlacedSuggestion, Session
from nextedit.suggest.model import SuggestionKinds
from nextedit.suggest.repeat.model import make_rule
from nextedit.suggest.repeat.sites import sites_in
from nextedit.suggest.repeat.synthesis import PastEdit, synthesize
from nextedit.text import Position, PositionEncoding, Range, TextChange

URI = "file:///w/generated.py"
# more identical functions than any rule may list (60 sites)
FUNCTIONS = 120


def _source(functions: int = FUNCTIONS) -> str:
    return "".join(
        f"def function_{i}(items):\n    total = 0\n    for item in items:\n        total += item\n    return total\n\n"
        for i in range(functions)
    )


def _line_of_total(function: int) -> int:
    return function * 6 + 1


class _Developer:
    """A session over the generated file, changed ``total = 0`` → ``total = 1`` function by function."""

    def __init__(self, text: str) -> None:
        self.session = Session("t", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(jump=True))
        self.session.did_open(URI, "python", 1, text)
        self.version = 1

    def set_total(self, function: int, value: str = "1") -> Position:
        line = _line_of_total(function)
        self.version += 1
        rng = Range(Position(line, 12), Position(line, 13))
        self.session.did_change(URI, self.version, [TextChange(rng, value)])
        return Position(line, 13)

    def suggest(self, at: Position) -> list[PlacedSuggestion]:
        return self.session.suggest(URI, self.version, at, model=False)


def _edited_lines(suggestion: PlacedSuggestion) -> list[tuple[int, str]]:
    return [(e.range.start.line, e.new_text) for e in suggestion.edits]


def test_the_same_change_three_times_down_the_file_offers_the_next_function() -> None:
    dev = _Developer(_source())
    for function in (40, 41, 42):
        at = dev.set_total(function)
    out = dev.suggest(at)
    assert out, "the walk's next site is offered"
    assert out[0].kind == "edit"
    assert _edited_lines(out[0]) == [(_line_of_total(43), "1")]


def test_two_changes_are_not_yet_a_walk_when_the_rule_has_too_many_sites() -> None:
    dev = _Developer(_source())
    for function in (40, 41):
        at = dev.set_total(function)
    assert not [s for s in dev.suggest(at) if s.suggester == "repeat"]


def test_a_function_passed_over_between_the_changes_means_no_walk() -> None:
    dev = _Developer(_source())
    for function in (40, 42, 43):  # 41 left alone on purpose
        at = dev.set_total(function)
    assert not [s for s in dev.suggest(at) if s.suggester == "repeat"]


def test_the_same_change_three_times_up_the_file_offers_the_function_above() -> None:
    dev = _Developer(_source())
    for function in (43, 42, 41):
        at = dev.set_total(function)
    out = dev.suggest(at)
    assert out and _edited_lines(out[0]) == [(_line_of_total(40), "1")]


def test_changes_that_turn_back_are_no_walk() -> None:
    dev = _Developer(_source())
    for function in (41, 43, 42):
        at = dev.set_total(function)
    assert not [s for s in dev.suggest(at) if s.suggester == "repeat"]


def test_different_changes_in_a_row_are_no_walk() -> None:
    dev = _Developer(_source())
    for function, value in ((40, "1"), (41, "2"), (42, "1")):
        at = dev.set_total(function, value)
    assert not [s for s in dev.suggest(at) if s.suggester == "repeat"]


def test_below_the_limit_every_site_is_listed_as_before() -> None:
    text = _source(20)
    edits = []
    for seq, function in enumerate((4, 5, 6), start=1):
        start = text.index("total = 0", text.index(f"def function_{function}(")) + len("total = ")
        text = text[:start] + "1" + text[start + 1 :]
        edits.append(PastEdit(start, "0", "1", seq))
    proposals = synthesize(text, edits, edits[-1].new_end)
    assert proposals and len(proposals[0].sites) == 20 - 3
    assert proposals[0].complete


def test_sites_in_keeps_to_its_window_and_skips_the_developers_edits() -> None:
    text = "a = old(1)\nb = old(2)\nc = old(3)\n"
    rule = make_rule(["old"], ["new"], [], 1, 1.0, ())
    second = text.index("old(2)")
    third = text.index("old(3)")
    assert [(x.start, x.new_text) for x in sites_in(text, rule, second, len(text))] == [(second, "new"), (third, "new")]
    assert list(sites_in(text, rule, second, second)) == []  # an empty window
    assert [x.start for x in sites_in(text, rule, 0, third)] == [0 + text.index("old(1)"), second]
    assert [x.start for x in sites_in(text, rule, 0, len(text), exclude=[(0, third)])] == [third]
    assert list(sites_in(text, rule, third + 1, len(text))) == []
