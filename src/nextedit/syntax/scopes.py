"""Binding resolution: which identifier occurrences are "the same name".

Owns the reading of ``identifiers.scm`` (which nodes are renamable identifiers,
which contexts name a *member*) and ``locals.scm`` (scopes, definitions) and
the resolution rules built on them:

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
* strings and comments never count (they are not identifier nodes);
  interpolations inside f-strings / template literals are code and do.

Cost: candidates are found by a byte search for the name (C speed), each
checked against the tree with ``named_descendant_for_byte_range``; each
candidate's ancestors come from one top-down bisecting descent (children
lists memoised on the tree version) and it is classified with one query run
over a few of its ancestors, narrowed to its own bytes. Resolution classifies
the innermost scope's candidates first and widens only as far as the
binding's scope; only file-level and member bindings look at the whole file.
Scope patterns in locals.scm must be simple ``(type) @local.scope`` lines.

Must not know about LSP/ACP, documents or position encodings: byte offsets in,
byte ranges out.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field

import tree_sitter

from nextedit.syntax import queries
from nextedit.syntax.languages import get_language
from nextedit.syntax.tree import SyntaxTree

__all__ = [
    "binding_occurrences",
    "identifier_at",
    "is_identifier_node_type",
    "identifier_node_types",
    "scope_node_types",
]

# Languages where an unqualified name may denote a member of the enclosing
# class/object (implicit `this`/`self`): unresolved names join members.
_IMPLICIT_RECEIVER = frozenset({"java", "cpp", "cuda", "csharp", "kotlin", "scala", "swift", "ruby", "php", "dart"})

# Languages where a new definition of a name in the same scope shadows the
# previous one from the end of the named statement on (`let x = x + 1;`).
_SEQUENTIAL_DEFINITIONS: dict[str, frozenset[str]] = {
    "rust": frozenset({"let_declaration"}),
}

# Node types treated as identifiers when a language has no identifiers.scm.
_GENERIC_IDENTIFIER_TYPES = frozenset({"identifier", "name", "variable_name", "simple_identifier", "constant"})

# How many ancestors of a candidate the member/definition patterns may span.
_CONTEXT_DEPTH = 6

_SCOPE_PATTERN = re.compile(r"^\s*\(([A-Za-z_][A-Za-z0-9_]*)\)\s*@local\.scope\b", re.MULTILINE)
_IDENTIFIER_PATTERN = re.compile(r"^\s*\(([A-Za-z_][A-Za-z0-9_]*)\)\s*@identifier\b", re.MULTILINE)


@functools.lru_cache(maxsize=None)
def identifier_node_types(language: str) -> frozenset[str]:
    """Node types that are identifiers in ``language``: the top-level
    ``(type) @identifier`` patterns of its ``identifiers.scm``, else every
    named node type called ``identifier``/``*_identifier``/``name``…"""
    text = queries.query_text(language, "identifiers")
    if text is not None:
        return frozenset(_IDENTIFIER_PATTERN.findall(text))
    try:
        lang = get_language(language)
    except Exception:  # noqa: BLE001
        return frozenset()
    kinds = set()
    for kind_id in range(lang.node_kind_count):
        name = lang.node_kind_for_id(kind_id)
        if name and lang.node_kind_is_named(kind_id) and (
            name in _GENERIC_IDENTIFIER_TYPES or name.endswith("_identifier")
        ):
            kinds.add(name)
    return frozenset(kinds)


def is_identifier_node_type(language: str, node_type: str) -> bool:
    """Whether nodes of ``node_type`` are renamable identifiers."""
    return node_type in identifier_node_types(language)


@functools.lru_cache(maxsize=None)
def scope_node_types(language: str) -> frozenset[str]:
    """Node types that open a scope: the ``(type) @local.scope`` patterns of
    ``locals.scm`` (scope patterns must be that simple; a test checks it)."""
    text = queries.query_text(language, "locals")
    return frozenset(_SCOPE_PATTERN.findall(text)) if text else frozenset()


@functools.lru_cache(maxsize=None)
def _scope_kind_ids(language: str) -> frozenset[int]:
    """Kind ids (named and aliased) of the scope node types."""
    lang = get_language(language)
    types = scope_node_types(language)
    return frozenset(
        kind_id
        for kind_id in range(lang.node_kind_count)
        if lang.node_kind_is_named(kind_id) and lang.node_kind_for_id(kind_id) in types
    )


@functools.lru_cache(maxsize=None)
def _resolver_query(language: str) -> tree_sitter.Query | None:
    """identifiers.scm + locals.scm compiled as one query (one pass per
    candidate). ``None`` when the language has neither."""
    parts = [queries.query_text(language, "identifiers"), queries.query_text(language, "locals")]
    text = "\n".join(p for p in parts if p)
    if not text:
        return None
    return tree_sitter.Query(get_language(language), text)


_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") | frozenset(range(0x80, 0x100))


def _name_starts(source: bytes, name: bytes) -> list[int]:
    """Starts of ``name`` in ``source`` not inside a longer word (a cheap
    pre-filter; the tree decides)."""
    out: list[int] = []
    check_before = name[0] in _WORD_BYTES
    check_after = name[-1] in _WORD_BYTES
    n = len(name)
    size = len(source)
    find = source.find
    i = find(name)
    while i != -1:
        if not (check_before and i > 0 and source[i - 1] in _WORD_BYTES) and not (
            check_after and i + n < size and source[i + n] in _WORD_BYTES
        ):
            out.append(i)
        i = find(name, i + 1)
    return out


@functools.lru_cache(maxsize=None)
def _parent_scope_patterns(language: str) -> frozenset[int]:
    """Patterns of the resolver query whose definitions belong to the parent
    scope (``(#set! scope "parent")``)."""
    query = _resolver_query(language)
    if query is None:
        return frozenset()
    return frozenset(
        i for i in range(query.pattern_count) if query.pattern_settings(i).get("scope") == "parent"
    )


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


@dataclass(slots=True)
class _Occurrence:
    start: int
    end: int
    member: bool = False
    definition: bool = False
    # scope ids, innermost first, always ending with the root's id
    chain: list[int] = field(default_factory=list)
    def_scope: int | None = None
    visible_from: int = 0


class _Resolver:
    """Resolution state for one (tree, name) lookup."""

    def __init__(self, tree: SyntaxTree, source: bytes, name: bytes) -> None:
        self.tree = tree
        self.root = tree.root
        self.language = tree.language
        self.types = identifier_node_types(self.language)
        self.query = _resolver_query(self.language)
        self.cursor = tree_sitter.QueryCursor(self.query) if self.query is not None else None
        self.scope_kinds = _scope_kind_ids(self.language)
        self.parent_patterns = _parent_scope_patterns(self.language)
        self.sequential = _SEQUENTIAL_DEFINITIONS.get(self.language, frozenset())
        memo = tree.memo.get("children")
        if memo is None:
            memo = tree.memo["children"] = {}
        self.kids: dict[int, tuple[list[int], list[tree_sitter.Node]]] = memo  # type: ignore[assignment]
        self.scope_ranges: dict[int, tuple[int, int]] = {self.root.id: (self.root.start_byte, self.root.end_byte)}
        # candidate byte starts (sorted) from a plain byte search
        self.starts: list[int] = _name_starts(source, name)
        self.name_len = len(name)
        self.occ: dict[int, _Occurrence | None] = {}
        # False while collecting a member binding in a language without an
        # implicit receiver: plain candidates then need no scope chain.
        self.need_chains = True

    # -- classification -------------------------------------------------
    def classify(self, start: int) -> _Occurrence | None:
        if start in self.occ:
            return self.occ[start]
        end = start + self.name_len
        node = self.root.named_descendant_for_byte_range(start, end)
        result: _Occurrence | None = None
        if node is not None and node.start_byte == start and node.end_byte == end and node.type in self.types:
            result = self._classify_node(node)
        self.occ[start] = result
        return result

    def _children(self, node: tree_sitter.Node) -> tuple[list[int], list[tree_sitter.Node]]:
        """``(end bytes, children)`` of ``node``, memoised; the root's entry
        lives on the tree (it is the big one) until the next re-parse."""
        key = node.id
        entry = self.kids.get(key)
        if entry is None:
            kids = node.children
            entry = ([k.end_byte for k in kids], kids)
            self.kids[key] = entry
        return entry

    def _ancestors(self, node: tree_sitter.Node) -> list[tree_sitter.Node]:
        """Root first, ``node``'s parent last, by bisecting children top-down
        (``Node.parent`` itself descends from the root on every call)."""
        out: list[tree_sitter.Node] = []
        cur = self.root
        target_id = node.id
        start, end = node.start_byte, node.end_byte
        while cur.id != target_id:
            out.append(cur)
            ends, kids = self._children(cur)
            j = bisect.bisect_right(ends, start)
            pick = None
            while j < len(kids) and kids[j].start_byte <= start:
                if kids[j].end_byte >= end:
                    pick = kids[j]
                    break
                j += 1
            if pick is None:
                pick = cur.child_with_descendant(node)
                if pick is None:
                    break
            cur = pick
        return out

    def _classify_node(self, node: tree_sitter.Node) -> _Occurrence:
        occ = _Occurrence(node.start_byte, node.end_byte)
        ancestors = self._ancestors(node)
        parent_scope = False
        if self.cursor is not None and ancestors:
            # Member / definition: one query run over a few ancestors, narrowed
            # to the candidate's own bytes. Never from the root unless it is
            # the parent: the cursor would step through every top-level
            # sibling, and no member/definition pattern starts at the root.
            depth = min(_CONTEXT_DEPTH, len(ancestors) - 1) if len(ancestors) > 1 else 1
            context = ancestors[-depth]
            node_id = node.id
            vetoed = False
            cursor = self.cursor
            cursor.set_byte_range(occ.start, occ.end)
            for pattern_index, captures in cursor.matches(context):
                for cap_name, nodes in captures.items():
                    if cap_name == "member":
                        if any(n.id == node_id for n in nodes):
                            occ.member = True
                    elif cap_name == "plain":
                        if any(n.id == node_id for n in nodes):
                            vetoed = True
                    elif cap_name.startswith("local.definition"):
                        if any(n.id == node_id for n in nodes):
                            occ.definition = True
                            if self.parent_patterns and pattern_index in self.parent_patterns:
                                parent_scope = True
            if vetoed:
                occ.member = False
        if occ.member or not self.need_chains:
            return occ  # members bind file-wide: no scope chain needed
        # Scope chain: ancestors whose type opens a scope, innermost first.
        scope_kinds = self.scope_kinds
        ranges = self.scope_ranges
        chain: list[int] = []
        chain_index: list[int] = []
        for i in range(len(ancestors) - 1, -1, -1):
            anc = ancestors[i]
            if anc.kind_id in scope_kinds:
                anc_id = anc.id
                chain.append(anc_id)
                chain_index.append(i)
                if anc_id not in ranges:
                    ranges[anc_id] = (anc.start_byte, anc.end_byte)
        root_id = self.root.id
        if not chain or chain[-1] != root_id:
            chain.append(root_id)
            chain_index.append(0)
        occ.chain = chain
        if occ.definition:
            k = 1 if parent_scope and len(chain) > 1 else 0
            occ.def_scope = chain[k]
            if self.sequential:
                for anc in reversed(ancestors[chain_index[k] + 1 :]):
                    if anc.type in self.sequential:
                        occ.visible_from = anc.end_byte
                        break
        return occ

    def classify_range(self, lo: int, hi: int) -> list[_Occurrence]:
        i = bisect.bisect_left(self.starts, lo)
        out = []
        while i < len(self.starts) and self.starts[i] + self.name_len <= hi:
            occ = self.classify(self.starts[i])
            if occ is not None:
                out.append(occ)
            i += 1
        return out

    # -- resolution -----------------------------------------------------
    def binding_key(self, occ: _Occurrence, defs_by_scope: dict[int, list[_Occurrence]]) -> tuple:
        if occ.member:
            return ("member",)
        if occ.definition and occ.def_scope is not None:
            return ("scope", occ.def_scope, occ.visible_from if self.sequential else 0)
        for scope_id in occ.chain:
            defs = defs_by_scope.get(scope_id)
            if not defs:
                continue
            if not self.sequential:
                return ("scope", scope_id, 0)
            best = None
            for d in defs:
                if d.visible_from <= occ.start and (best is None or d.visible_from > best.visible_from):
                    best = d
            if best is not None:
                return ("scope", scope_id, best.visible_from)
        if self.language in _IMPLICIT_RECEIVER:
            return ("member",)
        return ("unresolved",)

    @staticmethod
    def defs_by_scope(occs: list[_Occurrence]) -> dict[int, list[_Occurrence]]:
        out: dict[int, list[_Occurrence]] = {}
        for o in occs:
            if o.definition and not o.member and o.def_scope is not None:
                out.setdefault(o.def_scope, []).append(o)
        return out

    def occurrences(self, target: _Occurrence) -> list[tuple[int, int]]:
        # Find the binding scope lazily: widen from the innermost scope.
        scope_range: tuple[int, int] | None = None
        if not target.member:
            if target.definition and target.def_scope is not None:
                scope_range = self.scope_ranges[target.def_scope]
            else:
                for scope_id in target.chain:
                    lo, hi = self.scope_ranges[scope_id]
                    occs = self.classify_range(lo, hi)
                    defs = self.defs_by_scope(occs).get(scope_id)
                    if defs and (not self.sequential or any(d.visible_from <= target.start for d in defs)):
                        scope_range = (lo, hi)
                        break
        if target.member and self.language not in _IMPLICIT_RECEIVER:
            self.need_chains = False
            try:
                occs = self.classify_range(self.root.start_byte, self.root.end_byte)
            finally:
                self.need_chains = True
            return [(o.start, o.end) for o in occs if o.member]
        if scope_range is None:  # member or file-level binding
            scope_range = (self.root.start_byte, self.root.end_byte)
        occs = self.classify_range(*scope_range)
        defs = self.defs_by_scope(occs)
        key = self.binding_key(target, defs)
        return [(o.start, o.end) for o in occs if self.binding_key(o, defs) == key]


def binding_occurrences(tree: SyntaxTree, source: bytes, byte_offset: int) -> list[tuple[int, int]] | None:
    """Byte ranges (sorted) of every occurrence of the binding of the
    identifier at ``byte_offset`` (or ending there); ``None`` when there is no
    identifier there. ``source`` must be the bytes ``tree`` was parsed from."""
    node = _identifier_node(tree, byte_offset)
    if node is None:
        return None
    name = source[node.start_byte : node.end_byte]
    if not name:
        return None
    resolver = _Resolver(tree, source, name)
    target = resolver.classify(node.start_byte)
    if target is None:  # the node's text differs from its range? be safe
        return [(node.start_byte, node.end_byte)]
    return resolver.occurrences(target)
