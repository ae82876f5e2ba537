"""syntax: language detection, query files, incremental trees, bindings.

Binding fixtures are annotated text: ``$0`` is the cursor, ``«…»`` marks every
expected occurrence of the binding (see :func:`check`).
"""

from __future__ import annotations

import re
import time

import pytest
import tree_sitter

from nextedit.session import Session
from nextedit.syntax import (
    SyntaxTree,
    binding_occurrences,
    identifier_at,
    is_identifier_node_type,
    language_for,
    queries,
    query_analysis,
    same_name_occurrences,
    tokenize,
)
from nextedit.syntax.languages import get_language
from nextedit.syntax.scopes import binding_definitions, scope_node_types

CORE_LANGUAGES = ["python", "javascript", "typescript", "tsx", "rust", "go", "java", "c", "cpp", "ruby"]


# --------------------------------------------------------------- languages
@pytest.mark.parametrize(
    ("language_id", "uri", "expected"),
    [
        ("python", "file:///a.txt", "python"),
        ("typescriptreact", "file:///a/b.tsx", "tsx"),
        ("javascriptreact", "file:///a/b.jsx", "javascript"),
        ("shellscript", "file:///run", "bash"),
        ("csharp", "file:///A.cs", "csharp"),
        (None, "file:///src/lib.rs", "rust"),
        (None, "file:///src/m%C3%A9t%20a.py", "python"),
        (None, "/plain/path/x.pyi", "python"),
        (None, "file:///x.MTS", "typescript"),
        (None, "file:///x.hpp", "cpp"),
        (None, "file:///x.h", "c"),
        (None, "file:///proj/Makefile", "make"),
        ("plaintext", "file:///x.go", "go"),
        ("plaintext", "file:///notes.txt", None),
        (None, "untitled:Untitled-1", None),
        ("no-such-language", "file:///x.unknownext", None),
    ],
)
def test_language_for(language_id, uri, expected):
    assert language_for(language_id, uri) == expected


# ----------------------------------------------------------------- queries
def _all_query_files():
    return [(lang, name) for lang, names in queries.available().items() for name in names]


def test_core_languages_have_queries():
    available = queries.available()
    for lang in CORE_LANGUAGES:
        assert {"identifiers", "locals"} <= set(available.get(lang, [])), lang


@pytest.mark.parametrize(("language", "name"), _all_query_files())
def test_every_query_compiles(language, name):
    query = queries.load(language, name)
    assert isinstance(query, tree_sitter.Query)
    assert query.pattern_count > 0
    # captures use our vocabulary only
    allowed = re.compile(r"^(identifier|member|plain|keyword|local\.(scope|reference|definition(\.\w+)?))$")
    for i in range(query.capture_count):
        assert allowed.match(query.capture_name(i)), query.capture_name(i)


@pytest.mark.parametrize("language", CORE_LANGUAGES)
def test_every_language_splits_its_query_files_into_the_patterns_tree_sitter_compiles(language):
    """The classify spec compiles only the patterns it splits out of the
    query files (and does not match in Python); split and compiled, the
    files hold the same patterns."""
    text = "\n".join(
        filter(None, (queries.query_text(language, "identifiers"), queries.query_text(language, "locals")))
    )
    assert len(query_analysis._split_patterns(text)) == tree_sitter.Query(get_language(language), text).pattern_count
    spec = query_analysis.classify_spec(language)
    assert spec.query is not None or spec._matched


@pytest.mark.parametrize("language", CORE_LANGUAGES)
def test_query_node_types_exist(language):
    """Scope and identifier types parsed from the files are real node types."""
    lang = get_language(language)
    for node_type in scope_node_types(language):
        assert lang.id_for_node_kind(node_type, True) is not None, node_type
    from nextedit.syntax.scopes import identifier_node_types

    types = identifier_node_types(language)
    assert "identifier" in types or language == "ruby" and "constant" in types
    for node_type in types:
        assert lang.id_for_node_kind(node_type, True) is not None, node_type


def test_scope_patterns_are_simple():
    """scopes.py reads scope types from `(type) @local.scope` lines: every
    @local.scope capture must be written that way."""
    for lang in CORE_LANGUAGES:
        text = queries.query_text(lang, "locals")
        assert text is not None
        n_captures = len(re.findall(r"@local\.scope\b", text))
        assert n_captures == len(scope_node_types(lang)), lang


