"""LSP base-protocol framing on stdio: ``Content-Length`` headers in, JSON-RPC messages out — bounded and self-healing.

pygls reads frames with an exact ``Content-Length: N\\r\\n`` pattern and
``readexactly(N)``: a huge length kills it (``MemoryError``), and any header
it does not recognise leaves it waiting for a frame that never comes. This
reader replaces that loop (:func:`serve`) and keeps the server talking
whatever arrives:

- **Lenient headers.** Header names are case-insensitive, a line may end in
  ``\\n`` alone, blank lines between messages are skipped, other headers
  (``Content-Type``) are ignored.
- **Bounded.** A body longer than :data:`MAX_BODY` bytes is refused before a
  byte of it is read; a header line longer than :data:`MAX_HEADER_LINE` is
  discarded as it streams past (only its tail is kept, see below). Memory
  stays bounded whatever the client sends.
- **Resynchronising.** A header block without a usable length (missing,
  non-numeric, negative, too large) is dropped with one warning, and the
  reader looks for the next ``Content-Length`` header — also in the middle
  of a line, where it lands when the bytes before it were an unframed body
  or the tail of a body whose length was one too short.
- **Bodies.** A body that is not UTF-8 JSON is answered ``-32700`` (parse
  error, id ``null``); a JSON value that is not a request, notification or
  response object is answered ``-32600`` (invalid request). A body whose
  length was too long holds a whole JSON value followed by the first bytes
  of the next header: the value is handled and the rest is read again as
  header bytes, so nothing after it is lost.

Messages go to the pygls protocol (``structure_message`` then
``handle_message``) one at a time, in arrival order, on the event loop.
This module knows JSON-RPC framing only: nothing of methods or suggestions.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

__all__ = ["MAX_BODY", "MAX_HEADER_LINE", "FrameReader", "StreamChunks", "serve"]

log = logging.getLogger(__name__)

#: the largest body accepted (a didOpen of a 64 MiB file still fits)
MAX_BODY = 64 * 1024 * 1024
#: the longest header line kept; longer ones are skipped as they stream past
MAX_HEADER_LINE = 8 * 1024
_CHUNK = 64 * 1024

_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*([^\r\n]*)", re.IGNORECASE)
_DIGITS = re.compile(rb"[0-9]+")
_DECODER = json.JSONDecoder()

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


class StreamChunks:
    """Chunks of a blocking binary stream, read on demand by a daemon thread.

    One chunk is read per call to :meth:`read`, so the reader never runs
    ahead of the server; the thread is a daemon, so a process that exits
    while the client keeps the pipe open is not held up by a blocked read.
    """

    def __init__(self, stream: BinaryIO, chunk: int = _CHUNK) -> None:
        self._read = getattr(stream, "read1", stream.read)
        self._chunk = chunk
        self._wanted = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future[bytes]] | None = None
        threading.Thread(target=self._run, name="lsp-stdin", daemon=True).start()

    def _run(self) -> None:
        while True:
            self._wanted.acquire()
            try:
                data = self._read(self._chunk)
            except (OSError, ValueError):  # closed under us: the same as EOF
                data = b""
            with self._lock:
                waiter, self._waiter = self._waiter, None
            if waiter is not None:
                loop, future = waiter
                loop.call_soon_threadsafe(_resolve, future, data)
            if not data:
                return

    async def read(self) -> bytes:
        """The next chunk (``b""`` at end of input)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        with self._lock:
            self._waiter = (loop, future)
        self._wanted.release()
        return await future


def _resolve(future: asyncio.Future[bytes], data: bytes) -> None:
    if not future.done():
        future.set_result(data)


