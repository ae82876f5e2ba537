"""A document opened over real stdio is parsed while the editor is idle, and
nothing the developer does meanwhile is lost or answered from the wrong text.

The document is ~3 MB of real Python (the standard library, as in
``test_acp_cancellation``) with a local ``size`` at its top: its parse takes a
few hundred milliseconds, long enough to act while it runs. The agent runs
with ``--log-level debug`` so each test acts when the parse ahead has
started (``wait_for_log``), never after a sleep. What the client sees is
checked: the rename suggested after the developer's edit, at the right
place of the right text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.test_acp_cancellation import BIG_URI, HEAD, big_text, change, renames, suggest_message

if TYPE_CHECKING:
    from tests.helpers.rpc import RpcProcess


@pytest.fixture
def agent(acp_factory: Any) -> RpcProcess:
    acp: RpcProcess = acp_factory("--log-level", "debug")
    acp.initialize(["utf-16"], rename=True)
    return acp


def open_document(acp: RpcProcess, sid: str, text: str, *, version: int = 1) -> int:
    """Open ``text`` and return once its parse ahead has started (the log index)."""
    mark = len(acp.stderr_lines)
    acp.notify(
        "document/didOpen", {"sessionId": sid, "uri": BIG_URI, "languageId": "python", "version": version, "text": text}
    )
    return acp.wait_for_log(f"parse ahead of {BIG_URI}: parsing", after=mark)


def rename_size(acp: RpcProcess, sid: str, version: int) -> None:
    """The developer renames the local ``size`` at line 1 to ``total``."""
    acp.notify(
        "document/didChange",
        {"sessionId": sid, "uri": BIG_URI, "version": version, "contentChanges": [change(1, 4, 8, "total")]},
    )


def assert_renames_the_next_size(acp: RpcProcess, sid: str, version: int) -> None:
    answer = acp.call("nes/suggest", suggest_message(acp, sid, BIG_URI, version, 1, 9)["params"])
    (rename,) = renames(answer)
    assert rename["uri"] == BIG_URI and rename["newName"] == "total"
    assert rename["position"] == {"line": 2, "character": 11}  # `return size + size`


def test_the_opened_document_is_parsed_ahead_and_its_first_suggest_is_right(agent: RpcProcess) -> None:
    sid = agent.start_session()
    started = open_document(agent, sid, big_text())
    agent.wait_for_log(f"parse ahead of {BIG_URI}: tree kept", after=started)
    rename_size(agent, sid, 2)
    assert_renames_the_next_size(agent, sid, 2)


def test_an_edit_during_the_parse_ahead_halts_it_and_the_suggest_reads_the_edited_text(agent: RpcProcess) -> None:
    sid = agent.start_session()
    started = open_document(agent, sid, big_text())
    rename_size(agent, sid, 2)  # while the parse of version 1 runs
    halted = agent.wait_for_log(f"parse ahead of {BIG_URI}: halted", after=started)
    assert not any("tree kept" in line for line in agent.stderr_lines[started:halted])
    assert_renames_the_next_size(agent, sid, 2)
    # the developer goes on: the next suggest reads version 3, not a tree of an older text
    agent.notify(
        "document/didChange",
        {"sessionId": sid, "uri": BIG_URI, "version": 3, "contentChanges": [change(2, 11, 15, "total")]},
    )
    answer = agent.call("nes/suggest", suggest_message(agent, sid, BIG_URI, 3, 2, 16)["params"])
    (rename,) = renames(answer)
    assert rename["position"] == {"line": 2, "character": 19}


def test_a_suggest_asked_during_the_parse_ahead_waits_for_its_tree(agent: RpcProcess) -> None:
    sid = agent.start_session()
    started = open_document(agent, sid, big_text())
    request = suggest_message(agent, sid, BIG_URI, 1, 1, 9)
    agent.send(request)
    assert agent.wait_for(request["id"])["result"] == {"suggestions": []}  # no edit yet: nothing to say
    # the suggest took its turn after the parse and read the tree it kept
    kept = agent.wait_for_log(f"parse ahead of {BIG_URI}: tree kept", after=started)
    computing = agent.wait_for_log(f"nes/suggest {request['id']}: computing", after=started)
    assert kept < computing
    rename_size(agent, sid, 2)
    assert_renames_the_next_size(agent, sid, 2)


def test_a_reopen_during_the_parse_ahead_answers_from_the_new_text(agent: RpcProcess) -> None:
    sid = agent.start_session()
    started = open_document(agent, sid, big_text())
    # re-opened with a small text while the big one is being parsed
    agent.notify(
        "document/didOpen", {"sessionId": sid, "uri": BIG_URI, "languageId": "python", "version": 5, "text": HEAD}
    )
    agent.wait_for_log(f"parse ahead of {BIG_URI}: halted", after=started)
    rename_size(agent, sid, 6)
    assert_renames_the_next_size(agent, sid, 6)


def test_closing_the_session_during_the_parse_ahead_spares_the_other_sessions(agent: RpcProcess) -> None:
    sid, other = agent.start_session(), agent.start_session()
    started = open_document(agent, sid, big_text())
    assert agent.call("nes/close", {"sessionId": sid})["result"] == {}
    agent.wait_for_log(f"parse ahead of {BIG_URI}: halted", after=started)
    agent.notify(
        "document/didOpen", {"sessionId": other, "uri": BIG_URI, "languageId": "python", "version": 1, "text": HEAD}
    )
    rename_size(agent, other, 2)
    assert_renames_the_next_size(agent, other, 2)
    gone = agent.call("nes/suggest", suggest_message(agent, sid, BIG_URI, 2, 1, 9)["params"])
    assert gone["error"]["code"] == -32002
