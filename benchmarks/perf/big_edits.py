"""Suggest CPU after one big edit: a block renamed, re-indented, pasted, deleted, rewritten.

The traces' edits are hunks of commits, mostly small; a developer also
pastes a few hundred lines, deletes a function, or rewrites a block, and the
next suggestion reads that edit (the repeat suggester's example, the rename
suggester's hunk diff). Each scenario here runs in a fresh in-process agent
(:class:`nextedit.acp.inprocess.InProcessAgent`): a generated file of
``--lines`` lines (``--language``: Python, JavaScript, Rust or C++) is opened and suggested on once (its parse and the
engine's warm-up, untimed), then the one edit is sent and the suggest after
it timed (this thread's CPU). Cost must grow with the edit, not faster.

    python benchmarks/perf/big_edits.py [--lines 6000] [--size 1500] [--language rust]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nextedit.acp.inprocess import InProcessAgent

Edit = tuple[int, int, str]  # first line, line past the end, new text


# each language's function of a few lines with its own ``value`` parameter ({f}: its number)
FUNCTIONS = {
    "python": (
        "py",
        "def func_{f}(value, other):\n    total = value + other + {k}\n    if total > 3:\n"
        "        return total\n    return value\n",
    ),
    "javascript": (
        "js",
        "function func_{f}(value, other) {{\n  const total = value + other + {k};\n  if (total > 3) {{\n"
        "    return total;\n  }}\n  return value;\n}}\n",
    ),
    "rust": (
        "rs",
        "fn func_{f}(value: i32, other: i32) -> i32 {{\n    let total = value + other + {k};\n    if total > 3 {{\n"
        "        return total;\n    }}\n    value\n}}\n",
    ),
    "cpp": (
        "cpp",
        "int func_{f}(int value, int other) {{\n  int total = value + other + {k};\n  if (total > 3) {{\n"
        "    return total;\n  }}\n  return value;\n}}\n",
    ),
}


def source(lines: int, language: str = "python") -> list[str]:
    """Functions, each with its own ``value`` parameter, up to about ``lines`` lines."""
    template = FUNCTIONS[language][1]
    out: list[str] = []
    f = 0
    while len(out) < lines:
        out += template.format(f=f, k=f % 7).splitlines()
        f += 1
    return out


def scenarios(lines: list[str], size: int) -> dict[str, Edit]:
    """The edits, each of about ``size`` lines, starting a tenth of the way into the file."""
    start = len(lines) // 10
    block = lines[start : start + size]
    return {
        f"rename `value` in {size} lines": (
            start,
            start + size,
            "".join(f"{line.replace('value', 'amount')}\n" for line in block),
        ),
        f"re-indent {size} lines": (start, start + size, "".join(f"  {line}\n" for line in block)),
        f"paste a copy of {size} lines": (start, start, "".join(f"{line}\n" for line in block)),
        f"delete {size} lines": (start, start + size, ""),
        f"replace {size} lines with 30": (start, start + size, "".join(f"    y{i} = 1\n" for i in range(30))),
    }


def _request(agent: InProcessAgent, n: int, method: str, params: dict[str, Any]) -> Any:
    return agent.send({"jsonrpc": "2.0", "id": n, "method": method, "params": params})[0]["result"]


def _notify(agent: InProcessAgent, method: str, params: dict[str, Any]) -> None:
    agent.send({"jsonrpc": "2.0", "method": method, "params": params})


def suggest_after(
    text: str, edit: Edit, language: str = "python", clock: Callable[[], float] = time.thread_time
) -> tuple[float, int]:
    """``(CPU ms, suggestions)`` of the suggest that follows ``edit`` of ``text``."""
    first, end, new = edit
    with InProcessAgent(Path(tempfile.mkdtemp(prefix="big_edits."))) as agent:
        _request(
            agent, 1, "initialize", {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-32"]}}
        )
        session = _request(agent, 2, "nes/start", {})["sessionId"]
        doc = {"sessionId": session, "uri": f"file:///big_edits.{FUNCTIONS[language][0]}"}
        _notify(agent, "document/didOpen", {**doc, "languageId": language, "version": 1, "text": text})
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
    parser.add_argument("--language", choices=sorted(FUNCTIONS), default="python")
    args = parser.parse_args(argv)
    lines = source(args.lines, args.language)
    text = "".join(f"{line}\n" for line in lines)
    print(f"| edit ({len(lines)}-line {args.language} file) | suggest CPU ms | suggestions |")
    print("|---|---:|---:|")
    for name, edit in scenarios(lines, args.size).items():
        ms, count = suggest_after(text, edit, args.language)
        print(f"| {name} | {ms:.1f} | {count} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
