"""The repeat tokenizer: an edited window re-read only around its change gives its full tokenization."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.suggest.repeat.tokens import IDENT, PUNCT, STRING, Tok, tokenize, tokenize_changed
from nextedit.text.affixes import common_affixes

# what makes token boundaries move: quotes, escapes, string prefixes, word and
# non-word characters, operators whose halves are tokens too, line breaks (and
# the \r and U+2028 that a string may hold, which break no line here)
_CHARS = st.sampled_from(list("ab_1 \t\r\n\n\"'`\\rbfU.,:=->!é$\u2028"))
_TEXT = st.text(_CHARS, max_size=48)


@st.composite
def _edits(draw: st.DrawFn) -> tuple[str, str, int, int]:
    """``(old, new, prefix, suffix)``: ``new`` is ``old`` with one span
    replaced, ``prefix`` and ``suffix`` any lengths the two share at their
    ends without overlapping (not only the longest)."""
    old = draw(_TEXT)
    start = draw(st.integers(0, len(old)))
    end = draw(st.integers(start, len(old)))
    new = old[:start] + draw(_TEXT) + old[end:]
    most_pre, most_suf = common_affixes(old, new)
    prefix = draw(st.integers(0, most_pre))
    return old, new, prefix, draw(st.integers(0, most_suf))


@settings(max_examples=600)
@given(_edits())
def test_changed_tokenization_is_the_full_one(edit: tuple[str, str, int, int]) -> None:
    old, new, prefix, suffix = edit
    assert tokenize_changed(new, tokenize(old), len(old), prefix, suffix) == tokenize(new)


def test_an_unterminated_string_closed_by_the_edit_is_read_again() -> None:
    # the quote opened on the shared first line ends only in the new text
    old = 'x = "abc\ny = 1\nz = 2\n'
    new = 'x = "abc"\ny = 1\nz = 2\n'
    prefix, suffix = common_affixes(old, new)
    toks = tokenize_changed(new, tokenize(old), len(old), prefix, suffix)
    assert toks == tokenize(new)
    assert Tok(STRING, '"abc"', 4, 9) in toks


def test_tokens_after_the_change_move_by_its_length() -> None:
    old = "call(a)\nnext(b)\n"
    new = "call(a, extra)\nnext(b)\n"
    prefix, suffix = common_affixes(old, new)
    toks = tokenize_changed(new, tokenize(old), len(old), prefix, suffix)
    assert [t for t in toks if t.text == "next"] == [Tok(IDENT, "next", 15, 19)]
    assert toks[-1] == Tok(PUNCT, ")", 21, 22)
