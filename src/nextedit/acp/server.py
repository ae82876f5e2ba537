"""The stdio ACP agent: one connection, one anyio task group, suggests computed off the loop.

The loop reads batches of lines and hands each line to
:func:`nextedit.acp.dispatch.receive` in arrival order — notifications and
ordinary requests are handled right there, so they apply strictly in order
and feedback is written before the next message is looked at. A
``nes/suggest`` comes back as a job and runs as its own task in its own
cancel scope:

1. it yields once, so every message already read (a cancel, a newer
   didChange) applies before it starts;
2. it waits its turn — one computation at a time per connection (the
   engine's caches are not shared between threads);
3. on the loop, :func:`~nextedit.acp.dispatch.begin_suggest` applies the
   version rule and takes a snapshot of the session's documents;
4. a worker thread runs :func:`~nextedit.acp.dispatch.compute_suggest` on the
   snapshot while the loop keeps reading: changes apply to the live
   documents, ``$/cancel_request`` and ``nes/close`` answer -32800 at once,
   a newer ``didChange`` answers ``{"suggestions": []}`` at once — and the
   worker, polling ``job.answered``, stops at the engine's next check;
5. back on the loop, :func:`~nextedit.acp.dispatch.end_suggest` hands back
   what the worker worked out and answers unless someone answered first.

The worker's wait is shielded: a cancelled job still waits for its thread
(which stops soon) so that no thread outlives its snapshot's owner.

A ``didOpen`` queues the document's first parse (``agent.parse_ahead``):
:data:`~nextedit.session.PARSE_AHEAD_DELAY` later, it runs like a suggest — its turn for the compute slot, a snapshot, a worker
thread, the tree handed back on the loop — so an editor's idle time after
opening a file pays the parse, not its first suggest. A change, close or
re-open of the document halts it (tree-sitter stops at its next progress
check); a suggest arriving meanwhile waits for the slot and finds the tree
parsed.

``initialize`` is normally answered before the loop starts (see
:func:`main`); after it, the loop imports the wire models and the
engine (:func:`~nextedit.acp.dispatch.warm_up`) when no input is waiting, so
``initialize`` itself is answered without them.

EOF on the input ends the loop after the running suggests have answered; the
sessions are closed and :func:`serve` returns 0.

Must not know: methods and their params (dispatch), bytes on the wire (transport).
"""

from __future__ import annotations

import logging
import select
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from nextedit.acp import dispatch
from nextedit.acp.agent import Agent, ParseJob, SuggestJob
from nextedit.acp.transport import LineWriter, read_batches, read_first_batch
from nextedit.settings import Settings

if TYPE_CHECKING:
    import anyio

__all__ = ["main", "serve"]

log = logging.getLogger(__name__)

W = TypeVar("W")  # what a computation's first step hands its worker
R = TypeVar("R")  # what the worker hands back


async def _run_job(agent: Agent, job: SuggestJob, turn: anyio.Lock) -> None:
    import anyio.lowlevel

    with anyio.CancelScope() as scope:
        job.scope = scope
        if job.answered:  # cancelled before it started
            return
        await anyio.lowlevel.checkpoint()  # let already-read messages apply first
        await _in_turn(
            turn,
            lambda: dispatch.begin_suggest(agent, job),
            lambda work: dispatch.compute_suggest(work, job),
            lambda work, result: dispatch.end_suggest(agent, job, work, result),
            lambda: dispatch.fail_suggest(agent, job),
            f"nes/suggest {job.request_id!r}",
        )


async def _run_parse(agent: Agent, job: ParseJob, turn: anyio.Lock) -> None:
    import anyio

    from nextedit.session import PARSE_AHEAD_DELAY  # loaded by then: a document was opened

    # An editor is idle for a while after opening a file (the developer reads
    # before typing); a client that sends a change right away (a replay) halts
    # the job before it started, so the parse it would have wasted costs nothing.
    await anyio.sleep(PARSE_AHEAD_DELAY)
    if job.halted:
        agent.parse_done(job)
        return
    await _in_turn(
        turn,
        lambda: dispatch.begin_parse(agent, job),
        lambda work: dispatch.compute_parse(work, job),
        lambda work, _parsed: dispatch.end_parse(agent, job, work),
        lambda: agent.parse_done(job),  # the first suggest parses instead
        f"parse ahead of {job.uri}",
    )


async def _in_turn(
    turn: anyio.Lock,
    begin: Callable[[], W | None],
    compute: Callable[[W], R],
    end: Callable[[W, R], None],
    failed: Callable[[], None],
    what: str,
) -> None:
    """One computation in the compute slot: ``begin`` on the loop (``None``:
    nothing to do), ``compute`` in a worker thread, ``end`` back on the loop.
    The worker's wait is shielded (see the module docstring); a bug fails
    this computation only (``failed``), the connection lives on."""
    import anyio.to_thread

    async with turn:
        try:
            work = begin()
            if work is None:
                return
            with anyio.CancelScope(shield=True):
                result = await anyio.to_thread.run_sync(compute, work)
            end(work, result)
        except Exception:
            log.exception("%s failed", what)
            failed()


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


async def serve(
    in_fd: int,
    agent: Agent,
    jobs: list[SuggestJob] | None = None,
    pending: bytes = b"",
) -> int:
    """Serve one connection until EOF: ``jobs`` and ``pending`` input come from before the loop."""
    import anyio

    turn = anyio.Lock()
    warm = False
    try:
        async with anyio.create_task_group() as tg:

            def start(new_jobs: list[SuggestJob]) -> None:
                for parse in [p for p in agent.parses if not p.started]:
                    parse.started = True
                    tg.start_soon(_run_parse, agent, parse, turn, name=f"parse {parse.uri}")
                for job in new_jobs:
                    tg.start_soon(_run_job, agent, job, turn, name=f"nes/suggest {job.request_id!r}")

            start(jobs or [])
            async for batch in read_batches(in_fd, pending):
                start(_receive_all(agent, batch))
                if not warm and agent.initialized and not _input_waiting(in_fd):
                    warm = True
                    try:
                        dispatch.warm_up()
                    except Exception:  # the handler that needs it will say what is wrong
                        log.exception("warm-up import failed")
            log.info("end of input: finishing %d suggest(s)", len(agent.inflight))
    finally:
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

    return anyio.run(serve, in_fd, agent, jobs, pending)
