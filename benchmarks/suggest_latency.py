"""``nes/suggest`` latency over stdio after a rename, on files of growing size.

For each size (lines) we generate a Python module of many small functions
that share module-level names, open it in a real ``nextedit acp``
subprocess, rename one use of a module-level name (the edit a developer
makes), and time ``nes/suggest`` round trips (client write → answer read)
at the edited site. The suggestion must be the rename (checked), so the
figures are for real work, not an early exit.

Usage::

    python benchmarks/suggest_latency.py --sizes 1000 5000 20000 --repeat 200 \
        --json benchmarks/results/suggest-latency.json
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def generate_module(lines: int) -> str:
    """A plausible module: constants, then functions using them, ~`lines` lines."""
    out = ["import os", "import sys", "", "LIMIT = 10", "scale_factor = 3", ""]
    index = 0
    while len(out) < lines:
        out += [
            f"def handler_{index}(value, items):",
            f'    """Handle case {index}."""',
            "    total = value * scale_factor",
            "    for item in items:",
            "        if item > LIMIT:",
            f"            total += item - {index}",
            "    return total",
            "",
        ]
        index += 1
    return "\n".join(out[:lines]) + "\n"


class Agent:
    def __init__(self, state_dir: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nextedit", "acp", "--state-dir", state_dir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._next_id = 0

    def send(self, message: dict) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict) -> tuple[dict, float]:
        assert self.proc.stdout
        self._next_id += 1
        t0 = time.perf_counter()
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        while True:
            answer = json.loads(self.proc.stdout.readline())
            if answer.get("id") == self._next_id:
                return answer, time.perf_counter() - t0

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def measure(lines: int, repeat: int) -> dict:
    text = generate_module(lines)
    uri = f"file:///bench/module_{lines}.py"
    # rename the use of `scale_factor` inside the last complete function
    text_lines = text.splitlines()
    site_line = max(i for i, line in enumerate(text_lines) if "value * scale_factor" in line)
    site_char = text_lines[site_line].index("scale_factor")
    with tempfile.TemporaryDirectory() as state_dir:
        agent = Agent(state_dir)
        try:
            agent.request(
                "initialize",
                {
                    "protocolVersion": 1,
                    "clientCapabilities": {
                        "positionEncodings": ["utf-16"],
                        "nes": {"jump": {}, "rename": {}, "searchAndReplace": {}},
                    },
                },
            )
            session_id = agent.request("nes/start", {})[0]["result"]["sessionId"]
            base = {"sessionId": session_id, "uri": uri}
            agent.send({"jsonrpc": "2.0", "method": "document/didOpen", "params": {**base, "languageId": "python", "version": 1, "text": text}})
            start = {"line": site_line, "character": site_char}
            end = {"line": site_line, "character": site_char + len("scale_factor")}
            agent.send({"jsonrpc": "2.0", "method": "document/didChange", "params": {**base, "version": 2, "contentChanges": [{"range": {"start": start, "end": end}, "text": "scale_ratio"}]}})
            cursor = {"line": site_line, "character": site_char + len("scale_ratio")}
            params = {**base, "version": 2, "position": cursor, "triggerKind": "automatic"}
            answer, _ = agent.request("nes/suggest", params)  # warm-up, and the check
            suggestions = answer["result"]["suggestions"]
            assert suggestions and suggestions[0]["kind"] == "rename", suggestions[:1]
            timings = [agent.request("nes/suggest", params)[1] * 1000 for _ in range(repeat)]
        finally:
            agent.close()
    timings.sort()
    return {
        "lines": lines,
        "requests": repeat,
        "p50_ms": timings[len(timings) // 2],
        "p99_ms": timings[min(len(timings) - 1, int(0.99 * len(timings)))],
        "max_ms": timings[-1],
        "first_suggestion": suggestions[0]["kind"],
        "occurrences": len(generate_module(lines).split("scale_factor")) - 1,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = {
        "machine": f"{platform.machine()} python {platform.python_version()}",
        "runs": [measure(lines, args.repeat) for lines in args.sizes],
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
