"""The model behind the engine, through a real `nextedit acp` over stdio and a real HTTP server.

The model is :class:`tests.model_server.ModelServer` on 127.0.0.1: it records
every request (the prompt the agent wrote, its headers) and answers from a
script — a rewrite of the editable region, an HTTP 500, a body that is not
JSON, a dropped connection, or nothing at all until the client gives up
(*held*). Tests await messages (the agent's answers, the server's requests
and disconnects, the agent's log lines); none sleeps.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nextedit.text import Document, Position, PositionEncoding
from tests.model_server import ModelServer, Reply, region_of, rewrite

WORKSPACE = "file:///w"
URI = "file:///w/greet.py"
TEXT = 'def greet(name):\n    tag = "🐍漢"; msg = "hi " + name\n    return msg\n'
TYPED = TEXT.replace('"hi "', '"hello "')
# what the scripted model adds after the developer's edit: on the line with the emoji, after it
MODEL_OLD, MODEL_NEW = '" + name\n', '" + name.title()\n'
EXPECTED = TYPED.replace(MODEL_OLD, MODEL_NEW)
SECRET = "sk-never-log-me-5d1e"
SECRET2 = "another-secret-0a9b"


def open_and_type(acp: Any, sid: str, text: str = TEXT, uri: str = URI) -> tuple[int, Position]:
    """Open ``text`` and type ``hello`` over ``hi`` (a change synthesis has nothing to add to);
    the new version and the cursor after the typed word, in the agent's encoding."""
    acp.notify("document/didOpen", {"sessionId": sid, "uri": uri, "languageId": "python", "version": 1, "text": text})
    doc = Document(uri, "python", 1, text)
    enc = acp.encoding
    start = text.index('"hi "') + 1
    acp.notify(
        "document/didChange",
        {
            "sessionId": sid,
            "uri": uri,
            "version": 2,
            "contentChanges": [
                {
                    "range": {
                        "start": _wire(doc.position_at(start, enc)),
                        "end": _wire(doc.position_at(start + 2, enc)),
                    },
                    "text": "hello",
                }
            ],
        },
    )
    typed = Document(uri, "python", 2, text.replace('"hi "', '"hello "'))
    return 2, typed.position_at(start + len("hello"), enc)


def _wire(position: Position) -> dict[str, int]:
    return {"line": position.line, "character": position.character}


def suggest_params(sid: str, version: int, position: Position, uri: str = URI) -> dict[str, Any]:
    return {"sessionId": sid, "uri": uri, "version": version, "position": _wire(position), "triggerKind": "automatic"}


def start_agent(acp_factory: Any, *flags: str, encoding: str = "utf-16", jump: bool = False) -> Any:
    acp = acp_factory(*flags)
    result = acp.initialize([encoding], jump=jump)
    acp.encoding = PositionEncoding(result["agentCapabilities"]["positionEncoding"])
    return acp


def set_provider(acp: Any, server: ModelServer, headers: dict[str, str] | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"id": "next-edit", "apiType": "openai", "baseUrl": server.url}
    if headers is not None:
        params["headers"] = headers
    return acp.call("providers/set", params)


def apply(text: str, suggestion: dict[str, Any], enc: PositionEncoding) -> str:
    doc = Document("x", "", 0, text)
    spans = sorted(
        (
            (
                doc.offset_at(Position(**e["range"]["start"]), enc),
                doc.offset_at(Position(**e["range"]["end"]), enc),
                e["newText"],
            )
            for e in suggestion["edits"]
        ),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def provider_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if " nextedit.provider." in line]


# -- configuration the ACP way ---------------------------------------------------------------------


