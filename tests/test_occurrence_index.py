"""The occurrence index moves a literal's starts with each edit: always the starts a fresh scan finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.text.occurrence_index import OccurrenceIndex, occurrences
from tests.helpers.changes import apply, change, document, letters


def scan(text: str, literal: str) -> list[int]:
    """The reference: every ``s`` where ``literal`` starts, overlapping ones too."""
    return [s for s in range(len(text)) if text.startswith(literal, s)]


literals = st.text(alphabet="ab\nxé", min_size=1, max_size=4)
requests = st.lists(st.tuples(st.lists(change, max_size=3), st.lists(literals, max_size=3)), max_size=30)


@settings(max_examples=300, deadline=None)
@given(text=letters, first=st.lists(literals, min_size=1, max_size=3), requests=requests, whole=letters)
def test_starts_after_edits_are_a_fresh_scan(text: str, first: list[str], requests: list, whole: str) -> None:
    doc = document(text)
    index = OccurrenceIndex(size=5, cap=1000)
    assert index.begin(doc) is doc.text
    for literal in first:
        assert index.starts(doc.text, literal) == scan(doc.text, literal)
    for changes, asked in requests:
        for c in changes:
            apply(doc, c, whole)
        text = index.begin(doc.snapshot())  # a suggest reads a snapshot
        assert text == doc.text
        for literal in asked + first:
            assert index.starts(text, literal) == scan(text, literal)


def test_a_document_opened_anew_starts_the_index_afresh() -> None:
    index = OccurrenceIndex()
    first = document("foo.bar foo.bar")
    index.begin(first)
    assert index.starts(first.text, "foo.bar") == [0, 8]
    again = document("x foo.bar")  # its serial starts at 0 again: nothing to read off its log
    text = index.begin(again)
    assert index.starts(text, "foo.bar") == [2]


def test_an_edit_inside_an_occurrence_and_at_its_ends() -> None:
    index = OccurrenceIndex()
    doc = document("foo.bar foo.bar")
    index.begin(doc)
    doc.replace(3, 4, "_")  # inside the first
    assert index.starts(index.begin(doc), "foo.bar") == [8]
    doc.replace(15, 15, "foo.bar")  # right after the last: a new one
    assert index.starts(index.begin(doc), "foo.bar") == [8, 15]
    doc.replace(0, 0, "foo.bar")  # before the first: every start shifts
    assert index.starts(index.begin(doc), "foo.bar") == [0, 15, 22]


def test_an_entry_left_behind_many_versions_is_scanned_again() -> None:
    index = OccurrenceIndex()
    doc = document("ab " * 50)
    index.begin(doc)
    assert index.starts(doc.text, "ab") == scan(doc.text, "ab")
    for i in range(200):  # more versions than the index keeps steps for
        doc.replace(i, i, "b")
        index.begin(doc)
    assert index.starts(doc.text, "ab") == scan(doc.text, "ab")


def test_no_answer_for_another_text_nor_past_the_cap() -> None:
    index = OccurrenceIndex(cap=3)
    text = index.begin(document("a a a a"))
    assert index.starts(text, "a") is None  # four: past the cap, the caller scans
    assert index.starts(text, "a a") == [0, 2, 4]
    other = "".join(["a a a", " a"])  # equal, but not the text the index saw last
    assert other is not text
    assert index.starts(other, "a a") is None
    assert index.starts(text, "") is None


def test_occurrences_between_bounds() -> None:
    assert occurrences("aaaa", "aa") == [0, 1, 2]
    assert occurrences("aaaa", "aa", 1, 2) == [1]  # starts in [1, 2)
    assert occurrences("aaaa", "aa", cap=2) is None


def test_more_changes_than_the_log_keeps_start_the_index_afresh() -> None:
    index = OccurrenceIndex()
    doc = document("ab cd ab")
    index.begin(doc)
    assert index.starts(doc.text, "ab") == [0, 6]
    for _ in range(10):  # at the start: every occurrence moves
        doc.replace(0, 0, "ab ")
    for _ in range(100):  # then far more changes at the end than the log keeps
        doc.replace(len(doc.text), len(doc.text), "x")
    assert doc.shared_since(doc.lineage, 0) is None
    text = index.begin(doc)
    assert index.starts(text, "ab") == scan(text, "ab")
