"""``nextedit bench``: load traces, replay them in shards on one or more agents, score, report.

**Shards.** Each trace file given on the command line (a folder of VS Code
recordings, the bundled sample) is one shard.  A shard always replays, in
order, in its own fresh agent process with its own state directory: within a
file the agent's feedback log is shared between sessions, as in an editor,
and nothing leaks from one file to another.  ``--jobs N`` runs N shards at a
time (worker processes, one per shard), so the figures do not depend on N;
only the latencies do.  ``--in-process`` runs the agent's dispatcher inside
the worker instead of a subprocess; with more than one shard each shard still
gets a fresh worker process.

**Where results go.**  The table goes to stdout; the markdown report (and
histogram) to ``--report DIR`` (default ``./nextedit-bench-results/``), JSON
to ``--json FILE``.  The recorded results in a checkout's
``benchmarks/results/`` are written only with ``--record``.

User mistakes raise :class:`BenchError` (one line, exit 2) before any replay
starts: unreadable traces, unwritable outputs, bad option values.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import os
import queue
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nextedit.bench.events import Session
from nextedit.bench.metrics import summarize
from nextedit.bench.readers import SAMPLE_NAME, TraceError, load_sample, load_sessions, trace_stem
from nextedit.bench.replay import QueryResult, Replayer, SessionResult
from nextedit.bench.transport import (
    InProcessTransport,
    SubprocessTransport,
    Transport,
    agent_env,
    default_agent_command,
)

log = logging.getLogger(__name__)

DEFAULT_REPORT_DIR = "nextedit-bench-results"
RECORD_NAME = "quality"


class BenchError(Exception):
    """A mistake in what the user asked for: printed as one line, exit status 2."""


# --------------------------------------------------------------------------
# inputs and shards
# --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ReplayOptions:
    agent_cmd: tuple[str, ...] | None = None
    in_process: bool = False
    position_encoding: str = "utf-16"
    timeout: float = 30.0
    explain: bool = False
    keystroke_every: int = 10
    keystroke_max: int | None = None
    log_level: str = "warning"
    # flags for the agent's model provider (--provider-url URL …); empty: none
    provider_args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Shard:
    """One trace file (``path``; ``None``: the bundled sample), its first ``take`` sessions."""

    index: int
    path: str | None
    take: int
    queries: int

    @property
    def label(self) -> str:
        return SAMPLE_NAME if self.path is None else self.path


@dataclass(slots=True)
class ShardResult:
    results: list[SessionResult]
    explain: list[str] = field(default_factory=list)
    agent_info: dict | None = None
    agent_encoding: str | None = None


def _load_path(path: str | None, opts: ReplayOptions) -> list[Session]:
    if path is None:
        return load_sample()
    return load_sessions(path, keystroke_every=opts.keystroke_every, keystroke_max_txns=opts.keystroke_max)


def plan_shards(paths: list[str], opts: ReplayOptions, limit: int | None = None) -> list[tuple[Shard, list[Session]]]:
    """Read every trace (:class:`BenchError` for one that cannot be read) and cut the shards.

    ``limit`` keeps the first N sessions over all files, in order.
    """
    inputs: list[tuple[str | None, list[Session]]] = []
    wanted: list[str | None] = list(paths) if paths else [None]
    try:
        for p in wanted:
            sessions = _load_path(p, opts)
            if not sessions:
                raise TraceError(f"{p}: no sessions in it")
            inputs.append((p, sessions))
    except TraceError as exc:
        raise BenchError(str(exc)) from None
    planned: list[tuple[Shard, list[Session]]] = []
    left = limit
    for path, sessions in inputs:
        if left is not None:
            sessions = sessions[:left]
            left -= len(sessions)
        if not sessions:
            continue
        shard = Shard(len(planned), path, len(sessions), sum(len(s.queries) for s in sessions))
        planned.append((shard, sessions))
    return planned


# --------------------------------------------------------------------------
# replaying one shard (in this process or a worker)
# --------------------------------------------------------------------------
def provider_args(args: argparse.Namespace) -> tuple[str, ...]:
    """The agent flags for ``bench --provider-*`` (:class:`BenchError` for a URL the agent would refuse)."""
    url = getattr(args, "provider_url", None)
    if url is None:
        return ()
    out = ["--provider-url", url]
    for flag, value in (
        ("--provider-model", getattr(args, "provider_model", None)),
        ("--provider-budget-ms", getattr(args, "provider_budget_ms", None)),
        ("--provider-region-tokens", getattr(args, "provider_region_tokens", None)),
    ):
        if value is not None:
            out += [flag, str(value)]
    from nextedit.acp.command import settings_from_argv

    try:
        settings_from_argv(out)
    except argparse.ArgumentError as exc:
        raise BenchError(str(exc)) from None
    return tuple(out)


def _agent_settings(opts: ReplayOptions) -> Any:
    """The in-process agent's settings: the provider flags read as the command line reads them."""
    from nextedit.acp.command import settings_from_argv

    return settings_from_argv(list(opts.provider_args))


