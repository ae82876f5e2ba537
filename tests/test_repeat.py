"""Repeated-edit synthesis: one or two developer edits generalised to the other sites."""

from __future__ import annotations

import pytest

from nextedit.session import Session
from nextedit.suggest.model import Candidate, SilenceReason, SuggestionKinds
from nextedit.suggest.repeat.suggester import RepeatEditSuggester
from nextedit.suggest.repeat.text import without_trailing_blanks
from nextedit.text import Position, PositionEncoding, Range, TextChange
from tests.helpers.repeat import Editor, suggest_context

URI = "file:///w/t.py"


def _session(text: str, changes: list[tuple[str, str]]) -> Session:
    """A session (the shipped ranker) after the developer's ``changes``, each by text."""
    session = Session("t", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(jump=True))
    session.did_open(URI, "python", 1, text)
    for old, new in changes:
        doc = session.documents[URI].document
        start = doc.text.index(old)
        rng = Range(
            doc.position_at(start, PositionEncoding.UTF32), doc.position_at(start + len(old), PositionEncoding.UTF32)
        )
        session.did_change(URI, doc.version + 1, [TextChange(rng, new)])
    return session


# -- python ---------------------------------------------------------------------

PY_PRINT = """\
def main(argv):
    name = argv[0]
    print name
    count = len(argv)
    print count
    total = count * 2
    print total
"""

PY_PRINT_ERR = """\
def main(argv):
    name = argv[0]
    print >>sys.stderr, name
    count = len(argv)
    print >>sys.stderr, count
    total = count * 2
    print >>sys.stderr, total
"""


def test_print_statement_to_call_after_two_examples() -> None:
    ed = Editor(PY_PRINT_ERR)
    ed.change("print >>sys.stderr, name", "print(name, file=sys.stderr)")
    ed.change("print >>sys.stderr, count", "print(count, file=sys.stderr)")
    after = ed.first()
    assert after is not None
    assert "    print(total, file=sys.stderr)\n" in after
    # nothing else touched
    assert after.replace("print(total, file=sys.stderr)", "print >>sys.stderr, total") == ed.text


def test_bare_print_statement_to_call_after_two_examples() -> None:
    ed = Editor(PY_PRINT)
    ed.change("print name", "print(name)")
    ed.change("print count", "print(count)")
    assert ed.first() == PY_PRINT.replace("print name", "print(name)").replace("print count", "print(count)").replace(
        "print total", "print(total)"
    )


PY_ASSERT = """\
class TestThing(unittest.TestCase):
    def test_a(self):
        self.assertEquals(f(1), 2)

    def test_b(self):
        self.assertEquals(f(2), 3)
        self.assertTrue(g())

    def test_c(self):
        self.assertEquals(h(), None)
"""


def test_assert_equals_renamed_everywhere_after_one_example() -> None:
    ed = Editor(PY_ASSERT)
    ed.change("self.assertEquals(f(1), 2)", "self.assertEqual(f(1), 2)")
    proposals = ed.suggest()
    assert proposals
    sites = proposals[0].sites
    # both remaining sites, the nearest after the cursor first
    assert all("assertEquals" in ed.text[s.match_start : s.match_end] for s in sites)
    assert len(sites) == 2 and sites[0].start < sites[1].start
    changed = ed.first()
    assert changed is not None and changed.count("assertEquals") == 1
    assert "assertTrue" in changed


PY_CALLS = """\
def load_config(path, mode):
    return open(path, mode)

def a():
    data = load_config("a.txt", "r")
    return data

def b():
    data = load_config("b.txt", "r")
    other = reload_config("b.txt", "r")
    return data

def c():
    return load_config("c.txt", "r")
"""


def test_argument_added_to_every_call() -> None:
    ed = Editor(PY_CALLS)
    ed.change('load_config("a.txt", "r")', 'load_config("a.txt", "r", encoding="utf-8")')
    ed.change('load_config("b.txt", "r")', 'load_config("b.txt", "r", encoding="utf-8")')
    after = ed.first()
    assert after is not None
    assert 'return load_config("c.txt", "r", encoding="utf-8")' in after
    # a different function with the same arguments is not touched
    assert 'reload_config("b.txt", "r")\n' in after


PY_WITH = """\
def test_one(client):
    rv = client.get("/one")
    assert rv.status_code == 200
    rv.close()


def test_two(client):
    rv = client.get("/one")
    assert rv.status_code == 200
    rv.close()
"""


def test_assignment_wrapped_in_with_block() -> None:
    ed = Editor(PY_WITH)
    old = '    rv = client.get("/one")\n    assert rv.status_code == 200\n    rv.close()\n'
    new = '    with client.get("/one") as rv:\n        assert rv.status_code == 200\n'
    ed.change(old, new)
    after = ed.first()
    assert after is not None
    assert after.count('with client.get("/one") as rv:\n        assert rv.status_code == 200\n') == 2
    assert "rv.close()" not in after


