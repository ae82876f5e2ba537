"""A deletion that empties a line takes the line with it, as the developer's did."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from nextedit.suggest.line_deletions import whole_line_deletions
from nextedit.suggest.model import SuggestionKinds, TextEditCp
from nextedit.suggest.repeat.search_replace import expand
from tests.helpers.session import Script


def _apply(text: str, edits: tuple[TextEditCp, ...]) -> str:
    for e in sorted(edits, key=lambda e: e.start_cp, reverse=True):
        text = text[: e.start_cp] + e.new_text + text[e.end_cp :]
    return text


def _deleting(text: str, part: str) -> tuple[TextEditCp, ...]:
    start = text.index(part)
    return (TextEditCp(start, start + len(part), ""),)


def test_a_statement_deleted_after_its_indentation_goes_with_its_line() -> None:
    text = "def f():\n    a = 1\n    b = 2\n"
    assert _apply(text, whole_line_deletions(_deleting(text, "a = 1"), text)) == "def f():\n    b = 2\n"


def test_crlf_and_the_last_line_without_a_break() -> None:
    text = "x = 1\r\n  y = 2\r\nz = 3"
    assert _apply(text, whole_line_deletions(_deleting(text, "y = 2"), text)) == "x = 1\r\nz = 3"
    assert _apply(text, whole_line_deletions(_deleting(text, "z = 3"), text)) == "x = 1\r\n  y = 2"


def test_a_deletion_that_already_took_the_line_break_takes_no_more() -> None:
    text = "class A:\n    pass\n\n\nclass B:\n    pass\n"
    assert _apply(text, whole_line_deletions(_deleting(text, "pass\n"), text)) == "class A:\n\n\nclass B:\n    pass\n"


def test_what_leaves_code_on_the_line_keeps_its_range() -> None:
    text = "call(a, b)\n    x = 1  # note\n"
    for part in ("a, ", "x = 1"):
        edits = _deleting(text, part)
        assert whole_line_deletions(edits, text) == edits
    replaced = (TextEditCp(text.index("x = 1"), text.index("x = 1") + 5, "y = 2"),)
    assert whole_line_deletions(replaced, text) == replaced


def test_widened_deletions_that_would_meet_keep_their_ranges() -> None:
    text = "    a\n    b\n"
    edits = (TextEditCp(4, 5, ""), TextEditCp(5, 10, ""))  # "a" and "\n    ": b's indentation
    assert whole_line_deletions(edits, text) == edits


_LINES = st.lists(st.sampled_from(["", "  ", "x = 1", "  y(2)", "\tz", "a b"]), min_size=1, max_size=6)


@given(_LINES, st.data())
def test_widening_only_ever_removes_whole_blank_surrounded_lines(lines: list[str], data: st.DataObject) -> None:
    text = "\n".join(lines)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    edits = (TextEditCp(start, end, ""),)
    (widened,) = whole_line_deletions(edits, text)
    assert widened.start_cp <= start and widened.end_cp >= end
    # what the widening adds is blanks and one line break at most
    added = text[widened.start_cp : start] + text[end : widened.end_cp]
    assert not added.strip() and added.count("\n") <= 1
    if widened != edits[0]:
        before, after = text[: widened.start_cp], text[widened.end_cp :]
        # the lines around stay whole: the cut falls on line boundaries
        assert before == "" or before.endswith("\n") or after == ""
        assert after == "" or before == "" or before.endswith("\n")


def test_a_repeated_line_deletion_leaves_no_blank_line() -> None:
    """The developer deleted ``app = flask.Flask(__name__)`` from one test;
    the token rule made of it deletes the same statement in the next tests
    with its line, not leaving the indentation behind."""
    s = Script(
        "import flask\n\n\ndef test_one():\n    app = flask.Flask(__name__)\n    assert run(1)\n\n\n"
        "def test_two():\n    app = flask.Flask(__name__)\n    assert run(2)\n"
    )
    s.change("    app = flask.Flask(__name__)\n", "")
    results = s.applied("repeat", "tokens")
    assert results
    assert all(r.endswith("def test_two():\n    assert run(2)\n") for r in results)


def test_a_line_blanked_by_the_developer_is_blanked_again() -> None:
    """Replacing a line by an empty one is not deleting it: the repeat keeps
    the line break."""
    s = Script("class A:\n    x: int = 0\n    y = 1\n\n\nclass B:\n    x: int = 0\n    y = 2\n")
    s.change("    x: int = 0\n", "\n")
    results = s.applied("repeat")
    assert any("class B:\n\n    y = 2\n" in r or "class B:\n    \n    y = 2\n" in r for r in results)
    assert not any("class B:\n    y = 2\n" in r for r in results)


def test_blanks_the_developer_typed_are_not_taken_along() -> None:
    """Widening a deletion over blanks typed in this session would undo them
    (a reversal): the deletion keeps its range there."""
    s = Script(
        "import flask\n\n\ndef test_one():\n    app = flask.Flask(__name__)\n    assert run(1)\n\n\n"
        "def test_two():\n    app = flask.Flask(__name__)\n    assert run(2)\n"
    )
    s.change("    app = flask.Flask(__name__)\n", "")
    s.change("(__name__)\n    assert run(2)", "(__name__)  \n    assert run(2)")  # about to write a comment
    typed = s.text.index("(__name__)  \n") + len("(__name__)")
    results = s.applied("repeat", "tokens")
    assert results
    assert all(r[typed - len("    app = flask.Flask(__name__)") :].startswith("      \n") for r in results)


def test_a_search_and_replace_keeps_the_edits_its_search_makes() -> None:
    """A client applies ``searchAndReplace`` by its search and replacement, not
    by the candidate's edits: those stay what the replacement does, while
    the same change as an ``edit`` takes the lines along."""
    text = "import flask\n\n\n" + "".join(
        f"def test_{i}():\n    app = flask.Flask(__name__)\n    assert run({i})\n\n\n" for i in range(4)
    )
    s = Script(text)
    s.session.kinds = SuggestionKinds(jump=True, search_and_replace=True)
    s.change("    app = flask.Flask(__name__)\n", "")
    s.change("    app = flask.Flask(__name__)\n", "")
    text, ranked = s.text, s.ranked()
    replacing = [c for c in ranked if c.kind == "searchAndReplace"]
    assert replacing
    for c in replacing:
        assert c.search is not None and c.replace is not None
        assert list(c.edits) == list(expand(text, c.search, c.replace, c.is_regex))
    assert all(text[e.start_cp : e.end_cp].endswith("\n") for c in ranked if c.kind == "edit" for e in c.edits)
