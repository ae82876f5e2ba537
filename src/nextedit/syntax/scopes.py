"""Binding resolution: which identifier occurrences are "the same name".

Owns the reading of ``identifiers.scm`` (which nodes are renamable identifiers,
which contexts name a *member* or a *keyword argument*) and ``locals.scm``
(scopes, definitions) and the resolution rules built on them:

* a plain name resolves to the nearest enclosing scope (innermost outward)
  that defines it; the binding is that scope's definition(s) plus every
  reference resolving there. A same-named variable defined in an inner or
  sibling scope is a different binding;
* a name with no definition in the file resolves at file level: every
  same-name reference that has no local definition either;
* member names (``@member`` in identifiers.scm, unless ``@plain`` vetoes:
  ``obj.name``, ``self.x``, methods, class fields…) form one
  *member binding* per name across the file, distinct from plain variables.
  In languages with an implicit receiver (Java, C++, C#, Ruby…), unresolved
  plain names join the member binding of the same name;
* keyword-argument names (``@keyword``: Python ``f(x=1)``) belong to the
  callee's parameter list: when the callee is a plain name bound to a
  function defined in the file, the keyword joins the binding of that
  function's parameter (renaming ``def f(x)``'s ``x`` renames ``f(x=…)``);
  otherwise it binds with the same-named keywords of calls to the same
  callee text. Never with a caller's local variable of the same name;
* definition settings in locals.scm (``(#set! scope "…")``): ``parent`` —
  the definition belongs to the scope enclosing its innermost scope (a
  function's own name); ``function`` — hoisted to the nearest function scope
  (JavaScript ``var``); ``global`` / ``nonlocal`` — Python declarations: the
  declaring scope's definitions of the name belong to the module scope /
  the nearest enclosing scope that defines it;
* Python default values and annotations of a function's parameters are
  evaluated in the enclosing scope (``def f(x=x)``);
* JavaScript/TypeScript destructuring binds at any depth
  (``const {a: {b: [c]}} = o``);
* strings and comments never count (they are not identifier nodes);
  interpolations inside f-strings / template literals are code and do.
Where the rules live: :mod:`.query_analysis` reads the query files,
:mod:`.name_resolution` classifies occurrences and resolves scopes and
definitions, :mod:`.keyword_arguments` links keyword arguments to
parameters. This module owns the public lookups on a tree
(``binding_occurrences``, ``identifier_at``, ``is_file_level_binding``,
``enclosing_node``) and re-exports the query-file lookups, so
``nextedit.syntax.scopes`` stays the one entry point. Results are memoised
on ``SyntaxTree.memo`` (per tree version); cost is measured by
``benchmarks/syntax_cost.py``.

Must not know about LSP/ACP, documents or position encodings: byte offsets in,
byte ranges out.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter

from nextedit.syntax.keyword_arguments import (
    PARAMETER_LISTS,
    keyword_parameter,
    keyword_uses,
    keywords_of_same_callee,
)
from nextedit.syntax.name_resolution import Resolver, Visit, resolve_binding
from nextedit.syntax.query_analysis import identifier_node_types, is_identifier_node_type, scope_node_types
from nextedit.syntax.tree import SyntaxTree

__all__ = [
    "binding_definitions",
    "binding_occurrences",
    "enclosing_node",
    "identifier_at",
    "is_file_level_binding",
    "is_identifier_node_type",
    "identifier_node_types",
    "scope_node_types",
]


def _identifier_node(tree: SyntaxTree, byte_offset: int) -> tree_sitter.Node | None:
    root = tree.root
    types = identifier_node_types(tree.language)
    end = root.end_byte
    for off in (byte_offset, byte_offset - 1):
        if off < 0 or off >= end:
            continue
        node = root.named_descendant_for_byte_range(off, off + 1)
        # walk up a little: an identifier may wrap a single child
        hops = 0
        while node is not None and hops < 3:
            if node.type in types and node.start_byte <= off < node.end_byte:
                return node
            node = node.parent
            hops += 1
    return None


def identifier_at(tree: SyntaxTree, source: bytes, byte_offset: int) -> tuple[int, int, str] | None:
    """``(start_byte, end_byte, node_type)`` of the identifier at
    ``byte_offset`` or ending exactly there (cursor just after a name)."""
    node = _identifier_node(tree, byte_offset)
    if node is None:
        return None
    return node.start_byte, node.end_byte, node.type


def enclosing_node(
    tree: SyntaxTree,
    byte_start: int,
    byte_end: int,
    types: frozenset[str] | set[str] | tuple[str, ...] | None = None,
    *,
    stale: bool = False,
) -> tree_sitter.Node | None:
    """The smallest named node covering ``[byte_start, byte_end)``; with
    ``types``, its nearest ancestor-or-self whose type is one of them.
    ``None`` when the range is outside the tree or no such node exists.
    ``stale``: read :attr:`SyntaxTree.stale_root` (no re-parse; exact away
    from the edits since the last parse)."""
    root = tree.stale_root if stale else tree.root
    if byte_start < root.start_byte or byte_end > root.end_byte or byte_start > byte_end:
        return None
    node = root.named_descendant_for_byte_range(byte_start, byte_end)
    if types is None:
        return node
    wanted = frozenset(types)
    while node is not None and node.type not in wanted:
        node = node.parent
    return node


# -- public ---------------------------------------------------------------------


def binding_occurrences(
    tree: SyntaxTree,
    source: bytes,
    byte_offset: int,
    visit: Visit | None = None,
) -> list[tuple[int, int]] | None:
    """Byte ranges (sorted) of every occurrence of the binding of the
    identifier at ``byte_offset`` (or ending there); ``None`` when there is no
    identifier there. ``source`` must be the bytes ``tree`` was parsed from.
    ``visit(start, node, parent)`` sees the identifier occurrences of the
    name classified on the way, node in hand (not those classified before, on
    this tree version: a caller looks those up itself; nor those of another
    name).

    A few milliseconds at most on a 5,000-line file, even for names with
    thousands of occurrences (``benchmarks/syntax_cost.py``); repeated calls
    on the same tree version reuse what ``tree.memo`` holds."""
    node = _identifier_node(tree, byte_offset)
    if node is None:
        return None
    memo_key = ("scopes.binding", node.start_byte, node.end_byte)
    cached = tree.memo.get(memo_key)
    if cached is not None:
        return list(cached)  # type: ignore[call-overload]
    found = resolve_binding(tree, source, node, visit)
    if found is None:
        return [(node.start_byte, node.end_byte)]
    resolver, key, ranges = found
    target = resolver.occurrence(node.start_byte)
    if target is not None and target.keyword:
        param = keyword_parameter(tree, source, resolver, target)
        if param is not None:
            # the keyword joins the binding of the callee's parameter
            ranges = binding_occurrences(tree, source, param) or [(target.start, target.end)]
        else:
            ranges = keywords_of_same_callee(tree, source, resolver, target)
    elif key[0] == "scope" and tree.language in PARAMETER_LISTS:
        extra = keyword_uses(tree, source, resolver, key, ranges)
        if extra:
            ranges = sorted(set(ranges) | set(extra))
    tree.memo[memo_key] = tuple(ranges)
    return list(ranges)


def is_file_level_binding(tree: SyntaxTree, source: bytes, byte_offset: int) -> bool:
    """Whether the identifier at ``byte_offset`` (or ending there) belongs to
    a top-level definition of this file — a module-level function, class,
    type, constant or variable, exported or not — so that other files may
    refer to it (cross-file rename). Imports, members, keyword arguments,
    locals and names with no definition in the file are not file-level."""
    node = _identifier_node(tree, byte_offset)
    if node is None:
        return False
    found = resolve_binding(tree, source, node)
    if found is None:
        return False
    resolver, key, ranges = found
    if key[0] != "scope" or key[1] != resolver.root_id:
        return False
    return any(not kind.endswith(".import") for _start, kind in _definitions(resolver, ranges))


def binding_definitions(tree: SyntaxTree, source: bytes, byte_offset: int) -> list[tuple[int, str]] | None:
    """``(start_byte, definition kind)`` of every definition in the binding of
    the identifier at ``byte_offset`` (``@local.definition.KIND`` of
    locals.scm: ``var``, ``parameter``, ``function``, ``import``…); ``None``
    when there is no identifier there."""
    node = _identifier_node(tree, byte_offset)
    if node is None:
        return None
    found = resolve_binding(tree, source, node)
    if found is None:
        return []
    resolver, _key, ranges = found
    return list(_definitions(resolver, ranges))


def _definitions(resolver: Resolver, ranges: list[tuple[int, int]]) -> Iterator[tuple[int, str]]:
    """``(start_byte, definition kind)`` of the definitions among a binding's ``ranges``, in order."""
    for start, _end in ranges:
        occ = resolver.occurrence(start)
        if occ is not None and occ.definition:
            yield start, occ.def_kind
