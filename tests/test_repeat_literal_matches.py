"""A literal rule's matches found with ``str.find`` are exactly its regex's."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from nextedit.suggest.repeat.model import make_rule
from nextedit.suggest.repeat.sites import literal_matches

ALPHABET = st.sampled_from(list("aab_ (\n.é$1"))
TEXT = st.text(ALPHABET, max_size=40)
LITERAL = st.text(ALPHABET, min_size=1, max_size=4)


@settings(max_examples=400, deadline=None)
@given(text=TEXT, literal=LITERAL, bounds=st.tuples(st.integers(0, 40), st.integers(0, 40)))
@example(text="ab abx", literal="ab", bounds=(0, 5))  # a word character just past endpos: the regex sees the end
@example(text="xab ab", literal="ab", bounds=(1, 6))  # just before pos: the regex still looks behind
def test_literal_matches_are_the_regex_matches(text: str, literal: str, bounds: tuple[int, int]) -> None:
    pos, endpos = sorted(min(b, len(text)) for b in bounds)
    rule = make_rule([literal], ["x"], [], 1, 1.0, ())
    assert rule.plain_literal == literal
    want = [m.span() for m in rule.regex.finditer(text, pos, endpos)]
    got = [(m.start(), m.end()) for m in literal_matches(text, literal, pos, endpos)]
    assert got == want
    assert all(m.group() == literal for m in literal_matches(text, literal, pos, endpos))
    # a replacement the site search does not read itself expands as the regex's match does
    template = r"<\g<0>>\t"
    assert [m.expand(template) for m in literal_matches(text, literal, pos, endpos)] == [
        m.expand(template) for m in rule.regex.finditer(text, pos, endpos)
    ]