def test_reindents_a_multiline_change_at_another_depth() -> None:
    text = (
        "def a():\n"
        "    assert client.get().text == 'ok'\n"
        "\n"
        "def b():\n"
        "    if x:\n"
        "        assert client.get().text == 'ok'\n"
    )
    ed = Editor(text)
    ed.change(
        "    assert client.get().text == 'ok'\n", "    with client.get() as rv:\n        assert rv.text == 'ok'\n"
    )
    after = ed.first()
    assert after is not None
    assert "        with client.get() as rv:\n            assert rv.text == 'ok'\n" in after


# -- negatives ------------------------------------------------------------------


def test_single_short_example_is_left_to_the_ranker_and_it_stays_silent() -> None:
    """``print name`` → ``print(name)`` once says little: the rule it gives is
    vague (it would also touch the assignment to ``name``); the engine,
    ranking it, answers nothing."""
    session = _session(PY_PRINT, [("print name", "print(name)")])
    assert session.suggest(URI, 2, Position(2, 15)) == []


def test_inserted_line_seen_once_waits_for_a_second() -> None:
    text = "def a():\n    x = 1\n    return x\n\ndef b():\n    y = 2\n    return y\n"
    ed = Editor(text)
    ed.change("    x = 1\n", "    x = 1\n    log(x)\n")
    assert ed.suggest() == []


def test_similar_looking_code_untouched() -> None:
    text = (
        "let a = Ordering::SeqCst;\nlet b = Ordering::SeqCst;\nlet c = MyOrdering::SeqCstish;\nlet d = other::SeqCst;\n"
    )
    ed = Editor(text)
    ed.change("let a = Ordering::SeqCst;", "let a = Ordering::Relaxed;")
    proposals = ed.suggest()
    assert proposals
    touched = {ed.text[s.match_start : s.match_end] for s in proposals[0].sites}
    lines = [ed.text[: s.start].count("\n") for s in proposals[0].sites]
    assert lines == [1]
    assert all("SeqCstish" not in t for t in touched)


def test_site_that_already_has_the_change_is_skipped() -> None:
    text = (
        "x = load_config(a, mode)\ny = load_config(b, mode, strict=True)\n"
        "z = load_config(c, mode)\nw = load_config(d, mode)\n"
    )
    ed = Editor(text)
    ed.change("load_config(a, mode)", "load_config(a, mode, strict=True)")
    ed.change("load_config(c, mode)", "load_config(c, mode, strict=True)")
    proposals = ed.suggest()
    assert proposals
    starts = [s.start for s in proposals[0].sites]
    # only `w`: `y` already has it
    assert len(starts) == 1 and ed.text[: starts[0]].count("\n") == 3


def test_undone_edit_gives_nothing() -> None:
    ed = Editor(PY_ASSERT)
    ed.change("self.assertEquals(f(1), 2)", "self.assertEqual(f(1), 2)")
    ed.change("self.assertEqual(f(1), 2)", "self.assertEquals(f(1), 2)")
    assert ed.suggest() == []


def test_finished_transformation_is_silent() -> None:
    ed = Editor("a = 1 // 0\nb = 1 // 0\n")
    ed.change("1 // 0", "raise_zero()")
    ed.change("1 // 0", "raise_zero()")
    assert ed.suggest() == []


def test_prose_edit_in_a_comment_repeats_only_where_the_whole_comment_does() -> None:
    """A word changed in a comment (prose): the very same comment elsewhere
    is changed the same way — a whole-line clone — a merely similar one is not."""
    text = "# the quick brown fox jumps\nx = 1\n# the quick brown fox jumps\n# the quick brown fox runs\n"
    session = _session(text, [("# the quick brown fox jumps", "# the slow brown fox jumps")])
    out = session.suggest(URI, 2, Position(0, 26))
    assert out and out[0].edits[0].range.start.line == 2
    assert all(e.range.start.line != 3 for s in out for e in s.edits)


# -- other languages --------------------------------------------------------------


def test_typescript_optional_chaining_repeated() -> None:
    text = (
        "function f(user: User) {\n"
        "  const a = user.profile.name;\n"
        "  const b = user.profile.email;\n"
        "  const c = account.profile.email;\n"
        "}\n"
    )
    ed = Editor(text)
    ed.change("user.profile.name", "user.profile?.name")
    ed.change("user.profile.email", "user.profile?.email")
    proposals = ed.suggest()
    # every `user.profile.` is done; `account.profile` is another object
    assert proposals == [] or all("account" not in ed.text[s.match_start : s.match_end] for s in proposals[0].sites)


def test_rust_method_replaced_with_one_example() -> None:
    text = (
        "fn a() {\n"
        "    let output = cmd.cmd().output().unwrap();\n"
        "}\n"
        "fn b() {\n"
        "    let output = cmd.cmd().output().unwrap();\n"
        "}\n"
    )
    ed = Editor(text)
    ed.change("cmd.cmd().output().unwrap()", "cmd.raw_output()")
    assert ed.first() == text.replace("cmd.cmd().output().unwrap()", "cmd.raw_output()")


