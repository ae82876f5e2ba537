"""`nextedit feedback`: acceptance per suggestion kind, per source and per suggester, with reject reasons.

A *source* is who made the suggestion: ``synthesis`` (every suggester of
the engine) or the model behind it (``model:next-edit``, a suggester name of
its own).

Owns only the presentation (rich tables or JSON); the counting belongs to
:mod:`nextedit.feedback.stats` and :func:`nextedit.feedback.log.read_stats`.
Reads the log and its summary, never writes them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from nextedit.provider.defaults import source_of

__all__ = ["register", "run", "summary"]


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "feedback",
        parents=[common],
        help="acceptance of suggestions per kind, per source and per suggester, from the feedback log",
        description="Print how many suggestions of each kind, from each source (synthesis or the model) "
        "and from each suggester were accepted, and why the others were rejected, from feedback.jsonl.",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        help="directory holding feedback.jsonl (default: $XDG_STATE_HOME/nextedit or ~/.local/state/nextedit)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.set_defaults(run=run)


def summary(path: Path) -> dict[str, Any]:
    """Acceptance per kind, per source and per suggester (with reject reasons), JSON-ready."""
    from nextedit.feedback.log import read_stats

    stats = read_stats(path)

    def row(accepted: int, total: int) -> dict[str, Any]:
        return {"accepted": accepted, "total": total, "rate": round(accepted / total, 4) if total else None}

    by_suggester = {
        name: {**row(a, t), "reasons": dict(sorted(stats.reasons.get(name, {}).items()))}
        for name, (a, t) in sorted(stats.by_suggester.items())
    }
    by_source: dict[str, list[int]] = {}
    for name, (a, t) in stats.by_suggester.items():
        tally = by_source.setdefault(source_of(name), [0, 0])
        tally[0] += a
        tally[1] += t
    unknown_reasons = stats.reasons.get("-")
    total = sum(t for _, t in stats.by_kind.values())
    accepted = sum(a for a, _ in stats.by_kind.values())
    return {
        "log": str(path),
        **row(accepted, total),
        "byKind": {kind: row(a, t) for kind, (a, t) in sorted(stats.by_kind.items())},
        "bySource": {source: row(a, t) for source, (a, t) in sorted(by_source.items())},
        "bySuggester": by_suggester,
        "unknownSuggestionReasons": dict(sorted(unknown_reasons.items())) if unknown_reasons else {},
    }


def _rate(row: dict[str, Any]) -> str:
    return "-" if row["rate"] is None else f"{row['rate']:.0%}"


def _reasons(reasons: dict[str, int]) -> str:
    return ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items(), key=lambda item: -item[1])) or "-"


def run(args: argparse.Namespace) -> int:
    from nextedit.feedback.log import FEEDBACK_FILE, default_state_dir

    state_dir = args.state_dir or default_state_dir()
    data = summary(state_dir / FEEDBACK_FILE)
    if args.json:
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0

    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not data["total"]:
        console.print(f"no feedback recorded yet in {data['log']}")
        return 0
    kinds = Table(title=f"acceptance by kind ({data['log']})")
    for column in ("kind", "accepted", "total", "rate"):
        kinds.add_column(column, justify="left" if column == "kind" else "right")
    for kind, row in data["byKind"].items():
        kinds.add_row(kind, str(row["accepted"]), str(row["total"]), _rate(row))
    kinds.add_section()
    kinds.add_row("all", str(data["accepted"]), str(data["total"]), _rate(data))
    console.print(kinds)

    sources = Table(title="acceptance by source (synthesis: the engine; model:…: the model behind it)")
    for column in ("source", "accepted", "total", "rate"):
        sources.add_column(column, justify="left" if column == "source" else "right")
    for source, row in data["bySource"].items():
        sources.add_row(source, str(row["accepted"]), str(row["total"]), _rate(row))
    console.print(sources)

    suggesters = Table(title="acceptance by suggester")
    for column in ("suggester", "accepted", "rejected", "total", "rate", "reject reasons"):
        suggesters.add_column(column, justify="left" if column in ("suggester", "reject reasons") else "right")
    for name, row in data["bySuggester"].items():
        rejected = row["total"] - row["accepted"]
        suggesters.add_row(
            name, str(row["accepted"]), str(rejected), str(row["total"]), _rate(row), _reasons(row["reasons"])
        )
    if data["unknownSuggestionReasons"]:
        unknown = data["byKind"].get("unknown", {"accepted": 0, "total": 0})
        suggesters.add_section()
        suggesters.add_row(
            "(unknown suggestion)",
            str(unknown["accepted"]),
            str(unknown["total"] - unknown["accepted"]),
            str(unknown["total"]),
            _rate(unknown) if unknown["total"] else "-",
            _reasons(data["unknownSuggestionReasons"]),
        )
    console.print(suggesters)
    return 0
