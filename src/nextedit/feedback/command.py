"""`nextedit feedback`: acceptance per suggestion kind, read from the feedback log.

Owns only the presentation (a rich table or JSON); the counting belongs to
:class:`nextedit.feedback.FeedbackLog`. Reads the log, never writes it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["register", "run", "summary"]


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "feedback",
        parents=[common],
        help="acceptance of suggestions per kind, from the feedback log",
        description="Print how many suggestions of each kind were accepted, from feedback.jsonl.",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        help="directory holding feedback.jsonl (default: $XDG_STATE_HOME/nextedit or ~/.local/state/nextedit)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(run=run)


def summary(path: Path) -> dict[str, Any]:
    """Acceptance per kind and per suggester, JSON-ready."""
    from nextedit.feedback.log import read_records

    kinds: dict[str, list[int]] = {}
    suggesters: dict[str, list[int]] = {}
    for record in read_records(path):
        accepted = record["action"] == "accept"
        for key, table in ((record.get("kind") or "unknown", kinds), (record.get("suggester"), suggesters)):
            if key is None:
                continue
            counts = table.setdefault(str(key), [0, 0])
            counts[0] += accepted
            counts[1] += 1

    def rows(table: dict[str, list[int]]) -> dict[str, dict[str, Any]]:
        return {
            key: {"accepted": a, "total": t, "rate": round(a / t, 4) if t else None}
            for key, (a, t) in sorted(table.items())
        }

    total = sum(t for _, t in kinds.values())
    accepted = sum(a for a, _ in kinds.values())
    return {
        "log": str(path),
        "total": total,
        "accepted": accepted,
        "rate": round(accepted / total, 4) if total else None,
        "byKind": rows(kinds),
        "bySuggester": rows(suggesters),
    }


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
    table = Table(title=f"suggestion acceptance ({data['log']})")
    table.add_column("kind")
    table.add_column("accepted", justify="right")
    table.add_column("total", justify="right")
    table.add_column("rate", justify="right")
    for kind, row in data["byKind"].items():
        table.add_row(kind, str(row["accepted"]), str(row["total"]), f"{row['rate']:.0%}")
    table.add_section()
    table.add_row("all", str(data["accepted"]), str(data["total"]), f"{data['rate']:.0%}")
    console.print(table)
    return 0
