"""After a signature change, the call sites that don't match yet (through Session)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.suggest.model import SuggestionKinds
from nextedit.suggest.signature import split_parameters
from nextedit.text import PositionEncoding
from tests.helpers.session import Editor, apply_edits_to

ENC = PositionEncoding.UTF16
JUMP = SuggestionKinds(jump=True)


def _signature_answers(text: str, at: int, old: str, new: str) -> list:
    """The signature suggester's answers after the developer replaced ``old``
    at ``at`` in a Python file by ``new`` — typed key by key when ``old`` is
    empty (jumps allowed)."""
    uri = "file:///w/a.py"
    editor = Editor(JUMP)
    editor.open(uri, "python", text)
    assert text[at : at + len(old)] == old
    cursor = editor.type(uri, at, new) if not old else editor.replace(uri, at, at + len(old), new)
    return [s for s in editor.suggest(uri, cursor) if s.suggester == "signature"]


def _after_removing(language_id: str, uri: str, text: str, param: str) -> tuple[Editor, list]:
    """The editor and every suggestion after the developer deleted ``param``
    (its first occurrence) from ``text``."""
    editor = Editor()
    editor.open(uri, language_id, text)
    i = text.index(param)
    cursor = editor.replace(uri, i, i + len(param), "")
    return editor, editor.suggest(uri, cursor)


def test_split_parameters_respects_nesting():
    assert split_parameters("(a, b: dict[str, int] = {}, c=(1, 2))") == ["a", "b: dict[str, int] = {}", "c=(1, 2)"]
    assert split_parameters("()") == []


PY = "def area(width, height, unit):\n    return width * height\n\n\ndef main():\n    a = area(1, 2, 'm')\n    b = area(3, 4, 'cm')\n    return a + b\n"


def test_removed_parameter_drops_the_argument_at_the_next_call():
    uri = "file:///w/a.py"
    editor = Editor()
    editor.open(uri, "python", PY)
    i = PY.index(", unit")
    cursor = editor.replace(uri, i, i + len(", unit"), "")
    out = editor.suggest(uri, cursor)
    assert out and out[0].suggester == "signature" and out[0].kind == "edit"
    assert apply_edits_to(editor.text(uri), out[0], ENC).count("area(1, 2)") == 1
    assert any(e.startswith("edit #") and "parameters of `area`" in e for e in out[0].evidence)


@pytest.mark.parametrize(
    ("language_id", "uri", "text", "param", "call"),
    [
        (
            "rust",
            "file:///w/a.rs",
            'fn area(w: i32, h: i32, unit: &str) -> i32 { w * h }\n\nfn main() {\n    let a = area(1, 2, "m");\n}\n',
            ", unit: &str",
            'area(1, 2, "m")',
        ),
        (
            "go",
            "file:///w/a.go",
            'package m\n\nfunc area(w int, h int, unit string) int { return w * h }\n\nfunc g() int { return area(1, 2, "m") }\n',
            ", unit string",
            'area(1, 2, "m")',
        ),
        (
            "typescript",
            "file:///w/a.ts",
            "function area(w: number, h: number, unit: string) { return w * h; }\nconst a = area(1, 2, 'm');\n",
            ", unit: string",
            "area(1, 2, 'm')",
        ),
        (
            "java",
            "file:///w/A.java",
            'class A {\n  int area(int w, int h, String unit) { return w * h; }\n  int g() { return this.area(1, 2, "m"); }\n}\n',
            ", String unit",
            'area(1, 2, "m")',
        ),
    ],
)
def test_removed_parameter_in_other_languages(language_id, uri, text, param, call):
    editor, out = _after_removing(language_id, uri, text, param)
    assert out and out[0].suggester == "signature", out
    assert "area(1, 2)" in apply_edits_to(editor.text(uri), out[0], ENC)


def test_added_parameter_passes_the_variable_of_that_name_at_the_next_call():
    text = "def area(width):\n    return width\n\n\ndef main(height):\n    a = area(1)\n    b = area(2)\n    return a\n"
    uri = "file:///w/a.py"
    editor = Editor()
    editor.open(uri, "python", text)
    cursor = editor.type(uri, text.index("width)") + 5, ", height")
    out = editor.suggest(uri, cursor)
    assert out and out[0].kind == "edit" and out[0].suggester == "signature"
    assert "    a = area(1, height)\n    b = area(2)\n" in apply_edits_to(editor.text(uri), out[0], ENC)
    assert any("`height` passed as argument 2" in e for e in out[0].evidence)


def test_added_parameter_in_front_goes_in_front_of_the_arguments():
    text = "function area(w) { return w; }\nfunction draw(unit) {\n  return area(3);\n}\n"
    uri = "file:///w/a.js"
    editor = Editor()
    editor.open(uri, "javascript", text)
    cursor = editor.type(uri, text.index("(w)") + 1, "unit, ")
    out = editor.suggest(uri, cursor)
    assert out and out[0].suggester == "signature"
    assert "return area(unit, 3);" in apply_edits_to(editor.text(uri), out[0], ENC)


def test_a_far_call_gets_a_jump_that_keeps_its_promise():
    filler = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(60))
    text = "def area(width):\n    return width\n\n\n" + filler + "def main(height):\n    return area(1)\n"
    uri = "file:///w/a.py"
    editor = Editor(JUMP)
    editor.open(uri, "python", text)
    cursor = editor.type(uri, text.index("width)") + 5, ", height")
    out = editor.suggest(uri, cursor)
    assert out and out[0].kind == "jump" and out[0].suggester == "signature"
    # asked again where the jump lands, the edit it promised
    doc = editor.session.documents[uri].document
    again = editor.session.suggest(uri, doc.version, out[0].position)
    assert again and again[0].kind == "edit"
    assert "    return area(1, height)\n" in apply_edits_to(editor.text(uri), again[0], ENC)


def test_added_parameter_without_a_value_in_sight_is_silent():
    """The new argument is the developer's to write: no edit, and no jump
    (a jump must promise an edit where it lands)."""
    text = "def area(width):\n    return width * height\n\n\ndef main():\n    a = area(1)\n    return a\n"
    # ``height`` stands only in the changed function, not around the call
    assert _signature_answers(text, text.index("width)") + 5, "", ", height") == []


def test_added_parameter_with_a_default_needs_no_call_change():
    text = "def area(width):\n    return width\n\n\nprint(area(1))\n"
    assert _signature_answers(text, text.index("width)") + 5, "", ", unit=None") == []


def test_annotation_only_change_is_silent():
    text = "def area(width, height):\n    return width\n\n\nprint(area(1, 2))\n"
    assert _signature_answers(text, text.index(", height"), "", ": int") == []


def test_calls_already_updated_are_left_alone():
    text = "def area(w, h):\n    return w\n\n\nprint(area(1))\n"
    assert _signature_answers(text, text.index(", h)"), ", h", "") == []


def test_variadic_signature_is_silent():
    text = "def log(msg, *args):\n    print(msg)\n\n\nlog('a', 1, 2)\n"
    assert _signature_answers(text, text.index("msg, ") + 3, "", ", level") == []


def test_method_receiver_is_not_a_parameter():
    text = "class A:\n    def run(self, a, b):\n        return a\n\n\ndef go(x):\n    return x.run(1, 2)\n"
    uri = "file:///w/a.py"
    editor = Editor()
    editor.open(uri, "python", text)
    i = text.index(", b)")
    cursor = editor.replace(uri, i, i + 3, "")
    out = editor.suggest(uri, cursor)
    assert out and out[0].suggester == "signature"
    assert "x.run(1)" in apply_edits_to(editor.text(uri), out[0], ENC)


def test_a_parameter_removed_but_still_read_in_the_body_waits() -> None:
    """The body still names the removed parameter: the developer is not done
    with the definition, so its calls are left alone."""
    text = "def area(w, h, unit):\n    return f'{w * h}{unit}'\n\n\nprint(area(1, 2, 'm'))\n"
    assert _signature_answers(text, text.index(", unit"), ", unit", "") == []


@pytest.mark.parametrize(
    ("language_id", "uri", "text", "param", "updated"),
    [
        (
            "python",
            "file:///w/a.py",
            "def area(w, h, unit):\n    return w * h\n\n\nprint(area(1,  # the width\n           2, 'm'))\n",
            ", unit",
            "area(1,  # the width\n           2)",
        ),
        (
            "rust",
            "file:///w/a.rs",
            'fn area(w: i32, h: i32, unit: &str) -> i32 { w * h }\n\nfn main() {\n    area(1, /* h */ 2, "m");\n}\n',
            ", unit: &str",
            "area(1, /* h */ 2)",
        ),
    ],
)
def test_a_comment_among_the_arguments_is_not_an_argument(language_id, uri, text, param, updated):
    editor, suggestions = _after_removing(language_id, uri, text, param)
    out = [s for s in suggestions if s.suggester == "signature"]
    assert out and updated in apply_edits_to(editor.text(uri), out[0], ENC)


def test_a_method_another_class_also_defines_is_left_alone_on_an_object() -> None:
    """``x.run(1, 2)``: the receiver's type is unknown, and two classes define
    ``run``; the call may be the other one's."""
    text = (
        "class A:\n    def run(self, a, b):\n        return a\n\n\n"
        "class B:\n    def run(self, a, b):\n        return b\n\n\n"
        "def go(x):\n    return x.run(1, 2)\n"
    )
    assert _signature_answers(text, text.index(", b)"), ", b", "") == []