def test_query_loader_caches_and_misses():
    assert queries.load("python", "locals") is queries.load("python", "locals")
    assert queries.load("python", "no-such-query") is None
    assert queries.load("no-such-language", "locals") is None


def test_queries_ship_in_package_dir():
    from pathlib import Path

    import nextedit

    assert (Path(nextedit.__file__).parent / "grammars" / "python" / "locals.scm").is_file()


# -------------------------------------------------------------------- tree
def _point(data: bytes, byte_offset: int) -> tuple[int, int]:
    row = data.count(b"\n", 0, byte_offset)
    col = byte_offset - (data.rfind(b"\n", 0, byte_offset) + 1)
    return row, col


class _Edit:
    def __init__(self, old: bytes, start: int, old_end: int, new_text: bytes) -> None:
        new = old[:start] + new_text + old[old_end:]
        self.start_byte, self.old_end_byte, self.new_end_byte = start, old_end, start + len(new_text)
        self.start_point = _point(old, start)
        self.old_end_point = _point(old, old_end)
        self.new_end_point = _point(new, self.new_end_byte)
        self.new = new


def test_apply_edit_matches_fresh_parse():
    src = b"def f(x):\n    return x + 1\n"
    tree = SyntaxTree.parse("python", src)
    old_tree = tree.tree
    e = _Edit(src, src.index(b"x + 1"), src.index(b"x + 1") + 1, "é中😀".encode())
    tree.apply_edit(e, e.new)
    assert str(tree.root) == str(SyntaxTree.parse("python", e.new).root)
    assert tree.tree is not old_tree
    # the previous tree is untouched (we edited a copy)
    assert old_tree.root_node.end_byte == len(src)
    assert tree.language == "python"


def test_apply_edits_several_then_one_parse():
    src = b"fn main() { let a = 1; let b = a; }\n"
    tree = SyntaxTree.parse("rust", src)
    e1 = _Edit(src, src.index(b"a = 1"), src.index(b"a = 1") + 1, b"alpha")
    e2 = _Edit(e1.new, e1.new.index(b"= a;") + 2, e1.new.index(b"= a;") + 3, b"alpha")
    tree.apply_edits([e1, e2], e2.new)
    assert str(tree.root) == str(SyntaxTree.parse("rust", e2.new).root)
    assert b"alpha" in e2.new and not tree.root.has_error


def test_incremental_edit_is_cheap_on_big_file():
    unit = b"def f%d(a, b):\n    c = a + b\n    return c * 2\n\n"
    src = b"".join(unit % i for i in range(1700))  # ~6,800 lines
    tree = SyntaxTree.parse("python", src)
    pos = len(src) // 2
    best = 1.0
    for _ in range(5):
        e = _Edit(src, pos, pos, b"x")
        t0 = time.perf_counter()
        tree.apply_edit(e, e.new)
        best = min(best, time.perf_counter() - t0)
        src = e.new
    assert best < 0.005  # generous; typical ~0.1 ms


# ---------------------------------------------------------------- bindings
def check(language: str, fixture: str, *, expect_none: bool = False) -> None:
    """``$0`` = cursor; ``«name»`` = each expected occurrence."""
    text = fixture
    expected: list[tuple[int, int]] = []
    cursor = None
    out = []
    i = 0
    pos = 0  # byte position in the stripped text
    while i < len(text):
        if text.startswith("$0", i):
            cursor = pos
            i += 2
        elif text[i] == "«":
            start = pos
            j = text.index("»", i)
            inner = text[i + 1 : j]
            assert "$0" not in inner or inner.replace("$0", "") != ""
            for k, part in enumerate(inner.split("$0")):
                if k:
                    cursor = pos
                out.append(part)
                pos += len(part.encode())
            expected.append((start, pos))
            i = j + 1
        else:
            out.append(text[i])
            pos += len(text[i].encode())
            i += 1
    assert cursor is not None, "fixture needs $0"
    source = "".join(out).encode()
    tree = SyntaxTree.parse(language, source)
    got = binding_occurrences(tree, source, cursor)
    if expect_none:
        assert got is None
        return
    assert got is not None, "no identifier at cursor"
    assert got == sorted(expected), (
        [source[s:e].decode() + f"@{s}" for s, e in got],
        [source[s:e].decode() + f"@{s}" for s, e in sorted(expected)],
    )


