"""Query patterns matched in Python, upward from the one node classified.

Owns reading one tree-sitter query pattern into its structure (node types,
``(_)`` / ``_`` wildcards, anonymous ``"nodes"``, fields, ``!negated``
fields, alternations ``[…]``, captures and ``(#set! key "value")``
settings) and deciding whether a match of it captures a given node: from the
node up through its ancestors, one pattern level each, checking each level's
type and field and the pattern's other children among the siblings (in
order, as tree-sitter does: unanchored children match a subsequence of the
node's children).

Why: compiling a query makes tree-sitter analyse every pattern against the
grammar (~5 ms a pattern rooted at C++'s ``declaration`` or
``function_definition``), and the classify question is only ever asked of
one identifier and the few ancestors a pattern spans. Patterns using
anything else (anchors, quantifiers, predicates other than ``#set!``,
sibling groups) are not read: :func:`parse_pattern` returns ``None`` and the
caller compiles those.

Must not know which captures mean what (that is :mod:`.query_analysis`),
nor about names, scopes, documents or LSP/ACP.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter

__all__ = ["Ancestors", "NodePattern", "ParsedPattern", "Step", "chain_types", "matches_at", "parse_pattern"]


@dataclass(frozen=True, slots=True)
class NodePattern:
    """One node of a pattern: ``type`` ``None`` is a wildcard (``named``:
    ``(_)`` matches named nodes only, ``_`` any node); ``named`` false with a
    type is an anonymous ``"token"``."""

    type: str | None
    named: bool
    field: str | None = None
    children: tuple[tuple[NodePattern, ...], ...] = ()  # each child: its alternatives
    negated: tuple[str, ...] = ()
    captures: tuple[str, ...] = ()


# (this level's pattern, its parent's pattern, its index among the parent's children)
Step = tuple[NodePattern, NodePattern, int]


@dataclass(frozen=True, slots=True)
class ParsedPattern:
    roots: tuple[NodePattern, ...]  # alternatives of the outermost node
    settings: dict[str, str]

    def capture_paths(self) -> Iterator[tuple[str, NodePattern, tuple[Step, ...]]]:
        """``(capture, captured node's pattern, steps up to the root)`` for
        every capture of every alternative."""

        def walk(pat: NodePattern, above: tuple[Step, ...]) -> Iterator[tuple[str, NodePattern, tuple[Step, ...]]]:
            for capture in pat.captures:
                yield capture, pat, above
            for index, options in enumerate(pat.children):
                for option in options:
                    yield from walk(option, ((option, pat, index), *above))

        for root in self.roots:
            yield from walk(root, ())

    def node_types(self) -> Iterator[tuple[str, bool]]:
        """``(type, named)`` of every typed node of the pattern (the caller
        checks them against the grammar: a supertype or ``ERROR`` matches
        nodes of other types, which this matcher does not know)."""
        stack = list(self.roots)
        while stack:
            pat = stack.pop()
            if pat.type is not None:
                yield pat.type, pat.named
            for options in pat.children:
                stack.extend(options)


class _Unsupported(Exception):
    """A construct this matcher does not read."""


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.i = 0
        self.settings: dict[str, str] = {}

    def peek(self, ahead: int = 0) -> str:
        j = self.i + ahead
        return self.tokens[j] if j < len(self.tokens) else ""

    def take(self) -> str:
        tok = self.peek()
        if not tok:
            raise _Unsupported("unexpected end")
        self.i += 1
        return tok

    def expect(self, tok: str) -> None:
        if self.take() != tok:
            raise _Unsupported(f"expected {tok}")

    def predicate(self) -> None:
        self.expect("(")
        name = self.take()
        args = []
        while self.peek() != ")":
            args.append(self.take())
        self.expect(")")
        if name != "#set!" or len(args) != 2 or args[0].startswith(("@", '"')) or not args[1].startswith('"'):
            raise _Unsupported(name)
        self.settings[args[0]] = _unquote(args[1])

    def is_predicate(self) -> bool:
        return self.peek() == "(" and self.peek(1).startswith("#")

    def item(self) -> tuple[NodePattern, ...]:
        """One child (its alternatives), with its field, captures and settings."""
        field = None
        tok = self.peek()
        if tok.endswith(":"):
            field = tok[:-1].strip()
            self.take()
            tok = self.peek()
        if tok == "(" and self.peek(1) in ("(", "["):
            self.take()
            inner: list[tuple[NodePattern, ...]] = []
            while self.peek() != ")":
                if self.is_predicate():
                    self.predicate()
                else:
                    inner.append(self.item())
            self.expect(")")
            if len(inner) != 1:
                raise _Unsupported("a group of siblings")
            options = inner[0]
        elif tok == "(":
            options = (self.node(),)
        elif tok == "[":
            self.take()
            alternatives: list[NodePattern] = []
            while self.peek() != "]":
                alternatives.extend(self.item())
            self.expect("]")
            if not alternatives:
                raise _Unsupported("an empty alternation")
            options = tuple(alternatives)
        elif tok == "_":
            self.take()
            options = (NodePattern(None, False),)
        elif tok.startswith('"'):
            self.take()
            options = (NodePattern(_unquote(tok), False),)
        else:
            raise _Unsupported(tok)
        captures: list[str] = []
        while self.peek().startswith("@"):
            captures.append(self.take()[1:])
        if self.peek() in ("*", "+", "?"):
            raise _Unsupported("a quantifier")
        if field is not None or captures:
            if field is not None and any(o.field is not None for o in options):
                raise _Unsupported("two fields")
            options = tuple(
                dataclasses.replace(
                    o, field=field if field is not None else o.field, captures=o.captures + tuple(captures)
                )
                for o in options
            )
        return options

    def node(self) -> NodePattern:
        self.expect("(")
        name = self.take()
        if name.startswith(("#", '"', "@", "(", "[", ")")) or name.endswith(":"):
            raise _Unsupported(name)
        children: list[tuple[NodePattern, ...]] = []
        negated: list[str] = []
        while self.peek() != ")":
            tok = self.peek()
            if tok.startswith("!"):
                negated.append(self.take()[1:])
            elif self.is_predicate():
                raise _Unsupported("a predicate inside a node")
            elif tok == ".":
                raise _Unsupported("an anchor")
            else:
                children.append(self.item())
        self.expect(")")
        if name == "_":
            return NodePattern(None, True, children=tuple(children), negated=tuple(negated))
        return NodePattern(name, True, children=tuple(children), negated=tuple(negated))


def _unquote(token: str) -> str:
    return token[1:-1].encode("utf-8").decode("unicode_escape") if "\\" in token else token[1:-1]


def parse_pattern(tokens: list[str]) -> ParsedPattern | None:
    """The structure of one top-level pattern (its tokens, comments and
    whitespace dropped, a ``(#set! …)`` after it included), or ``None`` when
    it uses something this matcher does not read."""
    parser = _Parser(tokens)
    try:
        roots = parser.item()
        while parser.is_predicate():
            parser.predicate()
        if parser.i != len(tokens) or any(r.field is not None for r in roots):
            return None
    except _Unsupported:
        return None
    return ParsedPattern(roots, parser.settings)


# ------------------------------------------------------------------ matching


def _type_matches(node: tree_sitter.Node, pat: NodePattern) -> bool:
    if pat.type is None:
        return node.is_named or not pat.named
    return node.type == pat.type and node.is_named == pat.named


def _in_field(parent: tree_sitter.Node, field: str, child: tree_sitter.Node) -> bool:
    first = parent.child_by_field_name(field)
    if first is None:
        return False
    if first.id == child.id:
        return True
    return any(c.id == child.id for c in parent.children_by_field_name(field))


class _Children:
    """The children of one node, with the members of a field looked up
    only when a pattern asks for that field (the same lookup as
    :func:`_in_field`)."""

    __slots__ = ("fields", "nodes", "parent")

    def __init__(self, parent: tree_sitter.Node) -> None:
        self.parent = parent
        self.nodes = parent.children
        self.fields: dict[str, frozenset[int]] = {}

    def in_field(self, node: tree_sitter.Node, field: str) -> bool:
        ids = self.fields.get(field)
        if ids is None:
            ids = self.fields[field] = frozenset(c.id for c in self.parent.children_by_field_name(field))
        return node.id in ids


def _matches_down(node: tree_sitter.Node, siblings: _Children, pat: NodePattern) -> bool:
    """Whether ``node`` (a child in ``siblings``) matches ``pat`` and all of
    ``pat``'s children below it."""
    if not _type_matches(node, pat):
        return False
    if pat.field is not None and not siblings.in_field(node, pat.field):
        return False
    return _own_constraints(node, pat)


def _own_constraints(node: tree_sitter.Node, pat: NodePattern) -> bool:
    for name in pat.negated:
        if node.child_by_field_name(name) is not None:
            return False
    if not pat.children:
        return True
    return _subsequence(_Children(node), 0, None, pat.children)


def _subsequence(
    kids: _Children,
    lo: int,
    hi: int | None,
    items: tuple[tuple[NodePattern, ...], ...],
) -> bool:
    """Whether ``items`` match distinct children ``kids.nodes[lo:hi]`` in
    order (leftmost first: each item is checked on its own child, so
    leftmost is enough)."""
    nodes = kids.nodes
    end = len(nodes) if hi is None else hi
    j = lo
    for options in items:
        while j < end and not any(_matches_down(nodes[j], kids, o) for o in options):
            j += 1
        if j >= end:
            return False
        j += 1
    return True


class Ancestors:
    """A node and its ancestors, fetched once each and only when a pattern
    reaches that high (``Node.parent`` walks down from the root: it costs
    more the deeper the node)."""

    __slots__ = ("nodes", "types")

    def __init__(
        self, node: tree_sitter.Node, node_type: str, parent: tree_sitter.Node | None, parent_type: str | None
    ) -> None:
        self.nodes: list[tree_sitter.Node | None] = [node, parent]
        self.types: list[str | None] = [node_type, parent_type]

    def reach(self, level: int) -> None:
        nodes = self.nodes
        while len(nodes) <= level:
            top = nodes[-1]
            up = top.parent if top is not None else None
            nodes.append(up)
            self.types.append(up.type if up is not None else None)


def chain_types(steps: tuple[Step, ...]) -> tuple[str | None, ...]:
    """The type each ancestor of a captured node must have (``None``: any)
    for ``steps`` to match: a cheap first check before fields and siblings."""
    return tuple(parent_pat.type for _child, parent_pat, _index in steps)


def matches_at(
    ancestors: Ancestors, captured: NodePattern, steps: tuple[Step, ...], types: tuple[str | None, ...]
) -> bool:
    """Whether a match of the pattern captures ``ancestors.nodes[0]`` as
    ``captured`` (``steps``: from ``captured`` up to the pattern's root;
    ``types``: their :func:`chain_types`)."""
    depth = len(types)
    if depth >= len(ancestors.nodes):
        ancestors.reach(depth)
    have = ancestors.types
    for level, expected in enumerate(types, 1):
        if have[level] is None or (expected is not None and have[level] != expected):
            return False
    nodes = ancestors.nodes
    node = nodes[0]
    assert node is not None
    if not _type_matches(node, captured):
        return False
    if (captured.negated or captured.children) and not _own_constraints(node, captured):
        return False
    child = node
    for level, (child_pat, parent_pat, index) in enumerate(steps, 1):
        parent = nodes[level]
        assert parent is not None
        if parent_pat.named and not parent.is_named:
            return False
        if child_pat.field is not None and not _in_field(parent, child_pat.field, child):
            return False
        for name in parent_pat.negated:
            if parent.child_by_field_name(name) is not None:
                return False
        if len(parent_pat.children) > 1:
            kids = _Children(parent)
            child_id = child.id
            pos = next((k for k, n in enumerate(kids.nodes) if n.id == child_id), -1)
            if pos < 0:
                return False
            siblings = parent_pat.children
            if not _subsequence(kids, 0, pos, siblings[:index]) or not _subsequence(
                kids, pos + 1, None, siblings[index + 1 :]
            ):
                return False
        child = parent
    return True
