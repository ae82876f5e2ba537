"""A document re-opened starts from the tree of its closed text and ends with the tree a fresh parse gives.

:class:`~nextedit.syntax.closed_trees.ClosedTrees` keeps the last parse of a
closed document; a re-open with the same text takes it, a changed one is
edited by the line diff and re-parsed incrementally. Checked here: the line
diff's edits rebuild the new text with tree-sitter's points; a tree reached
through the table equals a fresh parse (s-expression) for random line edits
of an error-free file; the table's bounds hold; a re-open in another
grammar is not served; and over real stdio a re-opened document (closed in
the same session or in an earlier one) is answered exactly as by an agent
that never saw its first text, also when the agent's parse ahead did the
diff and the re-parse; the LSP bridge keeps its table across sessions.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.session import Session
from nextedit.syntax import SyntaxTree, get_parser
from nextedit.syntax.closed_trees import ClosedTrees
from nextedit.syntax.line_diff import line_edits
from nextedit.text import Position, Range, TextChange
from tests.test_acp_cancellation import change, suggest_message

if TYPE_CHECKING:
    from tests.helpers.rpc import RpcProcess

URI = "file:///w/shapes.py"

# -- the line diff ---------------------------------------------------------------------------------


def _point(text: bytes, offset: int) -> tuple[int, int]:
    """tree-sitter's point of ``offset``: rows counted by ``\\n``, columns in bytes."""
    return (text.count(b"\n", 0, offset), offset - (text.rfind(b"\n", 0, offset) + 1))


lines = st.lists(st.sampled_from([b"", b"a", b"b", b"}", b"x = 1", b"\r", b"a\r", b"\xc3\xa9"]), max_size=14)
endings = st.sampled_from([b"", b"\n"])


@settings(max_examples=400, deadline=None)
@given(lines, endings, lines, endings)
def test_the_line_diff_edits_rebuild_the_new_text_at_the_points_tree_sitter_counts(
    old_lines: list[bytes], old_end: bytes, new_lines: list[bytes], new_end: bytes
) -> None:
    old = b"\n".join(old_lines) + old_end
    new = b"\n".join(new_lines) + new_end
    edits = line_edits(old, new)
    assert (edits == []) == (old == new)
    text = old
    for edit in edits:  # each in the coordinates the previous ones left: end of the text first
        assert edit.start_point == _point(text, edit.start_byte)
        assert edit.old_end_point == _point(text, edit.old_end_byte)
        moved_after = sum(e.new_end_byte - e.old_end_byte for e in edits if e.start_byte < edit.start_byte)
        start_in_new = edit.start_byte + moved_after
        inserted = new[start_in_new : start_in_new + edit.new_end_byte - edit.start_byte]
        text = text[: edit.start_byte] + inserted + text[edit.old_end_byte :]
        assert edit.new_end_point == _point(text, edit.new_end_byte)
    assert text == new


def test_the_line_diff_keeps_the_unchanged_hunks_out_of_its_edits() -> None:
    old = b"".join(b"line %d\n" % n for n in range(1000))
    new = old.replace(b"line 10\n", b"line ten\n").replace(b"line 900\n", b"line 900\nadded\n")
    edits = line_edits(old, new)
    assert [(e.start_point, e.old_end_point, e.new_end_point) for e in edits] == [
        ((901, 0), (901, 0), (902, 0)),  # a line inserted: nothing of the old text replaced
        ((10, 0), (11, 0), (11, 0)),
    ]


# -- trees through the table equal fresh parses ----------------------------------------------------


def _python(functions: list[tuple[str, int]]) -> bytes:
    return "".join(
        f"def {name}(a, b):\n    x = a + {n}\n    if x > b:\n        return x * b\n    return [x, b]\n\n"
        for name, n in functions
    ).encode()


def _javascript(functions: list[tuple[str, int]]) -> bytes:
    return "".join(
        f"function {name}(a, b) {{\n  const x = a + {n};\n  if (x > b) {{\n    return x * b;\n  }}\n  return [x, b];\n}}\n\n"
        for name, n in functions
    ).encode()


RENDER = {"python": _python, "javascript": _javascript}
function = st.tuples(st.sampled_from(["area", "edge", "size", "scale", "fit", "grow"]), st.integers(0, 999))
# a line edit of the file: a function deleted, inserted, replaced (a changed constant), or two swapped
line_edit = st.tuples(st.sampled_from(["delete", "insert", "replace", "swap"]), st.integers(0, 50), function)