def test_python_shadowing_in_inner_function():
    check(
        "python",
        """
def outer(«x$0»):
    def inner(x):
        return x + 1
    y = «x» * 2
    print(f"{«x»} is x")  # x in a comment
    return inner(y) + «x»
""",
    )


def test_python_cursor_at_end_of_identifier_and_inner_binding():
    check(
        "python",
        """
def outer(x):
    def inner(«x»):
        return «x$0» + 1
    return inner(x)
""",
    )


def test_python_globals_and_unresolved_names():
    check(
        "python",
        """
import «os»
def f(path):
    return «os».path.join(path, "os")
def g():
    «os$0».getcwd()
""",
    )
    check(
        "python",
        """
def f():
    return «undefined_name$0»() + «undefined_name»
def g(undefined_name):
    return undefined_name
""",
    )


def test_python_member_binding():
    check(
        "python",
        """
class Point:
    «x» = 0
    def __init__(self, x):
        self.«x» = x
    def norm(self):
        return self.«x$0» ** 2
    def other(self, x):
        return x
p = Point(1)
print(p.«x», "x")
""",
    )
    check(
        "python",
        """
class A:
    def «norm»(self):
        return 1
    def g(self):
        return self.«norm$0»() + norm
norm = 2
""",
    )


def test_python_parameter_rename_and_comprehension_scope():
    check(
        "python",
        """
def total(«items», factor):
    s = sum(i for i in «items$0»)
    return [i * factor for i in «items»] + [items for items in range(3)]
""",
    )


def test_python_no_identifier():
    check("python", 'x = "hello$0 world"\n', expect_none=True)
    check("python", "x = 1 $0+ 2\n", expect_none=True)


def test_typescript_block_shadowing_and_params():
    check(
        "typescript",
        """
function scale(«value$0»: number, factor = 2): number {
  const out = «value» * factor;
  if (out > 10) {
    const value = 3; // value
    return value;
  }
  return `${«value»}`.length + out;
}
const value = "value";
""",
    )


def test_typescript_property_member_binding():
    check(
        "typescript",
        """
class Counter {
  private «count$0» = 0;
  inc() { this.«count»++; return this; }
}
const count = new Counter().inc().inc();
const o = { «count»: 1, total: count };
""",
    )


def test_javascript_closure_and_arrow():
    check(
        "javascript",
        """
const «make» = (n) => () => n + 1;
function use() { const make = 1; return make; }
export default «make$0»(2);
""",
    )


def test_tsx_component():
    check(
        "tsx",
        """
function «Button»(props: { label: string }) { return <b>{props.label}</b>; }
export const App = () => <«Button$0» label="Button" />;
""",
    )


def test_rust_shadowing_and_closure():
    check(
        "rust",
        """
fn main() {
    let «total» = 10;
    let f = |total: i32| total + 1;
    {
        let total = 5;
        println!("{}", total);
    }
    println!("{} total", f(«total$0») + «total»);
}
""",
    )


def test_rust_sequential_let_shadowing():
    check(
        "rust",
        """
fn parse(s: &str) -> usize {
    let «n» = s.trim();
    let n = «n$0».len();
    n
}
""",
    )


def test_rust_fields_and_methods():
    check(
        "rust",
        """
struct P { «x»: i32 }
impl P {
    fn new(x: i32) -> Self { P { «x»: x } }
    fn get(&self) -> i32 { self.«x$0» }
}
fn main() { let x = P::new(1); let y = x.«x» + 1; println!("{}", y); }
""",
    )


def test_go_short_var_scopes_and_fields():
    check(
        "go",
        """
package main

func sum(«xs» []int) int {
	total := 0
	for _, x := range «xs» {
		xs := x // shadows
		total += xs
	}
	return total + len(«xs$0»)
}
""",
    )
    check(
        "go",
        """
package main

type P struct{ «X» int }

func (p *P) Get() int { return p.«X$0» }
func main() { X := 1; q := P{«X»: X}; _ = q.«X» }
""",
    )


