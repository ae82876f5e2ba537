"""The history's session-long reversal guard: typed spans and deleted texts."""

from __future__ import annotations

from nextedit.history import EditHistory
from nextedit.text import Document

URI = "file:///w/a.py"


def make(text: str):
    doc = Document(URI, "python", 1, text)
    history = EditHistory(URI)

    def replace(start: int, end: int, new: str) -> None:
        edit = doc.replace(start, end, new)
        doc.version += 1
        history.record([edit], doc)

    return doc, history, replace


def test_typed_spans_follow_later_changes_and_merge_while_typing():
    doc, history, replace = make("x = 1\n")
    for i, ch in enumerate("abc"):
        replace(4 + i, 4 + i, ch)
    assert history.typed_spans() == [(4, 7)]
    replace(0, 1, "yy")  # an edit before shifts the span (and is typed itself)
    assert history.typed_spans() == [(0, 2), (5, 8)]
    replace(6, 7, "")  # deleting part of the typed text cuts the span
    assert (5, 7) in history.typed_spans()


def test_deleted_texts_are_remembered_stripped():
    doc, history, replace = make("value = compute(a, b)\n")
    replace(15, 21, "")
    assert history.was_deleted("(a, b)")
    assert history.was_deleted("  (a, b) \n")
    assert not history.was_deleted("(a)")
    assert not history.was_deleted("   ")


def test_guard_is_bounded():
    doc, history, replace = make("")
    for i in range(2000):
        replace(len(doc.text), len(doc.text), f"w{i} ")
        replace(0, 1, "")
    assert len(history.typed_spans()) <= 512
