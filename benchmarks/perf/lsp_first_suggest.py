"""The first suggestion of an `nextedit lsp` process after it opens a file, asked at once or after a pause.

A fresh server per sample: ``initialize``, ``didOpen`` of a generated Python
file, a pause (0 = at once), the rename of one local by an incremental
change, then ``textDocument/copilotInlineEdit`` at the renamed site. Timed:
the server's CPU (``/proc/PID/task/*/schedstat``, every thread) and wall
time from writing the change and the request until the answer is read.
With a pause, the server parses the document ahead in that time
(:mod:`nextedit.lsp.parse_ahead`), so the first suggestion does not pay it.

    python benchmarks/perf/lsp_first_suggest.py --out benchmarks/results/lsp-first-suggest
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from agent_cpu import cpu_ns  # noqa: E402
from lsp_framing import frame, python_source, read_frame  # noqa: E402
from results_file import metadata_lines, run_metadata, write_results  # noqa: E402

URI = "file:///bench/big.py"


def one_sample(lines: int, pause: float) -> dict[str, float | str]:
    with tempfile.TemporaryDirectory() as state:
        proc = subprocess.Popen(
            [sys.executable, "-m", "nextedit", "lsp", "--state-dir", state],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdin and proc.stdout

        def send(*messages: dict[str, Any]) -> None:
            assert proc.stdin
            proc.stdin.write(b"".join(frame(m) for m in messages))
            proc.stdin.flush()

        def until(request_id: int) -> dict[str, Any]:
            while True:
                message = read_frame(proc.stdout)
                if message.get("id") == request_id:
                    return message

        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
        until(1)
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        text = python_source(lines)
        open_ = {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": text}}
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": open_})
        time.sleep(pause)
        row = (lines // 4 // 2) * 4 + 1  # ``    total = …`` of a function near the middle
        change = {
            "range": {"start": {"line": row, "character": 4}, "end": {"line": row, "character": 9}},
            "text": "amount",
        }
        request = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "textDocument/copilotInlineEdit",
            "params": {"textDocument": {"uri": URI, "version": 2}, "position": {"line": row, "character": 10}},
        }
        cpu0, wall0 = cpu_ns(proc.pid), time.perf_counter()
        send(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [change]},
            },
            request,
        )
        answer = until(2)
        wall, cpu = time.perf_counter() - wall0, cpu_ns(proc.pid) - cpu0
        proc.stdin.close()
        proc.wait(timeout=60)
    edits = (answer.get("result") or {}).get("edits") or []
    return {"cpu_ms": cpu / 1e6, "wall_ms": wall * 1000, "answer": f"{len(edits)} edit(s)"}


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "# First suggestion of an `nextedit lsp` process after opening a file",
        "",
        *metadata_lines(results),
        "",
        f"A fresh server per sample; a {results['lines']}-line Python file opened, a pause, a local",
        "renamed, then `textDocument/copilotInlineEdit`. CPU = the server's CPU (every thread) from",
        "writing the change and the request until the answer is read; wall = the same span.",
        "",
        "| pause ms | servers | CPU median / max ms | wall median / max ms | answers |",
        "|---:|---:|---:|---:|---|",
    ]
    for r in results["rows"]:
        lines.append(
            f"| {r['pause_ms']} | {r['processes']} | {r['cpu_ms_median']:.1f} / {r['cpu_ms_max']:.1f} | "
            f"{r['wall_ms_median']:.1f} / {r['wall_ms_max']:.1f} | {', '.join(r['answers'])} |"
        )
    if results.get("notes"):
        lines += ["", results["notes"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--pauses", default="0,300", help="ms between didOpen and the rename, comma-separated")
    parser.add_argument("--processes", type=int, default=5, help="fresh servers per pause")
    parser.add_argument("--notes", type=Path, help="a file whose text is added to the record")
    parser.add_argument("--out", type=Path, help="write OUT.md and OUT.json")
    args = parser.parse_args(argv)
    rows = []
    for pause_ms in (int(p) for p in args.pauses.split(",")):
        samples = [one_sample(args.lines, pause_ms / 1000) for _ in range(args.processes)]
        cpu = [float(s["cpu_ms"]) for s in samples]
        wall = [float(s["wall_ms"]) for s in samples]
        rows.append(
            {
                "pause_ms": pause_ms,
                "processes": args.processes,
                "cpu_ms_median": statistics.median(cpu),
                "cpu_ms_max": max(cpu),
                "wall_ms_median": statistics.median(wall),
                "wall_ms_max": max(wall),
                "answers": sorted({str(s["answer"]) for s in samples}),
            }
        )
    results = {**run_metadata(argv), "lines": args.lines, "rows": rows}
    if args.out:
        write_results(args.out, results, args.notes, markdown)
    else:
        print(markdown(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
