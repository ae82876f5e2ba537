"""Rename binding: the occurrences of the renamed binding, resolved in the text before the rename.

Owns the *before text* — every renamed site reads OLD again, described
through the current document (:class:`_Before`, built by :func:`revert_sites`,
with the tree-sitter edits that move the current tree's offsets onto it) —
the offset maps between the current and the before text, and the resolution
of the binding there with :func:`nextedit.syntax.scopes.binding_occurrences`,
narrowed where the syntax layer's binding is known to be too wide (a Python
``except … as NAME`` clause; member and path uses with another receiver).
Also: whether NEW is a genuine new name at the site
(:func:`check_new_name`), whether a binding is defined at file level, and
the grammar-less fallback (same-name tokens).

Must not know about the edit history beyond the evidence it is handed, nor
about other documents, candidates or fallback groups
(:mod:`nextedit.suggest.rename.suggester`, :mod:`nextedit.suggest.rename.occurrences`),
nor LSP/ACP or position encodings.
"""

from __future__ import annotations

import logging
import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from tree_sitter import Node, QueryError

from nextedit.suggest.model import SilenceReason
from nextedit.suggest.rename.evidence import RenameEvidence
from nextedit.suggest.suggester import DocumentStateView
from nextedit.syntax import ByteEdit, SyntaxTree
from nextedit.text import Document, utf8

log = logging.getLogger(__name__)


# ancestor node types that make an identifier part of an import
_IMPORT_HINTS = ("import", "use_declaration", "use_list", "use_as_clause", "scoped_use_list")
# fields under which a parent names what it defines
_DEFINING_FIELDS = ("name", "left", "declarator", "pattern")
# parents whose ``name`` field is the last segment of a path to another item
# (Rust ``struct_::f``, C++ ``fmt::f``, TypeScript ``z.input``, Go
# ``testing.B``, Ruby ``A::B``, C# and PHP member access): a use, not a
# definition; a path (``Pool::new``) also names one type's item, other
# paths other items (:func:`_refine_binding`)
_PATH_ACCESS = frozenset(
    {
        "scoped_identifier",
        "scoped_type_identifier",
        "qualified_identifier",
        "nested_type_identifier",
        "nested_identifier",
        "qualified_type",
        "scope_resolution",
        "qualified_name",
        "member_access_expression",
        "scoped_call_expression",
    }
)


def check_new_name(state: DocumentStateView, ev: RenameEvidence, sites: list[int]) -> SilenceReason | None:
    """Silence unless NEW parses as an identifier at the site and names nothing
    that existed before (else the developer re-pointed a use at another
    binding, which is not a rename). An edit that changed more than the name
    counts only at a definition (``def foo(a)`` → ``def bar(a, b)``); a
    whole module swapped in its import (``import subprocess`` → ``import
    sys``) is a new dependency, not a new name."""
    from nextedit.syntax import scopes

    document = state.document
    source = document.source_bytes
    start_b = document.byte_offset_at(ev.site_cp)
    end_b = document.byte_offset_at(ev.site_cp + len(ev.new))
    try:
        found = scopes.identifier_at(state.syntax, source, start_b)
        if found is None or found[0] != start_b or found[1] != end_b:
            return SilenceReason.NO_EVIDENCE
        node = state.syntax.root.named_descendant_for_byte_range(start_b, end_b)
        if not ev.pure and (node is None or not is_definition_name(node)):
            return SilenceReason.NO_EVIDENCE
        if node is not None and _imports_a_whole_module(node):
            return SilenceReason.NO_EVIDENCE
        ranges = scopes.binding_occurrences(state.syntax, source, start_b) or []
    except QueryError:  # a grammar whose scope queries do not compile
        log.exception("rename: resolving the new name failed")
        return SilenceReason.NO_EVIDENCE
    site_bytes = {document.byte_offset_at(s) for s in sites}
    if any(start not in site_bytes for start, _ in ranges):
        return SilenceReason.NO_EVIDENCE  # NEW was already a name there
    return None


