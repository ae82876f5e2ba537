"""Plain token stream: the fallback when a language has no grammar.

Owns a language-agnostic tokenizer over ``str`` text (code-point offsets):
words, numbers, strings, comments and punctuation, recognising the common
syntaxes (``#`` and ``//`` line comments, ``/* */`` block comments, single,
double, backtick and triple quotes with backslash escapes), and the
same-name lookup built on it.

Must not know about tree-sitter, LSP/ACP or position encodings: offsets are
code-point indices into the ``str`` it is given. Whitespace is not a token.
The pattern is :data:`nextedit.text.lexical.FALLBACK_TOKEN_RE` (and, for
one name's occurrences, :func:`nextedit.text.lexical.fallback_name_scanner`).
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from nextedit.text.lexical import FALLBACK_TOKEN_RE, fallback_name_scanner

__all__ = ["Token", "TokenKind", "tokenize", "word_at", "same_name_occurrences"]

TokenKind = Literal["word", "number", "string", "comment", "punct"]


class Token(NamedTuple):
    kind: TokenKind
    start_cp: int
    end_cp: int
    text: str


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Token]:
    """Every non-whitespace token of ``text[start:end]``, in order,
    non-overlapping, with offsets into ``text``."""
    out: list[Token] = []
    for m in FALLBACK_TOKEN_RE.finditer(text, start, len(text) if end is None else end):
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
    there is no word there.

    What :func:`tokenize` and :func:`word_at` would say, without a token
    object per token of the text. Only the run of word characters and dots
    around ``cp_offset`` is cut into tokens: no number, word or punctuation
    token crosses its edges, so that cut is the whole text's unless a
    string or comment covers the run. One scan for the word found there
    (:func:`~nextedit.text.lexical.fallback_name_scanner`) then finds its
    occurrences, and tells whether that word is one of them."""
    cp = min(max(cp_offset, 0), len(text))
    start, end = _run_around(text, cp)
    target = word_at(tokenize(text, start, end), cp)
    if target is None:
        return None
    scanner = fallback_name_scanner(target.text)
    found = [m.span() for m in scanner.finditer(text) if m.lastgroup == "name"]
    return found if (target.start_cp, target.end_cp) in found else None


# what a number, a word or a punctuation dot is made of: no such token crosses a run of them
_RUN_AHEAD = re.compile(r"[\w$.]*")
_RUN_BEHIND = re.compile(r"[\w$.]*\Z")
_RUN_STEP = 256


def _run_around(text: str, cp: int) -> tuple[int, int]:
    """The maximal run of word characters, ``$`` and ``.`` that holds or touches ``cp``."""
    match = _RUN_AHEAD.match(text, cp)
    end = match.end() if match is not None else cp
    reach = _RUN_STEP
    while True:
        floor = max(0, cp - reach)
        behind = _RUN_BEHIND.search(text, floor, cp)
        start = behind.start() if behind is not None else cp
        if start > floor or floor == 0:
            return start, end
        reach *= 2  # the run goes on past the window: look further back