def test_java_fields_params_and_locals():
    check(
        "java",
        """
class Account {
  private int «balance»;
  Account(int balance) { this.«balance» = balance; }
  int deposit(int amount) {
    «balance$0» += amount;
    return this.«balance»;
  }
  int other() { int balance = 3; return balance; }
}
""",
    )
    check(
        "java",
        """
class A {
  int f(int «n») {
    for (int i = 0; i < «n$0»; i++) { }
    Runnable r = () -> { int n = 2; };
    return «n» + "n".length();
  }
}
""",
    )


def test_c_and_cpp_locals():
    check(
        "c",
        """
static int «count»;
int inc(int by) { «count» += by; return «count$0»; }
int other(void) { int count = 1; return count; }
""",
    )
    check(
        "cpp",
        """
class A {
 public:
  int «x»;
  A(int x) : «x»(x) {}
  int get() const { return «x$0» + this->«x»; }
};
""",
    )


def test_c_and_cpp_declarators_written_as_alternatives():
    """Pointer, array and reference declarators (one query pattern with
    alternatives per outer node) define in their own scope."""
    check(
        "c",
        """
int sum(int *«buf», int n) { int total = «buf»[0]; return total + «buf$0»[n]; }
int first(int *buf) { return buf[0]; }
""",
    )
    check(
        "cpp",
        """
void set(int &«v») { «v$0» = 1; }
void other(int &v) { v = 2; }
""",
    )
    check(
        "cpp",
        """
int main() { int *«p» = 0; { int *p = 0; } return *«p$0»; }
""",
    )


def test_query_files_split_into_their_top_level_patterns():
    text = """
; a comment
(translation_unit) @local.scope
((preproc_def name: (identifier) @m) (#set! scope "parent"))
(declaration declarator: [
  (identifier) @v   ; trailing comment
  (pointer_declarator declarator: (identifier) @v)])
(comment)* @c
"""
    assert query_analysis._split_patterns(text) == [
        "(translation_unit) @local.scope",
        '((preproc_def name: (identifier) @m) (#set! scope "parent"))',
        "(declaration declarator: [(identifier) @v (pointer_declarator declarator: (identifier) @v)])",
        "(comment) * @c",
    ]


def test_ruby_locals_and_blocks():
    check(
        "ruby",
        """
def total(«items»)
  sum = 0
  «items».each { |items| sum += items }
  «items$0».size + sum
end
""",
    )


# -------------------------------------------------------------- identifier
def test_identifier_at_and_types():
    src = b"foo.bar(baz)\n"
    tree = SyntaxTree.parse("python", src)
    assert identifier_at(tree, src, 0) == (0, 3, "identifier")
    assert identifier_at(tree, src, 3) == (0, 3, "identifier")  # touching end
    assert identifier_at(tree, src, 4) == (4, 7, "identifier")
    assert identifier_at(tree, src, 12) is None
    assert is_identifier_node_type("typescript", "property_identifier")
    assert is_identifier_node_type("rust", "field_identifier")
    assert not is_identifier_node_type("python", "string")


def test_language_without_queries_falls_back_to_same_text_identifiers():
    src = b"local x = 1\nlocal function f() return x end\nprint('x', x)\n"
    tree = SyntaxTree.parse("lua", src)
    got = binding_occurrences(tree, src, 6)
    assert got is not None and len(got) == 3
    assert all(src[s:e] == b"x" for s, e in got)


def test_binding_occurrences_is_fast_on_5000_lines():
    unit = (
        "class Box{i}:\n    def __init__(self, value):\n        self.value = value\n"
        "    def get(self):\n        return self.value + helper(self.value)\n\n"
        "def helper(value):\n    total = 0\n    for i in range(value):\n        total += i\n    return total\n\n"
    )
    src = "".join(unit.format(i=i) for i in range(420)).encode()
    assert src.count(b"\n") >= 5000
    tree = SyntaxTree.parse("python", src)
    offsets = {
        "param": src.index(b"value):\n        self"),
        "member": src.index(b"value + helper"),
        "global": src.rindex(b"helper("),
    }
    for what, off in offsets.items():
        binding_occurrences(tree, src, off)  # warm caches
        t0 = time.perf_counter()
        got = binding_occurrences(tree, src, off)
        elapsed = time.perf_counter() - t0
        assert got
        assert elapsed < 0.2, (what, elapsed)  # generous bound; see benchmarks for figures


