"""The internal event stream every trace reader produces and the replayer consumes.

It mirrors nes-trace/1 (see ``docs/trace-format.md``): positions and
ranges stay wire dicts (``{"line", "character"}``) in the session's
``encoding``; content changes stay ACP ``TextDocumentContentChangeEvent``
dicts.  Readers of other formats (VS Code recordings, keystroke logs, git
history) convert into these types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class ExpectedEdit:
    """One edit the developer still made after a query (docs/trace-format.md "Ground truth")."""

    id: str
    uri: str
    range: dict
    new_text: str

    def to_json(self) -> dict:
        return {"id": self.id, "uri": self.uri, "range": self.range, "newText": self.new_text}


@dataclass(slots=True)
class GradedEdit:
    """A candidate next edit graded by a human (VS Code ``scoredEdits.w.json``).

    ``edits`` are ``(start, end, newText)`` in code point offsets of the
    document ``uri`` at the query's version, or ``None`` for "no edit".
    """

    category: str  # "nextEdit" | "valid" | "bad"
    uri: str
    edits: list[tuple[int, int, str]] | None


@dataclass(slots=True)
class Header:
    trace: str
    encoding: str = "utf-16"
    source: dict = field(default_factory=dict)
    order: str = "file"
    tags: list[str] = field(default_factory=list)
    format: str = "nes-trace/1"
    kind: str = "nes-trace"  # reader that produced it: nes-trace | vscode | keystrokes
    repository: str = ""  # the source repository reports group by (see repository_name)


_URL_HOST = re.compile(r"^(?:[a-z][a-z0-9+.-]*://(?:[^/@]*@)?[^/]+/|[^/@:]+@[^/:]+:)", re.I)


def repository_name(source: dict[str, Any] | None, fallback: str) -> str:
    """The name reports use for a session's source repository.

    ``source.repo`` without its scheme, host and ``.git``
    (``https://github.com/pallets/flask`` → ``pallets/flask``,
    ``git@github.com:jqlang/jq.git`` → ``jqlang/jq``); ``fallback`` (the trace
    file's name) when the header names no repository.
    """
    repo = str((source or {}).get("repo") or "").strip()
    if not repo:
        return fallback
    name = _URL_HOST.sub("", repo).removesuffix("/").removesuffix(".git")
    return name or fallback


@dataclass(slots=True)
class Open:
    uri: str
    language_id: str
    version: int
    text: str


@dataclass(slots=True)
class Change:
    uri: str
    version: int
    content_changes: list[dict]
    cursor: dict | None = None


@dataclass(slots=True)
class Focus:
    uri: str
    version: int
    position: dict
    visible_range: dict


@dataclass(slots=True)
class Close:
    uri: str


@dataclass(slots=True)
class Query:
    """Ask for a suggestion now.

    ``expected is None`` means the trace has no ground truth for this query
    (keystroke traces; VS Code recordings without ``nextUserEdit``): it is
    replayed and timed but left out of precision/recall/silence.
    """

    uri: str
    version: int
    position: dict
    trigger_kind: str = "automatic"
    expected: list[ExpectedEdit] | None = None
    related: list[str] = field(default_factory=list)
    graded: list[GradedEdit] | None = None
    selection: dict | None = None


@dataclass(slots=True)
class End:
    sha256: str
    uri: str | None = None


Event = Open | Change | Focus | Close | Query | End


@dataclass(slots=True)
class Session:
    header: Header
    events: list[Event] = field(default_factory=list)

    @property
    def trace(self) -> str:
        return self.header.trace

    @property
    def queries(self) -> list[Query]:
        return [e for e in self.events if isinstance(e, Query)]

    @property
    def language(self) -> str:
        for e in self.events:
            if isinstance(e, Open):
                return e.language_id
        return "unknown"


def session_to_jsonl(session: Session) -> list[dict[str, Any]]:
    """Serialise a session back to nes-trace/1 event dicts (used by the miner)."""
    h = session.header
    t = h.trace
    out: list[dict[str, Any]] = [
        {
            "kind": "header",
            "trace": t,
            "format": "nes-trace/1",
            "positionEncoding": h.encoding,
            "source": h.source,
            "order": h.order,
            "tags": h.tags,
        }
    ]
    for e in session.events:
        if isinstance(e, Open):
            out.append(
                {
                    "kind": "open",
                    "trace": t,
                    "uri": e.uri,
                    "languageId": e.language_id,
                    "version": e.version,
                    "text": e.text,
                }
            )
        elif isinstance(e, Change):
            d = {"kind": "change", "trace": t, "uri": e.uri, "version": e.version, "contentChanges": e.content_changes}
            if e.cursor is not None:
                d["cursor"] = e.cursor
            out.append(d)
        elif isinstance(e, Focus):
            out.append(
                {
                    "kind": "focus",
                    "trace": t,
                    "uri": e.uri,
                    "version": e.version,
                    "position": e.position,
                    "visibleRange": e.visible_range,
                }
            )
        elif isinstance(e, Query):
            out.append(
                {
                    "kind": "query",
                    "trace": t,
                    "uri": e.uri,
                    "version": e.version,
                    "position": e.position,
                    "triggerKind": e.trigger_kind,
                    "expected": [x.to_json() for x in (e.expected or [])],
                    "related": list(e.related),
                }
            )
        elif isinstance(e, End):
            d = {"kind": "end", "trace": t, "sha256": e.sha256}
            if e.uri:
                d["uri"] = e.uri
            out.append(d)
    return out
