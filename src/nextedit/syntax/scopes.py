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

Cost (see ``benchmarks/syntax_cost.py``): candidates are found by a byte
search for the name (C speed) and each is checked against the tree with one
``named_descendant_for_byte_range``. Classification avoids running the query
where it can: the patterns of the two query files are analysed once per
language — ``(type) @cap`` patterns classify by node type, ``(parent field:
(type) @cap)`` patterns by the parent's type and field (one ``Node.parent``),
and only the other patterns run the query, from the exact ancestor they need,
narrowed to the candidate's bytes. References need no scope chain: they bind
to the innermost *defining* scope containing them, found by one sweep over
the few definitions' scopes. A local binding classifies only its scope's
candidates (widening outward from the innermost scope); file-level and member
bindings look at the whole file. Classifications and results are memoised on
``SyntaxTree.memo`` (per tree version). Scope patterns in locals.scm must be
simple ``(type) @local.scope`` lines.

Must not know about LSP/ACP, documents or position encodings: byte offsets in,
byte ranges out.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

import tree_sitter

from nextedit.syntax import queries
from nextedit.syntax.languages import get_language
from nextedit.syntax.tree import SyntaxTree

__all__ = [
    "binding_occurrences",
    "enclosing_node",
    "identifier_at",
    "is_file_level_binding",
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

# Keyword arguments: call node type, callee field, argument-list field,
# keyword node type and its name field; and how a callee's definition lists
# its parameters (definition node type -> parameters field).
_KEYWORD_CALLS: dict[str, tuple[str, str, str]] = {"python": ("call", "function", "arguments")}
_PARAMETER_LISTS: dict[str, dict[str, str]] = {"python": {"function_definition": "parameters"}}

# Node types treated as identifiers when a language has no identifiers.scm.
_GENERIC_IDENTIFIER_TYPES = frozenset({"identifier", "name", "variable_name", "simple_identifier", "constant"})

# How many ancestors a pattern the analysis cannot read may span.
_CONTEXT_DEPTH = 6

_SCOPE_PATTERN = re.compile(r"^\s*\(([A-Za-z_][A-Za-z0-9_]*)\)\s*@local\.scope\b", re.MULTILINE)
_IDENTIFIER_PATTERN = re.compile(r"^\s*\(([A-Za-z_][A-Za-z0-9_]*)\)\s*@identifier\b", re.MULTILINE)

_MISSING = object()
_REF = 1
_MEMBER = 2
_MEMBER_KEY = ("member",)
_KEYWORD_KEY = ("keyword",)

# Setting precedence when several definition patterns capture one node.
_SETTING_RANK = {None: 0, "parent": 1, "function": 2, "nonlocal": 3, "global": 4}


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


# ------------------------------------------------------------ query analysis

_CLASSIFY_CAPTURES = ("member", "plain", "keyword")
_SIMPLE_K0 = re.compile(r"^\(\s*([A-Za-z_]\w*)\s*\)\s*@([\w.]+)\s*$")
_SIMPLE_K1 = re.compile(r"^\(\s*([A-Za-z_]\w*)\s+(?:([A-Za-z_]\w*)\s*:\s*)?\(\s*([A-Za-z_]\w*)\s*\)\s*@([\w.]+)\s*\)$")
_PATTERN_TOKEN = re.compile(
    r"""\s+|;[^\n]*|"(?:\\.|[^"\\])*"|@[\w.\-]+|[A-Za-z_][\w\-]*\s*:(?!:)|![\w\-]+|\#[\w\-!?]+|[()\[\]]|[.*+?]|[A-Za-z_][\w\-/]*"""
)


def _is_classify_capture(name: str) -> bool:
    return name in _CLASSIFY_CAPTURES or name.startswith("local.definition")


def _pattern_captures(text: str) -> list[tuple[str, str | None, str | None, int]] | None:
    """``(capture, captured node type | None, parent type | None, depth)`` for
    each capture of one query pattern (depth = ancestors of the captured node
    inside the pattern). ``None`` type = wildcard; ``None`` when unreadable."""
    stack: list[tuple[str, str | None]] = []  # (kind, node type): kind in node/group/alt/pred
    last: tuple[str, str | None] | None = None
    out: list[tuple[str, str | None, str | None, int]] = []
    tokens = [t for t in _PATTERN_TOKEN.findall(text) if t.strip() and not t.startswith(";")]
    if "".join(tokens).replace(" ", "") != re.sub(r"\s+|;[^\n]*", "", text):
        return None  # something the tokenizer did not understand
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok == "(":
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ")"
            if nxt in ("(", "["):
                stack.append(("group", None))
            elif nxt.startswith("#"):
                stack.append(("pred", None))
                i += 1
            elif nxt == "_":
                stack.append(("node", None))
                i += 1
            else:
                stack.append(("node", nxt))
                i += 1
            last = None
        elif tok == "[":
            stack.append(("alt", None))
            last = None
        elif tok in (")", "]"):
            if not stack:
                return None
            last = stack.pop()
        elif tok.startswith("@"):
            if any(kind == "pred" for kind, _ in stack):
                pass  # a capture named in a predicate
            elif last is None or last[0] != "node":
                return None
            else:
                enclosing = [t for kind, t in stack if kind == "node"]
                parent = enclosing[-1] if enclosing else None
                out.append((tok[1:], last[1], parent, len(enclosing)))
        elif tok in ("*", "+", "?"):
            pass
        elif tok == "_" or tok.startswith('"') or re.match(r"^[A-Za-z_][\w\-/]*$", tok):
            last = ("node", None if tok == "_" or tok.startswith('"') else tok)
        else:  # field:, !negated, anchor, predicate words
            last = None
        i += 1
    return out


@dataclass(slots=True)
class _TypePlan:
    """How to classify an identifier node of one type."""

    static: tuple[str, ...]  # captures from `(type) @cap` patterns
    simple: dict[str, list[tuple[str | None, str]]]  # parent type -> [(field, capture)]
    complex_by_parent: dict[str, int]  # parent type -> ancestors the query needs
    complex_any: int  # ancestors needed whatever the parent (-1: none)

    @property
    def needs_parent(self) -> bool:
        return bool(self.simple or self.complex_by_parent) or self.complex_any >= 1


class _Spec:
    """The classify query of a language (member / plain / keyword /
    definition patterns of identifiers.scm + locals.scm) and its analysis."""

    def __init__(self, language: str) -> None:
        self.language = language
        parts = [queries.query_text(language, "identifiers"), queries.query_text(language, "locals")]
        text = "\n".join(p for p in parts if p)
        self.query: tree_sitter.Query | None = None
        self.settings: dict[int, str | None] = {}
        self.captures: dict[int, list[str]] = {}
        self._plans: dict[str, _TypePlan] = {}
        # (capture, capture type, parent type, depth, simple field or "", simple?)
        self._entries: list[tuple[str, str | None, str | None, int, str | None, bool]] = []
        self.root_types = set()
        if not text:
            return
        lang = get_language(language)
        full = tree_sitter.Query(lang, text)
        data = text.encode()
        kept: list[str] = []
        for i in range(full.pattern_count):
            pattern = data[full.start_byte_for_pattern(i) : full.end_byte_for_pattern(i)].decode().strip()
            names = re.findall(r"@([\w.\-]+)", pattern)
            if any(_is_classify_capture(n) for n in names):
                kept.append(pattern)
        if not kept:
            return
        # node types a pattern may start at ("_" = any): a query context is
        # never the tree's root unless a pattern can start there
        self.root_types: set[str] = set()
        for pattern in kept:
            m = re.match(r"^[(\s\[]*([A-Za-z_]\w*)", pattern)
            self.root_types.add(m.group(1) if m else "_")
        query = tree_sitter.Query(lang, "\n".join(kept))
        if query.pattern_count != len(kept):  # pragma: no cover - defensive
            kept_ok = False
        else:
            kept_ok = True
        self.query = query
        for i in range(query.pattern_count):
            self.settings[i] = query.pattern_settings(i).get("scope")
        for i, pattern in enumerate(kept):
            flat = " ".join(re.sub(r";[^\n]*", "", pattern).split())
            m0 = _SIMPLE_K0.match(flat)
            m1 = _SIMPLE_K1.match(flat)
            if kept_ok and m0 and _is_classify_capture(m0.group(2)):
                ctype = None if m0.group(1) == "_" else m0.group(1)
                self._entries.append((m0.group(2), ctype, None, 0, None, True))
                continue
            if kept_ok and m1 and _is_classify_capture(m1.group(4)) and m1.group(1) != "_":
                ctype = None if m1.group(3) == "_" else m1.group(3)
                self._entries.append((m1.group(4), ctype, m1.group(1), 1, m1.group(2), True))
                continue
            caps = _pattern_captures(pattern) if kept_ok else None
            if caps is None:
                self._entries.append(("?", None, None, _CONTEXT_DEPTH, None, False))
                continue
            for cap, ctype, parent, depth in caps:
                if _is_classify_capture(cap):
                    self._entries.append((cap, ctype, parent, depth, None, False))

    def plan(self, node_type: str) -> _TypePlan:
        plan = self._plans.get(node_type)
        if plan is not None:
            return plan
        static: list[str] = []
        simple: dict[str, list[tuple[str | None, str]]] = {}
        by_parent: dict[str, int] = {}
        any_k = -1
        for cap, ctype, parent, depth, field, is_simple in self._entries:
            if ctype is not None and ctype != node_type:
                continue
            if is_simple and depth == 0:
                static.append(cap)
            elif is_simple:
                simple.setdefault(parent, []).append((field, cap))  # type: ignore[arg-type]
            elif depth == 0 or parent is None:
                any_k = max(any_k, depth)
            else:
                by_parent[parent] = max(by_parent.get(parent, -1), depth)
        plan = _TypePlan(tuple(static), simple, by_parent, any_k)
        self._plans[node_type] = plan
        return plan


@functools.lru_cache(maxsize=None)
def _spec(language: str) -> _Spec:
    return _Spec(language)


_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") | frozenset(range(0x80, 0x100))


def _name_starts(source: bytes, name: bytes) -> list[int]:
    """Starts of ``name`` in ``source`` not inside a longer word (a cheap
    pre-filter; the tree decides)."""
    check_before = name[0] in _WORD_BYTES
    check_after = name[-1] in _WORD_BYTES
    n = len(name)
    size = len(source)
    out: list[int] = []
    pieces = source.split(name)
    pos = 0
    for piece in pieces[:-1]:
        pos += len(piece)
        if not (check_before and pos > 0 and source[pos - 1] in _WORD_BYTES) and not (
            check_after and pos + n < size and source[pos + n] in _WORD_BYTES
        ):
            out.append(pos)
        pos += n
    return out


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
    tree: SyntaxTree, byte_start: int, byte_end: int, types: frozenset[str] | set[str] | tuple[str, ...] | None = None
) -> tree_sitter.Node | None:
    """The smallest named node covering ``[byte_start, byte_end)``; with
    ``types``, its nearest ancestor-or-self whose type is one of them.
    ``None`` when the range is outside the tree or no such node exists."""
    root = tree.root
    if byte_start < root.start_byte or byte_end > root.end_byte or byte_start > byte_end:
        return None
    node = root.named_descendant_for_byte_range(byte_start, byte_end)
    if types is None:
        return node
    wanted = frozenset(types)
    while node is not None and node.type not in wanted:
        node = node.parent
    return node


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
class _Occurrence:
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
    """Per (tree version, name) classification cache, kept on the tree memo."""

    starts: list[int]
    occ: dict[int, _Occurrence | None]


