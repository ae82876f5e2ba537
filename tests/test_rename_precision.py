"""Rename precision, through a real Session: bindings the syntax layer resolves
too widely, partial renames, bounded ``edit`` fallbacks, field shorthands,
evidence strings and diagnostics."""

from __future__ import annotations

import pytest

from nextedit.suggest.model import SuggestionKinds, SuggestRequest
from nextedit.suggest.rename import RenameSuggester
from nextedit.suggest.suggester import SuggestContext
from nextedit.text import PositionEncoding, Range
from tests.helpers.rename import check
from tests.helpers.session import Editor, apply_edits_to, apply_suggestion

ENC = PositionEncoding.UTF16


def _replace_first(editor: Editor, uri: str, old: str, new: str) -> int:
    """Replace the first ``old`` in the document with ``new`` (a name typed over, a line rewritten); the cursor after it."""
    at = editor.text(uri).index(old)
    return editor.replace(uri, at, at + len(old), new)


def _open_and_rename(uri: str, language: str, text: str, old: str, new: str) -> tuple[Editor, int]:
    """An editor holding ``text`` with its first ``old`` typed over as ``new``, and the cursor after it."""
    editor = Editor()
    editor.open(uri, language, text)
    return editor, _replace_first(editor, uri, old, new)


def _propose_renames(editor: Editor, uri: str, cursor: int, kinds: SuggestionKinds):
    """The rename suggester's own proposal at ``cursor``, whatever the ranker would score."""
    state = editor.session.documents[uri]
    request = SuggestRequest(uri, state.document.version, cursor)
    context = SuggestContext.for_request(editor.session, request, state, kinds, frozenset())
    return RenameSuggester().propose(context)


def test_python_except_alias_is_its_own_binding_per_clause():
    fixture = """\
def on_failure(self, e):
    try:
        return super().on_failure(e)
    except BadRequest as ⟦e⟧:
        if debug:
            raise
        raise BadRequest() from ‹e›
    except KeyError as e:
        log(e)
"""
    check("python", "file:///w/wrappers.py", fixture, "ebr")


def test_python_except_alias_renamed_from_a_use_stays_in_its_clause():
    fixture = """\
def load(e):
    try:
        return parse(e)
    except ValueError as ‹e›:
        raise Invalid() from ⟦e⟧
"""
    check("python", "file:///w/load.py", fixture, "exc")


def test_parameter_renamed_outside_the_except_clauses_leaves_them_alone():
    fixture = """\
def load(⟦e⟧):
    try:
        return parse(‹e›)
    except ValueError as e:
        raise Invalid() from e
"""
    check("python", "file:///w/load.py", fixture, "entry")


def test_occurrence_kept_in_a_rewritten_hunk_means_a_partial_rename():
    """``rule = make(rule)`` → ``rule_obj = make(rule)``: the developer kept
    the argument; renaming the parameter would be wrong: silence."""
    text = "def add(rule, methods):\n    rule = make(rule, methods)\n    rule.options = 1\n    register(rule)\n"
    uri = "file:///w/app.py"
    editor = Editor()
    editor.open(uri, "python", text)
    start = text.index("    rule = make")
    end = text.index("    register")
    hunk = "    rule_obj = make(rule, methods)\n    rule_obj.options = 1\n"
    editor.replace(uri, start, end, hunk)
    assert editor.suggest(uri, start + len(hunk)) == []


def test_the_occurrence_a_partial_rename_kept_is_not_the_same_name_elsewhere():
    """The rename suggester itself, whatever the ranker would score: after
    ``rule = make(rule)`` → ``rule_obj = make(rule)`` no candidate of it (the
    binding, or the same word outside the binding) touches the kept ``rule``s."""
    text = "def add(rule, methods):\n    rule = make(rule, methods)\n    rule.options = 1\n    register(rule)\n"
    uri = "file:///w/app.py"
    editor = Editor()
    editor.open(uri, "python", text)
    start = text.index("    rule = make")
    hunk = "    rule_obj = make(rule, methods)\n    rule_obj.options = 1\n"
    cursor = editor.replace(uri, start, text.index("    register"), hunk)
    proposal = _propose_renames(editor, uri, cursor, SuggestionKinds())
    assert not isinstance(proposal, list) or proposal == []


