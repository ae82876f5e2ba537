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

__all__ = ["Tok", "tokenize", "tokenize_changed", "IDENT", "NUMBER", "STRING", "PUNCT"]

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


def tokenize_changed(text: str, old_toks: list[Tok], old_len: int, prefix: int, suffix: int) -> list[Tok]:
    """``tokenize(text)``, given ``old_toks = tokenize(old)`` of a text of
    ``old_len`` characters that shares ``text``'s first ``prefix`` and, not
    overlapping them, last ``suffix`` characters: only the lines between
    the last line break of the shared start and the first of the shared end
    are read again (an edit's window before and after it differ in the
    edited lines alone).

    Exact because no token holds a line break and matching one never reads
    past the next break (strings end at the line, names and numbers at any
    non-word character): tokens before the shared start's last break are
    the same in both texts, and so, moved by the length difference, are
    those after the shared end's first break."""
    n = text.rfind("\n", 0, prefix)  # -1: nothing shared before the change's line
    m = text.find("\n", len(text) - suffix) if suffix else -1
    delta = len(text) - old_len
    head = [t for t in old_toks if t.start < n] if n > 0 else []
    middle = tokenize(text, max(n, 0), m if m >= 0 else len(text))
    if m < 0:
        return head + middle
    m_old = m - delta
    tail = [_new_tok(Tok, (t.kind, t.text, t.start + delta, t.end + delta)) for t in old_toks if t.start > m_old]
    return head + middle + tail
