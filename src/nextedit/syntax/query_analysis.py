"""Query-file analysis: what ``identifiers.scm`` and ``locals.scm`` say.

Owns which node types are renamable identifiers (``(type) @identifier``
patterns, or a generic fallback for languages without identifiers.scm),
which open a scope (``(type) @local.scope`` lines — scope patterns in
locals.scm must be that simple), and the *classify spec* of a language: the
member / plain / keyword / definition patterns of the two files analysed once
per language, so that classification avoids a query where it can — ``(type)
@cap`` patterns classify by node type, ``(parent field: (type) @cap)``
patterns by the parent's type and field (one ``Node.parent``), patterns
:mod:`.pattern_match` reads (types, fields, alternations, ``#set!``: every
classify pattern of C, C++, Rust, Go, Java, Ruby, JS/TS) are matched in
Python upward from the node, and only the rest (Python's anchored patterns)
are compiled into a query run from the exact ancestor they need
(:class:`_TypePlan`). Compiling is the slow part: tree-sitter analyses every
pattern against the grammar, ~5 ms a pattern rooted at C++'s
``declaration``; matching in Python costs no more per classification.

Must not know how names resolve (that is :mod:`.name_resolution`), about
trees of a document, LSP/ACP or position encodings.
"""

from __future__ import annotations

import functools
import logging
import queue
import re
import threading
from dataclasses import dataclass

import tree_sitter

from nextedit.syntax.languages import get_language
from nextedit.syntax.pattern_match import (
    Ancestors,
    NodePattern,
    ParsedPattern,
    Step,
    chain_types,
    matches_at,
    parse_pattern,
)
from nextedit.syntax.queries import query_text

log = logging.getLogger(__name__)

# Node types treated as identifiers when a language has no identifiers.scm.
_GENERIC_IDENTIFIER_TYPES = frozenset({"identifier", "name", "variable_name", "simple_identifier", "constant"})

# How many ancestors a pattern the analysis cannot read may span.
_CONTEXT_DEPTH = 6

_SCOPE_PATTERN = re.compile(r"^\s*\(([A-Za-z_][A-Za-z0-9_]*)\)\s*@local\.scope\b", re.MULTILINE)
_IDENTIFIER_PATTERN = re.compile(r"^\s*\(([A-Za-z_][A-Za-z0-9_]*)\)\s*@identifier\b", re.MULTILINE)


@functools.cache
def identifier_node_types(language: str) -> frozenset[str]:
    """Node types that are identifiers in ``language``: the top-level
    ``(type) @identifier`` patterns of its ``identifiers.scm``, else every
    named node type called ``identifier``/``*_identifier``/``name``…"""
    text = query_text(language, "identifiers")
    if text is not None:
        return frozenset(_IDENTIFIER_PATTERN.findall(text))
    lang = get_language(language)
    kinds = set()
    for kind_id in range(lang.node_kind_count):
        name = lang.node_kind_for_id(kind_id)
        if (
            name
            and lang.node_kind_is_named(kind_id)
            and (name in _GENERIC_IDENTIFIER_TYPES or name.endswith("_identifier"))
        ):
            kinds.add(name)
    return frozenset(kinds)


def is_identifier_node_type(language: str, node_type: str) -> bool:
    """Whether nodes of ``node_type`` are renamable identifiers."""
    return node_type in identifier_node_types(language)


@functools.cache
def scope_node_types(language: str) -> frozenset[str]:
    """Node types that open a scope: the ``(type) @local.scope`` patterns of
    ``locals.scm`` (scope patterns must be that simple; a test checks it)."""
    text = query_text(language, "locals")
    return frozenset(_SCOPE_PATTERN.findall(text)) if text else frozenset()


# ------------------------------------------------------------ query analysis

_CLASSIFY_CAPTURES = ("member", "plain", "keyword")
_SIMPLE_K0 = re.compile(r"^\(\s*([A-Za-z_]\w*)\s*\)\s*@([\w.]+)\s*$")
_SIMPLE_K1 = re.compile(r"^\(\s*([A-Za-z_]\w*)\s+(?:([A-Za-z_]\w*)\s*:\s*)?\(\s*([A-Za-z_]\w*)\s*\)\s*@([\w.]+)\s*\)$")
_PATTERN_TOKEN = re.compile(
    r"""\s+|;[^\n]*|"(?:\\.|[^"\\])*"|@[\w.\-]+|[A-Za-z_][\w\-]*\s*:(?!:)|![\w\-]+|\#[\w\-!?]+|[()\[\]]|[.*+?]|[A-Za-z_][\w\-/]*"""
)


def is_classify_capture(name: str) -> bool:
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


def _tokens(text: str) -> list[str]:
    """The tokens of query text, whitespace and comments dropped."""
    return [t.strip() for t in _PATTERN_TOKEN.findall(text) if t.strip() and not t.startswith(";")]