def test_a_word_changed_in_a_string_does_not_hide_an_older_rename():
    """requests' Sphinx conf: ``master_doc`` → ``root_doc`` at its
    definition, then ``"requests"`` → ``"psf"`` in a string. The newer change
    reaches only the same word elsewhere; the binding of the older rename
    still has its uses to rename, and the suggester offers them too."""
    text = (
        "import requests\n"
        'master_doc = "index"\n'
        "version = requests.__version__\n"
        'html_theme_options = {"github_user": "requests"}\n'
        'project = "requests"\n'
        'latex_documents = [(master_doc, "Requests.tex")]\n'
        'man_pages = [(master_doc, "requests")]\n'
    )
    uri = "file:///w/conf.py"
    editor, _ = _open_and_rename(uri, "python", text, "master_doc", "root_doc")
    at = editor.text(uri).index('"requests"}') + 1
    cursor = editor.replace(uri, at, at + len("requests"), "psf")
    proposal = _propose_renames(editor, uri, cursor, SuggestionKinds(rename=True))
    assert isinstance(proposal, list)
    renames = [c for c in proposal if c.kind == "rename"]
    assert [c.new_name for c in renames] == ["root_doc"]
    current = editor.text(uri)
    assert sorted(current[e.start_cp : e.end_cp] for e in renames[0].edits) == ["master_doc", "master_doc"]
    words = [c for c in proposal if c.features.family == "text"]
    assert words and all(c.edits[0].new_text == "psf" for c in words)


def test_a_rename_made_with_one_same_other_change_is_not_offered_alone_where_that_change_applies():
    """psutil: ``PyErr_SetString(PyExc_RuntimeError, msg)`` rewritten
    ``psutil_runtime_error(msg)`` twice. Where ``PyExc_RuntimeError,`` also
    stands, the name alone is half the developer's change (the repeat
    suggester offers the whole): no same-name candidate there. A bare
    ``PyErr_SetString`` elsewhere, without that argument, still gets one."""
    text = (
        "static int a(void) {\n"
        '    PyErr_SetString(PyExc_RuntimeError, "first");\n'
        "    return -1;\n"
        "}\n"
        "static int b(void) {\n"
        '    PyErr_SetString(PyExc_RuntimeError, "second");\n'
        "    return -1;\n"
        "}\n"
        "static int c(void) {\n"
        "    PyErr_SetString(\n"
        '        PyExc_RuntimeError, "third");\n'
        "    return -1;\n"
        "}\n"
        "static setter_t d = PyErr_SetString;\n"
    )
    uri = "file:///w/errors.c"
    editor = Editor()
    editor.open(uri, "c", text)
    _replace_first(
        editor, uri, '    PyErr_SetString(PyExc_RuntimeError, "first");', '    psutil_runtime_error("first");'
    )
    cursor = _replace_first(
        editor, uri, '    PyErr_SetString(PyExc_RuntimeError, "second");', '    psutil_runtime_error("second");'
    )
    proposal = _propose_renames(editor, uri, cursor, SuggestionKinds(rename=True))
    assert isinstance(proposal, list)
    current = editor.text(uri)
    words = [c for c in proposal if c.features.family == "text"]
    assert [current[c.edits[0].start_cp :].split("\n", 1)[0] for c in words] == ["PyErr_SetString;"]