def test_a_parameter_removed_several_edits_ago_still_leads_to_the_calls() -> None:
    """The developer drops a parameter, tidies the function body over a few
    edits, and only then asks: the calls still get their argument dropped
    (the evidence is looked for among the last 8 edits, not the last 2)."""
    uri = "file:///w/a.py"
    text = PY.replace("    return width * height\n", "    w = width\n    h = height\n    s = 1\n    return w * h * s\n")
    editor = Editor()
    editor.open(uri, "python", text)
    i = text.index(", unit")
    editor.replace(uri, i, i + len(", unit"), "")
    for old, new in (("w = width", "w = float(width)"), ("h = height", "h = float(height)"), ("s = 1", "s = 1.0")):
        j = editor.text(uri).index(old)
        cursor = editor.replace(uri, j, j + len(old), new)
    out = [s for s in editor.suggest(uri, cursor) if s.suggester == "signature"]
    assert out and apply_edits_to(editor.text(uri), out[0], ENC).count("area(1, 2)") == 1


def test_calls_already_resolved_on_this_version_give_the_same_answer():
    """The suggester reads each call while the resolver classifies it; when
    the function's name was resolved before on the same tree version (by
    another reader), it looks the calls up itself: same answer."""
    uri = "file:///w/a.py"
    i = PY.index(", unit")
    answers = []
    for resolve_first in (False, True):
        editor = Editor()
        editor.open(uri, "python", PY)
        cursor = editor.replace(uri, i, i + len(", unit"), "")
        if resolve_first:
            from nextedit.syntax.scopes import binding_occurrences

            state = editor.session.documents[uri]
            assert state.syntax is not None
            source = state.document.source_bytes
            state.syntax.root  # noqa: B018 - the pending re-parse, so the memo is the one a suggest reads
            assert binding_occurrences(state.syntax, source, source.index(b"area")) is not None
        out = [s for s in editor.suggest(uri, cursor) if s.suggester == "signature"]
        assert out
        answers.append([(s.kind, apply_edits_to(editor.text(uri), s, ENC), s.evidence[1:]) for s in out])
    assert answers[0] == answers[1]