def _concrete_types(language: str, parsed: ParsedPattern) -> bool:
    """Whether every node type of ``parsed`` names nodes of that type only
    (a visible kind, not a supertype — those are hidden kinds that queries
    see through — nor ``ERROR``/``MISSING``): what the Python matcher
    compares with ``Node.type``."""
    lang = get_language(language)
    supertypes = set(lang.supertypes)
    for node_type, named in parsed.node_types():
        if node_type in ("ERROR", "MISSING"):
            return False
        kind = lang.id_for_node_kind(node_type, named)
        if kind is None or kind in supertypes or not lang.node_kind_is_visible(kind):
            return False
    return True


def _split_patterns(text: str) -> list[str]:
    """The top-level patterns of a query file, each with the captures and
    quantifiers that follow it and the predicates grouped with it (comments
    dropped); a top-level ``(#pred …)`` joins the pattern before it."""
    tokens = [t for t in _PATTERN_TOKEN.findall(text) if t.strip() and not t.startswith(";")]
    if "".join(tokens) != re.sub(r"\s+|;[^\n]*", "", text):
        raise ValueError("a query file holds something the pattern splitter does not read")
    patterns: list[str] = []
    depth = 0
    for tok in tokens:
        opens = tok in ("(", "[")
        if depth == 0 and opens or not patterns:
            patterns.append(tok)
        else:
            patterns[-1] += tok if tok in (")", "]") or patterns[-1][-1] in "([" else " " + tok
        if opens:
            depth += 1
        elif tok in (")", "]"):
            depth -= 1
    # `(#pred …)` at the top level belongs to the pattern before it
    merged: list[str] = []
    for p in patterns:
        if merged and p.startswith("(#"):
            merged[-1] += " " + p
        else:
            merged.append(p)
    return merged


# (pattern's place in the files, capture, its #set! scope setting, captured
# node's pattern, steps up to the pattern's root, the ancestors' types)
MatchedCapture = tuple[int, str, str | None, NodePattern, tuple[Step, ...], tuple[str | None, ...]]


@dataclass(slots=True)
class _TypePlan:
    """How to classify an identifier node of one type."""

    static: tuple[str, ...]  # captures from `(type) @cap` patterns
    simple: dict[str, list[tuple[str | None, str]]]  # parent type -> [(field, capture)]
    matched: dict[str | None, tuple[MatchedCapture, ...]]  # parent type (None: any) -> matched in Python
    complex_by_parent: dict[str, int]  # parent type -> ancestors the query needs
    complex_any: int  # ancestors needed whatever the parent (-1: none)

    @property
    def needs_parent(self) -> bool:
        return bool(self.simple or self.matched or self.complex_by_parent) or self.complex_any >= 1

    def matched_captures(
        self, node: tree_sitter.Node, node_type: str, parent: tree_sitter.Node | None, parent_type: str | None
    ) -> list[tuple[str, str | None]]:
        """``(capture, setting)`` of the Python-matched patterns that capture
        ``node`` (child of ``parent``), in pattern order (callers first check
        that ``matched`` holds ``parent_type`` or ``None``: most parents rule
        every pattern out)."""
        ancestors = Ancestors(node, node_type, parent, parent_type)
        found: list[tuple[int, str, str | None]] = []
        for key in (parent_type, None) if parent is not None else (None,):
            for order, cap, setting, pat, steps, types in self.matched.get(key, ()):
                if matches_at(ancestors, pat, steps, types):
                    found.append((order, cap, setting))
        if len(found) > 1:
            found.sort(key=lambda f: f[0])
        return [(cap, setting) for _order, cap, setting in found]


