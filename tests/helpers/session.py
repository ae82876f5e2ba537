"""Shared helpers for engine-level tests: drive a real ``Session`` and apply its answers.

Fixtures are plain source text with one marked site ``⟦old⟧``: the test
replaces the marked identifier with a new one through ``did_change`` (as an
editor would send it), asks for suggestions with the cursor at the end of the
new identifier, and applies what came back.
"""

from __future__ import annotations

from nextedit.session import PlacedSuggestion, Session
from nextedit.suggest.model import Candidate, SuggestionKinds, SuggestRequest
from nextedit.text import Document, Position, PositionEncoding, Range, TextChange


def position(text: str, cp: int, enc: PositionEncoding = PositionEncoding.UTF16) -> Position:
    return Document("x", "", 0, text).position_at(cp, enc)


def apply_suggestion(session: Session, suggestion: PlacedSuggestion) -> str:
    """The text of ``suggestion.uri`` after applying the suggestion's edits (via did_change)."""
    state = session.documents[suggestion.uri]
    changes = [
        TextChange(e.range, e.new_text)
        for e in sorted(suggestion.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
    ]
    session.did_change(suggestion.uri, state.document.version + 1, changes)
    return state.document.text


def apply_edits_to(text: str, suggestion: PlacedSuggestion, enc: PositionEncoding) -> str:
    """Apply ``suggestion.edits`` to ``text`` without touching the session."""
    doc = Document("x", "", 0, text)
    spans = sorted(
        ((doc.offset_at(e.range.start, enc), doc.offset_at(e.range.end, enc), e.new_text) for e in suggestion.edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


class Editor:
    """A tiny scripted editor over one Session."""

    def __init__(
        self,
        kinds: SuggestionKinds = SuggestionKinds(),
        encoding: PositionEncoding = PositionEncoding.UTF16,
    ) -> None:
        self.session = Session("test", encoding=encoding, kinds=kinds)
        self.encoding = encoding

    def open(self, uri: str, language_id: str, text: str) -> None:
        self.session.did_open(uri, language_id, 1, text)

    def text(self, uri: str) -> str:
        return self.session.documents[uri].document.text

    def replace(self, uri: str, start_cp: int, end_cp: int, new_text: str) -> int:
        """Replace a cp range (sent in the session encoding); returns the cursor cp after it."""
        doc = self.session.documents[uri].document
        rng = Range(doc.position_at(start_cp, self.encoding), doc.position_at(end_cp, self.encoding))
        version = doc.version + 1
        assert self.session.did_change(uri, version, [TextChange(rng, new_text)])
        return start_cp + len(new_text)

    def type(self, uri: str, at_cp: int, chars: str) -> int:
        """Type ``chars`` one keystroke at a time at ``at_cp``."""
        for ch in chars:
            at_cp = self.replace(uri, at_cp, at_cp, ch)
        return at_cp

    def backspace(self, uri: str, at_cp: int, count: int) -> int:
        for _ in range(count):
            at_cp = self.replace(uri, at_cp - 1, at_cp, "")
        return at_cp

    def suggest(self, uri: str, cursor_cp: int, **kwargs) -> list[PlacedSuggestion]:
        doc = self.session.documents[uri].document
        return self.session.suggest(uri, doc.version, doc.position_at(cursor_cp, self.encoding), **kwargs)

    def rename_at(self, uri: str, fixture_start: int, old: str, new: str) -> int:
        return self.replace(uri, fixture_start, fixture_start + len(old), new)


class Script:
    """A session and the developer's edits, made by text."""

    def __init__(self, text: str, language: str = "python", uri: str = "file:///w/t.py") -> None:
        self.uri = uri
        self.session = Session("t", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(jump=True))
        self.session.engine.strict = True
        self.session.did_open(uri, language, 1, text)
        self.cursor = 0

    @property
    def text(self) -> str:
        return self.session.documents[self.uri].document.text

    def change(self, old: str, new: str, nth: int = 0) -> None:
        doc = self.session.documents[self.uri].document
        start = -1
        for _ in range(nth + 1):
            start = doc.text.index(old, start + 1)
        rng = Range(
            doc.position_at(start, PositionEncoding.UTF32), doc.position_at(start + len(old), PositionEncoding.UTF32)
        )
        self.session.did_change(self.uri, doc.version + 1, [TextChange(rng, new)])
        self.cursor = start + len(new)

    def ranked(self) -> tuple[Candidate, ...]:
        """Every candidate the engine ranks at the cursor (before the threshold)."""
        doc = self.session.documents[self.uri].document
        request = SuggestRequest(self.uri, doc.version, self.cursor)
        return self.session.engine.rank(self.session, request, self.session.kinds, frozenset()).candidates

    def changes(self) -> list[tuple[str, str, str, str]]:
        """``(suggester, family, text replaced, new text)`` of every ranked candidate."""
        text = self.text
        return [
            (c.suggester, c.features.family, text[e.start_cp : e.end_cp], e.new_text)
            for c in self.ranked()
            for e in c.edits[:1]
        ]

    def applied(self, suggester: str, family: str | None = None) -> list[str]:
        """The text after each candidate of ``suggester`` (and ``family``), applied alone."""
        out = []
        for c in self.ranked():
            if c.suggester != suggester or (family is not None and c.features.family != family):
                continue
            text = self.text
            for e in sorted(c.edits, key=lambda e: e.start_cp, reverse=True):
                text = text[: e.start_cp] + e.new_text + text[e.end_cp :]
            out.append(text)
        return out
