"""Trace readers: every shared trace replays exactly; VS Code and keystroke readers are faithful."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest

from nextedit.bench.events import Change, End, Open, Query, repository_name
from nextedit.bench.readers import (
    TraceError,
    load_sample,
    load_sessions,
    parse_nes_events,
    read_keystrokes,
    read_nes_trace,
    read_vscode_recording,
)
from nextedit.bench.replay import replay_mirror_only
from nextedit.bench.wire import apply_changes, range_offsets, sha256_text
from nextedit.text import Document

REPO = Path(__file__).resolve().parents[1]
# ../shared/traces beside the checkout, or wherever NEXTEDIT_SHARED_TRACES says (a worktree elsewhere)
SHARED = Path(os.environ.get("NEXTEDIT_SHARED_TRACES") or (REPO / ".." / "shared" / "traces")).resolve()
MINED = sorted((SHARED / "mined").glob("*.jsonl.gz")) if SHARED.exists() else []
RECORDINGS = (
    sorted(p.parent for p in (SHARED / "vscode-recordings").glob("*/recording.w.json")) if SHARED.exists() else []
)
KEYSTROKES = sorted((SHARED / "keystrokes").glob("*.json.gz")) if SHARED.exists() else []

_SHARED_PRESENT = pytest.mark.skipif(not SHARED.exists(), reason="../shared/traces not present")


def needs_shared(test: Any) -> Any:
    """A test that replays the shared recorded traces (whole repositories'
    sessions, keystroke logs): end-to-end, in the full lane only."""
    return pytest.mark.e2e(_SHARED_PRESENT(test))


@needs_shared
@pytest.mark.parametrize("path", MINED, ids=lambda p: p.name)
def test_every_mined_session_replays_to_its_final_hash(path: Path) -> None:
    sessions = read_nes_trace(path)
    assert len(sessions) >= 100
    for s in sessions:
        ok, _ = replay_mirror_only(s)
        assert ok is True, s.trace


@needs_shared
@pytest.mark.parametrize("path", MINED, ids=lambda p: p.name)
def test_expected_ranges_are_in_the_coordinates_of_each_query_version(path: Path) -> None:
    """Applying a query's expected edits must give the session's final text (mined traces)."""
    for s in read_nes_trace(path)[:40]:
        enc = s.header.encoding
        doc: Document | None = None
        final = next(e for e in s.events if isinstance(e, End)).sha256
        for ev in s.events:
            if isinstance(ev, Open):
                doc = Document(ev.uri, ev.language_id, ev.version, ev.text)
            elif isinstance(ev, Change):
                assert doc is not None
                apply_changes(doc, ev.content_changes, ev.version, enc)
            elif isinstance(ev, Query):
                assert doc is not None and doc.version == ev.version
                edits = sorted((range_offsets(doc, x.range, enc) + (x.new_text,) for x in ev.expected), reverse=True)
                text = doc.text
                for a, b, t in edits:
                    text = text[:a] + t + text[b:]
                assert sha256_text(text) == final, (s.trace, ev.version)


def _utf16_apply(text: str, edits: list) -> str:
    """An independent reference: apply VS Code offset edits on UTF-16 code units."""
    units = text.encode("utf-16-le", "surrogatepass")
    for s, e, t in sorted(edits, key=lambda x: x[0], reverse=True):
        units = units[: 2 * s] + t.encode("utf-16-le", "surrogatepass") + units[2 * e :]
    return units.decode("utf-16-le", "surrogatepass")


@needs_shared
@pytest.mark.parametrize("folder", RECORDINGS, ids=lambda p: p.name)
def test_vscode_reader_reproduces_the_document_states(folder: Path) -> None:
    rec = json.loads((folder / "recording.w.json").read_text(encoding="utf-8"))
    # reference states straight from the log, in UTF-16 units
    states: dict[int, str] = {}
    for ev in rec["log"]:
        if ev["kind"] == "setContent":
            states[ev["id"]] = ev["content"]
        elif ev["kind"] == "changed":
            states[ev["id"]] = _utf16_apply(states[ev["id"]], ev["edit"])
    session = read_vscode_recording(folder)
    ok, texts = replay_mirror_only(session)
    assert ok is True
    assert sorted(texts.values()) == sorted(states.values())
    # each didChange, replayed through LSP positions, gives the same intermediate states
    opened = [e for e in session.events if isinstance(e, Open)]
    assert len(opened) == len(states)
    queries = session.queries
    assert len(queries) == 1
    q = queries[0]
    if "nextUserEdit" in rec:
        assert q.expected
        docs = {u: Document(u, "x", 1, t) for u, t in texts.items()}
        doc = docs[q.uri]
        nue = rec["nextUserEdit"]["edit"]
        mine = sorted((range_offsets(doc, x.range, "utf-16") + (x.new_text,) for x in q.expected), reverse=True)
        text = doc.text
        for a, b, t in mine:
            text = text[:a] + t + text[b:]
        assert text == _utf16_apply(doc.text, nue)
    else:
        assert q.expected is None and q.graded


@needs_shared
def test_vscode_folder_of_recordings_and_known_state() -> None:
    sessions = load_sessions(SHARED / "vscode-recordings")
    assert len(sessions) == len(RECORDINGS) == 11
    point = next(s for s in sessions if s.trace.endswith("1-point.ts"))
    _, texts = replay_mirror_only(point)
    assert next(iter(texts.values())).startswith("class Point3D {")


@needs_shared
@pytest.mark.parametrize("path", KEYSTROKES, ids=lambda p: p.name)
def test_keystroke_trace_reaches_its_end_content(path: Path) -> None:
    session = read_keystrokes(path, every=500)  # raises if endContent is not reached
    data = json.loads(gzip.open(path, "rt", encoding="utf-8").read())
    changes = [e for e in session.events if isinstance(e, Change)]
    assert len(changes) == len(data["txns"])
    assert len(session.queries) == len(data["txns"]) // 500
    ok, texts = replay_mirror_only(session)  # through the wire positions
    assert ok is True and next(iter(texts.values())) == data["endContent"]


def test_bundled_sample_loads_and_replays() -> None:
    sessions = load_sample()
    assert 8 <= len(sessions) <= 16
    tags = {t for s in sessions for t in s.header.tags}
    orders = {s.header.order.split(":")[0] for s in sessions}
    assert {"repetitive", "ordinary"} <= tags and {"file", "random"} <= orders
    for s in sessions:
        assert replay_mirror_only(s)[0] is True
    sample = REPO / "src" / "nextedit" / "bench" / "sample"
    assert (sample / "flask-sample.jsonl.gz").stat().st_size < 300_000
    assert "Pallets" in (sample / "LICENSE.flask.txt").read_text(encoding="utf-8")


def test_nes_trace_reader_plain_and_gz(tmp_path: Path) -> None:
    events = [
        {
            "kind": "header",
            "trace": "t1",
            "format": "nes-trace/1",
            "positionEncoding": "utf-16",
            "source": {},
            "order": "file",
            "tags": ["x"],
        },
        {
            "kind": "open",
            "trace": "t1",
            "uri": "file:///a.txt",
            "languageId": "plaintext",
            "version": 1,
            "text": "a😀\nb",
        },
        {
            "kind": "change",
            "trace": "t1",
            "uri": "file:///a.txt",
            "version": 2,
            "contentChanges": [
                {"range": {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 3}}, "text": "c"}
            ],
            "cursor": {"line": 0, "character": 4},
        },
        {
            "kind": "query",
            "trace": "t1",
            "uri": "file:///a.txt",
            "version": 2,
            "position": {"line": 0, "character": 4},
            "triggerKind": "automatic",
            "expected": [],
            "related": [],
        },
        {"kind": "end", "trace": "t1", "sha256": sha256_text("a😀c\nb")},
    ]
    plain = tmp_path / "t.jsonl"
    plain.write_text("\n".join(json.dumps(e) for e in events) + "\n", encoding="utf-8")
    gz = tmp_path / "t.jsonl.gz"
    gz.write_bytes(gzip.compress(plain.read_bytes()))
    for p in (plain, gz):
        (s,) = load_sessions(p)
        assert s.header.tags == ["x"] and len(s.queries) == 1
        assert replay_mirror_only(s) == (True, {"file:///a.txt": "a😀c\nb"})


@needs_shared
def test_every_shared_set_names_its_repository() -> None:
    sets = sorted((SHARED / "mined").glob("*.jsonl.gz")) + sorted((SHARED / "train").glob("*.jsonl.gz"))
    assert len(sets) == 12
    names = set()
    for path in sets:
        repos = {s.header.repository for s in read_nes_trace(path)}
        assert len(repos) == 1 and "/" in next(iter(repos)), (path, repos)
        names |= repos
    assert {"pallets/flask", "BurntSushi/ripgrep", "jqlang/jq", "jhy/jsoup"} <= names and len(names) == 12


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ({"repo": "https://github.com/pallets/flask"}, "pallets/flask"),
        ({"repo": "https://github.com/pallets/flask.git"}, "pallets/flask"),
        ({"repo": "git@github.com:jqlang/jq.git"}, "jqlang/jq"),
        ({"repo": "ssh://git@example.org:2222/team/tool"}, "team/tool"),
        ({"repo": "demo"}, "demo"),
        ({"repo": ""}, "fallback"),
        ({}, "fallback"),
        (None, "fallback"),
    ],
)
def test_repository_names(source: dict | None, name: str) -> None:
    assert repository_name(source, "fallback") == name


def _header(trace: str = "t", **extra: object) -> dict:
    return {"kind": "header", "trace": trace, "format": "nes-trace/1", **extra}


def test_a_trace_without_a_repo_is_named_after_its_file(tmp_path: Path) -> None:
    path = tmp_path / "my-traces.jsonl.gz"
    path.write_bytes(gzip.compress((json.dumps(_header()) + "\n").encode()))
    (s,) = read_nes_trace(path)
    assert s.header.repository == "my-traces"


@pytest.mark.parametrize(
    ("events", "says"),
    [
        ([[1, 2]], "not a nes-trace/1 event"),
        ([{"trace": "t"}], 'no "kind"'),
        ([{"kind": "header"}], 'without its "trace"'),
        ([{"kind": "open", "trace": "t", "uri": "u", "version": 1, "text": ""}], "before its header"),
        ([_header(), {"kind": "open", "trace": "t", "uri": "u", "version": 1}], "without 'text'"),
        ([_header(), {"kind": "change", "trace": "t", "uri": "u", "version": "x", "contentChanges": []}], "malformed"),
        ([_header(), {"kind": "change", "trace": "t", "uri": "u", "version": 2, "contentChanges": {}}], "malformed"),
        ([_header(format="nes-trace/9")], "is not nes-trace/1"),
        ([], "no nes-trace/1 session"),
    ],
)
def test_what_is_not_a_trace_says_which_line_and_why(events: list, says: str) -> None:
    with pytest.raises(TraceError, match=says) as info:
        parse_nes_events(iter(events), "x.jsonl")
    assert str(info.value).startswith("x.jsonl")


def test_unknown_event_kinds_are_ignored() -> None:
    (s,) = parse_nes_events(iter([_header(), {"kind": "telemetry", "trace": "t"}]), "x.jsonl")
    assert s.events == []


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("a.jsonl", b"not json\n", "a.jsonl:1: not JSON"),
        ("a.py", b"import os\n", "not a trace"),
        ("a.json", b'{"kind": "header"}', 'without its "trace"'),  # sniffed as nes-trace/1, then refused
        ("a.json.gz", gzip.compress(b'{"txns": 3}', mtime=0), "malformed keystrokes trace"),
    ],
)
def test_load_sessions_refuses_what_it_cannot_read(tmp_path: Path, name: str, content: bytes, says: str) -> None:
    (tmp_path / name).write_bytes(content)
    with pytest.raises(TraceError, match=says) as info:
        load_sessions(tmp_path / name)
    assert name in str(info.value)


def test_an_empty_folder_is_not_a_trace(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="no traces in it"):
        load_sessions(tmp_path)
    with pytest.raises(TraceError, match="no such file"):
        load_sessions(tmp_path / "missing.jsonl")