def _edited(functions: list[tuple[str, int]], edits: list[tuple[str, int, tuple[str, int]]]) -> list[tuple[str, int]]:
    out = list(functions)
    for kind, at, new in edits:
        k = at % (len(out) + 1)
        if kind == "insert" or not out:
            out.insert(k, new)
        elif kind == "delete":
            del out[k % len(out)]
        elif kind == "replace":
            out[k % len(out)] = (out[k % len(out)][0], new[1])
        else:
            j = (k + 1) % len(out)
            out[k % len(out)], out[j] = out[j], out[k % len(out)]
    return out


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(sorted(RENDER)),
    st.lists(function, min_size=1, max_size=30),
    st.lists(line_edit, max_size=6),
)
def test_a_tree_reached_through_the_table_is_the_fresh_parse(
    language: str, functions: list[tuple[str, int]], edits: list[tuple[str, int, tuple[str, int]]]
) -> None:
    old = RENDER[language](functions)
    new = RENDER[language](_edited(functions, edits))
    table = ClosedTrees()
    table.keep(URI, SyntaxTree.parse(language, old))
    reopened = table.reopen(URI, language, new)
    assert reopened is not None
    fresh = get_parser(language).parse(new).root_node
    assert not fresh.has_error
    assert reopened.reparse_pending == (old != new)
    assert str(reopened.stale_root) == str(fresh)  # nothing stale to read before its first parse
    assert str(reopened.root) == str(fresh)
    assert (reopened.root.start_byte, reopened.root.end_byte) == (fresh.start_byte, fresh.end_byte)


def test_the_kept_tree_is_not_changed_by_the_document_that_reopened_it() -> None:
    old = _python([("area", 1), ("edge", 2)])
    new = _python([("area", 1), ("fit", 3), ("edge", 2)])
    table = ClosedTrees()
    table.keep(URI, SyntaxTree.parse("python", old))
    first = table.reopen(URI, "python", new)
    assert first is not None and str(first.root) == str(get_parser("python").parse(new).root_node)
    again = table.reopen(URI, "python", old)  # the same kept text, untouched by the first re-open
    assert again is not None and not again.reparse_pending
    assert str(again.root) == str(get_parser("python").parse(old).root_node)


# -- the table's bounds and keys -------------------------------------------------------------------


def _parsed_document(session: Session, uri: str, text: str, language_id: str = "python") -> None:
    session.did_open(uri, language_id, 1, text)
    state = session.get(uri)
    assert state is not None and state.syntax is not None
    state.syntax.root  # noqa: B018 - a reader parses it, as a suggest would


def test_the_table_keeps_at_most_its_bound_of_documents_and_bytes_the_most_recent_first() -> None:
    table = ClosedTrees(max_documents=3, max_bytes=10_000)
    session = Session("s", closed_trees=table)
    for n in range(6):
        _parsed_document(session, f"file:///w/m{n}.py", _python([("area", n)]).decode())
        session.did_close(f"file:///w/m{n}.py")
        assert len(table) <= 3 and table.size_bytes <= 10_000
    assert len(table) == 3
    assert [table.reopen(f"file:///w/m{n}.py", "python", _python([("area", n)])) is not None for n in range(6)] == [
        False,
        False,
        False,
        True,
        True,
        True,
    ]
    big = "x = 1\n" * 2_000  # 12 KB: more than the byte bound alone
    _parsed_document(session, "file:///w/big.py", big)
    session.did_close("file:///w/big.py")
    assert table.reopen("file:///w/big.py", "python", big.encode()) is None
    assert table.size_bytes <= 10_000
    # bytes bound the table whatever the count
    small = ClosedTrees(max_documents=100, max_bytes=3 * len(_python([("area", 0)])))
    for n in range(10):
        small.keep(f"file:///w/m{n}.py", SyntaxTree.parse("python", _python([("area", n)])))
    assert len(small) == 3 and small.size_bytes <= small.max_bytes


def test_a_document_never_parsed_leaves_nothing_in_the_table() -> None:
    table = ClosedTrees()
    session = Session("s", closed_trees=table)
    session.did_open(URI, "python", 1, "x = 1\n")
    session.did_close(URI)
    assert len(table) == 0