@dataclass(slots=True)
class _Before:
    """The text with every renamed site reading OLD again, described through
    the current document (no second line index: cost grows with the sites)."""

    document: Document
    sites: list[int]  # current cp offsets, ascending
    old: str
    new: str
    source: bytes
    applied: list[ByteEdit]
    site_bytes: list[int]  # current byte offsets of the sites
    byte_delta: int

    @property
    def text(self) -> str:
        """The before text as ``str`` (built on demand: only the grammar-less
        path reads it; with a tree the bytes suffice)."""
        text = self.document.text
        parts: list[str] = []
        prev = 0
        for cp in self.sites:
            parts += [text[prev:cp], self.old]
            prev = cp + len(self.new)
        parts.append(text[prev:])
        return "".join(parts)

    def byte_at(self, cp_before: int) -> int:
        """Before-text byte offset of a before-text cp offset (outside the sites)."""
        cp = map_from_before(cp_before, self.sites, self.old, self.new)
        b = self.document.byte_offset_at(cp)
        return b + self.byte_delta * bisect_left(self.site_bytes, b)

    def cps_at(self, bytes_before: list[int]) -> list[int]:
        """Before-text cp offsets of ascending before-text byte offsets (outside
        the sites): one merge walk past the sites, one batch conversion."""
        site_bytes, delta, k = self.site_bytes, self.byte_delta, 0
        current = []
        for b in bytes_before:  # site k starts at site_bytes[k] + k * delta before
            while k < len(site_bytes) and site_bytes[k] + k * delta < b:
                k += 1
            current.append(b - delta * k)
        sites, grow, j = self.sites, len(self.old) - len(self.new), 0
        out = []
        for cp in self.document.cp_offsets_at_bytes(current):
            while j < len(sites) and sites[j] < cp:
                j += 1
            out.append(cp + grow * j)
        return out


def revert_sites(document: Document, sites: list[int], old: str, new: str) -> _Before:
    """The before text: every renamed site reads OLD again."""
    source = document.source_bytes
    old_b, new_b = utf8(old), utf8(new)
    site_bytes = [document.byte_offset_at(s) for s in sites]
    applied: list[ByteEdit] = []
    byte_parts: list[bytes] = []
    prev_b = 0
    for b in site_bytes:
        byte_parts += [source[prev_b:b], old_b]
        prev_b = b + len(new_b)
    byte_parts.append(source[prev_b:])
    # tree edits in descending order: each stays valid for the text left by the previous
    for cp, b in zip(reversed(sites), reversed(site_bytes), strict=False):
        row, col = document.point_at(cp)
        applied.append(
            ByteEdit(b, b + len(new_b), b + len(old_b), (row, col), (row, col + len(new_b)), (row, col + len(old_b)))
        )
    return _Before(document, sites, old, new, b"".join(byte_parts), applied, site_bytes, len(old_b) - len(new_b))


def map_to_before(cp: int, sites: list[int], old: str, new: str) -> int:
    """Before-text offset of a current offset (``sites`` ascending)."""
    return cp + (len(old) - len(new)) * bisect_left(sites, cp)


def map_from_before(cp_before: int, sites: list[int], old: str, new: str) -> int:
    """Current offset of a before-text offset (``sites`` ascending)."""
    return _to_current(cp_before, sites, len(old) - len(new))


def _to_current(before: int, sites: list[int], delta: int) -> int:
    """Current offset of a before-text offset, every site (current offsets,
    ascending, non-overlapping) having been ``delta`` longer before."""
    # site i starts, in the before text, at sites[i] + i * delta: ascending
    # too, so the sites before ``before`` are a prefix, found by bisection
    return before - delta * bisect_left(range(len(sites)), before, key=lambda i: sites[i] + i * delta)


@dataclass(frozen=True, slots=True)
class BeforeBinding:
    """The renamed binding as it was before the rename."""

    ranges: list[tuple[int, int]]  # cp ranges in the before text
    file_level: bool  # a top-level definition of the file
    defined_here: bool  # defined in this file (not by an import)
    at_definition: bool  # the developer renamed it where it is defined
    imported: bool  # an import defines it


class BeforeTrees:
    """The before texts' trees of one document lately asked about, kept for
    the next suggest.

    Renaming a second site (a use after the definition) gives a before text
    byte-identical to the first one's; when the current tree's node
    structure is still the same (:attr:`SyntaxTree.structure`: only token
    swaps since), so is the before tree's, and reusing the earlier one keeps
    what its memo learnt (every occurrence of the name classified). The key
    is the structure token and the exact before bytes, so a reused tree is
    the one a fresh computation would build, node for node; anything else
    (another text, a re-parse) builds a new one. Holds a few entries of the
    latest structure only."""

    _KEEP = 2

    def __init__(self) -> None:
        self._structure: object | None = None
        self._trees: dict[tuple[str, bytes], SyntaxTree] = {}

    def tree(self, current: SyntaxTree, before: _Before) -> SyntaxTree:
        """The tree of ``before`` (the current tree with the sites reverted)."""
        structure = current.structure
        if structure is not self._structure:
            self._structure, self._trees = structure, {}
        key = (before.document.uri, before.source)
        found = self._trees.get(key)
        if found is None:
            # Swapping one identifier for another leaves the syntax unchanged:
            # the tree of the before text is the current tree with its offsets
            # edited (``Tree.edit``), no re-parse needed (a re-parse of a large
            # file costs milliseconds even when incremental).
            found = current.with_offsets_moved(before.applied, len(before.source))
            if len(self._trees) >= self._KEEP:
                self._trees.pop(next(iter(self._trees)))
            self._trees[key] = found
        return found


