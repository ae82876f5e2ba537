"""Real cancellation over real stdio: the agent keeps reading while a suggest computes.

The slow suggest is genuine work on a large realistic input: a ~3 MB Python
file (the standard library's modules, one after another) with a local renamed
at its top. The first suggest after opening it parses the whole file and
resolves the binding — a few hundred milliseconds — in a worker thread (the
open, the rename and the suggest go in one write, so the rename's parse ahead
is not due before the suggest: the suggest parses). The
agent runs with ``--log-level debug`` so the test can act exactly when the
computation has started (``wait_for_log``), never after a sleep.

Each test checks what a client sees (the answer to every request, once) and
that the worker really stopped at one of the engine's cancellation checks
instead of finishing its work.
"""

from __future__ import annotations

import sysconfig
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.helpers.rpc import RpcProcess

BIG_URI = "file:///w/big.py"
SMALL_URI = "file:///w/small.py"
HEAD = "def area(w, h):\n    size = w * h\n    return size + size\n\n"


@cache
def big_text() -> str:
    """About 3 MB of real Python: the standard library's modules, in name order."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    parts, size = [HEAD], 0
    for path in sorted(stdlib.glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        parts.append(text)
        size += len(text)
        if size > 3_000_000:
            break
    assert size > 3_000_000, "the standard library sources are needed for this test"
    return "\n".join(parts)


def change(line: int, start: int, end: int, text: str) -> dict[str, Any]:
    return {
        "range": {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}},
        "text": text,
    }


def open_and_rename(sid: str, uri: str, text: str) -> list[dict[str, Any]]:
    """The messages opening ``text`` and renaming the local ``size`` at line 1 to ``total`` (version 2)."""

    def notification(method: str, params: dict[str, Any]) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "method": method, "params": params}

    return [
        notification(
            "document/didOpen", {"sessionId": sid, "uri": uri, "languageId": "python", "version": 1, "text": text}
        ),
        notification(
            "document/didChange",
            {"sessionId": sid, "uri": uri, "version": 2, "contentChanges": [change(1, 4, 8, "total")]},
        ),
    ]


def suggest_message(acp: RpcProcess, sid: str, uri: str, version: int, line: int, character: int) -> dict[str, Any]:
    return acp.request_message(
        "nes/suggest",
        {
            "sessionId": sid,
            "uri": uri,
            "version": version,
            "position": {"line": line, "character": character},
            "triggerKind": "automatic",
        },
    )


def start_slow_suggest(acp: RpcProcess, sid: str, *before: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Send ``before`` and the slow suggest in one write (the rename's parse ahead
    is not due before the suggest takes the compute slot: the suggest parses),
    and return once the worker is computing it."""
    request = suggest_message(acp, sid, BIG_URI, 2, 1, 9)
    mark = len(acp.stderr_lines)
    acp.send(*before, request)
    index = acp.wait_for_log(f"nes/suggest {request['id']}: computing", after=mark)
    return request, index


def assert_stopped_at_a_check(acp: RpcProcess, request_id: Any, after: int) -> None:
    """The worker noticed the answer was given and stopped — it did not finish."""
    index = acp.wait_for_log(f"nes/suggest {request_id}: stopped at a cancellation check", after=after)
    assert not any(f"nes/suggest {request_id}: computed in" in line for line in acp.stderr_lines[after:index])


def renames(answer: dict[str, Any]) -> list[dict[str, Any]]:
    assert "result" in answer, answer
    return [s for s in answer["result"]["suggestions"] if s["kind"] == "rename"]


@pytest.fixture
def agent(acp_factory: Any) -> RpcProcess:
    acp: RpcProcess = acp_factory("--log-level", "debug")
    acp.initialize(["utf-16"], rename=True)
    return acp


def test_a_cancel_during_a_slow_suggest_is_answered_at_once(agent: RpcProcess) -> None:
    sid = agent.start_session()
    request, computing = start_slow_suggest(agent, sid, *open_and_rename(sid, BIG_URI, big_text()))
    agent.notify("$/cancel_request", {"requestId": request["id"]})
    answer = agent.wait_for(request["id"])
    assert answer["error"]["code"] == -32800
    assert_stopped_at_a_check(agent, request["id"], computing)
    # nothing was lost: asked again, the same version gets its rename
    again = agent.call("nes/suggest", suggest_message(agent, sid, BIG_URI, 2, 1, 9)["params"])
    (rename,) = renames(again)
    assert rename["newName"] == "total" and rename["position"]["line"] == 2