def test_a_reopen_in_another_grammar_is_not_served_from_the_table() -> None:
    table = ClosedTrees()
    session = Session("s", closed_trees=table)
    text = "const x = [1, 2];\nlet y = x;\n"
    _parsed_document(session, URI, text, "python")
    session.did_close(URI)
    assert table.reopen(URI, "javascript", text.encode()) is None
    session.did_open(URI, "javascript", 2, text)
    state = session.get(URI)
    assert state is not None and state.syntax is not None and state.syntax.language == "javascript"
    assert str(state.syntax.root) == str(get_parser("javascript").parse(text.encode()).root_node)


def test_sessions_closing_share_the_table_and_each_reopen_answers_as_a_fresh_session() -> None:
    table = ClosedTrees()
    first = Session("a", closed_trees=table)
    _parsed_document(first, URI, TEXT)
    first.close()  # nes/close: its documents' trees are kept
    second = Session("b", closed_trees=table)
    second.did_open(URI, "python", 1, REOPENED)
    state = second.get(URI)
    assert state is not None and state.syntax is not None and state.syntax.reparse_pending
    fresh = Session("c")
    fresh.did_open(URI, "python", 1, REOPENED)
    for session in (second, fresh):
        session.did_change(URI, 2, [TextChange(Range(Position(1, 4), Position(1, 8)), "total")])
    expected = _answers(fresh.suggest(URI, 2, Position(1, 9)))
    assert expected  # the rename is suggested
    assert _answers(second.suggest(URI, 2, Position(1, 9))) == expected
    # the change made before the first read is in the tree too (the line diff runs at that read)
    reopened, opened = second.get(URI), fresh.get(URI)
    assert reopened is not None and reopened.syntax is not None and "total" in reopened.document.text
    assert opened is not None and opened.syntax is not None
    assert str(reopened.syntax.root) == str(opened.syntax.root)


def _answers(suggestions: list[Any]) -> list[Any]:
    return [(s.kind, s.uri, s.version, s.edits, s.position, s.new_name) for s in suggestions]


# -- end to end over stdio -------------------------------------------------------------------------

TEXT = (
    "def area(w, h):\n    size = w * h\n    return size + size\n\n"
    "def edge(w, h):\n    side = w + h\n    return side * 2\n\n"
    "def scale(v, k):\n    out = [x * k for x in v]\n    return out\n"
)
# a few commits later: a line changed, a function added
REOPENED = (
    "def area(w, h):\n    size = w * h\n    return size + size\n\n"
    "def grow(v):\n    return [x + 1 for x in v]\n\n"
    "def edge(w, h):\n    side = w - h\n    return side * 2\n\n"
    "def scale(v, k):\n    out = [x * k for x in v]\n    return out\n"
)


def _open(acp: RpcProcess, sid: str, text: str, version: int, language_id: str = "python") -> None:
    acp.notify(
        "document/didOpen",
        {"sessionId": sid, "uri": URI, "languageId": language_id, "version": version, "text": text},
    )


def _rename_and_suggest(
    acp: RpcProcess, sid: str, version: int, local: tuple[int, str, str] = (1, "size", "total")
) -> list[dict[str, Any]]:
    """Rename the ``local`` ``(line, name, new name)`` where it is defined (column 4); the
    suggestions at ``version + 1``, ids left out."""
    line, name, new_name = local
    acp.notify(
        "document/didChange",
        {
            "sessionId": sid,
            "uri": URI,
            "version": version + 1,
            "contentChanges": [change(line, 4, 4 + len(name), new_name)],
        },
    )
    answer = acp.call("nes/suggest", suggest_message(acp, sid, URI, version + 1, line, 4 + len(new_name))["params"])
    assert "result" in answer, answer
    return [{k: v for k, v in s.items() if k != "id"} for s in answer["result"]["suggestions"]]


@pytest.fixture
def agent(acp_factory: Any) -> RpcProcess:
    acp: RpcProcess = acp_factory("--log-level", "debug")
    acp.initialize(["utf-16"], rename=True)
    return acp


def _fresh_answers(
    acp_factory: Any, text: str, language_id: str = "python", local: tuple[int, str, str] = (1, "size", "total")
) -> list[dict[str, Any]]:
    """What an agent that never saw another text of ``URI`` answers to ``local``'s rename."""
    fresh: RpcProcess = acp_factory("--log-level", "debug")
    fresh.initialize(["utf-16"], rename=True)
    sid = fresh.start_session()
    _open(fresh, sid, text, 1, language_id)
    answers = _rename_and_suggest(fresh, sid, 1, local)
    assert not any("from the tree of its closed text" in line for line in fresh.stderr_lines)
    return answers


