"""A dismissed suggestion's change stays dismissed, whichever rule makes it.

The developer renamed two calls of ``process_as_html`` to
``breakout_to_html`` and dismissed the third. Several rules of the repeat
suggester make that same change (``.process_as_html(`` and the wider
``return self.process_as_html(t, tb)``): dismissing one rule's suggestion
must not bring the change straight back through another, nor the jump's
edit once the jump was dismissed. Making the change again themselves gives
it back.
"""

from __future__ import annotations

from nextedit.session import PlacedSuggestion
from nextedit.suggest.filters import change_key
from nextedit.suggest.model import SuggestionKinds, TextEditCp
from tests.helpers.session import Editor

URI = "file:///w/builder.py"
FILLER = "".join(f"    def helper_{i}(self):\n        return {i}\n\n" for i in range(20))


def _source(filler: str) -> str:
    return (
        "import html\n\n\n"
        "class Builder:\n"
        "    def insert(self, t, tb):\n"
        "        if t.is_start():\n"
        "            return self.process_as_html(t, tb)\n"
        "        if t.is_end():\n"
        "            return self.process_as_html(t, tb)\n"
        "        return False\n\n" + filler + "    def insert_more(self, t, tb):\n"
        "        if t.is_comment():\n"
        "            return self.process_as_html(t, tb)\n"
        "        if t.is_doctype():\n"
        "            return self.process_as_html(t, tb)\n"
        "        return False\n\n"
        "    def process_as_html(self, t, tb):\n"
        "        return html.escape(str(t))\n\n"
        "    def breakout_to_html(self, t, tb):\n"
        "        return html.escape(str(tb))\n"
    )


def _rename_next_call(editor: Editor) -> int:
    text = editor.text(URI)
    at = text.index("self.process_as_html(t") + len("self.")
    return editor.replace(URI, at, at + len("process_as_html"), "breakout_to_html")


def _two_calls_renamed(filler: str = "", kinds: SuggestionKinds = SuggestionKinds()) -> tuple[Editor, int]:
    editor = Editor(kinds=kinds)
    editor.open(URI, "python", _source(filler))
    _rename_next_call(editor)
    return editor, _rename_next_call(editor)


def _renames_a_call(suggestion: PlacedSuggestion) -> bool:
    return suggestion.kind == "edit" and [e.new_text for e in suggestion.edits] == ["breakout_to"]


def test_a_dismissed_change_does_not_come_back_through_another_rule() -> None:
    editor, cursor = _two_calls_renamed()
    first = editor.suggest(URI, cursor)
    assert first and _renames_a_call(first[0])
    editor.session.reject(first[0].id, "ignored")
    assert editor.suggest(URI, cursor) == []


def test_a_dismissed_jump_dismisses_the_edit_it_leads_to() -> None:
    editor, cursor = _two_calls_renamed(FILLER, SuggestionKinds(jump=True))
    first = editor.suggest(URI, cursor)
    assert first and first[0].kind == "jump"
    editor.session.reject(first[0].id, "ignored")
    assert editor.suggest(URI, cursor) == []


def test_making_the_change_again_brings_it_back() -> None:
    editor, cursor = _two_calls_renamed()
    first = editor.suggest(URI, cursor)
    editor.session.reject(first[0].id, "ignored")
    cursor = _rename_next_call(editor)  # the third call, by hand
    again = editor.suggest(URI, cursor)
    assert again and _renames_a_call(again[0])
    text = editor.text(URI)
    assert again[0].edits[0].range.start.line == text[: text.index("self.process_as_html(t")].count("\n")


def test_the_change_key_names_the_change_not_the_place() -> None:
    text = "a = old_name(x)\nb = old_name(y)\n"
    here = TextEditCp(4, 12, "new_name")
    there = TextEditCp(20, 28, "new_name")
    assert change_key(URI, (here,), text) == change_key(URI, (there,), text) != ""
    assert change_key(URI, (here,), text) != change_key("file:///w/other.py", (here,), text)
    assert change_key(URI, (TextEditCp(4, 12, "other"),), text) != change_key(URI, (here,), text)
    assert change_key(URI, (TextEditCp(3, 4, "  "),), text) == ""  # blanks only
    assert change_key(URI, (), text) == ""


def test_a_suggestion_replaced_or_cancelled_is_offered_again_one_turned_down_is_not() -> None:
    """ACP's ``replaced`` and ``cancelled`` are no word from the developer: a client
    re-asking on every keystroke replaces each answer with the next, often the
    same change, and the change must stay. ``rejected``, ``ignored`` or no reason
    dismiss it."""
    for reason, offered_again in (
        ("replaced", True),
        ("cancelled", True),
        ("rejected", False),
        ("ignored", False),
        (None, False),
    ):
        editor, cursor = _two_calls_renamed()
        first = editor.suggest(URI, cursor)
        assert first and _renames_a_call(first[0])
        editor.session.reject(first[0].id, reason)
        again = editor.suggest(URI, cursor)
        assert any(_renames_a_call(s) for s in again) is offered_again, reason
        if offered_again:
            assert again[0].edits == first[0].edits and again[0].id != first[0].id
