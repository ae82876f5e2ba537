"""The edit history: raw changes coalesced into developer-level edits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.history import EditHistory
from nextedit.text import Document

URI = "file:///w/a.py"


class Script:
    """A document and its history, changed by cp offsets."""

    def __init__(self, text: str, bound: int = 64) -> None:
        self.doc = Document(URI, "python", 1, text)
        self.history = EditHistory(URI, bound=bound)

    def replace(self, start: int, end: int, new: str) -> int:
        edit = self.doc.replace(start, end, new)
        self.doc.version += 1
        self.history.record([edit], self.doc)
        return start + len(new)

    def type(self, at: int, chars: str) -> int:
        for ch in chars:
            at = self.replace(at, at, ch)
        return at

    def backspace(self, at: int, count: int) -> int:
        for _ in range(count):
            at = self.replace(at - 1, at, "")
        return at

    def summary(self) -> list[tuple[int, str, str]]:
        return [(e.start_cp, e.old_text, e.new_text) for e in self.history.edits()]


def test_typing_forward_is_one_edit():
    s = Script("x = \n")
    s.type(4, "foo(1)")
    assert s.summary() == [(4, "", "foo(1)")]
    assert s.history.last().keystrokes == 6


def test_selection_replaced_then_typed_is_one_token_change():
    s = Script("x = count + 1\n")
    at = s.replace(4, 9, "t")
    s.type(at, "ally")
    (edit,) = s.history.edits()
    assert (edit.old_text, edit.new_text) == ("count", "tally")
    assert (edit.old_token, edit.new_token, edit.token_start_cp) == ("count", "tally", 4)
    assert edit.before_lines == "x = count + 1" and edit.after_lines == "x = tally + 1"
    assert edit.is_identifier_change


def test_backspacing_into_a_word_then_typing_merges():
    s = Script("value = fooBar\n")
    at = s.backspace(len("value = fooBar"), 3)  # "foo"
    s.type(at, "Baz")
    (edit,) = s.history.edits()
    assert (edit.old_text, edit.new_text) == ("r", "z")
    assert (edit.old_token, edit.new_token) == ("fooBar", "fooBaz")


def test_typed_then_deleted_is_nothing():
    s = Script("a\n")
    at = s.type(1, "bcd")
    s.backspace(at, 3)
    assert s.summary() == []


def test_undo_of_a_replacement_drops_it():
    s = Script("x = count\n")
    s.replace(4, 9, "tally")
    s.replace(4, 9, "count")
    assert s.summary() == []


def test_non_word_after_a_finished_replacement_starts_a_new_edit():
    s = Script("x = count\n")
    at = s.replace(4, 9, "tally")
    s.type(at, "(1)")
    first, second = s.history.edits()
    assert (first.old_token, first.new_token) == ("count", "tally")
    assert (second.old_text, second.new_text) == ("", "(1)")


def test_separate_places_are_separate_edits_and_offsets_shift():
    s = Script("aaa\nbbb\nccc\n")
    s.replace(8, 11, "CCC")  # line 3
    s.replace(0, 3, "AAAAA")  # line 1 grows by 2: the first edit shifts
    first, second = s.history.edits()
    assert (first.start_cp, first.new_text) == (10, "CCC")
    assert s.doc.text[first.start_cp : first.new_end_cp] == "CCC"
    assert (second.start_cp, second.new_text) == (0, "AAAAA")
    assert first.seq < second.seq


def test_an_older_edit_overwritten_by_a_later_one_is_dropped():
    s = Script("aaa\nbbb\nccc\n")
    s.replace(0, 3, "xyz")
    s.replace(8, 11, "CCC")
    s.replace(0, 8, "")  # deletes the first edit entirely (not the last one)
    summary = s.summary()
    assert all(new != "xyz" for _, _, new in summary)
    for edit in s.history.edits():
        assert s.doc.text[edit.start_cp : edit.new_end_cp] == edit.new_text


def test_whole_document_replacement_is_trimmed_to_the_change():
    text = "def f():\n    return alpha\n" * 10
    s = Script(text)
    edit = s.doc.replace(0, len(text), text.replace("return alpha", "return beta", 1))
    s.doc.version += 1
    s.history.record([edit], s.doc)
    (dev,) = s.history.edits()
    assert (dev.old_text, dev.new_text) == ("alph", "bet")  # the common "a" is trimmed
    assert (dev.old_token, dev.new_token) == ("alpha", "beta")
    assert dev.token_start_cp == text.index("alpha")


def test_bounded():
    s = Script("\n" * 200)
    for line in range(100):
        s.replace(line * 2, line * 2, "x")  # separate lines, never touching
    assert len(s.history.edits()) == 64


def test_bound_is_respected_exactly():
    s = Script("\n" * 50, bound=5)
    for line in range(10):
        s.replace(line * 2, line * 2, "y")
    assert len(s.history.edits()) == 5


# -- property: every recorded edit still describes the current text -------------------------

ops = st.lists(
    st.tuples(st.integers(0, 60), st.integers(0, 4), st.sampled_from(["", "a", "bc", "\n", "x_y", "é😀", "(", " "])),
    min_size=1,
    max_size=60,
)


@settings(max_examples=200)
@given(st.text(alphabet="ab \n_(", max_size=40), ops)
def test_edits_always_match_the_current_text(text, script):
    s = Script(text, bound=8)
    for pos, length, new in script:
        start = min(pos, len(s.doc.text))
        end = min(start + length, len(s.doc.text))
        s.replace(start, end, new)
        edits = s.history.edits()
        assert len(edits) <= 8
        seqs = [e.seq for e in edits]
        assert seqs == sorted(seqs)
        for edit in edits:
            assert s.doc.text[edit.start_cp : edit.new_end_cp] == edit.new_text
            assert edit.old_text != edit.new_text
            if edit.new_token is not None:
                assert s.doc.text[edit.token_start_cp : edit.token_start_cp + len(edit.new_token)] == edit.new_token
