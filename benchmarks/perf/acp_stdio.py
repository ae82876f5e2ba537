"""End-to-end cost over stdio of `nextedit acp`: per keystroke, and per nes/suggest after a rename.

Drives a real ``nextedit acp`` subprocess through its pipes, as an editor would.

* **keystrokes** — replays a keystroke trace (``{startContent, txns:[{patches:
  [[pos, del, ins]]}]}``, code-point positions, descending patches). Each
  transaction is one ``document/didChange`` written *together with* a probe
  request (``nes/suggest`` for a document that is not open, answered at once
  without touching the engine); the round trip until the probe's answer is
  the keystroke's latency. The same round trip with the probe alone (no
  change) is the pipe/JSON baseline; ``net`` = latency − baseline median.
  Positions are sent in utf-32 so the trace's code points map directly.
* **suggest** — a generated Python file of N lines (many small functions);
  R times, the developer renames a local at one function's definition
  (a new name each time) and ``nes/suggest`` at the cursor is timed (the
  round trip of the request alone: the didChange is applied before, a probe
  request awaited in between). Repeated for 1k, 5k, 20k lines to show how cost grows.

Usage (writes benchmarks/results/perf-acp-stdio.{json,md})::

    python benchmarks/perf/acp_stdio.py --trace ../shared/traces/keystrokes/rustcode.json.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_TRACE = ROOT.parent / "shared" / "traces" / "keystrokes" / "rustcode.json.gz"
RESULTS = ROOT / "benchmarks" / "results"


class Agent:
    """A `nextedit acp` subprocess with blocking request/answer helpers."""

    def __init__(self, state_dir: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nextedit", "acp", "--state-dir", state_dir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.ids = iter(range(1, 10**9))

    def write(self, data: bytes) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def until(self, msg_id: int) -> dict[str, Any]:
        assert self.proc.stdout
        while True:
            answer = json.loads(self.proc.stdout.readline())
            if answer.get("id") == msg_id:
                return answer

    def request_line(self, method: str, params: dict[str, Any]) -> tuple[int, bytes]:
        msg_id = next(self.ids)
        return msg_id, encode({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        msg_id, line = self.request_line(method, params)
        self.write(line)
        return self.until(msg_id)

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.write(encode({"jsonrpc": "2.0", "method": method, "params": params}))

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def q(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return {"median": statistics.median(ordered), "p90": q(0.90), "p99": q(0.99), "max": ordered[-1]}


def keystroke_changes(trace: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Trace transactions as utf-32 incremental changes, computed on a client-side mirror."""
    text = trace["startContent"]
    out = []
    for txn in trace["txns"]:
        changes = []
        for pos, deleted, inserted in txn["patches"]:
            changes.append({"range": {"start": cp_position(text, pos), "end": cp_position(text, pos + deleted)}, "text": inserted})
            text = text[:pos] + inserted + text[pos + deleted :]
        out.append(changes)
    assert text == trace["endContent"], "trace replay does not reproduce endContent"
    return out


def cp_position(text: str, cp: int) -> dict[str, int]:
    line = text.count("\n", 0, cp)
    return {"line": line, "character": cp - (text.rfind("\n", 0, cp) + 1)}