def agent_description(opts: ReplayOptions) -> str:
    if opts.in_process:
        extra = f" with {' '.join(shlex.quote(a) for a in opts.provider_args)}" if opts.provider_args else ""
        return f"nextedit.acp.inprocess.InProcessAgent (in-process){extra}"
    state = Path("$STATE")
    cmd = _agent_argv(opts, state)
    return " ".join(shlex.quote(a) for a in cmd).replace(shlex.quote(str(state)), "$STATE")


def _agent_argv(opts: ReplayOptions, state: Path) -> list[str]:
    """The agent's command line: ``--agent-cmd`` with ``{state}`` filled in (else the default), then the provider flags."""
    cmd = [a.replace("{state}", str(state)) for a in opts.agent_cmd] if opts.agent_cmd else default_agent_command(state)
    return cmd + list(opts.provider_args)


def _transport_factory(opts: ReplayOptions, state: Path) -> Callable[[], Transport]:
    if opts.in_process:

        def in_process() -> Transport:
            from nextedit.acp.inprocess import InProcessAgent

            return InProcessTransport(state, InProcessAgent(state, _agent_settings(opts)))

        return in_process
    cmd = _agent_argv(opts, state)

    def subprocess_agent() -> Transport:
        return SubprocessTransport(cmd, timeout=opts.timeout, stderr_path=state / "agent-stderr.log", env=agent_env())

    return subprocess_agent


def replay_shard(
    shard: Shard,
    opts: ReplayOptions,
    sessions: list[Session] | None = None,
    on_query: Callable[[QueryResult], None] | None = None,
) -> ShardResult:
    """Replay a shard's sessions, in order, through one fresh agent with its own state dir."""
    if sessions is None:
        sessions = _load_path(shard.path, opts)[: shard.take]
    out = ShardResult([])
    state = Path(tempfile.mkdtemp(prefix="nextedit-bench-"))

    def seen(q: QueryResult) -> None:
        if opts.explain:
            out.explain.append(json.dumps(q.explain(), ensure_ascii=False))
        if on_query is not None:
            on_query(q)

    try:
        replayer = Replayer(
            _transport_factory(opts, state),
            position_encoding=opts.position_encoding,
            on_query=seen,
            request_timeout=opts.timeout,
        )
        try:
            replayer.start()
            for s in sessions:
                out.results.append(replayer.replay(s))
        finally:
            replayer.close()
        out.agent_info = replayer.agent_info
        out.agent_encoding = str(replayer.agent_encoding)
        return out
    finally:
        shutil.rmtree(state, ignore_errors=True)


_PROGRESS: Any = None  # a worker's queue to the parent's progress bar


