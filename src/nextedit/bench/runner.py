"""``nextedit bench``: load traces, replay them through the agent, score, report."""

from __future__ import annotations

import argparse
import json
import logging
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from nextedit.bench.events import Session
from nextedit.bench.metrics import summarize
from nextedit.bench.readers import load_sample, load_sessions
from nextedit.bench.replay import QueryResult, Replayer, SessionResult
from nextedit.bench.transport import (
    InProcessTransport,
    SubprocessTransport,
    agent_env,
    default_agent_command,
)

log = logging.getLogger(__name__)


def default_report_dir(cwd: Path | None = None) -> Path:
    """``benchmarks/results/`` inside the nextedit repository, else ``./nextedit-bench-results/``."""
    cwd = cwd or Path.cwd()
    for d in (cwd, *cwd.parents):
        py = d / "pyproject.toml"
        if py.exists() and (d / "benchmarks").is_dir():
            try:
                if 'name = "nextedit"' in py.read_text(encoding="utf-8"):
                    return d / "benchmarks" / "results"
            except OSError:
                pass
            break
    return cwd / "nextedit-bench-results"


def load_all(paths: list[str], *, keystroke_every: int = 10, keystroke_max: int | None = None) -> list[Session]:
    if not paths:
        return load_sample()
    sessions: list[Session] = []
    for p in paths:
        sessions.extend(load_sessions(p, keystroke_every=keystroke_every, keystroke_max_txns=keystroke_max))
    return sessions


def run_sessions(
    sessions: list[Session],
    *,
    agent_cmd: list[str] | None = None,
    in_process: bool = False,
    position_encoding: str = "utf-16",
    timeout: float = 30.0,
    explain: TextIO | None = None,
    progress: bool = False,
) -> tuple[list[SessionResult], dict[str, Any]]:
    """Replay ``sessions`` through one agent; returns results and run metadata."""
    state = Path(tempfile.mkdtemp(prefix="nextedit-bench-"))
    try:
        if in_process:
            factory = lambda: InProcessTransport(state)  # noqa: E731
            agent_desc = "nextedit.acp.inprocess.InProcessAgent (in-process)"
        else:
            cmd = [a.replace("{state}", str(state)) for a in agent_cmd] if agent_cmd else default_agent_command(state)
            factory = lambda: SubprocessTransport(  # noqa: E731
                cmd, timeout=timeout, stderr_path=state / "agent-stderr.log", env=agent_env()
            )
            agent_desc = " ".join(shlex.quote(a) for a in cmd).replace(str(state), "$STATE")

        results: list[SessionResult] = []
        total_queries = sum(len(s.queries) for s in sessions)
        prog = None
        task = None
        if progress:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            prog = Progress(
                TextColumn("[bold]bench[/]"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            prog.start()
            task = prog.add_task("", total=max(total_queries, 1))

        def on_query(q: QueryResult) -> None:
            if explain is not None:
                explain.write(json.dumps(q.explain(), ensure_ascii=False) + "\n")
            if prog is not None:
                prog.advance(task)

        replayer = Replayer(factory, position_encoding=position_encoding, on_query=on_query, request_timeout=timeout)
        try:
            replayer.start()
            for i, s in enumerate(sessions, 1):
                if prog is not None:
                    prog.update(task, description=f"session {i}/{len(sessions)} {s.trace[:60]}")
                results.append(replayer.replay(s))
        finally:
            replayer.close()
            if prog is not None:
                prog.stop()
        meta = {
            "agent": agent_desc,
            "agent_info": replayer.agent_info,
            "agent_position_encoding": replayer.agent_encoding,
        }
        return results, meta
    finally:
        shutil.rmtree(state, ignore_errors=True)


def run_bench(args: argparse.Namespace) -> int:
    from nextedit.bench.report import now_iso, print_table, write_histogram, write_json, write_markdown

    sessions = load_all(list(args.traces), keystroke_every=args.keystroke_every, keystroke_max=args.keystroke_max)
    if args.limit is not None:
        sessions = sessions[: args.limit]
    if not sessions:
        print("no sessions to replay", file=sys.stderr)
        return 2
    explain = open(args.explain, "w", encoding="utf-8") if args.explain else None
    try:
        results, meta = run_sessions(
            sessions,
            agent_cmd=shlex.split(args.agent_cmd) if args.agent_cmd else None,
            in_process=args.in_process,
            position_encoding=args.position_encoding,
            timeout=args.timeout,
            explain=explain,
            progress=not args.no_progress and sys.stderr.isatty(),
        )
    finally:
        if explain is not None:
            explain.close()
    m = summarize(results)
    meta.update(
        {
            "date": now_iso(),
            "command": "nextedit bench " + " ".join(shlex.quote(a) for a in sys.argv[2:])
            if len(sys.argv) > 1 and sys.argv[1] == "bench"
            else "nextedit bench",
            "traces": list(args.traces) or ["(bundled sample: flask-sample.jsonl.gz)"],
            "mode": "in-process" if args.in_process else "subprocess over stdio",
        }
    )
    print_table(m)
    if args.json:
        write_json(m, Path(args.json), meta)
    if not args.no_report:
        # the bundled sample must not overwrite the recorded full-trace results
        name = args.name or ("quality" if args.traces else "sample")
        rdir = Path(args.report) if args.report else default_report_dir()
        rdir.mkdir(parents=True, exist_ok=True)
        png = rdir / f"{name}-latency.png"
        hist = png.name if write_histogram(m["latencies_ms"], png) else None
        write_json(m, rdir / f"{name}.json", meta)
        path = write_markdown(m, rdir, {**meta, "report_name": f"{name}.md"}, hist)
        print(f"report: {path}", file=sys.stderr)
    bad = m["sessions_hash_bad"] + m["sessions_error"]
    if bad:
        print(
            f"warning: {m['sessions_hash_bad']} sessions ended with a wrong text hash, {m['sessions_error']} failed",
            file=sys.stderr,
        )
    return 1 if bad else 0
