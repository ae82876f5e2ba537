"""Rename propagation, driven through a real Session.

Fixture notation: ``⟦old⟧`` is the site the developer renames; ``‹old›`` marks
each occurrence the suggestion must rename; every other occurrence of the
name must stay as it is.
"""

from __future__ import annotations

import re

import pytest

from nextedit.suggest.model import SuggestionKinds
from nextedit.text import PositionEncoding
from tests.helpers.rename import check, expected_text, parse_fixture
from tests.helpers.session import Editor, apply_edits_to, apply_suggestion

PYTHON = """\
import os


def total(items):
    ⟦count⟧ = 0
    for item in items:
        ‹count› += item  # count the items
    print("count", f"{‹count›}")
    return ‹count›


def other():
    count = 5
    return count
"""

TYPESCRIPT = """\
export function total(items: number[]): number {
  let ‹count› = 0;
  for (const item of items) {
    ‹count› += item; // count
  }
  return ⟦count⟧;
}

function other(): string {
  const count = "count";
  return count;
}
"""

RUST = """\
fn total(items: &[i32]) -> i32 {
    let mut ⟦count⟧ = 0;
    for item in items {
        ‹count› += item; // count
    }
    println!("count");
    ‹count›
}

fn other() -> i32 {
    let count = 3;
    count
}
"""

GO = """\
package main

func total(items []int) int {
	‹count› := 0
	for _, item := range items {
		⟦count⟧ += item // count
	}
	return ‹count›
}

func other() string {
	count := "count"
	return count
}
"""

JAVA = """\
class Totals {
    static int total(int[] items) {
        int ⟦count⟧ = 0;
        for (int item : items) {
            ‹count› += item; // count
        }
        return ‹count›;
    }

    static String other() {
        String count = "count";
        return count;
    }
}
"""

CASES = [
    ("python", "file:///w/totals.py", PYTHON),
    ("typescript", "file:///w/totals.ts", TYPESCRIPT),
    ("rust", "file:///w/totals.rs", RUST),
    ("go", "file:///w/totals.go", GO),
    ("java", "file:///w/Totals.java", JAVA),
]


@pytest.mark.parametrize(("language_id", "uri", "fixture"), CASES, ids=[c[0] for c in CASES])
def test_rename_local_binding_as_edit(language_id, uri, fixture):
    check(language_id, uri, fixture, "tally")


@pytest.mark.parametrize(("language_id", "uri", "fixture"), CASES, ids=[c[0] for c in CASES])
def test_rename_kind_when_advertised(language_id, uri, fixture):
    _, first = check(language_id, uri, fixture, "tally", kinds=SuggestionKinds(rename=True))
    assert first.new_name == "tally"
    assert first.position is not None


@pytest.mark.parametrize(("language_id", "uri", "fixture"), CASES, ids=[c[0] for c in CASES])
def test_rename_typed_keystroke_by_keystroke(language_id, uri, fixture):
    check(language_id, uri, fixture, "tally", keystrokes=True)


@pytest.mark.parametrize("encoding", list(PositionEncoding))
def test_rename_with_astral_text_in_every_encoding(encoding):
    fixture = """\
def greet(⟦name⟧):
    banner = "😀 héllo 世界"; print(banner, ‹name›)  # 😀 name
    return "😀" + ‹name›
"""
    check("python", "file:///w/greet.py", fixture, "who", encoding=encoding)


FUNCTION_FROM_USE = """\
def ‹load›(path):
    return open(path).read()


def main():
    data = ⟦load⟧("a.txt")
    more = ‹load›("b.txt")
    return data + more  # load twice
"""


def test_rename_function_from_a_use_site_rename_kind_carries_all():
    check("python", "file:///w/io.py", FUNCTION_FROM_USE, "read_file", kinds=SuggestionKinds(rename=True))


def test_rename_fallback_edit_goes_group_by_group():
    """Without ``rename``: first the occurrences in the edited function, then,
    asked again after applying it, the next group (the definition)."""
    text, site, old, occurrences = parse_fixture(FUNCTION_FROM_USE)
    uri = "file:///w/io.py"
    editor = Editor()
    editor.open(uri, "python", text)
    cursor = editor.rename_at(uri, site, old, "read_file")
    first = editor.suggest(uri, cursor)
    assert first and first[0].kind == "edit" and first[0].suggester == "rename"
    assert [e.range.start.line for e in first[0].edits] == [6]
    apply_suggestion(editor.session, first[0])
    second = editor.suggest(uri, cursor)
    assert second and second[0].kind == "edit"
    apply_suggestion(editor.session, second[0])
    assert editor.text(uri) == expected_text(text, site, old, "read_file", occurrences)
    assert editor.suggest(uri, cursor) == []


