"""Trace readers: nes-trace/1, VS Code workbench recordings, keystroke logs.

Each reader yields :class:`~nextedit.bench.events.Session` objects; the
replayer never sees the original formats.  Every session's header carries
the name of its source repository (``source.repo``, else the trace file's
name) for per-repository reports.

A file that is not a trace, or a trace that cannot be read, raises
:class:`TraceError` with one line saying which file and what is wrong; it
never turns into an empty or partial session.
"""

from __future__ import annotations

import gzip
import io
import json
import logging
import os
import posixpath
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from nextedit.bench.events import (
    Change,
    Close,
    End,
    Event,
    ExpectedEdit,
    Focus,
    GradedEdit,
    Header,
    Open,
    Query,
    Session,
    repository_name,
)
from nextedit.bench.wire import position_at, range_at, sha256_text
from nextedit.text import Document, PositionEncoding
from nextedit.text.encoding import cp_col_from

log = logging.getLogger(__name__)

# file extension → ACP/LSP languageId
EXTENSION_LANGUAGES = {
    ".py": "python",
    ".pyi": "python",
    ".ipynb": "python",
    ".rs": "rust",
    ".go": "go",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascriptreact",
    ".ts": "typescript",
    ".mts": "typescript",
    ".tsx": "typescriptreact",
    ".java": "java",
    ".c": "c",
    ".h": "cpp",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".rb": "ruby",
    ".cs": "csharp",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".scss": "scss",
    ".json": "json",
    ".md": "markdown",
    ".rst": "restructuredtext",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".sh": "shellscript",
    ".svelte": "svelte",
    ".vue": "vue",
    ".kt": "kotlin",
    ".swift": "swift",
    ".php": "php",
    ".lua": "lua",
    ".scala": "scala",
    ".txt": "plaintext",
    ".cfg": "ini",
    ".ini": "ini",
    ".sql": "sql",
}


class TraceError(ValueError):
    """A trace that cannot be read; the message names the file (and line) and what is wrong."""


def trace_stem(path: str | os.PathLike[str]) -> str:
    """A trace file's name without its extensions: ``flask.jsonl.gz`` → ``flask``."""
    name = Path(path).name
    for ext in (".jsonl.gz", ".json.gz", ".jsonl", ".w.json", ".json", ".gz"):
        if name.endswith(ext) and len(name) > len(ext):
            return name[: -len(ext)]
    return name


def language_for_path(path: str) -> str:
    return EXTENSION_LANGUAGES.get(posixpath.splitext(path.lower())[1], "plaintext")


def _open_text(path: Path) -> io.TextIOBase:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


# --------------------------------------------------------------------------
# nes-trace/1
# --------------------------------------------------------------------------
def _expected(d: dict) -> ExpectedEdit:
    return ExpectedEdit(id=str(d["id"]), uri=d["uri"], range=d["range"], new_text=d["newText"])


def _nes_event(ev: dict[str, Any], kind: str) -> Event | None:
    """One non-header event (``None`` for a kind this reader does not know: ignored)."""
    if kind == "open":
        return Open(ev["uri"], ev.get("languageId") or language_for_path(ev["uri"]), int(ev["version"]), ev["text"])
    if kind == "change":
        if not isinstance(ev["contentChanges"], list):
            raise TypeError("contentChanges is not a list")
        return Change(ev["uri"], int(ev["version"]), ev["contentChanges"], ev.get("cursor"))
    if kind == "focus":
        return Focus(ev["uri"], int(ev["version"]), ev["position"], ev["visibleRange"])
    if kind == "close":
        return Close(ev["uri"])
    if kind == "query":
        return Query(
            uri=ev["uri"],
            version=int(ev["version"]),
            position=ev["position"],
            trigger_kind=ev.get("triggerKind", "automatic"),
            expected=[_expected(x) for x in ev.get("expected", [])],
            related=[str(x) for x in ev.get("related", [])],
            selection=ev.get("selection"),
        )
    if kind == "end":
        return End(ev["sha256"], ev.get("uri"))
    return None


