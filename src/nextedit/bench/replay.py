"""The replayer: drives an NES agent through recorded sessions and judges every query.

Per session (docs/trace-format.md, "Replaying"): its own ``nes/start``;
``document/didOpen|didChange|didFocus|didClose`` forwarded in order; at each
query ``nes/suggest`` (timed, wall clock around the request) whose first
suggestion is judged by :mod:`nextedit.bench.score`; ``end`` checks the
SHA-256 of the bench's own mirror of the text; ``nes/close``.

**Agent CPU**: with each ``nes/suggest`` answer the replayer also reads the
CPU time the agent process has used (every thread, from ``/proc``; a
subprocess agent on Linux only). A request is charged everything the agent
did since the previous answer: the changes, focus and rejections sent
meanwhile, a session's ``nes/start`` and ``didOpen`` for its first query, and
the request itself — what typing and asking cost the editor's machine. Start-up
(before ``initialize`` is answered) is charged to nothing; what an agent loads
right after it (nextedit warms up its engine's imports) goes to its first
request. Unlike the wall clock, it hardly moves when the machine is busy with
other work.

**Jumps are followed**: when the first suggestion is a ``jump``, the client
asks ``nes/suggest`` again at the jump's position (the jump's ``uri`` at the
mirror's version of it, ``triggerKind: automatic``) and the jump is settled
by that follow-up's first suggestion (:func:`nextedit.bench.score.settle_jump`).
The follow-up's latency is kept apart from the query's own.

**Rejections**: every suggestion the developer was shown first and that is
not right gets ``nes/reject`` with reason ``ignored`` (they saw it and went on
typing); ``nes/accept`` is never sent, since the developer then makes their
real edit.  For a followed jump, both were shown: the follow-up's first
suggestion is rejected when it is not a correct change (a second jump
included), then the jump itself when the query's verdict is wrong (it did not
land, or its promise was not kept).  Both rejections are sent after the
follow-up request, so the rejection of a jump never hides the edit it
promised.

**Sources**: a suggestion from the agent's model carries
``_meta.nextedit.source`` (``model:next-edit``); every other one is the
engine's synthesis (:data:`~nextedit.provider.defaults.SYNTHESIS_SOURCE`). Each query records the source of
its first suggestion (:attr:`QueryResult.source`, ``source`` in
``--explain``), so the metrics can be split by it.

The replaying client advertises ``jump`` and ``searchAndReplace`` but not
``rename`` (docs/trace-format.md).  Positions are converted from the trace's encoding to
the one the agent chose whenever they differ.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nextedit.bench.events import Change, Close, End, Focus, Open, Query, Session
from nextedit.bench.score import ReversalTracker, Verdict, judge, settle_jump
from nextedit.bench.transport import AgentError, RpcError, Transport
from nextedit.bench.wire import (
    apply_changes,
    encoding,
    offset_at,
    position_at,
    range_at,
    range_offsets,
    sha256_text,
    text_change,
)
from nextedit.provider.defaults import SYNTHESIS_SOURCE
from nextedit.text import Document, PositionEncoding

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1


def source_of(suggestion: dict | None) -> str | None:
    """Where a wire suggestion came from: ``_meta.nextedit.source``, else :data:`~nextedit.provider.defaults.SYNTHESIS_SOURCE`;
    ``None`` for no suggestion."""
    if not isinstance(suggestion, dict):
        return None
    meta = suggestion.get("_meta")
    ours = meta.get("nextedit") if isinstance(meta, dict) else None
    source = ours.get("source") if isinstance(ours, dict) else None
    return source if isinstance(source, str) and source else SYNTHESIS_SOURCE


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


@dataclass(frozen=True, slots=True)
class _Answer:
    """What one ``nes/suggest`` came back with."""

    suggestions: list[dict]
    latency_ms: float | None  # wall clock around the request; None when it failed
    cpu_ms: float | None  # agent CPU charged to it (module docstring)
    error: str | None


@dataclass(slots=True)
class FollowUp:
    """The request made at a jump's position, and what came of it."""

    uri: str
    version: int
    position: dict  # in the agent's encoding, as sent
    latency_ms: float | None
    verdict: Verdict
    suggestion: dict | None
    n_suggestions: int = 0
    error: str | None = None
    cpu_ms: float | None = None  # agent CPU charged to the request (module docstring)

    def explain(self) -> dict[str, Any]:
        return {
            "uri": self.uri,
            "version": self.version,
            "position": self.position,
            "suggestion": self.suggestion,
            "suggestions": self.n_suggestions,
            "verdict": self.verdict.to_json(),
            "latencyMs": _ms(self.latency_ms),
            "cpuMs": _ms(self.cpu_ms),
            "error": self.error,
        }


