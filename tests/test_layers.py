"""The engine core never imports a front end (ARCHITECTURE.md invariant)."""

from __future__ import annotations

import ast
from pathlib import Path

import nextedit

PACKAGE = Path(nextedit.__file__).parent
CORE = ["text", "syntax", "history", "suggest", "feedback", "provider", "session.py", "settings.py"]
FORBIDDEN = ("nextedit.acp", "nextedit.lsp", "nextedit.bench", "pygls", "lsprotocol", "acp")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _core_files() -> list[Path]:
    files: list[Path] = []
    for entry in CORE:
        path = PACKAGE / entry
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def test_core_files_exist() -> None:
    assert len(_core_files()) >= len(CORE)


def test_core_imports_no_front_end() -> None:
    offenders = {
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in _core_files()
        if path.name != "command.py"  # CLI entry points are front ends of their own
        for name in _imports(path)
        if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)
    }
    assert not offenders, sorted(offenders)
