"""Suggest CPU in process, for one scenario of ``suggest_cpu.py``: no stdio, no threads.

The agent runs in this process (:class:`nextedit.acp.inprocess.InProcessAgent`);
each ``nes/suggest`` follows a fresh edit of the scenario, and the figure is
this thread's CPU time (``time.thread_time_ns``) around the request — what
the engine itself costs, without the transport, so two versions of the code
can be compared on a busy machine. ``--profile`` adds a cProfile of the
timed requests (the warm-up ones are left out).

    python benchmarks/perf/suggest_inprocess.py --language python --lines 5000 --scenario rename
    python benchmarks/perf/suggest_inprocess.py --language rust --scenario repeat --profile tottime
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

from suggest_cpu import (
    ALL_KINDS,
    LANGUAGES,
    SCENARIOS,
    did_change,
    did_open,
    first_suggestion,
    source,
    steps,
    suggest_params,
)

from nextedit.acp.inprocess import InProcessAgent

WARM = 3  # untimed requests first, as suggest_cpu.py does


def run(language: str, lines: int, count: int, scenario: str, profile: cProfile.Profile | None) -> list[float]:
    """CPU ms of each timed suggest (and the kinds of the first answers on stderr)."""
    src = source(language, lines)
    times: list[float] = []
    kinds: list[str] = []
    with tempfile.TemporaryDirectory() as state, InProcessAgent(Path(state)) as agent:
        hello = {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-16"], **ALL_KINDS}}
        agent.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
        session = agent.send({"jsonrpc": "2.0", "id": 2, "method": "nes/start", "params": {}})[0]["result"]["sessionId"]
        agent.send(did_open(session, src))
        for r, (line, col, end, text, (cl, cc)) in enumerate(steps(scenario, src, count + WARM)):
            agent.send(did_change(session, src.uri, r + 2, line, col, end, text))
            params = suggest_params(session, src.uri, r + 2, cl, cc)
            request = {"jsonrpc": "2.0", "id": 10 + r, "method": "nes/suggest", "params": params}
            timed = r >= WARM
            if timed and profile is not None:
                profile.enable()
            t0 = time.thread_time_ns()
            out = agent.send(request)
            elapsed = (time.thread_time_ns() - t0) / 1e6
            if timed and profile is not None:
                profile.disable()
            if timed:
                times.append(elapsed)
                kinds.append(first_suggestion(out[0] if out else None))
    print(f"first suggestions: {', '.join(kinds[:5])}", file=sys.stderr)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", default="python", choices=LANGUAGES)
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument(
        "--count", type=int, default=100, help="timed suggests (fewer when the file has fewer functions)"
    )
    parser.add_argument("--scenario", default="rename", choices=(*SCENARIOS, "rename-global", "signature"))
    parser.add_argument(
        "--profile", metavar="SORT", nargs="?", const="cumulative", help="print a cProfile, sorted by SORT"
    )
    args = parser.parse_args(argv)
    profile = cProfile.Profile() if args.profile else None
    times = sorted(run(args.language, args.lines, args.count, args.scenario, profile))
    if not times:
        print("no timed request (the file is too small for the count)", file=sys.stderr)
        return 1
    print(
        f"{args.scenario} {args.language} {args.lines} lines, {len(times)} suggests: CPU p50 {times[len(times) // 2]:.2f} ms, max {times[-1]:.2f} ms"
    )
    if profile is not None:
        pstats.Stats(profile).sort_stats(args.profile).print_stats(35)
    return 0


if __name__ == "__main__":
    sys.exit(main())
