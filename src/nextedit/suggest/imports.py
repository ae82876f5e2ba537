"""Imports the code still needs: a deletion that would remove one is not a repeat.

Owns :func:`deletes_a_used_import`. A developer deletes an import (a whole
statement, or one name of its list) once its last use is gone; the same
deletion at another import applies only where that import is unused too.
Deleting an import whose name the file still reads breaks the code, so the
developer left it on purpose (on the traces such deletions are almost never
the next edit).

The names an import brings in are read off its syntax tree, grammar by
grammar only as far as the tree's shape: the last identifier of each
imported path and every alias (``import a.b.C``, ``from m import x as y``,
``use a::{B, C as D}``, ``import {a as b} from 'm'``), and for Go the last
segment of the imported path or its alias. A C ``#include`` names nothing:
it is never judged. Read on the current syntax tree: the imports the
developer just deleted sit right beside the ones judged.

Must not know about suggesters' rules, the ranker, LSP/ACP or position
encodings.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from nextedit.suggest.suggester import SuggestContext
from nextedit.text import common_affixes
from nextedit.text.lexical import IDENTIFIER, word_pattern

__all__ = ["deletes_a_used_import", "imported_names"]

# import statements of the grammars (Python, JS/TS, Java, Go, Rust)
_IMPORT_TYPES = frozenset(
    {"import_statement", "import_from_statement", "import_declaration", "import_spec", "use_declaration"}
)
# one name of an import's list (JavaScript/TypeScript ``{ a, b as c }``, Python ``x as y``)
_SPECIFIER_TYPES = frozenset({"import_specifier", "aliased_import"})
# the fields naming the module an import reads from, not a name it binds
_SOURCE_FIELDS = {"import_from_statement": ("module_name",), "scoped_use_list": ("path",)}
# a dotted module or item path (``a.b.C``, ``a::b::C``): the import binds its last name
_PATH_TYPES = frozenset({"dotted_name", "scoped_identifier"})
# text every import statement of those grammars holds (a Go spec: its quoted path)
_MAY_IMPORT = re.compile(r"import|use|\"|`")
# a deletion that may be names of an import's list (``    isSpyEnabled,\n``,
# ``b as c, ``): words between commas and blanks, each a name or a path of
# names; read word by word (a pattern repeating names with optional
# separators backtracks exponentially on a long deletion that fails)
_LIST_SEPARATORS = re.compile(r"[\s,]+")
_NAME_PATH = re.compile(rf"(?:{IDENTIFIER})(?:(?:::|\.)(?:{IDENTIFIER}))*")
_LIST_MAX_CHARS = 400
# the text of a Go import path (``"net/http"``): the import binds its last segment
_GO_PATH_TYPES = frozenset({"interpreted_string_literal_content", "raw_string_literal_content"})


def deletes_a_used_import(context: SuggestContext, start_cp: int, end_cp: int, new_text: str) -> bool:
    """Whether replacing ``[start_cp, end_cp)`` by ``new_text`` (nothing but
    blanks) deletes a whole import statement, or a name from an import's
    list, that the rest of the document still reads."""
    syntax = context.state.syntax
    if syntax is None or end_cp <= start_cp:
        return False
    text = context.text
    # the change itself, without the text it keeps on either side
    pre, suf = common_affixes(text[start_cp:end_cp], new_text)
    start_cp, end_cp = start_cp + pre, end_cp - suf
    if new_text[pre : len(new_text) - suf].strip() or end_cp <= start_cp:
        return False
    if not _MAY_IMPORT.search(text, start_cp, end_cp) and not _names_only(text[start_cp:end_cp]):
        return False  # no parse for a deletion that cannot hold an import
    from nextedit.syntax import scopes

    document = context.document
    start_b, end_b = document.byte_offset_at(start_cp), document.byte_offset_at(end_cp)
    node = scopes.enclosing_node(syntax, start_b, end_b)
    if node is None:
        return False
    imports = [n for n in _nodes_within(node, start_b, end_b) if _imports(n)]
    if not imports:
        return False
    source = document.source_bytes
    for imp in imports:
        for name in imported_names(imp):
            for m in word_pattern(name).finditer(source):
                if not start_b <= m.start() < end_b:
                    return True
    return False


def _names_only(deleted: str) -> bool:
    """The deleted text may be names of an import's list: names or paths of
    names (``a``, ``b::C``, ``b as c``) between commas and blanks."""
    if len(deleted) > _LIST_MAX_CHARS:
        return False
    words = _LIST_SEPARATORS.split(deleted.strip(" \t\r\n,"))
    return bool(words[0]) and all(_NAME_PATH.fullmatch(w) for w in words)


def _imports(node: Node) -> bool:
    """A whole import statement, or one name of an import's list
    (``import { a, b } from 'm'``, ``from m import (a, b)``, ``use m::{a, b}``):
    deleting a line of such a list deletes that import as surely."""
    if node.type in _IMPORT_TYPES or node.type in _SPECIFIER_TYPES:
        return True
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "import_from_statement":  # a name, not the module it is from
        module = parent.child_by_field_name("module_name")
        return node.type in ("dotted_name", "aliased_import") and (module is None or module.id != node.id)
    return parent.type == "use_list" and node.type in ("identifier", "scoped_identifier", "use_as_clause")


def imported_names(node: Node) -> list[bytes]:
    """The names the import ``node`` brings into the file (see the module
    docstring): generous rather than short — a module path's own first name
    may be among them, which only ever keeps an import."""
    names: list[bytes] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in _PATH_TYPES:
            last = n
            while last.named_child_count:
                last = last.named_children[-1]
            if last.type.endswith("identifier") and last.text:
                names.append(last.text)
        elif n.type.endswith("identifier") and n.named_child_count == 0 and n.text:
            names.append(n.text)
        elif n.type in _GO_PATH_TYPES and n.text and n.parent is not None:
            spec = n.parent.parent
            if spec is None or not any(c.type == "package_identifier" for c in spec.named_children):
                names.append(n.text.rsplit(b"/", 1)[-1])
        else:
            # not the module a name is imported from (``from m import x``, ``use m::{x}``)
            fields = _SOURCE_FIELDS.get(n.type, ())
            skip = {c.id for f in fields if (c := n.child_by_field_name(f)) is not None}
            stack.extend(c for c in n.named_children if c.id not in skip)
    return names


def _nodes_within(node: Node, start_b: int, end_b: int) -> list[Node]:
    """``node`` and its descendants (a few levels) lying wholly in ``[start_b, end_b)``,
    and its ancestors' children likewise when ``node`` only partly lies there."""
    out: list[Node] = []
    stack = [node]
    depth = 0
    while stack and depth < 4:
        nxt = []
        for n in stack:
            if start_b <= n.start_byte and n.end_byte <= end_b:
                out.append(n)
            else:
                nxt.extend(n.named_children)
        stack = nxt
        depth += 1
    return out
