"""How the replayer talks to the agent under test: a subprocess over stdio, or in-process.

Both transports offer the same two calls, ``send_request`` (blocks for the
answer; raises :class:`RpcError` for a JSON-RPC error answer and
:class:`AgentError` when the agent dies or times out) and
``send_notification``; ``agent_cpu_ns`` says how much CPU the agent process
has used so far (a subprocess on Linux; ``None`` otherwise).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Protocol

from nextedit.bench.process_cpu import cpu_ns

log = logging.getLogger(__name__)


class AgentError(RuntimeError):
    """The agent is gone or stuck: the transport cannot be used any more."""


class RpcError(Exception):
    """The agent answered a request with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.data = data


class Transport(Protocol):
    def send_request(self, method: str, params: dict, timeout: float | None = None) -> Any: ...

    def send_notification(self, method: str, params: dict) -> None: ...

    def agent_cpu_ns(self) -> int | None: ...

    def close(self) -> None: ...


def default_agent_command(state_dir: Path) -> list[str]:
    """The real agent: ``python -m nextedit acp --state-dir STATE``."""
    return [sys.executable, "-m", "nextedit", "acp", "--state-dir", str(state_dir)]


_EOF = object()


class SubprocessTransport:
    """Newline-delimited JSON-RPC 2.0 over the pipes of a child process."""

    def __init__(
        self,
        command: list[str],
        *,
        timeout: float = 30.0,
        stderr_path: Path | None = None,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.command = command
        self.timeout = timeout
        self._ids = itertools.count(1)
        self._stderr_path = stderr_path
        self._stderr_file = open(stderr_path, "ab") if stderr_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr_file,
            env=env,
            cwd=cwd,
            bufsize=0,
        )
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name="bench-agent-stdout", daemon=True)
        self._reader.start()
        self._dead = False

    def _read(self) -> None:
        assert self.proc.stdout is not None
        stdout = self.proc.stdout
        try:
            for line in iter(stdout.readline, b""):
                line = line.strip()
                if not line:
                    continue
                try:
                    self._inbox.put(json.loads(line))
                except json.JSONDecodeError:
                    log.warning("agent wrote a non-JSON line: %r", line[:200])
        except (OSError, ValueError):
            pass
        finally:
            self._inbox.put(_EOF)

    def _write(self, msg: dict) -> None:
        if self._dead:
            raise AgentError("agent is gone")
        data = (json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            self._dead = True
            raise AgentError(f"agent stdin closed: {exc}{self.stderr_tail()}") from exc

    def stderr_tail(self, n: int = 2000) -> str:
        if not self._stderr_path:
            return ""
        try:
            data = Path(self._stderr_path).read_bytes()[-n:]
        except OSError:
            return ""
        return "\n--- agent stderr (tail) ---\n" + data.decode("utf-8", "replace") if data else ""

    def send_notification(self, method: str, params: dict) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def agent_cpu_ns(self) -> int | None:
        """The agent process's CPU time so far (every thread), ns."""
        return cpu_ns(self.proc.pid)

    def send_request(self, method: str, params: dict, timeout: float | None = None) -> Any:
        req_id = next(self._ids)
        self._write({"jsonrpc": "2.0", "id": req_id, "method": method, "params": params})
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._dead = True
                raise AgentError(f"no answer to {method} (id {req_id}) in {timeout or self.timeout}s")
            try:
                msg = self._inbox.get(timeout=remaining)
            except queue.Empty:
                continue
            if msg is _EOF:
                self._dead = True
                raise AgentError(
                    f"agent exited (code {self.proc.poll()}) while waiting for {method}{self.stderr_tail()}"
                )
            if not isinstance(msg, dict):
                continue
            if "method" in msg:
                if "id" in msg:  # a request from the agent: we serve none
                    self._write(
                        {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "method not found"}}
                    )
                continue
            if msg.get("id") != req_id:
                log.debug("stray answer %r", msg.get("id"))
                continue
            if "error" in msg:
                err = msg["error"] or {}
                raise RpcError(int(err.get("code", 0)), str(err.get("message", "")), err.get("data"))
            return msg.get("result")

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._stderr_file is not subprocess.DEVNULL:
            self._stderr_file.close()  # type: ignore[union-attr]
        self._dead = True


class InProcessTransport:
    """The agent's dispatcher in this process (for profiling the engine, not the pipes)."""

    def __init__(self, state_dir: Path, agent: Any = None) -> None:
        if agent is None:
            from nextedit.acp.inprocess import InProcessAgent  # lazy: only this mode needs it

            agent = InProcessAgent(state_dir)
        self.agent = agent
        self._ids = itertools.count(1)

    def send_notification(self, method: str, params: dict) -> None:
        self.agent.send({"jsonrpc": "2.0", "method": method, "params": params})

    def agent_cpu_ns(self) -> int | None:
        """``None``: the agent shares this process (and thread) with the replayer."""
        return None

    def send_request(self, method: str, params: dict, timeout: float | None = None) -> Any:
        req_id = next(self._ids)
        try:
            out = self.agent.send({"jsonrpc": "2.0", "id": req_id, "method": method, "params": params})
        except Exception as exc:  # the engine raised: same as a dead agent
            raise AgentError(f"in-process agent raised {type(exc).__name__}: {exc}") from exc
        for msg in out or []:
            if isinstance(msg, dict) and msg.get("id") == req_id and "method" not in msg:
                if "error" in msg:
                    err = msg["error"] or {}
                    raise RpcError(int(err.get("code", 0)), str(err.get("message", "")), err.get("data"))
                return msg.get("result")
        raise AgentError(f"in-process agent did not answer {method}")

    def close(self) -> None:
        close = getattr(self.agent, "close", None)
        if callable(close):
            close()


def agent_env() -> dict[str, str]:
    """The environment for the agent: ours, with the package importable."""
    env = dict(os.environ)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env
