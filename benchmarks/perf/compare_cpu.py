"""Before/after table of two ``suggest_cpu.py`` result files.

Rows present in several before files (a later, narrower run re-measuring a
section) take the last one given. Writes Markdown to stdout or ``--out``.

Usage::

    python benchmarks/perf/compare_cpu.py \
        --before benchmarks/results/suggest-cpu-before.json \
        --before benchmarks/results/suggest-cpu-before-small-first.json \
        --after benchmarks/results/suggest-cpu-after.json \
        --out benchmarks/results/suggest-cpu-compare.md
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def _load(paths: list[Path]) -> dict[str, dict[tuple, dict[str, Any]]]:
    """Rows by section and key, later files overriding earlier ones."""
    out: dict[str, dict[tuple, dict[str, Any]]] = {"scenarios": {}, "double": {}, "first": {}, "scaling": {}}
    for path in paths:
        data = json.loads(path.read_text())
        for row in data.get("scenarios", []):
            out["scenarios"][(row["scenario"], row["language"], row["lines"])] = row
        for row in data.get("double_rename", []):
            out["double"][(row["language"], row["lines"])] = row
        for row in data.get("first_suggest", []):
            out["first"][(row["language"], row.get("pause_ms", 0.0))] = row
        for row in data.get("scaling", []):
            out["scaling"][(row["scenario"], row["language"])] = row
        if data.get("long_line"):
            out.setdefault("long", {})[()] = data["long_line"]
    return out


def _q(row: dict[str, Any] | None, key: str = "cpu_ms") -> str:
    if not row or not row.get(key):
        return "–"
    q = row[key]
    return f"{q['p50']:.2f} / {q['p99']:.2f}"


def markdown(before: dict, after: dict, before_paths: list[Path], after_path: Path) -> str:
    out = [
        "# Agent CPU per request: before / after",
        "",
        f"Before: {', '.join(f'`{p}`' for p in before_paths)}; after: `{after_path}` "
        "(each with its command, machine and date). CPU p50 / p99 in ms (schedstat, all threads).",
        "",
        "## Suggest after a fresh edit",
        "",
        "| scenario | language | lines | before | after | echo (after run) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for key in sorted(after["scenarios"], key=lambda k: (k[0], k[1], k[2])):
        a = after["scenarios"][key]
        b = before["scenarios"].get(key)
        out.append(f"| {key[0]} | {key[1]} | {key[2]} | {_q(b)} | {_q(a)} | {_q(a, 'echo_cpu_ms')} |")
    if after["scaling"]:
        out += [
            "",
            "## Scaling (CPU p50 at 25k → 100k lines)",
            "",
            "| scenario | language | before | ratio | after | ratio |",
            "|---|---|---|---:|---|---:|",
        ]
        for key, a in after["scaling"].items():
            b = before["scaling"].get(key)

            def cells(row: dict[str, Any] | None) -> tuple[str, str]:
                if not row:
                    return "–", "–"
                return " → ".join(f"{p:.1f}" for _, p in row["p50_by_lines"]), f"×{row['ratio']:.2f}"

            out.append(f"| {key[0]} | {key[1]} | {' | '.join(cells(b))} | {' | '.join(cells(a))} |")
    if after["double"]:
        out += [
            "",
            "## Double rename of a module-level name: the second suggest (CPU ms)",
            "",
            "| language | lines | before | after |",
            "|---|---:|---:|---:|",
        ]
        for key in sorted(after["double"]):
            b = before["double"].get(key)
            a = after["double"][key]
            before_cell = f"{b['second']['cpu_ms']:.1f}" if b else "–"
            out.append(f"| {key[0]} | {key[1]} | {before_cell} | {a['second']['cpu_ms']:.1f} |")
    if after.get("long"):
        out += [
            "",
            "## Keystroke on a 1 MB line (CPU p50 / p99 ms)",
            "",
            f"before {_q(before.get('long', {}).get(()))}, after {_q(after['long'][()])}",
        ]
    if after["first"]:
        out += [
            "",
            "## First suggest of a process (CPU p50 / max ms)",
            "",
            "| language | pause ms | before | after |",
            "|---|---:|---:|---:|",
        ]
        for key in sorted(after["first"]):
            b = before["first"].get(key)
            a = after["first"][key]

            def cell(row: dict[str, Any] | None) -> str:
                return f"{row['cpu_ms']['p50']:.1f} / {row['cpu_ms']['max']:.1f}" if row else "–"

            out.append(f"| {key[0]} | {key[1]:.0f} | {cell(b)} | {cell(a)} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, action="append", required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--notes", type=Path, help="a Markdown file added under Notes")
    args = parser.parse_args(argv)
    text = markdown(_load(args.before), _load([args.after]), args.before, args.after)
    if args.notes:
        text += "\n## Notes\n\n" + args.notes.read_text().strip() + "\n"
    if args.out:
        args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
