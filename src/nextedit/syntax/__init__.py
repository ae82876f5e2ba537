"""syntax — tree-sitter parsing, queries and binding resolution.

Owns the language registry (:mod:`.languages`), incrementally re-parsed
syntax trees (:mod:`.tree`; C and C++ read with their attribute-like macros
blanked, :mod:`.attribute_macros`), query files under ``grammars/``
(:mod:`.queries`), scope/binding resolution (public lookups in
:mod:`.scopes`, built on :mod:`.query_analysis`, :mod:`.name_resolution` and
:mod:`.keyword_arguments`) and the plain token fallback for languages without
a grammar (:mod:`.tokens`).

Must not know about LSP, ACP, pygls or position encodings: it speaks UTF-8
byte offsets and ``(row, byte_column)`` points (tree-sitter) and, in
``tokens``, code-point offsets.
"""

from nextedit.syntax import queries
from nextedit.syntax.languages import get_language, get_parser, is_supported, language_for
from nextedit.syntax.scopes import (
    binding_occurrences,
    enclosing_node,
    identifier_at,
    identifier_node_types,
    is_file_level_binding,
    is_identifier_node_type,
)
from nextedit.syntax.tokens import Token, same_name_occurrences, tokenize
from nextedit.syntax.tree import ByteEdit, SyntaxTree, TreeEdit

__all__ = [
    "ByteEdit",
    "SyntaxTree",
    "Token",
    "TreeEdit",
    "binding_occurrences",
    "enclosing_node",
    "get_language",
    "get_parser",
    "identifier_at",
    "identifier_node_types",
    "is_file_level_binding",
    "is_identifier_node_type",
    "is_supported",
    "language_for",
    "queries",
    "same_name_occurrences",
    "tokenize",
]
