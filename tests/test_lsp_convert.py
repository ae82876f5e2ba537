"""The LSP bridge's edge, without a process: suggestion → LSP shapes, and the shown/ignored book."""

from __future__ import annotations

from lsprotocol import types

from nextedit.lsp import actions, convert
from nextedit.lsp.offers import OfferBook
from nextedit.session import PlacedEdit, PlacedSuggestion
from nextedit.text import Document, Position, PositionEncoding, Range, TextChange

URI = "file:///a.py"
OTHER = "file:///project/main.py"


def at(line: int, start: int, end: int) -> Range:
    return Range(Position(line, start), Position(line, end))


def context(*documents: Document) -> actions.ActionContext:
    by_uri = {d.uri: d for d in documents}
    return actions.ActionContext(URI, by_uri.get, PositionEncoding.UTF16, document_changes=True)


def suggestion(kind: str = "edit", edits: tuple[PlacedEdit, ...] = (), **kw: object) -> PlacedSuggestion:
    return PlacedSuggestion(id=kw.pop("id", "s-1"), kind=kind, uri=URI, version=3, edits=edits, **kw)  # type: ignore[arg-type]


def test_jump_is_a_command_only_action_and_opens_its_target() -> None:
    jump = suggestion("jump", position=Position(40, 4))
    (action,) = actions.code_actions([jump], context())
    assert action.edit is None and action.title == "Go to next edit (line 41)"
    assert action.command is not None and action.command.arguments == ["s-1"]
    show = convert.show_document_params(URI, Position(40, 4))
    assert show.take_focus and show.selection == types.Range(
        start=types.Position(line=40, character=4), end=types.Position(line=40, character=4)
    )


def test_workspace_edit_is_versioned_per_document_or_plain() -> None:
    here = convert.DocumentEdits(URI, 3, (PlacedEdit(at(1, 0, 1), "y"),))
    there = convert.DocumentEdits(OTHER, 7, (PlacedEdit(at(0, 4, 8), "surface"),))
    more_here = convert.DocumentEdits(URI, 3, (PlacedEdit(at(2, 0, 1), "y"),))
    versioned = convert.workspace_edit([here, there, more_here], document_changes=True)
    assert [(c.text_document.uri, c.text_document.version, len(c.edits)) for c in versioned.document_changes] == [
        (URI, 3, 2),
        (OTHER, 7, 1),
    ]
    plain = convert.workspace_edit([here, there], document_changes=False)
    assert sorted(plain.changes) == sorted([URI, OTHER]) and plain.document_changes is None


def test_inline_edits_name_their_own_document() -> None:
    rename = PlacedSuggestion(
        id="s-4", kind="rename", uri=OTHER, version=7, edits=(PlacedEdit(at(0, 4, 8), "surface"),), new_name="surface"
    )
    (item,) = convert.inline_edits_json(rename)
    assert item == {
        "text": "surface",
        "textDocument": {"uri": OTHER, "version": 7},
        "range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 8}},
        "command": {"title": "Accept next edit", "command": "nextedit.accept", "arguments": ["s-4"]},
    }


def test_titles_show_the_change() -> None:
    document = Document(
        URI,
        "python",
        3,
        "self.assertEquals(1, 1)\nself.assertEquals(2, 2)\nself.assertEquals(3, 3)\nself.assertEquals(4, 4)\n",
    )
    sites = [PlacedEdit(at(line, 16, 17), "") for line in (1, 2, 3)]
    one = [suggestion(id=f"s-{i}", edits=(site,)) for i, site in enumerate(sites)]
    every = suggestion("searchAndReplace", tuple(sites), id="s-9", search=".assertEquals(", replace=".assertEqual(")
    ctx = context(document)
    # with the search-and-replace in the answer, it counts the other sites and applies them all
    titles = [a.title for a in actions.code_actions([one[0], every, one[1]], ctx)]
    assert titles == [
        "line 2: assertEquals → assertEqual (2 more)",
        "Apply at every site: assertEquals → assertEqual (3 sites)",
        "line 3: assertEquals → assertEqual (2 more)",
    ]
    # without it, the other one-site edits of the same change in the answer
    assert [a.title for a in actions.code_actions(one[:2], ctx)] == [
        "line 2: assertEquals → assertEqual (1 more)",
        "line 3: assertEquals → assertEqual (1 more)",
    ]
    (every_action,) = actions.code_actions([every], ctx)
    (change,) = every_action.edit.document_changes
    assert change.text_document.version == 3 and len(change.edits) == 3


def test_titles_of_renames_insertions_and_jumps() -> None:
    document = Document(URI, "python", 3, "def area(w, h):\n    return w * h\n\nprint(f(a))\n")
    elsewhere = PlacedSuggestion(
        id="s-2",
        kind="rename",
        uri=OTHER,
        version=1,
        edits=(PlacedEdit(at(0, 17, 21), "surface"), PlacedEdit(at(2, 6, 10), "surface")),
        new_name="surface",
    )
    main = Document(OTHER, "python", 1, "from geom import area\n\nprint(area(2, 3))\n")
    ctx = context(document, main)
    assert actions.title(elsewhere, [elsewhere], ctx) == "Rename area → surface (2 occurrences in main.py)"
    insert = suggestion(edits=(PlacedEdit(at(3, 9, 9), ", b"),))
    assert actions.title(insert, [insert], ctx) == "line 4: a → a, b"
    jump = suggestion("jump", id="s-5", position=Position(3, 9))
    assert actions.title(jump, [jump, insert], ctx) == "Go to line 4: a → a, b"
    delete = suggestion(edits=(PlacedEdit(Range(Position(1, 0), Position(2, 0)), ""),))
    assert actions.title(delete, [delete], ctx) == "line 2: delete return w * h"


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
