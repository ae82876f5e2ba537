"""Names a language predeclares: its builtins, read from ``grammars/<language>/builtins.txt``.

Owns :func:`builtin_names`. A use of such a name (Go's ``string`` or
``uint16``, Python's ``len``, Ruby's ``warn``, JavaScript's ``Object``)
refers to the language, not to a binding of the file: a developer who
replaces one use with their own function is not renaming the builtin.
The file holds one name a line; ``#`` starts a comment, and ``# inherits:
other`` adds another language's names (a dialect shares its base's).
Adding a language = adding its folder.

Must not know who asks, nor anything about LSP/ACP.
"""

from __future__ import annotations

import functools

from nextedit.syntax.queries import grammar_dirs

__all__ = ["builtin_names"]

_INHERITS = "# inherits:"


@functools.cache
def builtin_names(language: str) -> frozenset[str]:
    """The names ``language`` predeclares (empty for a language without a list)."""
    for d in grammar_dirs():
        path = d / language / "builtins.txt"
        if not path.is_file():
            continue
        names: set[str] = set()
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line.startswith(_INHERITS):
                for parent in line[len(_INHERITS) :].split(","):
                    if parent.strip() and parent.strip() != language:
                        names |= builtin_names(parent.strip())
            elif line and not line.startswith("#"):
                names.add(line)
        return frozenset(names)
    return frozenset()