def _signature_after_editing_a_parsed_file(text: str, old: str, new: str, parse_first: bool) -> tuple[list, bool]:
    """The signature suggester's answers (kind, text after applying, evidence)
    after the developer replaced ``old`` by ``new`` in a Python file parsed
    since it was opened — with or without a re-parse before the suggest —
    and whether a re-parse was still pending after it."""
    uri = "file:///w/a.py"
    editor = Editor()
    editor.open(uri, "python", text)
    state = editor.session.documents[uri]
    assert state.syntax is not None
    state.syntax.root  # noqa: B018 - the first parse: what follows is an edit of a parsed file
    i = text.index(old)
    cursor = editor.replace(uri, i, i + len(old), new)
    assert state.syntax.reparse_pending
    if parse_first:
        state.syntax.root  # noqa: B018 - a reader re-parsed before the suggest
    out = [s for s in editor.suggest(uri, cursor) if s.suggester == "signature"]
    answers = [(s.kind, apply_edits_to(editor.text(uri), s, ENC), s.evidence[1:]) for s in out]
    return answers, state.syntax.reparse_pending


def test_a_parameter_list_edit_leads_to_the_calls_without_a_re_parse() -> None:
    """Edits inside the parameter list since the last parse leave every call
    outside it as parsed: the calls are read on the last parse, offsets
    moved (tree-sitter's re-parse of a file costs time linear in its
    top-level nodes, ~20 ms at 100k lines). The answer is the one read on
    a re-parsed tree."""
    answers, pending = _signature_after_editing_a_parsed_file(PY, ", unit", "", parse_first=False)
    assert answers and answers[0][0] == "edit" and answers[0][1].count("area(1, 2)") == 1
    assert pending  # nobody re-parsed
    assert answers == _signature_after_editing_a_parsed_file(PY, ", unit", "", parse_first=True)[0]


def test_a_parameter_named_like_its_function_needs_the_re_parse() -> None:
    """A parameter named like the function shadows it in the body: which
    calls are the function's changes with the list, so the calls are read
    on the re-parsed tree — the same answer either way."""
    text = PY.replace("return width * height", "return width * height + area(0, 0, 'x')")
    answers, pending = _signature_after_editing_a_parsed_file(text, "unit", "unit, area", parse_first=False)
    assert not pending
    assert answers == _signature_after_editing_a_parsed_file(text, "unit", "unit, area", parse_first=True)[0]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=2, max_size=3, unique=True),
    st.sampled_from(["add", "remove"]),
    st.sampled_from(["e", "height", "area"]),
    st.integers(min_value=1, max_value=3),
)
def test_the_calls_read_the_same_on_the_last_parse_as_on_a_re_parse(
    params: list[str], change: str, added: str, calls: int
) -> None:
    """Whatever parameter is added or removed (named like the function too),
    the answer read on the last parse with offsets moved is the one read on
    a re-parsed tree."""
    args = ", ".join(str(i) for i in range(len(params)))
    callers = "".join(f"\n\ndef f{i}(height):\n    return area({args})\n" for i in range(calls))
    text = f"def area({', '.join(params)}):\n    return {params[0]} + area({args})\n" + callers
    if change == "add":
        old, new = f"{params[0]}, ", f"{params[0]}, {added}, "
    else:
        old, new = f", {params[-1]}", ""
    answers, _pending = _signature_after_editing_a_parsed_file(text, old, new, parse_first=False)
    assert answers == _signature_after_editing_a_parsed_file(text, old, new, parse_first=True)[0]
