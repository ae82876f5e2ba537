"""The stdio agent's own cost: a ``nes/suggest`` round trip on a one-line plaintext document.

On a one-line document the engine has next to nothing to do, so what a round
trip costs is mostly the agent itself: reading and dispatching the
messages, handing the computation to the worker thread and back, writing
the answer. Each round writes a ``didChange`` (untimed, applied first), then
times a ``nes/suggest`` and the probe written after its answer — the
agent's CPU time (``/proc/PID/task/*/schedstat``) and the wall time —
beside the do-nothing agent (``echo_agent.py``) given the same messages in
the same run. The first ``--warm`` rounds are not counted.

Usage (from the repository root or anywhere)::

    python benchmarks/perf/overhead_probe.py [--rounds 300] [--runs 3]
"""

from __future__ import annotations

import argparse
import sys

from suggest_cpu import Agent, did_change, echo_agent, nextedit_agent, suggest_params

URI = "file:///tiny.txt"


def _rounds(agent: Agent, rounds: int, warm: int) -> tuple[list[float], list[float]]:
    agent.start()
    agent.write(
        {
            "jsonrpc": "2.0",
            "method": "document/didOpen",
            "params": {"sessionId": agent.session, "uri": URI, "languageId": "plaintext", "version": 1, "text": "x\n"},
        }
    )
    agent.probe()
    cpu, wall = [], []
    for r in range(warm + rounds):
        version = r + 2
        change = did_change(agent.session, URI, version, 0, 0, 1, "xy"[r % 2])
        request = agent.request("nes/suggest", suggest_params(agent.session, URI, version, 0, 1))
        c, w, _ = agent.timed(change, request=request)
        if r >= warm:
            cpu.append(c)
            wall.append(w)
    agent.close()
    return sorted(cpu), sorted(wall)


def _p(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    for _ in range(args.runs):
        cpu, wall = _rounds(nextedit_agent(), args.rounds, args.warm)
        echo_cpu, echo_wall = _rounds(echo_agent(), args.rounds, args.warm)
        print(
            f"tiny doc: cpu p50 {_p(cpu, 0.5):.3f} p90 {_p(cpu, 0.9):.3f}, wall p50 {_p(wall, 0.5):.3f}"
            f" | echo cpu p50 {_p(echo_cpu, 0.5):.3f}, wall p50 {_p(echo_wall, 0.5):.3f}  (ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
