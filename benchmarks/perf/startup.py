"""How long `nextedit acp` takes to answer `initialize`, and `nes/start`, after being spawned.

For each run a fresh process is spawned — the ``nextedit`` console script
beside the interpreter, as an editor runs it (``python -m nextedit`` when
there is none) — with a private state directory, and sent ``initialize`` at
once (as an editor does). Measured per run:

* **spawn → initialize** (wall, ms): from just before ``Popen`` until the
  answer line has been read;
* **agent CPU at initialize** (ms): the process's CPU time when that answer
  was read (``/proc/PID/task/*/schedstat``, first field, every thread) — what the agent itself
  spent, which a busy machine barely moves;
* **nes/start** (wall, ms): ``nes/start`` sent right after the initialize
  answer, until its answer — this is where the wire models, the engine and
  the feedback log are loaded (or were loaded meanwhile, when idle).

Beside it, a trivial Python process that reads one line and writes a canned
``initialize`` answer (no imports beyond ``sys``) is spawned the same way:
the floor an interpreter start costs on this machine, in the same run.

Scenarios: an empty state directory, and one holding a large feedback log
written by an older nextedit (whole suggestions, no summary; ``--log-mb``,
default 300). Both run under this shell's environment: where it sets
``PYTHONDONTWRITEBYTECODE`` (this machine does), every module is compiled
from source at each start. A third scenario, "empty state, bytecode cached",
runs as an installed package does (``pip install`` writes the ``.pyc``
files): the variable unset and ``PYTHONPYCACHEPREFIX`` pointed at a private
cache, filled by one untimed run first. The big log is built once and hard-linked into each run's state
directory, so rotation (which renames it away) does not cost a rebuild.

The imports on the way to the ``initialize`` answer are listed from
``python -X importtime`` (the smallest cumulative time of 5 runs per
top-level module), up to the first import of the event loop (``anyio``,
``asyncio``), which the agent starts only after answering.

``--pythonpath DIR`` runs another checkout's sources (e.g. the commit before
a change) the same way, for before/after figures in one run.

Usage (writes benchmarks/results/startup.{json,md})::

    python benchmarks/perf/startup.py --runs 20
    python benchmarks/perf/startup.py --runs 20 --pythonpath /tmp/before/src --out /tmp/startup-before
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agent_cpu import cpu_ns
from results_file import metadata_lines, run_metadata, write_results

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-16"], "nes": {"jump": {}}}},
}
START = {"jsonrpc": "2.0", "id": 2, "method": "nes/start", "params": {}}
TRIVIAL_AGENT = (
    "import sys\n"
    "sys.stdin.buffer.readline()\n"
    'sys.stdout.write(\'{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":'
    '{"name":"trivial","version":"0"},"agentCapabilities":{"positionEncoding":"utf-16"}}}\\n\')\n'
    "sys.stdout.flush()\n"
    "sys.stdin.buffer.read()\n"
)


def cpu_ms(pid: int) -> float:
    """CPU time of every thread of the process so far (the warm-up thread's too)."""
    return cpu_ns(pid) / 1e6


def peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def one_run(argv: list[str], env: dict[str, str], *, start: bool) -> dict[str, float]:
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    initialized = time.perf_counter()
    cpu = cpu_ms(proc.pid)
    assert json.loads(line)["id"] == 1, line
    figures = {"initialize_wall_ms": (initialized - began) * 1000, "initialize_cpu_ms": cpu}
    if start:
        sent = time.perf_counter()
        proc.stdin.write(json.dumps(START).encode() + b"\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        assert "result" in answer, answer
        figures["start_wall_ms"] = (time.perf_counter() - sent) * 1000
        figures["start_cpu_ms"] = cpu_ms(proc.pid) - cpu
        figures["peak_rss_mb"] = peak_rss_mb(proc.pid)
    proc.stdin.close()
    proc.wait(60)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.returncode == 0, stderr
    return figures


def import_times(argv: list[str], env: dict[str, str], runs: int = 5) -> dict[str, float]:
    """Top-level modules imported before the initialize answer: min cumulative ms over ``runs``."""
    best: dict[str, float] = {}
    for _ in range(runs):
        done = subprocess.run(
            [argv[0], "-X", "importtime", *argv[1:]],
            input=json.dumps(INITIALIZE).encode() + b"\n",
            capture_output=True,
            env=env,
            check=True,
        )
        for line in done.stderr.decode().splitlines():
            if not line.startswith("import time:") or "cumulative" in line:
                continue
            _, cumulative, name = line.split("|")
            if name.strip().split(".")[0] in ("anyio", "asyncio"):
                break  # the event loop: imported after the answer
            if name.startswith("  "):  # imported by another module: counted in its parent
                continue
            best[name.strip()] = min(best.get(name.strip(), float("inf")), int(cumulative) / 1000)
    return dict(sorted(best.items(), key=lambda item: -item[1]))


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]
    return {"median": round(statistics.median(ordered), 1), "p90": round(p90, 1), "max": round(ordered[-1], 1)}


def legacy_log(path: Path, megabytes: int) -> None:
    """A feedback log as an older nextedit wrote it: whole suggestions, never rotated."""
    if path.exists() and path.stat().st_size >= megabytes * 1024 * 1024:
        return
    edits = [
        {"range": {"start": {"line": i, "character": 4}, "end": {"line": i, "character": 8}}, "newText": "total"}
        for i in range(3000)
    ]  # a 3,000-edit rename: ~300 KB per record, as issue 10 found
    suggestion = {"id": "s-1", "kind": "edit", "uri": "file:///big.py", "edits": edits}
    with path.open("wb") as f:
        n = 0
        while f.tell() < megabytes * 1024 * 1024:
            n += 1
            record = {
                "time": "2026-11-30T00:00:00.000Z",
                "session": "nes-1",
                "action": "accept" if n % 3 else "reject",
                "suggestionId": f"s-{n}",
                "kind": "edit",
                "suggester": "rename",
                "reason": None if n % 3 else "rejected",
                "uri": "file:///big.py",
                "suggestion": suggestion,
            }
            f.write(json.dumps(record, separators=(",", ":")).encode() + b"\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--log-mb", type=int, default=300, help="size of the old feedback log scenario")
    parser.add_argument("--pythonpath", help="run the agent from this source directory instead")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "nextedit-startup")
    parser.add_argument("--out", type=Path, default=RESULTS / "startup")
    args = parser.parse_args(argv)

    env = {**os.environ}
    if args.pythonpath:
        env["PYTHONPATH"] = args.pythonpath
    args.work.mkdir(parents=True, exist_ok=True)
    big = args.work / f"legacy-{args.log_mb}mb.jsonl"
    legacy_log(big, args.log_mb)

    def agent_argv(state: Path) -> list[str]:
        # the console script an editor runs (no runpy), else python -m
        script = Path(sys.executable).with_name("nextedit")
        launcher = [sys.executable, str(script)] if script.exists() else [sys.executable, "-m", "nextedit"]
        return [*launcher, "acp", "--state-dir", str(state)]

    cached_env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cached_env["PYTHONPYCACHEPREFIX"] = str(args.work / "pycache")
    with tempfile.TemporaryDirectory(dir=args.work) as state:
        one_run(agent_argv(Path(state)), cached_env, start=True)  # fills the cache, untimed

    rows: dict[str, list[dict[str, float]]] = {
        "trivial": [],
        "empty state": [],
        "empty state, bytecode cached": [],
        f"{args.log_mb} MB old log": [],
    }
    for run in range(args.runs):  # interleaved, so machine noise hits every scenario alike
        rows["trivial"].append(one_run([sys.executable, "-c", TRIVIAL_AGENT], env, start=False))
        with tempfile.TemporaryDirectory(dir=args.work) as state:
            rows["empty state"].append(one_run(agent_argv(Path(state)), env, start=True))
        with tempfile.TemporaryDirectory(dir=args.work) as state:
            rows["empty state, bytecode cached"].append(one_run(agent_argv(Path(state)), cached_env, start=True))
        with tempfile.TemporaryDirectory(dir=args.work) as state:
            os.link(big, Path(state) / "feedback.jsonl")
            rows[f"{args.log_mb} MB old log"].append(one_run(agent_argv(Path(state)), env, start=True))
        print(f"run {run + 1}/{args.runs}", file=sys.stderr)

    with tempfile.TemporaryDirectory(dir=args.work) as state:
        imports = import_times(agent_argv(Path(state)), env)
    results: dict[str, Any] = {
        **run_metadata(argv),
        "agent": args.pythonpath or "this checkout",
        "runs": args.runs,
        "dont_write_bytecode": "PYTHONDONTWRITEBYTECODE" in env,
        "imports_ms": imports,
        "scenarios": {name: {key: quantiles([r[key] for r in runs]) for key in runs[0]} for name, runs in rows.items()},
    }
    write_results(args.out, results, None, markdown)


