"""How a line of comment starts, language by language.

Owns :func:`comment_starts`: the prefixes that open a comment (or a
docstring, or a block comment's continuation line ``*``) at the start of a
stripped line, for a grammar name of :mod:`nextedit.syntax.languages`. A
suggester reads it to say whether a change sits on a comment line, a fact the
ranker weighs. The prefixes differ where it matters: ``#`` opens a comment in
Python, Ruby or shell, but a preprocessor line in C and an attribute in Rust
(``#[inline]``), which are code; ``--`` opens one in Lua, SQL or Haskell but
decrements in C. A language not listed here gets every common prefix
(:data:`ANY_COMMENT_STARTS`).

Must not know about parsing, positions or any suggester's rules.
"""

from __future__ import annotations

__all__ = ["ANY_COMMENT_STARTS", "comment_starts"]

# every prefix below: the reading of a line whose language is not known
ANY_COMMENT_STARTS = ("#", "//", "/*", "*", "--", '"' * 3, "'" * 3)

_C_LIKE = ("//", "/*", "*")
_HASH = ("#",)
_STARTS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        (
            "c",
            "cpp",
            "cuda",
            "objc",
            "rust",
            "go",
            "java",
            "javascript",
            "typescript",
            "tsx",
            "csharp",
            "kotlin",
            "swift",
            "scala",
            "dart",
            "zig",
            "groovy",
            "css",
            "scss",
        ),
        _C_LIKE,
    ),
    **dict.fromkeys(
        ("ruby", "bash", "fish", "perl", "r", "julia", "elixir", "yaml", "toml", "make", "cmake", "dockerfile"), _HASH
    ),
    "python": ("#", '"' * 3, "'" * 3),
    "php": ("#", *_C_LIKE),
    **dict.fromkeys(("lua", "sql", "haskell"), ("--",)),
}


def comment_starts(language: str | None) -> tuple[str, ...]:
    """The prefixes that open a comment line in ``language`` (a grammar
    name; ``None`` or one not listed: :data:`ANY_COMMENT_STARTS`)."""
    if language is None:
        return ANY_COMMENT_STARTS
    return _STARTS.get(language, ANY_COMMENT_STARTS)
