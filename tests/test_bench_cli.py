"""`nextedit bench` as a user runs it: real subprocesses of the CLI.

Mistakes print one line and exit non-zero; results go where the user says and
the recorded ones only with --record; --jobs does not change the figures;
reports show every source repository.
"""

from __future__ import annotations

import gzip
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from nextedit.bench.events import session_to_jsonl
from nextedit.bench.readers import load_sample

FAKE_AGENT = Path(__file__).with_name("fake_agent.py")
FAKE_CMD = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_AGENT))}"


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nextedit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    """The single line a mistake prints (and nothing on stdout)."""
    assert proc.returncode != 0, proc
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def write_trace(path: Path, sessions: list, repo: str | None = None) -> Path:
    lines = []
    for s in sessions:
        for ev in session_to_jsonl(s):
            if ev["kind"] == "header" and repo is not None:
                ev["source"] = {**ev["source"], "repo": repo}
            lines.append(json.dumps(ev))
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return path


@pytest.fixture(scope="module")
def two_traces(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two small trace files from two "repositories": four sample sessions each."""
    d = tmp_path_factory.mktemp("traces")
    sessions = load_sample()
    return (
        write_trace(d / "alpha.jsonl.gz", sessions[:4], repo="https://github.com/example/alpha"),
        write_trace(d / "beta.jsonl", sessions[4:8], repo="git@example.org:example/beta.git"),
    )


# -- mistakes: one line, non-zero ---------------------------------------------------------------
def test_a_missing_trace_file(tmp_path: Path) -> None:
    line = one_line_error(run_cli("bench", str(tmp_path / "nope.jsonl"), cwd=tmp_path))
    assert "nope.jsonl" in line and "no such file" in line


def test_a_python_file_passed_as_a_trace(tmp_path: Path) -> None:
    py = tmp_path / "script.py"
    py.write_text("import os\nprint(os.getcwd())\n")
    line = one_line_error(run_cli("bench", str(py), cwd=tmp_path))
    assert "script.py" in line and "not a trace" in line


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("garbage.jsonl", os.urandom(3000), "not"),
        ("garbage.jsonl.gz", b"\x1f\x8b" + os.urandom(3000), "not a text trace"),
        ("lines.jsonl", b"hello\nworld\n", "not JSON"),
        ("objects.jsonl", b'{"a": 1}\n{"b": 2}\n', 'no "kind"'),
        ("headless.jsonl", b'{"kind": "open", "trace": "t", "uri": "file:///a", "version": 1, "text": ""}\n', "header"),
        ("empty.jsonl", b"", "no nes-trace/1 session"),
        ("garbage.json", b"{not json at all", "not a trace"),
    ],
)
def test_a_file_of_garbage_is_not_a_session(tmp_path: Path, name: str, content: bytes, says: str) -> None:
    (tmp_path / name).write_bytes(content)
    line = one_line_error(run_cli("bench", str(tmp_path / name), "--no-report", cwd=tmp_path))
    assert name in line and says in line


def test_a_negative_limit(tmp_path: Path) -> None:
    proc = run_cli("bench", "--limit", "-3", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert (
        proc.stderr.strip().splitlines()[-1] == "nextedit bench: error: argument --limit: -3 is not a positive number"
    )


@pytest.mark.parametrize("flag", ["--jobs", "--limit", "--keystroke-max"])
def test_zero_where_a_positive_number_is_needed(tmp_path: Path, flag: str) -> None:
    proc = run_cli("bench", flag, "0", cwd=tmp_path)
    assert proc.returncode == 2 and f"argument {flag}: 0 is not a positive number" in proc.stderr


@pytest.mark.parametrize("flag", ["--json", "--explain", "--report"])
def test_an_unwritable_output_is_refused_before_replaying(tmp_path: Path, flag: str) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    target = blocker / "out"  # a path under a regular file: nobody can create it, root included
    line = one_line_error(run_cli("bench", "--agent-cmd", FAKE_CMD, flag, str(target), cwd=tmp_path))
    assert line.startswith(f"nextedit bench: error: cannot write {flag} {target}")


def test_a_report_dir_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "rep").write_text("x")
    line = one_line_error(run_cli("bench", "--agent-cmd", FAKE_CMD, "--report", "rep", cwd=tmp_path))
    assert "cannot write --report rep: it is a file" in line


def test_bench_bogus_flag_prints_the_bench_usage_and_names_it(tmp_path: Path) -> None:
    proc = run_cli("bench", "--bogus", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: nextedit bench")
    assert proc.stderr.strip().splitlines()[-1] == "nextedit bench: error: unrecognized arguments: --bogus"


@pytest.mark.parametrize("argv", [["--bogus"], ["--bogus", "bench"]])
def test_top_level_bogus_flag_is_named(tmp_path: Path, argv: list[str]) -> None:
    proc = run_cli(*argv, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1] == "nextedit: error: unrecognized arguments: --bogus"


def test_no_command_still_says_a_command_is_required(tmp_path: Path) -> None:
    proc = run_cli(cwd=tmp_path)
    assert proc.returncode == 2 and "required: COMMAND" in proc.stderr


def test_help_points_at_the_projects_own_format_doc() -> None:
    out = run_cli("bench", "--help").stdout
    assert "docs/trace-format.md" in " ".join(out.split())
    assert "../shared" not in out
    assert "nextedit[plot]" in out and "--record" in out and "--jobs" in out


# -- where results go ---------------------------------------------------------------------------
@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A directory that looks like a nextedit checkout, with committed results."""
    root = tmp_path / "checkout"
    (root / "benchmarks" / "results").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "nextedit"\n')
    (root / "benchmarks" / "results" / "quality.md").write_text("committed\n")
    (root / "benchmarks" / "results" / "quality.json").write_text("{}\n")
    return root


def test_bench_in_a_checkout_leaves_the_recorded_results_alone(checkout: Path, two_traces) -> None:
    a, b = two_traces
    proc = run_cli("bench", str(a), str(b), "--agent-cmd", FAKE_CMD, "--no-progress", cwd=checkout)
    assert proc.returncode == 0, proc.stderr
    results = checkout / "benchmarks" / "results"
    assert (results / "quality.md").read_text() == "committed\n"
    assert (results / "quality.json").read_text() == "{}\n"
    assert sorted(p.name for p in results.iterdir()) == ["quality.json", "quality.md"]
    assert (checkout / "nextedit-bench-results" / "quality.md").exists()
    assert "precision" in proc.stdout


def test_record_writes_the_recorded_results_with_the_command(checkout: Path, two_traces) -> None:
    a, b = two_traces
    proc = run_cli("bench", str(a), str(b), "--agent-cmd", FAKE_CMD, "--no-progress", "--record", cwd=checkout)
    assert proc.returncode == 0, proc.stderr
    results = checkout / "benchmarks" / "results"
    md = (results / "quality.md").read_text()
    assert "--record" in md and "nextedit bench" in md
    assert "| example/alpha |" in md and "| example/beta |" in md and "| pooled |" in md
    data = json.loads((results / "quality.json").read_text())
    assert "--record" in data["command"]
    assert set(data["metrics"]["by_repository"]) == {"example/alpha", "example/beta"}
    assert not (checkout / "nextedit-bench-results").exists()


def test_record_needs_a_checkout_and_named_traces(tmp_path: Path, checkout: Path, two_traces) -> None:
    a, _ = two_traces
    line = one_line_error(run_cli("bench", str(a), "--agent-cmd", FAKE_CMD, "--record", cwd=tmp_path))
    assert "inside one" in line
    line = one_line_error(run_cli("bench", "--agent-cmd", FAKE_CMD, "--record", cwd=checkout))
    assert "give TRACES" in line


def test_the_readme_first_command_prints_a_table_and_writes_no_recorded_results(checkout: Path) -> None:
    proc = run_cli("bench", "--no-progress", cwd=checkout)  # the real agent, on the bundled sample
    assert proc.returncode == 0, proc.stderr
    assert "precision" in proc.stdout and "pallets/flask" in proc.stdout
    assert (checkout / "benchmarks" / "results" / "quality.md").read_text() == "committed\n"
    assert (checkout / "nextedit-bench-results" / "sample.md").exists()


def test_a_missing_matplotlib_is_said(tmp_path: Path, two_traces) -> None:
    shadow = tmp_path / "shadow" / "matplotlib"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named matplotlib')\n")
    a, _ = two_traces
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path / "shadow"), os.environ.get("PYTHONPATH", "")])}
    proc = run_cli("bench", str(a), "--agent-cmd", FAKE_CMD, "--report", "rep", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "latency histogram skipped: matplotlib is not installed (pip install 'nextedit[plot]')" in proc.stderr
    assert "No histogram: matplotlib is not installed" in (tmp_path / "rep" / "quality.md").read_text()
    assert not (tmp_path / "rep" / "quality-latency.png").exists()


# -- per repository, --jobs -----------------------------------------------------------------------
COUNT_KEYS = (
    "queries",
    "answered",
    "correct",
    "related",
    "related_correct",
    "related_correct_strict",
    "empty",
    "silent_on_empty",
    "reversals",
    "jumps",
    "jumps_landed",
    "jumps_correct",
)


def _counts(metrics: dict) -> dict:
    pooled = {k: metrics[k] for k in COUNT_KEYS}
    repos = {name: {k: d[k] for k in COUNT_KEYS} for name, d in metrics["by_repository"].items()}
    return {"pooled": pooled, "repos": repos, "sessions_hash_ok": metrics["sessions_hash_ok"]}


def test_figures_do_not_depend_on_jobs_or_in_process(tmp_path: Path, two_traces) -> None:
    """The real agent: --jobs 1, --jobs 2 and --jobs 2 --in-process give identical counts."""
    a, b = two_traces
    runs = {
        "jobs1": ["--jobs", "1"],
        "jobs2": ["--jobs", "2"],
        "jobs2-in-process": ["--jobs", "2", "--in-process"],
    }
    counts = {}
    for name, extra in runs.items():
        out = tmp_path / f"{name}.json"
        explain = tmp_path / f"{name}.jsonl"
        proc = run_cli(
            "bench", str(a), str(b), *extra, "--json", str(out), "--explain", str(explain), "--no-report", cwd=tmp_path
        )
        assert proc.returncode == 0, proc.stderr
        data = json.loads(out.read_text())
        counts[name] = _counts(data["metrics"])
        lines = [json.loads(x) for x in explain.read_text().splitlines()]
        assert [x["repository"] for x in lines] == sorted(x["repository"] for x in lines)  # shard order kept
        assert {x["repository"] for x in lines} == {"example/alpha", "example/beta"}
        counts[name]["verdicts"] = [(x["trace"], x["query"], x["verdict"]["correct"]) for x in lines]
    assert counts["jobs1"]["sessions_hash_ok"] == 8
    assert counts["jobs1"]["pooled"]["queries"] > 0 and counts["jobs1"]["pooled"]["answered"] > 0
    assert counts["jobs1"] == counts["jobs2"] == counts["jobs2-in-process"]


def test_every_report_shows_each_repository_the_pooled_figure_and_the_worst(tmp_path: Path, two_traces) -> None:
    a, b = two_traces
    proc = run_cli("bench", str(a), str(b), "--json", "m.json", "--report", "rep", "--no-progress", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    m = json.loads((tmp_path / "m.json").read_text())["metrics"]
    assert set(m["by_repository"]) == {"example/alpha", "example/beta"}
    for d in m["by_repository"].values():
        assert set(COUNT_KEYS) | {"latency_ms", "followup_latency_ms", "precision", "recall_related"} <= set(d)
        assert set(d["latency_ms"]) == {"count", "p50", "p95", "p99", "max", "mean"}
    worst = m["worst_repository"]
    assert worst["by_precision"]["repository"] in m["by_repository"]
    # the table on stdout and the markdown report
    for text in (proc.stdout, (tmp_path / "rep" / "quality.md").read_text()):
        assert "example/alpha" in text and "example/beta" in text and "pooled" in text
        assert f"worst repository by precision: {worst['by_precision']['repository']}" in text.lower()


# -- the independent check -------------------------------------------------------------------------
INDEPENDENT = Path(__file__).resolve().parents[1] / "benchmarks" / "quality" / "independent_check.py"


def test_the_independent_check_imports_only_the_standard_library() -> None:
    import ast

    tree = ast.parse(INDEPENDENT.read_text(encoding="utf-8"))
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    modules.discard("__future__")
    assert modules and modules <= set(sys.stdlib_module_names), modules


def test_the_independent_check_agrees_with_the_bench(tmp_path: Path, two_traces) -> None:
    a, b = two_traces
    proc = run_cli("bench", str(a), str(b), "--json", "bench.json", "--no-report", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    check = subprocess.run(
        [sys.executable, str(INDEPENDENT), str(a), str(b), "--compare", "bench.json", "--json", "ind.json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "pooled figures agree within 0.02" in check.stdout
    mine = json.loads((tmp_path / "ind.json").read_text())
    assert set(mine["by_repository"]) == {"example/alpha", "example/beta"}
    assert mine["pooled"]["answered"] > 0
