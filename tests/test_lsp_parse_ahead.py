"""The LSP bridge parses an opened or changed document ahead of its next suggestion.

Over stdio with a real ``nextedit lsp`` process: after a pause the debug
log says the tree was parsed ahead and kept, and the suggestion is the one
a server that never parsed ahead gives. In process, on a real session and
asyncio loop: a parse halted before it starts leaves the document to its
first reader, and a document changed meanwhile does not take a tree of its
older text. After a change the re-parse is held for the next reader; a burst
of keystrokes faster than the delay parses once, a token swap not at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig

from nextedit.lsp.parse_ahead import ParsesAhead
from nextedit.session import Session
from nextedit.syntax import SyntaxTree
from nextedit.text import Position, PositionEncoding, Range, TextChange
from tests.test_lsp import RENAMED, SOURCE, URI, Editor, apply_edits, capabilities, make_client


async def _log_count(log_file: Path, text: str, count: int = 1, timeout: float = 20.0) -> bool:
    """Whether the server's log says ``text`` ``count`` times within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log_file.exists() and log_file.read_text(encoding="utf-8").count(text) >= count:
            return True
        await asyncio.sleep(0.05)
    return False


@contextlib.asynccontextmanager
async def _debug_logged_server(tmp_path: Path) -> AsyncIterator[tuple[Editor, str, Path]]:
    """A real ``nextedit lsp`` over stdio logging at debug level: (editor, encoding, log file)."""
    log_file = tmp_path / "lsp.log"
    command = [sys.executable, "-m", "nextedit", "lsp", "--state-dir", str(tmp_path / "state")]
    config = ClientServerConfig(
        server_command=[*command, "--log-level", "debug", "--log-file", str(log_file)],
        client_factory=make_client,
    )
    client = await config.start()
    try:
        result = await client.initialize_session(types.InitializeParams(capabilities=capabilities("neovim")))
        encoding = str(getattr(result.capabilities.position_encoding, "value", result.capabilities.position_encoding))
        yield Editor(client, encoding, tmp_path / "state"), encoding, log_file
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest.mark.e2e
async def test_an_opened_document_is_parsed_ahead_and_answers_as_before(tmp_path: Path) -> None:
    async with _debug_logged_server(tmp_path) as (editor, encoding, log_file):
        editor.open(URI, SOURCE)
        assert await _log_count(log_file, f"parse ahead of {URI}: tree kept")
        cursor = editor.replace(URI, "result", "total")
        inline = await editor.inline_edit(URI, cursor)
        assert apply_edits(editor.text[URI], [(e["range"], e["text"]) for e in inline["edits"]], encoding) == RENAMED


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


# -- after a change: the re-parse goes into the editor's debounce --------------------------


@pytest.mark.e2e
async def test_a_changed_document_is_re_parsed_ahead_and_answers_as_before(tmp_path: Path) -> None:
    async with _debug_logged_server(tmp_path) as (editor, encoding, log_file):
        editor.open(URI, SOURCE)
        assert await _log_count(log_file, f"parse ahead of {URI}: tree kept", 1)
        # the whole statement retyped: wider than one identifier, so a re-parse (no token swap)
        editor.replace(URI, "result = width * height", "total = width * height")
        assert await _log_count(log_file, f"parse ahead of {URI}: tree kept", 2)
        inline = await editor.inline_edit(URI, types.Position(line=1, character=9))
        assert apply_edits(editor.text[URI], [(e["range"], e["text"]) for e in inline["edits"]], encoding) == RENAMED


def _parsed_session() -> Session:
    session = _session_with(SOURCE)
    state = session.get(URI)
    assert state is not None and state.syntax is not None
    state.syntax.tree  # noqa: B018 - the first parse, by a reader
    return session


def _retype_result_line(session: Session, version: int) -> None:
    """``result = width * height`` at line 1 retyped as ``total = width * height``."""
    assert session.did_change(
        URI, version, [TextChange(Range(Position(1, 4), Position(1, 27)), "total = width * height")]
    )


def _parses_logged(caplog: pytest.LogCaptureFixture) -> int:
    return sum(record.getMessage() == f"parse ahead of {URI}: parsing" for record in caplog.records)


def test_a_change_is_parsed_ahead_and_held_for_the_next_reader(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="nextedit.session")

    async def scenario() -> Session:
        session = _parsed_session()
        parses = ParsesAhead(delay=0.0)
        _retype_result_line(session, 2)
        parses.changed(session, URI)
        for _ in range(200):
            await asyncio.sleep(0.01)
            if session.prepare_parse(URI) is None:
                break
        return session

    session = asyncio.run(scenario())
    state = session.get(URI)
    assert state is not None and state.syntax is not None
    assert _parses_logged(caplog) == 1
    assert state.syntax.reparse_pending and not state.syntax.parse_wanted  # held, not yet read
    assert str(state.syntax.root) == str(SyntaxTree.parse("python", state.document.source_bytes).root)


def test_keystrokes_faster_than_the_delay_parse_once_and_a_token_swap_not_at_all(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="nextedit.session")

    async def scenario() -> tuple[Session, Session]:
        typed, renamed = _parsed_session(), _parsed_session()
        parses = ParsesAhead(delay=0.05)
        _retype_result_line(typed, 2)
        parses.changed(typed, URI)
        for version, ch in enumerate("abc", start=3):  # each keystroke halts the job of the one before
            typed.did_change(URI, version, [TextChange(Range(Position(6, 0), Position(6, 0)), ch)])
            parses.changed(typed, URI)
        other = "file:///project/other.py"
        renamed.did_open(other, "python", 1, SOURCE)
        renamed_state = renamed.get(other)
        assert renamed_state is not None and renamed_state.syntax is not None
        renamed_state.syntax.tree  # noqa: B018 - parsed by a reader
        # `result` renamed in place: a token swap serves the next reader, nothing to parse ahead
        renamed.did_change(other, 2, [TextChange(Range(Position(1, 4), Position(1, 10)), "total")])
        parses.changed(renamed, other)
        await asyncio.sleep(0.5)
        return typed, renamed

    asyncio.run(scenario())
    assert _parses_logged(caplog) == 1  # the last keystroke's only
