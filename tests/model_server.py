"""A small OpenAI-compatible completions server for the tests: real sockets on 127.0.0.1, scripted answers.

No model weights here, so the model is a script: each ``POST …/completions``
takes the next :class:`Reply` queued with :meth:`ModelServer.script` (or asks
``responder`` to make one from the request), and every request is recorded
for the test to await (:meth:`ModelServer.next_request`). A reply can be a
completion, an HTTP error, a body that is not JSON, a dropped connection,
or *held*: no answer until the test releases it or the client goes away —
and the client going away is recorded too (:meth:`ModelServer.next_disconnect`),
so a test can see that a request was really abandoned. Tests await these
queues; nothing here sleeps to let time pass.
"""

from __future__ import annotations

import json
import queue
import select
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TIMEOUT = 60.0


@dataclass
class Reply:
    """One scripted answer."""

    text: str | None = None  # a completion: {"choices": [{"text": ...}]}
    status: int = 200
    body: bytes | None = None  # raw body instead of a completion (malformed answers)
    drop: bool = False  # close the connection without a word
    hold: bool = False  # answer only when released; record it if the client leaves first
    finish_reason: str = "stop"
    release: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def prompt(self) -> str:
        return self.body["prompt"]


class ModelServer:
    """Serves on ``127.0.0.1`` at a free port until :meth:`close`."""

    def __init__(self, responder: Callable[[Received], Reply] | None = None) -> None:
        self.responder = responder
        self._script: queue.Queue[Reply] = queue.Queue()
        self.requests: queue.Queue[Received] = queue.Queue()
        self.disconnects: queue.Queue[str] = queue.Queue()
        self.count = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {"unreadable": raw.decode("utf-8", "replace")}
                received = Received(self.path, {k: v for k, v in self.headers.items()}, body)
                reply = server._next_reply(received)
                with server._lock:
                    server.count += 1
                server.requests.put(received)
                if reply.hold and not self._wait_release(reply):
                    server.disconnects.put(self.path)
                    self.close_connection = True
                    return
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if reply.body is not None:
                    data = reply.body
                else:
                    data = json.dumps(
                        {
                            "id": "cmpl-test",
                            "object": "text_completion",
                            "choices": [{"index": 0, "text": reply.text or "", "finish_reason": reply.finish_reason}],
                        }
                    ).encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _wait_release(self, reply: Reply) -> bool:
                """True once released; False when the client closed the connection first."""
                while not reply.release.is_set():
                    readable, _, _ = select.select([self.connection], [], [], 0.01)
                    if readable:
                        try:
                            if self.connection.recv(1, socket.MSG_PEEK) == b"":
                                return False
                        except OSError:
                            return False
                return True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        # a short poll: close() (shutdown) waits for the serving loop's next poll
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="model-server", daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        """The base URL to configure (completions go to ``{url}/completions``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def script(self, *replies: Reply) -> None:
        for reply in replies:
            self._script.put(reply)

    def _next_reply(self, received: Received) -> Reply:
        try:
            return self._script.get_nowait()
        except queue.Empty:
            pass
        if self.responder is not None:
            return self.responder(received)
        return Reply(status=500, body=b'{"error": "nothing scripted"}')

    def next_request(self, timeout: float = TIMEOUT) -> Received:
        try:
            return self.requests.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the model server got no request within {timeout}s") from None

    def next_disconnect(self, timeout: float = TIMEOUT) -> str:
        try:
            return self.disconnects.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no client left a held request within {timeout}s") from None

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def region_of(prompt: str) -> tuple[str, str]:
    """``(before the cursor, after it)`` inside a Zeta prompt's editable region."""
    start = prompt.index("<|editable_region_start|>\n") + len("<|editable_region_start|>\n")
    end = prompt.index("\n<|editable_region_end|>")
    before, _, after = prompt[start:end].partition("<|user_cursor_is_here|>")
    return before, after


def zeta_reply(prompt: str, region: str) -> str:
    """What a Zeta model answers: the excerpt's head again, then the rewritten ``region``."""
    fence = prompt.index("### User Excerpt:\n\n") + len("### User Excerpt:\n\n")
    head = prompt[fence : prompt.index("<|editable_region_start|>")]
    return f"{head}<|editable_region_start|>\n{region}\n"


def rewrite(old: str, new: str, *, count: int = 1) -> Callable[[Received], Reply]:
    """A responder: the editable region with ``old`` replaced by ``new`` (the cursor marker dropped)."""

    def respond(received: Received) -> Reply:
        before, after = region_of(received.prompt)
        return Reply(zeta_reply(received.prompt, (before + after).replace(old, new, count)))

    return respond