class _Spec:
    """The classify query of a language (member / plain / keyword /
    definition patterns of identifiers.scm + locals.scm) and its analysis."""

    def __init__(self, language: str) -> None:
        self.language = language
        parts = [query_text(language, "identifiers"), query_text(language, "locals")]
        text = "\n".join(p for p in parts if p)
        self.query: tree_sitter.Query | None = None
        self.settings: dict[int, str | None] = {}
        self._plans: dict[str, _TypePlan] = {}
        # (capture, capture type, parent type, depth, simple field or "", simple?)
        self._entries: list[tuple[str, str | None, str | None, int, str | None, bool]] = []
        self._matched: list[MatchedCapture] = []  # patterns matched in Python
        self.root_types: set[str] = set()
        if not text:
            return
        # Patterns that classify nothing (@identifier, @local.scope,
        # @local.reference) and the simple ones (`(type) @cap`,
        # `(parent field: (type) @cap)`, read by node and parent type below)
        # are never run, so only the others are compiled: compilation is the
        # slow part (tree-sitter analyses every pattern against the grammar,
        # ~5 ms a pattern with children for C++).
        patterns = [
            p for p in _split_patterns(text) if any(is_classify_capture(n) for n in re.findall(r"@([\w.\-]+)", p))
        ]
        if not patterns:
            return
        # node types a pattern may start at ("_" = any): a query context is
        # never the tree's root unless a pattern can start there
        for pattern in patterns:
            m = re.match(r"^[(\s\[]*([A-Za-z_]\w*)", pattern)
            self.root_types.add(m.group(1) if m else "_")
        to_run: list[str] = []
        for order, pattern in enumerate(patterns):
            flat = " ".join(re.sub(r";[^\n]*", "", pattern).split())
            m0 = _SIMPLE_K0.match(flat)
            m1 = _SIMPLE_K1.match(flat)
            if m0 and is_classify_capture(m0.group(2)):
                ctype = None if m0.group(1) == "_" else m0.group(1)
                self._entries.append((m0.group(2), ctype, None, 0, None, True))
                continue
            if m1 and is_classify_capture(m1.group(4)) and m1.group(1) != "_":
                ctype = None if m1.group(3) == "_" else m1.group(3)
                self._entries.append((m1.group(4), ctype, m1.group(1), 1, m1.group(2), True))
                continue
            parsed = parse_pattern(_tokens(pattern))
            if parsed is not None and _concrete_types(language, parsed):
                setting = parsed.settings.get("scope")
                for cap, pat, steps in parsed.capture_paths():
                    if is_classify_capture(cap):
                        self._matched.append((order, cap, setting, pat, steps, chain_types(steps)))
                continue
            to_run.append(pattern)
            caps = _pattern_captures(pattern)
            if caps is None:
                self._entries.append(("?", None, None, _CONTEXT_DEPTH, None, False))
                continue
            for cap, ctype, parent, depth in caps:
                if is_classify_capture(cap):
                    self._entries.append((cap, ctype, parent, depth, None, False))
        if not to_run:
            return
        query = tree_sitter.Query(get_language(language), "\n".join(to_run))
        if query.pattern_count != len(to_run):
            raise ValueError(
                f"{language}: the classify query was split into {len(to_run)} patterns, compiled into {query.pattern_count}"
            )
        self.query = query
        for i in range(query.pattern_count):
            self.settings[i] = query.pattern_settings(i).get("scope")

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
        matched: dict[str | None, list[MatchedCapture]] = {}
        for entry in self._matched:
            pat, steps = entry[3], entry[4]
            if pat.type is not None and pat.type != node_type:
                continue
            parent = steps[0][1].type if steps else None
            matched.setdefault(parent, []).append(entry)
        plan = _TypePlan(tuple(static), simple, {k: tuple(v) for k, v in matched.items()}, by_parent, any_k)
        self._plans[node_type] = plan
        return plan


_SPECS: dict[str, _Spec] = {}
_SPEC_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def classify_spec(language: str) -> _Spec:
    """The classify spec of ``language``, built once per process (compiling its
    query is the slow part); a caller arriving while :func:`warm_up`'s thread
    builds it waits for that build rather than starting another."""
    spec = _SPECS.get(language)
    if spec is not None:
        return spec
    with _LOCKS_LOCK:
        lock = _SPEC_LOCKS.setdefault(language, threading.Lock())
    with lock:
        spec = _SPECS.get(language)
        if spec is None:
            spec = _SPECS[language] = _Spec(language)
    return spec


def warm_up(language: str) -> None:
    """Build ``language``'s classify spec now, once, on a worker thread: the
    first document of a language opens before its first suggest, so
    building it (about 1 ms where every pattern is matched in Python; ~2 ms
    for Python, which compiles its four anchored patterns) is paid after that
    ``didOpen`` instead of by the first suggest. Honestly, it is not
    concurrent: py-tree-sitter holds the GIL while it compiles, so the event
    loop waits for it all the same; the thread only lets the ``didOpen``
    handler finish first and keeps a query that fails to compile from
    failing the open (logged here, raised again on the request path). One
    worker serves every language, idle on its queue the rest of the time."""
    global _warmer
    with _LOCKS_LOCK:
        if language in _SPEC_LOCKS or language in _SPECS:
            return
        _SPEC_LOCKS[language] = threading.Lock()
        if _warmer is None:
            _warmer = threading.Thread(target=_warm_forever, name="nextedit-warm-up", daemon=True)
            _warmer.start()
    _to_warm.put(language)


_to_warm: queue.SimpleQueue[str] = queue.SimpleQueue()
_warmer: threading.Thread | None = None


def _warm_forever() -> None:
    while True:
        language = _to_warm.get()
        try:
            classify_spec(language)
        except Exception:  # noqa: BLE001 - the worker serves the next language; the request path raises it again
            log.exception("warming up the queries of %s failed", language)