@dataclass(slots=True)
class QueryResult:
    trace: str
    index: int  # query number within its session
    language: str
    kind: str  # reader kind: nes-trace | vscode | keystrokes
    query: Query
    latency_ms: float | None
    verdict: Verdict
    suggestion: dict | None
    n_suggestions: int = 0
    error: str | None = None
    repository: str = ""
    followup: FollowUp | None = None  # the first suggestion was a jump and was followed
    cpu_ms: float | None = None  # agent CPU charged to the request (module docstring)

    @property
    def source(self) -> str | None:
        """Who made the first suggestion (:func:`source_of`); ``None`` when there was none."""
        return source_of(self.suggestion)

    def explain(self) -> dict[str, Any]:
        q = self.query
        return {
            "repository": self.repository,
            "trace": self.trace,
            "query": self.index,
            "language": self.language,
            "uri": q.uri,
            "version": q.version,
            "position": q.position,
            "expected": None if q.expected is None else [x.to_json() for x in q.expected],
            "related": q.related,
            "suggestion": self.suggestion,
            "source": self.source,
            "suggestions": self.n_suggestions,
            "verdict": self.verdict.to_json(),
            "latencyMs": _ms(self.latency_ms),
            "cpuMs": _ms(self.cpu_ms),
            "followUp": None if self.followup is None else self.followup.explain(),
            "error": self.error,
        }


@dataclass(slots=True)
class SessionResult:
    trace: str
    language: str
    kind: str
    tags: list[str]
    queries: list[QueryResult] = field(default_factory=list)
    hash_ok: bool | None = None  # None: the session has no end event
    error: str | None = None
    changes: int = 0
    repository: str = ""  # the source repository (header ``source.repo``, else the trace file's name)


def _client_capabilities(enc: PositionEncoding) -> dict:
    return {
        "positionEncodings": [enc],
        "nes": {"jump": {}, "searchAndReplace": {}},  # not rename: docs/trace-format.md
    }


