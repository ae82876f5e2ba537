"""Acceptance counts learnt from the feedback log, and the small file that keeps them.

Owns :class:`FeedbackStats` (accepted/total per suggester and per kind, reject
reasons per suggester) and its summary file, ``feedback.summary.json``: the
counts plus *where in the log they stop* (the log file's device and inode and
a byte offset). Reading the counts at start-up therefore costs the summary
(a few hundred bytes) and the log lines written after that offset — not the
log. The log stays the record; the summary is a cache that may lag (a process
killed between appending a line and saving the summary): whoever opens the
log next counts the lines past the offset.

Without a usable summary (first start, a log written by an older nextedit,
a damaged summary) the counts are seeded from the log's last
:data:`TAIL_BYTES` only: recent feedback, bounded work. Every table is
bounded too: reject reasons outside the ACP ones count as ``other``, and
names are cut to a few dozen characters.

Must not know: sessions, the wire protocol, how records are written.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["REASONS", "TAIL_BYTES", "FeedbackStats", "LogPosition", "parse_lines"]

log = logging.getLogger(__name__)

# the reasons the ACP schema names for nes/reject; anything else is "other"
REASONS = ("rejected", "ignored", "replaced", "cancelled")
# how much of a log without a usable summary is read to seed the counts
TAIL_BYTES = 512 * 1024
_NAME_MAX = 64
_FORMAT = 1


@dataclass(frozen=True)
class LogPosition:
    """How far into which log file the counts go."""

    device: int
    inode: int
    offset: int

    @classmethod
    def of(cls, stat: os.stat_result, offset: int) -> LogPosition:
        return cls(stat.st_dev, stat.st_ino, offset)

    def same_file(self, stat: os.stat_result) -> bool:
        return (self.device, self.inode) == (stat.st_dev, stat.st_ino)


def _tally() -> list[int]:
    return [0, 0]


@dataclass
class FeedbackStats:
    """Counts of accepts and rejects: ``[accepted, total]`` per suggester and per kind."""

    by_suggester: dict[str, list[int]] = field(default_factory=dict)
    by_kind: dict[str, list[int]] = field(default_factory=dict)
    # suggester -> reason -> rejects ("-" for feedback on a suggestion the session did not know)
    reasons: dict[str, dict[str, int]] = field(default_factory=dict)
    position: LogPosition | None = None

    # -- counting ------------------------------------------------------------

    def count(self, record: dict[str, Any]) -> None:
        """Count one well-formed record (``action`` is accept or reject)."""
        action = record["action"]
        accepted = action == "accept"
        kind = _name(record.get("kind")) or "unknown"
        suggester = _name(record.get("suggester"))
        for key, table in ((kind, self.by_kind), (suggester, self.by_suggester)):
            if key is None:
                continue
            tally = table.setdefault(key, _tally())
            tally[0] += accepted
            tally[1] += 1
        if not accepted:
            reason = record.get("reason")
            reason = reason if reason in REASONS else ("other" if reason else "unspecified")
            per = self.reasons.setdefault(suggester or "-", {})
            per[reason] = per.get(reason, 0) + 1

    def count_all(self, records: Iterable[dict[str, Any]]) -> None:
        for record in records:
            self.count(record)

    # -- reading -------------------------------------------------------------

    def acceptance_rate(self, suggester: str) -> float | None:
        tally = self.by_suggester.get(suggester)
        if tally is None or tally[1] == 0:
            return None
        return tally[0] / tally[1]

    def verdicts_by_suggester(self) -> dict[str, tuple[int, int]]:
        """``suggester -> (accepted, accepted + explicitly rejected)``: the
        user's verdicts (a suggestion ``ignored`` while typing on is none)."""
        out = {}
        for name, (accepted, _total) in self.by_suggester.items():
            rejected = self.reasons.get(name, {}).get("rejected", 0)
            if accepted or rejected:
                out[name] = (accepted, accepted + rejected)
        return out

    def acceptance_rates(self) -> dict[str, float]:
        """``suggester -> accepted / total`` for every suggester with feedback."""
        return {name: a / t for name, (a, t) in self.by_suggester.items() if t}

    # -- the summary file ----------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        position = self.position
        return {
            "format": _FORMAT,
            "log": None if position is None else [position.device, position.inode, position.offset],
            "bySuggester": self.by_suggester,
            "byKind": self.by_kind,
            "reasons": self.reasons,
        }

    @classmethod
    def from_json(cls, data: Any) -> FeedbackStats | None:
        """The stats a summary file holds; ``None`` when it is not one we wrote."""
        try:
            if data.get("format") != _FORMAT:
                return None
            raw_position = data["log"]
            position = None if raw_position is None else LogPosition(*(int(x) for x in raw_position))
            stats = cls(
                by_suggester={str(k): [int(v[0]), int(v[1])] for k, v in data["bySuggester"].items()},
                by_kind={str(k): [int(v[0]), int(v[1])] for k, v in data["byKind"].items()},
                reasons={str(s): {str(r): int(n) for r, n in per.items()} for s, per in data["reasons"].items()},
                position=position,
            )
        except (AttributeError, KeyError, TypeError, ValueError, IndexError):
            return None
        return stats

    @classmethod
    def load(cls, path: Path) -> FeedbackStats | None:
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("feedback summary %s unreadable (%s): counts start from the log's tail", path, exc)
            return None
        stats = cls.from_json(data)
        if stats is None:
            log.warning("feedback summary %s not understood: counts start from the log's tail", path)
        return stats

    def save(self, path: Path) -> None:
        """Replace the summary file atomically (write a sibling, rename it over)."""
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(json.dumps(self.to_json(), separators=(",", ":")).encode("ascii"))
        os.replace(temporary, path)


def parse_lines(data: bytes, *, origin: str = "feedback log") -> Iterator[dict[str, Any]]:
    """The well-formed records in ``data`` (whole lines), oldest first; others skipped."""
    for raw in data.splitlines():
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            log.warning("%s: unreadable feedback line skipped", origin)
            continue
        if isinstance(record, dict) and record.get("action") in ("accept", "reject"):
            yield record


def _name(value: Any) -> str | None:
    if value is None or value == "":
        return None
    return str(value)[:_NAME_MAX]
