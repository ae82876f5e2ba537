"""Whole-word search of a name, shared by the rename, repeat, signature and import readers."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from nextedit.suggest.rename.occurrences import word_starts
from nextedit.text.lexical import word_hits, word_pattern

_NAMES = st.sampled_from(["a", "ab", "x1", "$el", "été", "aa"])
_TEXTS = st.text(alphabet=st.sampled_from(list("a bx1$é.(_\n")), max_size=60)


def _regex_starts(text: str, name: str) -> list[int]:
    return [m.start() for m in re.finditer(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", text)]


@given(_TEXTS, _NAMES)
def test_whole_word_places_are_the_regex_matches(text: str, name: str) -> None:
    assert [p for p, whole in word_hits(text, name) if whole] == _regex_starts(text, name)
    assert word_starts(text, name) == _regex_starts(text, name)


@given(_TEXTS, _NAMES, st.integers(-5, 70), st.integers(-5, 70))
@example("aa.", "aa", 0, -1)  # a negative end is an empty window, not a slice from the end
def test_a_window_finds_the_places_within_it(text: str, name: str, lo: int, hi: int) -> None:
    inside = [p for p, whole in word_hits(text, name) if whole and max(0, lo) <= p and p + len(name) <= hi]
    assert [p for p, whole in word_hits(text, name, lo, hi) if whole] == inside


def test_the_byte_pattern_takes_ascii_word_chars_and_dollar_as_glue() -> None:
    source = b"$el el el_x x.el\n"
    assert [m.start() for m in word_pattern(b"el").finditer(source)] == [4, 14]
