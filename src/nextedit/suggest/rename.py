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
from nextedit.suggest.model import Candidate, SilenceReason, TextEditCp
from nextedit.text import Document, utf8

__all__ = ["RenameSuggester", "identifier_renames", "rename_fingerprint"]

log = logging.getLogger(__name__)

# how many of the newest edits may carry the rename evidence
_LOOKBACK = 3
# languages whose documents can refer to each other's top-level names
_FAMILIES: dict[str, str] = {"javascript": "js", "typescript": "js", "tsx": "js"}
# ancestor node types that make an identifier part of an import
_IMPORT_HINTS = ("import", "use_declaration", "use_list", "use_as_clause", "scoped_use_list")
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
        key = (context.uri, context.document.version, ev.old, ev.new, tuple(sites), rank, context.rejected)
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

        candidates: list[Candidate] = []
        line = document.line_of(ev.site_cp) + 1
        evidence = (f"renamed {old} → {new} at line {line}",)
        if len(sites) > 1:
            evidence += (f"{len(sites)} sites already renamed",)
        base_score = 0.9 if state.syntax is not None else 0.6
        base_score -= 0.1 * rank
        if edits:
            target = min(edits, key=lambda e: abs(e.start_cp - ev.site_cp)).start_cp
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
                    extra={"old_name": old, "edited_cp": ev.site_cp, "evidence_seq": ev.edit.seq},
                )
            )
        if file_level:
            for other in context.other_states():
                if context.cancelled():
                    break
                cross = _cross_file_edits(state.language, other, old, new)
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
    text: str
    source: bytes
    applied: list[_RevertEdit]
    site_bytes: list[int]  # current byte offsets of the sites
    byte_delta: int

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
    text = document.text
    source = document.source_bytes
    old_b, new_b = utf8(old), utf8(new)
    site_bytes = [document.byte_offset_at(s) for s in sites]
    applied: list[_RevertEdit] = []
    text_parts: list[str] = []
    byte_parts: list[bytes] = []
    prev_cp = prev_b = 0
    for cp, b in zip(sites, site_bytes):
        text_parts += [text[prev_cp:cp], old]
        byte_parts += [source[prev_b:b], old_b]
        prev_cp, prev_b = cp + len(new), b + len(new_b)
    text_parts.append(text[prev_cp:])
    byte_parts.append(source[prev_b:])
    # tree edits in descending order: each stays valid for the text left by the previous
    for cp, b in zip(reversed(sites), reversed(site_bytes)):
        row, col = document.point_at(cp)
        applied.append(
            _RevertEdit(b, b + len(new_b), b + len(old_b), (row, col), (row, col + len(new_b)), (row, col + len(old_b)))
        )
    return _Before(
        document, sites, old, new, "".join(text_parts), b"".join(byte_parts), applied, site_bytes, len(old_b) - len(new_b)
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
    from nextedit.syntax import SyntaxTree

    edited = state.syntax.tree.copy()
    for edit in before.applied:
        edited.edit(
            start_byte=edit.start_byte,
            old_end_byte=edit.old_end_byte,
            new_end_byte=edit.new_end_byte,
            start_point=edit.start_point,
            old_end_point=edit.old_end_point,
            new_end_point=edit.new_end_point,
        )
    tree = SyntaxTree(state.syntax.language, edited, len(before.source))
    anchor_b = before.byte_at(anchor_cp)
    try:
        ranges = scopes.binding_occurrences(tree, before.source, anchor_b)
    except Exception:  # noqa: BLE001
        log.exception("binding_occurrences failed")
        return None
    if not ranges:
        return None
    file_level = _is_file_level(tree, ranges)
    return [(before.cp_at(s), before.cp_at(s) + len(before.old)) for s, e in ranges], file_level


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


def _cross_file_edits(language: str | None, other: DocumentStateView, old: str, new: str) -> list[TextEditCp]:
    """OLD occurrences in ``other`` that refer to a top-level OLD of another file:
    bindings defined by an import, or with no definition in ``other``."""
    from nextedit.syntax import scopes

    if other.syntax is None or not _same_family(language, other.language):
        return []
    document = other.document
    text = document.text
    source = document.source_bytes
    root = other.syntax.root
    pattern = re.compile(r"(?<![\w$])" + re.escape(old) + r"(?![\w$])")
    seen: set[int] = set()
    out: list[TextEditCp] = []
    for match in pattern.finditer(text):
        start_b = document.byte_offset_at(match.start())
        if start_b in seen:
            continue
        try:
            ranges = scopes.binding_occurrences(other.syntax, source, start_b)
        except Exception:  # noqa: BLE001
            log.exception("binding_occurrences failed")
            return []
        if not ranges:
            continue
        nodes = [root.named_descendant_for_byte_range(s, e) for s, e in ranges]
        seen.update(s for s, _ in ranges)
        if any(n is None or _is_member(n) for n in nodes):
            continue
        if any(_defines(n) and not _in_import(n) for n in nodes):
            continue  # a binding of its own in that file
        for s, e in ranges:
            cp = document.cp_offset_at_byte(s)
            if text[cp : cp + len(old)] == old:
                out.append(TextEditCp(cp, cp + len(old), new))
    out.sort(key=lambda e: e.start_cp)
    return out
