"""The state of one ACP connection: negotiated encoding, client kinds, sessions, in-flight suggests.

An :class:`Agent` is what the handlers in :mod:`nextedit.acp.dispatch`
read and change. It owns the bookkeeping that makes "every request gets
exactly one answer" true: a :class:`SuggestJob` per ``nes/suggest`` in
flight, answered either by its computation or, earlier, by a cancel
(``$/cancel_request`` or ``nes/close``) — whichever comes first; the other
is then a no-op.

Answers leave through ``send`` (a plain callable taking one JSON-RPC message
as a dict): the stdio server writes them to stdout, the in-process agent
collects them in a list.

Must not know: how bytes are read or written, JSON encoding, asyncio/anyio
(a job may carry a cancel scope, but the agent only calls ``cancel()`` on
it), the engine behind :class:`~nextedit.session.Session`.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nextedit.acp.errors import RequestCancelled, RpcError, UnknownSession, error_response
from nextedit.feedback import FEEDBACK_FILE, FeedbackLog, default_state_dir
from nextedit.settings import Settings
from nextedit.suggest.model import SuggestionKinds
from nextedit.text import PositionEncoding

__all__ = ["Agent", "SuggestJob"]

log = logging.getLogger(__name__)

RequestId = str | int


@dataclass(eq=False)
class SuggestJob:
    """One ``nes/suggest`` between its arrival and its single answer."""

    request_id: RequestId
    session_id: str
    params: Any  # wire.SuggestParams, already validated
    answered: bool = False
    # an anyio CancelScope when run by the stdio server; anything with cancel()
    scope: Any = None

    @property
    def cancelled(self) -> bool:
        return self.answered


@dataclass
class Agent:
    """Connection state shared by the stdio server and the in-process agent."""

    send: Callable[[dict[str, Any]], None]
    state_dir: Path | None = None
    encoding: PositionEncoding = PositionEncoding.UTF16
    kinds: SuggestionKinds = field(default_factory=SuggestionKinds)
    initialized: bool = False
    client_info: dict[str, Any] | None = None
    sessions: dict[str, Any] = field(default_factory=dict)  # session id -> Session
    inflight: dict[RequestId, SuggestJob] = field(default_factory=dict)
    feedback: FeedbackLog | None = None
    settings: Settings = field(default_factory=Settings)  # the user's, from the command line
    _session_numbers: itertools.count = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        if self.feedback is None:
            state_dir = self.state_dir or default_state_dir()
            try:
                self.feedback = FeedbackLog(state_dir / FEEDBACK_FILE)
            except OSError as exc:
                log.error("feedback log unavailable in %s (%s): accept/reject not recorded", state_dir, exc)

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
        """Answer ``job`` once with its result or error, unless a cancel answered it already."""
        if self.inflight.get(job.request_id) is job:
            del self.inflight[job.request_id]
        if job.answered:
            return
        job.answered = True
        if error is not None:
            self.answer_error(job.request_id, error)
        else:
            self.answer(job.request_id, result or {"suggestions": []})

    def cancel(self, request_id: Any, *, reason: str = "request cancelled") -> bool:
        """Answer an in-flight suggest with -32800 now; False when there is none (ignored)."""
        if isinstance(request_id, bool) or not isinstance(request_id, str | int):
            return False
        job = self.inflight.pop(request_id, None)
        if job is None or job.answered:
            log.debug("cancel of %r: not in flight, ignored", request_id)
            return False
        job.answered = True
        if job.scope is not None:
            job.scope.cancel()
        self.answer_error(job.request_id, RequestCancelled(reason))
        return True

    def close(self) -> None:
        """End of the connection: free every session and the feedback file."""
        for session_id in list(self.sessions):
            self.close_session(session_id)
        if self.feedback is not None:
            self.feedback.close()
