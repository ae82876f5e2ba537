"""Agent CPU time per ``nes/suggest`` (and per keystroke), beside a do-nothing agent in the same run.

Drives a real ``nextedit acp`` over stdio and, in lockstep with it, the
do-nothing agent of ``echo_agent.py`` (same interpreter, same messages: it
parses every line and answers ``nes/suggest`` with no suggestions). For each
timed request the figure is the agent's **CPU time** — the first field of
``/proc/PID/task/*/schedstat`` summed over its threads, read before the
request is written and after the agent has answered it *and* a probe request
written after that answer (so the work it did after answering is counted
too; the do-nothing agent pays the same probe) — and the **wall time** from
writing the request to reading its answer. CPU time barely moves on a busy
machine; wall time does. Every timed request follows a fresh edit (a new
document version), so nothing is answered from a cache.

Files are generated (``languages.py``: N small functions with a local, a
module-level constant and a helper used in every function) in python, rust,
typescript, go, java, c and cpp. Scenarios, each at 500 / 5k / 20k / 100k
lines (``--sizes``):

* ``rename`` — rename the local ``total`` at its definition in a function
  near the middle (a new function and a new name before every request),
  suggest at the end of the new name (all suggesters run; the answer should
  be the rename);
* ``keystroke`` — type `` + 1`` after ``total = 0`` in the middle function
  one character at a time, then delete it, suggest after every keystroke
  (half of the states are a syntax error: ``total = 0 +``);
* ``repeat`` — the same small edit (``total = 0`` → ``total = 1``) made in one
  more function before every request.

Then:

* **scaling** (``--scaling-sizes``, 25k / 50k / 100k lines: the file and
  the occurrences double): the three scenarios above, plus ``rename-global``
  (rename the module-level ``LIMIT``, used in every function) and
  ``signature`` (add a parameter to ``helper``, called from every function);
  p50 CPU at 100k over p50 at 25k must stay ≤ ×4.5 (``--scaling-scenarios``
  picks some of them). In process, the same
  requests timed per suggester (``time.thread_time_ns`` around each
  suggester's ``propose``), so every suggester's growth is visible;
* **double rename**: rename ``LIMIT`` at its definition, suggest, then at its
  use in the first function, suggest again: the second suggest is timed
  (3k … 60k lines in python; 60k lines in every language);
* **1 MB line**: keystrokes in the middle of a one-line 1 MB JavaScript
  file, each ``didChange`` + probe timed as a request is;
* **first suggest**: a fresh agent process per language opens a 5k-line
  file and, at once or after a pause (``--first-pauses``: the developer
  reads before renaming), renames the local; the first ``nes/suggest`` of
  the process is timed (query compilation included, wherever it is paid),
  and the open's CPU up to the suggest (background work included).

Writes ``benchmarks/results/NAME.{json,md}`` (``--out``), with the command,
machine and date. Usage::

    python benchmarks/perf/suggest_cpu.py --out benchmarks/results/suggest-cpu-before
    python benchmarks/perf/suggest_cpu.py --languages python,rust --sizes 5000 --only rename
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agent_cpu import cpu_ns
from languages import LANGUAGES, Source, source
from results_file import metadata_lines, run_metadata, write_results

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
ECHO = Path(__file__).resolve().parent / "echo_agent.py"
ALL_KINDS = {"nes": {"jump": {}, "rename": {}, "searchAndReplace": {}}}
SCENARIOS = ("rename", "keystroke", "repeat")
# untimed requests first in every scenario: the first request of a process is measured apart
WARM = 3
SCALING_SCENARIOS = ("rename", "rename-global", "keystroke", "repeat", "signature")


# ---------------------------------------------------------------- processes


class Agent:
    """An agent subprocess speaking newline-delimited JSON-RPC on its pipes."""

    def __init__(self, command: list[str], name: str) -> None:
        self.name = name
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._ids = iter(range(1, 10**9))
        self.session = ""

    def write(self, *messages: dict[str, Any]) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        self.proc.stdin.flush()

    def until(self, msg_id: int) -> dict[str, Any]:
        assert self.proc.stdout
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} exited")
            answer = json.loads(line)
            if answer.get("id") == msg_id:
                return answer

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params}

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        message = self.request(method, params)
        self.write(message)
        return self.until(message["id"])

    def probe(self) -> None:
        """A request answered without touching the engine (a document not open)."""
        self.call("nes/suggest", self._probe_params())

    def start(self) -> None:
        self.call(
            "initialize", {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-16"], **ALL_KINDS}}
        )
        self.session = self.call("nes/start", {})["result"]["sessionId"]

    def timed(
        self, *before: dict[str, Any], request: dict[str, Any] | None
    ) -> tuple[float, float, dict[str, Any] | None]:
        """Write the notifications ``before`` (untimed, applied first), then
        the request (or, with ``request=None``, time the notifications
        themselves): ``(cpu_ms, wall_ms, answer)``."""
        if request is None:
            cpu0 = cpu_ns(self.proc.pid)
            t0 = time.perf_counter_ns()
            probe = self.request("nes/suggest", self._probe_params())
            self.write(*before, probe)
            self.until(probe["id"])
            wall = (time.perf_counter_ns() - t0) / 1e6
            return (cpu_ns(self.proc.pid) - cpu0) / 1e6, wall, None
        if before:
            self.write(*before)
        self.probe()  # the notifications are applied, the agent is idle
        cpu0 = cpu_ns(self.proc.pid)
        t0 = time.perf_counter_ns()
        self.write(request)
        answer = self.until(request["id"])
        wall = (time.perf_counter_ns() - t0) / 1e6
        self.probe()  # whatever the agent did after answering is counted
        return (cpu_ns(self.proc.pid) - cpu0) / 1e6, wall, answer

    def _probe_params(self) -> dict[str, Any]:
        return {
            "sessionId": self.session,
            "uri": "file:///bench/not-open",
            "version": 0,
            "position": {"line": 0, "character": 0},
            "triggerKind": "automatic",
        }

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait(timeout=120)


# ``--gc-freeze``: the agent started with everything it imports moved out of
# the garbage collector's reach (``gc.freeze()``), to show what a gen-2
# collection of the start-up heap costs a request
_FROZEN_START = (
    "import gc, sys; import nextedit.acp.server; from nextedit.cli import main; "
    "gc.collect(); gc.freeze(); sys.exit(main())"
)
GC_FREEZE = False


def nextedit_agent() -> Agent:
    state = tempfile.mkdtemp(prefix="nextedit-bench-")
    start = ["-c", _FROZEN_START] if GC_FREEZE else ["-m", "nextedit"]
    return Agent([sys.executable, *start, "acp", "--state-dir", state], "nextedit")


def echo_agent() -> Agent:
    return Agent([sys.executable, str(ECHO)], "echo")


# ---------------------------------------------------------------- messages


def did_open(session: str, src: Source) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "document/didOpen",
        "params": {"sessionId": session, "uri": src.uri, "languageId": src.language, "version": 1, "text": src.text},
    }


def did_change(session: str, uri: str, version: int, line: int, col: int, end_col: int, text: str) -> dict[str, Any]:
    change = {
        "range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": end_col}},
        "text": text,
    }
    return {
        "jsonrpc": "2.0",
        "method": "document/didChange",
        "params": {"sessionId": session, "uri": uri, "version": version, "contentChanges": [change]},
    }


def suggest_params(session: str, uri: str, version: int, line: int, col: int) -> dict[str, Any]:
    return {
        "sessionId": session,
        "uri": uri,
        "version": version,
        "position": {"line": line, "character": col},
        "triggerKind": "automatic",
    }


# An edit step: (line, col, end_col, text, cursor (line, col)); one per timed request.
Step = tuple[int, int, int, str, tuple[int, int]]


def steps(scenario: str, src: Source, count: int) -> Iterator[Step]:
    """The fresh edit made before each of ``count`` requests."""
    mid = src.functions // 2
    if scenario == "rename":
        for r in range(count):
            # a new function each time, spread around the middle
            f = (mid + (r // 2 + 1) * (1 if r % 2 else -1)) % src.functions
            line, col = src.local_definition(f)
            new = f"amount{r}"
            yield line, col, col + len("total"), new, (line, col + len(new))
    elif scenario == "keystroke":
        line, col = src.init_value(mid)
        col += 1  # after ``total = 0``
        typed = " + 1"
        cycle = [(col + i, col + i, ch) for i, ch in enumerate(typed)]
        cycle += [(col + i - 1, col + i, "") for i in range(len(typed), 0, -1)]
        for r in range(count):
            a, b, ins = cycle[r % len(cycle)]
            yield line, a, b, ins, (line, a + len(ins))
    elif scenario == "repeat":
        for r in range(count):
            f = (mid + r) % src.functions
            line, col = src.init_value(f)
            yield line, col, col + 1, "1", (line, col + 1)
    elif scenario == "rename-global":
        # the developer renames LIMIT at its definition, a new name each time
        line, col = src.limit_definition()
        name = "LIMIT"
        for r in range(count):
            new = f"CAP{r}"
            yield line, col, col + len(name), new, (line, col + len(new))
            name = new
    elif scenario == "signature":
        line, col = src.helper_parameters_end()
        extra = {"python": ", extra{r}", "rust": ", extra{r}: i64", "go": ", extra{r} int"}.get(
            src.language, ", int extra{r}" if src.language in ("java", "c", "cpp") else ", extra{r}: number"
        )
        for r in range(count):
            text = extra.format(r=r)
            yield line, col, col, text, (line, col + len(text))
            col += len(text)
    else:
        raise ValueError(scenario)


# ---------------------------------------------------------------- statistics


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}

    def q(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return {"n": len(ordered), "p50": q(0.5), "p90": q(0.9), "p99": q(0.99), "max": ordered[-1]}


def paired_quantiles(cpu: dict[str, list[float]], wall: dict[str, list[float]]) -> dict[str, Any]:
    """The quantiles of both agents' samples, under the keys every paired row carries."""
    return {
        "cpu_ms": quantiles(cpu["nextedit"]),
        "wall_ms": quantiles(wall["nextedit"]),
        "echo_cpu_ms": quantiles(cpu["echo"]),
        "echo_wall_ms": quantiles(wall["echo"]),
    }