def test_a_rename_made_with_one_same_other_change_is_offered_alone_where_that_change_does_not_apply():
    """jq: ``if (n == 0 || n > alloced)`` rewritten twice with ``max_size``
    and a longer condition; a lone ``alloced`` elsewhere holds none of the
    rest of that change, and the rename alone is the edit there."""
    text = (
        "static void grow(size_t alloced) {\n"
        "    size_t used = alloced;\n"
        "}\n"
        "static int f(int n, size_t alloced) {\n"
        "    if (n == 0 || n > alloced) return 1;\n"
        "    return 0;\n"
        "}\n"
        "static int g(int n, size_t alloced) {\n"
        "    if (n == 0 || n > alloced) return 1;\n"
        "    return 0;\n"
        "}\n"
    )
    uri = "file:///w/grow.c"
    editor = Editor()
    editor.open(uri, "c", text)
    for _ in range(2):
        cursor = _replace_first(
            editor,
            uri,
            "    if (n == 0 || n > alloced) return 1;",
            "    if ((n == 0 && *fmt) || n > max_size) return 1;",
        )
    proposal = _propose_renames(editor, uri, cursor, SuggestionKinds(rename=True))
    assert isinstance(proposal, list)
    current = editor.text(uri)
    offered = {current[c.edits[0].start_cp : c.edits[0].end_cp] for c in proposal if c.features.family == "text"}
    assert offered == {"alloced"}


def test_a_path_to_another_module_s_item_of_the_same_name_is_no_local():
    """serde: ``pub(super) fn generate_body`` renamed ``deserialize`` in each
    module; ``struct_::generate_body(…)`` names the other module's function.
    The last segment of a path is a use, not a definition of a local, so the
    same word there is offered (for the ranker to weigh) instead of being
    left as "another local variable of the same name"."""
    text = (
        "pub(super) fn generate_body(style: Style) -> Fragment {\n"
        "    match style {\n"
        "        Style::Struct => struct_::generate_body(style),\n"
        "        Style::Tuple => tuple::generate_body(style),\n"
        "    }\n"
        "}\n"
    )
    uri = "file:///w/enum_internally.rs"
    editor, cursor = _open_and_rename(uri, "rust", text, "generate_body", "deserialize")
    proposal = _propose_renames(editor, uri, cursor, SuggestionKinds(rename=True))
    assert isinstance(proposal, list)
    current = editor.text(uri)
    assert all(
        c.features.family == "text" and current[c.edits[0].start_cp : c.edits[0].end_cp] == "generate_body"
        for c in proposal
    )
    paths = sorted(current[: c.edits[0].start_cp].rsplit(" ", 1)[-1] + c.edits[0].new_text for c in proposal)
    assert paths == ["struct_::deserialize", "tuple::deserialize"]


def test_whole_hunk_rename_without_kept_occurrences_still_suggests():
    text = "def add(rule, methods):\n    x = make(rule, methods)\n    x.options = 1\n    register(x)\n"
    uri = "file:///w/app.py"
    editor = Editor()
    editor.open(uri, "python", text)
    start = text.index("    x = make")
    end = text.index("    register")
    hunk = "    obj = make(rule, methods)\n    obj.options = 1\n"
    editor.replace(uri, start, end, hunk)
    out = editor.suggest(uri, start + len(hunk))
    assert out and out[0].suggester == "rename"
    assert apply_edits_to(editor.text(uri), out[0], ENC).endswith("    register(obj)\n")


def test_skipped_occurrence_between_renamed_sites_is_a_partial_rename():
    """Renaming the 2nd and 4th use but not the 3rd is a choice: the skipped
    occurrence is never offered. Whether the others are is the ranker's call
    (its ``partial`` feature): on the recorded traces the first candidate of
    such a rename was right 32 times in 56, but 7 in 31 outside one fmt commit."""
    text = "def f(total):\n    a = total\n    b = total\n    c = total\n    d = total\n    return total\n"
    uri = "file:///w/s.py"
    editor = Editor()
    editor.open(uri, "python", text)
    # rename the 2nd and the 4th use, skip the 3rd
    for line in (4, 2):
        cp = sum(len(x) + 1 for x in text.split("\n")[:line]) + len("    a = ")
        cursor = editor.rename_at(uri, cp, "total", "sum_")
    out = editor.suggest(uri, cursor)
    assert all(e.range.start.line != 3 for s in out for e in s.edits)  # never the skipped one


