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

from suggest_cpu import LANGUAGES, SCENARIOS, run_in_process, source


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
    times, kinds = run_in_process(args.scenario, source(args.language, args.lines), args.count, profile=profile)
    times.sort()
    print(f"first suggestions: {', '.join(kinds[:5])}", file=sys.stderr)
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