def first_suggestion(answer: dict[str, Any] | None) -> str:
    suggestions = (answer or {}).get("result", {}).get("suggestions") or []
    return suggestions[0]["kind"] if suggestions else "none"


# ---------------------------------------------------------------- scenarios


def scenario_count(scenario: str, src: Source, count: int) -> int:
    """How many timed requests a scenario gets on ``src``: each rename or
    repeated edit edits a function not edited before, and a small file has few."""
    return min(count, src.functions - WARM - 1) if scenario in ("rename", "repeat") else count


def lockstep(agents: list[Agent], scenario: str, src: Source, count: int) -> dict[str, list[tuple[float, float, Any]]]:
    """Open ``src`` in every agent, then make the scenario's edits, each
    followed by a suggest, on every agent in turn (so a busy minute hits them
    all alike); per agent, ``(CPU ms, wall ms, answer)`` of each request past
    the warm-up. Closes the agents."""
    out: dict[str, list[tuple[float, float, Any]]] = {a.name: [] for a in agents}
    try:
        for agent in agents:
            agent.start()
            agent.write(did_open(agent.session, src))
            agent.probe()
        for r, (line, col, end, text, (cl, cc)) in enumerate(steps(scenario, src, count + WARM)):
            version = r + 2
            for agent in agents:
                change = did_change(agent.session, src.uri, version, line, col, end, text)
                request = agent.request("nes/suggest", suggest_params(agent.session, src.uri, version, cl, cc))
                timed = agent.timed(change, request=request)
                if r >= WARM:
                    out[agent.name].append(timed)
    finally:
        for agent in agents:
            agent.close()
    return out


