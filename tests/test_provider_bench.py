"""`nextedit bench --provider-url`: the same replay with a model behind the engine, scored per source.

The model is the scripted HTTP server of :mod:`tests.model_server`; the bench
is the real CLI driving the real agent (over stdio, and in-process).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nextedit.bench.events import Change, End, ExpectedEdit, Header, Open, Query, Session, session_to_jsonl
from nextedit.bench.wire import sha256_text
from nextedit.text import Document, PositionEncoding
from tests.model_server import ModelServer, rewrite

GREET = "file:///w/greet.py"
GREET_TEXT = 'def greet(name):\n    tag = "🐍漢"; msg = "hi " + name\n    return msg\n'
AREA = "file:///w/area.py"
AREA_TEXT = "def area(w, h):\n    size = w * h\n    return size\n"
UTF16 = PositionEncoding.UTF16


def pos(text: str, offset: int) -> dict[str, int]:
    p = Document("x", "", 0, text).position_at(offset, UTF16)
    return {"line": p.line, "character": p.character}


def span(text: str, start: int, end: int) -> dict[str, Any]:
    return {"start": pos(text, start), "end": pos(text, end)}


def model_session() -> Session:
    """``hi`` → ``hello``; the developer then adds ``.title()`` (the scripted model's guess)."""
    start = GREET_TEXT.index('"hi "') + 1
    typed = GREET_TEXT.replace('"hi "', '"hello "')
    at = typed.index(" + name") + len(" + name")
    final = typed[:at] + ".title()" + typed[at:]
    return Session(
        Header(trace="greet", tags=["ordinary"]),
        [
            Open(GREET, "python", 1, GREET_TEXT),
            Change(GREET, 2, [{"range": span(GREET_TEXT, start, start + 2), "text": "hello"}]),
            Query(
                GREET,
                2,
                pos(typed, start + len("hello")),
                "automatic",
                [ExpectedEdit("t1", GREET, span(typed, at, at), ".title()")],
                ["t1"],
            ),
            Change(GREET, 3, [{"range": span(typed, at, at), "text": ".title()"}]),
            End(sha256_text(final)),
        ],
    )


def synthesis_session() -> Session:
    """``size`` → ``total``: the engine renames the other occurrence itself."""
    renamed = AREA_TEXT.replace("size = ", "total = ")
    last = renamed.rindex("size")
    final = renamed.replace("size", "total")
    return Session(
        Header(trace="area", tags=["repetitive"]),
        [
            Open(AREA, "python", 1, AREA_TEXT),
            Change(AREA, 2, [{"range": span(AREA_TEXT, 20, 24), "text": "total"}]),
            Query(
                AREA,
                2,
                pos(renamed, 25),
                "automatic",
                [ExpectedEdit("r1", AREA, span(renamed, last, last + 4), "total")],
                ["r1"],
            ),
            Change(AREA, 3, [{"range": span(renamed, last, last + 4), "text": "total"}]),
            End(sha256_text(final)),
        ],
    )


def write_trace(path: Path, sessions: list[Session]) -> Path:
    lines = [json.dumps(ev) for s in sessions for ev in session_to_jsonl(s)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def bench(tmp_path: Path, *args: str) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    out, explain = tmp_path / "out.json", tmp_path / "explain.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "nextedit", "bench", *args, "--no-report", "--no-progress"]
        + ["--json", str(out), "--explain", str(explain)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "160"},
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in explain.read_text(encoding="utf-8").splitlines()]
    return json.loads(out.read_text(encoding="utf-8"))["metrics"], lines, done.stdout


@pytest.mark.parametrize("mode", [[], ["--in-process"]])
def test_bench_reports_precision_recall_and_latency_per_source(
    tmp_path: Path, model_server: ModelServer, mode: list[str]
) -> None:
    model_server.responder = rewrite('" + name\n', '" + name.title()\n')
    trace = write_trace(tmp_path / "t.jsonl", [model_session(), synthesis_session()])
    metrics, explain, table = bench(tmp_path, str(trace), "--provider-url", model_server.url, *mode)
    assert [line["source"] for line in explain] == ["model:next-edit", "synthesis"]
    assert [line["verdict"]["correct"] for line in explain] == [True, True]
    by_source = metrics["by_source"]
    assert set(by_source) == {"model:next-edit", "synthesis"}
    model = by_source["model:next-edit"]
    assert (model["answered"], model["correct"], model["precision"], model["recall_related"]) == (1, 1, 1.0, 0.5)
    assert model["latency_ms"]["count"] == 1
    assert by_source["synthesis"]["correct"] == 1
    assert (metrics["answered"], metrics["correct"], metrics["related_correct"]) == (2, 2, 2)
    assert "first suggestion by source" in table and "model:next-edit" in table
    assert model_server.count == 1


def untimed(value: Any) -> Any:
    """An explain line without its timings (the only thing a model may change when it adds nothing)."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in ("latencyMs", "cpuMs")}
    return value


def test_a_model_with_nothing_to_add_leaves_every_figure_as_it_was(tmp_path: Path, model_server: ModelServer) -> None:
    model_server.responder = rewrite("\0", "\0")  # the region back unchanged: no edit
    without, explain_without, table = bench(tmp_path)
    with_model, explain_with, _ = bench(tmp_path, "--provider-url", model_server.url)
    assert model_server.count > 0  # it was asked (whenever synthesis was silent)
    keys = ("queries", "answered", "correct", "related_correct", "silent_on_empty", "reversals", "jumps_correct")
    assert {k: with_model[k] for k in keys} == {k: without[k] for k in keys}
    assert [untimed(line) for line in explain_with] == [untimed(line) for line in explain_without]
    assert "first suggestion by source" not in table  # no provider: the report is as it was