def binding_in_before(
    state: DocumentStateView, before: _Before, anchor_cp: int, trees: BeforeTrees | None = None
) -> BeforeBinding | None:
    """The binding at ``anchor_cp``, resolved in the before text (its tree
    from ``trees`` when given)."""
    from nextedit.syntax import scopes

    if trees is not None:
        tree = trees.tree(state.syntax, before)
    else:
        tree = state.syntax.with_offsets_moved(before.applied, len(before.source))
    anchor_b = before.byte_at(anchor_cp)
    try:
        ranges = scopes.binding_occurrences(tree, before.source, anchor_b)
    except QueryError:  # a grammar whose scope queries do not compile
        log.exception("binding_occurrences failed")
        return None
    if not ranges:
        return None
    ranges = _refine_binding(tree, before.source, ranges, anchor_b)
    starts = tuple(s for s, _ in ranges)
    # a kept tree (``trees``) with the binding it resolved before: a module
    # constant's thousands of uses are each looked at once, not per suggest
    file_level = cast("bool | None", tree.memo.get(("rename.file_level", starts)))
    if file_level is None:
        file_level = tree.memo[("rename.file_level", starts)] = _is_file_level(tree, ranges)
    kept = {s for s, _ in ranges}
    definitions = [
        (s, kind) for s, kind in scopes.binding_definitions(tree, before.source, anchor_b) or () if s in kept
    ]
    anchor_start = next((s for s, e in ranges if s <= anchor_b <= e), anchor_b)
    n = len(before.old)
    # a kept tree (``trees``) describes these very before bytes: so do its cps
    cps = cast("tuple[int, ...] | None", tree.memo.get(("rename.before_cps", starts)))
    if cps is None:
        cps = tuple(before.cps_at(list(starts)))
        tree.memo[("rename.before_cps", starts)] = cps
    return BeforeBinding(
        ranges=[(cp, cp + n) for cp in cps],
        file_level=file_level,
        defined_here=any(not kind.endswith("import") for _, kind in definitions),
        at_definition=any(s == anchor_start and not kind.endswith("import") for s, kind in definitions),
        imported=any(kind.endswith("import") for _, kind in definitions),
    )


_MEMBER_ACCESS = {
    # parent type: (receiver field, member field)
    "attribute": ("object", "attribute"),
    "member_expression": ("object", "property"),
    "field_expression": ("value", "field"),
    "selector_expression": ("operand", "field"),
    "field_access": ("object", "field"),
    "method_invocation": ("object", "name"),
    "scoped_identifier": ("path", "name"),
    "scoped_type_identifier": ("path", "name"),
    "qualified_identifier": ("scope", "name"),
}


def _receiver(node: Node, source: bytes) -> bytes | None:
    """The receiver/path text when ``node`` is the member part of an access."""
    parent = node.parent
    if parent is None:
        return None
    fields = _MEMBER_ACCESS.get(parent.type)
    if fields is None:
        return None
    member = parent.child_by_field_name(fields[1])
    if member is None or member.start_byte != node.start_byte or member.end_byte != node.end_byte:
        return None
    receiver = parent.child_by_field_name(fields[0])
    if receiver is None:
        return None
    return source[receiver.start_byte : receiver.end_byte]


def _refine_binding(
    tree: SyntaxTree, source: bytes, ranges: list[tuple[int, int]], anchor_b: int
) -> list[tuple[int, int]]:
    """Narrow the syntax layer's binding where it is known to be too wide."""
    root = tree.root
    at = next((r for r in ranges if r[0] <= anchor_b < r[1] or r[0] == anchor_b), None)
    anchor = root.named_descendant_for_byte_range(at[0], at[1]) if at is not None else None
    if anchor is None:
        return ranges
    receiver = _receiver(anchor, source)
    # an except clause needs the keyword in the text: without it (or a
    # receiver to compare) the occurrences' nodes are not looked up at all
    split = tree.language == "python" and b"except" in source
    if not split and receiver is None:
        return ranges
    nodes = [(r, root.named_descendant_for_byte_range(r[0], r[1])) for r in ranges]
    if split:
        ranges = _split_except_clauses(nodes, anchor)
        kept = set(ranges)
        nodes = [(r, n) for r, n in nodes if r in kept]
    if receiver is not None:
        # a path (``Pool::new``) names one type's item: other paths are other items
        path = anchor.parent is not None and anchor.parent.type in _PATH_ACCESS
        defined = any(n is not None and _receiver(n, source) is None and is_definition_name(n) for _, n in nodes)
        if path or not defined:
            out = []
            for r, n in nodes:
                other = _receiver(n, source) if n is not None else None
                if other is not None and other != receiver:
                    continue
                if path and other is None and n is not None and not _owned_by(n, source, receiver):
                    continue  # an item of another type (``impl Other { fn new }``)
                out.append(r)
            ranges = out
    return ranges


