"""Keyword arguments: linking ``f(x=…)`` to the parameter ``x`` of ``f``.

Owns the rules for keyword-argument names (``@keyword``: Python
``f(x=1)``): when the callee is a plain name bound to a function defined in
the file, the keyword joins the binding of that function's parameter (and a
parameter's binding gains the keywords of calls to its function); otherwise
it binds with the same-named keywords of calls to the same callee text.
Never with a caller's local variable of the same name.

Must not know how scopes and definitions resolve (it asks
:mod:`.name_resolution`), LSP/ACP, documents or position encodings.
"""

from __future__ import annotations

import tree_sitter

from nextedit.syntax.name_resolution import Occurrence, Resolver, resolve_binding
from nextedit.syntax.query_analysis import identifier_node_types
from nextedit.syntax.tree import SyntaxTree

# Keyword arguments: call node type, callee field, argument-list field,
# keyword node type and its name field; and how a callee's definition lists
# its parameters (definition node type -> parameters field).
_KEYWORD_CALLS: dict[str, tuple[str, str, str]] = {"python": ("call", "function", "arguments")}
PARAMETER_LISTS: dict[str, dict[str, str]] = {"python": {"function_definition": "parameters"}}


def _callee_of_keyword(language: str, keyword_name: tree_sitter.Node) -> tree_sitter.Node | None:
    spec = _KEYWORD_CALLS.get(language)
    if spec is None:
        return None
    call_type, function_field, _args_field = spec
    anc = keyword_name.parent  # keyword_argument
    hops = 0
    while anc is not None and anc.type != call_type and hops < 3:
        anc = anc.parent
        hops += 1
    if anc is None or anc.type != call_type:
        return None
    return anc.child_by_field_name(function_field)


def _parameter_def(tree: SyntaxTree, source: bytes, callee: tree_sitter.Node, name: bytes) -> int | None:
    """Start of the parameter ``name`` of the function the plain-name
    ``callee`` resolves to, when that function is defined in this file."""
    lists = PARAMETER_LISTS.get(tree.language, {})
    if callee.type not in identifier_node_types(tree.language):
        return None
    found = resolve_binding(tree, source, callee)
    if found is None:
        return None
    resolver, _key, ranges = found
    params_resolver = Resolver(tree, source, name)
    for start, _end in ranges:
        occ = resolver.occurrence(start)
        if occ is None or not occ.definition:
            continue
        definition = occ.node.parent
        if definition is None or definition.type not in lists:
            continue
        params = definition.child_by_field_name(lists[definition.type])
        if params is None:
            continue
        for s in params_resolver.classify_range(params.start_byte, params.end_byte):
            p = params_resolver.occurrence(s)
            if p is not None and p.definition and p.def_kind.endswith(".parameter"):
                return s
    return None


def keyword_uses(
    tree: SyntaxTree, source: bytes, resolver: Resolver, key: tuple, ranges: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Keyword arguments ``f(name=…)`` of calls to the function whose
    parameter the binding ``key`` is."""
    lists = PARAMETER_LISTS.get(tree.language)
    calls = _KEYWORD_CALLS.get(tree.language)
    if not lists or calls is None or key[0] != "scope":
        return []
    scope = resolver.scope_nodes.get(key[1])
    if scope is None or scope.type not in lists:
        return []
    if not any(
        (o := resolver.occurrence(s)) is not None and o.definition and o.def_kind.endswith(".parameter")
        for s, _e in ranges
    ):
        return []
    fn_name = scope.child_by_field_name("name")
    if fn_name is None:
        return []
    fn_resolver = Resolver(tree, source, source[fn_name.start_byte : fn_name.end_byte])
    if fn_resolver.classify(fn_name.start_byte) is None or fn_resolver.is_member(fn_name.start_byte):
        return []  # a method: calls go through `obj.name(…)`, not resolvable here
    found = resolve_binding(tree, source, fn_name)
    if found is None:
        return []
    call_type, function_field, args_field = calls
    out = []
    n = resolver.name_len
    for start, end in found[2]:
        if start == fn_name.start_byte:
            continue
        node = tree.root.named_descendant_for_byte_range(start, end)
        call = node.parent if node is not None else None
        if call is None or call.type != call_type:
            continue
        callee = call.child_by_field_name(function_field)
        args = call.child_by_field_name(args_field)
        if callee is None or args is None or callee.start_byte != start or callee.end_byte != end:
            continue
        for s in resolver.classify_range(args.start_byte, args.end_byte):
            k = resolver.occurrence(s)
            if k is not None and k.keyword:
                callee_k = _callee_of_keyword(tree.language, k.node)
                if callee_k is not None and callee_k.start_byte == start and callee_k.end_byte == end:
                    out.append((s, s + n))
    return out


def keyword_parameter(tree: SyntaxTree, source: bytes, resolver: Resolver, target: Occurrence) -> int | None:
    """Start of the parameter a keyword argument names, when its callee is a
    function of this file (the caller resolves that parameter's binding)."""
    callee = _callee_of_keyword(tree.language, target.node)
    if callee is None:
        return None
    return _parameter_def(tree, source, callee, resolver.name)


def keywords_of_same_callee(
    tree: SyntaxTree, source: bytes, resolver: Resolver, target: Occurrence
) -> list[tuple[int, int]]:
    """The same keyword in every call to the same callee text (the callee is
    not a function of this file)."""
    callee = _callee_of_keyword(tree.language, target.node)
    callee_text = source[callee.start_byte : callee.end_byte] if callee is not None else None
    out = []
    n = resolver.name_len
    for s in resolver.classify_range(tree.root.start_byte, tree.root.end_byte):
        k = resolver.occurrence(s)
        if k is None or not k.keyword:
            continue
        other = _callee_of_keyword(tree.language, k.node)
        other_text = source[other.start_byte : other.end_byte] if other is not None else None
        if other_text == callee_text:
            out.append((s, s + n))
    return out
