"""Filters: the things the engine never suggests, whatever a suggester says.

Owns :func:`screen` (the candidate with its edits cleaned, or why it must
go) and :func:`clean_edits` (the candidate's edits sorted, without no-ops).
Never:

- a candidate whose fingerprint the developer rejected (fingerprints name the
  change, not its offsets, so a rejection survives later edits), or another
  site of a rule whose suggestion they dismissed, until they give the rule a
  new example themselves;
- the same change (:func:`change_key`: what the edit changes, apart from
  where) as a suggestion they dismissed, whichever rule or suggester makes
  it, until a candidate's own rule has an example newer than the dismissal:
  otherwise a rename refused at one site comes back as a repeated edit of the
  same two words, or the next site by another rule made from the same edits;
- an edit outside the text, or edits that overlap each other;
- a change that does nothing, or only changes whitespace (formatting);
- a reversal of what the developer did: deleting text they typed or
  restoring text they deleted at the same place (recent developer edits),
  and, session-wide as FORMAT.md counts it, replacing any character they
  typed in this session or inserting a non-blank text equal (whitespace
  stripped) to one they deleted in this session
  (:meth:`~nextedit.history.EditHistory.typed_spans`, ``was_deleted``).

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Sequence
from typing import Protocol

from nextedit.history import DeveloperEdit, EditHistory
from nextedit.suggest.model import Candidate, TextEditCp
from nextedit.suggest.suggester import SuggestContext
from nextedit.text import common_affixes
from nextedit.text.affixes import changed_part

__all__ = [
    "CHANGE_REJECTED",
    "NO_OP",
    "OUTSIDE",
    "REJECTED",
    "REVERSAL",
    "RULE_REJECTED",
    "WHITESPACE",
    "change_key",
    "clean_edits",
    "is_reversal",
    "reverses",
    "Ruled",
    "rule_key",
    "screen",
]

REJECTED = "rejected"
OUTSIDE = "outside-text"
NO_OP = "no-op"
WHITESPACE = "whitespace-only"
REVERSAL = "reversal"
RULE_REJECTED = "rule-dismissed"
CHANGE_REJECTED = "change-dismissed"

_WS = re.compile(r"\s+")
# how many recent developer edits a reversal is checked against
_REVERSAL_LOOKBACK = 16


class Ruled(Protocol):
    """A candidate, or the suggestion placed from one."""

    @property
    def rule(self) -> str: ...
    @property
    def fingerprint(self) -> str: ...


def rule_key(suggestion: Ruled) -> str:
    """What a dismissal of ``suggestion`` silences at its other sites: its
    rule, which a repeated edit's sites share (``repeat:{uri}:{before!r}->{after!r}``),
    or its fingerprint when it names none. A field of its own, not a prefix of
    the fingerprint: a rule's text and a document's path may hold any
    character (``@Deprecated``, ``packages/@scope/``), so no separator cut
    out of the fingerprint keeps two rules apart."""
    return suggestion.rule or suggestion.fingerprint


def change_key(uri: str, edits: Sequence[TextEditCp], text: str) -> str:
    """What the first of ``edits`` changes in ``uri``, apart from where
    (:func:`~nextedit.text.affixes.changed_part` of its old and new text): a
    dismissal's key in ``SuggestContext.rejected_rules``, beside the rules'.
    Empty for no edit or a change of blanks only."""
    if not edits:
        return ""
    first = min(edits, key=lambda e: (e.start_cp, e.end_cp))
    old, new = changed_part(text[first.start_cp : first.end_cp], first.new_text)
    return f"change:{uri}:{old!r}->{new!r}" if old or new else ""


def clean_edits(candidate: Candidate, text: str) -> tuple[TextEditCp, ...] | None:
    """The edits sorted by offset, no-ops dropped; ``None`` when out of range or overlapping."""
    edits = sorted(candidate.edits, key=lambda e: (e.start_cp, e.end_cp))
    out: list[TextEditCp] = []
    prev_end = -1
    for edit in edits:
        if edit.start_cp < 0 or edit.end_cp > len(text) or edit.start_cp > edit.end_cp:
            return None
        if edit.start_cp < prev_end:
            return None
        prev_end = edit.end_cp
        if text[edit.start_cp : edit.end_cp] == edit.new_text:
            continue
        out.append(edit)
    return tuple(out)


def screen(candidate: Candidate, context: SuggestContext, rejected: frozenset[str] | set[str]) -> Candidate | str:
    """``candidate`` with its edits cleaned (:func:`clean_edits`) when it may
    be offered; otherwise why not (one of this module's reasons). The checks
    and whoever offers it read the cleaned edits returned here. A jump is
    judged by its target alone: edits it carries that are out of range or
    overlap are dropped, not a reason to refuse it."""
    if candidate.fingerprint and candidate.fingerprint in rejected:
        return REJECTED
    dismissed_at = context.rejected_rules.get(rule_key(candidate))
    if dismissed_at is not None and candidate.example_seq <= dismissed_at:
        return RULE_REJECTED
    state = context.workspace.get(candidate.uri)
    if state is None:
        return OUTSIDE
    text = state.document.text
    if candidate.kind == "jump":
        target = candidate.target_cp
        if target is None or not 0 <= target <= len(text):
            return OUTSIDE
        return _with_edits(candidate, clean_edits(candidate, text) or ())
    edits = clean_edits(candidate, text)
    if edits is None:
        return OUTSIDE
    if not edits:
        return NO_OP
    if context.rejected_rules:
        key = change_key(candidate.uri, edits[:1], text)  # edits are sorted
        dismissed_at = context.rejected_rules.get(key)
        if dismissed_at is not None and candidate.example_seq <= dismissed_at:
            return CHANGE_REJECTED
    if all(_whitespace_only(text[e.start_cp : e.end_cp], e.new_text) for e in edits):
        return WHITESPACE
    if reverses(context, candidate.uri, edits):
        return REVERSAL
    return _with_edits(candidate, edits)


def _with_edits(candidate: Candidate, edits: tuple[TextEditCp, ...]) -> Candidate:
    """``candidate`` with ``edits`` (itself when they are its own: no copy)."""
    return candidate if edits == candidate.edits else dataclasses.replace(candidate, edits=edits)


def reverses(context: SuggestContext, uri: str, edits: Sequence[TextEditCp]) -> bool:
    """Whether ``edits`` (sorted, not overlapping: :func:`clean_edits`) of the
    open document ``uri`` undo what the developer did: a recent edit at the
    same place, or anything typed or deleted this session."""
    state = context.workspace.get(uri)
    if state is None:
        return False
    text = state.document.text
    history = context.edits_of(uri)[-_REVERSAL_LOOKBACK:]
    if any(is_reversal(edit, text, history) for edit in _touching(edits, history)):
        return True
    return undoes_session(edits, text, state.history)


def _touching(edits: Sequence[TextEditCp], history: Sequence[DeveloperEdit]) -> list[TextEditCp]:
    """The ``edits`` (sorted, not overlapping: :func:`clean_edits`) that touch
    the range of some developer edit in ``history`` — the only ones
    :func:`is_reversal` can find reversing it — in order."""
    if len(edits) <= len(history):
        return list(edits)
    starts = [e.start_cp for e in edits]
    ends = [e.end_cp for e in edits]  # ascending too: the edits do not overlap
    picked: set[int] = set()
    for dev in history:
        # start <= the developer edit's end and end >= its start
        picked.update(range(bisect.bisect_left(ends, dev.start_cp), bisect.bisect_right(starts, dev.new_end_cp)))
    return [edits[i] for i in sorted(picked)]


def _core(edit: TextEditCp, text: str, trimmed: dict[tuple[str, str], tuple[int, int, str]]) -> tuple[int, int, str]:
    """The changed core of ``edit``: common prefix and suffix with the text
    dropped (``trimmed``: the replacements worked out so far — a rename
    replaces the same text at every site)."""
    old, new = text[edit.start_cp : edit.end_cp], edit.new_text
    found = trimmed.get((old, new))
    if found is None:
        p, q = common_affixes(old, new)
        found = trimmed[(old, new)] = (p, q, new[p : len(new) - q])
    p, q, core = found
    return edit.start_cp + p, edit.end_cp - q, core


def undoes_session(edits: Sequence[TextEditCp], text: str, history: EditHistory | None) -> bool:
    """Whether an edit replaces text the developer typed in this session or
    inserts a text they deleted in it (FORMAT.md's reversal, session-wide)."""
    if history is None:
        return False
    spans = history.typed_spans()
    starts = [a for a, _ in spans]
    trimmed: dict[tuple[str, str], tuple[int, int, str]] = {}
    for edit in edits:
        start, end, inserted = _core(edit, text, trimmed)
        if end > start and spans:
            i = bisect.bisect_left(starts, end)
            # spans are disjoint and sorted: only the one before ``end`` can reach back
            if i > 0 and spans[i - 1][1] > start:
                return True
        if inserted.strip() and history.was_deleted(inserted):
            return True
    return False


def _whitespace_only(old: str, new: str) -> bool:
    return _WS.sub("", old) == _WS.sub("", new)


def is_reversal(edit: TextEditCp, text: str, history: Sequence[DeveloperEdit]) -> bool:
    """Whether ``edit`` deletes text a recent developer edit typed, or restores
    text it deleted, at the same place."""
    for dev in history:
        d_start, d_end = dev.start_cp, dev.new_end_cp
        # deletes typed text: typed characters inside the replaced range vanish
        lo, hi = max(edit.start_cp, d_start), min(edit.end_cp, d_end)
        if lo < hi:
            typed = text[lo:hi]
            if typed.strip() and typed not in edit.new_text:
                return True
        # restores deleted text at the same place
        deleted = dev.old_text.strip()
        if deleted and edit.start_cp <= d_end and edit.end_cp >= d_start:
            replaced = text[edit.start_cp : edit.end_cp]
            if deleted in edit.new_text and deleted not in replaced:
                return True
    return False
