"""The agent CPU per suggest in ``nextedit bench --explain`` files: all queries, and without each repository's first.

``nextedit bench`` charges each query all the agent's CPU since its
previous answer. With ``--jobs N`` every trace file gets a fresh agent, and
the shared sets hold one repository per file, so a repository's first query
carries its agent's ``nes/start`` (the engine's imports and the ranker,
~200 ms: ``benchmarks/results/startup.md``) and the first document's open and
parse. Those few queries decide the p99.9 of a whole replay; this prints the
percentiles (nearest rank) with and without them, one row per file given
(e.g. the same traces replayed by different agents).

    python benchmarks/perf/bench_cpu_tail.py base.jsonl nogc.jsonl echo.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence


def percentile(sorted_values: Sequence[float], p: float) -> float:
    """The nearest-rank percentile ``p`` (0-100) of ascending values."""
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def read_cpu(path: str) -> tuple[list[float], list[float]]:
    """(every query's agent CPU ms, the same without each repository's first query)."""
    every: list[float] = []
    warm: list[float] = []
    seen: set[str] = set()
    with open(path) as f:
        for line in f:
            row = json.loads(line)
            cpu = row.get("cpuMs")
            if cpu is None:
                continue
            every.append(cpu)
            if row["repository"] in seen:
                warm.append(cpu)
            seen.add(row["repository"])
    return every, warm


def _row(name: str, values: list[float]) -> str:
    v = sorted(values)
    cells = [percentile(v, p) for p in (50, 99, 99.9)] + [v[-1]]
    return f"| {name} | {len(v):,} | " + " | ".join(f"{c:.2f}" for c in cells) + " |"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("explain", nargs="+", help="nextedit bench --explain files")
    args = ap.parse_args(argv)
    print("| file | queries | CPU p50 | p99 | p99.9 | max |")
    print("|---|---:|---:|---:|---:|---:|")
    for path in args.explain:
        every, warm = read_cpu(path)
        if not every:
            print(f"| {path} | 0 | | | | |")
            continue
        print(_row(path, every))
        if warm:
            print(_row(f"{path}, each repository's first query left out ({len(every) - len(warm)})", warm))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