def _bytecode_note(dont_write: bool) -> str:
    how = "every module is compiled from source at each start" if dont_write else "Python caches bytecode as usual"
    state = "set" if dont_write else "not set"
    return (
        f"`PYTHONDONTWRITEBYTECODE` is {state} in the shell that ran this: outside the cached scenario, {how}. "
        '"Bytecode cached" runs as an installed package does (`pip install` writes the `.pyc` files).'
    )


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "# nextedit acp: spawn → initialize",
        "",
        *metadata_lines(results, more=True),
        f"Agent sources: {results['agent']}; {results['runs']} runs per scenario, interleaved.",
        "",
        "Wall: from just before spawning until the answer was read. CPU: the agent process's "
        "CPU time of all its threads at that moment (`/proc/PID/task/*/schedstat`). `nes/start` is sent right after the "
        "initialize answer (wire models, engine and feedback log load by then).",
        "",
        _bytecode_note(results.get("dont_write_bytecode", False)),
        "",
        "| scenario | initialize wall ms (median / p90) | agent CPU ms at initialize | nes/start wall ms | "
        "nes/start CPU ms | peak RSS MB |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, figures in results["scenarios"].items():
        cells = [
            f"{figures[key]['median']} / {figures[key]['p90']}" if key in figures else "—"
            for key in ("initialize_wall_ms", "initialize_cpu_ms", "start_wall_ms", "start_cpu_ms", "peak_rss_mb")
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    imports = results["imports_ms"]
    lines += [
        "",
        f"Imports before the initialize answer (`python -X importtime`, min of 5): {sum(imports.values()):.1f} ms "
        "in all; top-level modules of 1 ms or more:",
        "",
        "| module | cumulative ms |",
        "|---|---:|",
        *(f"| `{name}` | {ms:.1f} |" for name, ms in imports.items() if ms >= 1.0),
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
