"""One NES session: its documents, their syntax and history, and the suggestions it issued.

Front ends convert wire messages into calls here (positions as
:class:`~nextedit.text.Position` in the session's negotiated encoding) and
convert :class:`PlacedSuggestion` back into wire types. The session applies
the protocol's version rules, keeps the mirror exact, numbers suggestions,
and feeds accept/reject into the feedback log (a bounded
:class:`~nextedit.feedback.FeedbackSubject`, never the suggestion's text).

A suggestion is computed in three steps so that a front end can compute it
off its event loop while it keeps applying changes:

1. :meth:`Session.prepare_suggest` (on the thread that owns the session):
   the version rule, then a :class:`SuggestWork` holding a snapshot of every
   open document — O(history): the text is shared (``str``/``bytes`` are
   immutable), a pending re-parse goes with a copy of the edited tree, the
   history's entries are copied; a document left alone since the last
   suggest lends that suggest's snapshot again
   (:meth:`DocumentState.snapshot`) — with the rejected fingerprints, the
   rules dismissed and the feedback counts as they are now;
2. :meth:`SuggestWork.compute` (any thread, one at a time per session): the
   engine on the snapshot, then positions in the session's encoding; it
   polls ``cancelled()`` and stops at the engine's next check. When the
   engine has nothing to offer and a model provider is configured
   (:mod:`nextedit.provider`), the model is asked next, within its time
   budget, still polling ``cancelled()`` (:meth:`SuggestWork.compute_engine`
   and :meth:`SuggestWork.ask_model` are the two halves, for a front end
   that runs the engine and waits for the model on different threads);
3. :meth:`Session.finish_suggest` (the owning thread again): the snapshot's
   parse, line index and history descriptions go back to the live documents
   that did not change meanwhile; ids are given, suggestions rejected
   meanwhile are dropped, a document that moved on gives nothing.

:meth:`Session.suggest` runs the three in a row (the LSP bridge, the
in-process agent).

A document's pending parse can be done the same way, ahead of its next
reader, while the editor is idle after opening or editing it:
:meth:`Session.prepare_parse` (owning thread: a :class:`ParseWork` holding a
snapshot of the document's syntax) → :meth:`ParseWork.run` (any thread; it
polls ``halt()`` during the parse and stops early once a change, a close or
a re-open made the result useless) → :meth:`Session.finish_parse` (owning
thread: the live document takes the tree when it did not change meanwhile).
The tree is the one the next reader would have parsed. A re-parse after
edits is held for that reader rather than taken as the last parse, so the
stale view after a further edit, and every answer, are those of a session
that never parsed ahead
(:meth:`~nextedit.syntax.tree.SyntaxSnapshot.parse_ahead`). A document's
first parse is taken at once (a document has no stale view before it; after
it, the stale view of a later edit reads it, where a document never parsed
would parse its newest text).

The session knows nothing of JSON-RPC, ACP, LSP or threads.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from nextedit.feedback import FeedbackLog, FeedbackSubject
from nextedit.history import EditHistory
from nextedit.suggest.engine import SuggestionEngine
from nextedit.suggest.filters import change_key, rule_key
from nextedit.suggest.model import (
    Candidate,
    Diagnostic,
    SilenceReason,
    SuggestionKinds,
    SuggestRequest,
    TriggerKind,
    Verdicts,
)
from nextedit.syntax import SyntaxTree, language_for
from nextedit.syntax.closed_trees import ClosedTrees
from nextedit.syntax.tree import SyntaxSnapshot
from nextedit.text import AppliedEdit, Document, Position, PositionEncoding, Range, TextChange

if TYPE_CHECKING:
    from nextedit.provider.config import ProviderConfig
    from nextedit.provider.service import ModelProvider

__all__ = [
    "AnswerTally",
    "DocumentSnapshot",
    "DocumentState",
    "FocusInfo",
    "ParseWork",
    "PlacedEdit",
    "PlacedSuggestion",
    "Session",
    "SuggestResult",
    "SuggestWork",
    "WorkspaceSnapshot",
]

log = logging.getLogger(__name__)

# suggestion ids are unique per process, across sessions
_suggestion_ids = itertools.count(1)
# how many issued suggestions a session remembers for accept/reject
_ISSUED_LIMIT = 512
# rejection reasons that say nothing of the suggestion itself (ACP's NesRejectReason)
_NO_VERDICT = frozenset({"replaced", "cancelled"})
# the engine's silences after which the model is asked (not: cancelled, unknown document,
# another version, a language the user left out, an engine error)
_MODEL_AFTER = frozenset(
    {
        SilenceReason.NO_EVIDENCE,
        SilenceReason.NO_CANDIDATES,
        SilenceReason.FILTERED,
        SilenceReason.BELOW_THRESHOLD,
        None,
    }
)


@dataclass(frozen=True)
class FocusInfo:
    version: int
    cursor_cp: int
    visible_cp: tuple[int, int]


@dataclass
class DocumentState:
    """One open document with everything the engine knows about it.

    Every change to it goes through its methods (:meth:`apply_changes`,
    :meth:`focus_on`, :meth:`adopt_parse`, :meth:`adopt`): each one retires
    the snapshot it keeps for reuse (:meth:`snapshot`).
    """

    document: Document
    language: str | None
    syntax: SyntaxTree | None
    history: EditHistory
    focus: FocusInfo | None = None
    # bumped by every change: a snapshot taken before it no longer reads this document
    _generation: int = field(default=0, repr=False, compare=False)
    # a snapshot a finished suggest handed back untouched, at the current generation
    _idle: DocumentSnapshot | None = field(default=None, repr=False, compare=False)

    @property
    def uri(self) -> str:
        return self.document.uri

    def snapshot(self) -> DocumentSnapshot:
        """This document as it is now, for the engine on another thread.

        A document nothing happened to since a suggest read it lends that
        suggest's snapshot again, once (it comes back through :meth:`adopt`),
        so a suggest costs nothing for each open document left alone: an
        editor keeps dozens open. Two computations never share one.
        """
        idle, self._idle = self._idle, None
        if idle is not None:
            return idle
        document = self.document.snapshot()
        syntax = self.syntax.snapshot() if self.syntax is not None else None
        return DocumentSnapshot(
            document,
            self.language,
            syntax,
            self.history.snapshot(document),
            self.focus,
            origin=self,
            generation=self._generation,
        )

    def adopt(self, snapshot: DocumentSnapshot) -> None:
        """Keep what the engine worked out on ``snapshot`` where nothing changed since.

        A snapshot that gave nothing back and is still current reads exactly
        as a new one would: it is kept for the next suggest (:meth:`snapshot`).
        """
        took = self.document.adopt(snapshot.document)
        if self.syntax is not None and snapshot.syntax is not None:
            took = self.syntax.adopt(snapshot.syntax) or took
        took = self.history.adopt(snapshot.history) or took
        if took:
            self._changed()
        elif snapshot.generation == self._generation:
            self._idle = snapshot

    def apply_changes(
        self, changes: Sequence[TextChange], version: int, encoding: PositionEncoding
    ) -> list[AppliedEdit]:
        """The editor's changes, in order, to the text, the tree and the history; each as applied."""
        self._changed()
        applied = self.document.apply_changes(changes, version, encoding)
        if self.syntax is not None and applied:
            self.syntax.apply_edits(applied, self.document.source_bytes)
        self.history.record(applied, self.document)
        return applied

    def focus_on(self, focus: FocusInfo) -> None:
        self._changed()
        self.focus = focus

    def adopt_parse(self, syntax: SyntaxTree) -> bool:
        """Take the tree a parse ahead made on ``syntax`` (this document's syntax snapshot), if still wanted."""
        if self.syntax is None or not self.syntax.adopt(syntax):
            return False
        self._changed()
        return True

    def _changed(self) -> None:
        self._generation += 1
        self._idle = None


