"""The slowest suggests of recorded traces, in process, and what they spend.

Replays nes-trace/1 files through :class:`nextedit.session.Session` as
``benchmarks/quality/replay_inprocess.py`` does (the bench's client
behaviour), times every ``Session.suggest`` (this process's CPU time), and
counts the template regexes the repeat suggester compiled per trace file
(``repeat.model._compile``'s cache misses, the cache cleared per file).
Prints one row per file and one for all of them (nearest-rank p50 and p99,
the maximum and the mean), then the slowest suggests with their trace and
query. Two source trees compare best run at the same time, one process each
(``PYTHONPATH=TREE/src``, ``--jobs 1``), then again in the other order: both
meet the same load.
``--profile TRACE QUERY`` prints a cProfile of that one query's suggest
instead, sorted by ``--sort``: where a slow suggest's time goes.
``--profile-all`` prints one cProfile of every suggest of the files (one
per process, merged): where the time of all of them goes; ``--save PATH``
keeps the merged stats for ``pstats`` (callers, callees). cProfile charges
each Python call a fixed cost that C calls do not pay: read it for where
time goes and what calls how often, and time a change as above.

    python benchmarks/perf/trace_tail.py ../shared/traces/mined/*.jsonl.gz ../shared/traces/train/*.jsonl.gz --jobs 2
    python benchmarks/perf/trace_tail.py ../shared/traces/train/zod.jsonl.gz \\
        --profile "zod@7391be88ac:packages/docs/components/bronze.tsx:file" 2
    python benchmarks/perf/trace_tail.py ../shared/traces/train/*.jsonl.gz --jobs 2 --profile-all --sort tottime

CPU time in process leaves out the transport and counts the garbage
collector's pauses where they fall (``--heap agent``: with the agents' heap
policy, :mod:`nextedit.heap`, the collections between requests untimed as
they are off a request's path); compare versions side by side, and over
stdio (``nextedit bench --json``) before recording a latency.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import multiprocessing
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "quality"))

import replay_inprocess  # noqa: E402

from nextedit import heap  # noqa: E402
from nextedit.bench.metrics import percentile  # noqa: E402
from nextedit.session import Session  # noqa: E402
from nextedit.suggest.repeat import model  # noqa: E402

# the suggests of the file being replayed: (trace, query, cpu ms)
_TIMED: list[tuple[str, int, float]] = []
_CURRENT: dict[str, Any] = {}
# --heap agent: the collections between requests, and the suggests they follow
_BETWEEN: list[heap.BetweenRequests] = []
_SUGGESTS = itertools.count(1)
_BETWEEN_MS: list[float] = []  # the file's collections between suggests, CPU ms each


def _timed_query(sess: Session, trace: str, repo: str, q: Any, qn: int, *rest: Any) -> dict[str, Any]:
    _CURRENT.update(trace=trace, query=qn)
    return _original_query(sess, trace, repo, q, qn, *rest)


def _timed_suggest(self: Session, *args: Any, **kwargs: Any) -> Any:
    start = time.process_time()
    try:
        return _original_suggest(self, *args, **kwargs)
    finally:
        _TIMED.append((_CURRENT.get("trace", "?"), _CURRENT.get("query", 0), (time.process_time() - start) * 1e3))
        if _BETWEEN:  # as the agents do once they have answered: timed apart
            start = time.process_time()
            _BETWEEN[0].after(next(_SUGGESTS))
            _BETWEEN_MS.append((time.process_time() - start) * 1e3)


HEAPS = ("python", "settled", "agent")

_original_query = replay_inprocess._query
_original_suggest = Session.suggest


def replay(path: str) -> tuple[str, int, list[tuple[str, int, float]], list[float]]:
    """``(file, regexes compiled, every suggest's (trace, query, cpu ms), the
    collections between suggests' cpu ms)``: a jump's follow-up request
    counts under its query as a second suggest."""
    replay_inprocess._query = _timed_query  # type: ignore[assignment]
    Session.suggest = _timed_suggest  # type: ignore[method-assign]
    _TIMED.clear()
    _BETWEEN_MS.clear()
    model._compile.cache_clear()
    replay_inprocess.replay_file(path)
    return Path(path).name, model._compile.cache_info().misses, list(_TIMED), list(_BETWEEN_MS)


def profile(path: str, trace: str, query: int, sort: str, lines: int = 30) -> bool:
    """Print a cProfile of ``trace``'s ``query``-th query (its first suggest);
    False when ``path`` does not hold it."""
    found = False

    def one(sess: Session, tr: str, repo: str, q: Any, qn: int, *rest: Any) -> dict[str, Any]:
        nonlocal found
        if (tr, qn) != (trace, query):
            return _original_query(sess, tr, repo, q, qn, *rest)
        found = True
        prof = cProfile.Profile()
        start = time.process_time()
        prof.enable()
        try:
            return _original_query(sess, tr, repo, q, qn, *rest)
        finally:
            prof.disable()
            print(f"{trace} query {query}: {(time.process_time() - start) * 1e3:.1f} ms CPU (profiled)")
            pstats.Stats(prof).sort_stats(sort).print_stats(lines)

    replay_inprocess._query = one  # type: ignore[assignment]
    replay_inprocess.replay_file(path)
    return found


def profile_all(path: str) -> str:
    """Replay ``path`` with every suggest profiled; the file the stats were dumped to."""
    prof = cProfile.Profile()

    def profiled(self: Session, *args: Any, **kwargs: Any) -> Any:
        prof.enable()
        try:
            return _original_suggest(self, *args, **kwargs)
        finally:
            prof.disable()

    Session.suggest = profiled  # type: ignore[method-assign]
    replay_inprocess.replay_file(path)
    fd, out = tempfile.mkstemp(prefix="trace_tail.", suffix=".pstats")
    os.close(fd)
    prof.dump_stats(out)
    return out


def _print_row(name: str, compiled: int, cpu_ms: list[float]) -> None:
    """One line of the table: nearest-rank percentiles of the suggests' CPU."""
    ms = sorted(cpu_ms)
    if not ms:
        print(f"{name:<22} {0:>8} {compiled:>16}")
        return
    p50, p99 = percentile(ms, 50) or 0.0, percentile(ms, 99) or 0.0
    mean = sum(ms) / len(ms)
    print(f"{name:<22} {len(ms):>8} {compiled:>16} {p50:>10.2f} {p99:>8.2f} {ms[-1]:>8.1f} {mean:>8.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("traces", nargs="+")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--slowest", type=int, default=15, help="how many of the slowest suggests to list")
    parser.add_argument("--profile", nargs=2, metavar=("TRACE", "QUERY"), help="profile one query instead")
    parser.add_argument("--profile-all", action="store_true", help="profile every suggest of the files instead")
    parser.add_argument("--sort", default="cumulative", help="the profile's order (pstats sort key)")
    parser.add_argument("--lines", type=int, default=30, help="how many lines of the profile to print")
    parser.add_argument(
        "--heap",
        choices=HEAPS,
        default="python",
        help="python: CPython's collector as it comes; settled: heap.settle() first; "
        "agent: settled, and the young generations collected after each suggest (untimed), as the agents do",
    )
    parser.add_argument(
        "--save", metavar="PATH", help="with --profile-all: also write the merged stats there (for pstats)"
    )
    args = parser.parse_args(argv)
    if args.heap != "python":
        heap.settle()  # before the pool: its processes inherit the frozen heap and thresholds
    _BETWEEN[:] = [heap.BetweenRequests()] if args.heap == "agent" else []
    if args.profile_all:
        with multiprocessing.Pool(args.jobs) as pool:
            dumps = pool.map(profile_all, args.traces)
        try:
            merged = pstats.Stats(*dumps)
            merged.sort_stats(args.sort).print_stats(args.lines)
            if args.save:
                merged.dump_stats(args.save)
        finally:
            for dump in dumps:
                os.unlink(dump)
        return 0
    if args.profile:
        trace, query = args.profile
        if any(profile(path, trace, int(query), args.sort, args.lines) for path in args.traces):
            return 0
        print(f"no query {query} in trace {trace!r}", file=sys.stderr)
        return 1
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(replay, args.traces)
    every: list[tuple[float, str, int]] = []
    print(
        f"{'trace file':<22} {'suggests':>8} {'regexes compiled':>16} {'CPU p50 ms':>10} {'p99 ms':>8} "
        f"{'max ms':>8} {'mean ms':>8}"
    )
    for name, compiled, timed, _ in results:
        every += [(t[2], t[0], t[1]) for t in timed]
        _print_row(name, compiled, [t[2] for t in timed])
    _print_row("total", sum(r[1] for r in results), [t[0] for t in every])
    between = [ms for r in results for ms in r[3]]
    if between:
        print(
            f"between suggests (untimed above): {len(between)} collections, {sum(between):.0f} ms CPU, "
            f"{sum(between) / len(every):.3f} ms a suggest, max {max(between):.1f}"
        )
    print(f"\nthe {args.slowest} slowest suggests (CPU ms, trace, query):")
    for cpu, trace, query in sorted(every, reverse=True)[: args.slowest]:
        print(f"{cpu:8.1f}  {trace}  {query}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
