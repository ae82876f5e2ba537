"""`nextedit lsp` survives whatever bytes arrive: bad headers, wrong lengths, bodies that are not JSON.

Each test writes raw bytes to a real `nextedit lsp` process over its stdin
pipe, then checks that a well-formed request sent *after* them is answered —
the server is alive and not deaf — and that whatever could be answered was
(``-32700`` for a body that is not JSON, ``-32600`` for JSON that is not a
message). At teardown the server must still shut down cleanly with exit 0.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.lsp.framing import FrameReader, serve
from tests.helpers.rpc import RpcProcess

URI = "file:///project/a.py"


@pytest.fixture
def lsp(state_dir: Path) -> Any:
    process = RpcProcess([sys.executable, "-m", "nextedit", "lsp", "--state-dir", str(state_dir)], framing="lsp")
    assert "result" in process.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    process.notify("initialized", {})
    process.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": "x = 1\nprint(x)\n"}},
    )
    yield process
    assert process.proc.poll() is None, f"the server died; stderr:\n{process.stderr()}"
    assert "result" in process.call("shutdown")
    process.notify("exit")
    assert process.proc.wait(60) == 0
    assert not process.problems, process.problems


def body(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode("utf-8")


def frame(data: bytes, header: bytes | None = None) -> bytes:
    return (header if header is not None else b"Content-Length: %d\r\n" % len(data)) + b"\r\n" + data


def probe(lsp: RpcProcess, request_id: int) -> dict[str, Any]:
    """A well-formed request; its answer proves the server reads on."""
    return lsp.request_message(
        "textDocument/copilotInlineEdit",
        {"textDocument": {"uri": URI, "version": 1}, "position": {"line": 0, "character": 0}},
        id=request_id,
    )


def assert_answered(lsp: RpcProcess, request_id: int) -> None:
    answer = lsp.wait_for(request_id)
    assert answer.get("result") == {"edits": []}, answer


def test_a_huge_length_is_refused_and_the_next_message_read(lsp: RpcProcess) -> None:
    lsp.send_raw(b"Content-Length: 1000000000000\r\n\r\n" + frame(body(probe(lsp, 101))))
    assert_answered(lsp, 101)


@pytest.mark.parametrize(
    "header",
    [
        b"content-length: %d\r\n",  # header names are case-insensitive
        b"CONTENT-LENGTH:%d\r\n",
        b"Content-Length: %d\n",  # no \r
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: %d\r\n",
    ],
)
def test_lenient_headers_are_read(lsp: RpcProcess, header: bytes) -> None:
    data = body(probe(lsp, 102))
    end = b"\n" if not header.endswith(b"\r\n") else b"\r\n"
    lsp.send_raw(header % len(data) + end + data)
    assert_answered(lsp, 102)


@pytest.mark.parametrize("length", [b"abc", b"-5", b"", b"12abc", b"99999999999999999999999"])
def test_an_unusable_length_is_skipped(lsp: RpcProcess, length: bytes) -> None:
    lost = body(probe(lsp, 103))
    lsp.send_raw(b"Content-Length: " + length + b"\r\n\r\n" + lost + frame(body(probe(lsp, 104))))
    assert_answered(lsp, 104)


def test_a_length_one_too_short_is_a_parse_error_and_the_next_message_read(lsp: RpcProcess) -> None:
    data = body(probe(lsp, 105))
    lsp.send_raw(frame(data, b"Content-Length: %d\r\n" % (len(data) - 1)) + frame(body(probe(lsp, 106))))
    error = lsp.wait_for(None)
    assert error["error"]["code"] == -32700, error
    assert_answered(lsp, 106)


def test_a_length_one_too_long_loses_nothing(lsp: RpcProcess) -> None:
    data = body(probe(lsp, 107))
    lsp.send_raw(frame(data, b"Content-Length: %d\r\n" % (len(data) + 1)) + frame(body(probe(lsp, 108))))
    assert_answered(lsp, 107)
    assert_answered(lsp, 108)


@pytest.mark.parametrize("glued", [False, True])
def test_a_50_mb_header_line_is_skipped(lsp: RpcProcess, glued: bool) -> None:
    # on a line of its own, or with the frame's Content-Length header glued to its end
    data = body(probe(lsp, 109))
    padding = b"X-Padding: " + b"a" * (50 * 1024 * 1024) + (b"" if glued else b"\r\n")
    lsp.send_raw(padding + frame(data))
    assert_answered(lsp, 109)


def test_a_body_without_header_is_skipped(lsp: RpcProcess) -> None:
    lsp.send_raw(body(probe(lsp, 110)) + frame(body(probe(lsp, 111))))
    assert_answered(lsp, 111)


@pytest.mark.parametrize("data", [b"{not json", b'{"jsonrpc": "2.0", "id": 5, "method"', b"\xff\xfe{}", b""])
def test_a_well_framed_body_that_is_not_json_is_a_parse_error(lsp: RpcProcess, data: bytes) -> None:
    lsp.send_raw(frame(data) + frame(body(probe(lsp, 112))))
    error = lsp.wait_for(None)
    assert error["error"]["code"] == -32700 and error["id"] is None, error
    assert_answered(lsp, 112)


@pytest.mark.parametrize(
    ("data", "answer_id"),
    [(b"[1, 2]", None), (b"42", None), (b'{"id": 7, "method": "initialize"}', 7), (b'{"jsonrpc": "2.0", "id": 8}', 8)],
)
def test_json_that_is_not_a_message_is_an_invalid_request(lsp: RpcProcess, data: bytes, answer_id: Any) -> None:
    lsp.send_raw(frame(data) + frame(body(probe(lsp, 113))))
    error = lsp.wait_for(answer_id)
    assert error["error"]["code"] == -32600, error
    assert_answered(lsp, 113)


@pytest.mark.e2e
def test_input_ending_mid_body_ends_the_server_quietly(state_dir: Path) -> None:
    process = RpcProcess([sys.executable, "-m", "nextedit", "lsp", "--state-dir", str(state_dir)], framing="lsp")
    process.send_raw(b"Content-Length: 500\r\n\r\n{")
    assert process.close() == 0
    assert not any("Traceback" in line for line in process.stderr_lines), process.stderr()


# -- the reader itself, in process: properties over any chunking and any junk -----------------

bodies = st.lists(
    st.dictionaries(st.text(max_size=8), st.text(max_size=30), max_size=4).map(
        lambda d: json.dumps({"jsonrpc": "2.0", "method": "m", "params": d}).encode("utf-8")
    ),
    min_size=1,
    max_size=6,
)
# junk that holds no header: no ':' (every header needs one)
junk = st.binary(max_size=300).map(lambda b: b.replace(b":", b""))


def read_all(data: bytes, cuts: list[int]) -> list[bytes]:
    """Every body the reader yields from ``data`` delivered in chunks cut at ``cuts``."""
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    chunks = iter([data[a:b] for a, b in zip(points, points[1:], strict=False)] + [b""])

    async def next_chunk() -> bytes:
        return next(chunks, b"")

    async def run() -> list[bytes]:
        reader, out = FrameReader(next_chunk), []
        while (found := await reader.read_body()) is not None:
            out.append(found)
        return out

    return asyncio.run(run())


@settings(max_examples=200, deadline=None)
@given(bodies, st.lists(st.integers(min_value=0), max_size=20))
def test_any_chunking_yields_the_same_bodies(messages: list[bytes], cuts: list[int]) -> None:
    data = b"".join(frame(m) for m in messages)
    assert read_all(data, cuts) == messages


@settings(max_examples=200, deadline=None)
@given(bodies, st.lists(junk, min_size=1, max_size=6), st.lists(st.integers(min_value=0), max_size=20))
def test_junk_between_frames_costs_no_frame(messages: list[bytes], junks: list[bytes], cuts: list[int]) -> None:
    data = b"".join(j + frame(m) for j, m in zip(junks * len(messages), messages, strict=False))
    assert read_all(data, cuts) == messages


# -- the time between requests ----------------------------------------------------------------


class _Recorder:
    """A stand-in for pygls's protocol: the methods of the messages handed to it."""

    def __init__(self) -> None:
        self.handled: list[str] = []

    def structure_message(self, value: Any) -> Any:
        return value

    def handle_message(self, message: Any) -> None:
        self.handled.append(message["method"])

    def _send_data(self, data: Any) -> None:
        self.handled.append("error")


def test_the_idle_hook_runs_when_no_more_input_has_been_read() -> None:
    """Two messages read in one chunk are handled back to back (the second is
    already there); the hook runs once they are, and before the next read."""
    first = frame(json.dumps({"jsonrpc": "2.0", "method": "a"}).encode())
    second = frame(json.dumps({"jsonrpc": "2.0", "method": "b"}).encode())
    third = frame(json.dumps({"jsonrpc": "2.0", "method": "c"}).encode())
    chunks = iter([first + second, third, b""])
    protocol = _Recorder()

    async def next_chunk() -> bytes:
        protocol.handled.append("read")
        return next(chunks, b"")

    asyncio.run(
        serve(FrameReader(next_chunk), protocol, threading.Event(), idle=lambda: protocol.handled.append("idle"))
    )
    assert protocol.handled == ["idle", "read", "a", "b", "idle", "read", "c", "idle", "read"]
