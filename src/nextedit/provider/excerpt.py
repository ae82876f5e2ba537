"""What a next-edit model is shown: the region around the cursor and the developer's recent edits.

Owns :class:`Excerpt` (the editable region around the cursor and the
read-only context around it, as code-point offsets of the request's text),
:class:`EditEvent` (one developer edit as a unified-diff hunk with its file's
path) and :func:`path_of` (a document's path as the model sees it: relative
to the workspace when inside it).

The sizes follow Zed's zeta1 (``crates/edit_prediction/src/zeta1.rs`` and
``cursor_excerpt.rs`` in zed-industries/zed): a token is guessed as 3 UTF-8
bytes; the editable region grows a line at a time, one line up then one
down, from the cursor's line until its budget is spent (Zed first widens to
the enclosing syntax node that fits; we grow by lines only), and the context
grows the same way around it; recent edits are taken newest first until
:data:`EVENT_TOKENS` (Zed's ``MAX_EVENT_TOKENS``) or :data:`MAX_EVENTS`
(``MAX_EVENT_COUNT``), then shown oldest first. Zed renders each edit as the
unified diff of the whole buffer before and after it; ours is the hunk of
one developer edit with three lines of context, in current line numbers.

Must not know: the wire, HTTP, any prompt's markers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from nextedit.history import DeveloperEdit
from nextedit.text import Document, split_lines

__all__ = [
    "BYTES_PER_TOKEN",
    "CONTEXT_TOKENS",
    "EVENT_TOKENS",
    "MAX_EVENTS",
    "EditEvent",
    "Excerpt",
    "edit_events",
    "excerpt_around",
    "guess_tokens",
    "path_of",
]

BYTES_PER_TOKEN = 3
#: read-only context around the editable region (Zed's zeta1 ``MAX_CONTEXT_TOKENS``)
CONTEXT_TOKENS = 150
#: recent edits shown (Zed's ``MAX_EVENT_TOKENS``, ``MAX_EVENT_COUNT``)
EVENT_TOKENS = 500
MAX_EVENTS = 16
_HUNK_CONTEXT = 3


def guess_tokens(text: str) -> int:
    """Zed's ``guess_token_count``: UTF-8 bytes / 3."""
    return len(text.encode("utf-8", "surrogatepass")) // BYTES_PER_TOKEN


@dataclass(frozen=True)
class Excerpt:
    """The part of one document the model sees, in code-point offsets of ``text``.

    ``context_start ≤ editable_start ≤ cursor ≤ editable_end ≤ context_end``;
    the editable region starts at a line start and ends at a line end (before
    its line break).
    """

    path: str
    text: str
    context_start: int
    editable_start: int
    cursor: int
    editable_end: int
    context_end: int

    @property
    def editable(self) -> str:
        return self.text[self.editable_start : self.editable_end]

    @property
    def at_file_start(self) -> bool:
        return self.context_start == 0


def _line_tokens(document: Document, line: int) -> int:
    return max(1, guess_tokens(document.line_text(line)))


def _has_line_after(document: Document, line: int) -> bool:
    return document.line_end(line, with_break=True) > document.line_end(line)


def _grow(document: Document, first: int, last: int, budget: int) -> tuple[int, int]:
    """Zed's ``expand_range``: one line up, then one down, while tokens remain."""
    while True:
        grew = False
        if budget > 0 and first > 0:
            first -= 1
            budget -= _line_tokens(document, first)
            grew = True
        if budget > 0 and _has_line_after(document, last):
            last += 1
            budget -= _line_tokens(document, last)
            grew = True
        if not grew:
            return first, last


def excerpt_around(
    document: Document, cursor_cp: int, path: str, editable_tokens: int, context_tokens: int = CONTEXT_TOKENS
) -> Excerpt:
    """The editable region (``editable_tokens``) and its context around ``cursor_cp``."""
    cursor_cp = min(max(cursor_cp, 0), len(document.text))
    line = document.line_of(cursor_cp)
    first, last = _grow(document, line, line, editable_tokens)
    context_first, context_last = _grow(document, first, last, context_tokens)
    return Excerpt(
        path=path,
        text=document.text,
        context_start=document.line_start(context_first),
        editable_start=document.line_start(first),
        cursor=cursor_cp,
        editable_end=document.line_end(last),
        context_end=document.line_end(context_last),
    )


@dataclass(frozen=True)
class EditEvent:
    """One developer edit: the path of its file and a unified-diff hunk (no ``---``/``+++`` lines)."""

    path: str
    hunk: str


def _hunk(edit: DeveloperEdit, document: Document) -> str | None:
    """``@@ -a,b +c,d @@`` then context, removed and added lines; ``None`` when not describable."""
    if edit.before_lines == edit.after_lines or edit.lines_start_cp > len(document.text):
        return None
    removed = split_lines(edit.before_lines)
    added = split_lines(edit.after_lines)
    first = document.line_of(edit.lines_start_cp)
    last = first + len(added) - 1
    before = [document.line_text(n) for n in range(max(0, first - _HUNK_CONTEXT), first)]
    after: list[str] = []
    line = last
    # (the empty "line" after a final line break is no line of a diff)
    while len(after) < _HUNK_CONTEXT and document.line_end(line, with_break=True) < len(document.text):
        line += 1
        after.append(document.line_text(line))
    start = first - len(before) + 1
    header = (
        f"@@ -{start},{len(before) + len(removed) + len(after)} +{start},{len(before) + len(added) + len(after)} @@"
    )
    body = [f" {x}" for x in before] + [f"-{x}" for x in removed] + [f"+{x}" for x in added]
    body += [f" {x}" for x in after]
    return "\n".join([header, *body])


def edit_events(
    edits: Iterable[tuple[str, DeveloperEdit, Document]],
    *,
    budget_tokens: int = EVENT_TOKENS,
    max_events: int = MAX_EVENTS,
) -> list[EditEvent]:
    """The newest edits that fit the budget, oldest first; ``edits`` are ``(path, edit, its document)``."""
    newest_first = sorted(edits, key=lambda item: item[1].seq, reverse=True)
    picked: list[EditEvent] = []
    for path, edit, document in newest_first:
        if len(picked) >= max_events:
            break
        hunk = _hunk(edit, document)
        if hunk is None:
            continue
        cost = guess_tokens(hunk) + guess_tokens(path)
        if cost > budget_tokens:
            break
        budget_tokens -= cost
        picked.append(EditEvent(path, hunk))
    picked.reverse()
    return picked


def path_of(uri: str, workspace_uri: str | None = None) -> str:
    """The document's path as the model sees it: relative to the workspace when inside it."""
    if not uri.startswith("file:"):
        return uri
    path = unquote(urlsplit(uri).path)
    if workspace_uri and workspace_uri.startswith("file:"):
        root = unquote(urlsplit(workspace_uri).path).rstrip("/")
        if root and path.startswith(root + "/"):
            return path[len(root) + 1 :]
    return path
