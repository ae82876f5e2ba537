"""Newline-delimited JSON over a pair of file descriptors (stdin/stdout): cutting what was read into lines, writing answers.

Reading: the server reads whatever one ``os.read`` gives — at most
:data:`CHUNK` bytes — when the input is readable, and a :class:`LineSplitter`
cuts it into the complete lines in it, handed over as one batch. A caller
that handles a whole batch before anything else runs therefore sees every
message of one client write before any computation it queued begins: a
``$/cancel_request`` written together with its ``nes/suggest`` always wins.
Lines may be arbitrarily long (a 10 MB document is one line); the search for
the newline resumes where it stopped, so a long line costs linear time.

Before the event loop exists, :func:`read_first_batch` reads the first
lines with a plain blocking ``os.read`` (the server answers ``initialize``
before importing anyio and asyncio); what it read past them is handed to the
:class:`LineSplitter` as ``pending``.

Writing: :class:`LineWriter` encodes one message as one line and writes it
whole with blocking ``os.write`` calls (one, as a rule) from the event-loop
thread; messages never interleave because a write never yields. A client
that has gone away (broken pipe) turns writes into no-ops; its EOF ends the
loop.

Must not know: JSON-RPC semantics, sessions, methods, the event loop.
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any

__all__ = ["CHUNK", "LineSplitter", "LineWriter", "encode_message", "read_first_batch"]

log = logging.getLogger(__name__)

CHUNK = 1 << 20


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


class LineSplitter:
    """Cuts the bytes read so far into complete lines (without ``\\n``), keeping the unterminated rest."""

    def __init__(self, pending: bytes = b"") -> None:
        self._buffer = bytearray(pending)
        self._scan_from = 0  # no newline before this offset of the buffer

    def feed(self, chunk: bytes) -> list[bytes]:
        """The lines completed by ``chunk``, in order."""
        buffer = self._buffer
        if not buffer and chunk.endswith(b"\n"):  # the common case: whole messages, nothing pending
            return chunk[:-1].split(b"\n")
        buffer += chunk
        lines: list[bytes] = []
        start = 0
        while True:
            end = buffer.find(b"\n", max(start, self._scan_from))
            if end < 0:
                break
            lines.append(bytes(buffer[start:end]))
            start = end + 1
            self._scan_from = start
        if start:
            del buffer[:start]
        self._scan_from = len(buffer)
        return lines

    def finish(self) -> list[bytes]:
        """At EOF: a last unterminated line counts (unless it is blank)."""
        rest = bytes(self._buffer)
        self._buffer.clear()
        self._scan_from = 0
        return [rest] if rest.strip() else []


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
