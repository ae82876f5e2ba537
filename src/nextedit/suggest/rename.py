"""Rename propagation: the developer renamed an identifier at one site; rename the rest.

Owns the ``rename`` suggester. Evidence is a developer edit that turned one
whole identifier ``OLD`` into another identifier ``NEW`` (at a definition or
a use). The other occurrences *of the same binding* still read ``OLD``;
they are found by resolving the binding in the text as it was *before* the
rename: the renamed site(s) are reverted in a scratch copy of the text, the
syntax tree is edited and re-parsed incrementally (cost grows with the edit,
not the file), and :func:`nextedit.syntax.scopes.binding_occurrences` is asked
at the edited site. Strings and comments are never identifiers, a same-named
variable of another scope is another binding: both stay untouched.

When the binding is a file-level definition (a top-level function, class,
type, constant…), other open documents of the same language get their own
candidates for the occurrences that refer to it (imports of it and
references with no local definition of their own).

Refinements of the syntax layer's binding (which resolves names per
function): a Python ``except … as NAME`` is its own binding per clause (the
name is unbound when the clause ends); a member or path use whose binding
has no definition in the file (``Pool::new``, ``obj.attr``) only renames the
uses with the same receiver text (``Pool::new``, not ``Vec::new``).

Partial renames: when a hunk the developer rewrote still reads OLD at an
occurrence of the binding, they kept it on purpose (``rule_obj =
make(rule)``): silence. When occurrences between two renamed sites were
skipped, only the next occurrence beyond the renamed span is offered.

Without the client's ``rename`` kind the suggestion falls back to an
``edit`` carrying a bounded group (``extra["fallback_edits"]``): the
occurrences in the same function as the renamed site, else those in the
function of the nearest occurrence (else that occurrence alone). An editor
applying it and asking again gets the next group (NES style). ``rename``
itself always carries every occurrence.

Silence when: the edit is not an identifier change; ``NEW`` is a strict
prefix of ``OLD`` (backspacing) or does not parse as an identifier; the
developer earlier renamed ``NEW`` to ``OLD`` (that would rename back); every
occurrence already reads ``NEW``.

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from nextedit.history import DeveloperEdit, is_identifier
from nextedit.suggest.base import DocumentStateView, Proposal, SuggestContext
from nextedit.suggest.model import Candidate, SilenceReason, TextEditCp, TriggerKind
from nextedit.text import Document, utf8

__all__ = ["RenameSuggester", "identifier_renames", "rename_fingerprint"]

log = logging.getLogger(__name__)

# how many of the newest edits may carry the rename evidence
_LOOKBACK = 3
# languages whose documents can refer to each other's top-level names
_FAMILIES: dict[str, str] = {"javascript": "js", "typescript": "js", "tsx": "js"}
# ancestor node types that make an identifier part of an import
_IMPORT_HINTS = ("import", "use_declaration", "use_list", "use_as_clause", "scoped_use_list")
# another open document with more textual occurrences of OLD than this is not
# searched for cross-file references (bounds the work per request)
_CROSS_FILE_MAX_OCCURRENCES = 256
# fields under which a parent names what it defines
_DEFINING_FIELDS = ("name", "left", "declarator", "pattern")


def rename_fingerprint(uri: str, old: str, new: str) -> str:
    return f"rename:{uri}:{old}->{new}"


@dataclass(frozen=True, slots=True)
class _Evidence:
    edit: DeveloperEdit
    old: str
    new: str
    site_cp: int  # where NEW starts in the current text (the site nearest the cursor)
    pure: bool  # the edit changed nothing but the name


class RenameSuggester:
    """Propagates an identifier rename to the rest of its binding."""

    name = "rename"

    def __init__(self) -> None:
        # (uri, version, old, new, sites) -> proposal; suggest is asked often
        # for the same state (cursor moves), the resolution is not free
        self._cache: dict[tuple, Proposal] = {}
        # (other uri, its version, text hash, old) -> OLD starts that refer to another
        # file's top-level OLD; unchanged documents are not searched again
        self._cross_cache: dict[tuple, tuple[int, ...]] = {}

    def propose(self, context: SuggestContext) -> Proposal:
        evidence = _find_evidence(context)
        if evidence is None:
            return SilenceReason.NO_EVIDENCE
        for rank, ev in enumerate(evidence):
            if context.cancelled():
                return SilenceReason.CANCELLED
            if _renames_back(context, ev):
                continue
            fingerprint = rename_fingerprint(context.uri, ev.old, ev.new)
            if fingerprint in context.rejected:
                continue
            result = self._propose_for(context, ev, rank)
            if isinstance(result, list) and result:
                return result
        return SilenceReason.NO_CANDIDATES

    # -- one piece of evidence ----------------------------------------------

    def _propose_for(self, context: SuggestContext, ev: _Evidence, rank: int) -> Proposal:
        sites = _renamed_sites(context.edits, ev.old, ev.new)
        key = (
            context.uri,
            context.document.version,
            ev.old,
            ev.new,
            tuple(sites),
            rank,
            context.rejected,
            context.request.diagnostics if context.request.trigger_kind is TriggerKind.DIAGNOSTIC else (),
        )
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        result = self._resolve(context, ev, sites, rank)
        if len(self._cache) > 32:
            self._cache.clear()
        self._cache[key] = result
        return result

    def _resolve(self, context: SuggestContext, ev: _Evidence, sites: list[int], rank: int) -> Proposal:
        state = context.state
        document = context.document
        text = document.text
        old, new = ev.old, ev.new
        if state.syntax is not None:
            verdict = _check_new_name(state, ev, sites)
            if verdict is not None:
                return verdict

        before = _revert(document, sites, old, new)
        anchor_before = _map_to_before(ev.site_cp, sites, old, new)
        file_level = False
        if state.syntax is not None:
            resolved = _binding_in_before(state, before, anchor_before)
            if resolved is None:
                return SilenceReason.NO_CANDIDATES
            ranges_before, file_level = resolved
        else:
            ranges_before = _token_occurrences(before.text, anchor_before, old)

        site_set = {_map_to_before(s, sites, old, new) for s in sites}
        edits: list[TextEditCp] = []
        for start_b, end_b in ranges_before:
            if start_b in site_set:
                continue
            start = _map_from_before(start_b, sites, old, new)
            if text[start : start + len(old)] != old:
                continue
            edits.append(TextEditCp(start, start + len(old), new))
        edits.sort(key=lambda e: e.start_cp)

        if state.syntax is not None and edits:
            edits = _shorthand_fields(state, edits, old, new)
        base_score = 0.9 if state.syntax is not None else 0.6
        base_score -= 0.1 * rank
        group_edits = _evidence_edits(context.edits, old, new)
        kept = _kept_on_purpose(group_edits, edits)
        if kept:
            log.debug("rename %s→%s: %d occurrence(s) kept in a rewritten hunk: partial", old, new, len(kept))
            return SilenceReason.NO_CANDIDATES
        partial = False
        if len(sites) >= 2 and edits:
            lo, hi = sites[0], sites[-1]
            skipped = [e for e in edits if lo < e.start_cp < hi]
            if skipped:
                outside = [e for e in edits if not lo < e.start_cp < hi]
                if not outside:
                    return SilenceReason.NO_CANDIDATES
                nearest = min(outside, key=lambda e: abs(e.start_cp - ev.site_cp))
                edits = [nearest]
                partial = True
                base_score = min(base_score, 0.6)

        candidates: list[Candidate] = []
        evidence = tuple(_describe_evidence(document, e, old, new) for e in group_edits[-3:])
        if len(sites) > 1:
            evidence += (f"{len(sites)} sites already renamed",)
        if partial:
            evidence += ("occurrences between renamed sites were skipped: only the next one",)
        if edits:
            target = min(edits, key=lambda e: abs(e.start_cp - ev.site_cp)).start_cp
            focus_cp = ev.site_cp
            diagnosed = _diagnosed(context, edits)
            if diagnosed is not None:
                # fix what the editor reports first (e.g. the now-undefined OLD)
                focus_cp = diagnosed.start_cp
                evidence += (f"fixes the diagnostic at line {document.line_of(diagnosed.start_cp) + 1}",)
            fallback = _fallback_group(state, edits, focus_cp)
            candidates.append(
                Candidate(
                    kind="rename",
                    uri=context.uri,
                    edits=tuple(edits),
                    score=base_score,
                    suggester=self.name,
                    evidence=evidence + (f"{len(edits)} more occurrence(s) of the binding",),
                    fingerprint=rename_fingerprint(context.uri, old, new),
                    cursor_cp=None,
                    target_cp=target,
                    new_name=new,
                    extra={
                        "old_name": old,
                        "edited_cp": ev.site_cp,
                        "evidence_seq": ev.edit.seq,
                        "fallback_edits": tuple(fallback),
                    },
                )
            )
        if file_level:
            for other in context.other_states():
                if context.cancelled():
                    break
                cross = _cross_file_edits(state.language, other, old, new, self._cross_cache)
                if cross:
                    candidates.append(
                        Candidate(
                            kind="rename",
                            uri=other.uri,
                            edits=tuple(cross),
                            score=base_score - 0.1,
                            suggester=self.name,
                            evidence=evidence
                            + (f"{len(cross)} reference(s) to the top-level {old} in {other.uri}",),
                            fingerprint=rename_fingerprint(other.uri, old, new),
                            target_cp=cross[0].start_cp,
                            new_name=new,
                            extra={"old_name": old, "cross_file": context.uri},
                        )
                    )
        return candidates if candidates else SilenceReason.NO_CANDIDATES


# -- evidence -------------------------------------------------------------------


def _find_evidence(context: SuggestContext) -> list[_Evidence] | None:
    out: list[_Evidence] = []
    for edit in reversed(context.edits[-_LOOKBACK:]):
        found = identifier_renames(edit)
        if found is None:
            continue
        old, new, sites, pure = found
        if any((e.old, e.new) == (old, new) for e in out):
            continue
        site = min(sites, key=lambda s: abs(s - context.cursor_cp))
        out.append(_Evidence(edit, old, new, site, pure))
    return out or None


_TOKEN_RE = re.compile(r"[\w$]+|\s+|[^\w\s$]")


def identifier_renames(edit: DeveloperEdit) -> tuple[str, str, list[int], bool] | None:
    """``(OLD, NEW, sites, pure)`` when ``edit`` turned identifier OLD into NEW.

    ``sites`` are the current offsets where NEW now starts. A keystroke-level
    edit inside one identifier gives one site; a rewritten line or hunk gives
    every place its token diff replaced OLD by NEW. ``pure`` says that
    nothing else changed. Backspacing (NEW a strict prefix of OLD) is not a
    rename.
    """
    cached = edit.extra.get("identifier_renames", False)
    if cached is not False:
        return cached  # type: ignore[return-value]
    result = _identifier_renames(edit)
    edit.extra["identifier_renames"] = result
    return result


def _identifier_renames(edit: DeveloperEdit) -> tuple[str, str, list[int], bool] | None:
    old, new = edit.old_token, edit.new_token
    if is_identifier(old) and is_identifier(new) and old != new and edit.token_start_cp is not None:
        assert old is not None and new is not None
        if old.startswith(new):
            return None
        return old, new, [edit.token_start_cp], True
    if edit.old_token is not None or not edit.after_lines or len(edit.after_lines) > 20_000:
        return None
    # a rewritten line or hunk: diff its tokens
    a = [(m.start(), m.group()) for m in _TOKEN_RE.finditer(edit.before_lines)]
    b = [(m.start(), m.group()) for m in _TOKEN_RE.finditer(edit.after_lines)]
    matcher = difflib.SequenceMatcher(None, [t for _, t in a], [t for _, t in b], autojunk=False)
    pair: tuple[str, str] | None = None
    sites: list[int] = []
    pure = True
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        olds = [t for _, t in a[i1:i2] if not t.isspace()]
        news = [t for _, t in b[j1:j2] if not t.isspace()]
        if not olds and not news:
            continue
        if op == "replace" and len(olds) == 1 and len(news) == 1 and is_identifier(olds[0]) and is_identifier(news[0]):
            if pair is None:
                pair = (olds[0], news[0])
            elif pair != (olds[0], news[0]):
                return None  # two different renames: ambiguous
            offset = next(pos for pos, t in b[j1:j2] if t == news[0])
            sites.append(edit.lines_start_cp + offset)
        else:
            pure = False
    if pair is None:
        return None
    if pair[0].startswith(pair[1]):
        return None
    return pair[0], pair[1], sites, pure


def _renames_back(context: SuggestContext, ev: _Evidence) -> bool:
    """Whether the developer earlier renamed NEW to OLD (in any open document)."""
    for edit in context.recent_edits(limit=64):
        if edit.seq >= ev.edit.seq:
            continue
        found = identifier_renames(edit)
        if found is not None and found[0] == ev.new and found[1] == ev.old:
            return True
    return False


def _renamed_sites(edits: Sequence[DeveloperEdit], old: str, new: str) -> list[int]:
    """Current offsets (ascending) where the developer already turned OLD into NEW."""
    sites: set[int] = set()
    for edit in edits:
        found = identifier_renames(edit)
        if found is not None and found[0] == old and found[1] == new:
            sites.update(found[2])
    return sorted(sites)


def _shorthand_fields(state: DocumentStateView, edits: list[TextEditCp], old: str, new: str) -> list[TextEditCp]:
    """Field shorthands: ``S { old }`` → ``S { old: new }``; ``{ new: old }`` → ``{ new }``
    (Rust struct literals, JavaScript/TypeScript object literals and patterns)."""
    document = state.document
    root = state.syntax.root
    out: list[TextEditCp] = []
    for edit in edits:
        b = document.byte_offset_at(edit.start_cp)
        node = root.named_descendant_for_byte_range(b, b + len(utf8(old)))
        parent = node.parent if node is not None else None
        if node is None or parent is None:
            out.append(edit)
            continue
        if parent.type == "shorthand_field_initializer" or node.type in (
            "shorthand_property_identifier",
            "shorthand_property_identifier_pattern",
        ):
            out.append(TextEditCp(edit.start_cp, edit.end_cp, f"{old}: {new}"))
            continue
        fields = {"field_initializer": ("field", "value"), "pair": ("key", "value"), "pair_pattern": ("key", "value")}.get(
            parent.type
        )
        if fields is not None:
            key = parent.child_by_field_name(fields[0])
            value = parent.child_by_field_name(fields[1])
            if (
                key is not None
                and value is not None
                and value.start_byte == node.start_byte
                and value.end_byte == node.end_byte
                and document.source_bytes[key.start_byte : key.end_byte] == utf8(new)
            ):
                start = document.cp_offset_at_byte(key.start_byte)
                out.append(TextEditCp(start, edit.end_cp, new))
                continue
        out.append(edit)
    return out


def _diagnosed(context: SuggestContext, edits: Sequence[TextEditCp]) -> TextEditCp | None:
    """With ``triggerKind: diagnostic``, the occurrence a diagnostic of this document covers."""
    if context.request.trigger_kind is not TriggerKind.DIAGNOSTIC:
        return None
    for diag in context.request.diagnostics:
        if diag.uri != context.uri:
            continue
        for edit in edits:
            if edit.start_cp <= diag.end_cp and edit.end_cp >= diag.start_cp:
                return edit
    return None


def _evidence_edits(edits: Sequence[DeveloperEdit], old: str, new: str) -> list[DeveloperEdit]:
    """The developer edits (oldest first) that renamed OLD to NEW somewhere."""
    out = []
    for edit in edits:
        found = identifier_renames(edit)
        if found is not None and found[0] == old and found[1] == new:
            out.append(edit)
    return out


def _kept_on_purpose(group: Sequence[DeveloperEdit], remaining: Sequence[TextEditCp]) -> list[TextEditCp]:
    """Remaining occurrences inside a rewritten hunk (not a keystroke-level
    token edit) that renamed OLD elsewhere: the developer saw them and kept them."""
    kept: list[TextEditCp] = []
    for edit in group:
        if edit.old_token is not None:  # typed inside one identifier: saw nothing else
            continue
        lo, hi = edit.start_cp, edit.new_end_cp
        kept.extend(e for e in remaining if lo <= e.start_cp and e.end_cp <= hi)
    return kept


def _describe_evidence(document: Document, edit: DeveloperEdit, old: str, new: str) -> str:
    line = document.line_of(min(edit.start_cp, len(document.text))) + 1
    return f"edit #{edit.seq} at line {line}: `{old}`→`{new}`"


# function-like nodes: the unit of a bounded fallback group
_FUNCTION_TYPES = frozenset(
    {
        "function_definition",
        "function_declaration",
        "function_item",
        "method_declaration",
        "method_definition",
        "constructor_declaration",
        "function_expression",
        "arrow_function",
        "generator_function",
        "generator_function_declaration",
        "method",
        "singleton_method",
        "func_literal",
    }
)


def _fallback_group(state: DocumentStateView, edits: Sequence[TextEditCp], site_cp: int) -> list[TextEditCp]:
    """The occurrences an ``edit`` fallback carries (see the module docstring)."""
    if state.syntax is None or len(edits) <= 1:
        return list(edits)
    from nextedit.syntax import scopes

    document = state.document

    def function_span(cp: int) -> tuple[int, int] | None:
        b = document.byte_offset_at(cp)
        try:
            node = scopes.enclosing_node(state.syntax, b, b, _FUNCTION_TYPES)
        except Exception:  # noqa: BLE001
            return None
        return None if node is None else (node.start_byte, node.end_byte)

    def inside(span: tuple[int, int], e: TextEditCp) -> bool:
        b = document.byte_offset_at(e.start_cp)
        return span[0] <= b < span[1]

    span = function_span(site_cp)
    if span is not None:
        group = [e for e in edits if inside(span, e)]
        if group:
            return group
    nearest = min(edits, key=lambda e: abs(e.start_cp - site_cp))
    span = function_span(nearest.start_cp)
    if span is None:
        return [nearest]
    return [e for e in edits if inside(span, e)]


def _check_new_name(state: DocumentStateView, ev: _Evidence, sites: list[int]) -> SilenceReason | None:
    """Silence unless NEW parses as an identifier at the site and names nothing
    that existed before (else the developer re-pointed a use at another
    binding, which is not a rename). An edit that changed more than the name
    counts only at a definition (``def foo(a)`` → ``def bar(a, b)``)."""
    from nextedit.syntax import scopes

    document = state.document
    source = document.source_bytes
    start_b = document.byte_offset_at(ev.site_cp)
    end_b = document.byte_offset_at(ev.site_cp + len(ev.new))
    try:
        found = scopes.identifier_at(state.syntax, source, start_b)
        if found is None or found[0] != start_b or found[1] != end_b:
            return SilenceReason.NO_EVIDENCE
        if not ev.pure:
            node = state.syntax.root.named_descendant_for_byte_range(start_b, end_b)
            if node is None or not _defines(node):
                return SilenceReason.NO_EVIDENCE
        ranges = scopes.binding_occurrences(state.syntax, source, start_b) or []
    except Exception:  # noqa: BLE001
        log.exception("rename: resolving the new name failed")
        return SilenceReason.NO_EVIDENCE
    site_bytes = {document.byte_offset_at(s) for s in sites}
    if any(start not in site_bytes for start, _ in ranges):
        return SilenceReason.NO_EVIDENCE  # NEW was already a name there
    return None


# -- the text before the rename ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _RevertEdit:
    """A tree-sitter edit (the fields ``Tree.edit`` reads)."""

    start_byte: int
    old_end_byte: int
    new_end_byte: int
    start_point: tuple[int, int]
    old_end_point: tuple[int, int]
    new_end_point: tuple[int, int]


@dataclass(slots=True)
class _Before:
    """The text with every renamed site reading OLD again, described through
    the current document (no second line index: cost grows with the sites)."""

    document: Document
    sites: list[int]  # current cp offsets, ascending
    old: str
    new: str
    source: bytes
    applied: list[_RevertEdit]
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
        cp = _map_from_before(cp_before, self.sites, self.old, self.new)
        b = self.document.byte_offset_at(cp)
        return b + self.byte_delta * sum(1 for sb in self.site_bytes if sb < b)

    def cp_at(self, byte_before: int) -> int:
        """Before-text cp offset of a before-text byte offset (outside the sites)."""
        shift = 0
        for i, sb in enumerate(self.site_bytes):
            if sb + i * self.byte_delta < byte_before:
                shift += 1
        cp = self.document.cp_offset_at_byte(byte_before - self.byte_delta * shift)
        return _map_to_before(cp, self.sites, self.old, self.new)


def _revert(document: Document, sites: list[int], old: str, new: str) -> _Before:
    """The before text: every renamed site reads OLD again."""
    source = document.source_bytes
    old_b, new_b = utf8(old), utf8(new)
    site_bytes = [document.byte_offset_at(s) for s in sites]
    applied: list[_RevertEdit] = []
    byte_parts: list[bytes] = []
    prev_b = 0
    for b in site_bytes:
        byte_parts += [source[prev_b:b], old_b]
        prev_b = b + len(new_b)
    byte_parts.append(source[prev_b:])
    # tree edits in descending order: each stays valid for the text left by the previous
    for cp, b in zip(reversed(sites), reversed(site_bytes)):
        row, col = document.point_at(cp)
        applied.append(
            _RevertEdit(b, b + len(new_b), b + len(old_b), (row, col), (row, col + len(new_b)), (row, col + len(old_b)))
        )
    return _Before(
        document, sites, old, new, b"".join(byte_parts), applied, site_bytes, len(old_b) - len(new_b)
    )


def _map_to_before(cp: int, sites: list[int], old: str, new: str) -> int:
    delta = len(old) - len(new)
    return cp + delta * sum(1 for s in sites if s < cp)


def _map_from_before(cp_before: int, sites: list[int], old: str, new: str) -> int:
    delta = len(old) - len(new)
    shift = 0
    for i, s in enumerate(sites):
        # site i starts, in the before text, at s + i * delta
        if s + i * delta < cp_before:
            shift += 1
    return cp_before - delta * shift


def _binding_in_before(
    state: DocumentStateView, before: _Before, anchor_cp: int
) -> tuple[list[tuple[int, int]], bool] | None:
    """Occurrences (cp ranges in the before text) of the binding at ``anchor_cp``,
    and whether it is a file-level definition."""
    from nextedit.syntax import scopes

    # Swapping one identifier for another leaves the syntax unchanged: the
    # tree of the before text is the current tree with its offsets edited
    # (``Tree.edit``), no re-parse needed (a re-parse of a large file costs
    # milliseconds even when incremental).
    tree = state.syntax.with_offsets_moved(before.applied, len(before.source))
    anchor_b = before.byte_at(anchor_cp)
    try:
        ranges = scopes.binding_occurrences(tree, before.source, anchor_b)
    except Exception:  # noqa: BLE001
        log.exception("binding_occurrences failed")
        return None
    if not ranges:
        return None
    ranges = _refine_binding(tree, before.source, ranges, anchor_b)
    file_level = _is_file_level(tree, ranges)
    return [(before.cp_at(s), before.cp_at(s) + len(before.old)) for s, e in ranges], file_level


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


_PATH_ACCESS = frozenset({"scoped_identifier", "scoped_type_identifier", "qualified_identifier"})


def _receiver(node, source: bytes) -> bytes | None:  # type: ignore[no-untyped-def]
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


def _refine_binding(tree, source: bytes, ranges: list[tuple[int, int]], anchor_b: int) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    """Narrow the syntax layer's binding where it is known to be too wide."""
    root = tree.root
    nodes = [(r, root.named_descendant_for_byte_range(r[0], r[1])) for r in ranges]
    anchor = next((n for r, n in nodes if r[0] <= anchor_b < r[1] or r[0] == anchor_b), None)
    if anchor is None:
        return ranges
    if tree.language == "python":
        ranges = _split_except_clauses(nodes, anchor)
        nodes = [(r, n) for r, n in nodes if r in set(ranges)]
    receiver = _receiver(anchor, source)
    if receiver is not None:
        # a path (``Pool::new``) names one type's item: other paths are other items
        path = anchor.parent is not None and anchor.parent.type in _PATH_ACCESS
        defined = any(n is not None and _receiver(n, source) is None and _defines(n) for _, n in nodes)
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