def bench_keystrokes(trace_path: Path, language: str, limit: int | None) -> dict[str, Any]:
    with gzip.open(trace_path, "rt", encoding="utf-8") if trace_path.suffix == ".gz" else open(trace_path) as f:
        trace = json.load(f)
    transactions = keystroke_changes(trace)[: limit or None]
    uri = "file:///bench/trace.rs" if language == "rust" else f"file:///bench/trace.{language}"
    with tempfile.TemporaryDirectory() as state_dir:
        agent = Agent(state_dir)
        agent.call("initialize", {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-32"]}})
        sid = agent.call("nes/start", {})["result"]["sessionId"]
        agent.notify("document/didOpen", {"sessionId": sid, "uri": uri, "languageId": language, "version": 0, "text": trace["startContent"]})
        probe = {"sessionId": sid, "uri": "file:///bench/not-open", "version": 0,
                 "position": {"line": 0, "character": 0}, "triggerKind": "automatic"}
        baseline_us = []
        for _ in range(500):
            msg_id, line = agent.request_line("nes/suggest", probe)
            t0 = time.perf_counter_ns()
            agent.write(line)
            agent.until(msg_id)
            baseline_us.append((time.perf_counter_ns() - t0) / 1000)
        latency_us = []
        for version, changes in enumerate(transactions, start=1):
            change = encode({"jsonrpc": "2.0", "method": "document/didChange",
                             "params": {"sessionId": sid, "uri": uri, "version": version, "contentChanges": changes}})
            msg_id, line = agent.request_line("nes/suggest", probe)
            t0 = time.perf_counter_ns()
            agent.write(change + line)
            agent.until(msg_id)
            latency_us.append((time.perf_counter_ns() - t0) / 1000)
        # the mirror must match the trace's end: a suggest at the final version answers
        final = agent.call("nes/suggest", {**probe, "uri": uri, "version": len(transactions)})
        assert "result" in final, final
        agent.close()
    base = statistics.median(baseline_us)
    net = [max(0.0, x - base) for x in latency_us]
    return {
        "trace": trace_path.name,
        "keystrokes": len(latency_us),
        "baseline_round_trip_us": quantiles(baseline_us),
        "keystroke_round_trip_us": quantiles(latency_us),
        "keystroke_net_us": quantiles(net),
    }


def python_file(lines: int) -> tuple[str, int]:
    """A Python module of about ``lines`` lines; returns it and the line of the function to rename in."""
    block = [
        "def function_{i}(items, scale):",
        "    # 😀 accumulate: total stays in this comment",
        "    total = 0",
        "    for item in items:",
        "        total += item.price * scale",
        "    label = \"total 漢字\"",
        "    return total, label",
        "",
    ]
    count = max(1, lines // len(block))
    text = "\n".join(line.format(i=i) for i in range(count) for line in block) + "\n"
    middle = (count // 2) * len(block) + 2  # the "total = 0" line of the middle function
    return text, middle


def bench_suggest(lines: int, repeats: int) -> dict[str, Any]:
    text, line = python_file(lines)
    uri = "file:///bench/big.py"
    with tempfile.TemporaryDirectory() as state_dir:
        agent = Agent(state_dir)
        agent.call("initialize", {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-16"]}})
        sid = agent.call("nes/start", {})["result"]["sessionId"]
        agent.notify("document/didOpen", {"sessionId": sid, "uri": uri, "languageId": "python", "version": 1, "text": text})
        times_ms = []
        found = 0
        name = "total"
        for i in range(repeats):
            # a fresh rename before every timed suggest, so nothing can be reused from the last one
            new_name = f"amount{i}"
            change = {"range": {"start": {"line": line, "character": 4}, "end": {"line": line, "character": 4 + len(name)}}, "text": new_name}
            agent.notify("document/didChange", {"sessionId": sid, "uri": uri, "version": i + 2, "contentChanges": [change]})
            name = new_name
            agent.call("nes/suggest", {"sessionId": sid, "uri": "file:///bench/not-open", "version": 0,
                                       "position": {"line": 0, "character": 0}, "triggerKind": "automatic"})
            params = {"sessionId": sid, "uri": uri, "version": i + 2,
                      "position": {"line": line, "character": 4 + len(name)}, "triggerKind": "automatic"}
            msg_id, request = agent.request_line("nes/suggest", params)
            t0 = time.perf_counter_ns()
            agent.write(request)
            answer = agent.until(msg_id)
            times_ms.append((time.perf_counter_ns() - t0) / 1e6)
            found += bool(answer["result"]["suggestions"])
        agent.close()
    return {"lines": text.count("\n"), "answered_with_suggestions": found, "repeats": repeats, "latency_ms": quantiles(times_ms)}


def markdown(results: dict[str, Any]) -> str:
    out = [
        "# nextedit acp over stdio: performance",
        "",
        f"Command: `{results['command']}`  ",
        f"Machine: {results['machine']}  ",
        f"Date: {results['date']}",
        "",
    ]
    k = results.get("keystrokes")
    if k:
        out += [
            f"## Keystrokes ({k['trace']}, {k['keystrokes']} transactions)",
            "",
            "Round trip of `didChange` + probe request, and the probe alone; net = round trip − probe median.",
            "",
            "| µs | median | p90 | p99 | max |",
            "|---|---:|---:|---:|---:|",
        ]
        for name in ("baseline_round_trip_us", "keystroke_round_trip_us", "keystroke_net_us"):
            q = k[name]
            out.append(f"| {name} | {q['median']:.0f} | {q['p90']:.0f} | {q['p99']:.0f} | {q['max']:.0f} |")
        out += ["", "Targets: net median ≤ 500 µs, p99 ≤ 3,000 µs.", ""]
    if results.get("suggest"):
        out += [
            "## nes/suggest after a rename (Python, round trip over stdio)",
            "",
            "| lines | non-empty answers | p50 ms | p90 ms | p99 ms | max ms |",
            "|---:|---:|---:|---:|---:|---:|",
        ]
        for row in results["suggest"]:
            q = row["latency_ms"]
            out.append(f"| {row['lines']} | {row['answered_with_suggestions']}/{row['repeats']} | {q['median']:.2f} | {q['p90']:.2f} | {q['p99']:.2f} | {q['max']:.2f} |")
        out += ["", "Targets (5,000 lines): p50 ≤ 5 ms, p99 ≤ 20 ms.", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trace", type=Path, default=DEFAULT_TRACE)
    parser.add_argument("--language", default="rust")
    parser.add_argument("--limit", type=int, help="replay only the first N transactions")
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--skip-keystrokes", action="store_true")
    parser.add_argument("--out", type=Path, default=RESULTS / "perf-acp-stdio")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {
        "command": "python " + " ".join(shlex.quote(a) for a in [str(Path(sys.argv[0])), *(argv or sys.argv[1:])]),
        "machine": f"{platform.machine()} {platform.system()} {platform.release()}, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }
    if not args.skip_keystrokes:
        results["keystrokes"] = bench_keystrokes(args.trace, args.language, args.limit)
    results["suggest"] = [bench_suggest(int(n), args.repeats) for n in args.sizes.split(",")]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(results, indent=2) + "\n")
    args.out.with_suffix(".md").write_text(markdown(results))
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