class Replayer:
    """Replays sessions through one agent connection (restarted if it dies)."""

    def __init__(
        self,
        transport_factory: Callable[[], Transport],
        *,
        position_encoding: str = PositionEncoding.UTF16,
        on_query: Callable[[QueryResult], None] | None = None,
        request_timeout: float = 30.0,
    ) -> None:
        self._factory = transport_factory
        self.client_encoding = encoding(position_encoding)
        self.on_query = on_query
        self.request_timeout = request_timeout
        self.transport: Transport | None = None
        self.agent_encoding = self.client_encoding
        self.agent_info: dict | None = None
        # the agent's CPU time when it last answered a suggest (or initialize)
        self._cpu_mark: int | None = None

    # -- connection ----------------------------------------------------------
    def start(self) -> None:
        self.transport = self._factory()
        from nextedit import __version__

        result = (
            self.transport.send_request(
                "initialize",
                {
                    "protocolVersion": PROTOCOL_VERSION,
                    "clientCapabilities": _client_capabilities(self.client_encoding),
                    "clientInfo": {"name": "nextedit-bench", "version": __version__},
                },
                timeout=self.request_timeout,
            )
            or {}
        )
        caps = result.get("agentCapabilities") or {}
        self.agent_encoding = encoding(
            caps.get("positionEncoding") or (caps.get("nes") or {}).get("positionEncoding") or PositionEncoding.UTF16
        )
        self.agent_info = result.get("agentInfo")
        self._cpu_mark = self.transport.agent_cpu_ns()

    def close(self) -> None:
        if self.transport is not None:
            try:
                self.transport.close()
            finally:
                self.transport = None

    def __enter__(self) -> Replayer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _restart(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - the old agent is gone anyway
            pass
        self.start()

    # -- sessions ------------------------------------------------------------
    def replay(self, session: Session) -> SessionResult:
        res = SessionResult(
            session.trace,
            session.language,
            session.header.kind,
            list(session.header.tags),
            repository=session.header.repository or session.trace,
        )
        if self.transport is None:
            self.start()
        try:
            self._replay(session, res)
        except AgentError as exc:
            res.error = str(exc)
            log.error("session %s: %s", session.trace, exc)
            self._restart()
        except RpcError as exc:
            res.error = f"{exc}"
            log.error("session %s: agent error %s", session.trace, exc)
        except (ValueError, KeyError, TypeError) as exc:  # a broken trace or answer
            res.error = f"{type(exc).__name__}: {exc}"
            log.error("session %s: %s", session.trace, res.error)
        return res

    def _convert_pos(self, doc: Document, pos: dict, enc: PositionEncoding) -> dict:
        if enc == self.agent_encoding:
            return pos
        return position_at(doc, offset_at(doc, pos, enc), self.agent_encoding)

    def _convert_range(self, doc: Document, rng: dict, enc: PositionEncoding) -> dict:
        if enc == self.agent_encoding:
            return rng
        return range_at(doc, *range_offsets(doc, rng, enc), self.agent_encoding)

    def _replay(self, session: Session, res: SessionResult) -> None:
        t = self.transport
        assert t is not None
        enc = encoding(session.header.encoding)
        docs: dict[str, Document] = {}
        first_uri: str | None = None
        tracker = ReversalTracker()
        started = t.send_request("nes/start", self._start_params(session), timeout=self.request_timeout) or {}
        sid = started["sessionId"]
        qn = 0
        for ev in session.events:
            if isinstance(ev, Change):
                doc = docs.get(ev.uri)
                if doc is None:
                    raise ValueError(f"{session.trace}: change of a document not open: {ev.uri}")
                wire = []
                for ch in ev.content_changes:
                    change = text_change(ch)
                    if change.range is not None and enc != self.agent_encoding:
                        ch = {"range": self._convert_range(doc, ch["range"], enc), "text": change.text}
                    wire.append(ch)  # converted against the text before this change
                    (applied,) = doc.apply_changes([change], ev.version, enc)
                    tracker.on_change(ev.uri, applied.start_cp, applied.old_end_cp, applied.old_text, applied.new_text)
                doc.version = ev.version
                res.changes += 1
                t.send_notification(
                    "document/didChange",
                    {"sessionId": sid, "uri": ev.uri, "version": ev.version, "contentChanges": wire},
                )
            elif isinstance(ev, Query):
                qn += 1
                res.queries.append(self._query(sid, session, ev, qn, docs, tracker))
            elif isinstance(ev, Open):
                docs[ev.uri] = Document(ev.uri, ev.language_id, ev.version, ev.text)
                first_uri = first_uri or ev.uri
                tracker.reset(ev.uri)
                t.send_notification(
                    "document/didOpen",
                    {
                        "sessionId": sid,
                        "uri": ev.uri,
                        "languageId": ev.language_id,
                        "version": ev.version,
                        "text": ev.text,
                    },
                )
            elif isinstance(ev, Focus):
                doc = docs.get(ev.uri)
                pos, vis = ev.position, ev.visible_range
                if doc is not None:
                    pos = self._convert_pos(doc, pos, enc)
                    vis = self._convert_range(doc, vis, enc)
                t.send_notification(
                    "document/didFocus",
                    {"sessionId": sid, "uri": ev.uri, "version": ev.version, "position": pos, "visibleRange": vis},
                )
            elif isinstance(ev, Close):
                docs.pop(ev.uri, None)
                t.send_notification("document/didClose", {"sessionId": sid, "uri": ev.uri})
            elif isinstance(ev, End):
                uri = ev.uri or first_uri
                doc = docs.get(uri or "")
                ok = doc is not None and sha256_text(doc.text) == ev.sha256
                res.hash_ok = ok if res.hash_ok is None else (res.hash_ok and ok)
                if not ok:
                    log.error("session %s: final text hash mismatch for %s", session.trace, uri)
        t.send_request("nes/close", {"sessionId": sid}, timeout=self.request_timeout)

    def _start_params(self, session: Session) -> dict:
        for ev in session.events:
            if isinstance(ev, Open) and ev.uri.startswith("file:///"):
                top = ev.uri[len("file:///") :].split("/", 1)[0]
                if top and "/" in ev.uri[len("file:///") :]:
                    return {"workspaceUri": f"file:///{top}"}
                break
        return {}

    def _suggest(self, params: dict) -> _Answer:
        """One ``nes/suggest``: its suggestions, wall time and agent CPU."""
        t = self.transport
        assert t is not None
        t0 = time.perf_counter()
        try:
            result = t.send_request("nes/suggest", params, timeout=self.request_timeout) or {}
        except RpcError as exc:
            return _Answer([], None, self._cpu_since_last_answer(), str(exc))
        latency = (time.perf_counter() - t0) * 1000.0
        cpu = self._cpu_since_last_answer()
        suggestions = result.get("suggestions") if isinstance(result, dict) else None
        return _Answer(suggestions if isinstance(suggestions, list) else [], latency, cpu, None)

    def _cpu_since_last_answer(self) -> float | None:
        """The agent's CPU (ms) since the previous answer (module docstring);
        ``None`` when the transport cannot tell."""
        t = self.transport
        assert t is not None
        now = t.agent_cpu_ns()
        before, self._cpu_mark = self._cpu_mark, now
        if now is None or before is None:
            return None
        return (now - before) / 1e6

    def _judge(
        self,
        first: dict | None,
        q: Query,
        docs: dict[str, Document],
        enc: PositionEncoding,
        tracker: ReversalTracker,
        *,
        follow_up: bool = False,
    ) -> Verdict:
        try:
            return judge(first, q, docs, self.agent_encoding, enc, tracker, follow_up=follow_up)
        except Exception as exc:  # noqa: BLE001 - a malformed suggestion is a wrong one
            return Verdict(
                answered=first is not None,
                kind=(first or {}).get("kind") if isinstance(first, dict) else None,
                reason=f"unjudgeable suggestion: {type(exc).__name__}: {exc}",
                scored=q.expected is not None,
            )

    def _query(
        self, sid: str, session: Session, q: Query, qn: int, docs: dict[str, Document], tracker: ReversalTracker
    ) -> QueryResult:
        enc = encoding(session.header.encoding)
        doc = docs.get(q.uri)
        if doc is not None and doc.version != q.version:
            log.warning("%s: query for version %s but the mirror is at %s", session.trace, q.version, doc.version)
        params = {
            "sessionId": sid,
            "uri": q.uri,
            "version": q.version,
            "position": self._convert_pos(doc, q.position, enc) if doc else q.position,
            "triggerKind": q.trigger_kind,
        }
        if q.selection is not None and doc is not None:
            params["selection"] = self._convert_range(doc, q.selection, enc)
        answer = self._suggest(params)
        suggestions, error = answer.suggestions, answer.error
        first = suggestions[0] if suggestions else None
        verdict = self._judge(first, q, docs, enc, tracker)
        if error:
            verdict.reason = f"error: {error}"
        followup = None
        if isinstance(first, dict) and first.get("kind") == "jump" and verdict.landed is not None:
            followup, why = self._follow_jump(sid, first, q, docs, enc, tracker)
            settle_jump(verdict, None if followup is None else followup.verdict, why)
        qr = QueryResult(
            session.trace,
            qn,
            session.language,
            session.header.kind,
            q,
            answer.latency_ms,
            verdict,
            first,
            len(suggestions),
            error,
            session.header.repository or session.trace,
            followup,
            answer.cpu_ms,
        )
        self._reject_what_was_wrong(sid, qr)
        if self.on_query is not None:
            self.on_query(qr)
        return qr

    def _follow_jump(
        self,
        sid: str,
        jump: dict,
        q: Query,
        docs: dict[str, Document],
        enc: PositionEncoding,
        tracker: ReversalTracker,
    ) -> tuple[FollowUp | None, str]:
        """Ask again at the jump's position; ``(None, why)`` when it cannot be followed."""
        uri = jump.get("uri")
        position = jump.get("position")
        target = docs.get(uri) if isinstance(uri, str) else None
        if target is None or not isinstance(uri, str):
            return None, f"to a document that is not open ({uri!r})"
        if not isinstance(position, dict) or not all(isinstance(position.get(k), int) for k in ("line", "character")):
            return None, "without a usable position"
        at = {"line": position["line"], "character": position["character"]}
        params = {"sessionId": sid, "uri": uri, "version": target.version, "position": at, "triggerKind": "automatic"}
        answer = self._suggest(params)
        suggestions, error = answer.suggestions, answer.error
        first = suggestions[0] if suggestions else None
        verdict = self._judge(first, q, docs, enc, tracker, follow_up=True)
        if error:
            verdict.reason = f"error: {error}"
        followup = FollowUp(
            uri, target.version, at, answer.latency_ms, verdict, first, len(suggestions), error, answer.cpu_ms
        )
        return followup, ""

    def _reject_what_was_wrong(self, sid: str, qr: QueryResult) -> None:
        """``nes/reject`` (``ignored``) every suggestion shown first that was not right (module docstring)."""
        t = self.transport
        assert t is not None
        shown: list[tuple[dict | None, bool]] = []
        if qr.followup is not None:
            shown.append((qr.followup.suggestion, qr.followup.verdict.correct))
        shown.append((qr.suggestion, qr.verdict.correct))
        for suggestion, right in shown:
            if isinstance(suggestion, dict) and not right and suggestion.get("id") is not None:
                t.send_notification("nes/reject", {"sessionId": sid, "id": suggestion["id"], "reason": "ignored"})


def replay_mirror_only(session: Session) -> tuple[bool | None, dict[str, str]]:
    """Apply a session's changes to fresh mirrors (no agent); ``(hash ok, final texts)``."""
    enc = session.header.encoding
    docs: dict[str, Document] = {}
    first_uri = None
    ok: bool | None = None
    for ev in session.events:
        if isinstance(ev, Open):
            docs[ev.uri] = Document(ev.uri, ev.language_id, ev.version, ev.text)
            first_uri = first_uri or ev.uri
        elif isinstance(ev, Change):
            apply_changes(docs[ev.uri], ev.content_changes, ev.version, enc)
        elif isinstance(ev, End):
            doc = docs.get(ev.uri or first_uri or "")
            good = doc is not None and sha256_text(doc.text) == ev.sha256
            ok = good if ok is None else ok and good
    return ok, {u: d.text for u, d in docs.items()}
