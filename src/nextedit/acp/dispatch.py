"""From one incoming line to the handler of its method: framing rules and one handler per method.

:func:`receive` decodes a line, checks the JSON-RPC envelope, and runs the
method's handler synchronously, in arrival order — except ``nes/suggest``,
which is validated here and returned as a :class:`SuggestJob` for the caller
to run in three steps: :func:`begin_suggest` (on the loop: the version rule
and a snapshot of the session), :func:`compute_suggest` (anywhere: the engine
on the snapshot, polling ``job.answered``), :func:`end_suggest` (on the
loop again: hand back what was worked out, then answer unless a cancel, a
close or a newer change answered first). The stdio server runs the middle
step in a worker thread so the loop keeps reading; the in-process agent
(:func:`run_suggest`) runs all three at once. A ``didChange``, ``didOpen``
or ``didClose`` answers the suggests it makes stale with
``{"suggestions": []}`` on the spot.

A ``didOpen``, and a ``didChange`` that leaves the document's tree awaiting
a re-parse, also queue a :class:`~nextedit.acp.agent.ParseJob` when the
agent parses ahead (the stdio server): :func:`begin_parse`,
:func:`compute_parse` and :func:`end_parse` are its three steps, like a
suggest's; a newer change, a close or a re-open of the document halts it
(one job per document: a change's job replaces the one before).

Rules (see DESIGN.md "Protocol decisions"): malformed JSON → -32700 (id
null); an envelope that is not a request → -32600; unknown request → -32601;
unknown notification → ignored (debug log); bad params → -32602 naming the
field; unknown session → -32002; an unexpected exception → -32603 with its
traceback logged. Notifications never answer, even when they fail.

Requests before ``initialize`` are served with the defaults a client that
sent no capabilities would negotiate (``utf-16`` positions, ``edit``-only
kinds); sessions keep the encoding they were started with.

``initialize`` imports nothing heavy (:mod:`nextedit.acp.handshake`); the
wire models (pydantic) and the engine are imported by the first handler that
needs them, or ahead of time by :func:`warm_up`.

Must not know: the transport, the event loop, threads, how the engine computes.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeGuard

from nextedit import heap
from nextedit.acp import handshake
from nextedit.acp.agent import EMPTY, Agent, ParseJob, SuggestJob
from nextedit.acp.errors import InternalError, InvalidParams, InvalidRequest, MethodNotFound, ParseError, RpcError
from nextedit.text import choose_encoding

if TYPE_CHECKING:
    from nextedit.session import ParseWork, SuggestResult, SuggestWork

__all__ = [
    "NOTIFICATIONS",
    "PROTOCOL_VERSION",
    "REQUESTS",
    "begin_parse",
    "begin_suggest",
    "compute_parse",
    "compute_suggest",
    "end_parse",
    "end_suggest",
    "fail_suggest",
    "receive",
    "run_suggest",
    "warm_up",
]

log = logging.getLogger(__name__)

PROTOCOL_VERSION = handshake.PROTOCOL_VERSION
_SUGGEST = "nes/suggest"


def warm_up() -> None:
    """Import what every request after ``initialize`` needs (~0.2 s), ahead of it."""
    from nextedit import session  # noqa: F401 - the engine, the history, the syntax layer
    from nextedit.acp import wire  # noqa: F401 - pydantic and the wire models

    heap.settle()


# -- requests ------------------------------------------------------------------------


def initialize(agent: Agent, params: Any) -> dict[str, Any]:
    hello = handshake.parse_initialize(params)
    agent.encoding = choose_encoding(hello.position_encodings)
    agent.kinds = hello.kinds
    agent.initialized = True
    log.info("initialized: encoding %s, kinds %s", agent.encoding, sorted(agent.kinds) or ["edit"])
    return handshake.initialize_result(str(agent.encoding))


def start(agent: Agent, params: Any) -> dict[str, Any]:
    from nextedit.acp import wire
    from nextedit.session import Session

    p = wire.parse(wire.StartParams, params if params is not None else {})
    session_id = agent.new_session_id()
    agent.sessions[session_id] = Session(
        session_id,
        encoding=agent.encoding,
        kinds=agent.settings.kinds(wire.kinds_from_wire(agent.kinds)),
        feedback=agent.feedback_log(),
        workspace_uri=p.workspace_uri,
        provider=agent.session_provider(),
        closed_trees=agent.closed_trees(),
        tally=agent.answer_tally(),
    )
    agent.settings.configure(agent.sessions[session_id].engine)
    return {"sessionId": session_id}


def close(agent: Agent, params: Any) -> dict[str, Any]:
    from nextedit.acp import wire

    p = wire.parse(wire.CloseParams, params)
    agent.close_session(p.session_id)
    return {}


def begin_suggest(agent: Agent, job: SuggestJob) -> SuggestWork | None:
    """Step 1, on the loop: the version rule and a snapshot; ``None`` when the
    job is answered already or was answered empty here."""
    if job.answered:
        return None
    p = job.params
    session = agent.sessions.get(job.session_id)
    if session is None:  # closed meanwhile (close answers its jobs; belt and braces)
        agent.finish(job, EMPTY)
        return None
    try:
        work: SuggestWork | None = session.prepare_suggest(
            p.uri,
            p.version,
            p.position.from_wire(),
            trigger_kind=p.trigger_kind,
            diagnostics=p.diagnostics(),
        )
    except Exception:
        log.exception("nes/suggest %r failed", job.request_id)
        fail_suggest(agent, job)
        return None
    if work is None:
        agent.finish(job, EMPTY)
        return None
    job.started = True
    return work


def compute_suggest(work: SuggestWork, job: SuggestJob) -> SuggestResult | Exception:
    """Step 2, on any thread: the engine on the snapshot; stops once ``job`` is answered."""
    started = time.perf_counter()
    if log.isEnabledFor(logging.DEBUG):
        log.debug(
            "nes/suggest %r: computing %s v%d on a snapshot (%s)",
            job.request_id,
            work.uri,
            work.version,
            "a parse pending" if work.parse_wanted() else "no parse needed",
        )
    try:
        result = work.compute(cancelled=lambda: job.answered)
    except Exception as exc:
        log.exception("nes/suggest %r failed", job.request_id)
        return exc
    elapsed = (time.perf_counter() - started) * 1000
    if result.cancelled:
        log.debug("nes/suggest %r: stopped at a cancellation check after %.1f ms", job.request_id, elapsed)
    else:
        log.debug("nes/suggest %r: computed in %.1f ms", job.request_id, elapsed)
    return result


def end_suggest(agent: Agent, job: SuggestJob, work: SuggestWork, result: SuggestResult | Exception) -> None:
    """Step 3, on the loop: keep what was worked out; answer unless answered already."""
    from nextedit.acp import wire

    session = agent.sessions.get(job.session_id)
    if isinstance(result, Exception):
        fail_suggest(agent, job)
        return
    if session is None:
        agent.finish(job, EMPTY)
        return
    if job.answered:
        session.finish_suggest(work, None)
        log.debug("nes/suggest %r: result dropped (answered already)", job.request_id)
        return
    try:
        placed = session.finish_suggest(work, result)
        suggestions = [s for s in (wire.suggestion_to_wire(x, session.kinds) for x in placed) if s]
    except Exception:
        log.exception("nes/suggest %r failed", job.request_id)
        fail_suggest(agent, job)
        return
    agent.finish(job, {"suggestions": suggestions})


def fail_suggest(agent: Agent, job: SuggestJob) -> None:
    """Answer ``job`` -32603 unless answered already (the caller logged the traceback)."""
    agent.finish(job, None, InternalError(_SUGGEST))


def run_suggest(agent: Agent, job: SuggestJob) -> None:
    """All three steps at once, on this thread (the in-process agent)."""
    work = begin_suggest(agent, job)
    if work is not None:
        end_suggest(agent, job, work, compute_suggest(work, job))


# -- parsing a document ahead of its first suggest ---------------------------------


def begin_parse(agent: Agent, job: ParseJob) -> ParseWork | None:
    """Step 1, on the loop: a snapshot of the document's pending parse, or
    ``None`` (halted, closed, or nothing left to parse)."""
    session = agent.sessions.get(job.session_id)
    work = None if job.halted or session is None else session.prepare_parse(job.uri)
    if work is None:
        agent.parse_done(job)
    return work


def compute_parse(work: ParseWork, job: ParseJob) -> bool:
    """Step 2, on any thread: the parse, stopped early once ``job`` is halted."""
    return work.run(halt=lambda: job.halted)


def end_parse(agent: Agent, job: ParseJob, work: ParseWork) -> None:
    """Step 3, on the loop: the live document takes the tree if it did not change meanwhile."""
    agent.parse_done(job)
    session = agent.sessions.get(job.session_id)
    if session is not None and not job.halted:
        session.finish_parse(work)


# -- providers ---------------------------------------------------------------------


def providers_list(agent: Agent, params: Any) -> dict[str, Any]:
    """The one provider, with its non-secret routing (``current``: ``None`` until set)."""
    from nextedit.acp import wire
    from nextedit.provider.defaults import API_TYPES, PROVIDER_ID

    wire.parse(wire.ListProvidersParams, params if params is not None else {})
    current = agent.model_provider().config.public()
    return {"providers": [{"id": PROVIDER_ID, "supported": list(API_TYPES), "required": False, "current": current}]}


def _known_provider(provider_id: str) -> None:
    from nextedit.provider.defaults import PROVIDER_ID

    if provider_id != PROVIDER_ID:
        raise InvalidParams("id", f"unknown provider {provider_id[:64]!r} (this agent has {PROVIDER_ID!r})")


def providers_set(agent: Agent, params: Any) -> dict[str, Any]:
    """Send the model's requests to ``baseUrl`` with ``headers``; any other ``apiType``: -32602."""
    from nextedit.acp import wire
    from nextedit.provider.config import ProviderConfigError

    p = wire.parse(wire.SetProviderParams, params)
    _known_provider(p.id)
    provider = agent.model_provider()
    try:
        config = provider.config.with_endpoint(p.api_type, p.base_url, p.headers)
    except ProviderConfigError as exc:
        raise InvalidParams(exc.field, exc.problem) from None
    provider.configure(config)
    return {}


