"""Write the out-of-repository table (``loro.py --json``) as markdown beside its JSON.

Usage::

    python benchmarks/quality/loro_report.py LORO_JSON --command CMD --out benchmarks/results/quality-loro.md
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path


def _row(name: str, t: dict) -> str:
    return (
        f"| {name} | {t['queries']} | {t['answered']} | {t['precision']:.3f} ({t['correct']}/{t['answered']}) | "
        f"{t['recall']:.3f} ({t['related_correct']}/{t['related']}) | "
        f"{t['silence']:.3f} ({t['silent_on_empty']}/{t['empty']}) | {t['reversals']} |"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("loro_json")
    ap.add_argument("--command", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    table = json.loads(Path(args.loro_json).read_text())
    repos = sorted(r for r in table if r != "POOLED")
    worst_p = min(repos, key=lambda r: table[r]["precision"])
    worst_r = min(repos, key=lambda r: table[r]["recall"])
    lines = [
        "# Suggestion quality out of repository (leave one repository out)",
        "",
        f"Command: `{args.command}`  ",
        f"Date: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}  ",
        f"Machine: {platform.machine()} {platform.system()}, Python {platform.python_version()}",
        "",
        "Every repository is scored with ranker weights fitted on the other eleven, and an "
        "operating point chosen on their own out-of-sample predictions; the engine runs in "
        "the loop with the bench's client behaviour (jumps followed, wrong answers rejected "
        "as `ignored`), strict scoring as `docs/trace-format.md`.",
        "",
        "| repository | queries | answered | precision | related recall | silence | reversals |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *(_row(r, table[r]) for r in repos),
        _row("**pooled**", table["POOLED"]),
        "",
        f"Worst repository by precision: {worst_p} ({table[worst_p]['precision']:.3f}); "
        f"by related recall: {worst_r} ({table[worst_r]['recall']:.3f}).",
        "",
    ]
    out = Path(args.out)
    out.write_text("\n".join(lines))
    shutil.copyfile(args.loro_json, out.with_suffix(".json"))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
