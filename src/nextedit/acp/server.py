"""The stdio ACP agent: one connection, one asyncio loop (run by anyio) that reads and answers, suggests computed off the loop.

The loop reads whatever input is there when stdin becomes readable (a
reader callback: no task, no cancel scope) and hands each complete line to
:func:`nextedit.acp.dispatch.receive` in arrival order — notifications and
ordinary requests are handled right there, so they apply strictly in order
and feedback is written before the next message is looked at. A
``nes/suggest`` comes back as a job and is queued in the connection's
:class:`~nextedit.acp.compute_slot.ComputeSlot`:

1. it begins only once the whole batch it came in has been handled, so every
   message already read (a cancel, a newer didChange) applies before it
   starts;
2. it waits its turn — one computation at a time per connection (the
   engine's caches are not shared between threads), first come first served;
3. on the loop, :func:`~nextedit.acp.dispatch.begin_suggest` applies the
   version rule and takes a snapshot of the session's documents (a job
   answered meanwhile has nothing to begin: it is skipped);
4. the slot's one long-lived worker thread runs
   :func:`~nextedit.acp.dispatch.compute_suggest` on the snapshot while the
   loop keeps reading: changes apply to the live documents,
   ``$/cancel_request`` and ``nes/close`` answer -32800 at once, a newer
   ``didChange`` answers ``{"suggestions": []}`` at once — and the worker,
   polling ``job.answered``, stops at the engine's next check;
5. back on the loop, :func:`~nextedit.acp.dispatch.end_suggest` hands back
   what the worker worked out and answers unless someone answered first.

A computation the worker started always comes back to the loop, answered
or not, so no thread outlives its snapshot's owner. When the slot is idle
after one came back and no input waits, the loop collects the young
generations (:class:`nextedit.heap.BetweenRequests`): the collector's pauses
fall between requests instead of inside the next one.

A ``didOpen`` queues the document's first parse, and a ``didChange`` that
leaves its tree awaiting a re-parse queues that re-parse (``agent.parse_ahead``):
:meth:`~nextedit.session.Session.parse_ahead_delay` later (a loop timer:
:data:`~nextedit.session.PARSE_AHEAD_DELAY`, longer for a document whose
parses ahead later edits kept dropping unread), it runs
like a suggest — its turn for the compute slot, a snapshot, the worker
thread, the tree handed back on the loop — so an editor's idle time after
opening a file, or its debounce after the last keystroke, pays the parse,
not the suggest. A newer change, close or re-open of the document halts it
(its timer is cancelled once the batch that halted it is handled;
tree-sitter stops a running parse at its next progress check): a typing
burst faster than the delay parses nothing ahead until its last keystroke.
A suggest arriving before the delay ends finds the job halted by its own
``didChange`` or not yet queued for the slot; one arriving while it runs
waits for the slot and finds the tree parsed.

``initialize`` is normally answered before the loop starts (see
:func:`main`); after it, the loop imports the wire models and the
engine (:func:`~nextedit.acp.dispatch.warm_up`) when no input is waiting, so
``initialize`` itself is answered without them.

EOF on the input halts every parse ahead (no reader comes after the queued
suggests: their timers are cancelled, a running one stops at its next
progress check) and ends the loop after the queued and running
computations have finished; the sessions are closed and :func:`serve`
returns 0. Where stdin cannot be watched by the loop (a
regular file), it is read in a thread, one chunk at a time.

Must not know: methods and their params (dispatch), bytes on the wire (transport).
"""

from __future__ import annotations

import logging
import os
import select
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from nextedit import heap
from nextedit.acp import dispatch
from nextedit.acp.agent import Agent, ParseJob, SuggestJob
from nextedit.acp.compute_slot import Computation, ComputeSlot
from nextedit.acp.transport import CHUNK, LineSplitter, LineWriter, read_first_batch
from nextedit.settings import Settings

if TYPE_CHECKING:
    import asyncio

__all__ = ["main", "serve"]

