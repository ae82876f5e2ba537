"""A git history rebuilt from released archives (``benchmarks/quality/release_history.py``):
what of an archive is kept, and that the history mines into trace sessions.

The registries are not reached: the archives are made here and served in
place of the download.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from nextedit.bench.events import Query
from nextedit.bench.readers import read_nes_trace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "quality"))
import release_history  # noqa: E402


def _tarball(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as t:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def test_sources_are_kept_with_the_top_directory_stripped():
    data = _tarball(
        {
            "pkg-1.0/src/pkg/core.py": "x = 1\n",
            "pkg-1.0/src/pkg/core.pyi": "x: int\n",
            "pkg-1.0/README.md": "# pkg\n",
            "pkg-1.0/dist/bundle.js": "var a;\n",
            "pkg-1.0/web/app.min.js": "var b;\n",
            "pkg-1.0/.github/check.py": "pass\n",
            "pkg-1.0/include/cargo/dep/lib.rs": "fn f() {}\n",
        }
    )
    members = release_history._members(data, "https://example.invalid/pkg-1.0.tar.gz")
    kept = release_history.source_files(members)
    assert sorted(kept) == ["include/cargo/dep/lib.rs", "src/pkg/core.py", "src/pkg/core.pyi"]
    vendored_left_out = release_history.source_files(members, release_history.SKIPPED_DIRS | {"include"})
    assert sorted(vendored_left_out) == ["src/pkg/core.py", "src/pkg/core.pyi"]


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_a_history_of_releases_mines_into_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    body = "".join(f"def f{i}(a, b):\n    return g(a, b)\n\n\n" for i in range(6))
    releases = {
        "1.0": {"package/lib/m.py": body},
        # the same change at every site, and a file added
        "1.1": {"package/lib/m.py": body.replace("g(a, b)", "g(a, b, strict=True)"), "package/lib/n.py": "y = 2\n"},
    }
    archives = {v: _tarball(files) for v, files in releases.items()}
    monkeypatch.setattr(release_history, "archive_url", lambda registry, package, version: f"mem://{version}.tgz")
    monkeypatch.setattr(
        release_history, "_fetch", lambda url: archives[url.removeprefix("mem://").removesuffix(".tgz")]
    )

    repo = tmp_path / "repo"
    assert release_history.build("npm", "pkg", ["1.0", "1.1"], repo) == 2
    log = subprocess.run(["git", "-C", str(repo), "log", "--format=%s"], capture_output=True, text=True, check=True)
    assert log.stdout.split("\n")[:2] == ["release 1.1", "release 1.0"]
    assert (repo / "lib" / "n.py").read_text() == "y = 2\n"

    traces = tmp_path / "t.jsonl.gz"
    subprocess.run(
        [sys.executable, "-m", "nextedit", "traces", "mine", str(repo), "-o", str(traces), "--no-progress"],
        check=True,
        capture_output=True,
    )
    sessions = read_nes_trace(traces)
    queries = [e for s in sessions for e in s.events if isinstance(e, Query)]
    assert sessions and all(s.header.source["path"] == "lib/m.py" for s in sessions)
    assert any(q.related for q in queries)  # the repeated change is marked as such
