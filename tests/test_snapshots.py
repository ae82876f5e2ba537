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