# ------------------------------------------------------------------ tokens
def test_tokenize_kinds():
    toks = tokenize('x = "a b" # note\nfoo(x) /* c */ 1.5e3 $y `t`')
    kinds = [(t.kind, t.text) for t in toks]
    assert ("string", '"a b"') in kinds
    assert ("comment", "# note") in kinds
    assert ("comment", "/* c */") in kinds
    assert ("number", "1.5e3") in kinds
    assert ("word", "$y") in kinds
    assert ("string", "`t`") in kinds
    assert ("punct", "(") in kinds


def test_same_name_occurrences_skips_strings_and_comments():
    text = 'café = 1\nprint("café")  # café\n// café\nx = café + café2 + 中café\n'
    got = same_name_occurrences(text, 2)
    assert got == [(0, 4), (text.index("café + "), text.index("café + ") + 4)]
    end = text.index("café + ") + 4
    assert same_name_occurrences(text, end) == got  # touching the end
    assert same_name_occurrences(text, text.index("= 1") + 1) is None


# ------------------------------------------------- resolution gaps (scopes v2)
def test_python_global_declaration_binds_module_variable():
    check(
        "python",
        """
«counter» = 0
def bump():
    global «counter»
    «counter» += 1
    return «counter$0»
def other():
    counter = 5
    return counter
""",
    )
    # from the module-level definition too
    check(
        "python",
        """
«counter$0» = 0
def bump():
    global «counter»
    «counter» = 1
def other(counter):
    return counter
""",
    )


def test_python_nonlocal_binds_enclosing_function_variable():
    check(
        "python",
        """
total = 0
def outer():
    «total» = 0
    def add(n):
        nonlocal «total»
        «total$0» += n
    add(1)
    return «total»
""",
    )


def test_python_default_argument_resolves_in_enclosing_scope():
    check(
        "python",
        """
«limit$0» = 10
def f(limit=«limit»):
    return limit
""",
    )
    check(
        "python",
        """
def outer(«size»):
    def inner(size=«size$0»):
        return size
    return inner
""",
    )
    # the parameter itself keeps its own binding
    check(
        "python",
        """
limit = 10
def f(«limit$0»=limit):
    return «limit»
""",
    )


def test_javascript_var_hoists_to_function_scope():
    check(
        "javascript",
        """
function f(flag) {
  if (flag) {
    var «x$0» = 1;
  }
  for (var i = 0; i < 2; i++) { «x» += i; }
  return «x»;
}
const x = 3;
""",
    )
    check(
        "typescript",
        """
function g(): number {
  for (var «k» in {}) {}
  {
    let k = 2;
    return k;
  }
  return «k$0».length;
}
""",
    )


def test_javascript_let_stays_block_scoped():
    check(
        "javascript",
        """
function f() {
  { let «x$0» = 1; «x»++; }
  return x;
}
""",
    )


def test_destructuring_nested_deeper_than_one_level_defines():
    check(
        "javascript",
        """
const x = 0;
function f(o) {
  const { a: { «x$0» }, b: [c, [d]] } = o;
  return «x» + c + d;
}
""",
    )
    check(
        "typescript",
        """
function f(o: any) {
  const { a: [{ «y» = 1 }] } = o;
  return «y$0» * 2;
}
const y = 3;
""",
    )
    check(
        "typescript",
        """
const z = 0;
function f({ a: { «z» } }: T, [b, [c]]: U) {
  return «z$0» + b + c;
}
""",
    )
    # keys and default values inside patterns are not definitions
    check(
        "javascript",
        """
const «dflt» = 1;
function f(o) {
  const { a: { b = «dflt$0» } } = o;
  return b;
}
""",
    )


def test_var_destructuring_hoists():
    check(
        "javascript",
        """
function f(o) {
  { var { a: { «q» } } = o; }
  return «q$0»;
}
""",
    )