def test_go_error_wrapping_repeated() -> None:
    text = (
        "func a() error {\n"
        "\tif err != nil {\n"
        '\t\treturn errors.New("read failed")\n'
        "\t}\n"
        "\tif err != nil {\n"
        '\t\treturn errors.New("read failed")\n'
        "\t}\n"
        "}\n"
    )
    ed = Editor(text)
    ed.change('return errors.New("read failed")', 'return fmt.Errorf("read failed: %w", err)')
    after = ed.first()
    assert after == text.replace('errors.New("read failed")', 'fmt.Errorf("read failed: %w", err)')


def test_java_assert_equals_argument_order_after_two_examples() -> None:
    text = (
        "class T {\n"
        "  void a() { assertEquals(actualA, 1); }\n"
        "  void b() { assertEquals(actualB, 2); }\n"
        "  void c() { assertEquals(actualC, 3); }\n"
        "}\n"
    )
    ed = Editor(text)
    ed.change("assertEquals(actualA, 1)", "assertThat(actualA).isEqualTo(1)")
    ed.change("assertEquals(actualB, 2)", "assertThat(actualB).isEqualTo(2)")
    after = ed.first()
    # different identifiers and literals: both abstracted into holes
    assert after is not None and "assertThat(actualC).isEqualTo(3)" in after


# -- the suggester through the engine's context ---------------------------------------


def test_suggester_yields_one_site_per_candidate() -> None:
    ed = Editor(PY_ASSERT)
    ed.change("self.assertEquals(f(1), 2)", "self.assertEqual(f(1), 2)")
    result = RepeatEditSuggester().propose(suggest_context(ed))
    assert isinstance(result, list) and result
    assert all(isinstance(c, Candidate) and c.kind == "edit" and len(c.edits) == 1 for c in result)
    assert result[0].suggester == "repeat"
    assert result[0].fingerprint.startswith("repeat:file:///t.py:")
    assert result[0].score >= result[-1].score
    e = result[0].edits[0]
    assert ed.text[e.start_cp : e.end_cp] + "" == "s" and e.new_text == ""


def test_suggester_silent_without_history() -> None:
    ed = Editor(PY_ASSERT)
    assert RepeatEditSuggester().propose(suggest_context(ed)) == SilenceReason.NO_EVIDENCE


@pytest.mark.parametrize("cursor_line", [0, 9])
def test_nearest_site_after_cursor_then_wrap(cursor_line: int) -> None:
    text = "".join(f"x{i} = old_api_call(v{i})\n" for i in range(10))
    ed = Editor(text)
    ed.change("x5 = old_api_call(v5)", "x5 = client.api_call(v5)")
    cursor = sum(len(line) + 1 for line in text.splitlines()[:cursor_line])
    proposals = ed.suggest(cursor)
    assert proposals
    lines = [ed.text[: s.start].count("\n") for s in proposals[0].sites]
    if cursor_line == 0:
        assert lines == [0, 1, 2, 3, 4, 6, 7, 8, 9]
    else:
        # line 9 starts at the cursor; then wrap to the top
        assert lines == [9, 0, 1, 2, 3, 4, 6, 7, 8]


def test_a_blank_before_a_name_is_not_taken_from_a_line_s_indentation() -> None:
    """``print name`` -> ``print(name)`` gives a rule whose context is the
    blank before ``name``; in ``    name = argv[0]`` that blank is the line's
    indentation, and rewriting it there re-indents the line: no candidate,
    whatever the ranker would make of it."""
    ed = Editor(PY_PRINT)
    ed.change("print name", "print(name)")
    found = RepeatEditSuggester().propose(suggest_context(ed, syntax=True))
    assignment = PY_PRINT.index("    name = ")
    starts = [c.edits[0].start_cp for c in found] if isinstance(found, list) else []
    assert not [s for s in starts if assignment <= s < assignment + 4]


@pytest.mark.parametrize(
    ("text", "start", "end", "widened"),
    [
        ("f(x)  # note\ny\n", 6, 12, (4, 12)),  # the blanks before a deleted comment
        ("f(x)  # note  \ny\n", 6, 12, (4, 14)),  # and after it
        ("f(x)  # note", 6, 12, (4, 12)),  # at the end of the text
        ("  # note\ny\n", 2, 8, (2, 8)),  # the line would be left blank: as it was
        ("f(x)  # note y\n", 6, 12, (6, 12)),  # text stays after it
    ],
)
def test_a_deletion_leaves_no_trailing_blanks(text: str, start: int, end: int, widened: tuple[int, int]) -> None:
    assert without_trailing_blanks(text, start, end, "") == (*widened, "")
    assert without_trailing_blanks(text, start, end, "z") == (start, end, "z")
