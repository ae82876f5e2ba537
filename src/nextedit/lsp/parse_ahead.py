"""The LSP bridge parses a document the editor just opened or changed, while the developer reads or pauses.

The stdio ACP agent does the same (:mod:`nextedit.acp.server`): a
``didOpen``, and a ``didChange`` that leaves the document's tree awaiting a
re-parse, schedule that parse :data:`~nextedit.session.PARSE_AHEAD_DELAY`
later (longer for a document whose parses ahead later edits kept dropping
unread: :meth:`~nextedit.session.Session.parse_ahead_delay`), in a worker thread, on a snapshot of the document
(:meth:`~nextedit.session.Session.prepare_parse`); back on the loop the live
document takes the tree only if it did not change meanwhile
(:meth:`~nextedit.session.Session.finish_parse`). A newer change, close or
re-open of the document, or a suggestion asked for it before the parse is
done, halts the parse (a waiting one's timer is cancelled): the handler
parses for itself on the loop, and a parse of a text that moved on is not
worth finishing. One parse per document: a new one halts the one before.

py-tree-sitter holds the GIL while it parses (it lets go between the
snapshot's read chunks), so this is not parallelism: it only moves the
parse into time the editor is idle, and the first suggestion after a pause
costs what any other does.

Must not know: LSP types, pygls, the engine behind the session.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from nextedit.session import PARSE_AHEAD_DELAY, ParseWork, Session

__all__ = ["ParsesAhead"]

log = logging.getLogger(__name__)


@dataclass
class _Parse:
    """One document's parse ahead, until it is done or halted."""

    session: Session
    uri: str
    halted: bool = False
    timer: asyncio.TimerHandle | None = None  # until its delay ends


class ParsesAhead:
    """The parses ahead of one server, by document. Only the loop's thread
    calls its methods; the worker thread reads ``halted`` only."""

    def __init__(self, delay: float = PARSE_AHEAD_DELAY) -> None:
        self.delay = delay
        self._pending: dict[str, _Parse] = {}
        self._tasks: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak references

    def opened(self, session: Session, uri: str) -> None:
        """``uri`` was just opened in ``session``: parse it after the delay
        (a parse of its earlier text, if any, is halted)."""
        self._queue(session, uri)

    def changed(self, session: Session, uri: str) -> None:
        """``uri`` was just changed in ``session``: when its tree awaits a
        re-parse, do it after the delay (the editor's debounce before it asks
        for a suggestion); the parse of its earlier text, if any, is halted."""
        if session.parse_pending(uri):
            self._queue(session, uri)
        else:
            self.halt(uri)

    def _queue(self, session: Session, uri: str) -> None:
        self.halt(uri)
        parse = self._pending[uri] = _Parse(session, uri)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a handler called directly): the next reader parses
            self._pending.pop(uri, None)
            return
        # this server's delay, with the document's backoff
        parse.timer = loop.call_later(session.parse_ahead_delay(uri, self.delay), self._start, parse)

    def halt(self, uri: str | None = None) -> None:
        """Halt the parse of ``uri`` (``None``: every document)."""
        for key in list(self._pending) if uri is None else [uri]:
            parse = self._pending.pop(key, None)
            if parse is not None:
                parse.halted = True
                if parse.timer is not None:
                    parse.timer.cancel()

    def _start(self, parse: _Parse) -> None:
        parse.timer = None
        if parse.halted:
            return
        work = parse.session.prepare_parse(parse.uri)
        if work is None:  # closed, or read (and parsed) meanwhile
            self._done(parse)
            return
        task = asyncio.get_running_loop().create_task(self._run(parse, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, parse: _Parse, work: ParseWork) -> None:
        try:
            if await asyncio.to_thread(work.run, lambda: parse.halted) and not parse.halted:
                parse.session.finish_parse(work)
        except Exception:  # a bug: the first suggestion parses instead
            log.exception("parse ahead of %s failed", parse.uri)
        finally:
            self._done(parse)

    def _done(self, parse: _Parse) -> None:
        if self._pending.get(parse.uri) is parse:
            del self._pending[parse.uri]
