"""The same-name lookup of a language without a grammar, told by one scan.

:func:`nextedit.syntax.tokens.same_name_occurrences` finds a name's
occurrences with a pattern that meets only that name, strings, comments and
runs of other tokens (:func:`nextedit.text.lexical.fallback_name_scanner`).
On fmt's 162 KB ``format.h`` it costs a fifth of cutting the whole text into
token objects, and no garbage collection. Whatever the text, it must say
what the full tokenization says: every word token equal to the word at the
offset, none inside a number, a string or a comment.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.syntax.tokens import same_name_occurrences, tokenize, word_at


def _by_tokens(text: str, cp_offset: int) -> list[tuple[int, int]] | None:
    """The lookup as the token stream states it."""
    tokens = tokenize(text)
    target = word_at(tokens, cp_offset)
    if target is None:
        return None
    return [(t.start_cp, t.end_cp) for t in tokens if t.kind == "word" and t.text == target.text]


# names, digits (a Unicode one too), every character that opens a string or
# a comment, escapes, blanks and line breaks
_PIECES = st.sampled_from(
    ["ab", "a", "b", "é", "$", "_", "1", "٣", ".", " ", "\n", '"', "'", "`", '"""', "#", "/", "*", "\\", "(", "a$b"]
)


@settings(max_examples=400)
@given(st.lists(_PIECES, max_size=40).map("".join), st.integers(-2, 90))
def test_the_scan_finds_what_the_tokens_say(text: str, offset: int) -> None:
    cp = min(max(offset, 0), len(text))
    assert same_name_occurrences(text, cp) == _by_tokens(text, cp)


def test_a_name_is_found_in_code_and_not_in_strings_comments_or_numbers() -> None:
    text = 'cfg = load(cfg) # cfg\nx = "cfg" + 1.cfg + cfg2 + cfg$ // cfg\n/* cfg */ use(cfg)\n'
    found = same_name_occurrences(text, 0)
    assert found is not None
    assert [text[s:e] for s, e in found] == ["cfg"] * 3
    assert [s for s, _ in found] == [0, text.index("load(cfg") + 5, text.index("use(cfg") + 4]


def test_no_word_at_the_offset_is_no_answer() -> None:
    text = 'x = "name" # name\n'
    assert same_name_occurrences(text, text.index("name") + 1) is None  # inside a string
    assert same_name_occurrences(text, text.index("# name") + 3) is None  # inside a comment
    assert same_name_occurrences(text, 2) is None  # between a blank and `=`


def test_a_name_longer_than_the_first_look_behind_is_found_whole() -> None:
    name = "n" * 1000
    text = f"{name} = 1\nuse({name})\nuse({name}x)\n"
    assert same_name_occurrences(text, 900) == [
        (0, 1000),
        (text.index(f"({name})") + 1, text.index(f"({name})") + 1001),
    ]
