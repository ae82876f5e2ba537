"""Language registry: which tree-sitter grammar a document uses.

Owns the mapping from an editor's languageId (LSP / ACP) or a file name to a
grammar name of the bundled ``tree-sitter-language-pack``, and the cached
``tree_sitter.Language`` / ``tree_sitter.Parser`` objects.

Must not know about LSP, ACP, pygls or positions: it takes plain strings.
``None`` means "no grammar": callers fall back to :mod:`nextedit.syntax.tokens`.
"""

from __future__ import annotations

import functools
import re
import threading
from pathlib import PurePosixPath
from urllib.parse import unquote, urlparse

import tree_sitter

__all__ = [
    "language_for",
    "reads_as_cpp",
    "get_language",
    "get_parser",
    "is_supported",
]

# LSP languageId -> bundled grammar name.
_LANGUAGE_IDS: dict[str, str] = {
    "python": "python",
    "javascript": "javascript",
    "javascriptreact": "javascript",  # the javascript grammar parses JSX
    "jsx": "javascript",
    "typescript": "typescript",
    "typescriptreact": "tsx",
    "tsx": "tsx",
    "rust": "rust",
    "go": "go",
    "java": "java",
    "c": "c",
    "cpp": "cpp",
    "cuda-cpp": "cuda",
    "ruby": "ruby",
    "csharp": "csharp",
    "kotlin": "kotlin",
    "php": "php",
    "lua": "lua",
    "shellscript": "bash",
    "bash": "bash",
    "sh": "bash",
    "zsh": "bash",
    "fish": "fish",
    "html": "html",
    "css": "css",
    "scss": "scss",
    "json": "json",
    "jsonc": "json",
    "svelte": "svelte",
    "vue": "vue",
    "swift": "swift",
    "scala": "scala",
    "dart": "dart",
    "elixir": "elixir",
    "erlang": "erlang",
    "haskell": "haskell",
    "ocaml": "ocaml",
    "perl": "perl",
    "r": "r",
    "julia": "julia",
    "zig": "zig",
    "sql": "sql",
    "yaml": "yaml",
    "toml": "toml",
    "xml": "xml",
    "dockerfile": "dockerfile",
    "makefile": "make",
    "cmake": "cmake",
    "objective-c": "objc",
    "groovy": "groovy",
    "powershell": "powershell",
    "nix": "nix",
    "terraform": "hcl",
    "hcl": "hcl",
    "proto": "proto",
    "proto3": "proto",
    "graphql": "graphql",
    "clojure": "clojure",
    "fsharp": "fsharp",
    "elm": "elm",
    "latex": "latex",
    "solidity": "solidity",
    "markdown": "markdown",
}

# File extension (lower case, with the dot) -> grammar name.
_EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".rs": "rust",
    ".go": "go",
    ".java": "java",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".h++": "cpp",
    ".ipp": "cpp",
    ".cu": "cuda",
    ".cuh": "cuda",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".ru": "ruby",
    ".cs": "csharp",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".php": "php",
    ".lua": "lua",
    ".sh": "bash",
    ".bash": "bash",
    ".zsh": "bash",
    ".fish": "fish",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".scss": "scss",
    ".json": "json",
    ".jsonc": "json",
    ".svelte": "svelte",
    ".vue": "vue",
    ".swift": "swift",
    ".scala": "scala",
    ".sc": "scala",
    ".dart": "dart",
    ".ex": "elixir",
    ".exs": "elixir",
    ".erl": "erlang",
    ".hrl": "erlang",
    ".hs": "haskell",
    ".ml": "ocaml",
    ".mli": "ocaml_interface",
    ".pl": "perl",
    ".pm": "perl",
    ".r": "r",
    ".jl": "julia",
    ".zig": "zig",
    ".sql": "sql",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".xml": "xml",
    ".cmake": "cmake",
    ".m": "objc",
    ".groovy": "groovy",
    ".gradle": "groovy",
    ".ps1": "powershell",
    ".nix": "nix",
    ".tf": "hcl",
    ".hcl": "hcl",
    ".proto": "proto",
    ".graphql": "graphql",
    ".gql": "graphql",
    ".clj": "clojure",
    ".cljs": "clojure",
    ".cljc": "clojure",
    ".fs": "fsharp",
    ".fsx": "fsharp",
    ".elm": "elm",
    ".tex": "latex",
    ".sol": "solidity",
    ".md": "markdown",
}

