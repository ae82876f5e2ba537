"""A template rule's matches found by walking its parts are exactly its regex's."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from nextedit.suggest.repeat.model import _compile, group_name, hole_pattern, make_rule
from nextedit.suggest.repeat.sites import find_sites
from nextedit.suggest.repeat.template_walk import walk_finditer, walk_plan
from nextedit.suggest.repeat.tokens import IDENT, NUMBER, STRING

# letters, digits, a dot, quotes and a backslash (strings and escapes), a
# non-ASCII letter, blanks and punctuation
ALPHABET = list("ab_1.\"'\\é (,)\nrx+-")
TEXT = st.text(st.sampled_from(ALPHABET), max_size=48)
PIECE = st.text(st.sampled_from(ALPHABET), min_size=1, max_size=3)
KINDS = st.lists(st.sampled_from([IDENT, NUMBER, STRING]), min_size=1, max_size=3)


@st.composite
def templates(draw: st.DrawFn) -> tuple[list[str | int], list[str]]:
    """A before template that starts with a literal piece: pieces and holes,
    holes repeated now and then."""
    kinds = draw(KINDS)
    parts: list[str | int] = [draw(PIECE)]
    for _ in range(draw(st.integers(1, 4))):
        hole = draw(st.integers(0, len(kinds) - 1))
        parts.append(hole)
        if draw(st.booleans()):
            parts.append(draw(PIECE))
    return parts, kinds


VALID = {
    IDENT: ["ab", "a1", "_", "é", "rx"],
    NUMBER: ["1", "1.5", "0x1F", "2e3", "1."],
    STRING: ['"x"', "'a\\'b'", 'r"\\"', "b''", '"a(b"'],
}
NOISE = st.text(st.sampled_from(ALPHABET), max_size=4)


@st.composite
def texts_with(draw: st.DrawFn, template: tuple[list[str | int], list[str]]) -> str:
    """Text around a few renderings of ``template``: each hole filled with a
    text of its kind or with noise, a first filling now and then repeated
    where the hole repeats."""
    before, kinds = template
    chunks = []
    for _ in range(draw(st.integers(1, 3))):
        chunks.append(draw(NOISE))
        fills: dict[int, str] = {}
        for part in before:
            if isinstance(part, str):
                chunks.append(part)
                continue
            if part in fills and draw(st.integers(0, 3)) > 0:
                chunks.append(fills[part])
                continue
            fill = draw(st.sampled_from(VALID[kinds[part]]) if draw(st.integers(0, 3)) > 0 else NOISE)
            fills.setdefault(part, fill)
            chunks.append(fill)
    chunks.append(draw(NOISE))
    return "".join(chunks)


def _regex_matches(rule, text: str, pos: int, endpos: int) -> list[tuple[int, int, dict[str, str]]]:
    return [(m.start(), m.end(), m.groupdict()) for m in rule.regex.finditer(text, pos, endpos)]


def _walk_matches(rule, plan, text: str, pos: int, endpos: int) -> list[tuple[int, int, dict[str, str]]]:
    names = {group_name(p) for p in rule.before if isinstance(p, int)}
    return [
        (m.start(), m.end(), {name: m.group(name) for name in names})
        for m in walk_finditer(text, rule, plan, pos, endpos)
    ]


@st.composite
def cases(draw: st.DrawFn) -> tuple[tuple[list[str | int], list[str]], str]:
    template = draw(templates())
    return template, draw(texts_with(template)) if draw(st.integers(0, 4)) > 0 else draw(TEXT)


@settings(max_examples=1500, deadline=None)
@given(case=cases(), bounds=st.tuples(st.integers(0, 80), st.integers(0, 80)))
@example(case=((["(", 0, ")"], [IDENT]), "(ab1) (1a) (é)"), bounds=(0, 14))
@example(case=((["f(", 0, ", ", 0, ")"], [IDENT]), "f(a, a) f(a, ab) f(ab, ab)"), bounds=(0, 26))
@example(case=((["x = ", 0, ";"], [STRING]), 'x = r"a\\"b"; x = "a\nb";'), bounds=(0, 24))
@example(case=((["n ", 0], [NUMBER]), "n 1.5e3x n 2"), bounds=(0, 12))
@example(case=((["ab", 0], [IDENT]), "xab cd"), bounds=(1, 5))  # the boundary before looks behind pos
def test_a_walk_finds_what_the_regex_finds(
    case: tuple[tuple[list[str | int], list[str]], str], bounds: tuple[int, int]
) -> None:
    (before, kinds), text = case
    rule = make_rule(list(before), ["z"], list(kinds), 1, 1.0, ())
    plan = walk_plan(rule)
    if plan is None:
        return  # a template that reads more than one way keeps its regex
    pos, endpos = sorted(min(b, len(text)) for b in bounds) if bounds[0] % 2 else (0, len(text))
    assert _walk_matches(rule, plan, text, pos, endpos) == _regex_matches(rule, text, pos, endpos)


def test_templates_that_read_more_than_one_way_have_no_plan() -> None:
    # an identifier followed by a word character could end at any of its letters
    assert walk_plan(make_rule(["get(", 0, "x"], ["z"], [IDENT], 1, 1.0, ())) is None
    # a number followed by a dot: "1.5." could end before either dot
    assert walk_plan(make_rule(["n = ", 0, ".0"], ["z"], [NUMBER], 1, 1.0, ())) is None
    # two holes in a row
    assert walk_plan(make_rule(["f(", 0, 1, ")"], ["z"], [IDENT, IDENT], 1, 1.0, ())) is None
    # no literal to start from
    assert walk_plan(make_rule([0, " = 1"], ["z"], [IDENT], 1, 1.0, ())) is None
    # a literal rule has no holes: it is found with str.find as it is
    assert walk_plan(make_rule(["a = 1"], ["z"], [], 1, 1.0, ())) is None
    assert walk_plan(make_rule(["f(", 0, ", ", 1, ")"], ["z"], [IDENT, STRING], 1, 1.0, ())) is not None


def test_sites_of_a_long_template_are_found_without_compiling_it() -> None:
    """A removed entry of a long list, repeated: the template's holes each end
    at a comma or a bracket, so its sites come from a walk and the regex is
    never compiled."""
    entries = [
        f'    {{ name: "{n}", href: "/{n}", icon: {n.title()}Icon, count: {i} }},\n' for i, n in enumerate("abcdef")
    ]
    text = "const links = [\n" + "".join(entries) + "];\n"
    before: list[str | int] = ["{ name: ", 0, ", href: ", 1, ", icon: ", 2, ", count: ", 3, " },\n"]
    rule = make_rule(before, [], [STRING, STRING, IDENT, NUMBER], 2, 5.0, ())
    assert walk_plan(rule) is not None
    asked = _compile.cache_info()
    sites = find_sites(text, rule)
    assert [text[s.start : s.end] for s in sites] == [e[4:] for e in entries]
    assert all(s.new_text == "" for s in sites)
    after = _compile.cache_info()
    assert after.hits + after.misses == asked.hits + asked.misses  # the regex was never asked for


def test_hole_patterns_are_the_ones_the_walk_reasons_about() -> None:
    # template_walk._ends_alone decides which holes match one text only at a
    # given start from these exact patterns (an identifier or a number ends
    # at the first non-word character, a number may take dots, a string at
    # its closing quote): a change to one must revisit it
    assert hole_pattern(IDENT) == r"[^\W\d]\w*"
    assert hole_pattern(NUMBER) == r"\d[\w.]*"
    assert hole_pattern(STRING) == r"""[rRbBuUfF]{0,2}(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
