"""Repeated-edit text helpers: lines, trimming and prose over plain strings.

Owns small string functions the synthesis shares (the bounded walks to the
lines around an offset are :mod:`nextedit.text.lines`): whether an offset
sits between two word characters, sliding a whole-line
insertion or deletion to a line start (:func:`align_lines`), widening a
deletion over the blanks it would leave at a line's end
(:func:`without_trailing_blanks`) and whether a text reads as prose.

Must not know about tokens, rules, examples or sites
(:mod:`nextedit.suggest.repeat.synthesis` and its parts), nor LSP/ACP or
position encodings.
"""

from __future__ import annotations

import re

from nextedit.text.lexical import is_plain_word_char


def glued(text: str, pos: int) -> bool:
    """True when the chars at ``pos-1`` and ``pos`` are both word chars."""
    return 0 < pos < len(text) and is_plain_word_char(text[pos - 1]) and is_plain_word_char(text[pos])


def align_lines(text: str, start: int, end: int, new: str) -> tuple[int, int, str]:
    """Slide a pure insertion/deletion of whole lines to start at a line start.

    Trimming places an inserted line wherever the shared text ends (``#[inline]\n    ``
    after an indentation); the same change expressed at the line start is what
    an editor (and a reader) expects.
    """
    if start == end and "\n" in new:
        s, ins = start, new
        for _ in range(len(new)):
            if (s == 0 or text[s - 1] == "\n") and ins.endswith("\n"):
                return s, s, ins
            if s == 0 or text[s - 1] != ins[-1]:
                break
            s, ins = s - 1, ins[-1] + ins[:-1]
        return start, end, new
    if new == "" and "\n" in text[start:end]:
        s, e = start, end
        for _ in range(end - start):
            if (s == 0 or text[s - 1] == "\n") and text[e - 1] == "\n":
                return s, e, ""
            if s == 0 or text[s - 1] != text[e - 1]:
                break
            s, e = s - 1, e - 1
    return start, end, new


def without_trailing_blanks(text: str, start: int, end: int, new: str) -> tuple[int, int, str]:
    """Widen a deletion that would leave only blanks at the end of its line
    over those blanks (``f(x)  # note`` → ``f(x)``): no trailing whitespace is
    left behind. A deletion that would blank the whole line stays as it is
    here; the engine removes the line when the developer's example removed
    lines (:mod:`nextedit.suggest.line_deletions`)."""
    if new or start == end or "\n" in text[start:end]:
        return start, end, new
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if text[end:line_end].strip(" \t"):
        return start, end, new
    s = start
    while s > 0 and text[s - 1] in " \t":
        s -= 1
    if s == 0 or text[s - 1] == "\n":
        return start, end, new
    return s, line_end, ""


def reads_as_prose(text: str) -> bool:
    """Four words in a row separated by blanks only: prose (a comment, a docstring)."""
    return _PROSE_RE.search(text) is not None


# anchored at word starts, possessive: linear in the text (a long run of word
# characters is not retried from each of its positions)
_PROSE_RE = re.compile(r"(?<!\w)[^\W\d]\w*+[ \t]++[^\W\d]\w*+[ \t]++[^\W\d]\w*+[ \t]++[^\W\d]")
