"""Rename occurrences: the binding's remaining occurrences shaped into edits, here and in other documents.

Owns what follows once the occurrences are known: field shorthands
(``S { old }`` → ``S { old: new }``), the occurrence a diagnostic covers,
the one occurrence an ``edit`` fallback carries (the next after the
cursor), and the references to a file-level binding in the other open
documents of the same language family (bounded, and cached per document
version).

Must not know about the edit history or the before text
(:mod:`nextedit.suggest.rename.evidence`,
:mod:`nextedit.suggest.rename.binding`), nor LSP/ACP or position encodings.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

from tree_sitter import Node, QueryError

from nextedit.suggest.model import TextEditCp, TriggerKind
from nextedit.suggest.rename.binding import in_import, is_definition_name
from nextedit.suggest.suggester import DocumentStateView, SuggestContext
from nextedit.syntax import get_language
from nextedit.text import utf8
from nextedit.text.lexical import is_word_char, word_hits

log = logging.getLogger(__name__)


# languages whose documents can refer to each other's top-level names
_FAMILIES: dict[str, str] = {"javascript": "js", "typescript": "js", "tsx": "js"}
# another open document with more textual occurrences of OLD than this is not
# searched for cross-file references (bounds the work per request)
_CROSS_FILE_MAX_OCCURRENCES = 256


def shorthand_fields(state: DocumentStateView, edits: list[TextEditCp], old: str, new: str) -> list[TextEditCp]:
    """Field shorthands: ``S { old }`` → ``S { old: new }``; ``{ new: old }`` → ``{ new }``
    (Rust struct literals, JavaScript/TypeScript object literals and patterns)."""
    document = state.document
    language = state.syntax.language
    if not _has_shorthands(language):
        # no shorthand to write out, and no pair to fold into one: a Python
        # dict's ``{new: old}`` is not ``{new}`` (a set)
        return list(edits)
    root = state.syntax.root
    text = document.text
    # only an occurrence the text says may be a field is looked up in the
    # tree (and converted to bytes for it): a name used thousands of times
    # has a handful of such places
    maybe = [e.start_cp for e in edits if _may_be_field(text, e.start_cp, e.end_cp, new)]
    at_byte = dict(zip(maybe, document.byte_offsets_at(maybe), strict=True))
    old_len = len(utf8(old))
    out: list[TextEditCp] = []
    for edit in edits:
        b = at_byte.get(edit.start_cp)
        if b is None:
            out.append(edit)  # no field syntax can hold it: no node lookup
            continue
        node = root.named_descendant_for_byte_range(b, b + old_len)
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
        fields = {
            "field_initializer": ("field", "value"),
            "pair": ("key", "value"),
            "pair_pattern": ("key", "value"),
        }.get(parent.type)
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


# the node types shorthand_fields looks at (as a parent, or as the node)
_FIELD_SYNTAX = (
    "shorthand_field_initializer",
    "shorthand_property_identifier",
    "shorthand_property_identifier_pattern",
    "field_initializer",
    "pair",
    "pair_pattern",
)


@functools.cache
def _has_shorthands(language: str) -> bool:
    """Whether the grammar has field shorthands (Rust, JavaScript/TypeScript):
    only there is ``{ old }`` written out and ``{ new: new }`` folded."""
    lang = get_language(language)
    return any(lang.id_for_node_kind(kind, True) is not None for kind in _FIELD_SYNTAX[:3])


def _may_be_field(text: str, start: int, end: int, new: str) -> bool:
    """Whether the occurrence ``text[start:end]`` can be a shorthand (after
    ``{``, ``,``, an attribute's ``]`` or a comment, and before ``,``,
    ``}``, a default's ``=`` or a comment) or the value of a key that reads
    ``new`` (``new: old``); a line break on either side keeps it possible.
    A cheap necessary condition: the syntax tree decides."""
    if _may_follow(text, start, "/\\{,]") and _may_precede(text, end, ",}=/"):
        return True
    if not _may_follow(text, start, ":"):
        return False
    colon = text.rfind(":", 0, start)
    head = text[max(0, colon - len(new) - 64) : colon].rstrip()
    if head.endswith("/"):
        return True  # a comment between the key and its colon
    if not head.endswith(new):
        return False
    before = head[: len(head) - len(new)]
    return not before or not is_word_char(before[-1])


def _may_follow(text: str, at: int, chars: str) -> bool:
    """Whether the last non-blank character before ``at`` is one of ``chars``,
    or is on an earlier line (where a comment may end)."""
    i = at - 1
    while i >= 0 and text[i] in " \t\f\v":
        i -= 1
    return i >= 0 and (text[i] in chars or text[i] in "\r\n")


def _may_precede(text: str, at: int, chars: str) -> bool:
    """Whether the first non-blank character from ``at`` is one of ``chars``,
    or is on a later line (or the text ends)."""
    i = at
    while i < len(text) and text[i] in " \t\f\v":
        i += 1
    return i >= len(text) or text[i] in chars or text[i] in "\r\n"


def diagnosed_occurrence(context: SuggestContext, edits: Sequence[TextEditCp]) -> TextEditCp | None:
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


def next_occurrence(edits: Sequence[TextEditCp], cursor_cp: int) -> TextEditCp:
    """The one occurrence an ``edit`` fallback carries: the nearest at or
    after the cursor (a developer finishing a rename by hand sweeps down from
    the site they renamed), else the last before it. ``edits`` is not empty."""
    after = [e for e in edits if e.start_cp >= cursor_cp]
    if after:
        return min(after, key=lambda e: e.start_cp)
    return max(edits, key=lambda e: e.start_cp)


def is_member(node: Node) -> bool:
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


def _same_family(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return False
    return a == b or (_FAMILIES.get(a) is not None and _FAMILIES.get(a) == _FAMILIES.get(b))


def cross_file_edits(
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
    for start in word_starts(text, old):
        start_b = document.byte_offset_at(start)
        if start_b in seen:
            continue
        try:
            ranges = scopes.binding_occurrences(other.syntax, source, start_b)
        except QueryError:  # another document's grammar whose queries do not compile
            log.exception("binding_occurrences failed in %s", other.uri)
            return ()
        if not ranges:
            continue
        nodes = [root.named_descendant_for_byte_range(s, e) for s, e in ranges]
        seen.update(s for s, _ in ranges)
        if any(n is None or is_member(n) for n in nodes):
            continue
        if any(is_definition_name(n) and not in_import(n) for n in nodes):
            continue  # a binding of its own in that file
        for s, _e in ranges:
            cp = document.cp_offset_at_byte(s)
            if text[cp : cp + len(old)] == old:
                out.append(cp)
    out.sort()
    return tuple(out)


def word_starts(text: str, name: str) -> list[int]:
    """Starts of ``name`` in ``text`` not inside a longer word (the same
    matches as a regex with ``[\\w$]`` boundaries)."""
    return [pos for pos, whole in word_hits(text, name) if whole]
