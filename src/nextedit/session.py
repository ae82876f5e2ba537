"""One NES session: its documents, their syntax and history, and the suggestions it issued.

This is the front ends' only door into the core. Front ends convert wire
messages into calls here (positions as :class:`~nextedit.text.Position` in
the session's negotiated encoding) and convert :class:`PlacedSuggestion`
back into wire types. The session applies the protocol's version rules,
keeps the mirror exact, numbers suggestions, and feeds accept/reject into the
feedback log. It knows nothing of JSON-RPC, ACP or LSP.
"""

from __future__ import annotations

import itertools
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from nextedit.feedback import FeedbackLog
from nextedit.history import EditHistory
from nextedit.suggest.engine import SuggestionEngine
from nextedit.suggest.model import (
    Candidate,
    Diagnostic,
    SilenceReason,
    SuggestionKinds,
    SuggestRequest,
    TriggerKind,
)
from nextedit.syntax import SyntaxTree, language_for
from nextedit.text import Document, Position, PositionEncoding, Range, TextChange

__all__ = ["DocumentState", "FocusInfo", "PlacedEdit", "PlacedSuggestion", "Session"]

log = logging.getLogger(__name__)

# suggestion ids are unique per process, across sessions
_suggestion_ids = itertools.count(1)
# how many issued suggestions a session remembers for accept/reject
_ISSUED_LIMIT = 512


@dataclass
class FocusInfo:
    version: int
    cursor_cp: int
    visible_cp: tuple[int, int]


@dataclass
class DocumentState:
    """One open document with everything the engine knows about it."""

    document: Document
    language: str | None
    syntax: SyntaxTree | None
    history: EditHistory
    focus: FocusInfo | None = None
    saved_version: int | None = None

    @property
    def uri(self) -> str:
        return self.document.uri


@dataclass(frozen=True, slots=True)
class PlacedEdit:
    range: Range
    new_text: str