def test_python_keyword_argument_not_merged_with_caller_local():
    # renaming the caller's local x leaves f(x=…) alone
    check(
        "python",
        """
def f(x):
    return x
def g():
    «x$0» = 1
    return f(x=«x»)
""",
    )


def test_python_keyword_argument_follows_the_parameter():
    check(
        "python",
        """
def f(«x$0», y=2):
    return «x» + y
def g(x):
    return f(«x»=1) + f(y=x, «x»=x) + h(x=1)
f(«x»=3)
""",
    )
    # from the keyword side
    check(
        "python",
        """
def f(«x»):
    return «x»
print(f(«x$0»=1))
""",
    )


def test_python_keyword_argument_not_merged_with_attributes():
    check(
        "python",
        """
class P:
    def __init__(self):
        self.«x$0» = 1
def build(obj):
    return make(x=obj.«x»)
""",
    )
    # unresolvable callee: the same keyword of calls to the same callee
    check(
        "python",
        """
a = make(«x$0»=1)
b = make(«x»=2)
c = other(x=3)
d = obj.x
""",
    )


def test_method_keyword_is_not_followed():
    check(
        "python",
        """
class A:
    def m(self, «x$0»):
        return «x»
A().m(x=1)
""",
    )


# ------------------------------------------------------------------ helpers
def test_is_file_level_binding():
    from nextedit.syntax.scopes import is_file_level_binding

    src = b"""import os
LIMIT = 3
def helper(v):
    local = v + LIMIT
    return local
class Box:
    size = 1
print(helper(1), os.sep, unknown)
"""
    tree = SyntaxTree.parse("python", src)

    def at(needle: bytes, n: int = 0) -> int:
        pos = -1
        for _ in range(n + 1):
            pos = src.index(needle, pos + 1)
        return pos

    assert is_file_level_binding(tree, src, at(b"helper"))
    assert is_file_level_binding(tree, src, at(b"helper", 1))  # a use of it
    assert is_file_level_binding(tree, src, at(b"LIMIT", 1))
    assert is_file_level_binding(tree, src, at(b"Box"))
    assert not is_file_level_binding(tree, src, at(b"local"))
    assert not is_file_level_binding(tree, src, at(b"v)"))
    assert not is_file_level_binding(tree, src, at(b"size"))  # a member
    assert not is_file_level_binding(tree, src, at(b"os", 1))  # an import
    assert not is_file_level_binding(tree, src, at(b"unknown"))
    assert not is_file_level_binding(tree, src, at(b"# nothing") if b"# nothing" in src else len(src))

    ts = b"""export const LIMIT = 3;
export function helper(v: number) { const inner = v; return inner + LIMIT; }
interface Shape { w: number }
"""
    tree = SyntaxTree.parse("typescript", ts)
    assert is_file_level_binding(tree, ts, ts.index(b"LIMIT"))
    assert is_file_level_binding(tree, ts, ts.index(b"helper"))
    assert is_file_level_binding(tree, ts, ts.index(b"Shape"))
    assert not is_file_level_binding(tree, ts, ts.index(b"inner"))
    assert not is_file_level_binding(tree, ts, ts.index(b"w:"))


def test_enclosing_node():
    from nextedit.syntax.scopes import enclosing_node

    src = b"def f(a):\n    return a + 1\n"
    tree = SyntaxTree.parse("python", src)
    start = src.index(b"a + 1")
    node = enclosing_node(tree, start, start + 5)
    assert node is not None and node.type == "binary_operator"
    fn = enclosing_node(tree, start, start + 1, types={"function_definition"})
    assert fn is not None and fn.type == "function_definition"
    assert enclosing_node(tree, start, start + 1, types=("class_definition",)) is None
    assert enclosing_node(tree, 0, len(src) + 10) is None


def test_binding_memo_is_per_tree_version():
    src = b"def f(a):\n    return a\n"
    tree = SyntaxTree.parse("python", src)
    first = binding_occurrences(tree, src, src.index(b"a)"))
    assert binding_occurrences(tree, src, src.index(b"a)")) == first
    e = _Edit(src, src.index(b"return a") + 7, src.index(b"return a") + 8, b"b")
    tree.apply_edit(e, e.new)
    assert binding_occurrences(tree, e.new, e.new.index(b"a)")) == [(6, 7)]