def run_scenario(scenario: str, language: str, lines: int, count: int) -> dict[str, Any]:
    """``count`` timed suggests after fresh edits, on both agents in lockstep."""
    src = source(language, lines)
    count = scenario_count(scenario, src, count)
    timed = lockstep([nextedit_agent(), echo_agent()], scenario, src, count)
    cpu = {name: [c for c, _, _ in rows] for name, rows in timed.items()}
    wall = {name: [w for _, w, _ in rows] for name, rows in timed.items()}
    kinds = Counter(first_suggestion(answer) for _, _, answer in timed["nextedit"])
    return {
        "scenario": scenario,
        "language": language,
        "lines": src.lines,
        "requests": count,
        "first_suggestion_kinds": dict(kinds),
        **paired_quantiles(cpu, wall),
    }


def run_double_rename(language: str, lines: int) -> dict[str, Any]:
    """Rename ``LIMIT`` at its definition, suggest; at its first use, suggest (timed)."""
    src = source(language, lines)
    agents = [nextedit_agent(), echo_agent()]
    out: dict[str, Any] = {"language": language, "lines": src.lines, "occurrences": src.functions + 1}
    try:
        for agent in agents:
            agent.start()
            agent.write(did_open(agent.session, src))
            agent.probe()
        d_line, d_col = src.limit_definition()
        u_line, u_col = src.limit_use(0)
        for agent in agents:
            first = did_change(agent.session, src.uri, 2, d_line, d_col, d_col + 5, "CAP")
            c1, w1, a1 = agent.timed(
                first,
                request=agent.request("nes/suggest", suggest_params(agent.session, src.uri, 2, d_line, d_col + 3)),
            )
            second = did_change(agent.session, src.uri, 3, u_line, u_col, u_col + 5, "CAP")
            c2, w2, a2 = agent.timed(
                second,
                request=agent.request("nes/suggest", suggest_params(agent.session, src.uri, 3, u_line, u_col + 3)),
            )
            prefix = "" if agent.name == "nextedit" else "echo_"
            out[prefix + "first"] = {"cpu_ms": c1, "wall_ms": w1}
            out[prefix + "second"] = {"cpu_ms": c2, "wall_ms": w2}
            if agent.name == "nextedit":
                out["kinds"] = [first_suggestion(a1), first_suggestion(a2)]
    finally:
        for agent in agents:
            agent.close()
    return out


