"""`nextedit acp` over real pipes: negotiation, sessions, versions, bad input, cancellation.

Every message the agent writes is validated against the ACP schema by the
``acp`` fixture (see conftest.py, tests/helpers/rpc.py), which also asserts at teardown that every
request was answered exactly once and that EOF ends the process with 0.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.helpers.rpc import RpcProcess

URI = "file:///w/main.py"
TEXT = "a😀b = 1\n漢字 = a😀b + 2\nprint(a😀b)\n"


def open_doc(
    acp: RpcProcess, sid: str, text: str = TEXT, uri: str = URI, version: int = 1, language_id: str = "python"
) -> None:
    acp.notify(
        "document/didOpen",
        {"sessionId": sid, "uri": uri, "languageId": language_id, "version": version, "text": text},
    )


def suggest_params(sid: str, version: int = 1, line: int = 0, character: int = 0, uri: str = URI) -> dict[str, Any]:
    return {
        "sessionId": sid,
        "uri": uri,
        "version": version,
        "position": {"line": line, "character": character},
        "triggerKind": "automatic",
    }


def suggest(acp: RpcProcess, sid: str, **kw: Any) -> dict[str, Any]:
    return acp.call("nes/suggest", suggest_params(sid, **kw))


def assert_serving(acp: RpcProcess, sid: str | None = None) -> None:
    """A good request still works: the process lives and answers."""
    if sid is None:
        sid = acp.start_session()
    answer = suggest(acp, sid, uri="file:///never-opened.py")
    assert answer.get("result") == {"suggestions": []}, answer


def error_code(answer: dict[str, Any]) -> int:
    assert "error" in answer, answer
    return answer["error"]["code"]


# -- initialize ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("offered", "chosen"),
    [
        (["utf-16"], "utf-16"),
        (["utf-8"], "utf-8"),
        (["utf-32"], "utf-32"),
        (["utf-8", "utf-16"], "utf-8"),
        (["utf-32", "utf-8"], "utf-32"),
        (None, "utf-16"),
        ([], "utf-16"),
        (["latin-1", "utf-7"], "utf-16"),
        (["ebcdic", "utf-32"], "utf-32"),
    ],
)
def test_initialize_negotiates_encoding(acp: RpcProcess, offered: list[str] | None, chosen: str) -> None:
    result = acp.initialize(offered)
    assert result["protocolVersion"] == 1
    assert result["agentInfo"]["name"] == "nextedit"
    caps = result["agentCapabilities"]
    assert caps["positionEncoding"] == chosen
    document = caps["nes"]["events"]["document"]
    assert document["didChange"] == {"syncKind": "incremental"}
    for event in ("didOpen", "didClose", "didSave", "didFocus"):
        assert document[event] == {}
    assert "diagnostics" in caps["nes"]["context"]


def test_initialize_without_protocol_version_names_the_field(acp: RpcProcess) -> None:
    answer = acp.call("initialize", {"clientCapabilities": {}})
    assert error_code(answer) == -32602
    assert "protocolVersion" in answer["error"]["message"]
    assert acp.initialize(["utf-8"])["agentCapabilities"]["positionEncoding"] == "utf-8"


def test_requests_before_initialize_use_defaults(acp: RpcProcess) -> None:
    sid = acp.start_session()
    open_doc(acp, sid)
    assert suggest(acp, sid, line=2, character=99)["result"] == {"suggestions": []}


# -- sessions ----------------------------------------------------------------------------


def test_sessions_are_independent_and_close_frees_them(acp: RpcProcess) -> None:
    acp.initialize(["utf-16"])
    first, second = acp.start_session(), acp.start_session("file:///w")
    assert first != second
    assert first.startswith("nes-") and second.startswith("nes-")
    open_doc(acp, first)
    assert acp.call("nes/close", {"sessionId": first})["result"] == {}
    # the closed session is gone, the other one serves
    assert error_code(suggest(acp, first)) == -32002
    assert suggest(acp, second)["result"] == {"suggestions": []}
    answer = acp.call("nes/close", {"sessionId": first})
    assert error_code(answer) == -32002
    assert first in answer["error"]["message"]


def test_unknown_session_names_the_id(acp: RpcProcess) -> None:
    acp.initialize()
    answer = suggest(acp, "nes-404")
    assert error_code(answer) == -32002
    assert "nes-404" in answer["error"]["message"]
    assert_serving(acp)


def test_suggest_for_unopened_document_is_empty(acp: RpcProcess) -> None:
    acp.initialize()
    assert_serving(acp)


def test_versions_going_backwards_are_ignored(acp: RpcProcess) -> None:
    acp.initialize(["utf-32"])
    sid = acp.start_session()
    open_doc(acp, sid, "x = 1\n", version=5)
    change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": "y"}
    acp.notify("document/didChange", {"sessionId": sid, "uri": URI, "version": 3, "contentChanges": [change]})
    # the stale change was ignored: version 5 is still the mirror, 3 is not
    assert suggest(acp, sid, version=3)["result"] == {"suggestions": []}
    assert suggest(acp, sid, version=5)["result"] == {"suggestions": []}
    # older and newer versions than the mirror answer empty too
    assert suggest(acp, sid, version=99)["result"] == {"suggestions": []}
    assert_serving(acp, sid)


def test_document_lifecycle_notifications(acp: RpcProcess) -> None:
    acp.initialize(["utf-16"])
    sid = acp.start_session()
    open_doc(acp, sid)
    acp.notify("document/didSave", {"sessionId": sid, "uri": URI})
    acp.notify(
        "document/didFocus",
        {
            "sessionId": sid,
            "uri": URI,
            "version": 1,
            "position": {"line": 1, "character": 3},
            "visibleRange": {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}},
        },
    )
    acp.notify("document/didClose", {"sessionId": sid, "uri": URI})
    assert suggest(acp, sid)["result"] == {"suggestions": []}


# -- bad input -----------------------------------------------------------------------------


def test_malformed_json_is_a_parse_error_and_reading_goes_on(acp: RpcProcess) -> None:
    acp.send_raw(b'{"jsonrpc": "2.0", "id": 1, "method": \n')
    answer = acp.recv()
    assert answer["id"] is None and error_code(answer) == -32700
    acp.send_raw(b"\xff\xfe not utf-8\n")
    assert error_code(acp.recv()) == -32700
    acp.send_raw(b"[" * 100_000 + b"]" * 100_000 + b"\n")  # nesting deeper than the parser's recursion
    assert error_code(acp.recv()) in (-32700, -32600)
    acp.initialize()
    assert_serving(acp)


@pytest.mark.parametrize(
    "body",
    [
        b"[]",
        b"42",
        b'"hello"',
        b'{"jsonrpc": "2.0", "method": 5}',
        b'{"jsonrpc": "1.0", "id": 7, "method": "initialize"}',
        b'{"jsonrpc": "2.0", "id": {"x": 1}, "method": "nes/start"}',
        b'{"jsonrpc": "2.0", "id": 1.5, "method": "nes/start"}',
    ],
)
def test_invalid_envelopes_are_invalid_requests(acp: RpcProcess, body: bytes) -> None:
    acp.send_raw(body + b"\n")
    assert error_code(acp.recv()) == -32600
    assert_serving(acp)


def test_unknown_method_and_unknown_notification(acp: RpcProcess) -> None:
    answer = acp.call("nes/teleport", {})
    assert error_code(answer) == -32601
    acp.notify("nes/somethingNew", {"x": 1})  # ignored, no answer
    assert_serving(acp)


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda p: p.update(version="1"), "version"),
        (lambda p: p.update(version=True), "version"),
        (lambda p: p.update(version=1.0), "version"),
        (lambda p: p["position"].update(line="0"), "position.line"),
        (lambda p: p["position"].update(character=-1), "position.character"),
        (lambda p: p.update(position=[0, 0]), "position"),
        (lambda p: p.pop("uri"), "uri"),
        (lambda p: p.pop("position"), "position"),
        (lambda p: p.pop("triggerKind"), "triggerKind"),
        (lambda p: p.update(triggerKind="whenever"), "triggerKind"),
        (lambda p: p.pop("sessionId"), "sessionId"),
        (lambda p: p.update(sessionId=1), "sessionId"),
        (lambda p: p.update(selection={"start": {"line": 0}}), "selection.start.character"),
    ],
)
def test_bad_suggest_params_name_the_field(acp: RpcProcess, mutate: Any, field: str) -> None:
    acp.initialize()
    sid = acp.start_session()
    params = suggest_params(sid)
    mutate(params)
    answer = acp.call("nes/suggest", params)
    assert error_code(answer) == -32602
    assert answer["error"]["data"]["field"] == field
    assert field in answer["error"]["message"]
    assert_serving(acp, sid)


def test_params_that_are_not_an_object(acp: RpcProcess) -> None:
    answer = acp.call("nes/suggest", [1, 2, 3])
    assert error_code(answer) == -32602
    answer = acp.call("initialize", None)  # params absent
    assert error_code(answer) == -32602
    assert_serving(acp)


def test_malformed_notifications_are_dropped_silently(acp: RpcProcess) -> None:
    acp.initialize()
    sid = acp.start_session()
    open_doc(acp, sid, "x = 1\n")
    for params in (
        {"sessionId": sid},  # everything missing
        {"sessionId": sid, "uri": URI, "version": "2", "contentChanges": []},
        {"sessionId": sid, "uri": URI, "version": 2, "contentChanges": [{"range": 5, "text": "x"}]},
        {"sessionId": "nes-404", "uri": URI, "version": 2, "contentChanges": []},
        "not an object",
    ):
        acp.notify("document/didChange", params)
    acp.send_raw(b'{"jsonrpc":"2.0","method":"document/didOpen","params":{"sessionId":\n')  # torn
    assert error_code(acp.recv()) == -32700
    acp.notify("nes/accept", {"sessionId": sid})  # no id
    acp.notify("$/cancel_request", {})
    # none of it changed the document: version 1 is still what we have
    assert suggest(acp, sid, version=1)["result"] == {"suggestions": []}
    assert_serving(acp, sid)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_out_of_range_and_mid_character_positions(acp: RpcProcess, encoding: str) -> None:
    acp.initialize([encoding])
    sid = acp.start_session()
    open_doc(acp, sid)
    for line, character in ((0, 2), (0, 3), (1, 1), (1, 10**6), (10**6, 0), (2**32 - 1, 2**32 - 1)):
        assert suggest(acp, sid, line=line, character=character)["result"] == {"suggestions": []}
    # a change at a mid-surrogate / mid-sequence position snaps to the character start
    change = {"range": {"start": {"line": 0, "character": 2}, "end": {"line": 0, "character": 2}}, "text": "Z"}
    acp.notify("document/didChange", {"sessionId": sid, "uri": URI, "version": 2, "contentChanges": [change]})
    far = {"range": {"start": {"line": 99, "character": 0}, "end": {"line": 120, "character": 5}}, "text": "#"}
    acp.notify("document/didChange", {"sessionId": sid, "uri": URI, "version": 3, "contentChanges": [far]})
    assert suggest(acp, sid, version=3, line=0, character=1)["result"]["suggestions"] is not None
    assert_serving(acp, sid)


def test_cancel_of_answered_or_unknown_request_is_ignored(acp: RpcProcess) -> None:
    acp.initialize()
    sid = acp.start_session()
    answered = acp.request("nes/suggest", suggest_params(sid))
    assert acp.wait_for(answered)["result"] == {"suggestions": []}
    acp.notify("$/cancel_request", {"requestId": answered})
    acp.notify("$/cancel_request", {"requestId": "never-sent"})
    acp.notify("$/cancel_request", {"requestId": None})
    assert_serving(acp, sid)
    assert acp.answers[answered] == 1


def test_big_documents(acp: RpcProcess) -> None:
    acp.initialize(["utf-16"])
    sid = acp.start_session()
    line = "value_😀 = compute(value_😀, 漢字) # " + "x" * 40 + "\n"
    big = line * (10 * 1024 * 1024 // len(line.encode()))
    open_doc(acp, sid, big, uri="file:///w/big.py")
    long_line = "s = '" + "é" * (1024 * 1024 // 2) + "'\n"
    open_doc(acp, sid, long_line, uri="file:///w/long.py")
    change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": "t"}
    acp.notify(
        "document/didChange", {"sessionId": sid, "uri": "file:///w/long.py", "version": 2, "contentChanges": [change]}
    )
    answer = suggest(acp, sid, uri="file:///w/long.py", version=2, line=0, character=1)
    assert "result" in answer, answer
    answer = suggest(acp, sid, uri="file:///w/big.py", line=5000, character=3)
    assert "result" in answer, answer
    assert_serving(acp, sid)


def test_binary_looking_text(acp: RpcProcess) -> None:
    acp.initialize(["utf-8"])
    sid = acp.start_session()
    # NULs, control characters, a lone surrogate (only expressible as a JSON escape)
    raw = (
        b'{"jsonrpc":"2.0","method":"document/didOpen","params":{"sessionId":"%s","uri":"file:///w/bin.py",'
        b'"languageId":"python","version":1,"text":"a\\u0000b = 1\\n\\ud800x = a\\u0000b\\u001b[0m\\u0007\\n\\udfff\\ud83d"}}\n'
        % sid.encode()
    )
    acp.send_raw(raw)
    change = {"range": {"start": {"line": 1, "character": 1}, "end": {"line": 1, "character": 2}}, "text": "\x00\ud800"}
    acp.notify(
        "document/didChange", {"sessionId": sid, "uri": "file:///w/bin.py", "version": 2, "contentChanges": [change]}
    )
    answer = suggest(acp, sid, uri="file:///w/bin.py", version=2, line=1, character=2)
    assert "result" in answer, answer
    assert_serving(acp, sid)


# -- cancellation ---------------------------------------------------------------------------


def test_cancel_in_the_same_write_wins(acp: RpcProcess) -> None:
    acp.initialize()
    sid = acp.start_session()
    open_doc(acp, sid)
    for _ in range(5):
        request = acp.request_message("nes/suggest", suggest_params(sid))
        cancel = {"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": request["id"]}}
        acp.send(request, cancel)
        answer = acp.wait_for(request["id"])
        assert error_code(answer) == -32800
    assert_serving(acp, sid)


def test_change_read_before_the_suggest_runs_makes_it_empty(acp: RpcProcess) -> None:
    acp.initialize()
    sid = acp.start_session()
    open_doc(acp, sid)
    request = acp.request_message("nes/suggest", suggest_params(sid, version=1))
    change = {
        "jsonrpc": "2.0",
        "method": "document/didChange",
        "params": {"sessionId": sid, "uri": URI, "version": 2, "contentChanges": [{"text": "z = 1\n"}]},
    }
    acp.send(request, change)
    assert acp.wait_for(request["id"])["result"] == {"suggestions": []}


def test_close_cancels_in_flight_suggests(acp: RpcProcess) -> None:
    acp.initialize()
    sid, other = acp.start_session(), acp.start_session()
    open_doc(acp, sid)
    open_doc(acp, other)
    suggests = [acp.request_message("nes/suggest", suggest_params(sid)) for _ in range(3)]
    survivor = acp.request_message("nes/suggest", suggest_params(other))
    close = acp.request_message("nes/close", {"sessionId": sid})
    acp.send(*suggests, survivor, close)
    for request in suggests:
        assert error_code(acp.wait_for(request["id"])) == -32800
    assert acp.wait_for(close["id"])["result"] == {}
    assert acp.wait_for(survivor["id"])["result"] == {"suggestions": []}


def test_many_requests_each_answered_once(acp: RpcProcess) -> None:
    acp.initialize()
    sid = acp.start_session()
    open_doc(acp, sid)
    requests = [acp.request_message("nes/suggest", suggest_params(sid)) for _ in range(10)]  # one write under PIPE_BUF
    cancels = [
        {"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": r["id"]}} for r in requests[::2]
    ]
    acp.send(*requests, *cancels)
    for i, request in enumerate(requests):
        answer = acp.wait_for(request["id"])
        if i % 2 == 0:
            assert error_code(answer) == -32800
        else:
            assert answer["result"] == {"suggestions": []}


def test_eof_exits_cleanly(acp: RpcProcess) -> None:
    acp.initialize()
    sid = acp.start_session()
    open_doc(acp, sid)
    acp.request("nes/suggest", suggest_params(sid))  # in flight at EOF: still answered
    assert acp.close() == 0


def test_input_from_a_regular_file_is_read_to_its_end(tmp_path: Path, state_dir: Path) -> None:
    """A file on stdin cannot be watched by the loop: it is read in a thread,
    chunk after chunk (this one is larger than one read), and answered whole."""
    import json
    import subprocess

    from nextedit.acp.transport import CHUNK

    head = "def area(w, h):\n    size = w * h\n    return size + size\n\n"
    text = head + "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(70_000))
    assert len(text) > 2 * CHUNK  # the first read before the loop, then at least two in a thread
    change = {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 8}}, "text": "total"}
    sid = "nes-1"  # the first session of a connection (checked below)
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": 1, "clientCapabilities": {"nes": {"rename": {}}}},
        },
        {"jsonrpc": "2.0", "id": 2, "method": "nes/start", "params": {}},
        {
            "jsonrpc": "2.0",
            "method": "document/didOpen",
            "params": {"sessionId": sid, "uri": URI, "languageId": "python", "version": 1, "text": text},
        },
        {
            "jsonrpc": "2.0",
            "method": "document/didChange",
            "params": {"sessionId": sid, "uri": URI, "version": 2, "contentChanges": [change]},
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "nes/suggest",
            "params": suggest_params(sid, version=2, line=1, character=9),
        },
    ]
    stdin = tmp_path / "input.jsonl"
    stdin.write_bytes(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    with stdin.open("rb") as f:
        done = subprocess.run(
            [sys.executable, "-m", "nextedit", "acp", "--state-dir", str(state_dir)],
            stdin=f,
            capture_output=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    assert sorted(answers) == [1, 2, 3]
    assert answers[2]["result"]["sessionId"] == sid
    (rename,) = [s for s in answers[3]["result"]["suggestions"] if s["kind"] == "rename"]
    assert rename["newName"] == "total" and rename["position"] == {"line": 2, "character": 11}


# -- a state directory that cannot be created -------------------------------------------


@pytest.mark.parametrize("how", ["unwritable --state-dir", "read-only home"])
def test_an_unusable_state_dir_costs_one_line_and_no_feature(tmp_path: Path, schema_checker: Any, how: str) -> None:
    """The feedback log cannot be created: one line on stderr, and everything else works."""
    from tests.helpers.rpc import RpcProcess

    blocker = tmp_path / "a-file"  # a regular file: nothing can be created under it, not even by root
    blocker.write_text("not a directory")
    argv = [sys.executable, "-m", "nextedit", "acp"]
    env = {}
    if how == "unwritable --state-dir":
        argv += ["--state-dir", str(blocker / "state")]
    else:
        env = {"HOME": str(blocker / "home"), "XDG_STATE_HOME": ""}
    acp = RpcProcess(argv, checker=schema_checker, env=env)
    try:
        acp.initialize(["utf-16"], rename=True)
        sid = acp.start_session()
        open_doc(acp, sid, "def f(size):\n    return size + size\n")
        change = {"range": {"start": {"line": 0, "character": 6}, "end": {"line": 0, "character": 10}}, "text": "n"}
        acp.notify("document/didChange", {"sessionId": sid, "uri": URI, "version": 2, "contentChanges": [change]})
        answer = suggest(acp, sid, version=2, line=0, character=7)
        (suggestion,) = answer["result"]["suggestions"][:1]
        acp.notify("nes/accept", {"sessionId": sid, "id": suggestion["id"]})
        acp.notify("nes/reject", {"sessionId": sid, "id": "s-404", "reason": "rejected"})
        assert_serving(acp, sid)
        assert acp.close() == 0
    finally:
        if acp.proc.poll() is None:
            acp.proc.kill()
    problems = [line for line in acp.stderr_until_closed() if line.strip()]
    assert len(problems) == 1, problems
    assert "feedback log unavailable" in problems[0] and "not be recorded" in problems[0]
    assert not acp.problems and not acp.unanswered()