@dataclass(frozen=True)
class DocumentSnapshot:
    """One document frozen at one version: what the engine reads (a ``DocumentStateView``)."""

    document: Document
    language: str | None
    syntax: SyntaxTree | None
    history: EditHistory
    focus: FocusInfo | None
    origin: DocumentState = field(repr=False, compare=False)
    # the origin's generation when taken (:meth:`DocumentState.adopt` keeps a current one)
    generation: int = field(default=0, repr=False, compare=False)

    @property
    def uri(self) -> str:
        return self.document.uri


@dataclass(frozen=True)
class WorkspaceSnapshot:
    """Every open document of a session at one moment (a ``WorkspaceView``)."""

    documents: Mapping[str, DocumentSnapshot]

    def get(self, uri: str) -> DocumentSnapshot | None:
        return self.documents.get(uri)

    def states(self) -> list[DocumentSnapshot]:
        return list(self.documents.values())


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
    # what a dismissal of it silences besides its rule (``filters.change_key``)
    change: str = ""
    # the candidate's rule: what a dismissal of it silences at the rule's other sites (``filters.rule_key``)
    rule: str = ""

    def feedback_subject(self) -> FeedbackSubject:
        """What the feedback log keeps of this suggestion: a bounded summary, no text."""
        if self.edits:
            first: Range | None = self.edits[0].range
        elif self.position is not None:
            first = Range(self.position, self.position)
        else:
            first = None
        return FeedbackSubject(
            kind=self.kind,
            suggester=self.suggester,
            uri=self.uri,
            fingerprint=self.fingerprint,
            edit_count=len(self.edits),
            inserted_chars=sum(len(e.new_text) for e in self.edits),
            first_range=first,
        )