def test_rust_path_rename_only_touches_the_same_path():
    fixture = """\
struct Types { matches: Arc<Pool<Vec<usize>>> }

impl Types {
    fn new() -> Types {
        Types { matches: Arc::new(Pool::⟦new⟧(|| vec![])) }
    }

    fn empty() -> Types {
        Types { matches: Arc::new(Pool::‹new›(|| Vec::new())) }
    }
}
"""
    check("rust", "file:///w/types.rs", fixture, "with_capacity", kinds=SuggestionKinds(rename=True))


def test_rust_macro_path_names_another_item():
    # serde's code generators: renaming the free function leaves the trait
    # method of the same name, spelt as a path inside ``quote!``, alone
    fixture = """\
pub fn ⟦deserialize_tuple⟧(params: &Parameters) -> Fragment {
    let dispatch = quote! {
        _serde::Deserializer::deserialize_tuple(__deserializer, #field_count, #visitor_expr)
    };
    let call = quote!(__deserializer.deserialize_tuple(#field_count));
    dispatch
}

fn deserialize_in_place(params: &Parameters) -> Fragment {
    ‹deserialize_tuple›(params)
}
"""
    check("rust", "file:///w/tuple.rs", fixture, "generate_body", kinds=SuggestionKinds(rename=True))


def test_go_package_qualified_type_is_not_the_parameter():
    # a parameter named like a type of another package: renaming it leaves
    # ``testing.B`` alone
    fixture = """\
package gin

import "testing"

func BenchmarkOneRoute(⟦B⟧ *testing.B) {
	var other testing.B
	‹B›.ReportAllocs()
	_ = other
}
"""
    check("go", "file:///w/bench_test.go", fixture, "b", kinds=SuggestionKinds(rename=True))


def test_typescript_namespace_qualified_type_is_not_the_local_alias():
    # zod: ``type input`` of this module against ``z.input`` of the import
    fixture = """\
import { z } from "zod";

export type ⟦input⟧<T> = T extends { _input: infer I } ? I : never;
type Parsed = z.input<typeof schema>;
const sample: ‹input›<typeof schema> = {};
"""
    check("typescript", "file:///w/types.ts", fixture, "InputOf", kinds=SuggestionKinds(rename=True))


def test_cpp_local_is_not_the_namespace_function_of_its_name():
    # fmt: ``auto pipe = fmt::pipe();`` — a qualified name never reaches a local
    fixture = """\
namespace fmt {
int pipe();
}

void run() {
  auto ⟦pipe⟧ = fmt::pipe();
  ‹pipe›.close();
}
"""
    check("cpp", "file:///w/posix.cc", fixture, "p", kinds=SuggestionKinds(rename=True))


def test_cpp_qualified_call_inside_its_namespace_is_renamed_with_the_function():
    # ``detail::count(n)`` written inside ``namespace detail`` is the function's use
    fixture = """\
namespace detail {
inline int ⟦count⟧(int n) { return n; }
inline int twice(int n) { return detail::‹count›(n) * 2; }
}
"""
    check("cpp", "file:///w/base.h", fixture, "tally", kinds=SuggestionKinds(rename=True))


def test_typescript_class_swapped_for_a_factory_is_no_rename():
    # rxjs: the import now names the factory; its calls drop ``new``, so
    # ``new createOperatorSubscriber(…)`` at the uses would be wrong
    fixture = """\
import { ⟦OperatorSubscriber⟧ } from './OperatorSubscriber';

export function buffer<T>(closingNotifier: ObservableInput<any>) {
  return operate((source, subscriber) => {
    source.subscribe(new OperatorSubscriber(subscriber, (value) => currentBuffer.push(value)));
  });
}
"""
    check("typescript", "file:///w/buffer.ts", fixture, "createOperatorSubscriber")


def test_typescript_class_renamed_to_a_class_is_still_renamed_where_constructed():
    fixture = """\
import { ⟦OperatorSubscriber⟧ } from './OperatorSubscriber';

export function buffer<T>() {
  return operate((source, subscriber) => {
    source.subscribe(new ‹OperatorSubscriber›(subscriber, (value) => push(value)));
  });
}
"""
    check("typescript", "file:///w/buffer.ts", fixture, "SubscriberOperator", kinds=SuggestionKinds(rename=True))


