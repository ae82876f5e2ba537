"""The git history miner, on a repository the test creates."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nextedit.bench.events import Change, Open, Query
from nextedit.bench.miner import Hunk, mine_repository, related_pairs, transformation
from nextedit.bench.readers import read_nes_trace
from nextedit.bench.replay import replay_mirror_only
from nextedit.bench.wire import apply_changes, range_offsets, sha256_text
from nextedit.cli import main
from nextedit.text import Document

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")

V1 = """import os


def compute(value):
    return value * 2


helper_value = 3


def first():
    a = compute(1)
    return a + helper_value


def second():
    x = 1
    return compute(x)


def third():
    y = 2
    return compute(y)


def fourth():
    return helper_value * 2
"""

# commit 2: a parameter added to the definition, and the same argument added at every call
V2 = (
    V1.replace("def compute(value):", "def compute(value, cache=False):")
    .replace("compute(1)", "compute(1, cache=True)")
    .replace("compute(x)", "compute(x, cache=True)")
    .replace("compute(y)", "compute(y, cache=True)")
)

# commit 3: a rename at separate sites, plus an unrelated edit
V3 = V2.replace("helper_value", "helper_total").replace("import os\n", "import os\nimport sys\n")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = tmp_path_factory.mktemp("minerepo") / "demo"
    r.mkdir()
    _git(r, "init", "-q")
    _git(r, "config", "user.email", "t@example.com")
    _git(r, "config", "user.name", "t")
    _git(r, "config", "commit.gpgsign", "false")

    def commit(files: dict[str, bytes], msg: str) -> str:
        for name, data in files.items():
            p = r / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        _git(r, "add", "-A")
        _git(r, "commit", "-q", "-m", msg)
        return _git(r, "rev-parse", "HEAD").strip()

    vendored = "a = 1\n\n\n\nb = 2\n"
    binary = bytes(range(256)) * 4
    latin = "x = 'caf\xe9'\n\n\n\ny = 1\n".encode("latin-1")
    commit(
        {
            "app.py": V1.encode(),
            "vendor/lib.py": vendored.encode(),
            "blob.bin": binary,
            "latin.py": latin,
            "one.py": b"a = 1\n",
        },
        "v1",
    )
    commit(
        {
            "app.py": V2.encode(),
            "vendor/lib.py": vendored.replace("1", "10").replace("2", "20").encode(),
            "blob.bin": binary[::-1],
            "latin.py": latin.replace(b"1", b"10").replace(b"caf", b"CAF"),
            "one.py": b"a = 2\n",
        },
        "v2",
    )
    commit({"app.py": V3.encode()}, "v3")
    return r


def _sessions_by_commit(sessions):
    out: dict[str, list] = {}
    for s in sessions:
        out.setdefault(s.header.source["commit"], []).append(s)
    return out


def test_mined_sessions_replay_to_each_commit_text(repo: Path) -> None:
    sessions = mine_repository(repo, seed=3)
    commits = _git(repo, "rev-list", "HEAD").split()
    by_commit = _sessions_by_commit(sessions)
    assert set(by_commit) == set(commits[:2])  # v3 and v2; the root commit has no parent
    assert {s.header.source["path"] for s in sessions} == {"app.py"}  # vendor, binary, latin-1, 1-hunk skipped
    for commit, group in by_commit.items():
        assert {s.header.order.split(":")[0] for s in group} <= {"file", "random", "reverse"}
        assert len(group) == 2
        final = _git(repo, "show", f"{commit}:app.py")
        for s in group:
            ok, texts = replay_mirror_only(s)
            assert ok is True
            assert texts == {"file:///demo/app.py": final}
            assert s.events[-1].sha256 == sha256_text(final)
            # every query's expected edits, applied, give the commit's text
            doc = None
            for ev in s.events:
                if isinstance(ev, Open):
                    doc = Document(ev.uri, ev.language_id, ev.version, ev.text)
                elif isinstance(ev, Change):
                    apply_changes(doc, ev.content_changes, ev.version, "utf-16")
                elif isinstance(ev, Query):
                    text = doc.text
                    for a, b, t in sorted(
                        (range_offsets(doc, x.range, "utf-16") + (x.new_text,) for x in ev.expected), reverse=True
                    ):
                        text = text[:a] + t + text[b:]
                    assert text == final


def _file_order(sessions, commit):
    return next(s for s in sessions if s.header.source["commit"] == commit and s.header.order == "file")


def test_repeated_call_site_change_is_related(repo: Path) -> None:
    sessions = mine_repository(repo)
    v2 = _git(repo, "rev-parse", "HEAD~1").strip()
    s = _file_order(sessions, v2)
    assert s.header.tags == ["repetitive"]
    queries = s.queries
    # h0 = the definition (another transformation), h1..h3 = the three call sites
    assert [[x.id for x in q.expected] for q in queries] == [["h1", "h2", "h3"], ["h2", "h3"], ["h3"], []]
    assert [q.related for q in queries] == [[], ["h2", "h3"], ["h3"], []]


def test_rename_is_related_and_the_unrelated_edit_is_not(repo: Path) -> None:
    sessions = mine_repository(repo)
    v3 = _git(repo, "rev-parse", "HEAD").strip()
    s = _file_order(sessions, v3)
    # h0 = `import sys` (unrelated), h1..h3 = helper_value → helper_total
    first = s.queries[0]
    assert [x.id for x in first.expected] == ["h1", "h2", "h3"] and first.related == []
    assert s.queries[1].related == ["h2", "h3"]
    rnd = next(x for x in sessions if x.header.source["commit"] == v3 and x.header.order != "file")
    for q in rnd.queries:
        assert "h0" not in q.related


def test_transformation_modulo_identifiers() -> None:
    a = Hunk("h0", 0, 0, "print(foo)\n", "print foo\n")
    b = Hunk("h1", 0, 0, "print(bar_baz)\n", "print bar_baz\n")
    c = Hunk("h2", 0, 0, "print(foo, file=err)\n", "print foo\n")
    assert transformation(a) == transformation(b) != transformation(c)
    rel = related_pairs([a, b, c])
    assert rel == {"h0": {"h1"}, "h1": {"h0"}, "h2": set()}


def test_cli_traces_mine(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "mined.jsonl.gz"
    assert main(["traces", "mine", str(repo), "-o", str(out), "--max-sessions", "3", "--seed", "5"]) == 0
    sessions = read_nes_trace(out)
    assert len(sessions) == 3
    assert all(replay_mirror_only(s)[0] is True for s in sessions)


# -- the command line, as a user runs it ----------------------------------------------------------
def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nextedit", "traces", "mine", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode != 0 and proc.stdout == "" and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def test_mine_a_directory_that_is_not_a_git_repository_shows_gits_message(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    line = one_line_error(run_cli(str(plain), "-o", "out.jsonl", cwd=tmp_path))
    assert line.startswith("nextedit traces mine: error:") and "not a git repository" in line
    assert not (tmp_path / "out.jsonl").exists()


def test_mine_a_bad_rev_shows_gits_message(repo: Path, tmp_path: Path) -> None:
    line = one_line_error(run_cli(str(repo), "--rev", "no-such-rev", "-o", "out.jsonl", cwd=tmp_path))
    assert "--rev no-such-rev" in line and "bad revision" in line


def test_mine_a_missing_directory(tmp_path: Path) -> None:
    line = one_line_error(run_cli(str(tmp_path / "nowhere"), cwd=tmp_path))
    assert "no such directory" in line


def test_mine_an_unwritable_output(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    line = one_line_error(run_cli(str(repo), "-o", str(tmp_path / "a-file" / "out.jsonl"), cwd=tmp_path))
    assert "cannot write -o" in line


def test_mine_says_when_the_session_limit_cut_it(repo: Path, tmp_path: Path) -> None:
    proc = run_cli(str(repo), "--max-sessions", "1", "-o", "out.jsonl", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "wrote 1 sessions" in proc.stderr
    assert "stopped at --max-sessions 1" in proc.stderr
    proc = run_cli(str(repo), "-o", "all.jsonl", cwd=tmp_path)
    assert proc.returncode == 0 and "stopped at" not in proc.stderr and "wrote 4 sessions" in proc.stderr


def test_mine_help_states_its_defaults(tmp_path: Path) -> None:
    out = " ".join(run_cli("--help", cwd=tmp_path).stdout.split())
    for default in (
        "(default: 200)",
        "(default: 2000)",
        "(default: 30)",
        "(default: HEAD)",
        "(default: mined.jsonl.gz)",
    ):
        assert default in out


def test_mine_shows_progress_on_a_terminal(repo: Path, tmp_path: Path) -> None:
    import os
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nextedit", "traces", "mine", str(repo), "-o", "out.jsonl"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        cwd=tmp_path,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the other end closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=120) == 0
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert "mine" in shown and "commits" in shown and "3/3" in shown
