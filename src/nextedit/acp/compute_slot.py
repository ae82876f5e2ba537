"""The stdio agent's compute slot: computations one at a time, first come first served, each in one long-lived worker thread.

A :class:`Computation` has three steps: ``begin`` on the loop (``None``:
nothing to do), ``compute`` on the worker thread, ``end`` back on the loop.
:class:`ComputeSlot` keeps the queue of computations waiting for their turn
and runs them in order: one computation at a time per connection (the
engine's caches are not shared between threads). :meth:`ComputeSlot.run_next`
starts the first waiting one if the slot is free; the owner calls it when it
has handled what it read, so every message read before a computation begins
applies first. A computation that is no longer wanted is skipped at its turn
by its own ``begin`` (it returns ``None``).

The worker is one daemon thread made at the first computation and kept for
the connection; a finished computation is handed back to the loop with one
``call_soon_threadsafe`` (one wake-up of the loop). A computation the worker
started always comes back to the loop, cancelled or not: nothing is left
running once :meth:`ComputeSlot.idle` is true, and :meth:`ComputeSlot.close`
ends the thread.

A bug in any step — begin, compute or end — is logged with its traceback and
fails that computation only (``failed``); the slot serves the next one.

Must not know: JSON-RPC, sessions, the engine, how input is read.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio

__all__ = ["ComputeSlot", "Computation"]

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Computation:
    """One computation's three steps and what to do when one of them fails."""

    begin: Callable[[], Any]  # on the loop: the work for ``compute``, or None (nothing to do)
    compute: Callable[[Any], Any]  # on the worker thread
    end: Callable[[Any, Any], None]  # on the loop: (work, result)
    failed: Callable[[], None]  # on the loop, after a bug in a step (logged already)
    what: str  # for the log: "nes/suggest 7", "parse ahead of file:///a.py"


class _Worker:
    """One daemon thread running ``compute`` steps, posting each outcome to ``done`` on the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, done: Callable[[Any, BaseException | None], None]) -> None:
        self._loop = loop
        self._done = done
        self._inbox: queue.SimpleQueue[tuple[Callable[[Any], Any], Any] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="nextedit-compute", daemon=True)
        self._thread.start()

    def submit(self, compute: Callable[[Any], Any], work: Any) -> None:
        self._inbox.put((compute, work))

    def _run(self) -> None:
        while True:
            item = self._inbox.get()
            if item is None:
                return
            compute, work = item
            result: Any = None
            error: BaseException | None = None
            try:
                result = compute(work)
            except BaseException as exc:  # noqa: BLE001 - handed to the loop, which logs it and fails the computation
                error = exc
            try:
                self._loop.call_soon_threadsafe(self._done, result, error)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                return

    def close(self) -> None:
        self._inbox.put(None)
        self._thread.join()


class ComputeSlot:
    """The queue of computations waiting for the single worker, and the one running."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waiting: deque[Computation] = deque()
        self._running: tuple[Computation, Any] | None = None  # and its work
        self._worker: _Worker | None = None
        # called on the loop each time the slot is found idle (nothing running, nothing waiting)
        self.on_idle: Callable[[], None] | None = None
        self.finished = 0  # computations that came back from the worker, failed or not

    def add(self, computation: Computation) -> None:
        """Queue ``computation`` behind the others; it starts at a :meth:`run_next`."""
        self._waiting.append(computation)

    @property
    def idle(self) -> bool:
        return self._running is None and not self._waiting

    def run_next(self) -> None:
        """If the slot is free, begin the first waiting computation that has work and hand it to the worker."""
        while self._running is None and self._waiting:
            computation = self._waiting.popleft()
            try:
                work = computation.begin()
            except Exception:
                log.exception("%s failed", computation.what)
                computation.failed()
                continue
            if work is None:
                continue
            if self._worker is None:
                self._worker = _Worker(self._loop, self._done)
            self._running = (computation, work)
            self._worker.submit(computation.compute, work)
        if self.idle and self.on_idle is not None:
            self.on_idle()

    def _done(self, result: Any, error: BaseException | None) -> None:
        assert self._running is not None
        (computation, work), self._running = self._running, None
        self.finished += 1
        try:
            if error is not None:
                raise error
            computation.end(work, result)
        except Exception:
            log.exception("%s failed", computation.what)
            computation.failed()
        finally:
            self.run_next()

    def close(self) -> None:
        """End the worker thread (after the running computation, if any, came back)."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None