def parse_nes_events(lines: Iterator[dict[str, Any]], name: str = "<trace>") -> list[Session]:
    """Group nes-trace/1 event dicts into sessions (first appearance order).

    Raises :class:`TraceError` for a line that is not an event object, an
    event without ``kind``/``trace`` or lacking a field its kind needs, an
    event before its session's header, another format, or no session at all.
    Events of unknown kinds are ignored (a later version may add some).
    """
    sessions: dict[str, Session] = {}
    fallback = trace_stem(name)
    n = 0
    for n, ev in enumerate(lines, 1):
        if not isinstance(ev, dict):
            raise TraceError(f"{name}:{n}: not a nes-trace/1 event (a JSON object)")
        kind = ev.get("kind")
        trace = ev.get("trace")
        if not isinstance(kind, str):
            raise TraceError(f'{name}:{n}: not a nes-trace/1 event (no "kind")')
        if not isinstance(trace, str):
            raise TraceError(f'{name}:{n}: a {kind!r} event without its "trace" id')
        if kind == "header":
            fmt = ev.get("format", "nes-trace/1")
            if fmt != "nes-trace/1":
                raise TraceError(f"{name}:{n}: format {fmt!r} is not nes-trace/1")
            source = ev.get("source") or {}
            sessions[trace] = Session(
                Header(
                    trace=trace,
                    encoding=ev.get("positionEncoding") or PositionEncoding.UTF16,
                    source=source,
                    order=ev.get("order", "file"),
                    tags=list(ev.get("tags") or []),
                    format=fmt,
                    repository=repository_name(source, fallback),
                )
            )
            continue
        sess = sessions.get(trace)
        if sess is None:
            raise TraceError(f"{name}:{n}: a {kind!r} event of trace {trace!r} before its header")
        try:
            event = _nes_event(ev, kind)
        except KeyError as exc:
            raise TraceError(f"{name}:{n}: a {kind!r} event without {exc}") from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise TraceError(f"{name}:{n}: a malformed {kind!r} event: {exc}") from None
        if event is None:
            log.debug("%s:%d: unknown event kind %r ignored", name, n, kind)
        else:
            sess.events.append(event)
    if not sessions:
        raise TraceError(f"{name}: no nes-trace/1 session in it" + (" (empty file)" if n == 0 else ""))
    return list(sessions.values())


def _json_lines(lines: Iterator[str], name: str) -> Iterator[Any]:
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceError(f"{name}:{n}: not JSON ({exc.msg})") from None


