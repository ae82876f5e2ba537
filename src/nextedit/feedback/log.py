"""The accept/reject log: one bounded JSON line per piece of feedback, durable against process death.

Owns the file format of ``feedback.jsonl``, its rotation, and keeping
:class:`~nextedit.feedback.stats.FeedbackStats` (what the ranker reads) in
step with it.

- **Durable.** A record is one ``os.write`` of one line on a descriptor
  opened with ``O_APPEND``, done before :meth:`FeedbackLog.record` returns:
  a ``kill -9`` right after loses nothing. Surviving a machine crash needs
  ``fsync=True`` (off by default: it costs milliseconds per record).
- **Bounded.** A record holds who/what/when and a :class:`FeedbackSubject` —
  kind, suggester, uri, a digest of the engine's fingerprint, edit and
  character counts, the first range — never the suggestion's text; strings
  the client chose are cut (a record stays well under 4 KB).
- **Rotated.** Past :data:`MAX_BYTES` the file becomes ``feedback.jsonl.1``
  (the previous ``.1`` becomes ``.2``, the previous ``.2`` goes).
- **Cheap to open.** Counts come from ``feedback.summary.json`` plus the lines
  after the offset it records (see :mod:`nextedit.feedback.stats`); a log
  without a summary is read from its last few hundred KB only.
- **Shared.** Several processes (ACP and LSP front ends) may use one state
  directory: appending, catching up and rotating happen under an exclusive
  ``flock`` on ``feedback.lock``, so counts and rotation stay consistent.

:func:`open_feedback_log` is how every front end opens it: a state directory
that cannot be created or written costs one logged line and no feedback,
never the front end.

Must not know: sessions, the wire protocol, the engine's internals.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from nextedit.feedback.stats import TAIL_BYTES, FeedbackStats, LogPosition, parse_lines
from nextedit.text import Range

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: one process per state directory
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "FEEDBACK_FILE",
    "MAX_BYTES",
    "FeedbackLog",
    "FeedbackSubject",
    "default_state_dir",
    "open_feedback_log",
    "read_records",
    "read_stats",
]

log = logging.getLogger(__name__)

FEEDBACK_FILE = "feedback.jsonl"
SUMMARY_FILE = "feedback.summary.json"
LOCK_FILE = "feedback.lock"
# rotate past this size; keep this many older files (feedback.jsonl.1, .2)
MAX_BYTES = 10 * 1024 * 1024
KEEP = 2
_ACTIONS = ("accept", "reject")
# longest kept value of strings the client or the document chose
_ID_MAX = 128
_URI_MAX = 1024


@dataclass(frozen=True, slots=True)
class FeedbackSubject:
    """What a piece of feedback is about: a bounded summary of one suggestion.

    ``fingerprint`` is the engine's (it names the change, so it may quote
    code): the log keeps only a digest of it. ``first_range`` is the first
    edit's range (a jump or rename without edits: its position), in the
    session's position encoding.
    """

    kind: str
    suggester: str
    uri: str
    fingerprint: str
    edit_count: int
    inserted_chars: int
    first_range: Range | None


def default_state_dir() -> Path:
    """``$XDG_STATE_HOME/nextedit``, else ``~/.local/state/nextedit``."""
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "nextedit"


def open_feedback_log(state_dir: Path | None = None, *, fsync: bool = False) -> FeedbackLog | None:
    """The feedback log in ``state_dir`` (default :func:`default_state_dir`), or
    ``None`` after one logged line when it cannot be created or opened — the
    caller goes on without recording feedback."""
    try:
        directory = state_dir if state_dir is not None else default_state_dir()
    except (RuntimeError, KeyError) as exc:  # Path.home() without HOME or a passwd entry
        log.error("no state directory (%s): accept/reject will not be recorded", exc)
        return None
    try:
        return FeedbackLog(directory / FEEDBACK_FILE, fsync=fsync)
    except OSError as exc:
        log.error(
            "feedback log unavailable in %s (%s): accept/reject will not be recorded",
            directory,
            exc.strerror or exc,
        )
        return None


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """Every well-formed record of one feedback file, oldest first (reads it whole)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    yield from parse_lines(data, origin=str(path))


def read_stats(path: Path) -> FeedbackStats:
    """Every count the log at ``path`` holds, for reports: read-only, not bounded.

    The summary plus the lines after its offset; without a summary that
    describes this file, the retained files (``.2``, ``.1``, the log) whole.
    """
    stats = FeedbackStats.load(path.with_name(SUMMARY_FILE))
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        stat = None
    position = stats.position if stats is not None else None
    if stats is not None and position is not None and stat is not None and position.same_file(stat):
        with open(path, "rb") as f:
            f.seek(min(position.offset, stat.st_size))
            data = f.read()
        stats.count_all(parse_lines(data, origin=str(path)))
        return stats
    stats = FeedbackStats()
    for n in range(KEEP, 0, -1):
        stats.count_all(read_records(rotated(path, n)))
    stats.count_all(read_records(path))
    return stats


