"""LSP wire types ⇄ core types: the bridge's ``from_wire``/``to_wire`` pair, and the only place positions become LSP.

In: lsprotocol positions, ranges and content changes become
:mod:`nextedit.text` values (no arithmetic: LSP positions are already in the
negotiated encoding, which is the session's encoding); the custom Copilot
methods arrive as plain JSON and are read leniently here, naming the field
that is wrong.

Out: core positions and ranges become lsprotocol values in
:func:`position_to_wire` / :func:`range_to_wire` — nowhere else — and plain
JSON (for the untyped Copilot methods) is those values unstructured by
lsprotocol's own converter (:func:`to_json`). Edits are grouped by document
into versioned ``WorkspaceEdit``\\ s (:func:`workspace_edit`), so an edit of
another file can never land in the buffer the request came from.

The engine already dropped edits that change nothing; nothing here converts
positions back to offsets, except :func:`inline_completion_item`, which must
read the text around the cursor (through :class:`~nextedit.text.Document`,
the only place that converts between encodings).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from lsprotocol.converters import get_converter

from nextedit.session import PlacedEdit, PlacedSuggestion
from nextedit.text import Document, Position, PositionEncoding, Range, TextChange

__all__ = [
    "ACCEPT_COMMAND",
    "CODE_ACTION_KIND",
    "REJECT_COMMAND",
    "DocumentEdits",
    "ParamsError",
    "accept_command",
    "change_from_wire",
    "field",
    "inline_completion_item",
    "inline_edits_json",
    "plain_json",
    "position_from_json",
    "position_from_wire",
    "position_to_wire",
    "range_from_wire",
    "range_to_wire",
    "show_document_params",
    "text_document_from_json",
    "to_json",
    "workspace_edit",
]

ACCEPT_COMMAND = "nextedit.accept"
REJECT_COMMAND = "nextedit.reject"
CODE_ACTION_KIND = types.CodeActionKind.RefactorRewrite

_CONVERTER = get_converter()


class ParamsError(ValueError):
    """Params of a custom method that cannot be read; the message names the field."""


# -- in -----------------------------------------------------------------------


def position_from_wire(position: types.Position) -> Position:
    return Position(position.line, position.character)


def range_from_wire(range_: types.Range) -> Range:
    return Range(position_from_wire(range_.start), position_from_wire(range_.end))


def change_from_wire(change: Any) -> TextChange:
    """One ``contentChanges`` entry; without a range it replaces the whole text."""
    range_ = getattr(change, "range", None)
    return TextChange(range_from_wire(range_) if range_ is not None else None, change.text)


def plain_json(value: Any) -> Any:
    """pygls hands untyped params over as nested namedtuples; turn them back into JSON values."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {key: plain_json(item) for key, item in value._asdict().items()}
    if isinstance(value, dict):
        return {key: plain_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain_json(item) for item in value]
    return value


def field(obj: Any, name: str, path: str | None = None) -> Any:
    """``obj[name]`` of a JSON object, or :class:`ParamsError` naming the missing field."""
    if isinstance(obj, dict) and name in obj:
        return obj[name]
    raise ParamsError(f"missing {path or name}")


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParamsError(f"{path} must be an integer")
    return value


def position_from_json(obj: Any, path: str = "position") -> Position:
    """A JSON ``{line, character}``; negative numbers clamp to 0 (the text layer clamps the rest)."""
    line = _int(field(obj, "line", f"{path}.line"), f"{path}.line")
    character = _int(field(obj, "character", f"{path}.character"), f"{path}.character")
    return Position(max(line, 0), max(character, 0))


def text_document_from_json(obj: Any, path: str = "textDocument") -> tuple[str, int | None]:
    """``(uri, version)`` of a JSON text document identifier; ``version`` may be absent."""
    uri = field(obj, "uri", f"{path}.uri")
    if not isinstance(uri, str):
        raise ParamsError(f"{path}.uri must be a string")
    try:
        version = field(obj, "version", f"{path}.version")
    except ParamsError:
        return uri, None
    if version is None:
        return uri, None
    return uri, _int(version, f"{path}.version")


# -- out ----------------------------------------------------------------------


def position_to_wire(position: Position) -> types.Position:
    return types.Position(line=position.line, character=position.character)


