"""``nextedit bench`` and ``nextedit traces mine``: argument parsing; the work is imported lazily."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "bench",
        parents=[common],
        help="replay recorded edit traces through the agent and score its suggestions",
        description="Replay traces (nes-trace/1 .jsonl[.gz], VS Code recording folders, keystroke "
        "logs) through `nextedit acp` over stdio and score the first suggestion of "
        "every query as ../shared/traces/FORMAT.md defines. Without TRACES, runs the "
        "small sample shipped with the package.",
    )
    p.add_argument(
        "traces", nargs="*", metavar="TRACES", help="trace files or folders (default: the bundled flask sample)"
    )
    p.add_argument("--json", metavar="FILE", help="write all metrics as JSON to FILE")
    p.add_argument(
        "--report",
        metavar="DIR",
        help="markdown report + latency histogram folder (default: benchmarks/results/ "
        "inside the nextedit repo, else ./nextedit-bench-results/)",
    )
    p.add_argument("--no-report", action="store_true", help="write no markdown report")
    p.add_argument(
        "--name",
        help="base name of the report files (NAME.md, NAME.json, NAME-latency.png; "
        "default: 'quality', or 'sample' for the bundled sample)",
    )
    p.add_argument(
        "--explain", metavar="FILE", help="write one JSON line per query: suggestion, expected edits, verdict"
    )
    p.add_argument(
        "--in-process",
        action="store_true",
        help="run the agent's dispatcher in this process (profiling) instead of a subprocess",
    )
    p.add_argument(
        "--agent-cmd",
        metavar="CMD",
        help="agent command line to start instead of `python -m nextedit acp` "
        "(shell-split; {state} is replaced by a temporary state dir)",
    )
    p.add_argument("--limit", type=int, metavar="N", help="replay at most N sessions")
    p.add_argument(
        "--position-encoding",
        default="utf-16",
        choices=["utf-16", "utf-8", "utf-32"],
        help="the position encoding the client advertises (default utf-16)",
    )
    p.add_argument(
        "--keystroke-every",
        type=int,
        default=10,
        metavar="N",
        help="keystroke traces: a nes/suggest every N transactions (default 10)",
    )
    p.add_argument(
        "--keystroke-max", type=int, metavar="N", help="keystroke traces: replay only the first N transactions"
    )
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for an answer")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=_run_bench)

    t = subparsers.add_parser("traces", parents=[common], help="make and inspect edit traces")
    tsub = t.add_subparsers(dest="traces_command", required=True, metavar="COMMAND")
    m = tsub.add_parser(
        "mine",
        parents=[common],
        help="mine nes-trace/1 sessions from a git repository's history",
        description="One session per modified file with >= 2 hunks (git diff -U0 --histogram "
        "between a commit's parent and the commit), in file order and in a seeded "
        "random order, with `related` ids for hunks repeating an earlier hunk's "
        "transformation or rename.",
    )
    m.add_argument("repo", metavar="PATH_TO_REPO")
    m.add_argument(
        "-o", "--output", default="mined.jsonl.gz", help="output file (.jsonl or .jsonl.gz; default mined.jsonl.gz)"
    )
    m.add_argument(
        "--max-sessions", type=int, default=200, help="stop after N sessions (each file counts once per order)"
    )
    m.add_argument("--seed", type=int, default=1, help="seed of the random hunk orders")
    m.add_argument("--rev", default="HEAD", help="walk the history from this revision")
    m.add_argument("--max-commits", type=int, default=2000, help="look at most at N commits")
    m.add_argument("--max-hunks", type=int, default=30, help="skip files with more hunks (bulk)")
    m.add_argument("--no-random", action="store_true", help="file order only")
    m.add_argument("--license", default="", help="license id recorded in each header")
    m.set_defaults(run=_run_mine)


def _run_bench(args: argparse.Namespace) -> int:
    from nextedit.bench.runner import run_bench

    return run_bench(args)


def _run_mine(args: argparse.Namespace) -> int:
    import sys

    from nextedit.bench.miner import mine_repository, write_sessions

    sessions = mine_repository(
        Path(args.repo),
        rev=args.rev,
        max_sessions=args.max_sessions,
        seed=args.seed,
        max_commits=args.max_commits,
        max_hunks=args.max_hunks,
        random_order=not args.no_random,
        license_id=args.license,
    )
    write_sessions(sessions, Path(args.output))
    queries = sum(len(s.queries) for s in sessions)
    related = sum(1 for s in sessions for q in s.queries if q.related)
    print(
        f"wrote {len(sessions)} sessions, {queries} queries ({related} with related edits) to {args.output}",
        file=sys.stderr,
    )
    return 0