def _parsed_then_edited(text: str, line: int, start: int, end: int, new: str):
    """A Python document parsed, then ``[start, end)`` of ``line`` replaced by
    ``new`` (applied to the tree, not re-parsed): ``(document, tree)``."""
    from nextedit.text import Document

    document = Document("file:///a.py", "python", 1, text)
    tree = SyntaxTree.parse("python", document.source_bytes)
    _edit(document, tree, line, start, end, new)
    return document, tree


def _edit(document, tree: SyntaxTree, line: int, start: int, end: int, new: str) -> None:
    """``[start, end)`` of ``line`` replaced by ``new`` in the document (its
    next version) and applied to its tree."""
    from nextedit.text import Position, PositionEncoding, Range, TextChange

    change = TextChange(Range(Position(line, start), Position(line, end)), new)
    applied = document.apply_changes([change], document.version + 1, PositionEncoding.UTF16)
    tree.apply_edits(applied, document.source_bytes)


def test_the_stale_root_moves_offsets_without_a_re_parse() -> None:
    """``stale_root`` reads the last parse with its offsets moved by the edits
    since: a node past the edit sits where its text now is, and nothing is
    re-parsed (the next reader of ``tree`` pays that)."""
    document, tree = _parsed_then_edited("def a():\n    return 1\n\n\ndef b():\n    return 2\n", 1, 11, 12, "100")
    assert tree.reparse_pending
    b = document.source_bytes.index(b"def b")
    node = tree.stale_root.named_descendant_for_byte_range(b, b + 3)
    assert node is not None and node.type == "function_definition" and node.start_byte == b
    assert tree.reparse_pending  # still: reading the stale root parsed nothing
    assert tree.root.named_descendant_for_byte_range(b, b + 3).start_byte == b
    assert not tree.reparse_pending


def test_the_stale_root_is_the_same_whether_or_not_a_reader_re_parsed() -> None:
    """Until the next edit, ``stale_root`` is the previous parse with its
    offsets moved, also after a reader re-parsed (and in a snapshot taken
    then): a question asked of it has one answer, whoever parsed first. The
    edit turns ``x`` into ``(x`` — a syntax error the re-parse sees and the
    stale tree does not."""
    document, tree = _parsed_then_edited("def a(x):\n    return x\n", 1, 11, 11, "(")
    before = tree.stale_root
    assert not before.has_error
    assert tree.root.has_error  # a reader re-parses
    after = tree.stale_root
    assert not after.has_error and str(after) == str(before)
    assert str(tree.snapshot().stale_root) == str(before)
    # the next edit: the stale view is the parse just made, offsets moved
    _edit(document, tree, 1, 11, 12, "")
    assert tree.stale_root.has_error


# ------------------------------------------------- C headers that are C++
CPP_HEADER = """#pragma once
#include <string>

namespace fmt {
template <typename T> class buffer {
 public:
  size_t size() const noexcept { return size_; }
 private:
  size_t size_;
};
}  // namespace fmt
"""
C_HEADER = "#ifndef JV_H\n#define JV_H\ntypedef struct { int kind; } jv;\njv jv_copy(jv);\n#endif\n"


@pytest.mark.parametrize(
    ("language_id", "uri", "text", "expected"),
    [
        ("c", "file:///fmt/base.h", CPP_HEADER, "cpp"),
        (None, "file:///fmt/base.h", CPP_HEADER, "cpp"),
        ("c", "file:///jq/jv.h", C_HEADER, "c"),
        ("c", "file:///jq/jv.c", "int f(void) { return std_x; }\n", "c"),
        # only the start of a document is read for C++
        ("c", "file:///big.h", "/* " + "x" * 40_000 + " */\nstd::string s;\n", "c"),
        ("cpp", "file:///x.cc", C_HEADER, "cpp"),
        ("python", "file:///x.py", CPP_HEADER, "python"),
    ],
)
def test_a_document_said_to_be_c_that_reads_as_cpp_gets_the_cpp_grammar(language_id, uri, text, expected):
    assert language_for(language_id, uri, text) == expected