def range_to_wire(range_: Range) -> types.Range:
    return types.Range(start=position_to_wire(range_.start), end=position_to_wire(range_.end))


def to_json(value: Any) -> Any:
    """An lsprotocol value as plain JSON (for the untyped Copilot methods)."""
    return _CONVERTER.unstructure(value)


def text_edit(edit: PlacedEdit) -> types.TextEdit:
    return types.TextEdit(range=range_to_wire(edit.range), new_text=edit.new_text)


@dataclass(frozen=True)
class DocumentEdits:
    """Edits of one document, at the version they were computed for."""

    uri: str
    version: int
    edits: tuple[PlacedEdit, ...]

    @classmethod
    def of(cls, suggestion: PlacedSuggestion, edits: Sequence[PlacedEdit] | None = None) -> DocumentEdits:
        return cls(suggestion.uri, suggestion.version, tuple(suggestion.edits if edits is None else edits))


def _grouped(changes: Iterable[DocumentEdits]) -> list[DocumentEdits]:
    """One entry per document, in first-seen order (edits of the same document and version merged)."""
    merged: dict[tuple[str, int], list[PlacedEdit]] = {}
    for change in changes:
        merged.setdefault((change.uri, change.version), []).extend(change.edits)
    return [DocumentEdits(uri, version, tuple(edits)) for (uri, version), edits in merged.items() if edits]


def workspace_edit(changes: Iterable[DocumentEdits], *, document_changes: bool) -> types.WorkspaceEdit:
    """Edits grouped by document, each group pinned to its version (a client refuses stale ones).

    Clients that cannot check versions get the unversioned ``changes`` map.
    """
    groups = _grouped(changes)
    if not document_changes:
        return types.WorkspaceEdit(changes={g.uri: [text_edit(e) for e in g.edits] for g in groups})
    return types.WorkspaceEdit(
        document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=g.uri, version=g.version),
                edits=[text_edit(e) for e in g.edits],
            )
            for g in groups
        ]
    )


def accept_command(suggestion: PlacedSuggestion, title: str = "Accept next edit") -> types.Command:
    return types.Command(title=title, command=ACCEPT_COMMAND, arguments=[suggestion.id])


def inline_edits_json(suggestion: PlacedSuggestion) -> list[dict[str, Any]]:
    """``copilotInlineEdit`` items: one per edit, each naming its document and version and
    carrying the suggestion's accept command."""
    document = to_json(types.VersionedTextDocumentIdentifier(uri=suggestion.uri, version=suggestion.version))
    command = to_json(accept_command(suggestion))
    return [
        {
            "text": edit.new_text,
            "textDocument": document,
            "range": to_json(range_to_wire(edit.range)),
            "command": command,
        }
        for edit in suggestion.edits
    ]


def inline_completion_item(
    suggestion: PlacedSuggestion,
    document: Document,
    encoding: PositionEncoding,
    cursor: Position,
) -> types.InlineCompletionItem | None:
    """The suggestion as one replacement on the cursor line, or ``None`` when it reaches elsewhere.

    The item's range spans the edits and the cursor, so clients that expect
    the range to contain the cursor accept it.
    """
    edits = suggestion.edits
    if (
        suggestion.uri != document.uri
        or not edits
        or any(e.range.start.line != cursor.line or e.range.end.line != cursor.line for e in edits)
    ):
        return None
    offsets = sorted((*document.range_offsets(e.range, encoding), e.new_text) for e in edits)
    cursor_cp = document.offset_at(cursor, encoding)
    low = min(offsets[0][0], cursor_cp)
    high = max(max(end for _, end, _ in offsets), cursor_cp)
    text = document.text
    pieces, at = [], low
    for start, end, new_text in offsets:
        if start < at:  # overlapping edits: not a single replacement
            return None
        pieces.append(text[at:start])
        pieces.append(new_text)
        at = end
    pieces.append(text[at:high])
    replaced = Range(document.position_at(low, encoding), document.position_at(high, encoding))
    return types.InlineCompletionItem(
        insert_text="".join(pieces), range=range_to_wire(replaced), command=accept_command(suggestion)
    )


def show_document_params(uri: str, position: Position) -> types.ShowDocumentParams:
    """Open ``uri`` with the cursor at ``position`` (an empty selection), focused."""
    return types.ShowDocumentParams(uri=uri, take_focus=True, selection=range_to_wire(Range(position, position)))