def test_rust_field_shorthand_is_expanded_and_collapsed():
    text = """\
fn build() -> Worker {
    let mut cmd_builder = Builder::new();
    cmd_builder.async_stderr(true);
    Worker { command_builder: cmd_builder, other: 1 }
}

fn build2() -> Other {
    let mut cmd = Builder::new();
    cmd.go();
    Other { cmd }
}
"""
    uri = "file:///w/search.rs"
    editor = Editor(SuggestionKinds(rename=True))  # every occurrence at once
    editor.open(uri, "rust", text)
    site = text.index("cmd_builder")
    cursor = editor.rename_at(uri, site, "cmd_builder", "command_builder")
    out = editor.suggest(uri, cursor)
    assert out and out[0].suggester == "rename"
    result = apply_edits_to(editor.text(uri), out[0], ENC)
    assert "    command_builder.async_stderr(true);\n    Worker { command_builder, other: 1 }" in result

    editor = Editor(SuggestionKinds(rename=True))  # every occurrence at once
    editor.open(uri, "rust", text)
    site = text.index("cmd = ")
    cursor = editor.rename_at(uri, site, "cmd", "builder")
    out = editor.suggest(uri, cursor)
    assert out
    result = apply_edits_to(editor.text(uri), out[0], ENC)
    assert "    builder.go();\n    Other { cmd: builder }" in result


def test_typescript_object_shorthand_is_expanded():
    text = "export function make() {\n  const cache = new Map();\n  return { cache, size: 1 };\n}\n"
    uri = "file:///w/make.ts"
    editor = Editor()
    editor.open(uri, "typescript", text)
    site = text.index("cache")
    cursor = editor.rename_at(uri, site, "cache", "store")
    out = editor.suggest(uri, cursor)
    assert out
    assert "return { cache: store, size: 1 };" in apply_edits_to(editor.text(uri), out[0], ENC)


def test_same_named_local_in_another_function_is_untouched():
    fixture = """\
function first(items: number[]): number {
  let ⟦total⟧ = 0;
  for (const item of items) { ‹total› += item; }
  return ‹total›;
}

function second(items: number[]): number {
  let total = 1;
  return total;
}
"""
    check("typescript", "file:///w/t.ts", fixture, "sum")


def test_evidence_names_the_developer_edit():
    fixture = "def f(⟦count⟧):\n    return ‹count› + 1\n"
    editor, first = check("python", "file:///w/e.py", fixture, "total")
    assert first is not None
    assert any(e.startswith("edit #") and "at line 1: `count`→`total`" in e for e in first.evidence), first.evidence


def test_diagnostic_trigger_prefers_the_group_of_the_diagnosed_occurrence():
    text = (
        "def load(path):\n    return open(path).read()\n\n\n"
        "def main():\n    return load('a')\n\n\n"
        "def other():\n    x = load('b')\n    return x\n"
    )
    uri = "file:///w/io.py"
    editor = Editor()
    editor.open(uri, "python", text)
    cursor = editor.rename_at(uri, text.index("load"), "load", "read_file")
    # without a diagnostic: the nearest group (main's use)
    plain = editor.suggest(uri, cursor)
    assert plain and [e.range.start.line for e in plain[0].edits] == [5]
    # the editor reports `load` undefined in other(): that use first
    doc = editor.session.documents[uri].document
    cp = doc.text.index("load('b')")
    rng = Range(doc.position_at(cp, ENC), doc.position_at(cp + 4, ENC))
    out = editor.suggest(
        uri, cursor, trigger_kind="diagnostic", diagnostics=[(uri, rng, "error", "undefined name 'load'")]
    )
    assert out and out[0].suggester == "rename"
    assert [e.range.start.line for e in out[0].edits] == [9]
    assert any("fixes the diagnostic" in e for e in out[0].evidence)


