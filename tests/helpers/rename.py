"""Rename tests: fixtures with the renamed site and the expected occurrences marked.

Fixture notation: ``⟦old⟧`` is the site the developer renames; ``‹old›`` marks
each occurrence the suggestion must rename; every other occurrence of the
name must stay as it is.
"""

from __future__ import annotations

from nextedit.suggest.model import SuggestionKinds
from nextedit.text import PositionEncoding
from tests.helpers.session import Editor, apply_edits_to, apply_suggestion


def parse_fixture(fixture: str) -> tuple[str, int, str, list[int]]:
    """``(text, site_cp, old, expected_cps)`` with the markers removed."""
    text = ""
    site = -1
    old = ""
    expected: list[int] = []
    i = 0
    while i < len(fixture):
        ch = fixture[i]
        if ch == "⟦":
            end = fixture.index("⟧", i)
            site, old = len(text), fixture[i + 1 : end]
            text += old
            i = end + 1
        elif ch == "‹":
            end = fixture.index("›", i)
            expected.append(len(text))
            text += fixture[i + 1 : end]
            i = end + 1
        else:
            text += ch
            i += 1
    return text, site, old, expected


def expected_text(text: str, site: int, old: str, new: str, occurrences: list[int]) -> str:
    for cp in sorted([site, *occurrences], reverse=True):
        assert text[cp : cp + len(old)] == old
        text = text[:cp] + new + text[cp + len(old) :]
    return text


def check(
    language_id: str,
    uri: str,
    fixture: str,
    new: str,
    *,
    kinds: SuggestionKinds = SuggestionKinds(),
    encoding: PositionEncoding = PositionEncoding.UTF16,
    keystrokes: bool = False,
):
    text, site, old, occurrences = parse_fixture(fixture)
    editor = Editor(kinds, encoding)
    editor.open(uri, language_id, text)
    if keystrokes:  # select the name, type the new one char by char
        cursor = editor.replace(uri, site, site + len(old), new[0])
        cursor = editor.type(uri, cursor, new[1:])
    else:
        cursor = editor.rename_at(uri, site, old, new)
    suggestions = editor.suggest(uri, cursor)
    if not occurrences:
        assert suggestions == [], suggestions
        return editor, None
    assert suggestions, "expected a rename suggestion"
    first = suggestions[0]
    assert first.suggester == "rename"
    assert first.kind == ("rename" if kinds.rename else "edit")
    want = expected_text(text, site, old, new, occurrences)
    if kinds.rename:
        assert apply_edits_to(editor.text(uri), first, encoding) == want
        return editor, first
    # an ``edit`` fallback renames one occurrence; asked again, the next one
    suggestion = first
    for _ in occurrences:
        assert suggestion.suggester == "rename" and suggestion.kind == "edit", suggestion
        assert len(suggestion.edits) == 1, suggestion.edits
        apply_suggestion(editor.session, suggestion)
        following = editor.suggest(uri, cursor)
        if not following:
            break
        suggestion = following[0]
    assert editor.text(uri) == want
    return editor, first
