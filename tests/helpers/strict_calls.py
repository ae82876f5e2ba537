"""A fixture for tests of what the developer says of the engine's answers:
the developer adds ``strict=True`` to calls, one after another, and after
three of them the engine offers the next."""

from __future__ import annotations

from nextedit.session import AnswerTally, PlacedSuggestion
from nextedit.suggest.model import SuggestionKinds
from tests.helpers.session import Editor

URI = "file:///w/read.py"
NAMES = "abcdefgh"
TEXT = (
    f"def read({', '.join(NAMES)}):\n"
    + "".join(f'    {n}_file = parse_payload({n}, "utf-8")\n' for n in NAMES)
    + f"    return {', '.join(n + '_file' for n in NAMES)}\n"
)
STRICT = ", strict=True"


def add_strict(editor: Editor, name: str) -> int:
    """The developer adds ``strict=True`` to the call reading ``name``; the cursor after it."""
    call = f'parse_payload({name}, "utf-8"'
    at = editor.text(URI).index(call) + len(call)
    return editor.replace(URI, at, at, STRICT)


def three_calls_done(tally: AnswerTally | None = None) -> tuple[Editor, int]:
    """An editor whose session (sharing ``tally`` when given) saw three calls changed, and the cursor."""
    editor = Editor(SuggestionKinds())
    if tally is not None:
        editor.session.tally = tally
    editor.open(URI, "python", TEXT)
    add_strict(editor, "a")
    add_strict(editor, "b")
    return editor, add_strict(editor, "c")


def answer(editor: Editor, cursor: int) -> PlacedSuggestion:
    """The engine's answer at ``cursor``: the next call's ``strict=True``."""
    placed = editor.suggest(URI, cursor)
    assert placed, "the fixture's next call should be offered"
    assert placed[0].edits[0].new_text == STRICT
    return placed[0]