def test_rename_a_method_attribute():
    fixture = """\
class Box:
    def __init__(self):
        self.⟦size⟧ = 0

    def grow(self):
        self.‹size› += 1
        return self.‹size›
"""
    check("python", "file:///w/box.py", fixture, "volume")


def test_mid_word_backspacing_is_silent():
    text = "def f(counter):\n    return counter + counter\n"
    editor = Editor()
    uri = "file:///w/m.py"
    editor.open(uri, "python", text)
    cursor = editor.backspace(uri, text.index("counter") + len("counter"), 2)  # "count"
    assert editor.suggest(uri, cursor) == []


def test_identifier_typed_from_scratch_is_silent():
    text = "def f(x):\n    return x\n"
    editor = Editor()
    uri = "file:///w/s.py"
    editor.open(uri, "python", text)
    at = text.index("return x") + len("return x")
    cursor = editor.type(uri, at, " + total")
    assert editor.suggest(uri, cursor) == []


def test_repointing_a_use_at_another_existing_name_is_not_a_rename():
    fixture = """\
def f(a, b):
    x = ⟦a⟧ + 1
    return a * b
"""
    check("python", "file:///w/r.py", fixture.replace("⟦a⟧", "⟦a⟧"), "b")


def test_keyword_is_not_a_name():
    fixture = "def f(⟦x⟧):\n    return x\n"
    text = fixture.replace("⟦", "").replace("⟧", "")
    editor = Editor()
    uri = "file:///w/k.py"
    editor.open(uri, "python", text)
    site = text.index("x")
    cursor = editor.rename_at(uri, site, "x", "def")
    assert editor.suggest(uri, cursor) == []


def test_nothing_once_all_occurrences_match():
    editor, first = check("python", "file:///w/totals.py", PYTHON, "tally")
    apply_suggestion(editor.session, first)
    uri = "file:///w/totals.py"
    text = editor.text(uri)
    assert "tally = 0" in text and "count the items" in text
    assert editor.suggest(uri, text.index("tally")) == []


def test_rejected_rename_is_not_offered_again():
    uri = "file:///w/totals.py"
    editor, first = check("python", uri, PYTHON, "tally")
    editor.session.reject(first.id, "rejected")
    assert editor.suggest(uri, 0) == []
    # an unrelated edit elsewhere does not revive it
    editor.replace(uri, 0, 0, "# header\n")
    assert editor.suggest(uri, 0) == []


def test_never_rename_back():
    uri = "file:///w/totals.py"
    editor, first = check("python", uri, PYTHON, "tally")
    apply_suggestion(editor.session, first)
    text = editor.text(uri)
    # the developer now changes one use back to the old name
    at = text.index("return tally") + len("return ")
    cursor = editor.replace(uri, at, at + len("tally"), "count")
    assert editor.suggest(uri, cursor) == []


def test_undoing_the_rename_leaves_nothing():
    text, site, old, _ = parse_fixture(PYTHON)
    uri = "file:///w/totals.py"
    editor = Editor()
    editor.open(uri, "python", text)
    editor.rename_at(uri, site, old, "tally")
    cursor = editor.replace(uri, site, site + len("tally"), old)
    assert editor.text(uri) == text
    assert editor.suggest(uri, cursor) == []


def test_other_scope_same_name_untouched_when_renaming_there():
    fixture = """\
def total(items):
    count = 0
    for item in items:
        count += item
    return count


def other():
    ⟦count⟧ = 5
    return ‹count›
"""
    check("python", "file:///w/o.py", fixture, "five")


def test_plain_text_language_uses_tokens():
    fixture = "set ⟦width⟧ 10\nputs ‹width›\n# width in a comment\n"
    text, site, old, _ = parse_fixture(fixture)
    editor = Editor()
    uri = "file:///w/conf.unknownlang"
    editor.open(uri, "plaintext", text)
    cursor = editor.rename_at(uri, site, old, "height")
    out = editor.suggest(uri, cursor)
    assert out and out[0].suggester == "rename"
    result = apply_edits_to(editor.text(uri), out[0], PositionEncoding.UTF16)
    assert "puts height" in result
    assert "# width in a comment" in result


def test_whole_line_hunk_renaming_several_sites():
    text = "def f(value):\n    a = value + value\n    return value\n"
    # a hunk rewrites the first two lines
    result = _first_suggestion_after_hunk(text, "    return", "def f(amount):\n    a = amount + amount\n")
    assert result == "def f(amount):\n    a = amount + amount\n    return amount\n"


def _first_suggestion_after_hunk(text: str, upto: str, hunk: str) -> str:
    """The Python file ``text`` once its start, up to ``upto``, is rewritten
    as ``hunk`` in one change and the first suggestion is applied."""
    uri = "file:///w/h.py"
    editor = Editor(SuggestionKinds(rename=True))  # every occurrence at once
    editor.open(uri, "python", text)
    end = text.index(upto)
    editor.replace(uri, 0, end, hunk)
    out = editor.suggest(uri, end)
    assert out
    return apply_edits_to(editor.text(uri), out[0], PositionEncoding.UTF16)


