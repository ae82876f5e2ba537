"""The ACP agent without a process or a loop: send a message, get the agent's answers back.

For profiling and benchmarks (``nextedit bench --in-process``): the same
:func:`nextedit.acp.dispatch.receive` and the same three suggest steps as the
stdio server (snapshot, compute, hand back), called synchronously on this
thread. A ``nes/suggest`` is computed immediately, so nothing is ever in
flight, ``$/cancel_request`` has nothing to cancel, and the answers are
deterministic.

Must not know: the transport; it adds no behaviour of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nextedit.acp import dispatch
from nextedit.acp.agent import Agent
from nextedit.settings import Settings

__all__ = ["InProcessAgent"]


class InProcessAgent:
    """``send(message) -> [messages the agent wrote in answer]``."""

    def __init__(self, state_dir: Path | None = None, settings: Settings | None = None) -> None:
        self._outbox: list[dict[str, Any]] = []
        self.agent = Agent(send=self._outbox.append, state_dir=state_dir, settings=settings or Settings())

    def send(self, message: dict[str, Any] | bytes | str) -> list[dict[str, Any]]:
        """Handle one message (a dict, or a raw JSON line) and return what the agent answered."""
        job = dispatch.receive(self.agent, message)
        if job is not None:
            dispatch.run_suggest(self.agent, job)
        out, self._outbox[:] = list(self._outbox), []
        return out

    def close(self) -> None:
        self.agent.close()

    def __enter__(self) -> InProcessAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
