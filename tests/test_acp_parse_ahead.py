"""A document opened or changed over real stdio is parsed while the editor is
idle, and nothing the developer does meanwhile is lost or answered from the
wrong text.

The document is ~3 MB of real Python (the standard library, as in
``test_acp_cancellation``) with a local ``size`` at its top: its parse takes a
few hundred milliseconds, long enough to act while it runs. The agent runs
with ``--log-level debug`` so each test acts when the parse ahead has
started (``wait_for_log``), never after a sleep. What the client sees is
checked: the rename suggested after the developer's edit, at the right
place of the right text.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest

from nextedit.session import PARSE_AHEAD_DELAY
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


# -- after a change: the re-parse goes into the pause before the suggest ----------------


def retype_size_line(sid: str, version: int) -> dict[str, Any]:
    """The developer retypes ``size = w * h`` at line 1 as ``total = w * h``: an edit
    wider than one identifier, so the tree awaits a re-parse (no token swap)."""
    return {
        "jsonrpc": "2.0",
        "method": "document/didChange",
        "params": {
            "sessionId": sid,
            "uri": BIG_URI,
            "version": version,
            "contentChanges": [change(1, 4, 16, "total = w * h")],
        },
    }


def opened_and_parsed(acp: RpcProcess, sid: str) -> int:
    """Open the big document and return once its parse ahead is kept (the log index)."""
    started = open_document(acp, sid, big_text())
    return acp.wait_for_log(f"parse ahead of {BIG_URI}: tree kept", after=started)


def parses_ahead(acp: RpcProcess, after: int, before: int | None = None) -> int:
    return sum(f"parse ahead of {BIG_URI}: parsing" in line for line in acp.stderr_lines[after:before])


def test_a_change_is_re_parsed_in_the_pause_and_the_suggest_after_it_parses_nothing(agent: RpcProcess) -> None:
    sid = agent.start_session()
    mark = opened_and_parsed(agent, sid)
    agent.send(retype_size_line(sid, 2))
    started = agent.wait_for_log(f"parse ahead of {BIG_URI}: parsing", after=mark)
    kept = agent.wait_for_log(f"parse ahead of {BIG_URI}: tree kept", after=started)
    request = suggest_message(agent, sid, BIG_URI, 2, 1, 9)
    agent.send(request)
    (rename,) = renames(agent.wait_for(request["id"]))
    assert rename["newName"] == "total" and rename["position"] == {"line": 2, "character": 11}
    agent.wait_for_log(
        f"nes/suggest {request['id']}: computing {BIG_URI} v2 on a snapshot (no parse needed)", after=kept
    )


def test_a_suggest_sent_with_its_change_parses_for_itself_and_nothing_runs_ahead(agent: RpcProcess) -> None:
    """What ``nextedit bench`` does: the change and the suggest back to back."""
    sid = agent.start_session()
    mark = opened_and_parsed(agent, sid)
    request = suggest_message(agent, sid, BIG_URI, 2, 1, 9)
    agent.send(retype_size_line(sid, 2), request)
    (rename,) = renames(agent.wait_for(request["id"]))
    assert rename["newName"] == "total"
    computing = agent.wait_for_log(
        f"nes/suggest {request['id']}: computing {BIG_URI} v2 on a snapshot (a parse pending)", after=mark
    )
    # a later request shows the agent handled everything before it: no parse ran ahead of version 2
    probe = suggest_message(agent, sid, BIG_URI, 2, 1, 9)
    agent.send(probe)
    agent.wait_for(probe["id"])
    assert parses_ahead(agent, mark) == 0, agent.stderr()
    assert computing > mark


def test_a_newer_change_halts_the_parse_ahead_of_the_one_before(agent: RpcProcess) -> None:
    """A typing burst: keystrokes faster than the delay parse nothing until the last one."""
    sid = agent.start_session()
    mark = opened_and_parsed(agent, sid)

    def keystroke(version: int, start: int, end: int, text: str) -> dict[str, Any]:
        params = {"sessionId": sid, "uri": BIG_URI, "version": version, "contentChanges": [change(1, start, end, text)]}
        return {"jsonrpc": "2.0", "method": "document/didChange", "params": params}

    # `size = w * h` retyped as `t = w * h`, then `otal` typed after the `t`
    typing = [keystroke(2, 4, 16, "t = w * h")]
    typing += [keystroke(3 + i, 5 + i, 5 + i, ch) for i, ch in enumerate("otal")]
    agent.send(*typing)
    started = agent.wait_for_log(f"parse ahead of {BIG_URI}: parsing", after=mark)
    agent.wait_for_log(f"parse ahead of {BIG_URI}: tree kept", after=started)
    assert parses_ahead(agent, mark) == 1  # the last keystroke's, not one per keystroke
    answer = agent.call("nes/suggest", suggest_message(agent, sid, BIG_URI, 6, 1, 9)["params"])
    (rename,) = renames(answer)
    assert rename["newName"] == "total" and rename["position"] == {"line": 2, "character": 11}


def test_a_rename_typed_in_place_queues_no_parse(agent: RpcProcess) -> None:
    """The token swap serves it: the suggest reads the tree at no re-parse, and none runs ahead."""
    sid = agent.start_session()
    mark = opened_and_parsed(agent, sid)
    rename_size(agent, sid, 2)
    time.sleep(10 * PARSE_AHEAD_DELAY)  # the developer pauses: a parse ahead would be due by now
    request = suggest_message(agent, sid, BIG_URI, 2, 1, 9)
    agent.send(request)
    (rename,) = renames(agent.wait_for(request["id"]))
    assert rename["newName"] == "total"
    agent.wait_for_log(
        f"nes/suggest {request['id']}: computing {BIG_URI} v2 on a snapshot (no parse needed)", after=mark
    )
    assert parses_ahead(agent, mark) == 0


def test_the_end_of_input_halts_a_parse_ahead_and_the_agent_exits(agent: RpcProcess) -> None:
    sid = agent.start_session()
    mark = opened_and_parsed(agent, sid)
    agent.send(retype_size_line(sid, 2))
    assert agent.close() == 0
    lines = agent.stderr_until_closed()
    assert not any(f"parse ahead of {BIG_URI}: tree kept" in line for line in lines[mark + 1 :]), agent.stderr()