def test_a_change_during_a_slow_suggest_answers_it_empty_and_applies_in_order(agent: RpcProcess) -> None:
    sid = agent.start_session()
    request, computing = start_slow_suggest(agent, sid, *open_and_rename(sid, BIG_URI, big_text()))
    # the developer goes on renaming: `return size + size` -> `return total + size`
    agent.notify(
        "document/didChange",
        {"sessionId": sid, "uri": BIG_URI, "version": 3, "contentChanges": [change(2, 11, 15, "total")]},
    )
    assert agent.wait_for(request["id"])["result"] == {"suggestions": []}
    assert_stopped_at_a_check(agent, request["id"], computing)
    # version 3 is what the agent holds now: the last `size` is what is left to rename
    answer = agent.call("nes/suggest", suggest_message(agent, sid, BIG_URI, 3, 2, 16)["params"])
    (rename,) = renames(answer)
    assert rename["newName"] == "total"
    assert rename["position"] == {"line": 2, "character": 19}
    stale = agent.call("nes/suggest", suggest_message(agent, sid, BIG_URI, 2, 1, 9)["params"])
    assert stale["result"] == {"suggestions": []}


def test_a_close_during_a_slow_suggest_cancels_it_and_spares_other_sessions(agent: RpcProcess) -> None:
    sid, other = agent.start_session(), agent.start_session()
    request, computing = start_slow_suggest(
        agent, sid, *open_and_rename(sid, BIG_URI, big_text()), *open_and_rename(other, SMALL_URI, HEAD)
    )
    close = agent.request_message("nes/close", {"sessionId": sid})
    survivor = suggest_message(agent, other, SMALL_URI, 2, 1, 9)
    agent.send(close, survivor)
    assert agent.wait_for(close["id"])["result"] == {}
    assert agent.wait_for(request["id"])["error"]["code"] == -32800
    assert_stopped_at_a_check(agent, request["id"], computing)
    (rename,) = renames(agent.wait_for(survivor["id"]))
    assert rename["uri"] == SMALL_URI and rename["newName"] == "total"
    gone = agent.call("nes/suggest", suggest_message(agent, sid, BIG_URI, 2, 1, 9)["params"])
    assert gone["error"]["code"] == -32002


def test_suggests_queued_behind_a_slow_one_are_each_answered_once(agent: RpcProcess) -> None:
    sid = agent.start_session()
    request, _ = start_slow_suggest(agent, sid, *open_and_rename(sid, BIG_URI, big_text()))
    queued = [suggest_message(agent, sid, BIG_URI, 2, 1, 9) for _ in range(4)]
    cancels = [
        {"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": r["id"]}}
        for r in (request, *queued[::2])
    ]
    agent.send(*queued, *cancels)
    assert agent.wait_for(request["id"])["error"]["code"] == -32800
    for i, queued_request in enumerate(queued):
        answer = agent.wait_for(queued_request["id"])
        if i % 2 == 0:
            assert answer["error"]["code"] == -32800
        else:
            (rename,) = renames(answer)
            assert rename["newName"] == "total"


def test_the_loop_answers_other_requests_while_a_suggest_computes(agent: RpcProcess) -> None:
    """Answers leave in the order the loop gives them: a request sent after the slow
    suggest started is answered before it (the parse does not hold the loop)."""
    sid = agent.start_session()
    request, _ = start_slow_suggest(agent, sid, *open_and_rename(sid, BIG_URI, big_text()))
    probe = agent.request_message("nes/start", {})
    agent.send(probe)
    order = []
    while len(order) < 2:
        message = agent.recv()
        if message.get("id") in (request["id"], probe["id"]):
            order.append(message["id"])
            if message["id"] == request["id"]:
                assert renames(message), message
    assert order == [probe["id"], request["id"]]
