"""What a client waits for while `nextedit acp` computes a slow suggest: cancel, a change, a probe.

A slow suggest, from real work on a large realistic input: a Python file made
of the standard library's modules (``--mb``, default 1.5 MB) is opened, a
local is renamed at its top and a first suggest is awaited (so the file is
parsed and the rename is in the history); then the developer types ``\"\"\"``
at the start of line 5 — every later line becomes string or code in turn, so
tree-sitter's re-parse is nearly a whole parse with error recovery — and asks
for a suggest at the rename. That suggest takes from a few hundred
milliseconds to seconds. ``--delay`` ms after sending it (default 100), the
client sends one of:

* **cancel** — ``$/cancel_request``: time until the suggest's answer, and
  which answer it was (-32800, or the computed result);
* **change** — a newer ``didChange``: time until the suggest's answer
  (``{"suggestions": []}`` at once when the loop keeps reading);
* **probe** — ``nes/start`` (an ordinary request): its round trip, i.e. how
  long the loop is unavailable;
* **probes** — ``nes/start`` every 20 ms until the suggest answers: the
  longest round trip among them (how long the loop was unavailable at worst);
* **none** — nothing: how long the suggest computes (the reference).

Each repetition is a fresh process; the scenarios interleave. ``--pythonpath``
runs another checkout's sources the same way (before/after in one run).

Usage (writes benchmarks/results/cancel.{json,md})::

    python benchmarks/perf/cancel.py --reps 8
    python benchmarks/perf/cancel.py --reps 8 --pythonpath /tmp/before/src --out /tmp/cancel-before
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from results_file import metadata_lines, run_metadata, write_results

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
URI = "file:///bench/big.py"
HEAD = "def area(w, h):\n    size = w * h\n    return size + size\n\n"
SCENARIOS = ("none", "cancel", "change", "probe", "probes")


def big_text(megabytes: float) -> str:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    parts, size = [HEAD], 0
    for path in sorted(stdlib.glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        parts.append(text)
        size += len(text)
        if size > megabytes * 1e6:
            break
    return "\n".join(parts)


class Agent:
    def __init__(self, env: dict[str, str], state_dir: str) -> None:
        argv = [sys.executable, "-m", "nextedit", "acp", "--state-dir", state_dir]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def answer(self, request_id: int) -> tuple[dict[str, Any], float]:
        """The answer to ``request_id`` and when it was read; earlier answers are skipped."""
        assert self.proc.stdout is not None
        while True:
            message = json.loads(self.proc.stdout.readline())
            if message.get("id") == request_id:
                return message, time.perf_counter()

    def answers(self, *request_ids: int) -> dict[int, float]:
        """When each of ``request_ids`` was answered (whatever the order)."""
        assert self.proc.stdout is not None
        arrived: dict[int, float] = {}
        while len(arrived) < len(request_ids):
            message = json.loads(self.proc.stdout.readline())
            if message.get("id") in request_ids:
                arrived[message["id"]] = time.perf_counter()
        return arrived

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        return self.answer(self.request(method, params))[0]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(120)


def suggest_params(sid: str, version: int) -> dict[str, Any]:
    return {
        "sessionId": sid,
        "uri": URI,
        "version": version,
        "position": {"line": 1, "character": 9},
        "triggerKind": "automatic",
    }


def change(sid: str, version: int, line: int, start: int, end: int, text: str) -> dict[str, Any]:
    rng = {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}
    return {"sessionId": sid, "uri": URI, "version": version, "contentChanges": [{"range": rng, "text": text}]}


def one_rep(env: dict[str, str], text: str, scenario: str, delay_s: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as state:
        agent = Agent(env, state)
        try:
            agent.call("initialize", {"protocolVersion": 1, "clientCapabilities": {"nes": {"rename": {}}}})
            sid = agent.call("nes/start", {})["result"]["sessionId"]
            agent.notify(
                "document/didOpen", {"sessionId": sid, "uri": URI, "languageId": "python", "version": 1, "text": text}
            )
            agent.notify("document/didChange", change(sid, 2, 1, 4, 8, "total"))
            warm = agent.call("nes/suggest", suggest_params(sid, 2))
            assert warm["result"]["suggestions"], warm
            agent.notify("document/didChange", change(sid, 3, 4, 0, 0, '"""'))
            sent = time.perf_counter()
            suggest_id = agent.request("nes/suggest", suggest_params(sid, 3))
            if scenario == "none":
                answer, done = agent.answer(suggest_id)
                return {"wait_ms": (done - sent) * 1000, "answer": kind_of(answer)}
            if scenario == "probes":
                return {"wait_ms": worst_probe(agent, suggest_id), "answer": "suggest answered after the probes"}
            time.sleep(delay_s)
            acted = time.perf_counter()
            if scenario == "cancel":
                agent.notify("$/cancel_request", {"requestId": suggest_id})
            elif scenario == "change":
                agent.notify("document/didChange", change(sid, 4, 4, 0, 3, ""))
            else:
                probe_id = agent.request("nes/start", {})
            if scenario == "probe":
                arrived = agent.answers(suggest_id, probe_id)
                first = "probe answered first" if arrived[probe_id] < arrived[suggest_id] else "suggest answered first"
                return {"wait_ms": (arrived[probe_id] - acted) * 1000, "answer": first}
            answer, done = agent.answer(suggest_id)
            return {"wait_ms": (done - acted) * 1000, "answer": kind_of(answer)}
        finally:
            agent.close()