log = logging.getLogger(__name__)


def _suggest(agent: Agent, job: SuggestJob) -> Computation:
    return Computation(
        begin=lambda: dispatch.begin_suggest(agent, job),
        compute=lambda work: dispatch.compute_suggest(work, job),
        end=lambda work, result: dispatch.end_suggest(agent, job, work, result),
        failed=lambda: dispatch.fail_suggest(agent, job),
        what=f"nes/suggest {job.request_id!r}",
    )


def _parse(agent: Agent, job: ParseJob) -> Computation:
    return Computation(
        begin=lambda: dispatch.begin_parse(agent, job),
        compute=lambda work: dispatch.compute_parse(work, job),
        end=lambda work, _parsed: dispatch.end_parse(agent, job, work),
        failed=lambda: agent.parse_done(job),  # the first suggest parses instead
        what=f"parse ahead of {job.uri}",
    )


def _input_waiting(fd: int) -> bool:
    """Whether ``fd`` has input (or EOF) ready now; True when it cannot tell."""
    try:
        readable, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def _receive_all(agent: Agent, lines: list[bytes]) -> list[SuggestJob]:
    """Handle lines in order; the suggests among them come back as jobs."""
    jobs = []
    for line in lines:
        try:
            job = dispatch.receive(agent, line)
        except Exception:  # a bug in framing itself: log it, keep serving
            log.exception("message dropped: %.200r", line)
            continue
        if job is not None:
            jobs.append(job)
    return jobs