def test_providers_are_advertised_listed_set_and_disabled(acp_factory: Any, model_server: ModelServer) -> None:
    acp = acp_factory()
    assert acp.initialize(["utf-16"])["agentCapabilities"]["providers"] == {}
    listed = acp.call("providers/list", {})["result"]
    assert listed == {"providers": [{"id": "next-edit", "supported": ["openai"], "required": False, "current": None}]}
    assert set_provider(acp, model_server, {"Authorization": f"Bearer {SECRET}"})["result"] == {}
    (current,) = acp.call("providers/list")["result"]["providers"]
    assert current["current"] == {"apiType": "openai", "baseUrl": model_server.url}
    assert acp.call("providers/disable", {"id": "next-edit"})["result"] == {}
    assert acp.call("providers/list", {})["result"]["providers"][0]["current"] is None

    def refused(method: str, params: Any) -> dict[str, Any]:
        error = acp.call(method, params)["error"]
        assert error["code"] == -32602, error
        return error

    base = {"id": "next-edit", "apiType": "openai", "baseUrl": model_server.url}
    assert refused("providers/set", {**base, "apiType": "anthropic"})["data"] == {"field": "apiType"}
    assert "only 'openai'" in refused("providers/set", {**base, "apiType": "bedrock"})["message"]
    assert refused("providers/set", {**base, "id": "main"})["data"] == {"field": "id"}
    assert refused("providers/set", {**base, "baseUrl": "ftp://x"})["data"] == {"field": "baseUrl"}
    assert refused("providers/set", {"id": "next-edit", "apiType": "openai"})["data"] == {"field": "baseUrl"}
    bad_header = refused("providers/set", {**base, "headers": {"Authorization": 7}})
    assert bad_header["data"] == {"field": "headers.Authorization"}
    assert refused("providers/disable", {"id": "other"})["data"] == {"field": "id"}
    assert acp.call("providers/list", {})["result"]["providers"][0]["current"] is None  # nothing took


def test_the_command_line_configures_the_provider(acp_factory: Any, model_server: ModelServer) -> None:
    acp = start_agent(acp_factory, "--provider-url", model_server.url)
    (provider,) = acp.call("providers/list", {})["result"]["providers"]
    assert provider["current"] == {"apiType": "openai", "baseUrl": model_server.url}


# -- the request and its answer -----------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_the_model_is_asked_when_synthesis_is_silent_and_its_edit_comes_back_in_every_encoding(
    acp_factory: Any, model_server: ModelServer, encoding: str
) -> None:
    model_server.responder = rewrite(MODEL_OLD, MODEL_NEW)
    acp = start_agent(acp_factory, encoding=encoding)
    set_provider(acp, model_server, {"Authorization": f"Bearer {SECRET}"})
    sid = acp.start_session(WORKSPACE)
    version, cursor = open_and_type(acp, sid)
    (suggestion,) = acp.call("nes/suggest", suggest_params(sid, version, cursor))["result"]["suggestions"]
    assert suggestion["kind"] == "edit" and suggestion["_meta"] == {"nextedit": {"source": "model:next-edit"}}
    assert apply(TYPED, suggestion, acp.encoding) == EXPECTED
    assert len(suggestion["edits"]) == 1

    got = model_server.next_request()
    assert got.path == "/v1/completions" and got.headers["Authorization"] == f"Bearer {SECRET}"
    prompt = got.prompt
    # the developer's edit as a unified diff, the file's path, the region and the cursor marker
    assert (
        'User edited greet.py:\n```diff\n@@ -1,3 +1,3 @@\n def greet(name):\n-    tag = "🐍漢"; msg = "hi " + name\n'
        in prompt
    )
    assert '+    tag = "🐍漢"; msg = "hello " + name\n     return msg\n' in prompt
    assert "```greet.py\n<|start_of_file|>\n<|editable_region_start|>\n" in prompt
    before, after = region_of(prompt)
    assert before.endswith('msg = "hello') and after.startswith(' " + name\n')
    assert prompt.endswith("<|editable_region_end|>\n```\n\n### Response:\n")


def test_synthesis_answers_without_the_model(acp_factory: Any, model_server: ModelServer) -> None:
    model_server.responder = rewrite(MODEL_OLD, MODEL_NEW)
    acp = start_agent(acp_factory, "--provider-url", model_server.url)
    sid = acp.start_session(WORKSPACE)
    text = "def area(w, h):\n    size = w * h\n    return size\n"
    acp.notify("document/didOpen", {"sessionId": sid, "uri": URI, "languageId": "python", "version": 1, "text": text})
    rename = {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 8}}, "text": "total"}
    acp.notify("document/didChange", {"sessionId": sid, "uri": URI, "version": 2, "contentChanges": [rename]})
    answer = acp.call("nes/suggest", suggest_params(sid, 2, Position(1, 9)))["result"]["suggestions"]
    assert answer and "_meta" not in answer[0]
    assert answer[0]["edits"][0]["newText"] == "total"
    assert model_server.count == 0  # asked only when synthesis has nothing


