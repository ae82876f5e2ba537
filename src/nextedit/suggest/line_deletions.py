"""Deletions that empty a line take the line with them.

A rule learned from token edits deletes the tokens it matched: at a site
where those tokens are everything on their line (``app = Flask(__name__)``
inside a test, an attribute line, a statement), the suggestion would leave
the line's indentation and line break behind, a blank line the developer
then deletes by hand. The developer's own example deleted the whole line;
so does the suggestion, once :func:`whole_line_deletions` has widened it.

Only pure deletions are widened, and only when what stays of the first and
last line around them is blank: a deletion inside a line, or one followed by
an insertion, keeps its range (the blanks a deletion would leave at a line's
end are the repeat suggester's own, :func:`~nextedit.suggest.repeat.text.without_trailing_blanks`).
:func:`widen_line_deletions` applies it to the engine's ``edit`` candidates
whose example removed lines (a ``searchAndReplace`` keeps the edits its
search and replacement make), before the filters judge them. Must not know
about LSP/ACP or position encodings.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from nextedit.suggest import filters
from nextedit.suggest.model import Candidate, TextEditCp
from nextedit.suggest.suggester import SuggestContext

__all__ = ["line_removals", "whole_line_deletions", "widen_line_deletions"]

_BLANK = " \t"


def line_removals(context: SuggestContext) -> frozenset[int]:
    """The developer edits (``seq``) of the request document that deleted
    whole lines. A line the developer replaced by a blank one is not among
    them: the candidates repeating it keep the line, blank."""
    return frozenset(
        e.seq for e in context.edits if not e.new_text.strip() and e.new_text.count("\n") < e.old_text.count("\n")
    )


def widen_line_deletions(candidate: Candidate, context: SuggestContext, removals: frozenset[int]) -> Candidate:
    """``candidate`` with its line-emptying deletions widened to whole lines
    when it is an ``edit`` repeating one of ``removals``
    (:func:`line_removals`); as it is otherwise, and when taking the blanks
    along would undo what the developer typed (a reversal)."""
    if candidate.kind != "edit" or candidate.example_seq not in removals:
        return candidate
    state = context.workspace.get(candidate.uri)
    if state is None:
        return candidate
    text = state.document.text
    edits = filters.clean_edits(candidate, text)
    if not edits:
        return candidate
    whole = whole_line_deletions(edits, text)
    if whole == edits or filters.reverses(context, candidate.uri, whole):
        return candidate
    return dataclasses.replace(candidate, edits=whole)


def whole_line_deletions(edits: Sequence[TextEditCp], text: str) -> tuple[TextEditCp, ...]:
    """``edits`` (sorted, not overlapping) with every deletion that empties
    its lines widened to the whole lines; the edits as given when a widened
    one would reach into a neighbour."""
    widened = tuple(_widen(edit, text) for edit in edits)
    for before, after in itertools.pairwise(widened):
        if before.end_cp > after.start_cp:
            return tuple(edits)
    return widened


def _widen(edit: TextEditCp, text: str) -> TextEditCp:
    start, end = edit.start_cp, edit.end_cp
    if edit.new_text or start >= end or not text[start:end].strip():
        return edit
    line_start = start
    while line_start > 0 and text[line_start - 1] in _BLANK:
        line_start -= 1
    if line_start > 0 and text[line_start - 1] != "\n":
        return edit
    if text[end - 1] == "\n":
        return TextEditCp(line_start, end, "")  # the line break is gone already
    line_end = end
    while line_end < len(text) and text[line_end] in _BLANK:
        line_end += 1
    if text.startswith("\r\n", line_end):
        return TextEditCp(line_start, line_end + 2, "")
    if text.startswith("\n", line_end):
        return TextEditCp(line_start, line_end + 1, "")
    if line_end == len(text) and line_start > 0:
        # the last line, without a line break of its own: the one before it goes
        back = 2 if text.startswith("\r\n", line_start - 2) else 1
        return TextEditCp(line_start - back, line_end, "")
    return edit
