"""Tree-sitter queries loaded from ``grammars/<language>/<name>.scm``.

Owns finding, reading and compiling the query files (cached per language and
name). Query files ship as package data under ``nextedit/grammars`` (a symlink
to the repository's top-level ``grammars/`` in a checkout); the top-level
folder is the fallback. Adding a language = adding a folder.

A query file may start with ``; inherits: other`` (the nvim-treesitter
convention): the other language's file of the same name is prepended, so a
dialect (tsx) shares its base language's queries instead of copying them.

Must not know what the queries mean (that is :mod:`nextedit.syntax.query_analysis`)
nor anything about LSP/ACP.
"""

from __future__ import annotations

import functools
from pathlib import Path

import tree_sitter

from nextedit.syntax.languages import get_language

__all__ = ["load", "query_text", "grammar_dirs", "available"]


def grammar_dirs() -> list[Path]:
    """Where query folders are looked up, first match wins."""
    import nextedit

    package = Path(nextedit.__file__).resolve().parent
    dirs = [Path(nextedit.__file__).parent / "grammars", package.parents[1] / "grammars"]
    out: list[Path] = []
    for d in dirs:
        if d.is_dir() and d.resolve() not in {o.resolve() for o in out}:
            out.append(d)
    return out


_INHERITS = "; inherits:"


@functools.cache
def query_text(language: str, name: str) -> str | None:
    """The text of ``grammars/<language>/<name>.scm`` with what it inherits, or ``None``."""
    for d in grammar_dirs():
        path = d / language / f"{name}.scm"
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            first_line = text.split("\n", 1)[0]
            if not first_line.startswith(_INHERITS):
                return text
            parents = [p.strip() for p in first_line[len(_INHERITS) :].split(",") if p.strip()]
            inherited = [query_text(parent, name) or "" for parent in parents]
            return "\n".join([*inherited, text])
    return None


@functools.cache
def load(language: str, name: str) -> tree_sitter.Query | None:
    """The compiled query ``grammars/<language>/<name>.scm``, or ``None`` when
    the file does not exist. A query that does not compile against the bundled
    grammar raises (``tests/test_syntax.py`` compiles every file)."""
    text = query_text(language, name)
    if text is None:
        return None
    return tree_sitter.Query(get_language(language), text)


def available() -> dict[str, list[str]]:
    """``{language: [query names]}`` for every grammar folder."""
    found: dict[str, set[str]] = {}
    for d in grammar_dirs():
        for sub in d.iterdir():
            if sub.is_dir():
                found.setdefault(sub.name, set()).update(p.stem for p in sub.glob("*.scm"))
    return {lang: sorted(names) for lang, names in sorted(found.items())}
