"""What the LSP bridge's own framing (``nextedit/lsp/framing.py``) costs against pygls's reader.

Two real ``nextedit lsp`` processes, run in turn on the same input: one as
shipped (:func:`NextEditServer.serve_stdio`, our framing), one started through
pygls's ``LanguageServer.start_io`` (pygls's reading loop, same handlers). Each
opens a generated Python file of ``--lines`` lines and receives ``--keystrokes``
one-character ``didChange`` notifications (typing then deleting a word mid-file,
in batches of ``--batch`` frames written at once, as an editor does while
typing), each batch followed by a probe request (``copilotInlineEdit`` for a
document that is not open: answered without touching the engine) whose answer
marks the batch as read.

Measured per process: its CPU time over the keystroke phase (the first
field of ``/proc/PID/task/*/schedstat``, all threads) divided by the number of keystrokes,
and the wall time of each batch's round trip. Repeated ``--rounds`` times,
alternating the two readers, so machine noise hits both alike.

Usage (writes benchmarks/results/perf-lsp-framing.{json,md})::

    python benchmarks/perf/lsp_framing.py
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agent_cpu import cpu_ns
from results_file import run_metadata, write_results

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
URI = "file:///bench/big.py"
READERS = {
    "nextedit framing": None,
    "pygls reader": (
        "from pygls.lsp.server import LanguageServer; from nextedit.lsp.server import create_server; "
        "import sys; LanguageServer.start_io(create_server(__import__('pathlib').Path(sys.argv[1])))"
    ),
}


def frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frame(stream: Any) -> dict[str, Any]:
    length = 0
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return json.loads(stream.read(length))


def python_source(lines: int) -> str:
    body = []
    for i in range(lines // 4):
        body.append(f"def f{i}(a, b):\n    total = a + b * {i}\n    return total\n\n")
    return "".join(body)


def run_once(reader: str, state_dir: str, lines: int, keystrokes: int, batch: int) -> dict[str, float]:
    code = READERS[reader]
    argv = (
        [sys.executable, "-m", "nextedit", "lsp", "--state-dir", state_dir]
        if code is None
        else [sys.executable, "-c", code, state_dir]
    )
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin and proc.stdout
    ids = iter(range(1, 10**9))

    def send(*messages: dict[str, Any]) -> None:
        assert proc.stdin
        proc.stdin.write(b"".join(frame(m) for m in messages))
        proc.stdin.flush()

    def until(request_id: int) -> None:
        while read_frame(proc.stdout).get("id") != request_id:
            pass

    def probe() -> dict[str, Any]:
        return {
            "jsonrpc": "2.0",
            "id": next(ids),
            "method": "textDocument/copilotInlineEdit",
            "params": {
                "textDocument": {"uri": "file:///none.py", "version": 1},
                "position": {"line": 0, "character": 0},
            },
        }

    first = {"jsonrpc": "2.0", "id": next(ids), "method": "initialize", "params": {"capabilities": {}}}
    send(first)
    until(first["id"])
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    text = python_source(lines)
    send(
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": text}},
        }
    )
    warm = probe()
    send(warm)
    until(warm["id"])

    row = lines // 2
    word = "accumulated"
    version, column, typing = 1, 0, True
    round_trips = []
    start_cpu = cpu_ns(proc.pid)
    sent = 0
    while sent < keystrokes:
        messages = []
        for _ in range(min(batch, keystrokes - sent)):
            version += 1
            if typing:
                change = {
                    "range": {"start": {"line": row, "character": column}, "end": {"line": row, "character": column}},
                    "text": word[column % len(word)],
                }
                column += 1
            else:
                column -= 1
                change = {
                    "range": {
                        "start": {"line": row, "character": column},
                        "end": {"line": row, "character": column + 1},
                    },
                    "text": "",
                }
            if column in (0, len(word)):
                typing = column == 0
            messages.append(
                {
                    "jsonrpc": "2.0",
                    "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]},
                }
            )
            sent += 1
        check = probe()
        began = time.perf_counter()
        send(*messages, check)
        until(check["id"])
        round_trips.append(time.perf_counter() - began)
    cpu = cpu_ns(proc.pid) - start_cpu
    proc.stdin.close()
    proc.wait(timeout=60)
    return {
        "cpu_us_per_keystroke": cpu / 1000 / keystrokes,
        "batch_round_trip_ms_median": statistics.median(round_trips) * 1000,
    }


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "# LSP framing: nextedit's reader against pygls's",
        "",
        f"`{results['command']}` — {results['machine']}, {results['date']}",
        "",
        f"{results['lines']}-line Python file, {results['keystrokes']} one-character didChange per round "
        f"in batches of {results['batch']}, {results['rounds']} rounds per reader (alternating).",
        "",
        "| reader | CPU µs per keystroke (median of rounds) | batch round trip, ms (median of rounds) |",
        "|---|---:|---:|",
    ]
    for reader, figures in results["readers"].items():
        cpu = statistics.median(r["cpu_us_per_keystroke"] for r in figures)
        wall = statistics.median(r["batch_round_trip_ms_median"] for r in figures)
        lines.append(f"| {reader} | {cpu:.1f} | {wall:.2f} |")
    if results.get("notes"):
        lines += ["", results["notes"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--keystrokes", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=RESULTS / "perf-lsp-framing")
    parser.add_argument("--notes", type=Path, help="a text file whose content is recorded with the results")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {
        **run_metadata(argv),
        "lines": args.lines,
        "keystrokes": args.keystrokes,
        "batch": args.batch,
        "rounds": args.rounds,
        "readers": {reader: [] for reader in READERS},
    }
    with tempfile.TemporaryDirectory() as state_dir:
        for _ in range(args.rounds):
            for reader in READERS:
                results["readers"][reader].append(run_once(reader, state_dir, args.lines, args.keystrokes, args.batch))
    write_results(args.out, results, args.notes, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
