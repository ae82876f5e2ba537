"""The LSP bridge parses an opened document ahead of its first suggestion.

Over stdio with a real ``nextedit lsp`` process: after a pause the debug
log says the tree was parsed ahead and kept, and the suggestion is the one
a server that never parsed ahead gives. In process, on a real session and
asyncio loop: a parse halted before it starts leaves the document to its
first reader, and a document changed meanwhile does not take a tree of its
older text.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig

from nextedit.lsp.parse_ahead import ParsesAhead
from nextedit.session import Session
from nextedit.text import Position, PositionEncoding, Range, TextChange
from tests.test_lsp import RENAMED, SOURCE, URI, Editor, apply_edits, capabilities, make_client


async def _log_says(log_file: Path, text: str, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log_file.exists() and text in log_file.read_text(encoding="utf-8"):
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.mark.e2e
async def test_an_opened_document_is_parsed_ahead_and_answers_as_before(tmp_path: Path) -> None:
    log_file = tmp_path / "lsp.log"
    config = ClientServerConfig(
        server_command=[
            sys.executable,
            "-m",
            "nextedit",
            "lsp",
            "--state-dir",
            str(tmp_path / "state"),
            "--log-level",
            "debug",
            "--log-file",
            str(log_file),
        ],
        client_factory=make_client,
    )
    client = await config.start()
    try:
        result = await client.initialize_session(types.InitializeParams(capabilities=capabilities("neovim")))
        encoding = str(getattr(result.capabilities.position_encoding, "value", result.capabilities.position_encoding))
        editor = Editor(client, encoding, tmp_path / "state")
        editor.open(URI, SOURCE)
        assert await _log_says(log_file, f"parse ahead of {URI}: tree kept")
        cursor = editor.replace(URI, "result", "total")
        inline = await editor.inline_edit(URI, cursor)
        assert apply_edits(editor.text[URI], [(e["range"], e["text"]) for e in inline["edits"]], encoding) == RENAMED
    finally:
        await client.shutdown_session()
        await client.stop()


def _session_with(text: str) -> Session:
    session = Session("t", encoding=PositionEncoding.UTF32)
    session.did_open(URI, "python", 1, text)
    return session


def _pending(session: Session) -> bool:
    state = session.get(URI)
    assert state is not None and state.syntax is not None
    return state.syntax.reparse_pending


def test_a_parse_ahead_leaves_the_document_parsed() -> None:
    async def scenario() -> bool:
        session = _session_with(SOURCE)
        parses = ParsesAhead(delay=0.0)
        parses.opened(session, URI)
        for _ in range(200):
            await asyncio.sleep(0.01)
            if not _pending(session):
                return True
        return False

    assert asyncio.run(scenario())


def test_a_halted_parse_never_starts() -> None:
    async def scenario() -> bool:
        session = _session_with(SOURCE)
        parses = ParsesAhead(delay=0.05)
        parses.opened(session, URI)
        parses.halt(URI)  # a change came at once: its suggestion parses
        parses.opened(session, "file:///w/not-open.py")  # nothing to parse there
        await asyncio.sleep(0.5)
        return _pending(session)

    assert asyncio.run(scenario())


def test_a_document_changed_before_its_parse_starts_is_parsed_as_it_is_now() -> None:
    async def scenario() -> tuple[bool, int, int]:
        session = _session_with(SOURCE)
        parses = ParsesAhead(delay=0.05)
        parses.opened(session, URI)
        session.did_change(URI, 2, [TextChange(Range(Position(0, 0), Position(0, 0)), "# new\n")])
        for _ in range(200):
            await asyncio.sleep(0.01)
            if not _pending(session):
                break
        state = session.get(URI)
        assert state is not None and state.syntax is not None
        return _pending(session), state.syntax.root.end_byte, len(state.document.source_bytes)

    pending, tree_end, size = asyncio.run(scenario())
    assert not pending and tree_end == size