def test_a_cpp_header_said_to_be_c_is_parsed_without_errors():
    session = Session("test")
    session.did_open("file:///fmt/base.h", "c", 1, CPP_HEADER)
    state = session.documents["file:///fmt/base.h"]
    assert state.language == "cpp"
    assert state.syntax is not None and not state.syntax.root.has_error


def test_a_bindings_definitions_follow_its_occurrences_and_the_newest_text():
    """Occurrences then definitions of one binding on one tree version answer
    as each alone on a fresh tree does (the binding is resolved once per
    version), and after an edit the answer is the edited text's."""
    src = b"LIMIT = 1\n\ndef f():\n    return LIMIT\n\ndef g(LIMIT):\n    return LIMIT\n"
    tree = SyntaxTree.parse("python", src)
    use = src.index(b"LIMIT", 12)
    occurrences = binding_occurrences(tree, src, use)
    assert occurrences == [(0, 5), (use, use + 5)]
    assert binding_definitions(tree, src, use) == binding_definitions(SyntaxTree.parse("python", src), src, use)
    assert binding_definitions(tree, src, use) == [(0, "local.definition.var")]
    # a new use of the module-level LIMIT: the next version's binding has it
    edited = src + b"print(LIMIT)\n"
    tree.apply_edit(_Append(len(src), len(edited), src.count(b"\n")), edited)
    assert binding_occurrences(tree, edited, use) == [(0, 5), (use, use + 5), (len(src) + 6, len(src) + 11)]


class _Append:
    """A tree edit appending at the end of the text (at the start of ``row``)."""

    def __init__(self, at: int, end: int, row: int) -> None:
        self.start_byte = self.old_end_byte = at
        self.new_end_byte = end
        self.start_point = self.old_end_point = (row, 0)
        self.new_end_point = (row + 1, 0)


def test_binding_occurrences_shows_each_classified_node_to_visit_once():
    src = b"def f(a):\n    return a\n\n\ndef g(x):\n    f(1)\n    x.f(2)\n    return f\n"
    tree = SyntaxTree.parse("python", src)
    seen: list[tuple[int, tree_sitter.Node, tree_sitter.Node | None]] = []
    got = binding_occurrences(tree, src, 4, lambda start, node, parent: seen.append((start, node, parent)))
    assert got == [(4, 5), (39, 40), (66, 67)]
    starts = [s for s, _, _ in seen]
    assert len(starts) == len(set(starts))
    assert {s for s, _ in got} <= set(starts)  # every occurrence of the binding, and `x.f` (another binding)
    for start, node, parent in seen:
        assert (node.start_byte, node.end_byte) == (start, start + 1)
        assert parent is not None and node.parent is not None and parent.id == node.parent.id
    again: list[int] = []
    assert binding_occurrences(tree, src, 4, lambda start, node, parent: again.append(start)) == got
    assert again == []  # classified already on this version: nothing to show


def test_a_tree_exact_outside_the_edits_is_the_last_parse_offsets_moved() -> None:
    """``exact_outside(lo, hi)``: when every edit since the last parse lies in
    ``[lo, hi)``, the last parse with offsets moved, and nothing re-parsed;
    when one reaches outside (or nothing is pending), the tree itself."""
    text = "def a(x):\n    return x\n\n\ndef b():\n    return 2\n"
    document, tree = _parsed_then_edited(text, 0, 7, 7, ", y")
    source = document.source_bytes
    params = source.index(b"(x, y)")
    view = tree.exact_outside(params + 1, params + len(b"(x, y)") - 1)
    assert view is not tree and tree.reparse_pending
    b = source.index(b"def b")
    node = view.root.named_descendant_for_byte_range(b, b + 3)
    assert node is not None and node.type == "function_definition" and node.start_byte == b
    assert tree.reparse_pending  # reading the view parsed nothing
    assert tree.exact_outside(params + 2, params + 4) is tree  # the edit reaches outside the span
    _edit(document, tree, 5, 11, 12, "3")
    assert tree.exact_outside(params + 1, params + len(b"(x, y)") - 1) is tree  # a second edit, far away
    tree.root  # noqa: B018
    assert tree.exact_outside(0, 1) is tree  # nothing pending
