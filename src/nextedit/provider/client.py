"""One OpenAI-compatible completion request, bounded in time and abandoned on cancellation.

Owns :func:`complete`: ``POST {baseUrl}/completions`` with the prompt, its
stop sequences and ``max_tokens`` (``temperature`` 0, no streaming), as
Zed's ``send_custom_server_request`` (``crates/edit_prediction``) sends it to
llama.cpp's ``llama-server``, vLLM, Ollama and the like; the answer is
``choices[0].text`` (llama.cpp's own ``content`` is read too).

The request runs on a helper thread while the caller waits on it, polling
``cancelled()`` every few milliseconds: when that turns true or the budget
runs out, the socket is shut down — the server sees the connection close —
and :class:`ProviderCancelled` / :class:`ProviderTimeout` is raised at once.
The helper thread then ends on its own (its socket is dead, and its
timeouts are the budget): nothing it holds belongs to anyone else.

Errors are :class:`ProviderError` with a message fit for a log line: the
URL, the HTTP status, the kind of failure — never the headers (they may
carry credentials), never the prompt, never the reply's body.

Must not know: prompts' contents, the engine, the wire. ``http.client`` and
``ssl`` are imported on first use, not with this module.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from nextedit.provider.config import ProviderConfig
from nextedit.provider.prompt import Prompt

__all__ = [
    "MAX_REPLY_BYTES",
    "Completion",
    "ProviderCancelled",
    "ProviderError",
    "ProviderTimeout",
    "complete",
]

#: a reply larger than this is garbage, not a rewrite of a few dozen lines
MAX_REPLY_BYTES = 4 * 1024 * 1024
_POLL_S = 0.005


@dataclass(frozen=True)
class Completion:
    """The model's text and why it stopped (``"stop"``, ``"length"``, or ``None`` when not said)."""

    text: str
    finish_reason: str | None = None


class ProviderError(Exception):
    """The model gave no usable answer; the message is safe to log."""


class ProviderTimeout(ProviderError):
    """No answer within the time budget."""


class ProviderCancelled(ProviderError):
    """The request that wanted the answer was cancelled or went stale."""


def endpoint(config: ProviderConfig) -> str:
    """The URL completions go to."""
    assert config.base_url is not None
    parts = urlsplit(config.base_url)
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}/completions{query}"


def request_body(config: ProviderConfig, prompt: Prompt) -> dict[str, Any]:
    body: dict[str, Any] = {
        "prompt": prompt.text,
        "max_tokens": prompt.max_tokens,
        "temperature": 0,
        "stop": list(prompt.stop),
        "stream": False,
    }
    if config.model:
        body["model"] = config.model
    return body


class _Call:
    """The HTTP exchange, run on its own thread; :meth:`abort` shuts its socket."""

    def __init__(self, url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> None:
        self.url = url
        self.body = body
        self.headers = headers
        self.timeout_s = timeout_s
        self.done = threading.Event()
        self.status: int | None = None
        self.data = b""
        self.error: BaseException | None = None
        self._conn: Any = None
        self._aborted = False
        self.connected = False

    def run(self) -> None:
        import http.client

        parts = urlsplit(self.url)
        conn: Any = None
        try:
            if parts.scheme == "https":
                import ssl

                conn = http.client.HTTPSConnection(
                    parts.hostname or "", parts.port, timeout=self.timeout_s, context=ssl.create_default_context()
                )
            else:
                conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=self.timeout_s)
            self._conn = conn
            conn.connect()
            self.connected = True
            if self._aborted:
                return
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            conn.request("POST", path, body=self.body, headers=self.headers)
            response = conn.getresponse()
            self.status = response.status
            self.data = response.read(MAX_REPLY_BYTES + 1)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread, which says what failed
            self.error = exc
        finally:
            if conn is not None:
                conn.close()
            self.done.set()

    def abort(self) -> None:
        self._aborted = True
        conn = self._conn
        sock = getattr(conn, "sock", None) if conn is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def complete(config: ProviderConfig, prompt: Prompt, cancelled: Callable[[], bool] = lambda: False) -> Completion:
    """The model's completion of ``prompt``, within ``config.budget_ms``; :class:`ProviderError` otherwise."""
    url = endpoint(config)
    budget_s = config.budget_ms / 1000
    deadline = time.monotonic() + budget_s
    headers = {"Content-Type": "application/json", "Accept": "application/json", **dict(config.headers)}
    body = json.dumps(request_body(config, prompt), ensure_ascii=False).encode("utf-8")
    call = _Call(url, body, headers, budget_s)
    threading.Thread(target=call.run, name="nextedit-model-request", daemon=True).start()
    while not call.done.wait(max(0.0, min(_POLL_S, deadline - time.monotonic()))):
        if cancelled():
            call.abort()
            raise ProviderCancelled(f"request to {url} abandoned: the suggestion is no longer wanted")
        if time.monotonic() >= deadline:
            call.abort()
            raise ProviderTimeout(f"no answer from {url} within {config.budget_ms} ms")
    return _read(call, url, config.budget_ms)


def _read(call: _Call, url: str, budget_ms: int) -> Completion:
    error = call.error
    if isinstance(error, TimeoutError | socket.timeout):
        raise ProviderTimeout(f"no answer from {url} within {budget_ms} ms")
    if isinstance(error, OSError) and not call.connected:
        raise ProviderError(f"cannot reach {url}: {error.strerror or type(error).__name__}")
    if isinstance(error, OSError):
        raise ProviderError(f"{url} dropped the connection ({type(error).__name__})")
    if error is not None:  # http.client's protocol errors, a bad header
        raise ProviderError(f"no usable answer from {url}: {type(error).__name__}")
    if call.status != 200:
        raise ProviderError(f"{url} answered HTTP {call.status}")
    if len(call.data) > MAX_REPLY_BYTES:
        raise ProviderError(f"{url} answered more than {MAX_REPLY_BYTES} bytes")
    return parse_reply(call.data, url)


def parse_reply(data: bytes, url: str = "the model") -> Completion:
    """``choices[0].text`` (OpenAI) or ``content`` (llama.cpp) of a JSON reply."""
    try:
        reply = json.loads(data)
    except (ValueError, RecursionError):
        raise ProviderError(f"{url} answered something that is not JSON") from None
    if isinstance(reply, dict):
        choices = reply.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            text = choices[0].get("text")
            finish = choices[0].get("finish_reason")
            if isinstance(text, str):
                return Completion(text, finish if isinstance(finish, str) else None)
        content = reply.get("content")
        if isinstance(content, str):
            stopped = reply.get("stop_type")
            return Completion(content, "length" if stopped == "limit" else None)
    raise ProviderError(f"{url} answered JSON without choices[0].text")
