"""Two versions of the agent in lockstep: agent CPU per ``nes/suggest``, request by request.

A before/after from two separate ``suggest_cpu.py`` runs moves with the
machine's load between the runs (on a shared 2-core machine, ±0.5 ms per row
at 5k lines), more than a change of the agent's own round trip. Here the
agent of this checkout (``after``) and the agent of another source tree
(``--before-src``, e.g. ``git archive main | tar -x -C /tmp/main``) get the
same fresh edit and the same request one after the other, with the
do-nothing agent beside them, as ``suggest_cpu.py`` times them (its
``Agent.timed``: CPU from ``/proc/PID/task/*/schedstat`` over the request
and a probe written after its answer). The figure per row is the p50 of
each agent's CPU and the p50 of the per-request difference (after − before),
which a change of load between requests barely moves.

Usage::

    python benchmarks/perf/paired_cpu.py --before-src /tmp/main/src \
        [--scenarios rename,keystroke,repeat] [--languages python,rust] [--lines 5000] [--repeats 100]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from languages import LANGUAGES, source
from suggest_cpu import SCENARIOS, Agent, echo_agent, lockstep, scenario_count

SRC = Path(__file__).resolve().parents[2] / "src"


def agent_from(src: Path, name: str) -> Agent:
    """``nextedit acp`` run from the sources in ``src`` (first on the path)."""
    start = f"import sys; sys.path.insert(0, {str(src)!r}); from nextedit.cli import main; sys.exit(main(sys.argv[1:]))"
    state = tempfile.mkdtemp(prefix="nextedit-bench-")
    return Agent([sys.executable, "-c", start, "acp", "--state-dir", state], name)


def run(scenario: str, language: str, lines: int, repeats: int, before_src: Path) -> dict[str, float]:
    src = source(language, lines)
    count = scenario_count(scenario, src, repeats)
    agents = [agent_from(before_src, "before"), agent_from(SRC, "after"), echo_agent()]
    cpu = {name: [c for c, _, _ in rows] for name, rows in lockstep(agents, scenario, src, count).items()}
    diffs = [a - b for a, b in zip(cpu["after"], cpu["before"], strict=True)]
    return {
        "before": statistics.median(cpu["before"]),
        "after": statistics.median(cpu["after"]),
        "diff": statistics.median(diffs),
        "echo": statistics.median(cpu["echo"]),
        "n": len(diffs),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--before-src", type=Path, required=True, help="the other version's src/ folder")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=100)
    args = parser.parse_args()
    print("| scenario | language | lines | n | before p50 | after p50 | p50 of (after − before) | echo p50 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for scenario in args.scenarios.split(","):
        for language in args.languages.split(","):
            row = run(scenario, language, args.lines, args.repeats, args.before_src)
            print(
                f"| {scenario} | {language} | {args.lines} | {row['n']} | {row['before']:.2f} | {row['after']:.2f}"
                f" | {row['diff']:+.2f} | {row['echo']:.2f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
