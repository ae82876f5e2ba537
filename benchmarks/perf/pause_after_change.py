"""The suggest after a pause, and a burst of keystrokes, on big C++ files: what a parse ahead after a change moves.

Drives a real ``nextedit acp`` over stdio beside the do-nothing agent of
``echo_agent.py`` (same messages, in lockstep), as ``suggest_cpu.py`` does:
CPU is the agent's (``/proc/PID/task/*/schedstat``, every thread), wall is
from writing the request to reading its answer.

Files: fmt's ``format.h`` as the fmt trace first opens it (162 KB, one
top-level ``ERROR``: tree-sitter-cpp re-parses most of it after any edit,
4–10 ms), and the generated C++ files of ``languages.py`` (``--lines``).

* **pause** — per sample: a fresh edit that needs a re-parse (``format.h``:
  another local renamed at its declaration, so the rename suggester reads
  the tree, or a statement line inserted in the middle, after which no
  suggester reads it; generated: ``total = 0`` → ``total = 1`` in one more
  function), then ``--pauses`` ms of nothing (0:
  the change and the suggest in one write, as ``nextedit bench`` sends
  them), then ``nes/suggest`` at the edit. Timed: the suggest request
  itself (CPU and wall, a probe request after its answer included, as in
  ``suggest_cpu.py``), and the whole cycle's CPU (from before the change to
  after the suggest: the work the pause moved is still counted there).
* **burst** — ``--keystrokes`` one-character insertions, ``--intervals`` ms
  apart, no suggest: agent CPU per keystroke over the burst (up to a probe
  answered after the last one), then the CPU of the ``--tail`` ms after it
  (a parse ahead of the last keystroke, if any).

To compare two versions, run it twice with ``PYTHONPATH`` set to each
version's ``src`` (the agent is started as ``python -m nextedit`` and
inherits it). Writes ``NAME.json`` and ``NAME.md`` (``--out``)::

    PYTHONPATH=src python benchmarks/perf/pause_after_change.py --out /tmp/branch
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_cpu import cpu_ns
from languages import source
from results_file import metadata_lines, run_metadata, write_results
from suggest_cpu import Agent, did_change, echo_agent, nextedit_agent, quantiles, suggest_params

TRACE = Path("/work/shared/traces/train/fmt.jsonl.gz")


@dataclass(frozen=True)
class File:
    name: str
    uri: str
    language: str
    text: str
    # (sample number, its document version) -> the didChange of that sample, and the cursor after it
    edit: Callable[[str, int, int], tuple[dict[str, Any], tuple[int, int]]]
    line: int  # where a burst types


def _format_h_text(trace: Path) -> str:
    with gzip.open(trace, "rt") as fh:
        for raw in fh:
            event = json.loads(raw)
            if event.get("kind") == "open" and event["uri"].endswith("/format.h"):
                return str(event["text"])
    raise SystemExit(f"format.h is not opened in {trace}")


FORMAT_H_URI = "file:///bench/fmt/include/fmt/format.h"
# a local declared in a function body: `  auto name =`, `  int name =` ...
_LOCAL = re.compile(r"^\s+(?:auto|int|size_t|char|bool|unsigned|const auto)\s+([a-z_]\w{2,})\s*=")


def format_h_insert(trace: Path) -> File:
    """``format.h`` as the fmt trace first opens it; edits insert a statement line at 40% of it
    (the suggest after it reads no tree: nothing suggests anything there)."""
    text = _format_h_text(trace)
    line = text.count("\n") * 2 // 5

    def edit(session: str, sample: int, version: int) -> tuple[dict[str, Any], tuple[int, int]]:
        new = f"  int pause_{sample} = {sample};\n"
        return did_change(session, FORMAT_H_URI, version, line, 0, 0, new), (line, len(new) - 1)

    return File("format.h: line inserted", FORMAT_H_URI, "cpp", text, edit, line)


def format_h_rename(trace: Path) -> File:
    """``format.h``; each edit renames another local at its declaration (from 40% of the file
    on): the rename suggester checks the new name on the current tree, so the suggest parses."""
    text = _format_h_text(trace)
    lines = text.split("\n")
    start = len(lines) * 2 // 5
    sites = [(i, m.start(1), m.group(1)) for i, row in enumerate(lines) if i >= start and (m := _LOCAL.match(row))]

    def edit(session: str, sample: int, version: int) -> tuple[dict[str, Any], tuple[int, int]]:
        line, col, name = sites[sample % len(sites)]
        new = f"{name}_{sample}"
        return did_change(session, FORMAT_H_URI, version, line, col, col + len(name), new), (line, col + len(new))

    return File("format.h: local renamed", FORMAT_H_URI, "cpp", text, edit, start)


def generated(lines: int) -> File:
    """A generated C++ file; edits change ``total = 0`` to ``total = 1`` in one more function."""
    src = source("cpp", lines)
    mid = src.functions // 2

    def edit(session: str, sample: int, version: int) -> tuple[dict[str, Any], tuple[int, int]]:
        line, col = src.init_value((mid + sample) % src.functions)
        return did_change(session, src.uri, version, line, col, col + 1, "1"), (line, col + 1)

    return File(f"generated {src.lines} lines", src.uri, "cpp", src.text, edit, src.local_definition(mid)[0])


def _open(agent: Agent, file: File) -> None:
    agent.start()
    message = {
        "jsonrpc": "2.0",
        "method": "document/didOpen",
        "params": {
            "sessionId": agent.session,
            "uri": file.uri,
            "languageId": file.language,
            "version": 1,
            "text": file.text,
        },
    }
    agent.write(message)
    agent.probe()
    time.sleep(0.3)  # the first parse ahead, and the warm-up, out of the way
    agent.probe()


def run_pause(file: File, pause_ms: float, samples: int, warm: int = 3) -> dict[str, Any]:
    cpu: dict[str, list[float]] = {"nextedit": [], "echo": []}
    wall: dict[str, list[float]] = {"nextedit": [], "echo": []}
    cycle: dict[str, list[float]] = {"nextedit": [], "echo": []}
    kinds: dict[str, int] = {}
    agents = [nextedit_agent(), echo_agent()]
    try:
        for agent in agents:
            _open(agent, file)
        for sample in range(warm + samples):
            version = sample + 2
            for agent in agents:
                change, (line, col) = file.edit(agent.session, sample, version)
                request = agent.request("nes/suggest", suggest_params(agent.session, file.uri, version, line, col))
                c0 = cpu_ns(agent.proc.pid)
                if pause_ms:
                    agent.write(change)
                    time.sleep(pause_ms / 1000)
                    c1 = cpu_ns(agent.proc.pid)
                    t1 = time.perf_counter_ns()
                    agent.write(request)
                else:  # back to back, in one write
                    c1 = c0
                    t1 = time.perf_counter_ns()
                    agent.write(change, request)
                answer = agent.until(request["id"])
                w = (time.perf_counter_ns() - t1) / 1e6
                agent.probe()
                c2 = cpu_ns(agent.proc.pid)
                if sample < warm:
                    continue
                cpu[agent.name].append((c2 - c1) / 1e6)
                wall[agent.name].append(w)
                cycle[agent.name].append((c2 - c0) / 1e6)
                if agent.name == "nextedit":
                    found = (answer.get("result") or {}).get("suggestions") or []
                    kind = found[0]["kind"] if found else "none"
                    kinds[kind] = kinds.get(kind, 0) + 1
    finally:
        for agent in agents:
            agent.close()
    return {
        "file": file.name,
        "pause_ms": pause_ms,
        "samples": samples,
        "cpu_ms": quantiles(cpu["nextedit"]),
        "wall_ms": quantiles(wall["nextedit"]),
        "cycle_cpu_ms": quantiles(cycle["nextedit"]),
        "echo_cpu_ms": quantiles(cpu["echo"]),
        "echo_wall_ms": quantiles(wall["echo"]),
        "first_suggestion_kinds": kinds,
    }


def run_burst(file: File, interval_ms: float, keystrokes: int, tail_ms: float, rounds: int) -> dict[str, Any]:
    typed = "  int burst_value = 42;\n"
    per_key: dict[str, list[float]] = {"nextedit": [], "echo": []}
    tail: dict[str, list[float]] = {"nextedit": [], "echo": []}
    agents = [nextedit_agent(), echo_agent()]
    try:
        for agent in agents:
            _open(agent, file)
        version = 1
        line, col = file.line, 0
        for _ in range(rounds):
            start_version = version
            for agent in agents:
                version, key_line, key_col = start_version, line, col
                c0 = cpu_ns(agent.proc.pid)
                for k in range(keystrokes):
                    ch = typed[k % len(typed)]
                    version += 1
                    agent.write(did_change(agent.session, file.uri, version, key_line, key_col, key_col, ch))
                    if ch == "\n":
                        key_line, key_col = key_line + 1, 0
                    else:
                        key_col += 1
                    if interval_ms:
                        time.sleep(interval_ms / 1000)
                agent.probe()
                c1 = cpu_ns(agent.proc.pid)
                time.sleep(tail_ms / 1000)
                agent.probe()
                c2 = cpu_ns(agent.proc.pid)
                per_key[agent.name].append((c1 - c0) / 1e6 / keystrokes)
                tail[agent.name].append((c2 - c1) / 1e6)
            line, col = key_line, key_col
    finally:
        for agent in agents:
            agent.close()
    return {
        "file": file.name,
        "interval_ms": interval_ms,
        "keystrokes": keystrokes,
        "rounds": rounds,
        "cpu_per_keystroke_ms": quantiles(per_key["nextedit"]),
        "tail_cpu_ms": quantiles(tail["nextedit"]),
        "echo_cpu_per_keystroke_ms": quantiles(per_key["echo"]),
        "echo_tail_cpu_ms": quantiles(tail["echo"]),
    }


def _q(row: dict[str, float]) -> str:
    return f"{row['p50']:.2f} / {row['p90']:.2f}" if row else "–"


def markdown(results: dict[str, Any]) -> str:
    out = ["# Suggest after a pause, and keystroke bursts, on big C++ files", "", *metadata_lines(results), ""]
    out += [
        "## Suggest N ms after a change (p50 / p90 ms)",
        "",
        "| file | pause ms | n | suggest CPU | suggest wall | cycle CPU | echo CPU | echo wall | first suggestion |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in results.get("pause", []):
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(row["first_suggestion_kinds"].items()))
        out.append(
            f"| {row['file']} | {row['pause_ms']:.0f} | {row['samples']} | {_q(row['cpu_ms'])} | {_q(row['wall_ms'])} | "
            f"{_q(row['cycle_cpu_ms'])} | {_q(row['echo_cpu_ms'])} | {_q(row['echo_wall_ms'])} | {kinds} |"
        )
    out += [
        "",
        "## Keystroke bursts, no suggest (p50 / p90 over rounds, ms)",
        "",
        "| file | interval ms | keystrokes × rounds | CPU per keystroke | CPU in the tail after | echo per keystroke | echo tail |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in results.get("burst", []):
        out.append(
            f"| {row['file']} | {row['interval_ms']:.0f} | {row['keystrokes']} × {row['rounds']} | "
            f"{_q(row['cpu_per_keystroke_ms'])} | {_q(row['tail_cpu_ms'])} | "
            f"{_q(row['echo_cpu_per_keystroke_ms'])} | {_q(row['echo_tail_cpu_ms'])} |"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trace", type=Path, default=TRACE)
    parser.add_argument("--lines", default="20000", help="generated C++ files (comma-separated; empty: none)")
    parser.add_argument("--pauses", default="0,100")
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--intervals", default="0,20,50,100,200")
    parser.add_argument(
        "--burst-files",
        default="format.h: line inserted;generated 19992 lines",
        help="names of the files typed in (;-separated)",
    )
    parser.add_argument("--keystrokes", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tail", type=float, default=300.0, help="ms measured after a burst")
    parser.add_argument("--only", default="pause,burst")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    files = [format_h_rename(args.trace), format_h_insert(args.trace)]
    files += [generated(int(n)) for n in args.lines.split(",") if n]
    burst_files = [f for f in files if f.name in args.burst_files.split(";")]
    parts = set(args.only.split(","))
    results: dict[str, Any] = run_metadata(argv)
    if "pause" in parts:
        results["pause"] = []
        for file in files:
            for pause in (float(p) for p in args.pauses.split(",")):
                row = run_pause(file, pause, args.samples)
                print(
                    f"pause {file.name} {pause:.0f}: cpu {_q(row['cpu_ms'])} wall {_q(row['wall_ms'])}", file=sys.stderr
                )
                results["pause"].append(row)
    if "burst" in parts:
        results["burst"] = []
        for file in burst_files:
            for interval in (float(i) for i in args.intervals.split(",")):
                row = run_burst(file, interval, args.keystrokes, args.tail, args.rounds)
                print(
                    f"burst {file.name} {interval:.0f}: {_q(row['cpu_per_keystroke_ms'])} tail {_q(row['tail_cpu_ms'])}",
                    file=sys.stderr,
                )
                results["burst"].append(row)
    write_results(args.out, results, None, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