def test_a_jump_leads_to_a_model_edit_out_of_view_and_the_follow_up_reuses_its_answer(
    acp_factory: Any, model_server: ModelServer
) -> None:
    text = TEXT + "".join(f"\nx{i} = {i}" for i in range(8)) + "\n"
    model_server.responder = rewrite("x6 = 6", "x6 = greet('six')")
    acp = start_agent(acp_factory, "--provider-url", model_server.url, jump=True)
    sid = acp.start_session(WORKSPACE)
    version, cursor = open_and_type(acp, sid, text)
    # the editor shows only the lines around the cursor
    visible = {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}}
    acp.notify(
        "document/didFocus",
        {"sessionId": sid, "uri": URI, "version": version, "position": _wire(cursor), "visibleRange": visible},
    )
    jump, edit = acp.call("nes/suggest", suggest_params(sid, version, cursor))["result"]["suggestions"]
    assert jump["kind"] == "jump" and jump["_meta"]["nextedit"]["source"] == "model:next-edit"
    target = jump["position"]
    assert text.splitlines()[target["line"]].startswith("x6 = 6")
    assert edit["kind"] == "edit"
    follow = acp.call("nes/suggest", suggest_params(sid, version, Position(**target)))["result"]["suggestions"]
    assert [s["kind"] for s in follow] == ["edit"]
    assert apply(text.replace('"hi "', '"hello "'), follow[0], acp.encoding) == text.replace(
        '"hi "', '"hello "'
    ).replace("x6 = 6", "x6 = greet('six')")
    assert model_server.count == 1  # the follow-up got the answer the model already gave


# -- never in the way -------------------------------------------------------------------------------------


def test_a_slow_model_costs_its_budget_then_silence(acp_factory: Any, model_server: ModelServer) -> None:
    held = Reply("late", hold=True)
    model_server.script(held)
    acp = start_agent(acp_factory, "--provider-url", model_server.url, "--provider-budget-ms", "150")
    sid = acp.start_session(WORKSPACE)
    version, cursor = open_and_type(acp, sid)
    answer = acp.call("nes/suggest", suggest_params(sid, version, cursor))
    assert answer["result"] == {"suggestions": []}
    assert not held.release.is_set()  # answered while the model still had not
    assert model_server.next_disconnect() == "/v1/completions"
    acp.close()
    (line,) = provider_lines(acp.stderr_until_closed())
    assert "WARNING" in line and "within 150 ms" in line


def start_held_suggest(acp_factory: Any, model_server: ModelServer) -> tuple[Any, str, int, Position, Any]:
    """An agent whose model holds its answer, and a ``nes/suggest`` the agent is waiting on the model for:
    ``(acp, sid, version, cursor, request_id)``."""
    model_server.script(Reply("never", hold=True))
    acp = start_agent(acp_factory, "--provider-url", model_server.url, "--provider-budget-ms", "60000")
    sid = acp.start_session(WORKSPACE)
    version, cursor = open_and_type(acp, sid)
    request_id = acp.request("nes/suggest", suggest_params(sid, version, cursor))
    model_server.next_request()  # the agent is waiting for the model now
    return acp, sid, version, cursor, request_id


def test_cancel_request_abandons_the_model_request(acp_factory: Any, model_server: ModelServer) -> None:
    acp, sid, version, cursor, request_id = start_held_suggest(acp_factory, model_server)
    acp.notify("$/cancel_request", {"requestId": request_id})
    assert acp.wait_for(request_id)["error"]["code"] == -32800
    assert model_server.next_disconnect() == "/v1/completions"
    # the agent is free again at once: the next suggest is answered (the model is asked anew)
    model_server.script(Reply(status=500, body=b"{}"))
    assert acp.call("nes/suggest", suggest_params(sid, version, cursor))["result"] == {"suggestions": []}