@dataclass(frozen=True)
class PlacedSuggestion:
    """A suggestion in the session's encoding, ready for a front end to send.

    ``edits`` is always the concrete change (every occurrence of a rename,
    every match of a search-and-replace); front ends that cannot send the
    richer kind send these as an ``edit``.
    """

    id: str
    kind: str
    uri: str
    version: int
    edits: tuple[PlacedEdit, ...]
    position: Position | None = None
    cursor_position: Position | None = None
    new_name: str | None = None
    search: str | None = None
    replace: str | None = None
    is_regex: bool = False
    suggester: str = ""
    evidence: tuple[str, ...] = ()
    fingerprint: str = ""
    score: float = 0.0

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready description (ACP field names) for logs and the feedback file."""
        record: dict[str, Any] = {"id": self.id, "kind": self.kind, "uri": self.uri}
        if self.kind == "edit":
            record["edits"] = [{"range": _range_json(e.range), "newText": e.new_text} for e in self.edits]
            if self.cursor_position is not None:
                record["cursorPosition"] = _position_json(self.cursor_position)
        elif self.kind == "jump":
            record["position"] = _position_json(self.position)
        elif self.kind == "rename":
            record["position"] = _position_json(self.position)
            record["newName"] = self.new_name
        elif self.kind == "searchAndReplace":
            record.update(search=self.search, replace=self.replace, isRegex=self.is_regex)
        return record


def _position_json(position: Position | None) -> dict[str, int] | None:
    if position is None:
        return None
    return {"line": position.line, "character": position.character}


def _range_json(range_: Range) -> dict[str, Any]:
    return {"start": _position_json(range_.start), "end": _position_json(range_.end)}


@dataclass
class Session:
    """An independent NES session; a connection may hold many."""

    session_id: str
    encoding: PositionEncoding = PositionEncoding.UTF16
    kinds: SuggestionKinds = field(default_factory=SuggestionKinds)
    feedback: FeedbackLog | None = None
    workspace_uri: str | None = None
    engine: SuggestionEngine = field(default_factory=SuggestionEngine)
    documents: dict[str, DocumentState] = field(default_factory=dict)
    _issued: OrderedDict[str, PlacedSuggestion] = field(default_factory=OrderedDict)
    _rejected: set[str] = field(default_factory=set)
    closed: bool = False

    def __post_init__(self) -> None:
        if self.feedback is not None:
            self.engine.acceptance = self.feedback.acceptance_rate

    # -- documents -----------------------------------------------------------

    def did_open(self, uri: str, language_id: str, version: int, text: str) -> None:
        """Open (or re-open, replacing the mirror of) a document."""
        document = Document(uri, language_id, version, text)
        language = language_for(language_id, uri)
        syntax = SyntaxTree.parse(language, document.source_bytes) if language else None
        self.documents[uri] = DocumentState(document, language, syntax, EditHistory(uri))

    def did_change(self, uri: str, version: int, changes: Sequence[TextChange]) -> bool:
        """Apply changes in order; False when the document is unknown or the version stale."""
        state = self.documents.get(uri)
        if state is None:
            log.info("didChange for unopened %s ignored", uri)
            return False
        if version <= state.document.version:
            log.info(
                "didChange %s version %d not newer than %d: ignored",
                uri,
                version,
                state.document.version,
            )
            return False
        applied = state.document.apply_changes(changes, version, self.encoding)
        if state.syntax is not None and applied:
            state.syntax.apply_edits(applied, state.document.source_bytes)
        state.history.record(applied, state.document)
        return True

    def did_close(self, uri: str) -> None:
        self.documents.pop(uri, None)

    def did_save(self, uri: str) -> None:
        state = self.documents.get(uri)
        if state is not None:
            state.saved_version = state.document.version

    def did_focus(self, uri: str, version: int, position: Position, visible: Range) -> None:
        state = self.documents.get(uri)
        if state is None or version != state.document.version:
            return
        document = state.document
        state.focus = FocusInfo(
            version,
            document.offset_at(position, self.encoding),
            document.range_offsets(visible, self.encoding),
        )

    # -- suggestions -----------------------------------------------------------

    def suggest(
        self,
        uri: str,
        version: int,
        position: Position,
        *,
        selection: Range | None = None,
        trigger_kind: str = "automatic",
        diagnostics: Sequence[tuple[str, Range, str, str]] = (),
        cancelled: Callable[[], bool] = lambda: False,
    ) -> list[PlacedSuggestion]:
        """Suggestions for ``uri`` at exactly ``version``; empty when we lack that text.

        ``diagnostics`` are ``(uri, range, severity, message)`` tuples.
        """
        state = self.documents.get(uri)
        if state is None:
            log.debug("suggest %s: %s", uri, SilenceReason.UNKNOWN_DOCUMENT)
            return []
        document = state.document
        if version != document.version:
            log.debug(
                "suggest %s v%d against mirror v%d: %s",
                uri,
                version,
                document.version,
                SilenceReason.VERSION_MISMATCH,
            )
            return []
        request = SuggestRequest(
            uri=uri,
            version=version,
            cursor_cp=document.offset_at(position, self.encoding),
            selection_cp=document.range_offsets(selection, self.encoding) if selection else None,
            trigger_kind=_trigger_kind(trigger_kind),
            diagnostics=tuple(self._diagnostics(diagnostics)),
        )
        outcome = self.engine.suggest(self, request, self.kinds, self._rejected, cancelled)
        if outcome.notes and log.isEnabledFor(logging.DEBUG):
            log.debug("suggest %s v%d: notes: %s", uri, version, "; ".join(outcome.notes))
        if not outcome.candidates:
            log.debug("suggest %s v%d: silent (%s)", uri, version, outcome.reason)
            return []
        placed = [self._place(candidate) for candidate in outcome.candidates]
        for suggestion in placed:
            log.debug(
                "suggest %s: %s %s by %s (score %.3f); evidence: %s",
                uri,
                suggestion.id,
                suggestion.kind,
                suggestion.suggester,
                suggestion.score,
                "; ".join(suggestion.evidence),
            )
        return placed

    def _diagnostics(self, diagnostics: Sequence[tuple[str, Range, str, str]]) -> Iterator[Diagnostic]:
        for diag_uri, range_, severity, message in diagnostics:
            state = self.documents.get(diag_uri)
            if state is None:
                continue
            start, end = state.document.range_offsets(range_, self.encoding)
            yield Diagnostic(diag_uri, start, end, severity, message)

    def _place(self, candidate: Candidate) -> PlacedSuggestion:
        state = self.documents[candidate.uri]
        document = state.document
        enc = self.encoding

        def at(cp: int | None) -> Position | None:
            return None if cp is None else document.position_at(cp, enc)

        edits = tuple(
            PlacedEdit(Range(document.position_at(e.start_cp, enc), document.position_at(e.end_cp, enc)), e.new_text)
            for e in candidate.edits
        )
        suggestion = PlacedSuggestion(
            id=f"s-{next(_suggestion_ids)}",
            kind=candidate.kind,
            uri=candidate.uri,
            version=document.version,
            edits=edits,
            position=at(candidate.target_cp),
            cursor_position=at(candidate.cursor_cp),
            new_name=candidate.new_name,
            search=candidate.search,
            replace=candidate.replace,
            is_regex=candidate.is_regex,
            suggester=candidate.suggester,
            evidence=candidate.evidence,
            fingerprint=candidate.fingerprint,
            score=candidate.score,
        )
        self._issued[suggestion.id] = suggestion
        while len(self._issued) > _ISSUED_LIMIT:
            self._issued.popitem(last=False)
        return suggestion

    # -- feedback --------------------------------------------------------------

    def accept(self, suggestion_id: str) -> PlacedSuggestion | None:
        return self._feedback(suggestion_id, "accept", None)

    def reject(self, suggestion_id: str, reason: str | None) -> PlacedSuggestion | None:
        suggestion = self._feedback(suggestion_id, "reject", reason)
        if suggestion is not None and suggestion.fingerprint:
            self._rejected.add(suggestion.fingerprint)
        return suggestion

    def _feedback(self, suggestion_id: str, action: str, reason: str | None) -> PlacedSuggestion | None:
        suggestion = self._issued.get(suggestion_id)
        if suggestion is None:
            log.info("%s of unknown suggestion %s in session %s", action, suggestion_id, self.session_id)
        if self.feedback is not None:
            self.feedback.record(
                session=self.session_id,
                action=action,
                suggestion_id=suggestion_id,
                reason=reason,
                kind=suggestion.kind if suggestion else None,
                suggester=suggestion.suggester if suggestion else None,
                uri=suggestion.uri if suggestion else None,
                suggestion=suggestion.to_record() if suggestion else None,
            )
        return suggestion

    def close(self) -> None:
        self.closed = True
        self.documents.clear()
        self._issued.clear()

    # -- views the engine uses -----------------------------------------------------

    def get(self, uri: str) -> DocumentState | None:
        return self.documents.get(uri)

    def states(self) -> list[DocumentState]:
        return list(self.documents.values())


def _trigger_kind(name: str) -> TriggerKind:
    try:
        return TriggerKind(name)
    except ValueError:
        return TriggerKind.AUTOMATIC
