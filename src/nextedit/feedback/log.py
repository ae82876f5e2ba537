"""The accept/reject log: one JSON line per piece of feedback, durable against process death.

Owns the file format of ``feedback.jsonl`` and the counters derived from it
(acceptance per suggester, per kind). Each record is written with a single
``os.write`` on a descriptor opened with ``O_APPEND`` before :meth:`record`
returns, so once ``record`` has returned the line is in the kernel: a
``kill -9`` of the process right after loses nothing. Surviving a machine
crash needs ``fsync=True`` (off by default: it costs milliseconds per record).
Several processes (ACP and LSP front ends) may append to the same file; each
record is one ``write`` of one line, which ``O_APPEND`` keeps whole.

On start the existing file is read to seed the counters; a torn last line
(the writer died mid-line, or a crash lost a page) is skipped and a newline
is written so the next record starts on a line of its own.

Must not know: sessions, the wire protocol, the engine's internals. A
suggestion arrives here as an already JSON-ready ``dict``.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["FEEDBACK_FILE", "FeedbackLog", "default_state_dir", "read_records"]

log = logging.getLogger(__name__)

FEEDBACK_FILE = "feedback.jsonl"
_ACTIONS = ("accept", "reject")


def default_state_dir() -> Path:
    """``$XDG_STATE_HOME/nextedit``, else ``~/.local/state/nextedit``."""
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "nextedit"


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """The well-formed records of a feedback file, oldest first; torn or foreign lines skipped."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    for number, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            log.warning("%s:%d: unreadable feedback line skipped", path, number)
            continue
        if isinstance(record, dict) and record.get("action") in _ACTIONS:
            yield record


class _Tally:
    __slots__ = ("accepted", "total")

    def __init__(self) -> None:
        self.accepted = 0
        self.total = 0

    def add(self, action: str) -> None:
        self.total += 1
        if action == "accept":
            self.accepted += 1


class FeedbackLog:
    """Append-only JSONL feedback log with in-memory acceptance counters."""

    def __init__(self, path: Path | str, *, fsync: bool = False) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self._lock = threading.Lock()
        self._by_suggester: defaultdict[str, _Tally] = defaultdict(_Tally)
        self._by_kind: defaultdict[str, _Tally] = defaultdict(_Tally)
        for record in read_records(self.path):
            self._count(record)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._repair_torn_tail()

    def _repair_torn_tail(self) -> None:
        size = os.fstat(self._fd).st_size
        if size == 0:
            return
        with open(self.path, "rb") as f:
            f.seek(size - 1)
            if f.read(1) != b"\n":
                os.write(self._fd, b"\n")

    def _count(self, record: dict[str, Any]) -> None:
        action = record["action"]
        self._by_kind[str(record.get("kind") or "unknown")].add(action)
        suggester = record.get("suggester")
        if suggester:
            self._by_suggester[str(suggester)].add(action)

    # -- writing -------------------------------------------------------------

    def record(
        self,
        *,
        session: str,
        action: str,
        suggestion_id: str,
        reason: str | None,
        kind: str | None,
        suggester: str | None,
        uri: str | None,
        suggestion: dict[str, Any] | None,
    ) -> None:
        """Append one record; it is in the kernel (or on disk with ``fsync``) on return."""
        if action not in _ACTIONS:
            raise ValueError(f"feedback action must be accept or reject, not {action!r}")
        record = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "session": session,
            "action": action,
            "suggestionId": suggestion_id,
            "kind": kind,
            "suggester": suggester,
            "reason": reason,
            "uri": uri,
            "suggestion": suggestion,
        }
        # ensure_ascii: lone surrogates from JSON input stay representable
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode("ascii")
        with self._lock:
            view = memoryview(line)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            if self.fsync:
                os.fsync(self._fd)
            self._count(record)

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1

    def __enter__(self) -> FeedbackLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -------------------------------------------------------------

    def acceptance_rate(self, suggester: str) -> float | None:
        """Accepted / (accepted + rejected) for a suggester; ``None`` without feedback."""
        tally = self._by_suggester.get(suggester)
        if tally is None or tally.total == 0:
            return None
        return tally.accepted / tally.total

    def acceptance_by_kind(self) -> dict[str, tuple[int, int]]:
        """``kind -> (accepted, total)``; suggestions unknown to the session count as ``unknown``."""
        return {kind: (t.accepted, t.total) for kind, t in sorted(self._by_kind.items())}

    def acceptance_by_suggester(self) -> dict[str, tuple[int, int]]:
        return {name: (t.accepted, t.total) for name, t in sorted(self._by_suggester.items())}
