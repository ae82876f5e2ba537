"""Plain token stream: the fallback when a language has no grammar.

Owns a language-agnostic tokenizer over ``str`` text (code-point offsets):
words, numbers, strings, comments and punctuation, recognising the common
syntaxes (``#`` and ``//`` line comments, ``/* */`` block comments, single,
double, backtick and triple quotes with backslash escapes), and the
same-name lookup built on it.

Must not know about tree-sitter, LSP/ACP or position encodings: offsets are
code-point indices into the ``str`` it is given. Whitespace is not a token.
The pattern is :data:`nextedit.text.lexical.FALLBACK_TOKEN_RE`.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from nextedit.text.lexical import FALLBACK_TOKEN_RE

__all__ = ["Token", "TokenKind", "tokenize", "word_at", "same_name_occurrences"]

TokenKind = Literal["word", "number", "string", "comment", "punct"]


class Token(NamedTuple):
    kind: TokenKind
    start_cp: int
    end_cp: int
    text: str


def tokenize(text: str) -> list[Token]:
    """Every non-whitespace token of ``text``, in order, non-overlapping."""
    out: list[Token] = []
    for m in FALLBACK_TOKEN_RE.finditer(text):
        kind = m.lastgroup
        if kind is None:  # pragma: no cover - every alternative is named
            continue
        out.append(Token(kind, m.start(), m.end(), m.group()))  # type: ignore[arg-type]
    return out


def word_at(tokens: list[Token], cp_offset: int) -> Token | None:
    """The word token containing ``cp_offset`` or ending exactly there."""
    lo, hi = 0, len(tokens)
    while lo < hi:  # first token whose end >= cp_offset
        mid = (lo + hi) // 2
        if tokens[mid].end_cp < cp_offset:
            lo = mid + 1
        else:
            hi = mid
    for tok in tokens[lo : lo + 2]:
        if tok.kind == "word" and tok.start_cp <= cp_offset <= tok.end_cp:
            # prefer the token that starts at the cursor over one that ends there
            if tok.end_cp == cp_offset and lo + 1 < len(tokens):
                nxt = tokens[lo + 1]
                if nxt.kind == "word" and nxt.start_cp == cp_offset:
                    return nxt
            return tok
    return None


def same_name_occurrences(text: str, cp_offset: int) -> list[tuple[int, int]] | None:
    """``(start_cp, end_cp)`` of every word token equal to the word at (or
    ending at) ``cp_offset``, outside strings and comments; ``None`` when
    there is no word there."""
    tokens = tokenize(text)
    target = word_at(tokens, cp_offset)
    if target is None:
        return None
    name = target.text
    return [(t.start_cp, t.end_cp) for t in tokens if t.kind == "word" and t.text == name]