def read_nes_trace(path: str | os.PathLike[str]) -> list[Session]:
    path = Path(path)
    try:
        with _open_text(path) as f:
            return parse_nes_events(_json_lines(iter(f), str(path)), str(path))
    except (UnicodeDecodeError, gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise TraceError(f"{path}: not a text trace ({type(exc).__name__})") from None


def read_nes_trace_bytes(data: bytes, name: str) -> list[Session]:
    try:
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        text = data.decode("utf-8")
    except (UnicodeDecodeError, gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise TraceError(f"{name}: not a text trace ({type(exc).__name__})") from None
    return parse_nes_events(_json_lines(iter(text.splitlines()), name), name)


# --------------------------------------------------------------------------
# VS Code workbench recordings
# --------------------------------------------------------------------------
def cp_from_utf16(text: str, offset: int) -> int:
    """Code point offset of a UTF-16 offset into ``text`` (clamped, snapped)."""
    return cp_col_from(text, offset, PositionEncoding.UTF16)


def _norm_path(p: str) -> str:
    return p.replace("\\", "/").lower()


def _match_doc(path: str, docs: dict[int, dict]) -> dict | None:
    """The recorded document whose path shares the longest suffix with ``path``."""
    want = [x for x in _norm_path(path).split("/") if x not in ("", ".", "..")]
    best, best_n = None, 0
    for d in docs.values():
        have = [x for x in _norm_path(d["path"]).split("/") if x]
        n = 0
        while n < min(len(want), len(have)) and want[-1 - n] == have[-1 - n]:
            n += 1
        if n > best_n:
            best, best_n = d, n
    return best


def _offset_edits(text: str, edit: list) -> list[tuple[int, int, str]]:
    return [(cp_from_utf16(text, int(s)), cp_from_utf16(text, int(e)), t) for s, e, t in edit]


def read_vscode_recording(path: str | os.PathLike[str], repository: str | None = None) -> Session:
    """Read ``recording.w.json`` (and a sibling ``scoredEdits.w.json``) into one session.

    Every document is opened with its ``setContent``; each ``changed`` becomes
    one ``didChange`` whose replacements (UTF-16 offsets against the document
    before the edit) are sent in descending order so that each applies to the
    result of the previous one; ``selectionChanged`` sets the cursor.  One
    query closes the session, on the document of ``nextUserEdit`` (else the
    last edited one) with ``nextUserEdit`` as the expected edits; the graded
    candidates of ``scoredEdits.w.json`` ride along on that query.
    """
    path = Path(path)
    if path.is_dir():
        path = path / "recording.w.json"
    rec = json.loads(path.read_text(encoding="utf-8"))
    name = path.parent.name
    enc = PositionEncoding.UTF16
    docs: dict[int, dict] = {}  # id → {path, uri, mirror, cursor_cp, opened}
    sess = Session(
        Header(
            trace=f"vscode:{name}",
            encoding=enc,
            order="recorded",
            tags=["vscode"],
            source={"path": name, "license": "MIT"},
            format="vscode-recording",
            kind="vscode",
            repository=repository or name,
        )
    )
    last_doc: dict | None = None

    def doc_for(ev: dict) -> dict:
        doc_id = ev["id"]
        if doc_id not in docs:
            p = ev.get("relativePath") or f"doc{doc_id}"
            docs[doc_id] = {
                "path": p,
                "uri": "file:///" + p.replace("\\", "/").lstrip("/"),
                "mirror": None,
                "cursor": None,
                "version": 0,
            }
        return docs[doc_id]

    for ev in rec.get("log", []):
        kind = ev.get("kind")
        if kind == "documentEncountered":
            doc_for(ev)
        elif kind == "setContent":
            d = doc_for(ev)
            content = ev["content"]
            if d["mirror"] is None:
                d["version"] = 1
                mirror = Document(d["uri"], language_for_path(d["path"]), 1, content)
                d["mirror"] = mirror
                sess.events.append(Open(d["uri"], mirror.language_id, 1, content))
            else:
                d["version"] += 1
                d["mirror"].set_text(content, d["mirror"].version)
                sess.events.append(Change(d["uri"], d["version"], [{"text": content}], None))
        elif kind == "changed":
            d = doc_for(ev)
            m: Document | None = d["mirror"]
            if m is None:
                log.warning("%s: change before content for doc %s ignored", name, ev["id"])
                continue
            reps = sorted(_offset_edits(m.text, ev["edit"]), key=lambda r: (r[0], r[1]))
            changes = []
            for s, e, t in reversed(reps):  # descending: earlier offsets stay valid
                changes.append({"range": range_at(m, s, e, enc), "text": t})
                m.replace(s, e, t)
            if reps:  # caret after the last replacement, in the new text
                s, e, t = reps[-1]
                shift = sum(len(t2) - (e2 - s2) for s2, e2, t2 in reps[:-1])
                d["cursor"] = s + shift + len(t)
            d["version"] += 1
            cursor = position_at(m, d["cursor"], enc) if d["cursor"] is not None else None
            sess.events.append(Change(d["uri"], d["version"], changes, cursor))
            last_doc = d
        elif kind == "selectionChanged":
            d = doc_for(ev)
            sel = ev.get("selection") or []
            if sel and d["mirror"] is not None:
                d["cursor"] = cp_from_utf16(d["mirror"].text, int(sel[0][1]))
        # "meta", "header", "opened", "closed", … carry nothing to replay

    nue = rec.get("nextUserEdit")
    target = None
    if nue is not None:
        target = _match_doc(nue.get("relativePath", ""), docs)
    if target is None:
        target = last_doc or next((d for d in docs.values() if d["mirror"] is not None), None)
    if target is None or target["mirror"] is None:
        return sess
    m = target["mirror"]
    cursor_cp = target["cursor"] if target["cursor"] is not None else 0
    expected = None
    if nue is not None:
        expected = [
            ExpectedEdit(f"n{i}", target["uri"], range_at(m, s, e, enc), t)
            for i, (s, e, t) in enumerate(_offset_edits(m.text, nue["edit"]))
        ]
    graded = None
    scored_path = path.parent / "scoredEdits.w.json"
    if scored_path.exists():
        scored = json.loads(scored_path.read_text(encoding="utf-8"))
        graded = []
        for item in scored.get("edits", []):
            gd = _match_doc(item.get("documentUri", ""), docs) or target
            if gd["mirror"] is None:
                continue
            edits = None if item.get("edit") is None else _offset_edits(gd["mirror"].text, item["edit"])
            graded.append(GradedEdit(item.get("scoreCategory", "bad"), gd["uri"], edits))
    sess.events.append(
        Query(
            uri=target["uri"],
            version=target["version"],
            position=position_at(m, cursor_cp, enc),
            trigger_kind="automatic",
            expected=expected,
            related=[],
            graded=graded,
        )
    )
    for d in docs.values():
        if d["mirror"] is not None:
            sess.events.append(End(sha256_text(d["mirror"].text), d["uri"]))
    return sess


# --------------------------------------------------------------------------
# keystroke traces (josephg/editing-traces)
# --------------------------------------------------------------------------
def _keystroke_language(name: str) -> tuple[str, str]:
    low = name.lower()
    for key, (lang, ext) in {
        "rust": ("rust", ".rs"),
        "svelte": ("svelte", ".svelte"),
        "python": ("python", ".py"),
        "typescript": ("typescript", ".ts"),
        "javascript": ("javascript", ".js"),
    }.items():
        if key in low:
            return lang, ext
    return "plaintext", ".txt"


def read_keystrokes(path: str | os.PathLike[str], every: int = 10, max_txns: int | None = None) -> Session:
    """A keystroke trace as one session: a ``didChange`` per transaction, a query every ``every``.

    Positions are code points; patches within a transaction are in descending
    order, each applied to the result of the previous one.  Queries carry no
    ground truth (``expected=None``): they measure latency under real typing.
    """
    path = Path(path)
    with _open_text(path) as f:
        data = json.load(f)
    stem = path.name.split(".")[0]
    lang, ext = _keystroke_language(stem)
    uri = f"file:///keystrokes/{stem}{ext}"
    enc = PositionEncoding.UTF16
    m = Document(uri, lang, 1, data.get("startContent", ""))
    sess = Session(
        Header(
            trace=f"keystrokes:{stem}",
            encoding=enc,
            order="recorded",
            tags=["keystrokes"],
            source={"path": path.name, "license": "CC-BY-4.0"},
            format="keystrokes",
            kind="keystrokes",
            repository=trace_stem(path),
        )
    )
    sess.events.append(Open(uri, lang, 1, m.text))
    version = 1
    txns = data["txns"] if max_txns is None else data["txns"][:max_txns]
    for n, txn in enumerate(txns, 1):
        changes = []
        cursor = None
        for pos, dele, ins in txn["patches"]:
            pos = int(pos)
            changes.append({"range": range_at(m, pos, pos + int(dele), enc), "text": ins})
            m.replace(pos, pos + int(dele), ins)
            cursor = pos + len(ins)  # the last (lowest) patch is not shifted by the others
        version += 1
        pos_wire = position_at(m, cursor or 0, enc)
        sess.events.append(Change(uri, version, changes, pos_wire))
        if every > 0 and n % every == 0:
            sess.events.append(Query(uri, version, pos_wire, "automatic", None, []))
    if max_txns is None and "endContent" in data and m.text != data["endContent"]:
        raise ValueError(f"{path}: replaying the transactions does not give endContent")
    sess.events.append(End(sha256_text(m.text), uri))
    return sess


# --------------------------------------------------------------------------
# dispatch
# --------------------------------------------------------------------------
TRACE_KINDS = (
    "a nes-trace/1 file (.jsonl or .jsonl.gz), a VS Code recording (a folder with recording.w.json, "
    "or the file), a folder of those, or a keystroke trace (.json[.gz] with startContent and txns)"
)


def sniff_kind(path: Path) -> str:
    """``nes-trace`` | ``vscode`` | ``keystrokes`` | ``vscode-dir`` for a path; :class:`TraceError` otherwise."""
    if not path.exists():
        raise TraceError(f"{path}: no such file or directory")
    if path.is_dir():
        if (path / "recording.w.json").exists():
            return "vscode"
        if any(
            (sub / "recording.w.json").exists() or sub.name.endswith((".jsonl", ".jsonl.gz")) for sub in path.iterdir()
        ):
            return "vscode-dir"
        raise TraceError(f"{path}: a folder with no traces in it (expected {TRACE_KINDS})")
    name = path.name
    if name.endswith(".w.json"):
        return "vscode"
    if name.endswith((".jsonl", ".jsonl.gz")):
        return "nes-trace"
    try:
        with _open_text(path) as f:
            head = f.read(400)
    except (OSError, UnicodeDecodeError, EOFError, zlib.error) as exc:
        raise TraceError(f"{path}: not a trace ({type(exc).__name__}); expected {TRACE_KINDS}") from None
    start = head.lstrip()
    if start.startswith("{") and ('"startContent"' in head or '"txns"' in head):
        return "keystrokes"
    if start.startswith("{") and '"kind"' in head.split("\n", 1)[0]:
        return "nes-trace"
    raise TraceError(f"{path}: not a trace; expected {TRACE_KINDS}")


def load_sessions(
    path: str | os.PathLike[str], *, keystroke_every: int = 10, keystroke_max_txns: int | None = None
) -> list[Session]:
    """Read any supported trace file or folder into sessions (:class:`TraceError` when it cannot)."""
    p = Path(path)
    kind = sniff_kind(p)
    try:
        if kind == "vscode":
            return [read_vscode_recording(p)]
        if kind == "vscode-dir":
            out = []
            for sub in sorted(p.iterdir()):
                if (sub / "recording.w.json").exists():
                    out.append(read_vscode_recording(sub, repository=trace_stem(p)))
                elif sub.name.endswith((".jsonl", ".jsonl.gz")):
                    out.extend(read_nes_trace(sub))
            return out
        if kind == "keystrokes":
            return [read_keystrokes(p, keystroke_every, keystroke_max_txns)]
        return read_nes_trace(p)
    except TraceError:
        raise
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise TraceError(f"{p}: cannot be read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise TraceError(f"{p}: not JSON ({exc.msg}, line {exc.lineno})") from None
    except KeyError as exc:
        raise TraceError(f"{p}: a {kind} trace without {exc}") from None
    except (ValueError, TypeError, AttributeError, IndexError) as exc:
        raise TraceError(f"{p}: a malformed {kind} trace: {exc}") from None


def load_sample() -> list[Session]:
    """The small trace sample shipped inside the package (cut from pallets/flask, BSD-3)."""
    from importlib import resources

    res = resources.files("nextedit.bench").joinpath(f"sample/{SAMPLE_NAME}")
    return read_nes_trace_bytes(res.read_bytes(), SAMPLE_NAME)


SAMPLE_NAME = "flask-sample.jsonl.gz"