class _Connection:
    """Reading stdin on the loop, queueing what it asks for, and knowing when all is done."""

    def __init__(self, loop: asyncio.AbstractEventLoop, in_fd: int, agent: Agent, pending: bytes) -> None:
        self.loop = loop
        self.in_fd = in_fd
        self.agent = agent
        self.lines = LineSplitter(pending)
        self.slot = ComputeSlot(loop)
        self.slot.on_idle = self._on_idle
        self.collector = heap.BetweenRequests()
        self.timers: dict[ParseJob, asyncio.TimerHandle] = {}  # parses ahead waiting for their delay
        self.watching = False  # stdin is watched by the loop (else read in a thread)
        self.eof = False
        self.warm = False
        self.finished: asyncio.Future[None] = loop.create_future()

    def start(self, jobs: list[SuggestJob]) -> None:
        self._queue(jobs)
        self.slot.run_next()
        try:
            self.loop.add_reader(self.in_fd, self._on_readable)
            self.watching = True
        except (OSError, NotImplementedError, ValueError) as exc:
            log.debug("input fd %d cannot be polled (%s): reading in a thread", self.in_fd, exc)
            self._read_in_thread()

    def close(self) -> None:
        if self.watching:
            self.loop.remove_reader(self.in_fd)
            self.watching = False
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        self.slot.close()

    # -- input -------------------------------------------------------------------

    def _on_readable(self) -> None:
        try:
            chunk = os.read(self.in_fd, CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            log.error("reading the input failed (%s): taken as its end", exc)
            chunk = b""
        self._on_chunk(chunk)

    def _read_in_thread(self) -> None:
        self.loop.run_in_executor(None, os.read, self.in_fd, CHUNK).add_done_callback(self._on_thread_read)

    def _on_thread_read(self, future: asyncio.Future[bytes]) -> None:
        if future.cancelled():
            return
        try:
            chunk = future.result()
        except OSError as exc:
            log.error("reading the input failed (%s): taken as its end", exc)
            chunk = b""
        self._on_chunk(chunk)
        if chunk:
            self._read_in_thread()

    def _on_chunk(self, chunk: bytes) -> None:
        if chunk:
            self._handle(self.lines.feed(chunk))
            return
        if self.watching:
            self.loop.remove_reader(self.in_fd)
            self.watching = False
        self._handle(self.lines.finish())
        self.eof = True
        log.info("end of input: finishing %d suggest(s)", len(self.agent.inflight))
        self.agent.halt_all_parses()
        self._cancel_halted_timers()
        self._finish_if_done()

    def _handle(self, lines: list[bytes]) -> None:
        """A batch: every line handled in order, then the warm-up if nothing else
        is waiting, then the first computation queued (if the slot is free)."""
        if not lines:
            return
        self._queue(_receive_all(self.agent, lines))
        if not self.warm and self.agent.initialized and not _input_waiting(self.in_fd):
            self.warm = True
            try:
                dispatch.warm_up()
            except Exception:  # the handler that needs it will say what is wrong
                log.exception("warm-up import failed")
        self.slot.run_next()

    # -- computations ----------------------------------------------------------------

    def _queue(self, jobs: list[SuggestJob]) -> None:
        agent = self.agent
        self._cancel_halted_timers()
        for parse in agent.parses:
            if not parse.started:
                parse.started = True
                self._delay_parse(parse)
        for job in jobs:
            self.slot.add(_suggest(agent, job))

    def _delay_parse(self, job: ParseJob) -> None:
        # An editor is idle for a while after opening a file (the developer reads
        # before typing); a client that sends a change right away (a replay) halts
        # the job before it started, so the parse it would have wasted costs nothing.
        def due() -> None:
            self.timers.pop(job, None)
            if job.halted:
                self.agent.parse_done(job)
                self._finish_if_done()
                return
            self.slot.add(_parse(self.agent, job))
            self.slot.run_next()

        self.timers[job] = self.loop.call_later(job.delay, due)

    def _cancel_halted_timers(self) -> None:
        """Drop the timers of parses halted before their delay ended (a typing
        burst: each keystroke halts the job of the one before)."""
        for job in [job for job in self.timers if job.halted]:
            self.timers.pop(job).cancel()
            self.agent.parse_done(job)

    def _on_idle(self) -> None:
        """Nothing to compute: if a computation came back since the last
        collection, the young generations are collected now, unless the next
        message is already there (its batch goes first; the slot is idle again
        after it). A batch of notifications alone asks nothing of stdin."""
        finished = self.slot.finished
        if self.collector.due(finished) and not (self.watching and _input_waiting(self.in_fd)):
            self.collector.after(finished)
        self._finish_if_done()

    def _finish_if_done(self) -> None:
        if self.eof and self.slot.idle and not self.timers and not self.finished.done():
            self.finished.set_result(None)


async def serve(
    in_fd: int,
    agent: Agent,
    jobs: list[SuggestJob] | None = None,
    pending: bytes = b"",
) -> int:
    """Serve one connection until EOF: ``jobs`` and ``pending`` input come from before the loop."""
    import asyncio

    connection = _Connection(asyncio.get_running_loop(), in_fd, agent, pending)
    try:
        connection.start(jobs or [])
        await connection.finished
    finally:
        connection.close()
        agent.close()
    return 0


def main(state_dir: Path | None = None, settings: Settings | None = None) -> int:
    """Serve stdin/stdout (the ``nextedit acp`` command).

    The first lines — ``initialize``, as a rule — are handled before the
    event loop exists, so answering them costs neither anyio nor asyncio
    (whose import pulls in ``ssl``): an editor waits for that answer.
    """
    in_fd, out_fd = sys.stdin.fileno(), sys.stdout.fileno()
    agent = Agent(send=LineWriter(out_fd), state_dir=state_dir, settings=settings or Settings(), parse_ahead=True)
    lines, pending, eof = read_first_batch(in_fd)
    jobs = _receive_all(agent, lines)
    if eof and not jobs:
        agent.close()
        return 0

    import anyio

    # anyio runs the loop and tears it down; the connection itself is callbacks
    # on its asyncio backend (a reader on stdin, the compute slot's hand-back):
    # anyio's task, cancel scopes and thread hand-off per request cost about
    # 0.3 ms of CPU per request (benchmarks/results/suggest-cpu-roundtrip-notes.md)
    return anyio.run(serve, in_fd, agent, jobs, pending, backend="asyncio")
