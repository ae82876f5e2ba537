"""The in-process agent (same dispatch as stdio) and the wire mapping of suggestion kinds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from nextedit.acp.inprocess import InProcessAgent
from nextedit.acp.wire import suggestion_to_wire
from nextedit.session import PlacedEdit, PlacedSuggestion
from nextedit.suggest.model import SuggestionKinds
from nextedit.text import Position, Range


def request(id: int, method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": params}


def test_in_process_round_trip(tmp_path: Path, schema_checker: Any) -> None:
    with InProcessAgent(tmp_path) as agent:
        (init,) = agent.send(
            request(1, "initialize", {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-32"]}})
        )
        assert init["result"]["agentCapabilities"]["positionEncoding"] == "utf-32"
        (start,) = agent.send(request(2, "nes/start", {}))
        sid = start["result"]["sessionId"]
        text = "def f(items):\n    total = 0\n    total += 1\n    return total\n"
        assert (
            agent.send(
                {
                    "jsonrpc": "2.0",
                    "method": "document/didOpen",
                    "params": {
                        "sessionId": sid,
                        "uri": "file:///a.py",
                        "languageId": "python",
                        "version": 1,
                        "text": text,
                    },
                }
            )
            == []
        )
        change = {
            "range": {"start": {"line": 3, "character": 11}, "end": {"line": 3, "character": 16}},
            "text": "amount",
        }
        assert (
            agent.send(
                {
                    "jsonrpc": "2.0",
                    "method": "document/didChange",
                    "params": {"sessionId": sid, "uri": "file:///a.py", "version": 2, "contentChanges": [change]},
                }
            )
            == []
        )
        (answer,) = agent.send(
            request(
                3,
                "nes/suggest",
                {
                    "sessionId": sid,
                    "uri": "file:///a.py",
                    "version": 2,
                    "position": {"line": 3, "character": 17},
                    "triggerKind": "automatic",
                },
            )
        )
        assert "result" in answer
        # raw lines work too, and bad ones answer like the stdio agent
        (parse_error,) = agent.send(b"{not json\n")
        assert parse_error["error"]["code"] == -32700
        (cancel_nothing,) = agent.send(request(4, "nes/close", {"sessionId": sid}))
        assert cancel_nothing["result"] == {}
        if schema_checker is not None:
            for message, method in ((init, "initialize"), (start, "nes/start"), (answer, "nes/suggest")):
                schema_checker.check(message, method)


def placed(kind: str, **kw: Any) -> PlacedSuggestion:
    edit = PlacedEdit(Range(Position(1, 2), Position(1, 7)), "amount")
    return PlacedSuggestion(id="s-9", kind=kind, uri="file:///a.py", version=2, edits=(edit,), **kw)


@pytest.mark.parametrize(
    ("kind", "extra", "kinds", "expected_kind"),
    [
        ("rename", {"position": Position(1, 2), "new_name": "amount"}, SuggestionKinds(rename=True), "rename"),
        ("rename", {"position": Position(1, 2), "new_name": "amount"}, SuggestionKinds(), "edit"),
        (
            "searchAndReplace",
            {"search": "total", "replace": "amount"},
            SuggestionKinds(search_and_replace=True),
            "searchAndReplace",
        ),
        ("searchAndReplace", {"search": "total", "replace": "amount"}, SuggestionKinds(rename=True), "edit"),
        ("jump", {"position": Position(4, 0)}, SuggestionKinds(jump=True), "jump"),
        ("jump", {"position": Position(4, 0)}, SuggestionKinds(rename=True, search_and_replace=True), None),
        ("edit", {"cursor_position": Position(1, 8)}, SuggestionKinds(), "edit"),
    ],
)
def test_kinds_follow_client_capabilities(
    kind: str, extra: dict[str, Any], kinds: SuggestionKinds, expected_kind: str | None, schema_checker: Any
) -> None:
    wire = suggestion_to_wire(placed(kind, **extra), kinds)
    if expected_kind is None:
        assert wire is None
        return
    assert wire is not None and wire["kind"] == expected_kind and wire["id"] == "s-9"
    if expected_kind == "edit":
        assert wire["edits"] == [
            {"range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 7}}, "newText": "amount"}
        ]
    if schema_checker is not None:
        schema_checker.check_def("NesSuggestion", wire)


def test_accept_takes_suggestion_id_alias(tmp_path: Path) -> None:
    with InProcessAgent(tmp_path) as agent:
        sid = agent.send(request(1, "nes/start", {}))[0]["result"]["sessionId"]
        agent.send({"jsonrpc": "2.0", "method": "nes/accept", "params": {"sessionId": sid, "suggestionId": "s-1"}})
        agent.send(
            {"jsonrpc": "2.0", "method": "nes/reject", "params": {"sessionId": sid, "id": "s-2", "reason": "ignored"}}
        )
        agent.send({"jsonrpc": "2.0", "method": "nes/accept", "params": {"sessionId": sid}})  # no id: dropped
    lines = (tmp_path / "feedback.jsonl").read_text().splitlines()
    assert len(lines) == 2
