"""The LSP bridge's edge, without a process: suggestion → LSP shapes, and the shown/ignored book."""

from __future__ import annotations

from lsprotocol import types

from nextedit.lsp import convert
from nextedit.lsp.offers import OfferBook
from nextedit.session import PlacedEdit, PlacedSuggestion
from nextedit.text import Document, Position, PositionEncoding, Range, TextChange

URI = "file:///a.py"


def at(line: int, start: int, end: int) -> Range:
    return Range(Position(line, start), Position(line, end))


def suggestion(kind: str = "edit", edits: tuple[PlacedEdit, ...] = (), **kw: object) -> PlacedSuggestion:
    return PlacedSuggestion(id=kw.pop("id", "s-1"), kind=kind, uri=URI, version=3, edits=edits, **kw)  # type: ignore[arg-type]


def test_effective_edits_drop_what_is_already_there() -> None:
    document = Document(URI, "python", 3, 'x = "😀"; total = 1\nprint(total, result)\n')
    # utf-16: the emoji is two units, so `total` on line 0 starts at 10
    s16 = suggestion("rename", (PlacedEdit(at(0, 10, 15), "total"), PlacedEdit(at(1, 13, 19), "total")))
    assert convert.effective_edits(s16, document, PositionEncoding.UTF16) == (PlacedEdit(at(1, 13, 19), "total"),)
    s32 = suggestion("rename", (PlacedEdit(at(0, 9, 14), "total"), PlacedEdit(at(1, 13, 19), "total")))
    assert convert.effective_edits(s32, document, PositionEncoding.UTF32) == (PlacedEdit(at(1, 13, 19), "total"),)


def test_jump_is_a_command_only_action_and_opens_its_target() -> None:
    jump = suggestion("jump", position=Position(40, 4))
    action = convert.code_action(jump, (), preferred=False, document_changes=True)
    assert action.edit is None and action.title == "Go to next edit (line 41)"
    assert action.command is not None and action.command.arguments == ["s-1"]
    show = convert.show_document_params(jump)
    assert (
        show is not None
        and show.take_focus
        and show.selection
        == types.Range(start=types.Position(line=40, character=4), end=types.Position(line=40, character=4))
    )


def test_workspace_edit_is_versioned_or_plain() -> None:
    s = suggestion(edits=(PlacedEdit(at(1, 0, 1), "y"),))
    versioned = convert.workspace_edit(s, s.edits, document_changes=True)
    (change,) = versioned.document_changes
    assert change.text_document.version == 3 and change.text_document.uri == URI
    plain = convert.workspace_edit(s, s.edits, document_changes=False)
    assert list(plain.changes) == [URI] and plain.document_changes is None


def test_titles_say_what_happens() -> None:
    two = (PlacedEdit(at(1, 0, 1), "y"), PlacedEdit(at(2, 0, 1), "y"))
    rename = convert.code_action(suggestion("rename", two, new_name="y"), two, preferred=True, document_changes=True)
    assert rename.title == "Rename to `y` (2 occurrences)" and rename.is_preferred
    replace = convert.code_action(
        suggestion("searchAndReplace", two, search="x", replace="y"), two, preferred=False, document_changes=True
    )
    assert replace.title == "Replace `x` with `y` (2 matches)" and not replace.is_preferred


def test_inline_completion_spans_edits_and_cursor_on_one_line() -> None:
    document = Document(URI, "python", 3, "    count = a; print(size, size)\n")
    edits = (PlacedEdit(at(0, 21, 25), "count"), PlacedEdit(at(0, 27, 31), "count"))
    item = convert.inline_completion_item(
        suggestion(edits=edits), edits, document, PositionEncoding.UTF16, Position(0, 9)
    )
    assert item is not None
    assert item.range == types.Range(
        start=types.Position(line=0, character=9), end=types.Position(line=0, character=31)
    )
    assert item.insert_text == " = a; print(count, count"
    elsewhere = (PlacedEdit(at(1, 0, 1), "y"),)
    assert (
        convert.inline_completion_item(
            suggestion(edits=elsewhere), elsewhere, document, PositionEncoding.UTF16, Position(0, 9)
        )
        is None
    )


def test_lenient_params() -> None:
    assert convert.position_from_json({"line": -3, "character": 2}) == Position(0, 2)
    assert convert.text_document_from_json({"uri": URI}) == (URI, None)
    for bad in ({"line": 1}, {"line": True, "character": 0}, "x"):
        try:
            convert.position_from_json(bad)
        except convert.ParamsError as exc:
            assert "position" in str(exc)
        else:
            raise AssertionError(bad)


def test_offer_book_judges_only_shown_suggestions_by_the_next_change() -> None:
    book = OfferBook()
    shown = suggestion(id="s-1", edits=(PlacedEdit(at(5, 4, 10), "total"),))
    returned = suggestion(id="s-2", edits=(PlacedEdit(at(7, 4, 10), "total"),))
    book.offer([shown, returned])
    assert book.show("s-1") is shown and book.show("s-9") is None
    typed_elsewhere = [TextChange(at(1, 0, 0), "x")]
    assert book.judge_change(URI, 3, typed_elsewhere) == ["s-1"]
    assert book.judge_change(URI, 4, typed_elsewhere) == []  # judged once

    book.show("s-1")
    assert book.judge_change(URI, 3, [TextChange(at(5, 4, 10), "total")]) == []  # being applied
    book.show("s-1")
    assert book.judge_change(URI, 2, typed_elsewhere) == []  # shown for another version
    book.show("s-1")
    assert book.accept("s-1") and not book.accept("s-1")
    assert book.judge_change(URI, 3, typed_elsewhere) == []  # accepted: not judged
