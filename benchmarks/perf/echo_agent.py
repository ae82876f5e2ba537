"""A do-nothing ACP NES agent: the floor a real agent's cost is read against.

Reads newline-delimited JSON-RPC on stdin and answers every request at once
— ``nes/suggest`` with ``{"suggestions": []}``, ``nes/start`` with a session
id, anything else with ``{}`` — and ignores notifications. It parses every
message as the real agent must, so the difference between the two in the
same run is what nextedit's work costs, not pipes, JSON or process overhead.

Usage: ``python benchmarks/perf/echo_agent.py`` (stdio).
"""

from __future__ import annotations

import json
import sys


def main() -> int:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" not in message:
            continue
        method = message.get("method")
        if method == "nes/suggest":
            result: dict[str, object] = {"suggestions": []}
        elif method == "nes/start":
            result = {"sessionId": "echo-1"}
        else:
            result = {}
        out.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}).encode() + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