def worst_probe(agent: Agent, suggest_id: int) -> float:
    """Probe every 20 ms until the suggest is answered; the longest probe round trip."""
    assert agent.proc.stdout is not None
    worst = 0.0
    while True:
        time.sleep(0.02)
        sent = time.perf_counter()
        probe_id = agent.request("nes/start", {})
        while True:
            message = json.loads(agent.proc.stdout.readline())
            if message.get("id") == probe_id:
                worst = max(worst, (time.perf_counter() - sent) * 1000)
                break
            if message.get("id") == suggest_id:  # the loop answered it before this probe
                agent.answer(probe_id)
                return max(worst, (time.perf_counter() - sent) * 1000)


def kind_of(answer: dict[str, Any]) -> str:
    if "error" in answer:
        return f"error {answer['error']['code']}"
    return "empty" if not answer["result"]["suggestions"] else "suggestions"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=8)
    parser.add_argument("--mb", type=float, default=1.5, help="size of the Python file")
    parser.add_argument("--delay", type=float, default=100.0, help="ms between the suggest and the action")
    parser.add_argument("--pythonpath", help="run the agent from this source directory instead")
    parser.add_argument("--out", type=Path, default=RESULTS / "cancel")
    args = parser.parse_args(argv)
    env = {**os.environ}
    if args.pythonpath:
        env["PYTHONPATH"] = args.pythonpath
    text = big_text(args.mb)
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in SCENARIOS}
    for rep in range(args.reps):
        for scenario in SCENARIOS:
            runs[scenario].append(one_rep(env, text, scenario, args.delay / 1000))
        print(f"rep {rep + 1}/{args.reps}", file=sys.stderr)
    results: dict[str, Any] = {
        **run_metadata(argv),
        "agent": args.pythonpath or "this checkout",
        "file": {"chars": len(text), "lines": text.count("\n") + 1},
        "delay_ms": args.delay,
        "reps": args.reps,
        "scenarios": {
            name: {
                "wait_ms": summary([r["wait_ms"] for r in rows]),
                "answers": {a: sum(r["answer"] == a for r in rows) for a in sorted({r["answer"] for r in rows})},
            }
            for name, rows in runs.items()
        },
    }
    write_results(args.out, results, None, markdown)


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 1),
        "min": round(ordered[0], 1),
        "max": round(ordered[-1], 1),
    }


WHAT = {
    "none": "suggest sent → its answer (how long it computes)",
    "cancel": "`$/cancel_request` sent → the suggest's answer",
    "change": "newer `didChange` sent → the suggest's answer",
    "probe": "`nes/start` sent → its answer (the loop's availability)",
    "probes": "the longest `nes/start` round trip, one every 20 ms while the suggest computes",
}


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "# nextedit acp: waiting on a slow suggest",
        "",
        *metadata_lines(results, more=True),
        f"Agent sources: {results['agent']}; {results['reps']} fresh processes per scenario; "
        f"file {results['file']['lines']} lines / {results['file']['chars']} chars of standard-library "
        f'Python; the action is sent {results["delay_ms"]:.0f} ms after the suggest (`"""` typed at line 5 '
        "after a rename: a near-whole re-parse).",
        "",
        "| scenario | what is timed | median ms | min | max | answers |",
        "|---|---|---:|---:|---:|---|",
    ]
    for name, figures in results["scenarios"].items():
        wait = figures["wait_ms"]
        answers = ", ".join(f"{k} ×{v}" for k, v in figures["answers"].items())
        lines.append(f"| {name} | {WHAT[name]} | {wait['median']} | {wait['min']} | {wait['max']} | {answers} |")
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
