"""The history reuses earlier descriptions of its edits: never a different answer.

``EditHistory.edits()`` keeps an edit's description while the lines it lies
on stand unchanged (moved, at most). Whatever the changes, what it hands out
must equal a description of every edit from scratch, field by field, and a
memo a reader left in ``extra`` survives only on an edit that did not move.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.history import DeveloperEdit, EditHistory
from nextedit.text import Document

URI = "file:///w/a.py"
FIELDS = [f.name for f in dataclasses.fields(DeveloperEdit) if f.name != "extra"]


def from_scratch(history: EditHistory, document: Document) -> list[DeveloperEdit]:
    """Every edit of ``history`` described again, nothing reused."""
    fresh = history.snapshot(document)
    fresh._basis = {}
    fresh._described = None
    return fresh.edits()


def check(history: EditHistory, document: Document) -> None:
    got = history.edits()
    want = from_scratch(history, document)
    assert [[getattr(e, f) for f in FIELDS] for e in got] == [[getattr(e, f) for f in FIELDS] for e in want]
    for edit in got:
        # a memo left by an earlier reader is only ever about the edit as it stands
        assert edit.extra.get("probe", (edit.start_cp, edit.after_lines)) == (edit.start_cp, edit.after_lines)
        edit.extra["probe"] = (edit.start_cp, edit.after_lines)


# a few short lines, with every kind of line break
documents = st.lists(
    st.tuples(st.text(alphabet="ab _(\t", max_size=8), st.sampled_from(["\n", "\r\n", "\r", ""])), max_size=8
).map(lambda lines: "".join(line + end for line, end in lines))

PIECES = ["", "a", "b", "_", " ", "(", "bc", "x_y", "\n", "\r", "\r\n", "a\nb", "\n\n", "foo(\r\nbar", "é😀", "total"]

# one step: (kind, where (per mille of the text, or a line), length, text,
# read afterwards, read through a snapshot)
steps = st.lists(
    st.tuples(
        st.sampled_from(["replace", "at_line_start", "at_line_end", "type", "backspace", "undo"]),
        st.integers(0, 1000),
        st.integers(0, 3),
        st.sampled_from(PIECES),
        st.booleans(),
        st.booleans(),
    ),
    min_size=1,
    max_size=50,
)


@settings(max_examples=600, deadline=None)
@given(documents, steps, st.sampled_from([4, 64]))
def test_edits_equal_a_description_from_scratch(text, script, bound):
    document = Document(URI, "python", 1, text)
    history = EditHistory(URI, bound=bound)
    last: tuple[int, str, str] | None = None  # the last change: (start, old, new)

    def replace(start: int, end: int, new: str) -> None:
        nonlocal last
        old = document.text[start:end]
        edit = document.replace(start, end, new)
        document.version += 1
        history.record([edit], document)
        last = (start, old, new)

    for kind, pos, length, piece, read, through_snapshot in script:
        size = len(document.text)
        start = pos * size // 1000
        if kind in ("at_line_start", "at_line_end"):  # where a description's lines begin or end
            line = pos % document.line_count
            start = document.line_start(line)
            if kind == "at_line_end":  # its last characters, or just after them
                start = max(start, document.line_end(line) - length)
            kind = "replace"
        if kind == "replace":
            replace(start, min(start + length, size), piece)
        elif kind == "type":  # keystrokes at one place, merged into one edit
            for ch in piece:
                replace(start, start, ch)
                start += 1
        elif kind == "backspace":
            for _ in range(min(length, start)):
                replace(start - 1, start, "")
                start -= 1
        elif last is not None:  # undo the last change (merges, or drops the edit)
            at, old, new = last
            replace(at, at + len(new), old)
        if not read:
            continue
        if through_snapshot:  # the engine's way: read a snapshot, hand it back
            snapshot = history.snapshot(document.snapshot())
            check(snapshot, snapshot._document)
            history.adopt(snapshot)
        else:
            check(history, document)
    check(history, document)


def test_an_edit_on_other_lines_keeps_the_description_and_its_memo():
    document = Document(URI, "python", 1, "def f():\n    total = 0\n\ndef g():\n    total = 1\n")
    history = EditHistory(URI)

    def replace(start: int, end: int, new: str) -> None:
        edit = document.replace(start, end, new)
        document.version += 1
        history.record([edit], document)

    at = document.text.index("total")
    replace(at, at + 5, "amount")
    first = history.edits()[0]
    first.extra["memo"] = "kept"
    below = document.text.index("total")
    replace(below, below + 5, "count")  # another line, after it: nothing of it moved
    assert history.edits()[0] is first and first.extra == {"memo": "kept"}
    replace(0, 3, "async def")  # a line above: it moved, its memo may hold offsets
    moved = history.edits()[0]
    assert moved.start_cp == first.start_cp + 6 and moved.after_lines == first.after_lines
    assert moved.extra == {}
    replace(at + 12, at + 12, "x")  # its own line: described again
    assert history.edits()[0].after_lines == "    amountx = 0"