class _Resolver:
    """Resolution of one name in one tree version."""

    def __init__(self, tree: SyntaxTree, source: bytes, name: bytes) -> None:
        self.tree = tree
        self.source = source
        self.root = tree.root
        self.root_id = self.root.id
        self.language = tree.language
        self.name = name
        self.name_len = len(name)
        self.types = identifier_node_types(self.language)
        self.spec = _spec(self.language)
        self.cursor = tree_sitter.QueryCursor(self.spec.query) if self.spec.query is not None else None
        self.scope_types = scope_node_types(self.language)
        self.sequential = _SEQUENTIAL_DEFINITIONS.get(self.language, frozenset())
        self.function_scopes = _FUNCTION_SCOPES.get(self.language, frozenset())
        self.header_fields = _HEADER_FIELDS.get(self.language, {})
        self.destructuring = _DESTRUCTURING.get(self.language)
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
            names = memo[key] = _Names(_name_starts(source, name), {})
        self.names: _Names = names  # type: ignore[assignment]

    # -- classification -------------------------------------------------
    # ``names.occ[start]``: None (not an identifier), _REF (plain reference),
    # _MEMBER, or an _Occurrence (definitions and keywords, which need more).
    # Ints keep the memo small and out of the garbage collector's way.
    def classify(self, start: int) -> int | _Occurrence | None:
        occ_map = self.names.occ
        if start in occ_map:
            return occ_map[start]
        end = start + self.name_len
        node = self.root.named_descendant_for_byte_range(start, end)
        result: int | _Occurrence | None = None
        if node is not None and node.start_byte == start and node.end_byte == end:
            node_type = node.type
            if node_type in self.types:
                result = self._classify_node(node, node_type, start, end)
        occ_map[start] = result
        return result

    def occurrence(self, start: int) -> _Occurrence | None:
        """The full record of a definition / keyword at ``start``."""
        v = self.classify(start)
        return v if isinstance(v, _Occurrence) else None

    def is_member(self, start: int) -> bool:
        v = self.classify(start)
        return v == _MEMBER if isinstance(v, int) else (v is not None and v.member)

    def _classify_node(self, node: tree_sitter.Node, node_type: str, start: int, end: int) -> int | _Occurrence:
        """``_REF`` / ``_MEMBER``, or an ``_Occurrence`` for a definition or
        a keyword argument."""
        plan = self.spec.plan(node_type)
        caps: list[tuple[str, str | None]] = [(c, None) for c in plan.static] if plan.static else []
        depth = plan.complex_any
        parent = None
        if plan.needs_parent:
            parent = node.parent
            if parent is not None:
                ptype = parent.type
                simple = plan.simple.get(ptype)
                if simple:
                    for field, cap in simple:
                        if field is None or _in_field(parent, field, start, end):
                            caps.append((cap, None))
                if plan.complex_by_parent:
                    depth = max(depth, plan.complex_by_parent.get(ptype, -1))
        if depth >= 0 and self.cursor is not None:
            context = node
            if depth >= 1 and parent is not None:
                context = parent
                for _ in range(depth - 1):
                    up = context.parent
                    if up is None:
                        break
                    if up.id == self.root_id and self.root.type not in self.spec.root_types and "_" not in self.spec.root_types:
                        break  # running from the root would step through every top-level node
                    context = up
            node_id = node.id
            cursor = self.cursor
            cursor.set_byte_range(start, end)
            settings = self.spec.settings
            for pattern_index, captures in cursor.matches(context):
                for cap_name, nodes in captures.items():
                    if _is_classify_capture(cap_name) and any(n.id == node_id for n in nodes):
                        caps.append((cap_name, settings.get(pattern_index)))
        destructuring = self.destructuring is not None and parent is not None and parent.type in self.destructuring[0]
        if not destructuring:
            if not caps:
                return _REF
            if len(caps) == 1 and caps[0][0] == "member":
                return _MEMBER
        occ = _Occurrence(start, end, node)
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
            return _MEMBER if occ.member else _REF
        return occ

    def _destructured(self, occ: _Occurrence, node: tree_sitter.Node, parent: tree_sitter.Node) -> None:
        """JS/TS: a name bound by a destructuring pattern at any depth."""
        wrappers, roots = self.destructuring  # type: ignore[misc]
        child, cur = node, parent
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

    def classify_range(self, lo: int, hi: int) -> list[int]:
        """Starts of the identifier occurrences of the name in ``[lo, hi)``."""
        starts = self.names.starts
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
            if anc.type in self.scope_types and not (reference and self._in_header(anc, node.start_byte, node.end_byte)):
                self.scope_nodes.setdefault(anc.id, anc)
                out.append(anc.id)
            anc = anc.parent
        if not out or out[-1] != self.root_id:
            out.append(self.root_id)
        return out

    def resolve_definition(self, occ: _Occurrence) -> None:
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
    def _definitions(self, starts: list[int]) -> list[_Occurrence]:
        occ_map = self.names.occ
        out = []
        for s in starts:
            v = occ_map[s]
            if isinstance(v, _Occurrence) and v.definition and not v.member and not v.keyword:
                self.resolve_definition(v)
                out.append(v)
        return out

    def keys(self, starts: list[int]) -> dict[int, tuple]:
        """Binding key of every occurrence (by start byte). Plain
        occurrences bind to the innermost containing scope with a definition,
        by one sweep over those scopes; Python `global`/`nonlocal` scopes
        redirect their definitions."""
        all_defs = self._definitions(starts)
        defs: dict[int, list[_Occurrence]] = {}
        redirect: dict[int, str] = {}
        for o in all_defs:
            if o.setting in ("global", "nonlocal"):
                redirect[self.chain(o.node, reference=False)[0]] = o.setting  # type: ignore[assignment]
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
            o = v if isinstance(v, _Occurrence) else None
            if o is not None and (o.member or o.keyword):
                out[start] = _MEMBER_KEY if o.member else _KEYWORD_KEY
                continue
            end = start + n
            while j < len(intervals) and intervals[j][0] <= start:
                while stack and stack[-1][1] <= intervals[j][0]:
                    stack.pop()
                stack.append(intervals[j])
                j += 1
            while stack and stack[-1][1] < end:
                stack.pop()
            if o is not None and o.def_scope is not None and o.setting != "nonlocal":
                if o.setting == "global" or o.def_scope not in redirect:
                    k = ("scope", o.def_scope, o.visible_from if self.sequential else 0)
                    out[start] = interned.setdefault(k, k)
                    continue
            key: tuple | None = None
            k = len(stack) - 1
            while k >= 0:
                _s_lo, s_hi, sid = stack[k]
                k -= 1
                if s_hi < end:
                    continue
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

    def scope_has_defs(self, scope_id: int, starts: list[int], target_start: int) -> bool:
        """Whether ``scope_id`` holds (non-redirected) definitions of the name
        visible from ``target_start``."""
        found = []
        for o in self._definitions(starts):
            if o.setting in ("global", "nonlocal"):
                if self.chain(o.node, reference=False)[0] == scope_id:
                    return False
            elif o.def_scope == scope_id:
                found.append(o)
        if not found:
            return False
        return not self.sequential or any(d.visible_from <= target_start for d in found)

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
                for scope_id in chain:
                    if scope_id == self.root_id:
                        break
                    s_lo, s_hi = self._scope_range(scope_id)
                    if self.scope_has_defs(scope_id, self.classify_range(s_lo, s_hi), target_start):
                        lo, hi = s_lo, s_hi
                        break
        starts = self.classify_range(lo, hi)
        if (member or keyword) and self.language not in _IMPLICIT_RECEIVER:
            # members and keywords bind by name alone: no scopes to resolve
            if member:
                occ_map = self.names.occ
                return _MEMBER_KEY, starts, {
                    s: _MEMBER_KEY for s in starts if (v := occ_map[s]) == _MEMBER or (isinstance(v, _Occurrence) and v.member)
                }
            return _KEYWORD_KEY, starts, {s: _KEYWORD_KEY for s in starts if (o := self.occurrence(s)) and o.keyword}
        keys = self.keys(starts)
        return keys.get(target_start, ("unresolved",)), starts, keys


