"""Repeated-edit tests: a plain-text editor that keeps the developer's edits in
current offsets, and the engine's context for one request over it."""

from __future__ import annotations

from dataclasses import dataclass, field

from nextedit.history import DeveloperEdit, EditHistory
from nextedit.suggest.model import SuggestionKinds, SuggestRequest
from nextedit.suggest.repeat.synthesis import PastEdit, synthesize
from nextedit.suggest.suggester import SuggestContext
from nextedit.syntax import SyntaxTree
from nextedit.text import Document


class Editor:
    """A plain-text editor that keeps the developer's edits in current offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.edits: list[PastEdit] = []
        self.seq = 0

    def change(self, old: str, new: str, nth: int = 0) -> int:
        start = -1
        for _ in range(nth + 1):
            start = self.text.index(old, start + 1)
        end = start + len(old)
        delta = len(new) - len(old)
        kept = []
        for e in self.edits:
            if e.new_end <= start:
                kept.append(e)
            elif e.start >= end:
                kept.append(PastEdit(e.start + delta, e.old, e.new, e.seq))
        self.seq += 1
        kept.append(PastEdit(start, old, new, self.seq))
        self.edits = kept
        self.text = self.text[:start] + new + self.text[end:]
        return start + len(new)

    def suggest(self, cursor: int | None = None):
        cursor = self.edits[-1].new_end if cursor is None and self.edits else (cursor or 0)
        return synthesize(self.text, self.edits, cursor)

    def first(self, cursor: int | None = None) -> str | None:
        """The text after applying the first site of the best proposal."""
        proposals = self.suggest(cursor)
        if not proposals:
            return None
        site = proposals[0].sites[0]
        return self.text[: site.start] + site.new_text + self.text[site.end :]


@dataclass
class _State:
    """A document state as the engine sees it (``session.DocumentState``)."""

    document: Document
    language: str | None = None
    syntax: object = None
    history: EditHistory = field(default_factory=lambda: EditHistory("file:///t.py"))
    focus: object = None

    @property
    def uri(self) -> str:
        return self.document.uri


class _Workspace:
    def __init__(self, state: _State) -> None:
        self.state = state

    def get(self, uri: str):
        return self.state if uri == self.state.uri else None

    def states(self):
        return [self.state]


def suggest_context(
    ed: Editor, kinds: SuggestionKinds = SuggestionKinds(), *, language: str = "python", syntax: bool = False
) -> SuggestContext:
    """The engine's context for a request at the end of ``ed``'s newest edit
    (version 7 of ``file:///t.py``); with ``syntax``, the text parsed as ``language``."""
    uri = "file:///t.py"
    doc = Document(uri, language, 7, ed.text)
    state = _State(doc, language, SyntaxTree.parse(language, ed.text.encode()) if syntax else None)
    edits = tuple(DeveloperEdit(uri, e.seq, 7, e.start, e.old, e.new) for e in ed.edits)
    request = SuggestRequest(uri, 7, ed.edits[-1].new_end if ed.edits else 0)
    return SuggestContext(_Workspace(state), request, state, kinds, edits)
