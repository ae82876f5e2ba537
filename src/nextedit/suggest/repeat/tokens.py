"""A small language-agnostic tokenizer for the repeat-edit synthesizer.

The repeated-edit suggester works on token sequences: identifiers, numbers,
string literals, operators and punctuation; whitespace and line breaks are
not tokens (they are kept as the gaps between tokens so that an edit can be
reproduced exactly). Comments are tokenized like code: an edit inside a
comment is repeated only at sites whose text matches token for token.

Owns nothing but the lexing; :mod:`nextedit.suggest.repeat.suggester` decides what the
tokens mean.

Why not :mod:`nextedit.syntax.tokens` (the rename fallback's lexer)? Rules are
anti-unified token by token, so the units differ on purpose: here a comment's
words are tokens (an edit inside a comment still yields a token-level change,
which the synthesizer then judges as prose), multi-character operators
(``::``, ``->``, ``=>``, ``+=``…) are one token each (context is counted in
tokens, and ``Ordering::`` must be two tokens, not three), and only
single-line strings are literals (a hole never spans lines). Callers tokenize
a bounded window around an edit, never a whole document. The pattern is
:data:`nextedit.text.lexical.REPEAT_TOKEN_RE` (beside the others, where
``$`` is a word char and here it is not).
"""

from __future__ import annotations

from typing import NamedTuple

from nextedit.text.lexical import REPEAT_TOKEN_RE

__all__ = ["Tok", "tokenize", "IDENT", "NUMBER", "STRING", "PUNCT"]

IDENT = "ident"
NUMBER = "number"
STRING = "string"
PUNCT = "punct"


class Tok(NamedTuple):
    """One token: its kind, text and cp span in the tokenized string.

    A named tuple, not a frozen dataclass: a new edit's context window is
    tokenized on the request path (a few hundred tokens), and building a
    tuple directly costs a third of running a dataclass ``__init__``."""

    kind: str
    text: str
    start: int
    end: int


_new_tok = tuple.__new__  # Tok(...) without NamedTuple's Python-level __new__


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Tok]:
    """Tokens of ``text[start:end]`` with offsets into ``text``."""
    end = len(text) if end is None else end
    return [
        _new_tok(Tok, (m.lastgroup or PUNCT, m.group(), m.start(), m.end()))
        for m in REPEAT_TOKEN_RE.finditer(text, start, end)
    ]