def _owned_by(node: Node, source: bytes, receiver: bytes) -> bool:
    """Whether ``node`` lies in the body of a type/namespace named like the
    path ``receiver``'s last segment (or is not inside any such owner)."""
    last = re.split(rb"::|\.", receiver)[-1].split(b"<")[0].strip()
    anc = node.parent
    while anc is not None:
        for field in ("type", "name"):
            if anc.type in (
                "impl_item",
                "trait_item",
                "enum_item",
                "struct_item",
                "class_specifier",
                "struct_specifier",
                "namespace_definition",
                "mod_item",
                "class_declaration",
                "enum_declaration",
                "interface_declaration",
                "class_definition",
            ):
                child = anc.child_by_field_name(field)
                if child is not None:
                    text = source[child.start_byte : child.end_byte].split(b"<")[0].strip()
                    return text == last
        anc = anc.parent
    return True


def _split_except_clauses(nodes: list[tuple[tuple[int, int], Node | None]], anchor: Node) -> list[tuple[int, int]]:
    """Python: each ``except … as NAME`` clause binds NAME for itself."""
    clauses = []
    for _, n in nodes:
        if n is None or n.parent is None or n.parent.type != "as_pattern_target":
            continue
        anc = n.parent.parent
        if anc is not None and anc.type == "as_pattern":
            anc = anc.parent
        if anc is not None and anc.type == "except_clause":
            clauses.append((anc.start_byte, anc.end_byte))
    if not clauses:
        return [r for r, _ in nodes]
    home = next((c for c in clauses if c[0] <= anchor.start_byte < c[1]), None)
    if home is not None:
        return [r for r, _ in nodes if home[0] <= r[0] < home[1]]
    return [r for r, _ in nodes if not any(c[0] <= r[0] < c[1] for c in clauses)]


def token_occurrences(text: str, anchor_cp: int) -> list[tuple[int, int]]:
    """Same-name occurrences when there is no grammar (plain tokens)."""
    from nextedit.syntax.tokens import same_name_occurrences

    return same_name_occurrences(text, anchor_cp) or []


def is_definition_name(node: Node) -> bool:
    """Whether ``node`` is the name its parent defines (``name``, ``left``,
    ``declarator``, ``pattern`` field), a path's last segment excepted
    (``_PATH_ACCESS``: ``struct_::f`` uses ``f``)."""
    parent = node.parent
    if parent is None or parent.type in _PATH_ACCESS:
        return False
    for name in _DEFINING_FIELDS:
        child = parent.child_by_field_name(name)
        if child is not None and child.start_byte == node.start_byte and child.end_byte == node.end_byte:
            return True
    return False


def _imports_a_whole_module(node: Node) -> bool:
    """Whether ``node`` names the module of a whole-module import, unaliased
    (Python's ``import subprocess``): changing it swaps one dependency for
    another whose members differ (``subprocess.run`` has no ``sys.run``), so
    the module's uses are no rename of it."""
    path = node.parent
    statement = path.parent if path is not None else None
    return (
        path is not None
        and path.type == "dotted_name"
        and statement is not None
        and statement.type == "import_statement"
    )


def in_import(node: Node) -> bool:
    """Whether ``node`` sits in an import / use declaration (a few levels up)."""
    anc = node.parent
    hops = 0
    while anc is not None and hops < 5:
        if any(h in anc.type for h in _IMPORT_HINTS):
            return True
        anc = anc.parent
        hops += 1
    return False


def _is_file_level(tree: SyntaxTree, ranges: Iterable[tuple[int, int]]) -> bool:
    """Whether one occurrence is a definition whose scope is the whole file."""
    from nextedit.syntax import scopes

    scope_types = scopes.scope_node_types(tree.language)
    root = tree.root
    for start, end in ranges:
        node = root.named_descendant_for_byte_range(start, end)
        if node is None or not is_definition_name(node) or in_import(node):
            continue
        anc = node.parent.parent if node.parent is not None else None
        while anc is not None and anc.id != root.id and anc.type not in scope_types:
            anc = anc.parent
        if anc is None or anc.id == root.id:
            return True
    return False