class FrameReader:
    """Bodies of ``Content-Length`` frames from a source of byte chunks (see the module docstring)."""

    def __init__(self, read_chunk: Callable[[], Awaitable[bytes]]) -> None:
        self._read_chunk = read_chunk
        self._buffer = bytearray()
        self._eof = False

    def unread(self, data: bytes) -> None:
        """Put bytes back in front of what is still to be read."""
        self._buffer[:0] = data

    @property
    def buffered(self) -> bool:
        """Input read and not yet handed out (the next message may be complete)."""
        return bool(self._buffer)

    async def _fill(self) -> bool:
        if self._eof:
            return False
        chunk = await self._read_chunk()
        if not chunk:
            self._eof = True
            return False
        self._buffer += chunk
        return True

    async def _line(self) -> bytes | None:
        """The next line with its ``\\n`` (or what is left at EOF); ``None`` at EOF.

        A line longer than :data:`MAX_HEADER_LINE` is not kept whole: its
        tail of that length is returned, where a header glued to the end of
        an unframed body would be.
        """
        skipped = False
        start = 0
        while True:
            end = self._buffer.find(b"\n", start)
            if end >= 0:
                line = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                if skipped or len(line) > MAX_HEADER_LINE:
                    log.warning("LSP framing: header line over %d bytes skipped", MAX_HEADER_LINE)
                    return line[-MAX_HEADER_LINE:]
                return line
            if len(self._buffer) > MAX_HEADER_LINE:
                del self._buffer[:-MAX_HEADER_LINE]
                skipped = True
            start = len(self._buffer)
            if not await self._fill():
                if not self._buffer:
                    return None
                rest = bytes(self._buffer)
                self._buffer.clear()
                return rest

    async def _exactly(self, count: int) -> bytes | None:
        while len(self._buffer) < count:
            if not await self._fill():
                return None
        body = bytes(self._buffer[:count])
        del self._buffer[:count]
        return body

    async def read_body(self) -> bytes | None:
        """The next well-framed body; ``None`` at end of input. Bad header blocks are skipped."""
        while True:
            length, problem = await self._header_block()
            if length is None and problem is None:
                return None  # EOF
            if problem is not None:
                log.warning("LSP framing: %s; header block dropped, looking for the next one", problem)
                continue
            assert length is not None
            body = await self._exactly(length)
            if body is None:
                log.warning("LSP framing: input ended inside a %d-byte body", length)
                return None
            return body

    async def _header_block(self) -> tuple[int | None, str | None]:
        """``(length, None)``, ``(None, problem)``, or ``(None, None)`` at EOF."""
        length: int | None = None
        problem: str | None = None
        seen = False
        while True:
            line = await self._line()
            if line is None:
                if seen:
                    log.warning("LSP framing: input ended inside a header block")
                return None, None
            if not line.strip():
                if not seen:
                    continue  # blank lines between messages
                if problem is None and length is None:
                    problem = "header block without Content-Length"
                return length, problem
            match = _CONTENT_LENGTH.search(line)
            if match is None:
                seen = True  # another header (Content-Type), or bytes to skip while resynchronising
                continue
            if match.start() > 0 and line[: match.start()].strip():
                log.warning("LSP framing: %d stray bytes before a header skipped", match.start())
                length, problem = None, None  # a new block starts here
            seen = True
            value = match.group(1).strip()
            if not _DIGITS.fullmatch(value):
                problem = f"Content-Length {value[:40]!r} is not a length"
            elif len(value) > 12 or int(value) > MAX_BODY:
                problem = f"Content-Length {value[:40].decode()} is over the {MAX_BODY}-byte limit"
            else:
                length = int(value)


def _error(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def decode(body: bytes) -> tuple[Any, bytes, dict[str, Any] | None]:
    """``(value, rest, error)``: the JSON value of a body, bytes after it, or the error to answer."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, b"", _error(PARSE_ERROR, f"Parse error: body is not UTF-8 ({exc.reason})")
    start = len(text) - len(text.lstrip())
    try:
        value, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        return None, b"", _error(PARSE_ERROR, f"Parse error: {exc.msg} at byte {exc.pos}")
    rest = text[end:]
    return value, rest.encode("utf-8") if rest.strip() else b"", None


def _invalid(value: Any) -> dict[str, Any] | None:
    """The -32600 answer a decoded value needs, or ``None`` when it is a JSON-RPC message."""
    if not isinstance(value, dict):
        return _error(INVALID_REQUEST, f"Invalid Request: a JSON-RPC message is an object, not {type(value).__name__}")
    if value.get("jsonrpc") == "2.0" and ("method" in value or "result" in value or "error" in value):
        return None
    request_id = value.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        request_id = None
    return _error(INVALID_REQUEST, 'Invalid Request: needs "jsonrpc": "2.0" and a method', request_id)


async def serve(
    reader: FrameReader, protocol: Any, stop: threading.Event, idle: Callable[[], object] | None = None
) -> None:
    """Read frames until EOF (or ``stop``) and hand each message to the pygls
    ``protocol``; ``idle()`` after each message handled when no more input
    has been read (the server's time between requests)."""
    while not stop.is_set():
        if idle is not None and not reader.buffered:
            idle()
        body = await reader.read_body()
        if body is None:
            return
        value, rest, error = decode(body)
        if rest:
            log.warning("LSP framing: %d bytes after the JSON body read again as headers", len(rest))
            reader.unread(rest)
        if error is None:
            error = _invalid(value)
        if error is not None:
            log.warning("LSP message refused (%s): %.200r", error["error"]["code"], body)
            if error["id"] is not None or "method" not in (value if isinstance(value, dict) else {}):
                protocol._send_data(error)
            continue
        try:
            message = protocol.structure_message(value)
            protocol.handle_message(message)
        except Exception:  # noqa: BLE001 - one message must not end the connection
            log.exception("LSP message could not be handled: %.200r", body)