def long_line(size: int) -> str:
    parts = []
    total = 0
    i = 0
    while total < size:
        part = f"var v{i}=f({i},'s{i}');"
        parts.append(part)
        total += len(part)
        i += 1
    return "".join(parts)


def run_long_line(size: int, count: int) -> dict[str, Any]:
    """Keystrokes (typing then deleting ``x1``) in the middle of a single ``size``-byte line."""
    text = long_line(size)
    uri = "file:///bench/minified.js"
    agents = [nextedit_agent(), echo_agent()]
    cpu: dict[str, list[float]] = {a.name: [] for a in agents}
    wall: dict[str, list[float]] = {a.name: [] for a in agents}
    col = text.index(";", len(text) // 2) + 1
    cycle = [(col, col, "x"), (col + 1, col + 1, "1"), (col + 1, col + 2, ""), (col, col + 1, "")]
    try:
        for agent in agents:
            agent.start()
            agent.write(
                {
                    "jsonrpc": "2.0",
                    "method": "document/didOpen",
                    "params": {
                        "sessionId": agent.session,
                        "uri": uri,
                        "languageId": "javascript",
                        "version": 1,
                        "text": text,
                    },
                }
            )
            agent.probe()
        for r in range(count + 4):
            a, b, ins = cycle[r % len(cycle)]
            for agent in agents:
                c, w, _ = agent.timed(did_change(agent.session, uri, r + 2, 0, a, b, ins), request=None)
                if r >= 4:
                    cpu[agent.name].append(c)
                    wall[agent.name].append(w)
    finally:
        for agent in agents:
            agent.close()
    return {
        "bytes": len(text),
        "keystrokes": count,
        **paired_quantiles(cpu, wall),
    }


def run_first_suggest(language: str, lines: int, processes: int, pause_ms: float) -> dict[str, Any]:
    """A fresh process per sample: open, wait ``pause_ms`` (the developer
    reads, then renames), rename the local: the first suggest timed. The
    open's CPU is counted up to the suggest, background work included."""
    src = source(language, lines)
    cpu: dict[str, list[float]] = {"nextedit": [], "echo": []}
    wall: dict[str, list[float]] = {"nextedit": [], "echo": []}
    open_cpu: list[float] = []
    kinds: Counter[str] = Counter()
    for _ in range(processes):
        agents = [nextedit_agent(), echo_agent()]
        try:
            for agent in agents:
                agent.start()
                cpu0 = cpu_ns(agent.proc.pid)
                agent.write(did_open(agent.session, src))
                agent.probe()
                time.sleep(pause_ms / 1000)
                line, col = src.local_definition(src.functions // 2)
                change = did_change(agent.session, src.uri, 2, line, col, col + 5, "amount")
                agent.write(change)
                agent.probe()
                if agent.name == "nextedit":
                    open_cpu.append((cpu_ns(agent.proc.pid) - cpu0) / 1e6)
                request = agent.request("nes/suggest", suggest_params(agent.session, src.uri, 2, line, col + 6))
                c, w, answer = agent.timed(request=request)
                cpu[agent.name].append(c)
                wall[agent.name].append(w)
                if agent.name == "nextedit":
                    kinds[first_suggestion(answer)] += 1
        finally:
            for agent in agents:
                agent.close()
    return {
        "language": language,
        "lines": src.lines,
        "processes": processes,
        "pause_ms": pause_ms,
        "first_suggestion_kinds": dict(kinds),
        "did_open_cpu_ms": quantiles(open_cpu),
        **paired_quantiles(cpu, wall),
    }


def run_in_process(
    scenario: str,
    src: Source,
    count: int,
    prepare: Callable[[Any], None] | None = None,
    profile: Any = None,
) -> tuple[list[float], list[str]]:
    """``count`` suggests in process (no stdio, no threads) after the
    scenario's edits, three untimed ones first: this thread's CPU ms of each
    (``time.thread_time_ns`` around the request) and the kind of its first
    suggestion. ``prepare`` sees the session's engine before the first edit;
    ``profile`` (a ``cProfile.Profile``) runs during the timed requests only."""
    from nextedit import heap
    from nextedit.acp.inprocess import InProcessAgent

    times: list[float] = []
    kinds: list[str] = []
    with tempfile.TemporaryDirectory() as state, InProcessAgent(Path(state)) as agent:
        hello = {"protocolVersion": 1, "clientCapabilities": {"positionEncodings": ["utf-16"], **ALL_KINDS}}
        agent.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
        session = agent.send({"jsonrpc": "2.0", "id": 2, "method": "nes/start", "params": {}})[0]["result"]["sessionId"]
        heap.settle()  # the collector's policy, as the stdio agent sets it up after its warm-up
        agent.send(did_open(session, src))
        if prepare is not None:
            prepare(agent.agent.sessions[session].engine)
        for r, (line, col, end, text, (cl, cc)) in enumerate(steps(scenario, src, count + WARM)):
            agent.send(did_change(session, src.uri, r + 2, line, col, end, text))
            params = suggest_params(session, src.uri, r + 2, cl, cc)
            timed = r >= WARM
            if timed and profile is not None:
                profile.enable()
            t0 = time.thread_time_ns()
            out = agent.send({"jsonrpc": "2.0", "id": 10 + r, "method": "nes/suggest", "params": params})
            elapsed = (time.thread_time_ns() - t0) / 1e6
            if timed and profile is not None:
                profile.disable()
            if timed:
                times.append(elapsed)
                kinds.append(first_suggestion(out[0] if out else None))
    return times, kinds


def run_per_suggester(scenario: str, language: str, lines: int, count: int) -> dict[str, Any]:
    """In process: the same requests, each suggester's ``propose`` timed (thread CPU)."""
    src = source(language, lines)
    times: dict[str, list[float]] = {}

    parses: list[float] = []  # every parse of a snapshot
    times[REPARSE] = []  # per request: the parses its suggesters set off

    def time_each_suggester(engine: Any) -> None:
        for i, suggester in enumerate(engine.suggesters):
            times[suggester.name] = []
            suggester.propose = _timed(suggester.propose, times[suggester.name], parses, times[REPARSE], first=i == 0)

    with _parses_timed(parses):
        total, _kinds = run_in_process(scenario, src, count, prepare=time_each_suggester)
    for values in times.values():
        del values[:WARM]  # the untimed requests' share
    times["total"] = total
    return {
        "scenario": scenario,
        "language": language,
        "lines": src.lines,
        "cpu_ms": {k: quantiles(v) for k, v in times.items()},
    }


# the deferred tree-sitter re-parse after the edit, shown on its own: else
# whichever suggester reads the tree first pays it
REPARSE = "re-parse"


@contextlib.contextmanager
def _parses_timed(parses: list[float]) -> Iterator[None]:
    """Every tree-sitter parse of a snapshot (where a request's deferred
    re-parse runs) appends its thread CPU ms to ``parses``."""
    from nextedit.syntax.tree import SyntaxSnapshot

    parse = SyntaxSnapshot._parse

    def timed_parse(self: Any, source: bytes, old: Any) -> Any:
        t0 = time.thread_time_ns()
        try:
            return parse(self, source, old)
        finally:
            parses.append((time.thread_time_ns() - t0) / 1e6)

    SyntaxSnapshot._parse = timed_parse  # type: ignore[method-assign]
    try:
        yield
    finally:
        SyntaxSnapshot._parse = parse  # type: ignore[method-assign]


def _timed(
    propose: Callable[..., Any], into: list[float], parses: list[float], reparses: list[float], *, first: bool
) -> Callable[..., Any]:
    """``propose`` timed into ``into``, less the parses it set off (timed into
    ``parses`` as they run), which add to the request's entry of ``reparses``
    (the engine's first suggester opens it)."""

    def run(context: Any) -> Any:
        if first:
            reparses.append(0.0)
        before = len(parses)
        t0 = time.thread_time_ns()
        try:
            return propose(context)
        finally:
            parsed = sum(parses[before:])
            into.append((time.thread_time_ns() - t0) / 1e6 - parsed)
            reparses[-1] += parsed

    return run


# ---------------------------------------------------------------- report


def _q(q: dict[str, float]) -> str:
    return f"{q['p50']:.2f} / {q['p99']:.2f}" if q else "–"


def markdown(results: dict[str, Any]) -> str:
    out = [
        "# Agent CPU per nes/suggest, beside a do-nothing agent",
        "",
        *metadata_lines(results),
        *(["Agent started with `gc.freeze()` after its imports (`--gc-freeze`)."] if results.get("gc_freeze") else []),
        "",
        "CPU = the agent's CPU time (`/proc/PID/task/*/schedstat`) from writing the request until it has answered it and a probe "
        "written after; wall = request written → answer read. `echo` = the do-nothing agent, same messages, same run. "
        "Figures are p50 / p99 in ms.",
        "",
    ]
    rows = results.get("scenarios", [])
    if rows:
        out += [
            "## Suggest after a fresh edit",
            "",
            "| scenario | language | lines | n | CPU p50 / p99 | wall p50 / p99 | echo CPU | echo wall | first suggestion |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for row in rows:
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(row["first_suggestion_kinds"].items()))
            out.append(
                f"| {row['scenario']} | {row['language']} | {row['lines']} | {row['requests']} | {_q(row['cpu_ms'])} | "
                f"{_q(row['wall_ms'])} | {_q(row['echo_cpu_ms'])} | {_q(row['echo_wall_ms'])} | {kinds} |"
            )
        out += ["", "Targets: p50 ≤ 3 ms and p99 ≤ 12 ms at 5k lines; p99 ≤ 30 ms at 100k lines.", ""]
    scaling = results.get("scaling", [])
    if scaling:
        out += [
            "## Scaling: the file (and the occurrences) doubled",
            "",
            "| scenario | language | CPU p50 by size (ms) | ratio largest / smallest |",
            "|---|---|---|---:|",
        ]
        for row in scaling:
            cells = ", ".join(f"{n}: {p:.2f}" for n, p in row["p50_by_lines"])
            out.append(f"| {row['scenario']} | {row['language']} | {cells} | ×{row['ratio']:.2f} |")
        out += ["", "Bound: ×4.5 from 25k to 100k lines (linear is ×4).", ""]
    per = results.get("per_suggester", [])
    if per:
        names = sorted({k for row in per for k in row["cpu_ms"]} - {"total"}) + ["total"]
        out += [
            "### Per suggester, in process (thread CPU p50 ms of its `propose`, less the deferred tree-sitter re-parse it set off, which is its own column; total = the whole nes/suggest)",
            "",
            "| scenario | language | lines | " + " | ".join(names) + " |",
            "|---|---|---:|" + "---:|" * len(names),
        ]
        for row in per:
            cells = " | ".join(f"{row['cpu_ms'][n]['p50']:.2f}" if row["cpu_ms"].get(n) else "–" for n in names)
            out.append(f"| {row['scenario']} | {row['language']} | {row['lines']} | {cells} |")
        ratios = results.get("per_suggester_ratios", [])
        if ratios:
            out += ["", "| scenario | language | suggester | p50 ratio largest / smallest |", "|---|---|---|---:|"]
            for r in ratios:
                out.append(f"| {r['scenario']} | {r['language']} | {r['suggester']} | ×{r['ratio']:.2f} |")
        out.append("")
    double = results.get("double_rename", [])
    if double:
        out += [
            "## Double rename of a module-level name (the second suggest is the target)",
            "",
            "| language | lines | occurrences | first CPU / wall ms | second CPU / wall ms | echo second CPU | kinds |",
            "|---|---:|---:|---:|---:|---:|---|",
        ]
        for row in double:
            out.append(
                f"| {row['language']} | {row['lines']} | {row['occurrences']} | {row['first']['cpu_ms']:.1f} / {row['first']['wall_ms']:.1f} | "
                f"{row['second']['cpu_ms']:.1f} / {row['second']['wall_ms']:.1f} | {row['echo_second']['cpu_ms']:.2f} | "
                f"{', '.join(row['kinds'])} |"
            )
        out += ["", "Target: second suggest < 50 ms at 60k lines.", ""]
    long = results.get("long_line")
    if long:
        out += [
            f"## Keystroke on a single {long['bytes'] / 1e6:.1f} MB line (JavaScript; `didChange` + probe)",
            "",
            "| n | CPU p50 / p99 | wall p50 / p99 | echo CPU | echo wall |",
            "|---:|---:|---:|---:|---:|",
            f"| {long['keystrokes']} | {_q(long['cpu_ms'])} | {_q(long['wall_ms'])} | {_q(long['echo_cpu_ms'])} | {_q(long['echo_wall_ms'])} |",
            "",
            "Target: ≤ 1 ms.",
            "",
        ]
    first = results.get("first_suggest", [])
    if first:
        out += [
            "## First suggest of a process after opening a file (rename of a local)",
            "",
            "| language | lines | pause ms | processes | open CPU p50 | first suggest CPU p50 / max | wall p50 / max | echo CPU | kinds |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for row in first:
            q, w = row["cpu_ms"], row["wall_ms"]
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(row["first_suggestion_kinds"].items()))
            out.append(
                f"| {row['language']} | {row['lines']} | {row.get('pause_ms', 0):.0f} | {row['processes']} | {row['did_open_cpu_ms']['p50']:.1f} | "
                f"{q['p50']:.1f} / {q['max']:.1f} | {w['p50']:.1f} / {w['max']:.1f} | {row['echo_cpu_ms']['p50']:.2f} | {kinds} |"
            )
        out += [
            "",
            "Open CPU: from writing didOpen until the suggest is written (the rename and any background work "
            "the open started included). Pause: the time between opening and renaming (0 = at once).",
            "",
            "Target: first suggest ≤ 40 ms.",
            "",
        ]
    if results.get("notes"):
        out += ["## Notes", "", results["notes"], ""]
    return "\n".join(out)


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--sizes", default="500,5000,20000,100000")
    parser.add_argument("--repeats", type=int, default=100, help="timed requests per row")
    parser.add_argument("--repeats-large", type=int, default=40, help="timed requests per row at ≥ 50k lines")
    parser.add_argument("--scaling-sizes", default="25000,50000,100000")
    parser.add_argument("--scaling-languages", default="python,rust")
    parser.add_argument("--scaling-scenarios", default=",".join(SCALING_SCENARIOS))
    parser.add_argument(
        "--double-sizes", default="3000,6000,12000,24000,60000", help="python; every language at the largest"
    )
    parser.add_argument("--long-line-bytes", type=int, default=1_000_000)
    parser.add_argument("--first-processes", type=int, default=3)
    parser.add_argument("--first-pauses", default="0,300", help="ms between opening and the rename (comma-separated)")
    parser.add_argument(
        "--only",
        default="scenarios,scaling,double,long-line,first",
        help="comma-separated parts: scenarios, scaling, double, long-line, first (per-suggester: in process only)",
    )
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--gc-freeze", action="store_true", help="start the agent with gc.freeze() after its imports")
    parser.add_argument("--notes", type=Path)
    parser.add_argument("--out", type=Path, default=RESULTS / "suggest-cpu")
    args = parser.parse_args(argv)
    parts = set(args.only.split(","))
    global GC_FREEZE
    GC_FREEZE = args.gc_freeze
    languages = args.languages.split(",")
    results: dict[str, Any] = {**run_metadata(argv), "gc_freeze": args.gc_freeze}

    def repeats(lines: int) -> int:
        return args.repeats_large if lines >= 50_000 else args.repeats

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    if "scenarios" in parts:
        results["scenarios"] = []
        for scenario in args.scenarios.split(","):
            for language in languages:
                for lines in (int(n) for n in args.sizes.split(",")):
                    row = run_scenario(scenario, language, lines, repeats(lines))
                    say(f"{scenario} {language} {lines}: cpu {_q(row['cpu_ms'])} echo {_q(row['echo_cpu_ms'])}")
                    results["scenarios"].append(row)
    if "scaling" in parts:
        sizes = [int(n) for n in args.scaling_sizes.split(",")]
        results["scaling"], results["per_suggester"], results["per_suggester_ratios"] = [], [], []
        for scenario in args.scaling_scenarios.split(","):
            for language in args.scaling_languages.split(","):
                p50s = []
                per_rows = []
                for lines in sizes:
                    row = run_scenario(scenario, language, lines, args.repeats_large)
                    p50s.append((row["lines"], row["cpu_ms"]["p50"]))
                    per_rows.append(run_per_suggester(scenario, language, lines, args.repeats_large))
                    say(f"scaling {scenario} {language} {lines}: cpu {_q(row['cpu_ms'])}")
                results["scaling"].append(
                    {
                        "scenario": scenario,
                        "language": language,
                        "p50_by_lines": p50s,
                        "ratio": p50s[-1][1] / max(p50s[0][1], 1e-9),
                    }
                )
                results["per_suggester"] += per_rows
                for name in per_rows[0]["cpu_ms"]:
                    lo, hi = per_rows[0]["cpu_ms"][name], per_rows[-1]["cpu_ms"][name]
                    if lo and hi:
                        results["per_suggester_ratios"].append(
                            {
                                "scenario": scenario,
                                "language": language,
                                "suggester": name,
                                "ratio": hi["p50"] / max(lo["p50"], 0.01),
                            }
                        )
    if "per-suggester" in parts:  # in process, at --sizes, for --scenarios
        results.setdefault("per_suggester", [])
        for scenario in args.scenarios.split(","):
            for language in languages:
                for lines in (int(n) for n in args.sizes.split(",")):
                    row = run_per_suggester(scenario, language, lines, repeats(lines))
                    say(f"per suggester {scenario} {language} {lines}: {row['cpu_ms']['total']}")
                    results["per_suggester"].append(row)
    if "double" in parts:
        results["double_rename"] = []
        sizes = [int(n) for n in args.double_sizes.split(",")]
        cases = [("python", n) for n in sizes if "python" in languages]
        cases += [(language, sizes[-1]) for language in languages if language != "python"]
        for language, lines in cases:
            row = run_double_rename(language, lines)
            say(f"double {language} {lines}: second {row['second']['cpu_ms']:.1f} ms")
            results["double_rename"].append(row)
    if "long-line" in parts:
        results["long_line"] = run_long_line(args.long_line_bytes, args.repeats * 2)
        say(f"long line: {_q(results['long_line']['cpu_ms'])}")
    if "first" in parts:
        results["first_suggest"] = []
        for pause in (float(p) for p in args.first_pauses.split(",")):
            for language in languages:
                row = run_first_suggest(language, 5000, args.first_processes, pause)
                say(f"first {language} pause {pause:.0f}: {_q(row['cpu_ms'])}")
                results["first_suggest"].append(row)
    write_results(args.out, results, args.notes, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