def test_a_rewritten_line_shortening_a_name_is_a_rename():
    """Shortened to its own prefix in a rewritten line (``uint128_fallback``
    -> ``uint128``): a rename, not the backspacing of a name being typed."""
    text = "def f(value_old):\n    a = value_old + 1\n    return value_old\n"
    result = _first_suggestion_after_hunk(text, "    a =", "def f(value):\n")
    assert result == "def f(value):\n    a = value + 1\n    return value\n"


def test_big_hunk_renaming_a_name_on_every_line_is_still_a_rename():
    """A hunk too big to token-diff whole (past ``_WHOLE_HUNK_TOKENS``) is
    diffed line by line; the rename it carries is followed all the same."""
    rows = "".join(f"    table.add(value, {i}, 'row {i}', value)\n" for i in range(70))
    text = f"def fill(table, value):\n{rows}    return value\n"
    uri = "file:///w/big_hunk.py"
    editor = Editor(SuggestionKinds(rename=True))  # every occurrence at once
    editor.open(uri, "python", text)
    start = text.index("    table.add")
    end = text.index("    return")
    editor.replace(uri, start, end, rows.replace("value", "amount"))
    out = editor.suggest(uri, end)
    assert out
    result = apply_edits_to(editor.text(uri), out[0], PositionEncoding.UTF16)
    assert result == text.replace("value", "amount")


def test_cross_file_rename_of_a_top_level_function():
    lib = "def fetch(url):\n    return url\n"
    app = "from lib import fetch\n\n\ndef main():\n    return fetch('x')  # fetch\n\n\ndef local():\n    fetch = 1\n    return fetch\n"
    editor = Editor()
    editor.open("file:///w/lib.py", "python", lib)
    editor.open("file:///w/app.py", "python", app)
    site = lib.index("fetch")
    cursor = editor.rename_at("file:///w/lib.py", site, "fetch", "download")
    out = editor.suggest("file:///w/lib.py", cursor)
    cross = [s for s in out if s.uri == "file:///w/app.py"]
    assert cross, out
    result = apply_edits_to(app, cross[0], PositionEncoding.UTF16)
    assert result == app.replace("import fetch", "import download").replace("return fetch('x')", "return download('x')")


# -- field shorthands: the text pre-filter never hides a field ---------------------------------

_FIELD_CASES = [
    ("rust", "struct S { old: i32 }\nfn f(old: i32) -> S {\n    S { old }\n}\n", "old", "new"),
    ("rust", "fn f(old: i32, new: i32) -> S {\n    S { new: old, x: [old, 1] }\n}\n", "old", "new"),
    (
        "rust",
        "fn f(old: i32) -> S {\n    S {\n        #[cfg(x)]\n        old,\n        y: old,\n    }\n}\n",
        "old",
        "new",
    ),
    ("rust", "fn f(old: i32, new: i32) -> S {\n    S { new: /* c */ old }\n}\n", "old", "new"),
    (
        "typescript",
        "function f(old: number, new_: number) {\n  return { old, a: old, new_: old, b: [old] };\n}\n",
        "old",
        "new_",
    ),
    (
        "typescript",
        "function f({ old }: T, new_: number) {\n  const { new_: old2 } = g(old, { new_: // c\n old });\n}\n",
        "old",
        "new_",
    ),
]


@pytest.mark.parametrize(("language", "text", "old", "new"), _FIELD_CASES)
def test_field_prefilter_changes_nothing(language, text, old, new, monkeypatch):
    from nextedit.session import Session
    from nextedit.suggest.model import TextEditCp
    from nextedit.suggest.rename import occurrences

    session = Session("s")
    session.did_open("file:///a", language, 1, text)
    state = session.documents["file:///a"]
    edits = [TextEditCp(m.start(), m.end(), new) for m in re.finditer(rf"\b{old}\b", text)]
    filtered = occurrences.shorthand_fields(state, edits, old, new)
    monkeypatch.setattr(occurrences, "_may_be_field", lambda *_: True)
    assert filtered == occurrences.shorthand_fields(state, edits, old, new)
    assert filtered != edits  # every case has a field to rewrite


def test_a_python_dict_pair_keyed_by_the_new_name_stays_a_pair():
    """``{new: old}`` renamed is ``{new: new}``: folding it to ``{new}`` (as
    a JavaScript object's shorthand) would make a Python dict a set."""
    from nextedit.session import Session
    from nextedit.suggest.model import TextEditCp
    from nextedit.suggest.rename import occurrences

    text = "def f(old, new):\n    return {new: old, 'a': old}, g(old)\n"
    session = Session("s")
    session.did_open("file:///a.py", "python", 1, text)
    state = session.documents["file:///a.py"]
    edits = [TextEditCp(m.start(), m.end(), "new") for m in re.finditer(r"\bold\b", text)]
    assert occurrences.shorthand_fields(state, edits, "old", "new") == edits


