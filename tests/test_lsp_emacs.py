"""`nextedit lsp` in a real Emacs: the README's eglot setup, run as printed by `emacs --batch`.

Skipped when `emacs` is not installed (on Debian 12: `apt install emacs-nox
elpa-eglot`, eglot 1.9). The driver (tests/emacs/nextedit-driver.el) loads
the README's snippet, opens the files, makes the developer's edit and
presses the snippet's key, C-c n; we assert the buffers' final text and the
feedback log.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.lsp_texts import GEOM, MAIN, TESTS

REPO = Path(__file__).resolve().parents[1]
DRIVER = REPO / "tests" / "emacs" / "nextedit-driver.el"
DOCS = REPO / "README.md"
EMACS = shutil.which("emacs")

pytestmark = pytest.mark.skipif(EMACS is None, reason="no emacs (apt install emacs-nox elpa-eglot)")


def docs_snippet() -> str:
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(r"<!-- emacs-snippet:start -->\s*```elisp\n(.*?)```\s*<!-- emacs-snippet:end -->", text, re.S)
    assert match, "README.md lost its marked Emacs snippet"
    return match.group(1)


def run_emacs(tmp_path: Path, mode: str, files: dict[str, str], extra: str | None = None) -> dict[str, str]:
    """Run the driver on ``files`` (the last is edited, the one before opened first)."""
    project = tmp_path / "project"
    project.mkdir(parents=True)
    (project / ".git").mkdir()
    for name, text in files.items():
        (project / name).write_text(text, encoding="utf-8")
    names = list(files)
    out = tmp_path / "out"
    out.mkdir()
    init = tmp_path / "init.el"
    init.write_text(docs_snippet(), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",  # `nextedit` on PATH
        "XDG_STATE_HOME": str(tmp_path / "xdg-state"),
        "NEXTEDIT_INIT": str(init),
        "NEXTEDIT_MODE": mode,
        "NEXTEDIT_FILE": str(project / names[-1]),
        "NEXTEDIT_OUT": str(out),
        **({"NEXTEDIT_OTHER": str(project / names[-2])} if len(names) > 1 else {}),
        **({"NEXTEDIT_EXTRA": extra} if extra else {}),
    }
    assert EMACS is not None
    done = subprocess.run(
        [EMACS, "--batch", "-l", str(DRIVER)],
        env=env,
        cwd=project,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=180,
    )
    assert done.returncode == 0, f"emacs exited {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    return {path.name: path.read_text(encoding="utf-8") for path in out.iterdir()}


def feedback(tmp_path: Path) -> list[dict]:
    path = tmp_path / "xdg-state" / "nextedit" / "feedback.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_documented_eglot_setup_applies_a_cross_file_rename(tmp_path: Path) -> None:
    texts = run_emacs(tmp_path, "crossfile", {"main.py": MAIN, "geom.py": GEOM})
    assert texts["geom.py"] == GEOM.replace("area", "surface")
    assert texts["main.py"] == MAIN.replace("area", "surface")
    assert [(r["action"], r["uri"].rsplit("/", 1)[-1]) for r in feedback(tmp_path)] == [("accept", "main.py")]


def test_the_documented_eglot_setup_walks_a_repeated_edit_site_by_site(tmp_path: Path) -> None:
    texts = run_emacs(tmp_path, "walk", {"test_t.py": TESTS})
    assert texts["test_t.py"] == TESTS.replace("assertEquals", "assertEqual")
    # eglot 1.9 does not follow window/showDocument: point stays, each press takes the next site
    assert texts["cursor.txt"].split() == ["6"] * 4
    assert [r["action"] for r in feedback(tmp_path)] == ["accept"] * 4


def test_the_documented_eglot_workspace_configuration_reaches_nextedit(tmp_path: Path) -> None:
    # the README's form of eglot-workspace-configuration, here watching only Rust
    line = re.search(r"`(\(setq-default eglot-workspace-configuration .*?\))`", DOCS.read_text(encoding="utf-8"))
    assert line, "README.md lost its eglot-workspace-configuration example"
    assert run_emacs(tmp_path / "a", "count", {"main.py": MAIN, "geom.py": GEOM})["actions.txt"].split() == ["1"]
    watching_rust = line.group(1).replace("(:minConfidence 0.7)", '(:languages ["rust"])')
    assert ":languages" in watching_rust
    texts = run_emacs(tmp_path / "b", "count", {"main.py": MAIN, "geom.py": GEOM}, extra=watching_rust)
    assert texts["actions.txt"].split() == ["0"]