@dataclass(frozen=True)
class SuggestResult:
    """What :meth:`SuggestWork.compute` found: placed suggestions without ids yet."""

    suggestions: tuple[PlacedSuggestion, ...]
    reason: SilenceReason | None = None
    notes: tuple[str, ...] = ()

    @property
    def cancelled(self) -> bool:
        return self.reason is SilenceReason.CANCELLED


# seconds a document stays unchanged, after it was opened or edited, before
# a front end parses it ahead of its next suggest (an editor is idle for a
# while after opening a file, and asks for a suggestion some debounce time
# after the developer stops typing: the parse goes there, not on the request)
PARSE_AHEAD_DELAY = 0.03
# at most this many doublings of the delay (0.48 s) for a document whose
# parses ahead later edits kept dropping unread (:meth:`Session.parse_ahead_delay`)
PARSE_AHEAD_BACKOFF = 4


@dataclass(eq=False)
class ParseWork:
    """One document's pending parse, done ahead of its first reader on any thread."""

    uri: str
    syntax: SyntaxSnapshot
    origin: DocumentState = field(repr=False)
    parsed: bool = False

    def run(self, halt: Callable[[], bool] = lambda: False) -> bool:
        """Parse now; False when ``halt()`` stopped it (nothing is kept then)."""
        started = time.perf_counter()
        log.debug("parse ahead of %s: parsing", self.uri)
        self.parsed = self.syntax.parse_ahead(halt)
        log.debug(
            "parse ahead of %s: %s after %.1f ms",
            self.uri,
            "done" if self.parsed else "halted",
            (time.perf_counter() - started) * 1000,
        )
        return self.parsed


