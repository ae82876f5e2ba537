"""``nextedit bench`` and ``nextedit traces mine``: argument parsing; the work is imported lazily."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

FORMAT_DOC = "docs/trace-format.md in the nextedit source tree"


def positive_int(text: str) -> int:
    """An argparse type: an integer ≥ 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "bench",
        parents=[common],
        help="replay recorded edit traces through the agent and score its suggestions",
        description="Replay traces (nes-trace/1 .jsonl[.gz], VS Code recording folders, keystroke "
        "logs) through `nextedit acp` over stdio and score the first suggestion of every query: "
        "jumps are followed (asked again at the jump's position), regex search-and-replace counts only "
        "in the portable subset, each session gets its own nes/start, wrong first suggestions are "
        f"rejected as `ignored`. The format and every scoring rule: {FORMAT_DOC}. "
        "Without TRACES, runs the small sample shipped with the package.",
        epilog="Results: the table on stdout; a markdown report in --report DIR (default "
        "./nextedit-bench-results/), JSON with --json FILE. The recorded results of a checkout "
        "(benchmarks/results/quality.*) are written only with --record. The latency histogram needs "
        "matplotlib: pip install 'nextedit[plot]'.",
    )
    p.add_argument(
        "traces", nargs="*", metavar="TRACES", help="trace files or folders (default: the bundled flask sample)"
    )
    p.add_argument("--json", metavar="FILE", help="write all metrics (per repository too) as JSON to FILE")
    p.add_argument(
        "--report",
        metavar="DIR",
        help="folder for the markdown report and latency histogram (default: ./nextedit-bench-results/)",
    )
    p.add_argument("--no-report", action="store_true", help="write no markdown report")
    p.add_argument(
        "--record",
        action="store_true",
        help="write the recorded results of this checkout: benchmarks/results/NAME.md, NAME.json and "
        "NAME-latency.png (NAME defaults to 'quality'), with the exact command",
    )
    p.add_argument(
        "--name",
        help="base name of the report files (NAME.md, NAME.json, NAME-latency.png; "
        "default: 'quality', or 'sample' for the bundled sample)",
    )
    p.add_argument(
        "--explain",
        metavar="FILE",
        help="write one JSON line per query: repository, suggestion, expected edits, verdict, "
        "and the follow-up of a jump",
    )
    p.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="replay N trace files at a time, each in its own fresh agent process (figures do not "
        "depend on N; default 1)",
    )
    p.add_argument(
        "--in-process",
        action="store_true",
        help="run the agent's dispatcher inside the replaying process (profiling) instead of a subprocess; "
        "with several trace files each gets a fresh worker process",
    )
    p.add_argument(
        "--agent-cmd",
        metavar="CMD",
        help="agent command line to start instead of `python -m nextedit acp` "
        "(shell-split; {state} is replaced by a temporary state dir)",
    )
    p.add_argument("--limit", type=positive_int, metavar="N", help="replay at most N sessions")
    p.add_argument(
        "--position-encoding",
        default="utf-16",
        choices=["utf-16", "utf-8", "utf-32"],
        help="the position encoding the client advertises (default utf-16)",
    )
    p.add_argument(
        "--keystroke-every",
        type=non_negative_int,
        default=10,
        metavar="N",
        help="keystroke traces: a nes/suggest every N transactions (0: none; default 10)",
    )
    p.add_argument(
        "--keystroke-max",
        type=positive_int,
        metavar="N",
        help="keystroke traces: replay only the first N transactions",
    )
    p.add_argument("--timeout", type=positive_float, default=30.0, help="seconds to wait for an answer (default 30)")
    model = p.add_argument_group(
        "model provider",
        "replay with a next-edit model behind the engine (an OpenAI-compatible server, asked when "
        "synthesis is silent); the results are then split by source: synthesis, model:next-edit, silent",
    )
    model.add_argument("--provider-url", metavar="URL", help="the server's base URL, e.g. http://127.0.0.1:8080/v1")
    model.add_argument("--provider-model", metavar="NAME", help="the model name to send (default: the server's)")
    model.add_argument(
        "--provider-budget-ms",
        type=positive_int,
        metavar="MS",
        help="how long each suggestion may wait for the model (default: the agent's, 300)",
    )
    model.add_argument(
        "--provider-region-tokens",
        type=positive_int,
        metavar="N",
        help="size of the region the model rewrites, in tokens (default: the agent's, 350)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=_run_bench)

    t = subparsers.add_parser("traces", parents=[common], help="make and inspect edit traces")
    # not `required=True`, so that an unknown flag is named before a missing command
    tsub = t.add_subparsers(dest="traces_command", metavar="COMMAND")
    t.set_defaults(run=lambda _args: t.error("the following arguments are required: COMMAND"))
    m = tsub.add_parser(
        "mine",
        parents=[common],
        help="mine nes-trace/1 sessions from a git repository's history",
        description="One session per modified file with >= 2 hunks (git diff -U0 --histogram "
        "between a commit's parent and the commit), in file order and in a seeded "
        "random order, with `related` ids for hunks repeating an earlier hunk's "
        f"transformation or rename. The format: {FORMAT_DOC}.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    m.add_argument("repo", metavar="PATH_TO_REPO", help="a git working tree or bare repository")
    m.add_argument("-o", "--output", default="mined.jsonl.gz", help="output file (.jsonl or .jsonl.gz)")
    m.add_argument(
        "--max-sessions",
        type=positive_int,
        default=200,
        help="stop after N sessions (each file counts once per order)",
    )
    m.add_argument("--seed", type=int, default=1, help="seed of the random hunk orders")
    m.add_argument("--rev", default="HEAD", help="walk the history from this revision")
    m.add_argument("--max-commits", type=positive_int, default=2000, help="look at the newest N commits at most")
    m.add_argument("--max-hunks", type=positive_int, default=30, help="skip files with more hunks (bulk changes)")
    m.add_argument("--no-random", action="store_true", help="file order only")
    m.add_argument("--license", default="", help="license id recorded in each header")
    m.add_argument("--no-progress", action="store_true", help="no progress bar")
    m.set_defaults(run=_run_mine)


def _run_bench(args: argparse.Namespace) -> int:
    from nextedit.bench.runner import run_bench

    return run_bench(args)


def _run_mine(args: argparse.Namespace) -> int:
    from nextedit.bench.miner import GitError, mine, write_sessions
    from nextedit.bench.runner import BenchError, ProgressBar, check_writable_file

    out = Path(args.output)
    repo = Path(args.repo)
    try:
        if not repo.is_dir():
            raise BenchError(f"{repo}: no such directory")
        check_writable_file(out, "-o")
    except BenchError as exc:
        print(f"nextedit traces mine: error: {exc}", file=sys.stderr)
        return 2
    bar = ProgressBar("[bold]mine[/] commits", None, enabled=not args.no_progress and sys.stderr.isatty())

    def progress(commits_done: int, commits_total: int, sessions: int) -> None:
        bar.update(commits_done, commits_total, f"{sessions} sessions")

    try:
        mined = mine(
            repo,
            rev=args.rev,
            max_sessions=args.max_sessions,
            seed=args.seed,
            max_commits=args.max_commits,
            max_hunks=args.max_hunks,
            random_order=not args.no_random,
            license_id=args.license,
            progress=progress,
        )
    except GitError as exc:
        print(f"nextedit traces mine: error: {exc}", file=sys.stderr)
        return 2
    finally:
        bar.stop()
    try:
        write_sessions(mined.sessions, out)
    except OSError as exc:
        print(f"nextedit traces mine: error: cannot write -o {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    sessions = mined.sessions
    queries = sum(len(s.queries) for s in sessions)
    related = sum(1 for s in sessions for q in s.queries if q.related)
    print(
        f"wrote {len(sessions)} sessions, {queries} queries ({related} with related edits) to {out} "
        f"from {mined.commits_seen} of {mined.commits_total} commits",
        file=sys.stderr,
    )
    if mined.stopped_at_max_sessions:
        print(
            f"stopped at --max-sessions {args.max_sessions}: the history has more; raise it to mine further",
            file=sys.stderr,
        )
    elif mined.commits_total >= args.max_commits:
        print(
            f"looked at the newest {args.max_commits} commits only (--max-commits); older history was not mined",
            file=sys.stderr,
        )
    return 0
