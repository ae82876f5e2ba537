"""A repeated change keeps the site's own line breaks.

Owns :func:`keep_site_layout`. When the developer's example both changed
code and broke (or joined) a line — a formatter re-wrapping a call that grew
past the column limit, ``f(a)`` → ``f(a,\\n      b)`` — the line break belongs
to that line's length and indentation, not to the change. Carried to another
site it lands where the site's own formatting would put no break, or a break
indented for the example's nesting (``, DYNAMIC_NAMES>(\\n          `` where
the site's call sits thirty columns further in), and the developer's own
edit there differs. So a site gets the example's tokens, not its wrapping:
the blanks between two tokens the change leaves alone are left as the site
has them when the change adds or removes line breaks there.

Left whole: a change that writes or removes no name, number or string
(punctuation and blanks: a reformatting, such as a backslash continuation
traded for a call broken inside its brackets), whose line breaks are what
it changes; a change of indentation alone (the same number of line breaks:
a re-indented block is part of the change); a change on lines longer than
the window together, or one too big to diff on the request path.

In a language where a line break ends a statement (Python, Ruby) a break is
kept or dropped only inside brackets, where it means nothing.

Measured on the shared sets in ``benchmarks/results/quality-layout.md``.
Pure text; must not know about rules, examples or sites, nor LSP/ACP or
position encodings.
"""

from __future__ import annotations

import difflib

from nextedit.suggest.repeat.tokens import PUNCT, Tok, tokenize
from nextedit.text import common_affixes
from nextedit.text.lines import line_around

__all__ = ["keep_site_layout"]

# languages where a line break outside brackets ends a statement
_BREAKS_END_STATEMENTS = frozenset({"python", "ruby"})
# the lines around a change are read for its tokens only up to this length
_WINDOW_CHARS = 2000
# the changed middles diffed at most: tokens replaced times tokens written
# (a rewrite of a few lines; the diff's cost grows with the product)
_MIDDLE_PAIRS = 10_000
_OPENING = ("(", "[", "{", ",")
_CLOSING = (")", "]", "}")


def keep_site_layout(text: str, start: int, end: int, new: str, language: str | None) -> tuple[int, int, str]:
    """The change of ``text[start:end]`` to ``new`` with the line breaks it adds
    or removes between unchanged tokens left as ``text`` has them, as a
    trimmed ``(start, end, new)``; the change itself when it has none, or
    nothing else."""
    if new.count("\n") == text.count("\n", start, end):
        return start, end, new  # no line broken or joined (one broken where another is joined is let be)
    # the site's lines, looked for no further than the window reaches (a minified
    # file's one line is not read whole)
    first, last = line_around(text, start, _WINDOW_CHARS), line_around(text, end, _WINDOW_CHARS)
    if first is None or last is None:
        return start, end, new
    line_start, line_end = first[0], last[1]
    if line_end - line_start + len(new) > _WINDOW_CHARS:
        return start, end, new
    before = text[line_start:line_end]
    after = text[line_start:start] + new + text[end:line_end]
    old_toks, new_toks = tokenize(before), tokenize(after)
    brackets_only = language in _BREAKS_END_STATEMENTS
    blocks = _matching_runs(tuple(t.text for t in old_toks), tuple(t.text for t in new_toks))
    if blocks is None:
        return start, end, new  # a rewrite too big to diff on the request path
    if not _changes_a_word(blocks, old_toks, new_toks):
        return start, end, new  # punctuation and blanks: a reformatting, whose line breaks are the change
    # (start, end, blanks) in ``after``: gaps between unchanged tokens given back the site's blanks
    restored: list[tuple[int, int, str]] = []
    for i, j, size in blocks:
        for k in range(size - 1):
            was = before[old_toks[i + k].end : old_toks[i + k + 1].start]
            now_start, now_end = new_toks[j + k].end, new_toks[j + k + 1].start
            now = after[now_start:now_end]
            if was.count("\n") != now.count("\n") and (
                not brackets_only or _inside_brackets(new_toks[j + k], new_toks[j + k + 1])
            ):
                restored.append((now_start, now_end, was))
    if not restored:
        return start, end, new
    parts: list[str] = []
    at = 0
    for gap_start, gap_end, blanks in restored:
        parts.append(after[at:gap_start])
        parts.append(blanks)
        at = gap_end
    parts.append(after[at:])
    result = "".join(parts)
    if result == before:  # nothing but line breaks changed: that is the change
        return start, end, new
    prefix, suffix = common_affixes(before, result)
    return line_start + prefix, line_end - suffix, result[prefix : len(result) - suffix]


def _matching_runs(old: tuple[str, ...], new: tuple[str, ...]) -> list[tuple[int, int, int]] | None:
    """``(i, j, size)``: runs of tokens ``old[i:i+size] == new[j:j+size]`` the
    change leaves alone — the shared start and end, and what
    :class:`difflib.SequenceMatcher` matches between them (only the changed
    middle is diffed: a change of one token in a long line costs a slice
    comparison, not a quadratic match); ``None`` when the middle is past
    ``_MIDDLE_PAIRS``."""
    prefix, suffix = common_affixes(old, new)
    if (len(old) - prefix - suffix) * (len(new) - prefix - suffix) > _MIDDLE_PAIRS:
        return None
    runs = [(0, 0, prefix)] if prefix else []
    middle = difflib.SequenceMatcher(
        None, old[prefix : len(old) - suffix], new[prefix : len(new) - suffix], autojunk=False
    )
    runs.extend((prefix + i, prefix + j, size) for i, j, size in middle.get_matching_blocks() if size)
    if suffix:
        runs.append((len(old) - suffix, len(new) - suffix, suffix))
    return runs


def _changes_a_word(blocks: list[tuple[int, int, int]], old_toks: list[Tok], new_toks: list[Tok]) -> bool:
    """A token between the matching ``blocks`` (removed or written) is a name, number or string."""
    old_at = new_at = 0
    for i, j, size in [*blocks, (len(old_toks), len(new_toks), 0)]:
        if any(t.kind != PUNCT for t in old_toks[old_at:i]) or any(t.kind != PUNCT for t in new_toks[new_at:j]):
            return True
        old_at, new_at = i + size, j + size
    return False


def _inside_brackets(left: Tok, right: Tok) -> bool:
    """Blanks between these tokens lie just inside brackets or after a comma."""
    return left.text.endswith(_OPENING) or right.text.startswith(_CLOSING)