@dataclass(frozen=True)
class SuggestWork:
    """One suggest with everything it reads, frozen: computable on any thread.

    Nothing here refers to the live documents except through
    ``DocumentSnapshot.origin``, which only :meth:`Session.finish_suggest`
    follows, back on the owning thread.
    """

    session_id: str
    uri: str
    version: int
    position: Position
    trigger_kind: TriggerKind
    diagnostics: tuple[tuple[str, Range, str, str], ...]
    workspace: WorkspaceSnapshot
    encoding: PositionEncoding
    kinds: SuggestionKinds
    rejected: frozenset[str]
    feedback_counts: Mapping[str, tuple[int, int]] | None
    rejected_rules: Mapping[str, int]
    # what the developer said of the engine's answers (see Session.reject, AnswerTally)
    verdicts: Verdicts
    engine: SuggestionEngine = field(repr=False, compare=False)
    # the model behind the engine, and its configuration when the request arrived
    provider: ModelProvider | None = field(default=None, repr=False, compare=False)
    provider_config: ProviderConfig | None = None
    workspace_uri: str | None = None

    def compute(self, cancelled: Callable[[], bool] = lambda: False) -> SuggestResult:
        """The engine's answer on the snapshot — the model's when the engine has none and a
        provider is configured; stops at the next check once ``cancelled()``."""
        result = self.compute_engine(cancelled)
        if self.wants_model(result):
            return self.ask_model(result, cancelled)
        return result

    def compute_engine(self, cancelled: Callable[[], bool] = lambda: False) -> SuggestResult:
        """The engine's answer on the snapshot; stops at its next check once ``cancelled()``."""
        if cancelled():
            return SuggestResult((), SilenceReason.CANCELLED)
        outcome = self.engine.suggest(
            self.workspace,
            self.request(),
            self.kinds,
            self.rejected,
            cancelled,
            rejected_rules=self.rejected_rules,
            feedback=self.feedback_counts,  # the counts as they were when the request arrived
            verdicts=self.verdicts,
        )
        placed = tuple(self._place(candidate) for candidate in outcome.candidates)
        return SuggestResult(placed, outcome.reason, outcome.notes)

    def parse_wanted(self) -> bool:
        """Whether the request document's tree would still run tree-sitter when
        read (no parse ahead did it): for a front end's debug log."""
        state = self.workspace.get(self.uri)
        return state is not None and state.syntax is not None and state.syntax.parse_wanted

    def request(self) -> SuggestRequest:
        """The request in the engine's terms (code-point offsets of the snapshot)."""
        state = self.workspace.get(self.uri)
        assert state is not None  # prepare_suggest snapshots the request document
        document = state.document
        return SuggestRequest(
            uri=self.uri,
            version=self.version,
            cursor_cp=document.offset_at(self.position, self.encoding),
            trigger_kind=self.trigger_kind,
            diagnostics=tuple(self._diagnostics()),
        )

    def wants_model(self, engine_result: SuggestResult) -> bool:
        """Whether to ask the model after ``engine_result``: a provider is configured and the
        engine had nothing to offer (no evidence, filtered, below its threshold)."""
        return (
            self.provider is not None
            and self.provider_config is not None
            and self.provider_config.enabled
            and not engine_result.suggestions
            and engine_result.reason in _MODEL_AFTER
        )

    def ask_model(self, engine_result: SuggestResult, cancelled: Callable[[], bool] = lambda: False) -> SuggestResult:
        """The model's suggestions for this request, within its budget (any thread)."""
        from nextedit.provider.predict import ask_model

        assert self.provider is not None and self.provider_config is not None
        outcome = ask_model(
            self.provider,
            self.provider_config,
            self.workspace,
            self.request(),
            self.kinds,
            self.rejected,
            cancelled,
            memory_key=(self.session_id,),
            workspace_uri=self.workspace_uri,
        )
        notes = (*engine_result.notes, outcome.note)
        if outcome.cancelled:
            return SuggestResult((), SilenceReason.CANCELLED, notes)
        placed = tuple(self._place(candidate) for candidate in outcome.candidates)
        return SuggestResult(placed, None if placed else engine_result.reason, notes)

    def _diagnostics(self) -> Iterator[Diagnostic]:
        for diag_uri, range_, severity, message in self.diagnostics:
            state = self.workspace.get(diag_uri)
            if state is None:
                continue
            start, end = state.document.range_offsets(range_, self.encoding)
            yield Diagnostic(diag_uri, start, end, severity, message)

    def _place(self, candidate: Candidate) -> PlacedSuggestion:
        state = self.workspace.get(candidate.uri)
        assert state is not None  # the engine's filters drop candidates for documents not open
        document = state.document
        enc = self.encoding

        def at(cp: int | None) -> Position | None:
            return None if cp is None else document.position_at(cp, enc)

        edits = tuple(
            PlacedEdit(Range(document.position_at(e.start_cp, enc), document.position_at(e.end_cp, enc)), e.new_text)
            for e in candidate.edits
        )
        return PlacedSuggestion(
            id="",
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
            change=candidate.change or change_key(candidate.uri, candidate.edits, document.text),
            rule=candidate.rule,
        )