def providers_disable(agent: Agent, params: Any) -> dict[str, Any]:
    from nextedit.acp import wire

    p = wire.parse(wire.DisableProviderParams, params)
    _known_provider(p.id)
    provider = agent.model_provider()
    provider.configure(provider.config.disabled())
    return {}


REQUESTS: dict[str, Callable[[Agent, Any], dict[str, Any]]] = {
    "initialize": initialize,
    "nes/start": start,
    "nes/close": close,
    "providers/list": providers_list,
    "providers/set": providers_set,
    "providers/disable": providers_disable,
}


# -- notifications -------------------------------------------------------------------


def did_open(agent: Agent, params: Any) -> None:
    from nextedit.acp import wire

    p = wire.parse(wire.DidOpenParams, params)
    session = agent.session(p.session_id)
    session.did_open(p.uri, p.language_id, p.version, p.text)
    agent.settle_moved_on(p.session_id, p.uri, p.version, replaced=True)
    agent.queue_parse(p.session_id, p.uri, session.parse_ahead_delay(p.uri))


def did_change(agent: Agent, params: Any) -> None:
    from nextedit.acp import wire

    p = wire.parse(wire.DidChangeParams, params)
    session = agent.session(p.session_id)
    if session.did_change(p.uri, p.version, p.changes()):
        agent.settle_moved_on(p.session_id, p.uri, p.version)
        if session.parse_pending(p.uri):  # the re-parse goes into the pause before the next suggest
            agent.queue_parse(p.session_id, p.uri, session.parse_ahead_delay(p.uri))  # halts the older job
        else:
            agent.halt_parses(p.session_id, p.uri)


