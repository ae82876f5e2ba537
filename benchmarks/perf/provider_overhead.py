"""What asking a model costs nextedit itself: CPU and latency of the model path with an instant model.

``nextedit bench TRACE --in-process`` replays a trace twice, interleaved,
``--reps`` times each: without a provider, and with ``--provider-url`` pointing
at a local model that answers at once with the editable region unchanged (so
no suggestion changes: the figures must stay equal, which is checked). The
difference is what the model path costs on nextedit's side per request —
choosing the region, rendering the recent edits as hunks, writing the Zeta
prompt, the HTTP round trip on the loopback, reading the answer, diffing the
region — without any model time.

Measured per run: the replaying process's CPU (``RUSAGE_CHILDREN``: client and
in-process agent; the model server is another process and is not counted),
its wall time, the number of model requests (counted by the server), and the
latency of the queries that ended silent (``by_source.silent``: those are the
ones the model was asked for).

Usage (writes benchmarks/results/provider-overhead.{json,md})::

    python benchmarks/perf/provider_overhead.py --trace ../shared/traces/mined/flask.jsonl.gz --reps 2
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from results_file import run_metadata, write_results

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
START, END, CURSOR = "<|editable_region_start|>\n", "\n<|editable_region_end|>", "<|user_cursor_is_here|>"


def serve(count_file: Path, port_file: Path) -> None:
    """An instant Zeta-shaped model: the excerpt's head, then the region unchanged."""
    count = [0]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802
            prompt = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["prompt"]
            head = prompt[prompt.index("### User Excerpt:\n\n") + 19 : prompt.index(START)]
            region = prompt[prompt.index(START) + len(START) : prompt.index(END)].replace(CURSOR, "")
            data = json.dumps({"choices": [{"text": f"{head}{START}{region}\n", "finish_reason": "stop"}]}).encode()
            # status, headers and body in one write, as a real server sends a small answer (two writes
            # would add the loopback's Nagle/delayed-ACK wait to every request)
            head_bytes = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
            self.wfile.write(head_bytes.encode() + data)
            count[0] += 1
            count_file.write_text(str(count[0]))

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port_file.write_text(str(server.server_address[1]))
    server.serve_forever()


def run_bench(trace: str, work: Path, extra: list[str]) -> dict[str, Any]:
    out = work / "bench.json"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "nextedit", "bench", trace, "--in-process", "--no-report", "--no-progress"]
        + ["--json", str(out), *extra],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    metrics = json.loads(out.read_text())["metrics"]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu_s": cpu, "wall_s": wall, "metrics": metrics}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trace", required=True)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--out", type=Path, default=RESULTS / "provider-overhead")
    parser.add_argument("--notes", type=Path)
    parser.add_argument("--serve", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(*args.serve)
        return

    work = Path(tempfile.mkdtemp(prefix="nextedit-provider-overhead-"))
    count_file, port_file = work / "count", work / "port"
    server = subprocess.Popen([sys.executable, __file__, "--trace", "-", "--serve", str(count_file), str(port_file)])
    try:
        while not port_file.exists() or not port_file.read_text():
            time.sleep(0.05)  # the server process starting: nothing is measured yet
        url = f"http://127.0.0.1:{port_file.read_text()}/v1"
        runs: dict[str, list[dict[str, Any]]] = {"without": [], "with": []}
        requests: list[int] = []
        for _ in range(args.reps):
            runs["without"].append(run_bench(args.trace, work, []))
            seen = int(count_file.read_text()) if count_file.exists() else 0
            runs["with"].append(run_bench(args.trace, work, ["--provider-url", url, "--provider-budget-ms", "5000"]))
            requests.append(int(count_file.read_text()) - seen)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)

    keys = ("queries", "answered", "correct", "related_correct", "silent_on_empty", "reversals")
    first = runs["without"][0]["metrics"]
    same = all({k: r["metrics"][k] for k in keys} == {k: first[k] for k in keys} for rs in runs.values() for r in rs)

    def med(name: str, field: str) -> float:
        return statistics.median(r[field] for r in runs[name])

    def silent(name: str, q: str) -> float:
        return statistics.median(r["metrics"]["by_source"]["silent"]["latency_ms"][q] for r in runs[name])

    req = statistics.median(requests)
    results = {
        **run_metadata(argv),
        "trace": args.trace,
        "reps": args.reps,
        "queries": first["queries"],
        "model_requests": req,
        "figures_equal": same,
        "cpu_s": {"without": med("without", "cpu_s"), "with": med("with", "cpu_s")},
        "wall_s": {"without": med("without", "wall_s"), "with": med("with", "wall_s")},
        "cpu_ms_per_request": (med("with", "cpu_s") - med("without", "cpu_s")) * 1000 / req if req else None,
        "silent_latency_ms": {
            name: {"p50": silent(name, "p50"), "p99": silent(name, "p99")} for name in ("without", "with")
        },
    }
    write_results(args.out, results, args.notes, markdown)


def markdown(r: dict[str, Any]) -> str:
    per = r["cpu_ms_per_request"]
    return "\n".join(
        [
            "# The model path's own cost (an instant local model)",
            "",
            f"Command: `{r['command']}`  ",
            f"Machine: {r['machine']}  ",
            f"Date: {r['date']}  ",
            f"Trace: `{r['trace']}`, {r['queries']} queries; {r['reps']} runs each way, interleaved (medians).",
            "",
            "The model answers at once with the region unchanged, so every figure must stay as it was "
            f"(checked: {'equal' if r['figures_equal'] else 'NOT EQUAL'}). CPU: the replaying process "
            "(bench client + in-process agent), not the model server.",
            "",
            "| | without a provider | with the instant model |",
            "|---|---:|---:|",
            f"| model requests | 0 | {r['model_requests']:.0f} |",
            f"| CPU s | {r['cpu_s']['without']:.2f} | {r['cpu_s']['with']:.2f} |",
            f"| wall s | {r['wall_s']['without']:.2f} | {r['wall_s']['with']:.2f} |",
            f"| latency of silent queries p50 / p99 ms | {r['silent_latency_ms']['without']['p50']:.2f} / "
            f"{r['silent_latency_ms']['without']['p99']:.2f} | {r['silent_latency_ms']['with']['p50']:.2f} / "
            f"{r['silent_latency_ms']['with']['p99']:.2f} |",
            "",
            f"CPU per model request (difference / requests): {'—' if per is None else f'{per:.2f} ms'}.",
            "",
        ]
        + ([r["notes"], ""] if r.get("notes") else [])
    )


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
