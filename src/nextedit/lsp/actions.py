"""Code actions that say what they do: one per suggestion, titled with the change itself.

Owns the titles and the assembly of ``refactor.rewrite`` code actions from
the session's :class:`~nextedit.session.PlacedSuggestion`\\ s:

- an edit reads ``line 7: assertEquals → assertEqual (3 more)`` — the change
  widened to whole words, where it is, and how many other sites of the same
  repeated edit the answer knows of;
- a search-and-replace is the **apply at every site** action:
  ``Apply at every site: assertEquals → assertEqual (4 sites)``, one
  versioned ``WorkspaceEdit`` with every match;
- a rename reads ``Rename area → surface (3 occurrences in main.py)``;
- a jump reads ``Go to line 41: size → count``, naming the edit it leads to.

"Other sites of the same repeated edit" are read from the answer itself: a
one-site edit belongs to the search-and-replace whose matches include it,
or else to the other one-site edits with the same change. The engine keeps
at most a few one-site edits per answer, so without a search-and-replace the
count is a lower bound.

Reads the text only to widen a change to whole words for its title, through
:class:`~nextedit.text.Document`. Knows nothing of pygls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from posixpath import basename
from urllib.parse import unquote, urlparse

from lsprotocol import types

from nextedit.lsp import convert
from nextedit.session import PlacedEdit, PlacedSuggestion
from nextedit.text import Document, PositionEncoding
from nextedit.text.lexical import is_plain_word_char

__all__ = ["ActionContext", "change_label", "code_actions", "describe", "title"]

_SHOWN = 40  # characters of old/new text in a title


@dataclass(frozen=True)
class ActionContext:
    """What titles need: the request's document, the session's documents, the encoding."""

    uri: str
    document_of: Callable[[str], Document | None]
    encoding: PositionEncoding
    document_changes: bool


def _shown(text: str) -> str:
    lines = text.strip().splitlines() or [""]
    first = lines[0].strip()
    more = len(lines) > 1
    if len(first) > _SHOWN:
        first, more = first[: _SHOWN - 1], True
    return first + ("…" if more else "")


def describe(old: str, new: str) -> str:
    """``old → new`` for a title; an insertion or a deletion says so."""
    if not old.strip():
        return f"insert {_shown(new)}"
    if not new.strip():
        return f"delete {_shown(old)}"
    return f"{_shown(old)} → {_shown(new)}"


def change_label(edit: PlacedEdit, document: Document | None, encoding: PositionEncoding) -> str:
    """The change an edit makes, widened to whole words (``s`` → `` `` reads ``assertEquals → assertEqual``)."""
    if document is None:
        return describe("", edit.new_text)
    start, end = document.range_offsets(edit.range, encoding)
    text = document.text
    low, high = start, end
    while low > 0 and is_plain_word_char(text[low - 1]):
        low -= 1
    while high < len(text) and is_plain_word_char(text[high]):
        high += 1
    return describe(text[low:high], text[low:start] + edit.new_text + text[end:high])


def _file_name(uri: str) -> str:
    return basename(unquote(urlparse(uri).path)) or uri


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _where(suggestion: PlacedSuggestion, line: int, context: ActionContext) -> str:
    place = f"line {line + 1}"
    return place if suggestion.uri == context.uri else f"{_file_name(suggestion.uri)} {place}"


def _label(suggestion: PlacedSuggestion, context: ActionContext) -> str:
    return change_label(suggestion.edits[0], context.document_of(suggestion.uri), context.encoding)


def _siblings(suggestion: PlacedSuggestion, answer: Sequence[PlacedSuggestion], context: ActionContext) -> int:
    """How many other sites of this one-site edit's repeated change the answer knows of."""
    if len(suggestion.edits) != 1:
        return 0
    (edit,) = suggestion.edits
    for other in answer:
        if other.kind == "searchAndReplace" and other.uri == suggestion.uri and edit in other.edits:
            return len(other.edits) - 1
    label = _label(suggestion, context)
    return sum(
        1
        for other in answer
        if other is not suggestion
        and other.kind == "edit"
        and other.uri == suggestion.uri
        and len(other.edits) == 1
        and _label(other, context) == label
    )


def title(suggestion: PlacedSuggestion, answer: Sequence[PlacedSuggestion], context: ActionContext) -> str:
    """What applying ``suggestion`` does, in a few words (see the module docstring)."""
    if suggestion.kind == "jump":
        target = suggestion.position
        line = target.line if target is not None else 0
        where = _where(suggestion, line, context)
        follows = [s for s in answer if s.kind != "jump" and s.uri == suggestion.uri and s.edits]
        return f"Go to {where}: {_label(follows[0], context)}" if follows else f"Go to next edit ({where})"
    count = len(suggestion.edits)
    label = _label(suggestion, context)
    elsewhere = "" if suggestion.uri == context.uri else f" in {_file_name(suggestion.uri)}"
    if suggestion.kind == "rename" and suggestion.new_name:
        return f"Rename {label} ({_plural(count, 'occurrence')}{elsewhere})"
    if suggestion.kind == "searchAndReplace":
        return f"Apply at every site: {label} ({_plural(count, 'site')}{elsewhere})"
    where = _where(suggestion, suggestion.edits[0].range.start.line, context)
    if count > 1:
        return f"{where}: {label} ({_plural(count, 'place')})"
    more = _siblings(suggestion, answer, context)
    return f"{where}: {label}" + (f" ({more} more)" if more else "")


def code_actions(answer: Sequence[PlacedSuggestion], context: ActionContext) -> list[types.CodeAction]:
    """One action per suggestion, best first; the first that edits is preferred.

    An action applies its versioned ``WorkspaceEdit`` and then runs the
    accept command (a jump: the command only, which moves the cursor).
    """
    actions = []
    preferred_given = False
    for suggestion in answer:
        name = title(suggestion, answer, context)
        edit = None
        if suggestion.edits:
            edit = convert.workspace_edit(
                [convert.DocumentEdits.of(suggestion)], document_changes=context.document_changes
            )
        preferred = edit is not None and not preferred_given
        preferred_given = preferred_given or preferred
        actions.append(
            types.CodeAction(
                title=name,
                kind=convert.CODE_ACTION_KIND,
                is_preferred=preferred or None,
                edit=edit,
                command=convert.accept_command(suggestion, name),
            )
        )
    return actions