def did_close(agent: Agent, params: Any) -> None:
    from nextedit.acp import wire

    p = wire.parse(wire.DocumentParams, params)
    agent.session(p.session_id).did_close(p.uri)
    agent.settle_moved_on(p.session_id, p.uri, None)
    agent.halt_parses(p.session_id, p.uri)


def did_save(agent: Agent, params: Any) -> None:
    from nextedit.acp import wire

    p = wire.parse(wire.DocumentParams, params)
    agent.session(p.session_id).did_save(p.uri)


def did_focus(agent: Agent, params: Any) -> None:
    from nextedit.acp import wire

    p = wire.parse(wire.DidFocusParams, params)
    agent.session(p.session_id).did_focus(p.uri, p.version, p.position.from_wire(), p.visible_range.from_wire())


def accept(agent: Agent, params: Any) -> None:
    from nextedit.acp import wire

    p = wire.parse(wire.AcceptParams, params)
    agent.session(p.session_id).accept(p.target)


def reject(agent: Agent, params: Any) -> None:
    from nextedit.acp import wire

    p = wire.parse(wire.RejectParams, params)
    agent.session(p.session_id).reject(p.target, p.reason)


def cancel_request(agent: Agent, params: Any) -> None:
    from nextedit.acp import wire

    p = wire.parse(wire.CancelParams, params)
    agent.cancel(p.request_id)