def rotated(path: Path, n: int) -> Path:
    """The ``n``-th older file of the log at ``path`` (``feedback.jsonl.1`` …)."""
    return path.with_name(f"{path.name}.{n}")


class FeedbackLog:
    """Append-only JSONL feedback log with the acceptance counts it implies."""

    def __init__(self, path: Path | str, *, fsync: bool = False, max_bytes: int = MAX_BYTES) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self.max_bytes = max_bytes
        self.summary_path = self.path.with_name(SUMMARY_FILE)
        self._lock = threading.Lock()
        self._write_failed = False
        self._summary_failed = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock_fd = os.open(self.path.with_name(LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o644)
        self._fd = -1
        try:
            with self._exclusive():
                self._fd = self._open_log()
                self.stats = self._load_stats()
                self._catch_up()
                self._repair_torn_tail()
                self._rotate_if_full()
                self._save_stats()
                self._remove_stale_temporaries()
        except BaseException:
            self.close()
            raise

    # -- opening ---------------------------------------------------------------

    def _open_log(self) -> int:
        return os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _load_stats(self) -> FeedbackStats:
        stats = FeedbackStats.load(self.summary_path)
        if stats is not None and stats.position is not None:
            return stats
        # first start, or a log an older nextedit wrote without a summary
        stat = os.fstat(self._fd)
        start = max(0, stat.st_size - TAIL_BYTES)
        fresh = stats or FeedbackStats()
        fresh.position = LogPosition.of(stat, start)
        if start:
            log.info("feedback log %s has no summary: counting its last %d bytes", self.path, stat.st_size - start)
        return fresh

    def _catch_up(self) -> None:
        """Count the lines past the summary's offset (bounded by :data:`TAIL_BYTES`)."""
        stat = os.fstat(self._fd)
        position = self.stats.position
        if position is None or not position.same_file(stat) or position.offset > stat.st_size:
            # the log the summary describes was rotated away or replaced: it is
            # counted already; this one is new to us
            position = LogPosition.of(stat, 0)
        self.stats.position = self._count_from(position, stat.st_size)

    def _count_from(self, position: LogPosition, end: int) -> LogPosition:
        """Count the whole lines in ``[position.offset, end)`` — its last
        :data:`TAIL_BYTES` when there is more — and say where counting stopped."""
        start = position.offset
        if end - start > TAIL_BYTES:
            log.info(
                "feedback log %s: %d bytes not yet counted, counting the last %d", self.path, end - start, TAIL_BYTES
            )
            start = end - TAIL_BYTES
        if start >= end:
            return LogPosition(position.device, position.inode, max(start, end))
        read_from = max(start - 1, 0)  # one byte more tells whether ``start`` begins a line
        with open(self.path, "rb") as f:
            f.seek(read_from)
            data = f.read(end - read_from)
        if start > 0:
            if data[:1] == b"\n":
                data = data[1:]
            else:  # mid-line: the partial first line is not ours to count
                first_break = data.find(b"\n")
                data = data[first_break + 1 :] if first_break >= 0 else b""
        start = end - len(data)
        whole = data.rfind(b"\n") + 1  # a torn last line waits for its end (or the repair)
        self.stats.count_all(parse_lines(data[:whole], origin=str(self.path)))
        return LogPosition(position.device, position.inode, start + whole)

    def _repair_torn_tail(self) -> None:
        """A last line without its newline (the writer died mid-line) is closed off."""
        size = os.fstat(self._fd).st_size
        if size == 0:
            return
        with open(self.path, "rb") as f:
            f.seek(size - 1)
            if f.read(1) == b"\n":
                return
        os.write(self._fd, b"\n")
        position = self.stats.position
        if position is not None:
            self.stats.position = LogPosition(position.device, position.inode, size + 1)

    # -- locking and rotation --------------------------------------------------

    def _exclusive(self) -> _FileLock:
        return _FileLock(self._lock_fd)

    def _follow_rotation(self) -> None:
        """Another process rotated the log: reopen it and reload the counts it saved."""
        try:
            on_disk = os.stat(self.path)
        except FileNotFoundError:
            on_disk = None
        if on_disk is not None and os.path.samestat(on_disk, os.fstat(self._fd)):
            return
        os.close(self._fd)
        self._fd = self._open_log()
        self.stats = self._load_stats()

    def _rotate_if_full(self) -> None:
        if os.fstat(self._fd).st_size <= self.max_bytes:
            return
        for n in range(KEEP, 1, -1):
            older = rotated(self.path, n - 1)
            if older.exists():
                os.replace(older, rotated(self.path, n))
        os.replace(self.path, rotated(self.path, 1))
        os.close(self._fd)
        self._fd = self._open_log()
        self.stats.position = LogPosition.of(os.fstat(self._fd), 0)
        log.info("feedback log rotated: %s is new, the previous one is %s", self.path, rotated(self.path, 1))

    def _save_stats(self) -> None:
        try:
            self.stats.save(self.summary_path)
        except OSError as exc:  # the log is the record; the summary only saves reading it
            if not self._summary_failed:
                log.warning("feedback summary %s not saved: %s", self.summary_path, exc.strerror or exc)
            self._summary_failed = True
        else:
            self._summary_failed = False

    def _remove_stale_temporaries(self) -> None:
        """Summary files a killed writer left half-written (summaries are written under the lock)."""
        for stale in self.summary_path.parent.glob(f"{self.summary_path.name}.*.tmp"):
            try:
                stale.unlink()
            except OSError:
                pass

    # -- writing -------------------------------------------------------------

    def record(
        self,
        *,
        session: str,
        action: str,
        suggestion_id: str,
        reason: str | None,
        subject: FeedbackSubject | None,
    ) -> None:
        """Append one record; it is in the kernel (or on disk with ``fsync``) on return.

        ``subject`` is ``None`` for feedback on a suggestion the session does
        not know (it still counts, as kind ``unknown``).
        """
        if action not in _ACTIONS:
            raise ValueError(f"feedback action must be accept or reject, not {action!r}")
        record = _record(session, action, suggestion_id, reason, subject)
        # ensure_ascii: lone surrogates from JSON input stay representable
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode("ascii")
        with self._lock:
            if self._fd < 0:
                log.warning("feedback after the log was closed: not recorded")
                return
            try:
                with self._exclusive():
                    self._follow_rotation()
                    self._catch_up()  # lines other processes appended
                    _write_all(self._fd, line)
                    if self.fsync:
                        os.fsync(self._fd)
                    self.stats.count(record)
                    position = self.stats.position
                    assert position is not None
                    self.stats.position = LogPosition(position.device, position.inode, position.offset + len(line))
                    self._rotate_if_full()
                    self._save_stats()
            except OSError as exc:
                if not self._write_failed:
                    log.error("feedback not recorded in %s: %s", self.path, exc.strerror or exc)
                    self._write_failed = True
                return
            self._write_failed = False

    def close(self) -> None:
        with self._lock:
            for name in ("_fd", "_lock_fd"):
                fd = getattr(self, name, -1)
                if fd >= 0:
                    os.close(fd)
                    setattr(self, name, -1)

    def __enter__(self) -> FeedbackLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -------------------------------------------------------------

    def acceptance_rate(self, suggester: str) -> float | None:
        """Accepted / (accepted + rejected) for a suggester; ``None`` without feedback."""
        return self.stats.acceptance_rate(suggester)

    def acceptance_rates(self) -> dict[str, float]:
        """``suggester -> rate`` for every suggester with feedback (a copy)."""
        return self.stats.acceptance_rates()

    def acceptance_by_kind(self) -> dict[str, tuple[int, int]]:
        """``kind -> (accepted, total)``; suggestions unknown to the session count as ``unknown``."""
        return {kind: (a, t) for kind, (a, t) in sorted(self.stats.by_kind.items())}

    def acceptance_by_suggester(self) -> dict[str, tuple[int, int]]:
        return {name: (a, t) for name, (a, t) in sorted(self.stats.by_suggester.items())}

    def verdicts_by_suggester(self) -> dict[str, tuple[int, int]]:
        """``suggester -> (accepted, accepted + explicitly rejected)`` (see :class:`FeedbackStats`)."""
        return self.stats.verdicts_by_suggester()


class _FileLock:
    """``flock(LOCK_EX)`` for the duration of a ``with`` (a no-op without fcntl)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __enter__(self) -> None:
        if fcntl is not None:
            fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        if fcntl is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)


def _record(
    session: str, action: str, suggestion_id: str, reason: str | None, subject: FeedbackSubject | None
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "session": _cut(session, _ID_MAX),
        "action": action,
        "suggestionId": _cut(suggestion_id, _ID_MAX),
        "reason": _cut(reason, _ID_MAX),
        "kind": None,
        "suggester": None,
        "uri": None,
    }
    if subject is not None:
        first = subject.first_range
        record.update(
            kind=_cut(subject.kind, _ID_MAX),
            suggester=_cut(subject.suggester, _ID_MAX) or None,
            uri=_cut(subject.uri, _URI_MAX),
            fingerprint=_digest(subject.fingerprint) if subject.fingerprint else None,
            edits=subject.edit_count,
            insertedChars=subject.inserted_chars,
            firstRange=None
            if first is None
            else [first.start.line, first.start.character, first.end.line, first.end.character],
        )
    return record


def _cut(value: str | None, limit: int) -> str | None:
    if value is None:
        return None
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _digest(fingerprint: str) -> str:
    """A short, stable name for a fingerprint (which may quote code)."""
    return hashlib.blake2b(fingerprint.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