def test_diagnostic_elsewhere_does_not_change_the_answer():
    text = "def load(path):\n    return path\n\n\ndef main():\n    return load('a')\n"
    uri = "file:///w/io.py"
    editor = Editor()
    editor.open(uri, "python", text)
    cursor = editor.rename_at(uri, text.index("load"), "load", "read")
    doc = editor.session.documents[uri].document
    rng = Range(doc.position_at(0, ENC), doc.position_at(3, ENC))
    out = editor.suggest(uri, cursor, trigger_kind="diagnostic", diagnostics=[(uri, rng, "warning", "style")])
    assert out and [e.range.start.line for e in out[0].edits] == [5]


def test_nes_loop_renames_everything_then_goes_silent():
    text = (
        "class Box:\n    def __init__(self):\n        self.size = 0\n\n"
        "    def grow(self):\n        self.size += 1\n\n"
        "    def show(self):\n        return self.size\n"
    )
    uri = "file:///w/box.py"
    editor = Editor()
    editor.open(uri, "python", text)
    cursor = editor.rename_at(uri, text.index("size"), "size", "volume")
    for _ in range(4):
        out = editor.suggest(uri, cursor)
        if not out:
            break
        assert out[0].suggester == "rename"
        apply_suggestion(editor.session, out[0])
    assert "size" not in editor.text(uri)
    assert editor.suggest(uri, cursor) == []


def test_cross_file_rename_of_an_exported_typescript_function():
    lib = "export function fetchAll(url: string) {\n  return url;\n}\n"
    app = (
        "import { fetchAll } from './lib';\n\nexport function main() {\n  return fetchAll('x'); // fetchAll\n}\n\n"
        "function local() {\n  const fetchAll = 1;\n  return fetchAll;\n}\n"
    )
    editor = Editor()
    editor.open("file:///w/lib.ts", "typescript", lib)
    editor.open("file:///w/app.ts", "typescript", app)
    cursor = editor.rename_at("file:///w/lib.ts", lib.index("fetchAll"), "fetchAll", "loadAll")
    out = editor.suggest("file:///w/lib.ts", cursor)
    cross = [s for s in out if s.uri == "file:///w/app.ts"]
    assert cross, out
    result = apply_edits_to(app, cross[0], ENC)
    assert result.startswith("import { loadAll } from './lib';")
    assert "return loadAll('x'); // fetchAll" in result
    assert "const fetchAll = 1;\n  return fetchAll;" in result


def test_local_rename_never_reaches_other_documents():
    lib = "def f():\n    value = 1\n    return value\n"
    app = "from lib import value\n\nprint(value)\n"
    editor = Editor()
    editor.open("file:///w/lib.py", "python", lib)
    editor.open("file:///w/app.py", "python", app)
    cursor = editor.rename_at("file:///w/lib.py", lib.index("value"), "value", "amount")
    out = editor.suggest("file:///w/lib.py", cursor)
    assert out and all(s.uri == "file:///w/lib.py" for s in out)


@pytest.mark.parametrize(
    ("renamed_at", "offered_line"),
    [
        ("len(items)", 2),  # the nearest occurrence after the cursor
        ("return items", 2),  # past the last one: the one before
    ],
)
def test_edit_fallback_offers_one_occurrence_next_to_the_cursor(renamed_at: str, offered_line: int) -> None:
    """Without ``rename``: one occurrence, the nearest at or after the cursor
    (else the last before it), not the function's group (a developer
    switching some uses of a name to another leaves the rest: a group is
    wrong as soon as one of them stays)."""
    text = "def f(items):\n    a = len(items)\n    b = sorted(items)\n    return items\n"
    uri = "file:///w/f.py"
    editor = Editor()
    editor.open(uri, "python", text)
    offset = text.index(renamed_at) + renamed_at.index("items")
    cursor = editor.rename_at(uri, offset, "items", "values")
    out = editor.suggest(uri, cursor)
    assert out and out[0].suggester == "rename" and out[0].kind == "edit"
    assert [(e.range.start.line, e.new_text) for e in out[0].edits] == [(offered_line, "values")]
