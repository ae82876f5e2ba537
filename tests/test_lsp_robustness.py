"""`nextedit lsp` answers every request, whatever arrives: raw LSP frames, no client library.

pygls drops a request whose typed params do not parse (the client would wait
forever); the bridge answers it ``-32602`` and reads on. The fixture's
:class:`~tests.helpers.rpc.RpcProcess` checks that every request got exactly one answer.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.rpc import RpcProcess

URI = "file:///project/a.py"


@pytest.fixture
def lsp(state_dir: Path) -> Any:
    process = RpcProcess([sys.executable, "-m", "nextedit", "lsp", "--state-dir", str(state_dir)], framing="lsp")
    answer = process.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert answer["result"]["capabilities"]["positionEncoding"] == "utf-16"
    process.notify("initialized", {})
    process.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": "x = 1\nprint(x)\n"}},
    )
    yield process
    if process.proc.poll() is None:
        assert "result" in process.call("shutdown")
        process.notify("exit")
        assert process.proc.wait(60) == 0
    assert not process.problems, process.problems
    assert not process.unanswered(), process.unanswered()


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("textDocument/codeAction", {"textDocument": {"uri": URI}}),
        ("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": "everywhere", "context": {}}),
        ("textDocument/inlineCompletion", {"textDocument": {"uri": URI}, "position": {"line": "one"}}),
        ("workspace/executeCommand", {"arguments": ["s-1"]}),
        ("textDocument/copilotInlineEdit", {"textDocument": {"uri": URI}}),
        ("textDocument/copilotInlineEdit", ["not", "an", "object"]),
    ],
)
def test_malformed_params_are_answered_invalid_params(lsp: RpcProcess, method: str, params: Any) -> None:
    answer = lsp.call(method, params)
    assert answer.get("error", {}).get("code") == -32602, answer
    # and the server reads on
    answer = lsp.call(
        "textDocument/copilotInlineEdit",
        {"textDocument": {"uri": URI, "version": 1}, "position": {"line": 0, "character": 0}},
    )
    assert answer["result"] == {"edits": []}


def test_malformed_notifications_are_dropped_and_the_mirror_survives(lsp: RpcProcess) -> None:
    lsp.notify("textDocument/didChange", {"textDocument": {"uri": URI}, "contentChanges": "all of it"})
    lsp.notify("textDocument/didShowInlineEdit", {"item": "nothing"})
    lsp.notify("textDocument/didShowInlineEdit", None)
    lsp.notify("$/somethingUnknown", {})
    # a proper rename still propagates
    lsp.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": URI, "version": 2},
            "contentChanges": [
                {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": "y"}
            ],
        },
    )
    answer = lsp.call(
        "textDocument/copilotInlineEdit",
        {"textDocument": {"uri": URI, "version": 2}, "position": {"line": 0, "character": 1}},
    )
    edits = answer["result"]["edits"]
    assert [(e["range"]["start"], e["text"]) for e in edits] == [({"line": 1, "character": 6}, "y")]


def test_unknown_method_and_unknown_command(lsp: RpcProcess) -> None:
    assert lsp.call("textDocument/somethingElse", {})["error"]["code"] == -32601
    assert (
        lsp.call("workspace/executeCommand", {"command": "nextedit.nothing", "arguments": []})["error"]["code"]
        == -32602
    )


def test_requests_sent_together_are_answered_in_order(lsp: RpcProcess) -> None:
    position = {"line": 1, "character": 7}
    messages = [
        lsp.request_message(
            "textDocument/copilotInlineEdit", {"textDocument": {"uri": URI, "version": 1}, "position": position}
        ),
        lsp.request_message(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": URI},
                "range": {"start": position, "end": position},
                "context": {"diagnostics": []},
            },
        ),
        lsp.request_message(
            "textDocument/copilotInlineEdit",
            {"textDocument": {"uri": "file:///nope.py", "version": 1}, "position": position},
        ),
    ]
    lsp.send(*messages)
    for message in messages:
        assert "result" in lsp.wait_for(message["id"])


@pytest.mark.parametrize("via", ["flag", "XDG_STATE_HOME"])
def test_a_state_dir_that_cannot_be_created_costs_only_the_feedback_log(tmp_path: Path, via: str) -> None:
    # a regular file where a directory should be: mkdir fails even for root
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("", encoding="utf-8")
    argv = [sys.executable, "-m", "nextedit", "lsp"]
    env = {}
    if via == "flag":
        argv += ["--state-dir", str(blocker / "state")]
    else:
        env["XDG_STATE_HOME"] = str(blocker)
    process = RpcProcess(argv, framing="lsp", env=env)
    answer = process.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert "result" in answer, answer
    process.notify("initialized", {})
    process.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": "x = 1\nprint(x)\n"}},
    )
    process.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": URI, "version": 2},
            "contentChanges": [
                {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": "y"}
            ],
        },
    )
    answer = process.call(
        "textDocument/copilotInlineEdit",
        {"textDocument": {"uri": URI, "version": 2}, "position": {"line": 0, "character": 1}},
    )
    (edit,) = answer["result"]["edits"]
    accepted = process.call("workspace/executeCommand", edit["command"])
    assert "result" in accepted, accepted
    assert "result" in process.call("shutdown")
    process.notify("exit")
    assert process.proc.wait(60) == 0
    errors = [line for line in process.stderr_lines if "ERROR" in line or "Traceback" in line]
    assert len(errors) == 1 and "feedback log unavailable" in errors[0], process.stderr()
    assert not process.problems and not process.unanswered()