def test_a_newer_version_abandons_the_model_request(acp_factory: Any, model_server: ModelServer) -> None:
    acp, sid, _version, cursor, request_id = start_held_suggest(acp_factory, model_server)
    typing = {"range": {"start": _wire(cursor), "end": _wire(cursor)}, "text": "!"}
    acp.notify("document/didChange", {"sessionId": sid, "uri": URI, "version": 3, "contentChanges": [typing]})
    assert acp.wait_for(request_id)["result"] == {"suggestions": []}
    assert model_server.next_disconnect() == "/v1/completions"


@pytest.mark.parametrize(
    ("reply", "logged"),
    [
        (Reply(status=500, body=b'{"error": "overloaded"}'), "HTTP 500"),
        (Reply(body=b"<html>Bad Gateway</html>"), "not JSON"),
        (Reply(drop=True), "dropped the connection"),
        (Reply("I think you should rename it."), "markers in the reply"),
        (Reply("<|editable_region_start|>\nx = 1", finish_reason="length"), "cut off"),
        (Reply("<|editable_region_start|>\nimport os\nimport sys\nimport re\n"), "does not match"),
        ("undo", "would undo"),
    ],
)
def test_a_model_that_fails_gives_silence_and_one_log_line(
    acp_factory: Any, model_server: ModelServer, reply: Reply | str, logged: str
) -> None:
    if reply == "undo":  # a rewrite that only reverts what the developer typed
        model_server.responder = rewrite('"hello "', '"hi "')
    else:
        assert isinstance(reply, Reply)
        model_server.script(reply)
    acp = start_agent(acp_factory, "--provider-url", model_server.url, "--log-level", "info")
    sid = acp.start_session(WORKSPACE)
    version, cursor = open_and_type(acp, sid)
    assert acp.call("nes/suggest", suggest_params(sid, version, cursor))["result"] == {"suggestions": []}
    assert model_server.count == 1
    acp.close()
    lines = [line for line in provider_lines(acp.stderr_until_closed()) if "provider next-edit: openai" not in line]
    assert len(lines) == 1 and logged in lines[0], lines


def test_repeated_failures_back_off(acp_factory: Any, model_server: ModelServer) -> None:
    model_server.script(*(Reply(status=503, body=b"{}") for _ in range(3)))
    acp = start_agent(acp_factory, "--provider-url", model_server.url)
    sid = acp.start_session(WORKSPACE)
    version, cursor = open_and_type(acp, sid)
    for n in range(1, 5):  # each time at a new version, so nothing is remembered
        typing = {"range": {"start": _wire(cursor), "end": _wire(cursor)}, "text": " "}
        if n > 1:
            version += 1
            acp.notify(
                "document/didChange", {"sessionId": sid, "uri": URI, "version": version, "contentChanges": [typing]}
            )
        assert acp.call("nes/suggest", suggest_params(sid, version, cursor))["result"] == {"suggestions": []}
    assert model_server.count == 3  # the fourth was not sent
    acp.close()
    assert any("3 failures in a row: not asked for 5 s" in line for line in acp.stderr_until_closed())


