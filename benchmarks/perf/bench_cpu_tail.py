"""The agent CPU per suggest in ``nextedit bench --explain`` files: all queries, and without each repository's first.

``nextedit bench`` charges each query all the agent's CPU since its
previous answer. With ``--jobs N`` every trace file gets a fresh agent, and
the shared sets hold one repository per file, so a repository's first query
carries its agent's ``nes/start`` (the engine's imports and the ranker,
~200 ms: ``benchmarks/results/startup.md``) and the first document's open and
parse. Those few queries decide the p99.9 of a whole replay; this prints the
percentiles (nearest rank, ``nextedit.bench.metrics.percentile``) of each
file given (e.g. the same traces replayed by different agents) in two rows:
every query, then every query but each repository's first.

That second row reads a repository's first query as its agent's start-up,
which holds for a run with ``--jobs 2`` or more over files of one
repository each; with ``--jobs 1`` one agent replays every file, and only
the first file's first query is a start-up. Rows without a repository name
(traces whose header names none) count as one repository.

    python benchmarks/perf/bench_cpu_tail.py base.jsonl nogc.jsonl echo.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from nextedit.bench.metrics import percentile


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
            repository = row.get("repository", "")
            if repository in seen:
                warm.append(cpu)
            seen.add(repository)
    return every, warm


def _row(name: str, values: list[float]) -> str:
    v = sorted(values)  # never empty: main skips a file without CPU figures
    cells = [percentile(v, p) or 0.0 for p in (50, 99, 99.9)] + [v[-1]]
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
