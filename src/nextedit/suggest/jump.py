"""Jumps: lead the developer to a predicted edit they cannot see.

Owns :func:`plan`. When the best candidate is an ``edit`` whose every change
lies outside the visible range (from ``didFocus``) or more than
:data:`FAR_LINES` lines from the cursor, or in another document, and the
client advertised ``jump``, the answer becomes ``[jump to it, the edit]``.
A rename or search-and-replace applies wholesale and needs no jump.

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

from nextedit.suggest.filters import change_key, rule_key
from nextedit.suggest.model import Candidate, TextEditCp
from nextedit.suggest.suggester import SuggestContext
from nextedit.text.affixes import common_prefix_len

__all__ = ["FAR_LINES", "plan", "needs_jump"]

FAR_LINES = 30


def needs_jump(candidate: Candidate, context: SuggestContext) -> bool:
    """Whether the developer would not see ``candidate`` where they are."""
    if candidate.kind != "edit" or not candidate.edits:
        return False
    if candidate.uri != context.uri:
        return True
    document = context.document
    focus = context.state.focus
    visible = None
    if focus is not None and focus.version == document.version:
        visible = focus.visible_cp
    cursor_line = document.line_of(context.cursor_cp)
    for edit in candidate.edits:
        if visible is not None:
            if visible[0] <= edit.start_cp <= visible[1]:
                return False
        elif abs(document.line_of(edit.start_cp) - cursor_line) <= FAR_LINES:
            return False
    if visible is None:
        return True
    # outside the visible range; still no jump when right next to the cursor
    return all(abs(document.line_of(e.start_cp) - cursor_line) > 0 for e in candidate.edits)


def landing(edit: TextEditCp, text: str) -> int:
    """Where a jump to ``edit`` puts the caret: on the first line it changes.

    That is past what its text and the document's share at its start. A
    deletion (nothing left to insert once past that) is read as far down as
    the same deletion can be, by at most its own length: deleting
    ``}\n\nimpl …\n    }\n`` after an enum's last line removes the same
    text as deleting ``impl …}\n\n`` from the next non-blank line, where
    the developer sees lines go. When it then starts with a line break, the
    line before is left as it was: the caret goes to the next line."""
    start, end, new = edit.start_cp, edit.end_cp, edit.new_text
    shared = common_prefix_len(text[start:end], new)
    start += shared
    if shared < len(new):
        return start
    # the deletion reads the same shifted by k while the k characters after it repeat its first k
    shift = common_prefix_len(text[start:end], text[end : end + (end - start)])
    start, end = start + shift, end + shift
    for brk in ("\r\n", "\n", "\r"):
        if text.startswith(brk, start) and start + len(brk) <= end:
            return start + len(brk)
    return start


def plan(candidates: list[Candidate], context: SuggestContext) -> list[Candidate]:
    """Put a jump before the best candidate when it needs one (``jump`` advertised)."""
    if not candidates or not context.kinds.jump:
        return candidates
    best = candidates[0]
    if not needs_jump(best, context):
        return candidates
    state = context.workspace.get(best.uri)
    if best.uri == context.uri:
        edit = min(best.edits, key=lambda e: abs(e.start_cp - context.cursor_cp))
    else:
        edit = best.edits[0]
    target = landing(edit, state.document.text) if state is not None else edit.start_cp
    jump = Candidate(
        kind="jump",
        uri=best.uri,
        edits=(),
        score=best.score,
        suggester=best.suggester,
        evidence=best.evidence + ("the edit is out of view",),
        fingerprint=f"jump:{best.fingerprint}",
        rule=f"jump:{rule_key(best)}",
        target_cp=target,
        change=change_key(best.uri, best.edits, state.document.text) if state is not None else "",
    )
    return [jump, *candidates]
