"""Snapshots: a suggest computed on a frozen copy of the session while the live one moves on.

The invariant: whatever happens to the live document, syntax tree and history
after a snapshot was taken, the snapshot reads exactly what the live objects
read at that moment — and handing its work back (``adopt``) leaves the live
objects reading what a fresh copy of their current text would.
"""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.history import EditHistory
from nextedit.session import Session
from nextedit.suggest.model import SuggestionKinds
from nextedit.syntax import SyntaxTree
from nextedit.text import Document, Position, PositionEncoding, Range, TextChange

UTF16 = PositionEncoding.UTF16
URI = "file:///w/a.py"

texts = st.text(alphabet=st.sampled_from(list("ab \n\r\tx(é😀")), max_size=60)
edits = st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80), texts), max_size=12)


def reads(document: Document) -> tuple:
    """Everything a reader of a document may ask, as plain values."""
    text = document.text
    n = len(text)
    offsets = sorted({0, n, n // 3, n // 2, max(n - 1, 0)})
    return (
        text,
        document.source_bytes,
        document.version,
        document.line_count,
        [document.line_text(line) for line in range(document.line_count)],
        [document.position_at(cp, UTF16) for cp in offsets],
        [document.byte_offset_at(cp) for cp in offsets],
        [document.point_at(cp) for cp in offsets],
        [document.offset_at(Position(line, 2), UTF16) for line in range(document.line_count + 1)],
    )


def apply(document: Document, start: int, end: int, new: str, version: int) -> None:
    n = len(document)
    start, end = sorted((min(start, n), min(end, n)))
    rng = Range(document.position_at(start, UTF16), document.position_at(end, UTF16))
    document.apply_changes([TextChange(rng, new)], version, UTF16)


@settings(max_examples=200, deadline=None)
@given(texts, edits, st.integers(0, 12), edits, st.booleans())
def test_a_document_snapshot_reads_what_the_document_read(
    text: str, before: list, cut: int, after: list, read_first: bool
) -> None:
    document = Document(URI, "python", 1, text)
    version = 1
    for start, end, new in before[:cut]:
        version += 1
        apply(document, start, end, new, version)
    snapshot = document.snapshot()
    if read_first:  # the reader materialises and scans the snapshot before the live one moves
        expected = reads(Document(URI, "python", version, document.text))
        assert reads(snapshot) == expected
    else:
        expected = reads(Document(URI, "python", version, snapshot.text))
    for start, end, new in after:
        version += 1
        apply(document, start, end, new, version)
    assert reads(snapshot) == expected
    final = reads(Document(URI, "python", version, document.text))
    document.adopt(snapshot)  # only takes anything when nothing changed
    assert reads(document) == final


@settings(max_examples=100, deadline=None)
@given(texts, edits)
def test_adopting_a_read_snapshot_keeps_the_document_exact(text: str, changes: list) -> None:
    document = Document(URI, "python", 1, text)
    for version, (start, end, new) in enumerate(changes, start=2):
        apply(document, start, end, new, version)
        snapshot = document.snapshot()
        reads(snapshot)  # flushes the window, scans the whole line index
        assert document.adopt(snapshot) or document._win is None  # noqa: SLF001 - what adopt is for
        assert reads(document) == reads(Document(URI, "python", version, document.text))


def test_snapshots_refuse_changes() -> None:
    document = Document(URI, "python", 1, "a = 1\n")
    snapshot = document.snapshot()
    with pytest.raises(TypeError):
        snapshot.apply_changes([TextChange(None, "b")], 2, UTF16)
    syntax = SyntaxTree.parse("python", document.source_bytes).snapshot()
    with pytest.raises(TypeError):
        syntax.reparse(b"b = 2\n")
    assert document.text == "a = 1\n" and snapshot.text == "a = 1\n"


PYTHON = "def area(w, h):\n    size = w * h\n    return size\n\n\ndef other(size):\n    return size\n"


def test_a_syntax_snapshot_parses_on_its_own_and_hands_the_parse_back() -> None:
    document = Document(URI, "python", 1, PYTHON)
    tree = SyntaxTree.parse("python", document.source_bytes)
    applied = document.apply_changes([TextChange(Range(Position(1, 4), Position(1, 8)), "total")], 2, UTF16)
    tree.apply_edits(applied, document.source_bytes)
    assert tree.reparse_pending
    snapshot = tree.snapshot()
    v2 = document.snapshot()
    # the live tree takes another edit before the snapshot is read
    applied = document.apply_changes([TextChange(Range(Position(0, 4), Position(0, 8)), "surface")], 3, UTF16)
    tree.apply_edits(applied, document.source_bytes)
    assert str(snapshot.root) == str(SyntaxTree.parse("python", v2.source_bytes).root)
    assert not tree.adopt(snapshot)  # the live tree moved on: nothing to take
    assert str(tree.root) == str(SyntaxTree.parse("python", document.source_bytes).root)
    # unchanged since the snapshot: its parse is taken, the live tree is current
    applied = document.apply_changes([TextChange(Range(Position(6, 11), Position(6, 15)), "s")], 4, UTF16)
    tree.apply_edits(applied, document.source_bytes)
    snapshot = tree.snapshot()
    parsed = snapshot.tree
    assert tree.adopt(snapshot)
    assert not tree.reparse_pending and tree.tree is parsed
    assert str(tree.root) == str(SyntaxTree.parse("python", document.source_bytes).root)


def test_a_history_snapshot_is_not_moved_by_later_edits() -> None:
    document = Document(URI, "python", 1, PYTHON)
    history = EditHistory(URI)
    for version, (rng, new) in enumerate(
        [(Range(Position(1, 4), Position(1, 8)), "total"), (Range(Position(2, 11), Position(2, 15)), "total")],
        start=2,
    ):
        history.record(document.apply_changes([TextChange(rng, new)], version, UTF16), document)
    expected = history.edits()
    snapshot = history.snapshot(document.snapshot())
    history.record(
        document.apply_changes([TextChange(Range(Position(0, 0), Position(0, 0)), "# x\n")], 4, UTF16), document
    )
    assert snapshot.edits() == expected
    assert snapshot.typed_spans() != history.typed_spans()
    assert not history.adopt(snapshot)
    snapshot = history.snapshot(document.snapshot())
    described = snapshot.edits()
    assert history.adopt(snapshot) and history.edits() == described


def rename_session() -> Session:
    session = Session("t", kinds=SuggestionKinds(rename=True))
    session.did_open(URI, "python", 1, PYTHON)
    session.did_change(URI, 2, [TextChange(Range(Position(1, 4), Position(1, 8)), "total")])
    return session


def test_work_prepared_before_a_change_computes_what_it_would_have() -> None:
    reference = rename_session().suggest(URI, 2, Position(1, 9))
    assert reference and reference[0].kind == "rename"
    session = rename_session()
    work = session.prepare_suggest(URI, 2, Position(1, 9))
    assert work is not None
    session.did_change(URI, 3, [TextChange(Range(Position(0, 0), Position(0, 0)), "import os\n")])
    result = work.compute()
    strip = [(s.kind, s.edits, s.position, s.new_name) for s in result.suggestions]
    assert strip == [(s.kind, s.edits, s.position, s.new_name) for s in reference]
    assert session.finish_suggest(work, result) == []  # the document moved on: nothing is issued
    assert session.suggest(URI, 3, Position(2, 9))  # the live session is intact


def test_a_suggestion_rejected_while_computed_is_not_issued() -> None:
    session = rename_session()
    first = session.suggest(URI, 2, Position(1, 9))
    work = session.prepare_suggest(URI, 2, Position(1, 9))
    assert work is not None
    result = work.compute()
    assert result.suggestions
    session.reject(first[0].id, "rejected")  # arrives while the worker computes
    assert session.finish_suggest(work, result) == []


def test_computing_in_a_thread_while_the_loop_types() -> None:
    """The snapshot is safe to read on one thread while another keeps changing
    the live session: the answer is the one the snapshot's version gives."""
    body = "".join(f"def f{i}(size):\n    return size + {i}\n\n" for i in range(2000))
    text = "def area(w, h):\n    size = w * h\n    return size\n\n" + body
    fresh = Session("ref", kinds=SuggestionKinds(rename=True))
    fresh.did_open(URI, "python", 1, text)
    fresh.did_change(URI, 2, [TextChange(Range(Position(1, 4), Position(1, 8)), "total")])
    expected = [(s.kind, s.edits) for s in fresh.suggest(URI, 2, Position(1, 9))]
    assert expected

    session = Session("t", kinds=SuggestionKinds(rename=True))
    session.did_open(URI, "python", 1, text)
    session.did_change(URI, 2, [TextChange(Range(Position(1, 4), Position(1, 8)), "total")])
    work = session.prepare_suggest(URI, 2, Position(1, 9))
    assert work is not None
    results: list = []
    worker = threading.Thread(target=lambda: results.append(work.compute()))
    worker.start()
    line = 10
    version = 2
    while worker.is_alive() or version < 60:
        version += 1
        line = (line + 37) % 6000 + 5
        session.did_change(URI, version, [TextChange(Range(Position(line, 0), Position(line, 0)), "x")])
    worker.join()
    assert [(s.kind, s.edits) for s in results[0].suggestions] == expected
    session.finish_suggest(work, results[0])
    document = session.documents[URI].document
    assert document.text == Document(URI, "python", version, document.text).text
    tree = session.documents[URI].syntax
    assert tree is not None
    assert str(tree.root) == str(SyntaxTree.parse("python", document.source_bytes).root)


# -- open documents left alone lend their last snapshot again ----------------

OTHER = "file:///w/b.py"
THIRD = "file:///w/c.py"


def two_file_session() -> Session:
    session = Session("t", kinds=SuggestionKinds(rename=True, jump=True))
    session.did_open(URI, "python", 1, PYTHON)
    session.did_open(OTHER, "python", 1, "from a import size\n\nprint(size)\n")
    return session


def test_a_document_left_alone_is_not_copied_again_and_any_change_retires_its_copy() -> None:
    session = two_file_session()
    first = session.prepare_suggest(URI, 1, Position(1, 4))
    assert first is not None
    lent = first.workspace.documents[OTHER]
    session.finish_suggest(first, first.compute())
    again = session.prepare_suggest(URI, 1, Position(1, 4))
    assert again is not None and again.workspace.documents[OTHER] is lent
    # while it is lent, another suggest gets its own copy
    meanwhile = session.prepare_suggest(URI, 1, Position(1, 4))
    assert meanwhile is not None and meanwhile.workspace.documents[OTHER] is not lent
    session.finish_suggest(again, again.compute())
    session.finish_suggest(meanwhile, meanwhile.compute())

    session.did_change(OTHER, 2, [TextChange(Range(Position(2, 6), Position(2, 10)), "area")])
    work = session.prepare_suggest(URI, 1, Position(1, 4))
    assert work is not None
    changed = work.workspace.documents[OTHER]
    assert changed.document.text == "from a import size\n\nprint(area)\n"
    assert [e.new_text for e in changed.history.edits()] == ["area"]
    session.finish_suggest(work, work.compute())

    session.did_focus(OTHER, 2, Position(0, 5), Range(Position(0, 0), Position(2, 0)))
    work = session.prepare_suggest(URI, 1, Position(1, 4))
    assert work is not None
    focused = work.workspace.documents[OTHER]
    assert focused.focus is not None and focused.focus.cursor_cp == 5
    session.finish_suggest(work, None)  # an answer dropped still hands the snapshot back
    work = session.prepare_suggest(URI, 1, Position(1, 4))
    assert work is not None and work.workspace.documents[OTHER] is focused

    # handed back after a change it did not see: never lent again
    session.did_change(OTHER, 3, [TextChange(Range(Position(0, 0), Position(0, 0)), "# b\n")])
    session.finish_suggest(work, work.compute())
    work = session.prepare_suggest(URI, 1, Position(1, 4))
    assert work is not None
    assert work.workspace.documents[OTHER].document.text.startswith("# b\n")


def test_a_snapshot_whose_work_the_document_took_is_not_lent_again() -> None:
    """The live document then shares what the snapshot worked out (its parse,
    its line index): a later change must never reach a suggest still reading it."""
    session = two_file_session()
    session.did_change(URI, 2, [TextChange(Range(Position(1, 4), Position(1, 8)), "total")])
    work = session.prepare_suggest(URI, 2, Position(1, 9))
    assert work is not None
    session.finish_suggest(work, work.compute())  # the suggest re-parsed the edited document
    again = session.prepare_suggest(URI, 2, Position(1, 9))
    assert again is not None
    assert again.workspace.documents[URI] is not work.workspace.documents[URI]


def test_a_parse_ahead_taken_retires_the_copy() -> None:
    session = two_file_session()
    session.did_change(OTHER, 2, [TextChange(Range(Position(2, 6), Position(2, 10)), "area")])
    work = session.prepare_suggest(URI, 1, Position(1, 4))
    assert work is not None
    session.finish_suggest(work, work.compute())
    parse = session.prepare_parse(OTHER)
    assert parse is not None  # the other document's edit awaits a parse nobody read
    parse.run()
    assert session.finish_parse(parse)
    after = session.prepare_suggest(URI, 1, Position(1, 4))
    assert after is not None
    assert after.workspace.documents[OTHER] is not work.workspace.documents[OTHER]
    syntax = after.workspace.documents[OTHER].syntax
    assert syntax is not None and not syntax.reparse_pending


operations = st.lists(
    st.one_of(
        st.tuples(st.just("change"), st.integers(0, 2), st.integers(0, 60), st.integers(0, 60), texts),
        st.tuples(st.just("focus"), st.integers(0, 2), st.integers(0, 60)),
        st.tuples(st.just("suggest"), st.integers(0, 2), st.booleans()),
        st.tuples(st.just("parse"), st.integers(0, 2)),
    ),
    max_size=25,
)


def fresh_reads(state) -> tuple:  # noqa: ANN001 - a DocumentState or a DocumentSnapshot
    syntax = state.syntax.snapshot() if state.syntax is not None else None
    return (
        reads(Document(state.uri, "python", state.document.version, state.document.text)),
        state.focus,
        state.history.snapshot(state.document.snapshot()).edits(),
        str(syntax.root) if syntax is not None else None,
    )


def snapshot_reads(snapshot) -> tuple:  # noqa: ANN001 - a DocumentSnapshot
    syntax = snapshot.syntax
    return (
        reads(snapshot.document),
        snapshot.focus,
        snapshot.history.edits(),
        str(syntax.root) if syntax is not None else None,
    )


@settings(max_examples=60, deadline=None)
@given(operations)
def test_every_suggest_reads_every_open_document_as_it_is(ops: list) -> None:
    """Whatever was changed, focused, parsed ahead or suggested before, each
    document a suggest reads — lent again or copied anew — reads what the live
    document reads at that moment."""
    uris = [URI, OTHER, THIRD]
    session = Session("t", kinds=SuggestionKinds(rename=True, jump=True))
    for uri in uris:
        session.did_open(uri, "python", 1, PYTHON)
    for op in ops:
        uri = uris[op[1]]
        state = session.documents[uri]
        version = state.document.version
        if op[0] == "change":
            apply_to = state.document
            n = len(apply_to)
            start, end = sorted((min(op[2], n), min(op[3], n)))
            rng = Range(apply_to.position_at(start, UTF16), apply_to.position_at(end, UTF16))
            session.did_change(uri, version + 1, [TextChange(rng, op[4])])
        elif op[0] == "focus":
            cursor = state.document.position_at(min(op[2], len(state.document)), UTF16)
            session.did_focus(uri, version, cursor, Range(Position(0, 0), cursor))
        elif op[0] == "parse":
            parse = session.prepare_parse(uri)
            if parse is not None:
                parse.run()
                session.finish_parse(parse)
        else:
            work = session.prepare_suggest(uri, version, Position(0, 0))
            assert work is not None
            for other, snapshot in work.workspace.documents.items():
                assert snapshot_reads(snapshot) == fresh_reads(session.documents[other])
            session.finish_suggest(work, work.compute() if op[2] else None)