@dataclass
class AnswerTally:
    """The verdicts on an agent's answers over all its sessions (shared by a
    front end's sessions, like the feedback counts but for this process only):
    each answer counts once, as ``taken`` when its first suggestion was
    accepted or the developer's very next change to the document made
    exactly that change by hand, as ``declined`` when it was rejected or
    ignored (``replaced`` and ``cancelled`` are no verdict). An answer nothing
    was said of counts as neither, so a client that never reports keeps both
    at zero and the ranker at its prior."""

    taken: int = 0
    declined: int = 0


@dataclass(frozen=True, slots=True)
class _ShownChange:
    """The one change of the newest answer's first suggestion, in code points
    of the document version it was made for: what the developer's next
    change is compared with."""

    uri: str
    version: int
    start_cp: int
    end_cp: int
    new_text: str

    def made_by(self, edit: AppliedEdit) -> bool:
        """Whether the developer's change ``edit`` (to the same version) is
        exactly this one, written over a span of its own that covers it."""
        if not (edit.start_cp <= self.start_cp and self.end_cp <= edit.old_end_cp):
            return False
        old, new = edit.old_text, edit.new_text
        head, tail = self.start_cp - edit.start_cp, self.end_cp - edit.start_cp
        # lengths first: a whole-text replacement is not copied to say no
        if len(new) != len(old) - (tail - head) + len(self.new_text):
            return False
        return old[:head] + self.new_text + old[tail:] == new


def _shown_change(suggestion: PlacedSuggestion, document: Document, encoding: PositionEncoding) -> _ShownChange | None:
    """The single change of ``suggestion`` (made for ``document`` as it is), or
    ``None`` for a jump or a suggestion of several changes."""
    if suggestion.kind == "jump" or len(suggestion.edits) != 1:
        return None
    edit = suggestion.edits[0]
    start, end = document.range_offsets(edit.range, encoding)
    return _ShownChange(suggestion.uri, document.version, start, end, edit.new_text)


@dataclass(slots=True)
class _NewestAnswer:
    """The first suggestion of a session's newest answer (the one a client
    shows) and what the developer has said of it so far."""

    id: str
    # its change, until the developer's next change to its document (None: no
    # single change to compare that one with)
    change: _ShownChange | None
    declined: bool = False  # rejected or ignored (not replaced or cancelled)
    counted: bool = False  # its verdict is in the agent's tally