def _owned_by(node, source: bytes, receiver: bytes) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``node`` lies in the body of a type/namespace named like the
    path ``receiver``'s last segment (or is not inside any such owner)."""
    last = re.split(rb"::|\.", receiver)[-1].split(b"<")[0].strip()
    anc = node.parent
    while anc is not None:
        for field in ("type", "name"):
            if anc.type in ("impl_item", "trait_item", "enum_item", "struct_item", "class_specifier",
                            "struct_specifier", "namespace_definition", "mod_item", "class_declaration",
                            "enum_declaration", "interface_declaration", "class_definition"):
                child = anc.child_by_field_name(field)
                if child is not None:
                    text = source[child.start_byte : child.end_byte].split(b"<")[0].strip()
                    return text == last
        anc = anc.parent
    return True


def _split_except_clauses(nodes, anchor) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
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


def _token_occurrences(text: str, anchor_cp: int, name: str) -> list[tuple[int, int]]:
    """Same-name occurrences when there is no grammar (plain tokens)."""
    try:
        from nextedit.syntax.tokens import same_name_occurrences
    except ImportError:
        same_name_occurrences = None
    if same_name_occurrences is not None:
        try:
            return [tuple(r) for r in same_name_occurrences(text, anchor_cp)]  # type: ignore[misc]
        except Exception:  # noqa: BLE001
            log.exception("same_name_occurrences failed")
            return []
    pattern = re.compile(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])")
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