@pytest.mark.parametrize("restart", [False, True], ids=["same session", "nes/close + nes/start"])
def test_a_reopened_document_is_answered_as_by_an_agent_that_never_saw_it(
    agent: RpcProcess, acp_factory: Any, restart: bool
) -> None:
    sid = agent.start_session()
    _open(agent, sid, TEXT, 1)
    assert _rename_and_suggest(agent, sid, 1)  # parsed (and answered) before the close
    if restart:
        assert agent.call("nes/close", {"sessionId": sid})["result"] == {}
        sid = agent.start_session()
    else:
        agent.notify("document/didClose", {"sessionId": sid, "uri": URI})
    mark = len(agent.stderr_lines)
    _open(agent, sid, REOPENED, 5)
    reopened = _rename_and_suggest(agent, sid, 5)
    agent.wait_for_log(
        f"didOpen {URI}: from the tree of its closed text, re-parsed around the changed lines", after=mark
    )
    expected = _fresh_answers(acp_factory, REOPENED)
    assert expected and any(s["kind"] == "rename" for s in expected)
    assert reopened == expected


def test_the_same_text_reopened_takes_its_tree_as_it_is(agent: RpcProcess, acp_factory: Any) -> None:
    sid = agent.start_session()
    _open(agent, sid, REOPENED, 1)
    _rename_and_suggest(agent, sid, 1)
    # the text the agent parsed last is the renamed one (saved, say): the editor re-opens it
    renamed = REOPENED.replace("    size = w * h", "    total = w * h", 1)
    agent.notify("document/didClose", {"sessionId": sid, "uri": URI})
    mark = len(agent.stderr_lines)
    _open(agent, sid, renamed, 3)
    reopened = _rename_and_suggest(agent, sid, 3, local=(8, "side", "width"))
    agent.wait_for_log(f"didOpen {URI}: from the tree of its closed text, the same text", after=mark)
    expected = _fresh_answers(acp_factory, renamed, local=(8, "side", "width"))
    assert any(s["kind"] == "rename" and s["newName"] == "width" for s in expected)
    assert reopened == expected


def test_a_reopen_in_another_language_is_parsed_anew_over_stdio(agent: RpcProcess, acp_factory: Any) -> None:
    sid = agent.start_session()
    _open(agent, sid, TEXT, 1)
    _rename_and_suggest(agent, sid, 1)
    agent.notify("document/didClose", {"sessionId": sid, "uri": URI})
    mark = len(agent.stderr_lines)
    _open(agent, sid, REOPENED, 5, "javascript")
    reopened = _rename_and_suggest(agent, sid, 5)
    assert not any("from the tree of its closed text" in line for line in agent.stderr_lines[mark:])
    assert reopened == _fresh_answers(acp_factory, REOPENED, "javascript")


def test_the_lsp_bridge_keeps_closed_trees_across_its_sessions(caplog: pytest.LogCaptureFixture) -> None:
    from nextedit.lsp.server import create_server
    from nextedit.text import PositionEncoding

    server = create_server()
    server.start_session(PositionEncoding.UTF16, None)
    _parsed_document(server.session, URI, TEXT)
    server.session.did_close(URI)
    server.start_session(PositionEncoding.UTF8, None)  # a client that initializes again
    with caplog.at_level(logging.DEBUG, logger="nextedit.session"):
        server.session.did_open(URI, "python", 1, REOPENED)
    assert f"didOpen {URI}: from the tree of its closed text, re-parsed around the changed lines" in caplog.messages
    state = server.session.get(URI)
    assert state is not None and state.syntax is not None
    assert str(state.syntax.root) == str(get_parser("python").parse(REOPENED.encode()).root_node)


def test_the_parse_ahead_of_a_reopened_document_diffs_and_parses_it_off_the_request(
    agent: RpcProcess, acp_factory: Any
) -> None:
    sid = agent.start_session()
    _open(agent, sid, TEXT, 1)
    _rename_and_suggest(agent, sid, 1)
    agent.notify("document/didClose", {"sessionId": sid, "uri": URI})
    mark = len(agent.stderr_lines)
    _open(agent, sid, REOPENED, 5)
    agent.wait_for_log(
        f"didOpen {URI}: from the tree of its closed text, re-parsed around the changed lines", after=mark
    )
    agent.wait_for_log(f"parse ahead of {URI}: tree kept", after=mark)  # before the change below is sent
    reopened = _rename_and_suggest(agent, sid, 5)
    assert reopened == _fresh_answers(acp_factory, REOPENED)
