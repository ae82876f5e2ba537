"""The model behind the engine through the LSP bridge: a real `nextedit lsp` and a real HTTP server.

The provider comes from ``initializationOptions`` (or
``workspace/didChangeConfiguration``) as an editor sends it; the answer
arrives as ``textDocument/copilotInlineEdit`` in the negotiated encoding.
While the bridge waits for the model its loop reads on: a newer
``didChange`` or ``$/cancelRequest`` abandons the model's request, which the
server sees as a closed connection. Tests await messages; none sleeps.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nextedit.text import Document, Position, PositionEncoding
from tests.helpers.rpc import RpcProcess
from tests.model_server import ModelServer, Reply, rewrite

URI = "file:///w/greet.py"
TEXT = 'def greet(name):\n    tag = "🐍漢"; msg = "hi " + name\n    return msg\n'
TYPED = TEXT.replace('"hi "', '"hello "')
MODEL_OLD, MODEL_NEW = '" + name\n', '" + name.title()\n'
SECRET = "lsp-secret-91c2e7"


@pytest.fixture
def lsp_factory(state_dir: Path) -> Iterator[Any]:
    started: list[RpcProcess] = []

    def start(*extra: str) -> RpcProcess:
        argv = [sys.executable, "-m", "nextedit", "lsp", "--state-dir", str(state_dir), *extra]
        process = RpcProcess(argv, framing="lsp")
        started.append(process)
        return process

    yield start
    for process in started:
        if process.proc.poll() is None:
            process.close()
        assert not process.problems, process.problems


def initialize(lsp: RpcProcess, encoding: str, options: dict[str, Any] | None) -> PositionEncoding:
    params: dict[str, Any] = {
        "processId": None,
        "rootUri": "file:///w",
        "capabilities": {"general": {"positionEncodings": [encoding]}},
    }
    if options is not None:
        params["initializationOptions"] = options
    result = lsp.call("initialize", params)["result"]
    lsp.notify("initialized", {})
    return PositionEncoding(result["capabilities"]["positionEncoding"])


def open_and_type(lsp: RpcProcess, enc: PositionEncoding) -> Position:
    """Open ``TEXT`` and type ``hello`` over ``hi`` (version 2); the cursor after it."""
    lsp.notify(
        "textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": TEXT}}
    )
    doc = Document(URI, "python", 1, TEXT)
    start = TEXT.index('"hi "') + 1
    rng = {"start": wire(doc.position_at(start, enc)), "end": wire(doc.position_at(start + 2, enc))}
    lsp.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"range": rng, "text": "hello"}]},
    )
    return Document(URI, "python", 2, TYPED).position_at(start + len("hello"), enc)


def wire(position: Position) -> dict[str, int]:
    return {"line": position.line, "character": position.character}


def inline_edit_params(version: int, cursor: Position) -> dict[str, Any]:
    return {"textDocument": {"uri": URI, "version": version}, "position": wire(cursor)}


def apply(text: str, items: list[dict[str, Any]], enc: PositionEncoding) -> str:
    doc = Document("x", "", 0, text)
    spans = [
        (
            doc.offset_at(Position(**i["range"]["start"]), enc),
            doc.offset_at(Position(**i["range"]["end"]), enc),
            i["text"],
        )
        for i in items
    ]
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def provider_options(server: ModelServer, **extra: Any) -> dict[str, Any]:
    return {"nextedit": {"provider": {"url": server.url, **extra}}}


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_the_model_answers_copilot_inline_edit_when_synthesis_is_silent(
    lsp_factory: Any, model_server: ModelServer, tmp_path: Path, encoding: str
) -> None:
    model_server.responder = rewrite(MODEL_OLD, MODEL_NEW)
    log_file = tmp_path / "lsp.log"
    lsp = lsp_factory("--log-level", "debug", "--log-file", str(log_file))
    options = provider_options(model_server, headers={"Authorization": f"Bearer {SECRET}"})
    enc = initialize(lsp, encoding, options)
    cursor = open_and_type(lsp, enc)
    items = lsp.call("textDocument/copilotInlineEdit", inline_edit_params(2, cursor))["result"]["edits"]
    assert apply(TYPED, items, enc) == TYPED.replace(MODEL_OLD, MODEL_NEW)
    assert model_server.next_request().headers["Authorization"] == f"Bearer {SECRET}"
    # the code-action menu at the same text offers the model's edit without asking it again
    actions = lsp.call(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": URI},
            "range": {"start": wire(cursor), "end": wire(cursor)},
            "context": {"diagnostics": [], "only": ["refactor.rewrite"]},
        },
    )["result"]
    assert actions and model_server.count == 1
    lsp.call("shutdown")
    lsp.notify("exit")
    stderr = "".join(lsp.stderr_until_closed())
    assert "Language server initialized (params not logged" in stderr
    assert SECRET not in stderr and SECRET not in log_file.read_text(encoding="utf-8")


def start_held_inline_edit(lsp_factory: Any, model_server: ModelServer) -> tuple[Any, Position, Any]:
    """A server whose model holds its answer, and a ``copilotInlineEdit`` it is waiting on the model for:
    ``(lsp, cursor, request_id)``."""
    model_server.script(Reply("never", hold=True))
    lsp = lsp_factory()
    enc = initialize(lsp, "utf-16", provider_options(model_server, budgetMs=60_000))
    cursor = open_and_type(lsp, enc)
    request_id = lsp.request("textDocument/copilotInlineEdit", inline_edit_params(2, cursor))
    model_server.next_request()
    return lsp, cursor, request_id


def test_a_newer_change_abandons_the_model_request(lsp_factory: Any, model_server: ModelServer) -> None:
    lsp, cursor, request_id = start_held_inline_edit(lsp_factory, model_server)
    typing = {"range": {"start": wire(cursor), "end": wire(cursor)}, "text": "!"}
    lsp.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 3}, "contentChanges": [typing]})
    assert lsp.wait_for(request_id)["result"] == {"edits": []}
    assert model_server.next_disconnect() == "/v1/completions"


def test_cancel_request_abandons_the_model_request(lsp_factory: Any, model_server: ModelServer) -> None:
    lsp, cursor, request_id = start_held_inline_edit(lsp_factory, model_server)
    lsp.notify("$/cancelRequest", {"id": request_id})
    assert lsp.wait_for(request_id)["error"]["code"] == -32800
    assert model_server.next_disconnect() == "/v1/completions"
    # and the server goes on: the next request is answered (the model is asked anew)
    model_server.script(Reply(status=500, body=b"{}"))
    assert lsp.call("textDocument/copilotInlineEdit", inline_edit_params(2, cursor))["result"] == {"edits": []}


def test_configuration_turns_the_model_on_and_off(lsp_factory: Any, model_server: ModelServer) -> None:
    model_server.responder = rewrite(MODEL_OLD, MODEL_NEW)
    lsp = lsp_factory()
    enc = initialize(lsp, "utf-16", None)
    cursor = open_and_type(lsp, enc)
    assert lsp.call("textDocument/copilotInlineEdit", inline_edit_params(2, cursor))["result"] == {"edits": []}
    assert model_server.count == 0
    lsp.notify("workspace/didChangeConfiguration", {"settings": provider_options(model_server)})
    assert lsp.call("textDocument/copilotInlineEdit", inline_edit_params(2, cursor))["result"]["edits"]
    assert model_server.count == 1
    lsp.notify("workspace/didChangeConfiguration", {"settings": {"nextedit": {"provider": None}}})
    typing = {"range": {"start": wire(cursor), "end": wire(cursor)}, "text": " "}
    lsp.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 3}, "contentChanges": [typing]})
    assert lsp.call("textDocument/copilotInlineEdit", inline_edit_params(3, cursor))["result"] == {"edits": []}
    assert model_server.count == 1