NOTIFICATIONS: dict[str, Callable[[Agent, Any], None]] = {
    "document/didOpen": did_open,
    "document/didChange": did_change,
    "document/didClose": did_close,
    "document/didSave": did_save,
    "document/didFocus": did_focus,
    "nes/accept": accept,
    "nes/reject": reject,
    "$/cancel_request": cancel_request,
}


# -- framing ---------------------------------------------------------------------------


def _valid_id(value: Any) -> TypeGuard[str | int]:
    return isinstance(value, str | int) and not isinstance(value, bool)


def receive(agent: Agent, line: bytes | str | dict[str, Any]) -> SuggestJob | None:
    """Handle one message; a suggest comes back as a job for the caller to run."""
    if isinstance(line, dict):
        message: Any = line
    else:
        if not line.strip():
            return None
        try:
            message = json.loads(line)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, UnicodeDecodeError, deep nesting
            agent.answer_error(None, ParseError(f"parse error: {exc}"[:500]))
            return None
    if not isinstance(message, dict):
        agent.answer_error(None, InvalidRequest("invalid request: expected a JSON object"))
        return None
    method = message.get("method")
    has_id = "id" in message
    request_id = message.get("id")
    if method is None and ("result" in message or "error" in message):
        log.debug("response from the client ignored (we send no requests): %r", request_id)
        return None
    if not isinstance(method, str) or message.get("jsonrpc") != "2.0" or (has_id and not _valid_id(request_id)):
        agent.answer_error(
            request_id if _valid_id(request_id) else None,
            InvalidRequest('invalid request: needs jsonrpc "2.0", a string method and a string or integer id'),
        )
        return None
    params = message.get("params", {})
    if has_id and _valid_id(request_id):  # (an invalid id was answered above)
        return _request(agent, request_id, method, params)
    _notification(agent, method, params)
    return None


def _request(agent: Agent, request_id: str | int, method: str, params: Any) -> SuggestJob | None:
    try:
        if method == _SUGGEST:
            return _suggest_job(agent, request_id, params)
        handler = REQUESTS.get(method)
        if handler is None:
            raise MethodNotFound(method)
        result = handler(agent, params)
    except RpcError as error:
        agent.answer_error(request_id, error)
        return None
    except Exception:
        log.exception("request %s %r failed", method, request_id)
        agent.answer_error(request_id, InternalError(method))
        return None
    agent.answer(request_id, result)
    return None


def _suggest_job(agent: Agent, request_id: str | int, params: Any) -> SuggestJob | None:
    from nextedit.acp import wire

    p = wire.parse(wire.SuggestParams, params)
    agent.session(p.session_id)  # -32002 now, not later
    if request_id in agent.inflight:
        raise InvalidRequest(f"invalid request: id {request_id!r} is already in flight")
    job = SuggestJob(request_id, p.session_id, p)
    agent.track(job)
    return job


def _notification(agent: Agent, method: str, params: Any) -> None:
    handler = NOTIFICATIONS.get(method)
    if handler is None:
        log.debug("unknown notification %s ignored", method)
        return
    try:
        handler(agent, params)
    except RpcError as error:
        log.warning("notification %s dropped: %s", method, error.message)
    except Exception:
        log.exception("notification %s failed", method)
