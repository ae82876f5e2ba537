"""Newline-delimited JSON over a pair of file descriptors (stdin/stdout), without blocking the loop.

Reading: :func:`read_batches` waits for the input descriptor to become
readable (``anyio.wait_readable``), then takes whatever one ``os.read``
gives — at most :data:`CHUNK` bytes, never blocking — and yields the complete
lines in it as one batch. A caller that handles a whole batch before awaiting
again therefore sees every message of one client write before any task it
started can run: a ``$/cancel_request`` written together with its
``nes/suggest`` always wins. Where a descriptor cannot be polled (a regular
file on stdin, Windows pipes) reading falls back to a worker thread.
Lines may be arbitrarily long (a 10 MB document is one line); the search for
the newline resumes where it stopped, so a long line costs linear time.

Before the event loop exists, :func:`read_first_batch` reads the first
lines with a plain blocking ``os.read`` (the server answers ``initialize``
before importing anyio and asyncio); what it read past them is handed to
:func:`read_batches` as ``pending``.

Writing: :class:`LineWriter` encodes one message as one line and writes it
whole with blocking ``os.write`` calls from the event-loop thread; messages
never interleave because a write never yields to another task. A client that
has gone away (broken pipe) turns writes into no-ops; its EOF ends the loop.

Must not know: JSON-RPC semantics, sessions, methods.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import AsyncIterator
from typing import Any

__all__ = ["CHUNK", "LineWriter", "encode_message", "read_batches", "read_first_batch"]

log = logging.getLogger(__name__)

CHUNK = 1 << 20


async def _read_chunk_polled(fd: int) -> bytes:
    import anyio

    await anyio.wait_readable(fd)
    return os.read(fd, CHUNK)


async def _read_chunk_threaded(fd: int) -> bytes:
    import anyio.to_thread

    return await anyio.to_thread.run_sync(os.read, fd, CHUNK)


def read_first_batch(fd: int) -> tuple[list[bytes], bytes, bool]:
    """Block until at least one whole line (or EOF): ``(lines, rest, eof)``."""
    buffer = bytearray()
    while True:
        chunk = os.read(fd, CHUNK)
        if not chunk:
            lines = [bytes(buffer)] if buffer.strip() else []
            return lines, b"", True
        buffer += chunk
        end = buffer.rfind(b"\n")
        if end >= 0:
            return bytes(buffer[:end]).split(b"\n"), bytes(buffer[end + 1 :]), False


async def read_batches(fd: int, pending: bytes = b"") -> AsyncIterator[list[bytes]]:
    """Yield lists of complete lines (without ``\\n``) until EOF; a last unterminated line counts.

    ``pending`` is input already read (the rest after :func:`read_first_batch`).
    """
    read_chunk = _read_chunk_polled
    buffer = bytearray(pending)
    scan_from = 0
    while True:
        try:
            chunk = await read_chunk(fd)
        except (OSError, NotImplementedError) as exc:
            if read_chunk is _read_chunk_threaded:
                raise
            log.debug("input fd %d cannot be polled (%s): reading in a thread", fd, exc)
            read_chunk = _read_chunk_threaded
            continue
        if not chunk:
            if buffer.strip():
                yield [bytes(buffer)]
            return
        buffer += chunk
        lines: list[bytes] = []
        start = 0
        while True:
            end = buffer.find(b"\n", max(start, scan_from))
            if end < 0:
                break
            lines.append(bytes(buffer[start:end]))
            start = end + 1
            scan_from = start
        if start:
            del buffer[:start]
        scan_from = len(buffer)
        if lines:
            yield lines


def encode_message(message: dict[str, Any]) -> bytes:
    """One message as one line; non-ASCII is escaped so lone surrogates stay valid JSON."""
    return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


class LineWriter:
    """Writes whole messages to a descriptor, one line each."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.closed = False

    def __call__(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        view = memoryview(encode_message(message))
        try:
            while view:
                written = os.write(self.fd, view)
                view = view[written:]
        except (BrokenPipeError, ConnectionResetError):
            log.warning("client closed its input: further answers dropped")
            self.closed = True