def test_credentials_reach_the_model_and_nothing_else(
    acp_factory: Any, model_server: ModelServer, state_dir: Path, tmp_path: Path
) -> None:
    model_server.responder = rewrite(MODEL_OLD, MODEL_NEW)
    log_file = tmp_path / "agent.log"
    acp = start_agent(acp_factory, "--log-level", "debug", "--log-file", str(log_file))
    set_provider(acp, model_server, {"Authorization": f"Bearer {SECRET}", "X-Api-Key": SECRET2})
    listed = acp.call("providers/list", {})
    sid = acp.start_session(WORKSPACE)
    version, cursor = open_and_type(acp, sid)
    (suggestion,) = acp.call("nes/suggest", suggest_params(sid, version, cursor))["result"]["suggestions"]
    acp.notify("nes/accept", {"sessionId": sid, "id": suggestion["id"]})
    # a failure is logged too: still no secret in it
    model_server.script(Reply(status=401, body=f'{{"error": "bad key {SECRET}"}}'.encode()))
    acp.notify("document/didChange", {"sessionId": sid, "uri": URI, "version": 3, "contentChanges": [{"text": TYPED}]})
    assert acp.call("nes/suggest", suggest_params(sid, 3, cursor))["result"] == {"suggestions": []}
    refused = acp.call(
        "providers/set", {"id": "next-edit", "apiType": "openai", "baseUrl": "x", "headers": {"K": SECRET}}
    )
    assert refused["error"]["code"] == -32602
    acp.close()
    stderr = "".join(acp.stderr_until_closed())

    first = model_server.next_request()
    assert first.headers["Authorization"] == f"Bearer {SECRET}" and first.headers["X-Api-Key"] == SECRET2
    assert "HTTP 401" in stderr  # the failure was logged …
    for secret in (SECRET, SECRET2):  # … and no secret anywhere
        assert secret not in json.dumps(listed) and secret not in json.dumps(refused)
        assert secret not in stderr
        assert secret not in log_file.read_text(encoding="utf-8")
        for path in state_dir.rglob("*"):
            if path.is_file():
                assert secret.encode() not in path.read_bytes(), path
    records = [json.loads(line) for line in (state_dir / "feedback.jsonl").read_text().splitlines()]
    assert [(r["action"], r["suggester"]) for r in records] == [("accept", "model:next-edit")]


def test_feedback_shows_acceptance_per_source(acp_factory: Any, model_server: ModelServer, state_dir: Path) -> None:
    model_server.responder = rewrite(MODEL_OLD, MODEL_NEW)
    acp = start_agent(acp_factory, "--provider-url", model_server.url)
    sid = acp.start_session(WORKSPACE)
    version, cursor = open_and_type(acp, sid)
    (suggestion,) = acp.call("nes/suggest", suggest_params(sid, version, cursor))["result"]["suggestions"]
    acp.notify("nes/reject", {"sessionId": sid, "id": suggestion["id"], "reason": "rejected"})
    # rejected: not offered again for the same text, and the model is not asked again for it
    assert acp.call("nes/suggest", suggest_params(sid, version, cursor))["result"] == {"suggestions": []}
    assert model_server.count == 1
    acp.close()
    done = subprocess.run(
        [sys.executable, "-m", "nextedit", "feedback", "--state-dir", str(state_dir), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    assert data["bySource"] == {"model:next-edit": {"accepted": 0, "total": 1, "rate": 0.0}}
    assert data["bySuggester"]["model:next-edit"]["reasons"] == {"rejected": 1}


# -- with no provider, nothing changes ---------------------------------------------------------------------------


def replay(acp: Any) -> list[Any]:
    """A short scripted session: a rename (synthesis answers), then a change it has nothing for."""
    sid = acp.start_session(WORKSPACE)
    other_uri = "file:///w/area.py"
    text = "def area(w, h):\n    size = w * h\n    return size\n"
    acp.notify(
        "document/didOpen", {"sessionId": sid, "uri": other_uri, "languageId": "python", "version": 1, "text": text}
    )
    rename = {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 8}}, "text": "total"}
    acp.notify("document/didChange", {"sessionId": sid, "uri": other_uri, "version": 2, "contentChanges": [rename]})
    answers = [acp.call("nes/suggest", suggest_params(sid, 2, Position(1, 9), other_uri))["result"]]
    version, cursor = open_and_type(acp, sid)
    answers.append(acp.call("nes/suggest", suggest_params(sid, version, cursor))["result"])
    return answers


def test_with_no_provider_nothing_changes(acp_factory: Any, model_server: ModelServer) -> None:
    model_server.responder = rewrite(MODEL_OLD, MODEL_NEW)
    plain = start_agent(acp_factory)
    disabled = start_agent(acp_factory, "--provider-url", model_server.url)
    assert disabled.call("providers/disable", {"id": "next-edit"})["result"] == {}
    answers = replay(plain)
    assert answers == replay(disabled)
    assert answers[0]["suggestions"] and answers[1] == {"suggestions": []}
    assert model_server.count == 0