def _init_worker(progress: Any, log_level: str) -> None:
    global _PROGRESS
    _PROGRESS = progress
    logging.basicConfig(
        level=getattr(logging, log_level.upper(), logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def _worker_query(_: QueryResult) -> None:
    if _PROGRESS is not None:
        _PROGRESS.put(1)


def _replay_shard_in_worker(shard: Shard, opts: ReplayOptions) -> ShardResult:
    return replay_shard(shard, opts, on_query=_worker_query)


# --------------------------------------------------------------------------
# running all shards
# --------------------------------------------------------------------------
class ProgressBar:
    """A rich progress bar on stderr (or nothing): ``label``, the bar, done of ``total``, a description, the time."""

    def __init__(self, label: str, total: int | None, enabled: bool) -> None:
        self.bar: Any = None
        self.task: Any = None
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self.bar.start()
        self.task = self.bar.add_task("", total=total)

    def advance(self, n: int = 1) -> None:
        if self.bar is not None:
            self.bar.advance(self.task, n)

    def describe(self, text: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, description=text)

    def update(self, completed: int, total: int, description: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=completed, total=total, description=description)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def run_shards(
    planned: list[tuple[Shard, list[Session]]], opts: ReplayOptions, *, jobs: int = 1, progress: bool = False
) -> tuple[list[SessionResult], list[str], dict[str, Any]]:
    """Replay every shard; results and explain lines in shard order, whatever ``jobs`` is."""
    bar = ProgressBar("[bold]bench[/]", max(sum(s.queries for s, _ in planned), 1), progress)
    outs: list[ShardResult] = []
    try:
        use_pool = jobs > 1 or (opts.in_process and len(planned) > 1)
        if not use_pool:
            for shard, sessions in planned:
                bar.describe(f"{shard.index + 1}/{len(planned)} {trace_stem(shard.label)}")
                outs.append(replay_shard(shard, opts, sessions, on_query=lambda _q: bar.advance()))
        else:
            outs = _run_pool(planned, opts, jobs, bar)
    finally:
        bar.stop()
    results = [r for o in outs for r in o.results]
    explain = [line for o in outs for line in o.explain]
    first = next((o for o in outs if o.agent_info is not None), outs[0] if outs else None)
    meta = {
        "agent": agent_description(opts),
        "agent_info": None if first is None else first.agent_info,
        "agent_position_encoding": None if first is None else first.agent_encoding,
        "jobs": jobs,
        "shards": [{"trace": s.label, "sessions": s.take, "queries": s.queries} for s, _ in planned],
    }
    return results, explain, meta


def _run_pool(
    planned: list[tuple[Shard, list[Session]]], opts: ReplayOptions, jobs: int, bar: ProgressBar
) -> list[ShardResult]:
    ctx = multiprocessing.get_context("spawn")  # no inherited threads or engine state
    progress_queue = ctx.Queue()
    workers = max(1, min(jobs, len(planned)))
    bar.describe(f"{len(planned)} trace files on {workers} agent{'s' if workers > 1 else ''}")
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=ctx,
        initializer=_init_worker,
        initargs=(progress_queue, opts.log_level),
        max_tasks_per_child=1,  # a fresh process per shard: nothing carries over
    ) as pool:
        # the longest shards first keeps the workers busy to the end; results are put back in order
        order = sorted(range(len(planned)), key=lambda i: -planned[i][0].queries)
        futures = {i: pool.submit(_replay_shard_in_worker, planned[i][0], opts) for i in order}
        pending = set(futures.values())
        while pending:
            try:
                bar.advance(progress_queue.get(timeout=0.2))
            except queue.Empty:
                pass
            pending = {f for f in pending if not f.done()}
        while True:
            try:
                bar.advance(progress_queue.get_nowait())
            except queue.Empty:
                break
        return [futures[i].result() for i in range(len(planned))]


def run_sessions(
    sessions: list[Session],
    *,
    agent_cmd: list[str] | None = None,
    in_process: bool = False,
    position_encoding: str = "utf-16",
    timeout: float = 30.0,
    progress: bool = False,
) -> tuple[list[SessionResult], dict[str, Any]]:
    """Replay ``sessions`` through one fresh agent (one shard); results and run metadata."""
    opts = ReplayOptions(
        agent_cmd=tuple(agent_cmd) if agent_cmd else None,
        in_process=in_process,
        position_encoding=position_encoding,
        timeout=timeout,
    )
    shard = Shard(0, None, len(sessions), sum(len(s.queries) for s in sessions))
    results, _, meta = run_shards([(shard, sessions)], opts, progress=progress)
    return results, meta


# --------------------------------------------------------------------------
# where results go
# --------------------------------------------------------------------------
def checkout_root(cwd: Path | None = None) -> Path | None:
    """The nextedit checkout containing ``cwd`` (a pyproject.toml naming nextedit beside benchmarks/)."""
    cwd = (cwd or Path.cwd()).resolve()
    for d in (cwd, *cwd.parents):
        py = d / "pyproject.toml"
        if py.is_file() and (d / "benchmarks").is_dir():
            try:
                if 'name = "nextedit"' in py.read_text(encoding="utf-8"):
                    return d
            except OSError:
                return None
            return None
    return None


def check_writable_file(path: Path, flag: str) -> None:
    """:class:`BenchError` unless ``path`` can be written (checked before the replay, not after)."""
    if path.is_dir():
        raise BenchError(f"cannot write {flag} {path}: it is a directory")
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise BenchError(f"cannot write {flag} {path}: {exc.strerror or exc}") from None
    if not existed:
        path.unlink(missing_ok=True)


def check_writable_dir(path: Path, flag: str) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".nextedit-probe-")
        os.close(fd)
        os.unlink(probe)
    except FileExistsError:
        raise BenchError(f"cannot write {flag} {path}: it is a file, not a directory") from None
    except OSError as exc:
        raise BenchError(f"cannot write {flag} {path}: {exc.strerror or exc}") from None


