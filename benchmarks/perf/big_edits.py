"""Suggest CPU after one big edit: a block renamed, re-indented, pasted, deleted, rewritten.

The traces' edits are hunks of commits, mostly small; a developer also
pastes a few hundred lines, deletes a function, or rewrites a block, and the
next suggestion reads that edit (the repeat suggester's example, the rename
suggester's hunk diff). Each scenario here runs in a fresh in-process agent
(:class:`nextedit.acp.inprocess.InProcessAgent`): the generated Python file
of ``--lines`` lines is opened and suggested on once (its parse and the
engine's warm-up, untimed), then the one edit is sent and the suggest after
it timed (this thread's CPU). Cost must grow with the edit, not faster.

    python benchmarks/perf/big_edits.py [--lines 6000] [--size 1500]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nextedit.acp.inprocess import InProcessAgent

URI = "file:///big_edits.py"
Edit = tuple[int, int, str]  # first line, line past the end, new text


def source(lines: int) -> list[str]:
    """Functions of six lines, each with its own ``value`` parameter."""
    out: list[str] = []
    for f in range(lines // 6):
        out += [
            f"def func_{f}(value, other):",
            f"    total = value + other + {f % 7}",
            "    if total > 3:",
            "        return total",
            "    return value",
            "",
        ]
    return out


def scenarios(lines: list[str], size: int) -> dict[str, Edit]:
    """The edits, each of about ``size`` lines, in the middle of the file."""
    start = len(lines) // 10
    block = lines[start : start + size]
    return {
        f"rename `value` in {size} lines": (
            start,
            start + size,
            "".join(f"{line.replace('value', 'amount')}\n" for line in block),
        ),
        f"re-indent {size} lines": (start, start + size, "".join(f"  {line}\n" for line in block)),
        f"paste {size} repetitive lines": (
            start,
            start,
            "".join(["    }\n", "    x = foo(bar)\n", "\n"] * (size // 3)),
        ),
        f"delete {size} lines": (start, start + size, ""),
        f"replace {size} lines with 30": (start, start + size, "".join(f"    y{i} = 1\n" for i in range(30))),
    }


def _request(agent: InProcessAgent, n: int, method: str, params: dict[str, Any]) -> Any:
    return agent.send({"jsonrpc": "2.0", "id": n, "method": method, "params": params})[0]["result"]


def _notify(agent: InProcessAgent, method: str, params: dict[str, Any]) -> None:
    agent.send({"jsonrpc": "2.0", "method": method, "params": params})


def suggest_after(text: str, edit: Edit, clock: Callable[[], float] = time.thread_time) -> tuple[float, int]:
    """``(CPU ms, suggestions)`` of the suggest that follows ``edit`` of ``text``."""
    first, end, new = edit
    with InProcessAgent(Path(tempfile.mkdtemp(prefix="big_edits."))) as agent:
        _request(
            agent, 1, "initialize", {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-32"]}}
        )
        session = _request(agent, 2, "nes/start", {})["sessionId"]
        doc = {"sessionId": session, "uri": URI}
        _notify(agent, "document/didOpen", {**doc, "languageId": "python", "version": 1, "text": text})
        where = {"line": first, "character": 0}
        _request(agent, 3, "nes/suggest", {**doc, "version": 1, "position": where, "triggerKind": "automatic"})
        change = {"range": {"start": where, "end": {"line": end, "character": 0}}, "text": new}
        _notify(agent, "document/didChange", {**doc, "version": 2, "contentChanges": [change]})
        start = clock()
        answer = _request(agent, 4, "nes/suggest", {**doc, "version": 2, "position": where, "triggerKind": "automatic"})
        return (clock() - start) * 1e3, len(answer["suggestions"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=6000, help="lines of the generated file")
    parser.add_argument("--size", type=int, default=1500, help="lines each edit spans")
    args = parser.parse_args(argv)
    lines = source(args.lines)
    text = "".join(f"{line}\n" for line in lines)
    print(f"| edit ({args.lines}-line Python file) | suggest CPU ms | suggestions |")
    print("|---|---:|---:|")
    for name, edit in scenarios(lines, args.size).items():
        ms, count = suggest_after(text, edit)
        print(f"| {name} | {ms:.1f} | {count} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
