"""Agent CPU per `nes/suggest`, two agents side by side: what computing on a snapshot costs.

Two `nextedit acp` processes — this checkout and ``--before`` (another
checkout's ``src``, e.g. the commit before a change) — receive exactly the
same messages, interleaved, so machine noise hits both alike. The document is
a generated Python file of ``--functions`` small functions (5 lines each);
R times, a local is renamed at one function's definition, a probe request
makes sure the change is applied, and one ``nes/suggest`` at the rename is
timed: wall round trip, and agent CPU — the sum of the process's threads'
``/proc/PID/task/*/schedstat`` before and after (the suggest may run in a
worker thread). Every suggester runs (the client advertises every kind).

Usage (writes benchmarks/results/snapshot-cost.{json,md})::

    python benchmarks/perf/snapshot_cost.py --before /tmp/before/src --reps 300
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agent_cpu import cpu_ns
from results_file import metadata_lines, run_metadata, write_results

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
URI = "file:///bench/a.py"
KINDS = {"nes": {"rename": {}, "jump": {}, "searchAndReplace": {}}}


def cpu_ms(pid: int) -> float:
    return cpu_ns(pid) / 1e6


class Agent:
    def __init__(self, pythonpath: str | None, state_dir: str) -> None:
        env = {**os.environ}
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        argv = [sys.executable, "-m", "nextedit", "acp", "--state-dir", state_dir]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdout is not None
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = json.loads(self.proc.stdout.readline())
            if message.get("id") == self.next_id:
                return message

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1)))], 2)

    return {
        "p50": round(statistics.median(ordered), 2),
        "p90": at(0.9),
        "p99": at(0.99),
        "mean": round(statistics.mean(ordered), 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="the other checkout's src directory")
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--functions", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=RESULTS / "snapshot-cost")
    args = parser.parse_args(argv)
    text = "".join(
        f"def func_{i}(alpha, beta):\n    total_{i} = alpha + beta\n    value = total_{i} * 2\n"
        f"    return value + total_{i}\n\n"
        for i in range(args.functions)
    )
    agents = {"before": Agent(args.before, tempfile.mkdtemp()), "this checkout": Agent(None, tempfile.mkdtemp())}
    sessions = {}
    probe = {"uri": "file:///never-opened.py", "version": 1, "position": {"line": 0, "character": 0}}
    for name, agent in agents.items():
        agent.call("initialize", {"protocolVersion": 1, "clientCapabilities": KINDS})
        sessions[name] = agent.call("nes/start", {})["result"]["sessionId"]
        agent.notify(
            "document/didOpen",
            {"sessionId": sessions[name], "uri": URI, "languageId": "python", "version": 1, "text": text},
        )
    figures: dict[str, dict[str, list[float]]] = {name: {"wall": [], "cpu": []} for name in agents}
    version = 1
    for rep in range(args.reps):
        fn = (rep * 7) % args.functions
        line, old, new = fn * 5 + 1, f"total_{fn}", f"t{rep}_{fn}"
        for undo in (False, True):
            version += 1
            start, end, text_in = (4, 4 + len(new), old) if undo else (4, 4 + len(old), new)
            rng = {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}
            for name, agent in agents.items():
                sid = sessions[name]
                change = {"range": rng, "text": text_in}
                agent.notify(
                    "document/didChange", {"sessionId": sid, "uri": URI, "version": version, "contentChanges": [change]}
                )
                agent.call("nes/suggest", {"sessionId": sid, "triggerKind": "automatic", **probe})
                if undo:
                    continue
                before_cpu, sent = cpu_ms(agent.proc.pid), time.perf_counter()
                position = {"line": line, "character": 4 + len(new)}
                answer = agent.call(
                    "nes/suggest",
                    {
                        "sessionId": sid,
                        "uri": URI,
                        "version": version,
                        "position": position,
                        "triggerKind": "automatic",
                    },
                )
                wall, cpu = (time.perf_counter() - sent) * 1000, cpu_ms(agent.proc.pid) - before_cpu
                assert answer["result"]["suggestions"], answer
                if rep >= 5:  # the first requests compile queries
                    figures[name]["wall"].append(wall)
                    figures[name]["cpu"].append(cpu)
    for agent in agents.values():
        assert agent.proc.stdin is not None
        agent.proc.stdin.close()
        agent.proc.wait(60)
    results: dict[str, Any] = {
        **run_metadata(argv),
        "before": args.before,
        "file_lines": text.count("\n"),
        "suggests": len(figures["before"]["cpu"]),
        "agents": {name: {key: quantiles(values) for key, values in f.items()} for name, f in figures.items()},
    }
    write_results(args.out, results, None, markdown)


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "# nes/suggest: agent CPU, before and after",
        "",
        *metadata_lines(results, more=True),
        f"{results['suggests']} suggests after a rename in a {results['file_lines']}-line Python file, "
        f"every suggester; the two agents interleaved. Before: `{results['before']}`.",
        "",
        "| agent | CPU p50 ms | p90 | p99 | mean | wall p50 ms | p90 | p99 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, f in results["agents"].items():
        cpu, wall = f["cpu"], f["wall"]
        lines.append(
            f"| {name} | {cpu['p50']} | {cpu['p90']} | {cpu['p99']} | {cpu['mean']} | "
            f"{wall['p50']} | {wall['p90']} | {wall['p99']} |"
        )
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