@dataclass(slots=True)
class Outputs:
    json: Path | None
    report_dir: Path | None
    name: str
    explain: Path | None


def plan_outputs(args: argparse.Namespace) -> Outputs:
    """Where this run writes, checked for writability (:class:`BenchError`)."""
    if args.record and args.report:
        raise BenchError("--record writes the recorded results into benchmarks/results/; drop --report DIR")
    if args.record and args.no_report:
        raise BenchError("--record writes a report; drop --no-report")
    if args.record and not args.traces:
        raise BenchError("--record records the figures of the trace files you name; give TRACES")
    if args.record:
        root = checkout_root()
        if root is None:
            raise BenchError("--record writes into a nextedit checkout's benchmarks/results/; run it inside one")
        report_dir: Path | None = root / "benchmarks" / "results"
        name = args.name or RECORD_NAME
    elif args.no_report:
        report_dir, name = None, args.name or ""
    else:
        report_dir = Path(args.report) if args.report else Path.cwd() / DEFAULT_REPORT_DIR
        name = args.name or ("quality" if args.traces else "sample")
    if report_dir is not None:
        check_writable_dir(report_dir, "--report" if not args.record else "--record")
    json_path = Path(args.json) if args.json else None
    if json_path is not None:
        check_writable_file(json_path, "--json")
    explain = Path(args.explain) if args.explain else None
    if explain is not None:
        check_writable_file(explain, "--explain")
    return Outputs(json_path, report_dir, name, explain)


def _command_line() -> str:
    argv = sys.argv[1:]
    if argv and argv[0] == "bench":
        return "nextedit bench " + " ".join(shlex.quote(a) for a in argv[1:])
    return "nextedit bench"


def run_bench(args: argparse.Namespace) -> int:
    from nextedit.bench.report import (
        PLOT_HINT,
        matplotlib_available,
        now_iso,
        print_table,
        write_histogram,
        write_json,
        write_markdown,
    )

    try:
        outputs = plan_outputs(args)
        opts = ReplayOptions(
            agent_cmd=tuple(shlex.split(args.agent_cmd)) if args.agent_cmd else None,
            in_process=args.in_process,
            position_encoding=args.position_encoding,
            timeout=args.timeout,
            explain=outputs.explain is not None,
            keystroke_every=args.keystroke_every,
            keystroke_max=args.keystroke_max,
            log_level=getattr(args, "log_level", "warning"),
            provider_args=provider_args(args),
        )
        planned = plan_shards(list(args.traces), opts, args.limit)
    except BenchError as exc:
        print(f"nextedit bench: error: {exc}", file=sys.stderr)
        return 2
    if not planned:
        print("nextedit bench: error: no sessions to replay", file=sys.stderr)
        return 2
    results, explain, meta = run_shards(
        planned, opts, jobs=args.jobs, progress=not args.no_progress and sys.stderr.isatty()
    )
    if outputs.explain is not None:
        outputs.explain.write_text("".join(line + "\n" for line in explain), encoding="utf-8")
    m = summarize(results)
    meta.update(
        {
            "date": now_iso(),
            "command": _command_line(),
            "traces": list(args.traces) or [f"(bundled sample: {SAMPLE_NAME})"],
            "mode": "in-process" if args.in_process else "subprocess over stdio",
            "provider": " ".join(opts.provider_args) or None,
        }
    )
    print_table(m, sources=bool(opts.provider_args))
    if outputs.json is not None:
        write_json(m, outputs.json, meta)
    if outputs.report_dir is not None:
        rdir = outputs.report_dir
        png = rdir / f"{outputs.name}-latency.png"
        hist = None
        if not matplotlib_available():
            meta["histogram_skipped"] = f"matplotlib is not installed ({PLOT_HINT})"
            print(f"latency histogram skipped: matplotlib is not installed ({PLOT_HINT})", file=sys.stderr)
        elif write_histogram(m["latencies_ms"], png):
            hist = png.name
        write_json(m, rdir / f"{outputs.name}.json", meta)
        path = write_markdown(m, rdir, {**meta, "report_name": f"{outputs.name}.md"}, hist)
        print(f"report: {path}", file=sys.stderr)
    bad = m["sessions_hash_bad"] + m["sessions_error"]
    if bad:
        print(
            f"warning: {m['sessions_hash_bad']} sessions ended with a wrong text hash, {m['sessions_error']} failed",
            file=sys.stderr,
        )
    return 1 if bad else 0