# -- file-level bindings and other documents -------------------------------------------


def _defines(node) -> bool:  # type: ignore[no-untyped-def]
    parent = node.parent
    if parent is None:
        return False
    for name in _DEFINING_FIELDS:
        child = parent.child_by_field_name(name)
        if child is not None and child.start_byte == node.start_byte and child.end_byte == node.end_byte:
            return True
    return False


def _in_import(node) -> bool:  # type: ignore[no-untyped-def]
    anc = node.parent
    hops = 0
    while anc is not None and hops < 5:
        if any(h in anc.type for h in _IMPORT_HINTS):
            return True
        anc = anc.parent
        hops += 1
    return False


def _is_member(node) -> bool:  # type: ignore[no-untyped-def]
    """``obj.name``-like: the identifier is the attribute/field part of an access."""
    parent = node.parent
    if parent is None:
        return False
    for field in ("attribute", "property", "field", "name"):
        child = parent.child_by_field_name(field)
        if child is not None and child.start_byte == node.start_byte and child.end_byte == node.end_byte:
            return parent.type in {
                "attribute",
                "member_expression",
                "field_expression",
                "selector_expression",
                "field_access",
                "scoped_identifier",
            }
    return False


def _is_file_level(tree, ranges: Iterable[tuple[int, int]]) -> bool:  # type: ignore[no-untyped-def]
    """Whether one occurrence is a definition whose scope is the whole file."""
    from nextedit.syntax import scopes

    scope_types = scopes.scope_node_types(tree.language)
    root = tree.root
    for start, end in ranges:
        node = root.named_descendant_for_byte_range(start, end)
        if node is None or not _defines(node) or _in_import(node):
            continue
        anc = node.parent.parent if node.parent is not None else None
        while anc is not None and anc.id != root.id and anc.type not in scope_types:
            anc = anc.parent
        if anc is None or anc.id == root.id:
            return True
    return False


