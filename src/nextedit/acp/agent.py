"""The state of one ACP connection: negotiated encoding, client kinds, sessions, in-flight suggests.

An :class:`Agent` is what the handlers in :mod:`nextedit.acp.dispatch`
read and change. It owns the bookkeeping that makes "every request gets
exactly one answer" true: a :class:`SuggestJob` per ``nes/suggest`` in
flight, answered by whichever comes first — its computation, a cancel
(``$/cancel_request`` or ``nes/close``: -32800), or its document moving on
(a newer ``didChange``, a re-open or a close: ``{"suggestions": []}``); the
others are then no-ops. ``job.answered`` is also what the computation polls
as its ``cancelled()``: an answered job stops at the engine's next check.

With ``parse_ahead`` on (the stdio server), opening a document, or changing
it so that its tree awaits a re-parse, queues a :class:`ParseJob`: that
parse, done off the loop while the editor is idle (after opening a file,
in the debounce before the editor asks for a suggestion), so the next
suggest does not pay it. A newer change, a close or a re-open of that
document (or closing its session, or the end of the input) halts the job: a
parse of a text that moved on is not worth finishing. A document has at
most one job: a new one halts the one before.

Answers leave through ``send`` (a plain callable taking one JSON-RPC message
as a dict): the stdio server writes them to stdout, the in-process agent
collects them in a list. Only the thread that owns the agent calls it.

The feedback log is opened at the first ``nes/start`` (``initialize`` touches
no file); a state directory that cannot be created costs one logged line.
The model provider (:class:`~nextedit.provider.service.ModelProvider`) is
made, from the command line's settings, when one was given there or at the
first ``providers/*`` request — not before, so an agent without a model
never loads that code — and is shared by every session: ``providers/set``
changes it for all of them. So are the syntax trees of closed documents
(:class:`~nextedit.syntax.closed_trees.ClosedTrees`): a document re-opened
in any session of the connection starts from its last tree.

Must not know: how bytes are read or written, JSON encoding, the event loop
and threads (a job waiting for its turn is not removed: answered, it has
nothing to begin), the engine behind :class:`~nextedit.session.Session`.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nextedit.acp.errors import RequestCancelled, RpcError, UnknownSession, error_response
from nextedit.settings import Settings
from nextedit.text import PositionEncoding

if TYPE_CHECKING:
    from nextedit.feedback import FeedbackLog
    from nextedit.provider.service import ModelProvider
    from nextedit.session import AnswerTally
    from nextedit.syntax.closed_trees import ClosedTrees

__all__ = ["EMPTY", "Agent", "ParseJob", "SuggestJob"]

log = logging.getLogger(__name__)

RequestId = str | int
# the answer to a suggest that has nothing to say
EMPTY: dict[str, Any] = {"suggestions": []}


@dataclass(eq=False)
class SuggestJob:
    """One ``nes/suggest`` between its arrival and its single answer."""

    request_id: RequestId
    session_id: str
    params: Any  # wire.SuggestParams, already validated
    answered: bool = False
    # True once a snapshot was taken and the computation may be running
    started: bool = False


@dataclass(eq=False)
class ParseJob:
    """The pending parse of a document just opened or changed, until it is done or halted."""

    session_id: str
    uri: str
    # set by the loop when the document changed, closed or re-opened: the parse stops
    halted: bool = False
    # its task was started (by the stdio server)
    started: bool = False
    # seconds from its queueing to its turn for the compute slot (Session.parse_ahead_delay)
    delay: float = 0.03


@dataclass
class Agent:
    """Connection state shared by the stdio server and the in-process agent."""

    send: Callable[[dict[str, Any]], None]
    state_dir: Path | None = None
    encoding: PositionEncoding = PositionEncoding.UTF16
    # suggestion kinds beyond ``edit`` the client advertised ("jump", "rename", "searchAndReplace")
    kinds: frozenset[str] = frozenset()
    initialized: bool = False
    sessions: dict[str, Any] = field(default_factory=dict)  # session id -> Session
    inflight: dict[RequestId, SuggestJob] = field(default_factory=dict)
    feedback: FeedbackLog | None = None
    settings: Settings = field(default_factory=Settings)  # the user's, from the command line
    # queue a ParseJob at every didOpen and re-parsing didChange (the stdio server runs them;
    # the in-process agent does not)
    parse_ahead: bool = False
    parses: list[ParseJob] = field(default_factory=list)  # queued or running, oldest first
    _feedback_opened: bool = False
    _provider: ModelProvider | None = None
    _closed_trees: ClosedTrees | None = None
    _answer_tally: AnswerTally | None = None
    _session_numbers: itertools.count = field(default_factory=lambda: itertools.count(1))

    def feedback_log(self) -> FeedbackLog | None:
        """The feedback log, opened on first use; ``None`` when it cannot be."""
        if self.feedback is None and not self._feedback_opened:
            from nextedit.feedback import open_feedback_log

            self.feedback = open_feedback_log(self.state_dir)
        self._feedback_opened = True
        return self.feedback

    def model_provider(self) -> ModelProvider:
        """The model behind the engine (configured or not), made on first use and handed
        to every open session."""
        if self._provider is None:
            from nextedit.provider.service import ModelProvider

            self._provider = ModelProvider(self.settings.provider)
            for session in self.sessions.values():
                session.provider = self._provider
        return self._provider

    def session_provider(self) -> ModelProvider | None:
        """What a new session asks when the engine is silent: ``None`` while no provider
        was ever configured (nothing of it is loaded then)."""
        if self._provider is None and self.settings.provider is not None:
            return self.model_provider()
        return self._provider

    def closed_trees(self) -> ClosedTrees:
        """The trees of the documents its sessions closed, shared by every
        session of the connection (a re-open, in any session, starts from
        one); made at the first ``nes/start``."""
        if self._closed_trees is None:
            from nextedit.syntax.closed_trees import ClosedTrees

            self._closed_trees = ClosedTrees()
        return self._closed_trees

    def answer_tally(self) -> AnswerTally:
        """The verdicts on the answers of every session of the connection
        (:class:`~nextedit.session.AnswerTally`): what one session learnt of
        how well the engine reads the developer's code, the next one starts
        from; made at the first ``nes/start``."""
        if self._answer_tally is None:
            from nextedit.session import AnswerTally

            self._answer_tally = AnswerTally()
        return self._answer_tally

    # -- sessions ------------------------------------------------------------

    def new_session_id(self) -> str:
        return f"nes-{next(self._session_numbers)}"

    def session(self, session_id: str) -> Any:
        """The open session or :class:`UnknownSession` (-32002)."""
        session = self.sessions.get(session_id)
        if session is None:
            raise UnknownSession(session_id)
        return session

    def close_session(self, session_id: str) -> None:
        """Cancel the session's in-flight suggests (each answered -32800), then free it."""
        session = self.sessions.pop(session_id, None)
        if session is None:
            raise UnknownSession(session_id)
        for job in [job for job in self.inflight.values() if job.session_id == session_id]:
            self.cancel(job.request_id, reason=f"session {session_id} closed")
        self.halt_parses(session_id, None)
        session.close()

    # -- answers -------------------------------------------------------------

    def answer(self, request_id: RequestId | None, result: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def answer_error(self, request_id: RequestId | None, error: RpcError) -> None:
        self.send(error_response(request_id, error))

    # -- in-flight suggests --------------------------------------------------------

    def track(self, job: SuggestJob) -> None:
        self.inflight[job.request_id] = job

    def finish(self, job: SuggestJob, result: dict[str, Any] | None, error: RpcError | None = None) -> None:
        """Answer ``job`` once with its result or error, unless it was answered already."""
        if self.inflight.get(job.request_id) is job:
            del self.inflight[job.request_id]
        if job.answered:
            return
        job.answered = True
        if error is not None:
            self.answer_error(job.request_id, error)
        else:
            self.answer(job.request_id, result or EMPTY)

    def cancel(self, request_id: Any, *, reason: str = "request cancelled") -> bool:
        """Answer an in-flight suggest with -32800 now; False when there is none (ignored)."""
        if isinstance(request_id, bool) or not isinstance(request_id, str | int):
            return False
        job = self.inflight.pop(request_id, None)
        if job is None or job.answered:
            log.debug("cancel of %r: not in flight, ignored", request_id)
            return False
        job.answered = True
        self.answer_error(job.request_id, RequestCancelled(reason))
        log.debug("nes/suggest %r cancelled (%s)%s", request_id, reason, " while computing" if job.started else "")
        return True

    def settle_moved_on(self, session_id: str, uri: str, version: int | None, *, replaced: bool = False) -> None:
        """Answer ``{"suggestions": []}`` now to the suggests in flight for ``uri``
        that can no longer be right: those for another version than ``version``
        (``None``: the document was closed), and with ``replaced`` (a re-open)
        every one whose computation started on the old text."""
        for job in list(self.inflight.values()):
            if job.session_id != session_id or job.params.uri != uri or job.answered:
                continue
            if version is None or job.params.version != version or (replaced and job.started):
                log.debug("nes/suggest %r: %s moved on, answered empty", job.request_id, uri)
                self.finish(job, EMPTY)

    # -- parses ahead ---------------------------------------------------------------

    def queue_parse(self, session_id: str, uri: str, delay: float) -> ParseJob | None:
        """After a didOpen or a didChange: a job parsing ``uri`` ahead, ``delay``
        seconds from now (``None`` unless ``parse_ahead``); the document's older
        job is halted (its text moved on)."""
        if not self.parse_ahead:
            return None
        self.halt_parses(session_id, uri)
        job = ParseJob(session_id, uri, delay=delay)
        self.parses.append(job)
        return job

    def halt_parses(self, session_id: str, uri: str | None) -> None:
        """Halt the parses of ``uri`` (``None``: every document) of a session."""
        for job in self.parses:
            if job.session_id == session_id and (uri is None or job.uri == uri):
                job.halted = True
        self.parses = [job for job in self.parses if not job.halted]

    def halt_all_parses(self) -> None:
        """Halt every parse ahead (the end of the input: no reader comes after the queued suggests)."""
        for job in self.parses:
            job.halted = True
        self.parses.clear()

    def parse_done(self, job: ParseJob) -> None:
        if job in self.parses:
            self.parses.remove(job)

    def close(self) -> None:
        """End of the connection: free every session and the feedback file."""
        for session_id in list(self.sessions):
            self.close_session(session_id)
        if self.feedback is not None:
            self.feedback.close()
