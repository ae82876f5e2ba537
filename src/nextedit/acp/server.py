"""The stdio ACP agent: one connection, one anyio task group, one task per ``nes/suggest``.

The loop reads batches of lines and hands each line to
:func:`nextedit.acp.dispatch.receive` in arrival order — notifications and
ordinary requests are handled right there, so they apply strictly in order
and feedback is written before the next message is looked at. A
``nes/suggest`` comes back as a job and runs in its own task inside its own
cancel scope: it first yields once, so every message already read (a cancel,
a newer didChange) applies before it computes; it then computes against the
version it names and answers. ``$/cancel_request`` and ``nes/close`` answer
an unfinished job with -32800 and cancel its scope.

EOF on the input ends the loop after the running suggests have answered; the
sessions are closed and :func:`serve` returns 0.

Must not know: methods and their params (dispatch), bytes on the wire (transport).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import anyio
import anyio.lowlevel

from nextedit.acp import dispatch
from nextedit.acp.agent import Agent, SuggestJob
from nextedit.acp.transport import LineWriter, read_batches
from nextedit.settings import Settings

__all__ = ["main", "serve"]

log = logging.getLogger(__name__)


async def _run_job(agent: Agent, job: SuggestJob) -> None:
    with anyio.CancelScope() as scope:
        job.scope = scope
        if job.answered:  # cancelled before it started
            return
        await anyio.lowlevel.checkpoint()  # let already-read messages apply first
        dispatch.run_suggest(agent, job)


async def serve(in_fd: int, out_fd: int, state_dir: Path | None = None, settings: Settings | None = None) -> int:
    """Serve one connection on a pair of descriptors until EOF."""
    agent = Agent(send=LineWriter(out_fd), state_dir=state_dir, settings=settings or Settings())
    try:
        async with anyio.create_task_group() as tg:
            async for batch in read_batches(in_fd):
                for line in batch:
                    try:
                        job = dispatch.receive(agent, line)
                    except Exception:  # a bug in framing itself: log it, keep serving
                        log.exception("message dropped: %.200r", line)
                        continue
                    if job is not None:
                        tg.start_soon(_run_job, agent, job, name=f"nes/suggest {job.request_id!r}")
            log.info("end of input: finishing %d suggest(s)", len(agent.inflight))
    finally:
        agent.close()
    return 0


def main(state_dir: Path | None = None, settings: Settings | None = None) -> int:
    """Serve stdin/stdout (the ``nextedit acp`` command)."""
    return anyio.run(serve, sys.stdin.fileno(), sys.stdout.fileno(), state_dir, settings)