def _same_family(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return False
    return a == b or (_FAMILIES.get(a) is not None and _FAMILIES.get(a) == _FAMILIES.get(b))


def _cross_file_edits(
    language: str | None,
    other: DocumentStateView,
    old: str,
    new: str,
    cache: dict[tuple, tuple[int, ...]] | None = None,
) -> list[TextEditCp]:
    """OLD occurrences in ``other`` that refer to a top-level OLD of another file:
    bindings defined by an import, or with no definition in ``other``.

    Cost is bounded: a document without OLD is skipped after one C-speed
    count; one with more than :data:`_CROSS_FILE_MAX_OCCURRENCES` textual
    occurrences is skipped (too common a name to rename across files
    safely or cheaply); the answer for one version of ``other`` is cached."""
    if other.syntax is None or not _same_family(language, other.language):
        return []
    document = other.document
    # the text's hash (computed once per str object, then cached by Python)
    # tells a re-opened document with the same version number apart
    key = (other.uri, document.version, hash(document.text), old)
    starts = cache.get(key) if cache is not None else None
    if starts is None:
        starts = _cross_file_starts(other, old)
        if cache is not None:
            if len(cache) > 64:
                cache.clear()
            cache[key] = starts
    end = len(old)
    return [TextEditCp(cp, cp + end, new) for cp in starts]


def _cross_file_starts(other: DocumentStateView, old: str) -> tuple[int, ...]:
    from nextedit.syntax import scopes

    document = other.document
    text = document.text
    count = text.count(old)
    if count == 0:
        return ()
    if count > _CROSS_FILE_MAX_OCCURRENCES:
        log.debug("rename: %d occurrences of %s in %s: not searched", count, old, other.uri)
        return ()
    source = document.source_bytes
    root = other.syntax.root
    seen: set[int] = set()
    out: list[int] = []
    for start in _word_starts(text, old):
        start_b = document.byte_offset_at(start)
        if start_b in seen:
            continue
        try:
            ranges = scopes.binding_occurrences(other.syntax, source, start_b)
        except Exception:  # noqa: BLE001
            log.exception("binding_occurrences failed")
            return ()
        if not ranges:
            continue
        nodes = [root.named_descendant_for_byte_range(s, e) for s, e in ranges]
        seen.update(s for s, _ in ranges)
        if any(n is None or _is_member(n) for n in nodes):
            continue
        if any(_defines(n) and not _in_import(n) for n in nodes):
            continue  # a binding of its own in that file
        for s, _e in ranges:
            cp = document.cp_offset_at_byte(s)
            if text[cp : cp + len(old)] == old:
                out.append(cp)
    out.sort()
    return tuple(out)


_WORD_CHAR = re.compile(r"[\w$]")


def _word_starts(text: str, name: str) -> list[int]:
    """Starts of ``name`` in ``text`` not inside a longer word (``str.find``;
    the same matches as a regex with ``[\\w$]`` boundaries)."""
    out: list[int] = []
    n = len(name)
    pos = text.find(name)
    while pos != -1:
        end = pos + n
        if not (pos and _WORD_CHAR.match(text, pos - 1)) and not _WORD_CHAR.match(text, end):
            out.append(pos)
        pos = text.find(name, pos + 1)
    return out
