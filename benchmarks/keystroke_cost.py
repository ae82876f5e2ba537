"""Per-keystroke cost: replay a keystroke trace through nextedit.

Two measurements, both on the same trace:

* **in-process**: each transaction becomes one ``document/didChange`` applied
  by ``Session.did_change`` (text + line index + incremental tree-sitter
  re-parse + edit history); we time every call and report median/p99/max.
* **over stdio**: the same changes are streamed as JSON-RPC notifications to a
  real ``nextedit acp`` subprocess, with a ``nes/suggest`` every 1,000
  keystrokes to pace it; total wall time / keystrokes gives the end-to-end
  cost per keystroke including JSON parsing and the pipe.

Usage::

    python benchmarks/keystroke_cost.py ../shared/traces/keystrokes/rustcode.json.gz \
        --language rust --json benchmarks/results/keystrokes-rustcode.json
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from nextedit.session import Session
from nextedit.text import Document, Position, PositionEncoding, Range, TextChange

ENC = PositionEncoding.UTF16


def load_trace(path: Path) -> dict:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def to_changes(trace: dict) -> list[list[TextChange]]:
    """Each transaction as LSP changes (UTF-16 positions), computed on a client mirror."""
    mirror = Document("file:///bench", "plaintext", 0, trace["startContent"])
    transactions = []
    for txn in trace["txns"]:
        changes = []
        for pos, deleted, inserted in txn["patches"]:  # descending: each applies to the previous result
            start = mirror.position_at(pos, ENC)
            end = mirror.position_at(pos + deleted, ENC)
            changes.append(TextChange(Range(start, end), inserted))
            mirror.replace(pos, pos + deleted, inserted)
        transactions.append(changes)
    assert mirror.text == trace["endContent"], "trace conversion does not reproduce endContent"
    return transactions


def in_process(trace: dict, transactions: list[list[TextChange]], language: str) -> dict:
    session = Session("bench", encoding=ENC)
    uri = f"file:///bench.{ {'rust': 'rs', 'svelte': 'svelte'}.get(language, 'txt') }"
    session.did_open(uri, language, 0, trace["startContent"])
    costs_us = []
    for version, changes in enumerate(transactions, start=1):
        t0 = time.perf_counter_ns()
        session.did_change(uri, version, changes)
        costs_us.append((time.perf_counter_ns() - t0) / 1000)
    state = session.get(uri)
    assert state is not None and state.document.text == trace["endContent"]
    single = [c for c, ch in zip(costs_us, transactions) if len(ch) == 1 and len(ch[0].text) <= 1]
    return {
        "keystrokes": len(costs_us),
        "median_us": statistics.median(costs_us),
        "p99_us": _quantile(costs_us, 0.99),
        "max_us": max(costs_us),
        "single_char_median_us": statistics.median(single),
        "single_char_p99_us": _quantile(single, 0.99),
        "final_lines": state.document.line_count,
    }


def over_stdio(trace: dict, transactions: list[list[TextChange]], language: str) -> dict:
    uri = "file:///bench.rs" if language == "rust" else f"file:///bench.{language}"
    with tempfile.TemporaryDirectory() as state_dir:
        proc = subprocess.Popen(
            [sys.executable, "-m", "nextedit", "acp", "--state-dir", state_dir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdin and proc.stdout
        next_id = iter(range(1, 10**9))

        def request(method: str, params: dict) -> dict:
            msg_id = next(next_id)
            send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
            while True:
                answer = json.loads(proc.stdout.readline())
                if answer.get("id") == msg_id:
                    return answer

        def send(message: dict) -> None:
            proc.stdin.write(json.dumps(message).encode() + b"\n")
            proc.stdin.flush()

        request("initialize", {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-16"]}})
        session_id = request("nes/start", {})["result"]["sessionId"]
        send_params = {"sessionId": session_id, "uri": uri}
        send({"jsonrpc": "2.0", "method": "document/didOpen", "params": {**send_params, "languageId": language, "version": 0, "text": trace["startContent"]}})
        lines = []
        for version, changes in enumerate(transactions, start=1):
            payload = [
                {"range": {"start": _pos(c.range.start), "end": _pos(c.range.end)}, "text": c.text}
                for c in changes
            ]
            lines.append(
                json.dumps({"jsonrpc": "2.0", "method": "document/didChange", "params": {**send_params, "version": version, "contentChanges": payload}}).encode() + b"\n"
            )
        t0 = time.perf_counter()
        for index, line in enumerate(lines, start=1):
            proc.stdin.write(line)
            if index % 1000 == 0 or index == len(lines):
                proc.stdin.flush()
                request("nes/suggest", {**send_params, "version": index, "position": {"line": 0, "character": 0}, "triggerKind": "automatic"})
        elapsed = time.perf_counter() - t0
        proc.stdin.close()
        proc.wait(timeout=30)
    return {"keystrokes": len(lines), "total_s": elapsed, "mean_us": elapsed / len(lines) * 1e6}


def _pos(position: Position) -> dict:
    return {"line": position.line, "character": position.character}


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace", type=Path)
    parser.add_argument("--language", default="rust")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    trace = load_trace(args.trace)
    transactions = to_changes(trace)
    result = {
        "trace": args.trace.name,
        "machine": f"{platform.machine()} {platform.processor() or ''} python {platform.python_version()}".strip(),
        "in_process": in_process(trace, transactions, args.language),
        "over_stdio": over_stdio(trace, transactions, args.language),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
