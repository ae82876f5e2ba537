"""The README's editor setups name every language nextedit has queries for, and parse.

The setups themselves run in real editors (tests/test_lsp_nvim.py, tests/test_lsp_emacs.py);
these checks need no editor.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from nextedit.syntax import language_for

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
GRAMMARS = {path.name for path in (REPO / "src" / "nextedit" / "grammars").iterdir() if path.is_dir()}


def snippet(name: str, fence: str) -> str:
    match = re.search(
        rf"<!-- {name}-snippet:start -->\s*```{fence}\n(.*?)```\s*<!-- {name}-snippet:end -->", README, re.S
    )
    assert match, f"README.md lost its marked {name} snippet"
    return match.group(1)


def test_neovim_filetypes_cover_every_language_with_queries() -> None:
    listed = re.search(r"filetypes = \{(.*?)\}", snippet("nvim", "lua"), re.S)
    assert listed
    filetypes = re.findall(r"'([a-z]+)'", listed.group(1))
    # Neovim sends the filetype as the languageId
    assert {language_for(filetype, "file:///x") for filetype in filetypes} >= GRAMMARS


def test_emacs_modes_cover_every_language_with_queries() -> None:
    modes = re.findall(r"\b([a-z+]+)(?:-ts)?-mode\b", snippet("emacs", "elisp"))
    # eglot 1.9 sends the mode name without -mode; the file extension decides where that is unknown
    ids = {"js": "javascript", "c++": "cpp", "tsx": "tsx"}
    assert {language_for(ids.get(mode, mode), "file:///x") for mode in modes} >= GRAMMARS


def test_helix_languages_cover_every_language_with_queries() -> None:
    config = tomllib.loads(snippet("helix", "toml"))
    assert config["language-server"]["nextedit"] == {"command": "nextedit", "args": ["lsp"]}
    assert all(language["language-servers"][-1] == "nextedit" for language in config["language"])
    names = {language["name"] for language in config["language"]}
    assert {language_for(name, "file:///x") for name in names} >= GRAMMARS


def test_the_acp_section_says_accept_and_reject_are_notifications() -> None:
    acp = README[README.index("### ACP clients") : README.index("### Editors that speak LSP")]
    assert re.search(r"`nes/accept`.*`nes/reject`.*notifications", acp, re.S), "the ACP section must say so"
