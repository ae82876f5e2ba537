"""LSP wire types ⇄ core types: the bridge's ``from_wire``/``to_wire`` pair.

In: lsprotocol positions, ranges and content changes become
:mod:`nextedit.text` values (no arithmetic: LSP positions are already in the
negotiated encoding, which is the session's encoding); the custom Copilot
methods arrive as plain JSON and are read leniently here, naming the field
that is wrong.

Out: a :class:`~nextedit.session.PlacedSuggestion` becomes Copilot inline
edits (plain JSON), an inline-completion item, a code action with a versioned
``WorkspaceEdit``, or a ``window/showDocument`` request. Anything that needs
the text of the document (dropping no-op edits, building a same-line
completion) asks :class:`~nextedit.text.Document`, the only place that
converts between encodings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from nextedit.session import PlacedEdit, PlacedSuggestion
from nextedit.text import Document, Position, PositionEncoding, Range, TextChange

__all__ = [
    "ACCEPT_COMMAND",
    "REJECT_COMMAND",
    "ParamsError",
    "change_from_wire",
    "code_action",
    "effective_edits",
    "field",
    "inline_completion_item",
    "inline_edits_json",
    "position_from_json",
    "plain_json",
    "position_from_wire",
    "range_from_wire",
    "range_to_wire",
    "show_document_params",
    "text_document_from_json",
    "workspace_edit",
]

ACCEPT_COMMAND = "nextedit.accept"
REJECT_COMMAND = "nextedit.reject"
CODE_ACTION_KIND = types.CodeActionKind.RefactorRewrite


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


def _position_json(position: Position) -> dict[str, int]:
    return {"line": position.line, "character": position.character}


def _range_json(range_: Range) -> dict[str, Any]:
    return {"start": _position_json(range_.start), "end": _position_json(range_.end)}


def effective_edits(
    suggestion: PlacedSuggestion, document: Document, encoding: PositionEncoding
) -> tuple[PlacedEdit, ...]:
    """The suggestion's edits minus those that change nothing (e.g. the site already renamed)."""
    kept = []
    for edit in suggestion.edits:
        start, end = document.range_offsets(edit.range, encoding)
        if document.text[start:end] != edit.new_text:
            kept.append(edit)
    return tuple(kept)


def _command_json(suggestion: PlacedSuggestion) -> dict[str, Any]:
    return {"title": "Accept next edit", "command": ACCEPT_COMMAND, "arguments": [suggestion.id]}


def inline_edits_json(suggestion: PlacedSuggestion, edits: Sequence[PlacedEdit]) -> list[dict[str, Any]]:
    """``copilotInlineEdit`` items: one per edit, each carrying the suggestion's accept command."""
    document_id = {"uri": suggestion.uri, "version": suggestion.version}
    return [
        {
            "text": edit.new_text,
            "textDocument": document_id,
            "range": _range_json(edit.range),
            "command": _command_json(suggestion),
        }
        for edit in edits
    ]


def workspace_edit(
    suggestion: PlacedSuggestion, edits: Sequence[PlacedEdit], *, document_changes: bool
) -> types.WorkspaceEdit:
    """Every edit of the suggestion, pinned to the version it was computed for."""
    text_edits = [types.TextEdit(range=range_to_wire(e.range), new_text=e.new_text) for e in edits]
    if not document_changes:  # a client that cannot check versions
        return types.WorkspaceEdit(changes={suggestion.uri: text_edits})
    identifier = types.OptionalVersionedTextDocumentIdentifier(uri=suggestion.uri, version=suggestion.version)
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=identifier, edits=text_edits)])


def _plural(count: int, word: str) -> str:
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}es" if word.endswith("ch") else f"{count} {word}s"


def _title(suggestion: PlacedSuggestion, count: int) -> str:
    if suggestion.kind == "jump" and suggestion.position is not None:
        return f"Go to next edit (line {suggestion.position.line + 1})"
    if suggestion.kind == "rename" and suggestion.new_name:
        return f"Rename to `{suggestion.new_name}` ({_plural(count, 'occurrence')})"
    if suggestion.kind == "searchAndReplace" and suggestion.search is not None:
        mode = "regex " if suggestion.is_regex else ""
        return f"Replace {mode}`{suggestion.search}` with `{suggestion.replace}` ({_plural(count, 'match')})"
    if count == 1 and suggestion.edits:
        return f"Apply next edit (line {suggestion.edits[0].range.start.line + 1})"
    return f"Apply next edit ({_plural(count, 'place')})"


def code_action(
    suggestion: PlacedSuggestion,
    edits: Sequence[PlacedEdit],
    *,
    preferred: bool,
    document_changes: bool,
) -> types.CodeAction:
    """A ``refactor.rewrite`` action: the edit, then the accept command (a jump: the command only)."""
    title = _title(suggestion, len(edits))
    command = types.Command(title=title, command=ACCEPT_COMMAND, arguments=[suggestion.id])
    edit = workspace_edit(suggestion, edits, document_changes=document_changes) if edits else None
    return types.CodeAction(
        title=title,
        kind=CODE_ACTION_KIND,
        is_preferred=preferred or None,
        edit=edit,
        command=command,
    )


def inline_completion_item(
    suggestion: PlacedSuggestion,
    edits: Sequence[PlacedEdit],
    document: Document,
    encoding: PositionEncoding,
    cursor: Position,
) -> types.InlineCompletionItem | None:
    """The suggestion as one replacement on the cursor line, or ``None`` when it reaches elsewhere.

    The item's range spans the edits and the cursor, so clients that expect
    the range to contain the cursor accept it.
    """
    if not edits or any(e.range.start.line != cursor.line or e.range.end.line != cursor.line for e in edits):
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
        insert_text="".join(pieces),
        range=range_to_wire(replaced),
        command=types.Command(title="Accept next edit", command=ACCEPT_COMMAND, arguments=[suggestion.id]),
    )


def show_document_params(suggestion: PlacedSuggestion) -> types.ShowDocumentParams | None:
    """Where a jump leads: the target as an empty selection, focused."""
    if suggestion.position is None:
        return None
    target = range_to_wire(Range(suggestion.position, suggestion.position))
    return types.ShowDocumentParams(uri=suggestion.uri, take_focus=True, selection=target)