def _resolve(
    tree: SyntaxTree, source: bytes, node: tree_sitter.Node
) -> tuple[_Resolver, tuple, list[tuple[int, int]]] | None:
    """``(resolver, binding key, sorted ranges)`` of the identifier ``node``."""
    name = source[node.start_byte : node.end_byte]
    if not name:
        return None
    resolver = _Resolver(tree, source, name)
    if resolver.classify(node.start_byte) is None:
        return None
    key, starts, keys = resolver.binding(node.start_byte, node)
    n = len(name)
    return resolver, key, [(s, s + n) for s in starts if keys.get(s) == key]


# -- keyword arguments ----------------------------------------------------------


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
    lists = _PARAMETER_LISTS.get(tree.language, {})
    if callee.type not in identifier_node_types(tree.language):
        return None
    found = _resolve(tree, source, callee)
    if found is None:
        return None
    resolver, _key, ranges = found
    params_resolver = _Resolver(tree, source, name)
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


def _keyword_uses(tree: SyntaxTree, source: bytes, resolver: _Resolver, key: tuple, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Keyword arguments ``f(name=…)`` of calls to the function whose
    parameter the binding ``key`` is."""
    lists = _PARAMETER_LISTS.get(tree.language)
    calls = _KEYWORD_CALLS.get(tree.language)
    if not lists or calls is None or key[0] != "scope":
        return []
    scope = resolver.scope_nodes.get(key[1])
    if scope is None or scope.type not in lists:
        return []
    if not any(
        (o := resolver.occurrence(s)) is not None and o.definition and o.def_kind.endswith(".parameter") for s, _e in ranges
    ):
        return []
    fn_name = scope.child_by_field_name("name")
    if fn_name is None:
        return []
    fn_resolver = _Resolver(tree, source, source[fn_name.start_byte : fn_name.end_byte])
    if fn_resolver.classify(fn_name.start_byte) is None or fn_resolver.is_member(fn_name.start_byte):
        return []  # a method: calls go through `obj.name(…)`, not resolvable here
    found = _resolve(tree, source, fn_name)
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


def _keyword_binding(tree: SyntaxTree, source: bytes, resolver: _Resolver, target: _Occurrence) -> list[tuple[int, int]]:
    """A keyword argument: the callee's parameter binding when the callee is
    a function of this file, else the same keyword of calls to the same
    callee text."""
    callee = _callee_of_keyword(tree.language, target.node)
    if callee is not None:
        param = _parameter_def(tree, source, callee, resolver.name)
        if param is not None:
            return binding_occurrences(tree, source, param) or [(target.start, target.end)]
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


# -- public ---------------------------------------------------------------------


def binding_occurrences(tree: SyntaxTree, source: bytes, byte_offset: int) -> list[tuple[int, int]] | None:
    """Byte ranges (sorted) of every occurrence of the binding of the
    identifier at ``byte_offset`` (or ending there); ``None`` when there is no
    identifier there. ``source`` must be the bytes ``tree`` was parsed from.

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
    found = _resolve(tree, source, node)
    if found is None:
        return [(node.start_byte, node.end_byte)]
    resolver, key, ranges = found
    target = resolver.occurrence(node.start_byte)
    if target is not None and target.keyword:
        ranges = _keyword_binding(tree, source, resolver, target)
    elif key[0] == "scope" and tree.language in _PARAMETER_LISTS:
        extra = _keyword_uses(tree, source, resolver, key, ranges)
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
    found = _resolve(tree, source, node)
    if found is None:
        return False
    resolver, key, ranges = found
    if key[0] != "scope" or key[1] != resolver.root_id:
        return False
    for start, _end in ranges:
        occ = resolver.occurrence(start)
        if occ is not None and occ.definition and not occ.def_kind.endswith(".import"):
            return True
    return False