# Whole file names (no useful extension) -> grammar name.
_FILE_NAMES: dict[str, str] = {
    "dockerfile": "dockerfile",
    "makefile": "make",
    "gnumakefile": "make",
    "cmakelists.txt": "cmake",
    "rakefile": "ruby",
    "gemfile": "ruby",
}


def _file_name(uri: str) -> str:
    """The last path component of a URI or plain path, percent-decoded."""
    if "://" in uri or uri.startswith("file:") or uri.startswith("untitled:"):
        path = unquote(urlparse(uri).path or uri)
    else:
        path = uri
    return PurePosixPath(path.replace("\\", "/")).name


@functools.lru_cache(maxsize=512)
def is_supported(language: str) -> bool:
    """Whether the bundled pack can load ``language``."""
    try:
        get_language(language)
    except Exception:  # noqa: BLE001 - untrusted input: a client's languageId or file name; the pack raises several types
        return False
    return True


def language_for(language_id: str | None, uri: str, text: str | None = None) -> str | None:
    """The grammar name for a document, or ``None`` for plain-token handling.

    The languageId wins; the file name/extension decides when the id is
    missing or unknown (``plaintext`` counts as unknown). A document said to
    be C whose ``text`` reads as C++ (:func:`reads_as_cpp`) gets the C++
    grammar.
    """
    lang = _named_language(language_id, uri)
    if lang == "c" and text is not None and reads_as_cpp(text) and is_supported("cpp"):
        return "cpp"
    return lang


def _named_language(language_id: str | None, uri: str) -> str | None:
    if language_id:
        lang = _LANGUAGE_IDS.get(language_id.lower())
        if lang is not None and is_supported(lang):
            return lang
    name = _file_name(uri or "").lower()
    lang = _FILE_NAMES.get(name)
    if lang is None:
        suffix = PurePosixPath(name).suffix
        lang = _EXTENSIONS.get(suffix) if suffix else None
    if lang is not None and is_supported(lang):
        return lang
    return None


# what only C++ reads like, at a line start (templates, namespaces, classes
# with a body, access labels) or anywhere (``std::``, ``constexpr``, ``noexcept``)
_CPP_MARKS = re.compile(
    r"^[ \t]*(?:template[ \t]*<|namespace(?:[ \t]+\w+)?[ \t]*\{|class[ \t]+\w+[^;\n]*\{|using[ \t]+namespace\b"
    r"|(?:public|private|protected)[ \t]*:)|\bstd::\w|\bconstexpr\b|\bnoexcept\b",
    re.MULTILINE,
)
# how much of a document is read for them
_SNIFF_CHARS = 32_768


def reads_as_cpp(text: str) -> bool:
    """Whether a document said to be C is C++: a ``.h`` header is C to most
    editors, and C++ headers are common. Parsed with the C grammar, C++ is a
    sea of error nodes (no classes, templates or namespaces to scope names
    by) and takes two to three times longer to parse."""
    return _CPP_MARKS.search(text, 0, _SNIFF_CHARS) is not None


@functools.cache
def get_language(language: str) -> tree_sitter.Language:
    """The cached ``tree_sitter.Language`` (raises for unknown names)."""
    from tree_sitter_language_pack import get_language as _pack_language

    return _pack_language(language)  # type: ignore[arg-type]


_local = threading.local()


def get_parser(language: str) -> tree_sitter.Parser:
    """A parser for ``language``, cached per thread (parsers are not shared
    across threads: ``Parser.parse`` mutates the parser)."""
    parsers: dict[str, tree_sitter.Parser] | None = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(language)
    if parser is None:
        parser = parsers[language] = tree_sitter.Parser(get_language(language))
    return parser
