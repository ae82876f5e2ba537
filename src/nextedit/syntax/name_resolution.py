"""Name resolution: which occurrences of one name in one tree bind together.

Owns :class:`Resolver` — classification of each occurrence of a name
(reference, member, keyword argument or definition, with its ``#set!
scope`` setting; JS/TS destructuring at any depth), the scope each definition
belongs to (``parent`` / ``function`` / ``global`` / ``nonlocal`` settings,
Rust's sequential ``let``, Python's parameter headers evaluated in the
enclosing scope) and the binding key of every occurrence — and the
per-language tables those rules read.

Cost: candidates are found by a byte search for the name (C speed, only
within the scope being resolved until a lookup needs the whole file) and each
is checked against the tree with one ``named_descendant_for_byte_range``,
classified through the plan of :mod:`.query_analysis`, narrowed to the
candidate's bytes. References need no scope chain: they bind to the
innermost *defining* scope containing them, found by one sweep over the few
definitions' scopes. A local binding classifies only its scope's candidates
(widening outward from the innermost scope); file-level and member bindings
look at the whole file. Classifications are memoised on ``SyntaxTree.memo``
(per tree version).

Must not know about keyword-argument/parameter linking across calls (that is
:mod:`.keyword_arguments`), the public lookups (:mod:`.scopes`), LSP/ACP,
documents or position encodings: byte offsets in, byte ranges out.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import tree_sitter

from nextedit.syntax.query_analysis import classify_spec, identifier_node_types, is_classify_capture, scope_node_types
from nextedit.syntax.tree import SyntaxTree

# Languages where an unqualified name may denote a member of the enclosing
# class/object (implicit `this`/`self`): unresolved names join members.
_IMPLICIT_RECEIVER = frozenset({"java", "cpp", "cuda", "csharp", "kotlin", "scala", "swift", "ruby", "php", "dart"})

# Languages where a new definition of a name in the same scope shadows the
# previous one from the end of the named statement on (`let x = x + 1;`).
_SEQUENTIAL_DEFINITIONS: dict[str, frozenset[str]] = {
    "rust": frozenset({"let_declaration"}),
}

# Scope types a `(#set! scope "function")` definition hoists to (JS `var`).
_JS_FUNCTION_SCOPES = frozenset(
    {
        "program",
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "generator_function",
        "arrow_function",
        "method_definition",
        "function",  # older grammars
    }
)
_FUNCTION_SCOPES: dict[str, frozenset[str]] = {
    "javascript": _JS_FUNCTION_SCOPES,
    "typescript": _JS_FUNCTION_SCOPES,
    "tsx": _JS_FUNCTION_SCOPES,
    "python": frozenset({"module", "function_definition", "lambda"}),
}

# Parts of a scope node evaluated in the *enclosing* scope: references there
# skip the scope (Python default values and annotations: `def f(x=x)`).
_HEADER_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    "python": {"function_definition": ("parameters", "return_type"), "lambda": ("parameters",)},
}

# Destructuring (JS/TS): wrapper node type -> the field holding the bound
# part (None: any named child), and the (parent type, field) positions where
# an outermost pattern defines the names inside it (with its setting).
_JS_PATTERN_WRAPPERS: dict[str, str | None] = {
    "object_pattern": None,
    "array_pattern": None,
    "pair_pattern": "value",
    "rest_pattern": None,
    "assignment_pattern": "left",
    "object_assignment_pattern": "left",
}
_JS_PATTERN_ROOTS: dict[tuple[str, str | None], str] = {
    ("variable_declarator", "name"): "var",
    ("formal_parameters", None): "parameter",
    ("required_parameter", "pattern"): "parameter",
    ("optional_parameter", "pattern"): "parameter",
    ("catch_clause", "parameter"): "parameter",
    ("for_in_statement", "left"): "var",
}
_DESTRUCTURING: dict[str, tuple[dict[str, str | None], dict[tuple[str, str | None], str]]] = {
    lang: (_JS_PATTERN_WRAPPERS, _JS_PATTERN_ROOTS) for lang in ("javascript", "typescript", "tsx")
}

# A name written after a qualifier names a member of a namespace or a class,
# never a local of the function it is written in (`auto pipe = fmt::pipe();`):
# per language, the node that qualifies a name (the name in its `name` field)
# and the scopes such a reference may resolve in.
_QUALIFIED_NAMES: dict[str, tuple[str, frozenset[str]]] = {
    "cpp": (
        "qualified_identifier",
        frozenset(
            {"translation_unit", "namespace_definition", "class_specifier", "struct_specifier", "template_declaration"}
        ),
    ),
}

_MISSING = object()

# what a caller sees of each occurrence a resolver classifies: start byte, node, parent
Visit = Callable[[int, tree_sitter.Node, "tree_sitter.Node | None"], None]
_REF = 1
_MEMBER = 2
_QUALIFIED = 3  # a plain reference written after a qualifier (_QUALIFIED_NAMES)
_MEMBER_KEY = ("member",)
_KEYWORD_KEY = ("keyword",)

# Setting precedence when several definition patterns capture one node.
_SETTING_RANK = {None: 0, "parent": 1, "function": 2, "nonlocal": 3, "global": 4}

_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") | frozenset(
    range(0x80, 0x100)
)


def _name_starts(source: bytes, name: bytes, lo: int = 0, hi: int | None = None) -> list[int]:
    """Starts of ``name`` in ``source[lo:hi]`` not inside a longer word (a
    cheap pre-filter; the tree decides). Occurrences are found left to right
    without overlap (``bytes.find``, C speed), as ``bytes.split`` would."""
    check_before = name[0] in _WORD_BYTES
    check_after = name[-1] in _WORD_BYTES
    n = len(name)
    size = len(source)
    hi = size if hi is None else min(hi, size)
    out: list[int] = []
    find = source.find
    pos = find(name, lo, hi)
    while pos != -1:
        if not (check_before and pos > 0 and source[pos - 1] in _WORD_BYTES) and not (
            check_after and pos + n < size and source[pos + n] in _WORD_BYTES
        ):
            out.append(pos)
        pos = find(name, pos + n, hi)
    return out


# ---------------------------------------------------------------- resolution


def _in_field(parent: tree_sitter.Node, field: str, start: int, end: int) -> bool:
    """Whether the child ``[start, end)`` of ``parent`` is in ``field``
    (one C call in the common case of a single-node field)."""
    first = parent.child_by_field_name(field)
    if first is None:
        return False
    if first.start_byte == start and first.end_byte == end:
        return True
    if first.end_byte > start:
        return False
    return any(c.start_byte == start and c.end_byte == end for c in parent.children_by_field_name(field))


@dataclass(slots=True)
class Occurrence:
    start: int
    end: int
    node: tree_sitter.Node
    member: bool = False
    keyword: bool = False
    definition: bool = False
    def_kind: str = ""
    setting: str | None = None
    # filled lazily for definitions
    def_scope: int | None = None
    visible_from: int = 0
    resolved: bool = False


@dataclass(slots=True)
class _Names:
    """Per (tree version, name) classification cache, kept on the tree memo.

    ``starts`` (every textual occurrence in the file) is filled only when a
    lookup needs the whole file; a binding resolved within one scope finds
    the occurrences of that scope alone (``ranges``)."""

    starts: list[int] | None
    occ: dict[int, int | Occurrence | None]  # see Resolver.classify
    ranges: dict[tuple[int, int], list[int]]


class Resolver:
    """Resolution of one name in one tree version.

    ``visit``, when given, sees each identifier occurrence this resolver
    classifies (start byte, node, the node's parent) while its node is at
    hand: a caller that needs the nodes of a binding's occurrences reads
    them there rather than looking each up again (and its parent, a walk
    down from the root, once). Occurrences classified before (the memo) are
    not visited; the resolver keeps no node it is given."""

    def __init__(
        self,
        tree: SyntaxTree,
        source: bytes,
        name: bytes,
        visit: Visit | None = None,
    ) -> None:
        self.tree = tree
        self.visit = visit
        # the parent _classify_node read (_MISSING: it needed none)
        self._parent_read: object = _MISSING
        self.source = source
        self.root = tree.root
        self.root_id = self.root.id
        self.language = tree.language
        self.name = name
        self.name_len = len(name)
        self.types = identifier_node_types(self.language)
        self.spec = classify_spec(self.language)
        self.cursor = tree_sitter.QueryCursor(self.spec.query) if self.spec.query is not None else None
        self.scope_types = scope_node_types(self.language)
        self.sequential = _SEQUENTIAL_DEFINITIONS.get(self.language, frozenset())
        self.function_scopes = _FUNCTION_SCOPES.get(self.language, frozenset())
        self.header_fields = _HEADER_FIELDS.get(self.language, {})
        self.destructuring = _DESTRUCTURING.get(self.language)
        # the node naming a qualified name, and the scopes such a name may reach
        qualified = _QUALIFIED_NAMES.get(self.language)
        self.qualifier_node: str | None = qualified[0] if qualified else None
        self.qualified_scopes: frozenset[str] = qualified[1] if qualified else frozenset()
        memo = tree.memo
        scopes = memo.get("scopes.nodes")
        if scopes is None:
            scopes = memo["scopes.nodes"] = {}
        # scope id -> scope node (shared by every name of this tree version)
        self.scope_nodes: dict[int, tree_sitter.Node] = scopes  # type: ignore[assignment]
        self.scope_nodes.setdefault(self.root_id, self.root)
        key = ("scopes.name", name)
        names = memo.get(key)
        if names is None:
            names = memo[key] = _Names(None, {}, {})
        self.names: _Names = names  # type: ignore[assignment]

    # -- classification -------------------------------------------------
    # ``names.occ[start]``: None (not an identifier), _REF (plain reference),
    # _QUALIFIED (a plain reference after a qualifier), _MEMBER, or an
    # Occurrence (definitions and keywords, which need more).
    # Ints keep the memo small and out of the garbage collector's way.
    def classify(self, start: int) -> int | Occurrence | None:
        occ_map = self.names.occ
        if start in occ_map:
            return occ_map[start]
        end = start + self.name_len
        node = self.root.named_descendant_for_byte_range(start, end)
        result: int | Occurrence | None = None
        if node is not None and node.start_byte == start and node.end_byte == end:
            node_type = node.type
            if node_type in self.types:
                visit = self.visit
                if visit is None:
                    result = self._classify_node(node, node_type, start, end)
                else:
                    self._parent_read = _MISSING
                    result = self._classify_node(node, node_type, start, end)
                    parent = self._parent_read
                    visit(start, node, node.parent if parent is _MISSING else cast("tree_sitter.Node | None", parent))
        occ_map[start] = result
        return result

    def occurrence(self, start: int) -> Occurrence | None:
        """The full record of a definition / keyword at ``start``."""
        v = self.classify(start)
        return v if isinstance(v, Occurrence) else None

    def is_member(self, start: int) -> bool:
        v = self.classify(start)
        return v == _MEMBER if isinstance(v, int) else (v is not None and v.member)

    def _classify_node(self, node: tree_sitter.Node, node_type: str, start: int, end: int) -> int | Occurrence:
        """``_REF`` / ``_MEMBER``, or an ``Occurrence`` for a definition or
        a keyword argument."""
        plan = self.spec.plan(node_type)
        caps: list[tuple[str, str | None]] = [(c, None) for c in plan.static] if plan.static else []
        depth = plan.complex_any
        parent = None
        if plan.needs_parent:
            parent = self._parent_read = node.parent
            ptype = None
            if parent is not None:
                ptype = parent.type
                simple = plan.simple.get(ptype)
                if simple:
                    for field, cap in simple:
                        if field is None or _in_field(parent, field, start, end):
                            caps.append((cap, None))
                if plan.complex_by_parent:
                    depth = max(depth, plan.complex_by_parent.get(ptype, -1))
            if plan.matched and (ptype in plan.matched or None in plan.matched):
                caps.extend(plan.matched_captures(node, node_type, parent, ptype))
        if depth >= 0 and self.cursor is not None:
            context = node
            if depth >= 1 and parent is not None:
                context = parent
                for _ in range(depth - 1):
                    up = context.parent
                    if up is None:
                        break
                    if (
                        up.id == self.root_id
                        and self.root.type not in self.spec.root_types
                        and "_" not in self.spec.root_types
                    ):
                        break  # running from the root would step through every top-level node
                    context = up
            node_id = node.id
            cursor = self.cursor
            cursor.set_byte_range(start, end)
            settings = self.spec.settings
            for pattern_index, captures in cursor.matches(context):
                for cap_name, nodes in captures.items():
                    if is_classify_capture(cap_name) and any(n.id == node_id for n in nodes):
                        caps.append((cap_name, settings.get(pattern_index)))
        destructuring = self.destructuring is not None and parent is not None and parent.type in self.destructuring[0]
        if not destructuring:
            if not caps:
                return _QUALIFIED if self._after_a_qualifier(node, start, parent) else _REF
            if len(caps) == 1 and caps[0][0] == "member":
                return _MEMBER
        occ = Occurrence(start, end, node)
        plain = False
        for cap, setting in caps:
            if cap == "member":
                occ.member = True
            elif cap == "plain":
                plain = True
            elif cap == "keyword":
                occ.keyword = True
            else:  # local.definition*
                occ.definition = True
                rank = _SETTING_RANK.get(setting, 0)
                if not occ.def_kind or rank > _SETTING_RANK.get(occ.setting, 0):
                    occ.def_kind = cap
                if rank > _SETTING_RANK.get(occ.setting, 0):
                    occ.setting = setting
        if plain or occ.keyword:
            occ.member = False
        if destructuring and not occ.member:
            self._destructured(occ, node, parent)  # type: ignore[arg-type]
        if not occ.definition and not occ.keyword:
            if occ.member:
                return _MEMBER
            return _QUALIFIED if self._after_a_qualifier(node, start, parent) else _REF
        return occ

    def _after_a_qualifier(self, node: tree_sitter.Node, start: int, parent: tree_sitter.Node | None) -> bool:
        """Whether the name at ``start`` is the qualified name of its
        language's qualifier node (``fmt::pipe``'s ``pipe``); the parent is
        read only when ``::`` stands right before the name."""
        if self.qualifier_node is None or self.source[max(0, start - 2) : start] != b"::":
            return False
        if parent is None:
            parent = self._parent_read = node.parent
        if parent is None or parent.type != self.qualifier_node:
            return False
        name = parent.child_by_field_name("name")
        return name is not None and name.id == node.id

    def _destructured(self, occ: Occurrence, node: tree_sitter.Node, parent: tree_sitter.Node) -> None:
        """JS/TS: a name bound by a destructuring pattern at any depth."""
        wrappers, roots = self.destructuring  # type: ignore[misc]
        child: tree_sitter.Node = node
        cur: tree_sitter.Node | None = parent
        hoist = False
        while cur is not None and cur.type in wrappers:
            field = wrappers[cur.type]
            if field is not None and not _in_field(cur, field, child.start_byte, child.end_byte):
                return  # a key or a default value, not the bound part
            child, cur = cur, cur.parent
        if cur is None or child is node:
            return
        for (ptype, field), kind in roots.items():
            if cur.type != ptype:
                continue
            if field is not None and not _in_field(cur, field, child.start_byte, child.end_byte):
                continue
            if ptype == "variable_declarator":
                decl = cur.parent
                hoist = decl is not None and decl.type == "variable_declaration"
            elif ptype == "for_in_statement":
                kind_node = cur.child_by_field_name("kind")
                hoist = kind_node is not None and kind_node.type == "var"
            if not occ.definition:
                occ.definition = True
                occ.def_kind = f"local.definition.{kind}"
            if hoist:
                occ.setting = "function"
            return

    def _starts_in(self, lo: int, hi: int) -> list[int]:
        """Textual occurrences of the name starting in ``[lo, hi)`` (from the
        whole file's list once known; else found in that range alone)."""
        names = self.names
        if names.starts is not None:
            return names.starts
        if lo <= self.root.start_byte and hi >= self.root.end_byte:
            names.starts = _name_starts(self.source, self.name)
            return names.starts
        found = names.ranges.get((lo, hi))
        if found is None:
            found = names.ranges[(lo, hi)] = _name_starts(self.source, self.name, lo, hi)
        return found

    def classify_range(self, lo: int, hi: int) -> list[int]:
        """Starts of the identifier occurrences of the name in ``[lo, hi)``."""
        starts = self._starts_in(lo, hi)
        i = bisect.bisect_left(starts, lo)
        out = []
        n = self.name_len
        occ_map = self.names.occ
        classify = self.classify
        while i < len(starts) and starts[i] + n <= hi:
            s = starts[i]
            v = occ_map.get(s, _MISSING)
            if v is _MISSING:
                v = classify(s)
            if v is not None:
                out.append(s)
            i += 1
        return out

    # -- scopes -----------------------------------------------------------
    def _scope_range(self, scope_id: int) -> tuple[int, int]:
        node = self.scope_nodes[scope_id]
        return node.start_byte, node.end_byte

    def _in_header(self, scope: tree_sitter.Node, start: int, end: int) -> bool:
        fields = self.header_fields.get(scope.type)
        if not fields:
            return False
        for field in fields:
            part = scope.child_by_field_name(field)
            if part is not None and part.start_byte <= start and end <= part.end_byte:
                return True
        return False

    def chain(self, node: tree_sitter.Node, reference: bool = True) -> list[int]:
        """Scope ids enclosing ``node``, innermost first, ending with the
        root; for a reference, a scope whose header holds ``node`` (default
        values) is left out."""
        out: list[int] = []
        anc = node.parent
        while anc is not None:
            if anc.type in self.scope_types and not (
                reference and self._in_header(anc, node.start_byte, node.end_byte)
            ):
                self.scope_nodes.setdefault(anc.id, anc)
                out.append(anc.id)
            anc = anc.parent
        if not out or out[-1] != self.root_id:
            out.append(self.root_id)
        return out

    def resolve_definition(self, occ: Occurrence) -> None:
        """Fill ``def_scope`` / ``visible_from`` of a definition: walk up to
        the scope the definition's setting names."""
        if occ.resolved:
            return
        occ.resolved = True
        if occ.setting == "global":
            occ.def_scope = self.root_id
            return
        node = occ.node
        passed: list[tree_sitter.Node] = []
        anc = node.parent
        skip = 1 if occ.setting == "parent" else 0
        found = None
        while anc is not None:
            if anc.type in self.scope_types or anc.id == self.root_id:
                if occ.setting == "function":
                    if anc.type in self.function_scopes or anc.id == self.root_id:
                        found = anc
                        break
                elif skip:
                    skip -= 1
                else:
                    found = anc
                    break
            passed.append(anc)
            anc = anc.parent
        if found is None:
            found = self.root
        self.scope_nodes.setdefault(found.id, found)
        occ.def_scope = found.id
        if self.sequential:
            for a in passed:
                if a.type in self.sequential:
                    occ.visible_from = a.end_byte
                    break

    # -- binding keys -------------------------------------------------------
    def _definitions(self, starts: list[int]) -> list[Occurrence]:
        occ_map = self.names.occ
        out = []
        for s in starts:
            v = occ_map[s]
            if isinstance(v, Occurrence) and v.definition and not v.member and not v.keyword:
                self.resolve_definition(v)
                out.append(v)
        return out

    def keys(self, starts: list[int]) -> dict[int, tuple]:
        """Binding key of every occurrence (by start byte). Plain
        occurrences bind to the innermost containing scope with a definition,
        by one sweep over those scopes; Python `global`/`nonlocal` scopes
        redirect their definitions."""
        all_defs = self._definitions(starts)
        defs: dict[int, list[Occurrence]] = {}
        redirect: dict[int, str] = {}
        for o in all_defs:
            if o.setting in ("global", "nonlocal"):
                redirect[self.chain(o.node, reference=False)[0]] = o.setting
        for o in all_defs:
            if o.setting == "global":
                defs.setdefault(self.root_id, []).append(o)
                continue
            if o.setting == "nonlocal":
                continue
            scope = o.def_scope
            if scope in redirect:
                if redirect[scope] == "global":
                    o.def_scope = scope = self.root_id
                else:
                    continue  # nonlocal: resolved in the sweep
            defs.setdefault(scope, []).append(o)  # type: ignore[arg-type]
        intervals = sorted(((*self._scope_range(s), s) for s in set(defs) | set(redirect)), key=lambda t: (t[0], -t[1]))
        interned: dict[tuple, tuple] = {}
        out: dict[int, tuple] = {}
        stack: list[tuple[int, int, int]] = []
        j = 0
        n = self.name_len
        occ_map = self.names.occ
        fallback = ("member",) if self.language in _IMPLICIT_RECEIVER else ("unresolved",)
        for start in starts:
            v = occ_map[start]
            if v == _MEMBER:
                out[start] = _MEMBER_KEY
                continue
            found = v if isinstance(v, Occurrence) else None
            if found is not None and (found.member or found.keyword):
                out[start] = _MEMBER_KEY if found.member else _KEYWORD_KEY
                continue
            end = start + n
            while j < len(intervals) and intervals[j][0] <= start:
                while stack and stack[-1][1] <= intervals[j][0]:
                    stack.pop()
                stack.append(intervals[j])
                j += 1
            while stack and stack[-1][1] < end:
                stack.pop()
            reachable = self.qualified_scopes if v == _QUALIFIED else None
            if found is not None and found.def_scope is not None and found.setting != "nonlocal":
                if found.setting == "global" or found.def_scope not in redirect:
                    scope_key = ("scope", found.def_scope, found.visible_from if self.sequential else 0)
                    out[start] = interned.setdefault(scope_key, scope_key)
                    continue
            key: tuple | None = None
            k = len(stack) - 1
            while k >= 0:
                _s_lo, s_hi, sid = stack[k]
                k -= 1
                if s_hi < end:
                    continue
                if reachable is not None and self.scope_nodes[sid].type not in reachable:
                    continue  # a qualified name reaches no local
                kind = redirect.get(sid)
                if kind == "global":
                    key = ("scope", self.root_id, 0)
                    break
                if kind == "nonlocal":
                    continue
                sdefs = defs.get(sid)
                if not sdefs:
                    continue
                if self.header_fields and self._in_header(self.scope_nodes[sid], start, end):
                    continue
                if not self.sequential:
                    key = ("scope", sid, 0)
                    break
                best = None
                for d in sdefs:
                    if d.visible_from <= start and (best is None or d.visible_from > best.visible_from):
                        best = d
                if best is not None:
                    key = ("scope", sid, best.visible_from)
                    break
            if key is None:
                key = fallback
            out[start] = interned.setdefault(key, key)
        return out

    def scope_has_defs(
        self, scope_id: int, starts: list[int], target_start: int, target: Occurrence | None = None
    ) -> bool:
        """Whether ``scope_id`` holds (non-redirected) definitions of the name
        visible from ``target_start`` (a definition ``target`` is its own
        binding's: it counts even where a sequential definition is visible
        only after it, so a local ``let`` resolves within its own scope)."""
        found = []
        for o in self._definitions(starts):
            if o.setting in ("global", "nonlocal"):
                if self.chain(o.node, reference=False)[0] == scope_id:
                    return False
            elif o.def_scope == scope_id:
                found.append(o)
        if not found:
            return False
        return not self.sequential or any(d.visible_from <= target_start or d is target for d in found)

    def binding(self, target_start: int, target_node: tree_sitter.Node) -> tuple[tuple, list[int], dict[int, tuple]]:
        """The target's key, the occurrences looked at and their keys."""
        lo, hi = self.root.start_byte, self.root.end_byte
        target = self.occurrence(target_start)
        member = self.is_member(target_start)
        keyword = target is not None and target.keyword
        if not member and not keyword:
            definition = target is not None and target.definition
            if target is not None and definition:
                self.resolve_definition(target)
            chain = self.chain(target_node, reference=not definition)
            if target is not None and definition and target.def_scope in chain:
                # a definition: its own scope first (unless `global`/`nonlocal`
                # redirects it: then outward)
                chain = chain[chain.index(target.def_scope) :]
            if not (target is not None and target.setting == "global"):
                reachable = self.qualified_scopes if self.classify(target_start) == _QUALIFIED else None
                for scope_id in chain:
                    if scope_id == self.root_id:
                        break
                    if reachable is not None and self.scope_nodes[scope_id].type not in reachable:
                        continue
                    s_lo, s_hi = self._scope_range(scope_id)
                    if self.scope_has_defs(
                        scope_id, self.classify_range(s_lo, s_hi), target_start, target if definition else None
                    ):
                        lo, hi = s_lo, s_hi
                        break
        starts = self.classify_range(lo, hi)
        if (member or keyword) and self.language not in _IMPLICIT_RECEIVER:
            # members and keywords bind by name alone: no scopes to resolve
            if member:
                occ_map = self.names.occ
                return (
                    _MEMBER_KEY,
                    starts,
                    {
                        s: _MEMBER_KEY
                        for s in starts
                        if (v := occ_map[s]) == _MEMBER or (isinstance(v, Occurrence) and v.member)
                    },
                )
            return _KEYWORD_KEY, starts, {s: _KEYWORD_KEY for s in starts if (o := self.occurrence(s)) and o.keyword}
        keys = self.keys(starts)
        return keys.get(target_start, ("unresolved",)), starts, keys


def resolve_binding(
    tree: SyntaxTree,
    source: bytes,
    node: tree_sitter.Node,
    visit: Visit | None = None,
) -> tuple[Resolver, tuple, list[tuple[int, int]]] | None:
    """``(resolver, binding key, sorted ranges)`` of the identifier ``node``.

    The key and ranges are memoised on ``tree.memo`` per node (asking for a
    binding's occurrences and then for its definitions sweeps its
    occurrences once); the resolver is a fresh one over the memoised
    classifications. ``visit``: see :class:`Resolver`."""
    name = source[node.start_byte : node.end_byte]
    if not name:
        return None
    resolver = Resolver(tree, source, name, visit)
    if resolver.classify(node.start_byte) is None:
        return None
    memo_key = ("names.binding", node.start_byte, node.end_byte)
    known = tree.memo.get(memo_key)
    if known is not None:
        known_key, known_ranges = cast("tuple[tuple, tuple[tuple[int, int], ...]]", known)
        return resolver, known_key, list(known_ranges)
    key, starts, keys = resolver.binding(node.start_byte, node)
    n = len(name)
    found = [(s, s + n) for s in starts if keys.get(s) == key]
    tree.memo[memo_key] = (key, tuple(found))
    return resolver, key, found