def test_a_long_session_still_offers_the_rename_of_a_local():
    """How many edits a session has made says nothing about the next one: a
    developer who renamed a local in twelve functions (and finished none of
    those renames) is still offered the uses of the thirteenth."""
    functions = "".join(
        f"fn f{i}(x: i64) -> i64 {{\n    let mut total = 0;\n    total += x;\n    total\n}}\n\n" for i in range(13)
    )
    uri = "file:///w/long.rs"
    editor = Editor(SuggestionKinds(rename=True))  # every occurrence at once
    editor.open(uri, "rust", functions)
    out = []
    for i in range(13):
        text = editor.text(uri)
        at = text.index("let mut total", text.index(f"fn f{i}(")) + len("let mut ")
        cursor = editor.rename_at(uri, at, "total", f"amount{i}")
        out = editor.suggest(uri, cursor)
    assert out and out[0].suggester == "rename"
    renamed = apply_edits_to(editor.text(uri), out[0], PositionEncoding.UTF16)
    assert "    amount12 += x;\n    amount12\n" in renamed


def test_a_reflowed_table_renames_nothing_and_a_renamed_name_in_a_table_is_found() -> None:
    from nextedit.suggest.rename.evidence import _hunk_renames

    table = "  " + ", ".join(["0xFF"] * 40) + ",\n"
    reflowed = "  " + ",\n  ".join(", ".join(["0xFF"] * 8) for _ in range(5)) + ",\n"
    assert _hunk_renames(table, reflowed) is None
    before = "  " + ", ".join(["0xFF"] * 20 + ["LIMIT"] + ["0xFF"] * 20) + ",\n"
    after = "  " + ", ".join(["0xFF"] * 20 + ["MAX_LIMIT"] + ["0xFF"] * 20) + ",\n"
    assert _hunk_renames(before, after) == ("LIMIT", "MAX_LIMIT", (after.index("MAX_LIMIT"),), True)


def test_no_token_diff_of_a_hunk_reads_more_than_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the hunk — a big one renaming a name on every line, or a long
    block rewritten as a short one — every token diff the rename evidence
    runs stays within ``_WHOLE_HUNK_TOKENS`` (tokens before × after): the
    rewritten block is no rename, and reading it costs no quadratic diff."""
    from nextedit.suggest.rename import evidence

    sizes: list[int] = []
    real = evidence._token_replacements

    def measured(before: list[tuple[int, str]], after: list[tuple[int, str]]) -> object:
        sizes.append(len(before) * len(after))
        return real(before, after)

    monkeypatch.setattr(evidence, "_token_replacements", measured)
    rows = "".join(f"    table.add(value, {i}, 'row {i}', value)\n" for i in range(70))
    renamed = evidence._hunk_renames(
        f"def fill(table, value):\n{rows}", f"def fill(table, amount):\n{rows.replace('value', 'amount')}"
    )
    assert renamed is not None and renamed[:2] == ("value", "amount")
    body = "".join(
        f"        let field_{i} = visitor.next_element::<T{i}>()?.unwrap_or_default();\n" for i in range(240)
    )
    rewrite = "".join(f"        let fields = visitor.collect::<T{i}>()?;\n" for i in range(24))
    assert evidence._hunk_renames(f"fn visit() {{\n{body}}}\n", f"fn visit() {{\n{rewrite}}}\n") is None
    assert sizes and max(sizes) <= evidence._WHOLE_HUNK_TOKENS


def test_a_rename_on_repeated_lines_of_a_big_hunk_reads_every_site() -> None:
    """A hunk of lines that repeat (``}``, the same call) renaming a name on
    each, with some braces re-indented on the way: the line diff pairs the
    lines one for one, so every renamed site is read and the re-indent,
    whitespace only, keeps the rename pure (a quadratic line matcher paired
    them otherwise: 138 of the 200 sites, and impure)."""
    from nextedit.suggest.rename.evidence import _hunk_renames

    rows = "".join(("    }\n" if i % 3 == 0 else f"    value.add({i % 7});\n") for i in range(300))
    rewritten = rows.replace("value", "amount").replace("    }\n", "  }\n", 30)
    found = _hunk_renames(rows, rewritten)
    assert found is not None
    old, new, offsets, pure = found
    assert (old, new, pure) == ("value", "amount", True)
    assert len(offsets) == rows.count("value")
    assert all(rewritten.startswith("amount", at) for at in offsets)
