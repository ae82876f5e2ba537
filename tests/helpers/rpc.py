"""A real `nextedit` subprocess spoken to over its pipes, and the ACP schema checker.

:class:`RpcProcess` starts a command, reads its stdout in a thread (newline-
delimited JSON for ACP, ``Content-Length`` framing for LSP) and hands every
message to the test through a queue: tests *await* messages with a timeout,
they never sleep. Every message the agent writes is checked on arrival —
against ``../shared/acp/schema.json`` when a :class:`SchemaChecker` is given,
and for "exactly one answer per request" always; the fixtures assert at
teardown that every request was answered exactly once and that the process
exited 0 on EOF.

Typical use (the ``acp`` fixture of ``tests/conftest.py``)::

    def test_x(acp):
        acp.initialize(["utf-16"], rename=True)
        sid = acp.start_session()
        acp.notify("document/didOpen", {...})
        result = acp.call("nes/suggest", {...})["result"]
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SCHEMA_PATH = REPO.parent / "shared" / "acp" / "schema.json"
TIMEOUT = 60.0

# result schema ($defs name) per ACP request method
RESULT_DEFS = {
    "initialize": "InitializeResponse",
    "nes/start": "StartNesResponse",
    "nes/suggest": "SuggestNesResponse",
    "nes/close": "CloseNesResponse",
    "providers/list": "ListProvidersResponse",
    "providers/set": "SetProvidersResponse",
    "providers/disable": "DisableProvidersResponse",
}


class SchemaChecker:
    """Validates agent → client messages against the ACP JSON schema (``$defs`` refs resolved)."""

    def __init__(self, path: Path = SCHEMA_PATH) -> None:
        import jsonschema

        self.schema = json.loads(path.read_text(encoding="utf-8"))
        cls = jsonschema.validators.validator_for(self.schema)
        defs = self.schema["$defs"]

        def validator(fragment: dict[str, Any]) -> Any:
            return cls({"$defs": defs, **fragment})

        # the "Agent" branch of the root schema: jsonrpc + request/response/notification
        self.message = validator(self.schema["anyOf"][0])
        self.results = {m: validator({"$ref": f"#/$defs/{d}"}) for m, d in RESULT_DEFS.items()}
        self.error = validator({"$ref": "#/$defs/Error"})

    def check(self, message: dict[str, Any], method: str | None = None) -> None:
        self.message.validate(message)
        if "error" in message:
            self.error.validate(message["error"])
        elif method in self.results and "result" in message:
            self.results[method].validate(message["result"])

    def check_def(self, name: str, value: Any) -> None:
        import jsonschema

        cls = jsonschema.validators.validator_for(self.schema)
        cls({"$defs": self.schema["$defs"], "$ref": f"#/$defs/{name}"}).validate(value)


class AgentDied(AssertionError):
    pass


class RpcProcess:
    """A JSON-RPC server subprocess driven over stdin/stdout."""

    def __init__(
        self,
        argv: list[str],
        *,
        framing: str = "newline",
        checker: SchemaChecker | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.framing = framing
        self.checker = checker
        self.check_exit = True  # fixtures assert exit 0 on EOF and every request answered
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
            cwd=cwd,
        )
        self._ids = itertools.count(1)
        self._inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._held: list[dict[str, Any]] = []  # read while waiting for something else
        self.sent_methods: dict[Any, str] = {}  # request id -> method
        self.answers: dict[Any, int] = {}  # request id -> answers seen
        self.problems: list[str] = []  # schema violations, double answers, bad JSON
        self.stderr_lines: list[str] = []
        self._stderr_changed = threading.Condition()
        self._write_lock = threading.Lock()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # -- reading -------------------------------------------------------------------

    def _frames(self) -> Iterator[bytes]:
        stdout = self.proc.stdout
        assert stdout is not None
        if self.framing == "newline":
            yield from stdout
            return
        while True:  # Content-Length framing (LSP)
            length = None
            while True:
                header = stdout.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if length is None:
                return
            yield stdout.read(length)

    def _read_stdout(self) -> None:
        try:
            for raw in self._frames():
                try:
                    message = json.loads(raw)
                except ValueError:
                    self.problems.append(f"agent wrote something that is not JSON: {raw[:200]!r}")
                    continue
                self._inspect(message)
                self._inbox.put(message)
        finally:
            self._inbox.put(None)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            with self._stderr_changed:
                self.stderr_lines.append(raw.decode("utf-8", "replace"))
                self._stderr_changed.notify_all()
        with self._stderr_changed:
            self.stderr_lines.append("")  # EOF marker for wait_for_log
            self._stderr_changed.notify_all()

    def stderr_until_closed(self, timeout: float = TIMEOUT) -> list[str]:
        """Every stderr line, once the agent closed its stderr (it exited)."""
        with self._stderr_changed:
            if not self._stderr_changed.wait_for(lambda: self.stderr_lines[-1:] == [""], timeout):
                raise AssertionError(f"stderr still open after {timeout}s")
            return self.stderr_lines[:-1]

    def wait_for_log(self, text: str, timeout: float = TIMEOUT, *, after: int = 0) -> int:
        """Block until a stderr line from index ``after`` on contains ``text``; its index.

        For tests that must act while the agent is in a given state (run it
        with ``--log-level debug``); never a sleep.
        """
        with self._stderr_changed:
            index = after
            while True:
                while index < len(self.stderr_lines):
                    if text in self.stderr_lines[index]:
                        return index
                    if self.stderr_lines[index] == "" and index == len(self.stderr_lines) - 1:
                        raise AgentDied(f"stderr closed before {text!r}; stderr:\n{self.stderr()}")
                    index += 1
                if not self._stderr_changed.wait(timeout):
                    raise AssertionError(f"no log line with {text!r} within {timeout}s; stderr:\n{self.stderr()}")

    def _inspect(self, message: dict[str, Any]) -> None:
        is_answer = "method" not in message and ("result" in message or "error" in message)
        method = self.sent_methods.get(message.get("id")) if is_answer else None
        if self.checker is not None:
            try:
                self.checker.check(message, method)
            except Exception as exc:  # noqa: BLE001 - jsonschema.ValidationError, imported lazily; recorded as a test failure
                self.problems.append(f"schema violation in {message!r:.300}: {exc}")
        if is_answer and message.get("id") is not None:
            count = self.answers.get(message["id"], 0) + 1
            self.answers[message["id"]] = count
            if count > 1:
                self.problems.append(f"request {message['id']!r} answered {count} times")

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message the agent writes (held ones first)."""
        if self._held:
            return self._held.pop(0)
        try:
            message = self._inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message within {timeout}s; stderr:\n{self.stderr()}") from None
        if message is None:
            self._inbox.put(None)
            raise AgentDied(f"agent closed stdout (rc={self.proc.poll()}); stderr:\n{self.stderr()}")
        return message

    def wait_for(self, request_id: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The answer to ``request_id``; other messages read meanwhile are held for :meth:`recv`."""
        for i, message in enumerate(self._held):
            if message.get("id") == request_id and "method" not in message:
                return self._held.pop(i)
        skipped = []
        try:
            while True:
                message = self.recv(timeout)
                if message.get("id") == request_id and "method" not in message:
                    return message
                skipped.append(message)
        finally:
            self._held.extend(skipped)

    # -- writing -------------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        with self._write_lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def encode(self, message: dict[str, Any]) -> bytes:
        body = json.dumps(message).encode("utf-8")
        if self.framing == "newline":
            return body + b"\n"
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, *messages: dict[str, Any]) -> None:
        """Send messages in one write (so the agent reads them together)."""
        for message in messages:
            if "method" in message and "id" in message:
                self.sent_methods[message["id"]] = message["method"]
        self.send_raw(b"".join(self.encode(m) for m in messages))

    def request_message(self, method: str, params: Any = None, *, id: Any = None) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": next(self._ids) if id is None else id, "method": method}
        if params is not None:
            message["params"] = params
        return message

    def request(self, method: str, params: Any = None, *, id: Any = None) -> Any:
        """Send a request; returns its id."""
        message = self.request_message(method, params, id=id)
        self.send(message)
        return message["id"]

    def call(self, method: str, params: Any = None, *, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Send a request and await its answer (the whole response message)."""
        return self.wait_for(self.request(method, params), timeout)

    def notify(self, method: str, params: Any = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # -- ACP conveniences --------------------------------------------------------------

    def initialize(
        self,
        encodings: list[str] | None = None,
        *,
        rename: bool = False,
        jump: bool = False,
        search_and_replace: bool = False,
    ) -> dict[str, Any]:
        nes: dict[str, Any] = {}
        if rename:
            nes["rename"] = {}
        if jump:
            nes["jump"] = {}
        if search_and_replace:
            nes["searchAndReplace"] = {}
        caps: dict[str, Any] = {"nes": nes}
        if encodings is not None:
            caps["positionEncodings"] = encodings
        answer = self.call("initialize", {"protocolVersion": 1, "clientCapabilities": caps})
        assert "result" in answer, answer
        return answer["result"]

    def start_session(self, workspace_uri: str | None = None) -> str:
        params = {"workspaceUri": workspace_uri} if workspace_uri else {}
        answer = self.call("nes/start", params)
        assert "result" in answer, answer
        return answer["result"]["sessionId"]

    # -- ending ------------------------------------------------------------------------

    def stderr(self) -> str:
        return "".join(self.stderr_lines[-60:])

    def close(self, timeout: float = TIMEOUT) -> int:
        """Close stdin (EOF) and wait for the exit code; a stuck agent is killed, then reported."""
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(TIMEOUT)
            raise

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(TIMEOUT)

    def unanswered(self) -> list[Any]:
        return [i for i in self.sent_methods if i not in self.answers]