@dataclass
class Session:
    """An independent NES session; a connection may hold many."""

    session_id: str
    encoding: PositionEncoding = PositionEncoding.UTF16
    kinds: SuggestionKinds = field(default_factory=SuggestionKinds)
    feedback: FeedbackLog | None = None
    workspace_uri: str | None = None
    engine: SuggestionEngine = field(default_factory=SuggestionEngine)
    # the model asked when the engine is silent (shared by a front end's sessions); None: never
    provider: ModelProvider | None = None
    documents: dict[str, DocumentState] = field(default_factory=dict)
    # the trees of documents closed (by any session of the front end): a re-open
    # starts from one (shared by a front end's sessions); None: every open parses anew
    closed_trees: ClosedTrees | None = None
    _issued: OrderedDict[str, PlacedSuggestion] = field(default_factory=OrderedDict)
    _rejected: set[str] = field(default_factory=set)
    # rule key -> newest developer edit seq when a suggestion of that rule was rejected
    _rejected_rules: dict[str, int] = field(default_factory=dict)
    # frozen copies of the two for the requests, made again only after a rejection:
    # a request must not copy every rejection of the session
    _rejections_view: tuple[frozenset[str], dict[str, int]] | None = None
    # what the developer said of our newest answer
    _newest: _NewestAnswer | None = None
    # the verdicts on this agent's answers (a front end hands every session the same)
    tally: AnswerTally = field(default_factory=AnswerTally)
    closed: bool = False

    # -- documents -----------------------------------------------------------

    def did_open(self, uri: str, language_id: str, version: int, text: str) -> None:
        """Open (or re-open, replacing the mirror of) a document.

        The document is parsed by its first reader (a suggest, off the
        front end's loop), not here: opening a large file costs the loop only
        its UTF-8 copy. When ``closed_trees`` holds the tree of an earlier
        text of ``uri`` in the same grammar, that tree is the start: the same
        text takes it as it is, another is re-parsed incrementally around the
        lines that differ (the line diff, ~1-3 ms for 160 KB, and the
        re-parse are both the first reader's). The tree is the one a fresh
        parse gives (error recovery aside: ``tests/test_closed_trees.py`` and
        ``benchmarks/results/trace-latency-reopen.md``), and nothing else of
        the earlier document is kept.
        """
        previous = self.documents.get(uri)
        if previous is not None:
            self._keep_tree(previous)
        document = Document(uri, language_id, version, text)
        language = language_for(language_id, uri, text)
        syntax = None
        if language and self.closed_trees is not None:
            syntax = self.closed_trees.reopen(uri, language, document.source_bytes)
            if syntax is not None:
                log.debug(
                    "didOpen %s: from the tree of its closed text, %s",
                    uri,
                    "re-parsed around the changed lines" if syntax.reparse_pending else "the same text",
                )
        if language and syntax is None:
            syntax = SyntaxTree.parse_later(language, document.source_bytes)
        self.documents[uri] = DocumentState(document, language, syntax, EditHistory(uri))

    def _keep_tree(self, state: DocumentState) -> None:
        """Hand the last parse of a document leaving this session to ``closed_trees``."""
        if self.closed_trees is not None and state.syntax is not None:
            self.closed_trees.keep(state.uri, state.syntax)

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
        newest = self._newest
        if newest is None or newest.counted or newest.change is None or newest.change.uri != uri:
            state.apply_changes(changes, version, self.encoding)
            return True
        # only the developer's very next change to that document can make the newest answer's
        shown, newest.change = newest.change, None
        version_before = state.document.version
        applied = state.apply_changes(changes, version, self.encoding)
        if applied and shown.version == version_before and shown.made_by(applied[0]):
            self._count(newest, declined=False)
        return True

    def did_close(self, uri: str) -> None:
        state = self.documents.pop(uri, None)
        if state is not None:
            self._keep_tree(state)

    def parse_pending(self, uri: str) -> bool:
        """Whether ``uri``'s tree awaits a re-parse (its edits since the last
        parse, not yet read): what makes a parse ahead worth queueing after a
        change. O(1); whether a token swap will serve it instead is left to
        :meth:`prepare_parse`."""
        state = self.documents.get(uri)
        return state is not None and state.syntax is not None and state.syntax.reparse_pending

    def parse_ahead_delay(self, uri: str, base: float = PARSE_AHEAD_DELAY) -> float:
        """Seconds a front end waits, after ``uri`` was opened or changed, before
        parsing it ahead: ``base`` (:data:`PARSE_AHEAD_DELAY`), doubled for every parse
        ahead of it that a later edit dropped unread (up to
        :data:`PARSE_AHEAD_BACKOFF` doublings), back to the start once a reader
        had to parse for itself. Typing slower than the delay with no suggest
        between keystrokes then stops paying a parse per keystroke."""
        state = self.documents.get(uri)
        unused = state.syntax.unused_parses_ahead if state is not None and state.syntax is not None else 0
        return base * 2 ** min(unused, PARSE_AHEAD_BACKOFF)

    def prepare_parse(self, uri: str) -> ParseWork | None:
        """A :class:`ParseWork` for ``uri`` when its next reader would run
        tree-sitter (a document just opened, or edited since its last parse,
        unless the edits are an identifier's token swap or a parse ahead is
        held already); else ``None``."""
        state = self.documents.get(uri)
        if state is None or state.syntax is None or not state.syntax.parse_wanted:
            return None
        return ParseWork(uri, state.syntax.snapshot(), state)

    def finish_parse(self, work: ParseWork) -> bool:
        """Give the live document the tree ``work`` parsed, if it is still the
        same document and did not change since; True when it took it."""
        state = self.documents.get(work.uri)
        kept = not self.closed and work.parsed and state is work.origin and state.adopt_parse(work.syntax)
        log.debug("parse ahead of %s: tree %s", work.uri, "kept" if kept else "dropped")
        return kept

    def did_save(self, uri: str) -> None:
        """A save changes nothing the engine reads (the text is already mirrored)."""

    def did_focus(self, uri: str, version: int, position: Position, visible: Range) -> None:
        state = self.documents.get(uri)
        if state is None or version != state.document.version:
            return
        document = state.document
        state.focus_on(
            FocusInfo(
                version,
                document.offset_at(position, self.encoding),
                document.range_offsets(visible, self.encoding),
            )
        )

    # -- suggestions -----------------------------------------------------------

    def suggest(
        self,
        uri: str,
        version: int,
        position: Position,
        *,
        trigger_kind: str = "automatic",
        diagnostics: Sequence[tuple[str, Range, str, str]] = (),
        cancelled: Callable[[], bool] = lambda: False,
        model: bool = True,
    ) -> list[PlacedSuggestion]:
        """Suggestions for ``uri`` at exactly ``version``; empty when we lack that text.

        ``diagnostics`` are ``(uri, range, severity, message)`` tuples;
        ``model=False`` never asks the model. The three steps of the module
        docstring, in a row on this thread.
        """
        work = self.prepare_suggest(
            uri,
            version,
            position,
            trigger_kind=trigger_kind,
            diagnostics=diagnostics,
            model=model,
        )
        if work is None:
            return []
        return self.finish_suggest(work, work.compute(cancelled))

    def prepare_suggest(
        self,
        uri: str,
        version: int,
        position: Position,
        *,
        trigger_kind: str = "automatic",
        diagnostics: Sequence[tuple[str, Range, str, str]] = (),
        model: bool = True,
    ) -> SuggestWork | None:
        """Step 1: a frozen :class:`SuggestWork`, or ``None`` when there is nothing to
        compute (unknown document, or a version other than the mirror's). The
        provider's configuration is read now (``model=False``: the model is not asked)."""
        state = self.documents.get(uri)
        if state is None:
            log.debug("suggest %s: %s", uri, SilenceReason.UNKNOWN_DOCUMENT)
            return None
        if version != state.document.version:
            log.debug(
                "suggest %s v%d against mirror v%d: %s",
                uri,
                version,
                state.document.version,
                SilenceReason.VERSION_MISMATCH,
            )
            return None
        workspace = WorkspaceSnapshot({doc_uri: doc.snapshot() for doc_uri, doc in self.documents.items()})
        rejected, rejected_rules = self._rejections()
        return SuggestWork(
            session_id=self.session_id,
            uri=uri,
            version=version,
            position=position,
            trigger_kind=_trigger_kind(trigger_kind),
            diagnostics=tuple(diagnostics),
            workspace=workspace,
            encoding=self.encoding,
            kinds=self.kinds,
            rejected=rejected,
            feedback_counts=self.feedback.verdicts_by_suggester() if self.feedback is not None else None,
            rejected_rules=rejected_rules,
            verdicts=self.verdicts(),
            engine=self.engine,
            provider=self.provider if model else None,
            provider_config=self.provider.config if model and self.provider is not None else None,
            workspace_uri=self.workspace_uri,
        )

    def finish_suggest(self, work: SuggestWork, result: SuggestResult | None) -> list[PlacedSuggestion]:
        """Step 3: keep what the computation worked out, then number and remember
        the suggestions — none if the document moved on or the session closed.

        ``result=None`` (the answer was dropped: cancelled, moved on) only keeps
        what was worked out.
        """
        if self.closed:
            return []
        for snapshot in work.workspace.documents.values():
            live = self.documents.get(snapshot.uri)
            if live is snapshot.origin:
                live.adopt(snapshot)
        if result is None:
            return []
        uri, version = work.uri, work.version
        if result.notes and log.isEnabledFor(logging.DEBUG):
            log.debug("suggest %s v%d: notes: %s", uri, version, "; ".join(result.notes))
        state = self.documents.get(uri)
        if state is None or state is not work.workspace.documents[uri].origin or state.document.version != version:
            log.debug("suggest %s v%d: %s meanwhile", uri, version, SilenceReason.VERSION_MISMATCH)
            return []
        if not result.suggestions:
            log.debug("suggest %s v%d: silent (%s)", uri, version, result.reason)
            return []
        placed: list[PlacedSuggestion] = []
        for unnumbered in result.suggestions:
            if unnumbered.fingerprint in self._rejected:  # rejected while it was computed
                continue
            suggestion = dataclasses.replace(unnumbered, id=f"s-{next(_suggestion_ids)}")
            self._issued[suggestion.id] = suggestion
            placed.append(suggestion)
            log.debug(
                "suggest %s: %s %s by %s (score %.3f); evidence: %s",
                uri,
                suggestion.id,
                suggestion.kind,
                suggestion.suggester,
                suggestion.score,
                "; ".join(suggestion.evidence),
            )
        while len(self._issued) > _ISSUED_LIMIT:
            self._issued.popitem(last=False)
        if placed:
            self._newest = _NewestAnswer(placed[0].id, _shown_change(placed[0], state.document, self.encoding))
        return placed

    @property
    def last_declined(self) -> bool:
        """The developer declined our newest answer (see :meth:`reject`)."""
        return self._newest is not None and self._newest.declined

    def verdicts(self) -> Verdicts:
        """What the developer said of the engine's answers, as a request reads it."""
        return Verdicts(self.last_declined, self.tally.taken, self.tally.declined)

    def _count(self, newest: _NewestAnswer, *, declined: bool) -> None:
        """The newest answer's verdict into the agent's tally, once."""
        if newest.counted:
            return
        newest.counted = True
        if declined:
            self.tally.declined += 1
        else:
            self.tally.taken += 1

    # -- feedback --------------------------------------------------------------

    def accept(self, suggestion_id: str) -> PlacedSuggestion | None:
        newest = self._newest
        if newest is not None and newest.id == suggestion_id:
            self._count(newest, declined=False)
        return self._feedback(suggestion_id, "accept", None)

    def reject(self, suggestion_id: str, reason: str | None) -> PlacedSuggestion | None:
        """Record the rejection and, when the developer turned it down, dismiss
        what the suggestion changes.

        ``replaced`` (a newer suggestion took its place) and ``cancelled``
        (its request was called off) are no word from the developer (ACP's
        ``NesRejectReason``): they are logged, and the change may be offered
        again — a client that re-asks on every keystroke replaces each answer
        with the next, often the same change, which must not vanish for it.

        Rejecting the first suggestion of the newest answer, unless it was
        only replaced by a newer one or cancelled, also sets
        :attr:`last_declined` until the next answer (an LSP client asks on
        every cursor move, so there the one rejected is seldom the newest).
        Right after a declined suggestion the next is right far less often
        (0.55 against 0.92 after one nothing was said of, out of repository:
        ``benchmarks/results/quality-declined.md``); the ranker reads it."""
        suggestion = self._feedback(suggestion_id, "reject", reason)
        if reason in _NO_VERDICT:
            return suggestion
        shown = self._newest
        if shown is not None and shown.id == suggestion_id:
            shown.declined = True
            self._count(shown, declined=True)
        if suggestion is not None and suggestion.fingerprint:
            self._rejections_view = None
            self._rejected.add(suggestion.fingerprint)
            newest = max((state.history.newest_seq() for state in self.documents.values()), default=0)
            self._rejected_rules[rule_key(suggestion)] = newest
            if suggestion.change:
                self._rejected_rules[suggestion.change] = newest
        return suggestion

    def _rejections(self) -> tuple[frozenset[str], dict[str, int]]:
        """The rejected fingerprints and dismissed rules as a request reads them:
        frozen, and shared by every request until the next rejection (never
        mutated once made; a computation on the worker thread may hold them)."""
        if self._rejections_view is None:
            self._rejections_view = (frozenset(self._rejected), dict(self._rejected_rules))
        return self._rejections_view

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
                subject=suggestion.feedback_subject() if suggestion is not None else None,
            )
        return suggestion

    def close(self) -> None:
        self.closed = True
        for state in self.documents.values():
            self._keep_tree(state)
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
