"""syntax.pattern_match: classify patterns matched in Python, not compiled.

Each C++ construct the C++ ``locals.scm`` / ``identifiers.scm`` name is one
minimal fixture, classified through the resolver (so through the Python
matcher: C and C++ compile no query at all). Every pattern the matcher reads,
in every language, must capture exactly what tree-sitter's own query
captures on the fixtures.
"""

from __future__ import annotations

import functools
import re

import pytest
import tree_sitter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nextedit.syntax import SyntaxTree, queries, query_analysis
from nextedit.syntax.languages import get_language
from nextedit.syntax.name_resolution import Occurrence, Resolver
from nextedit.syntax.pattern_match import Ancestors, ParsedPattern, chain_types, matches_at, parse_pattern
from nextedit.syntax.query_analysis import classify_spec, identifier_node_types, is_classify_capture


def _classify(language: str, marked: str) -> str:
    """How the identifier marked ``«name»`` in ``marked`` classifies:
    ``ref``, ``member``, or ``<definition kind>[:<scope setting>]``."""
    start = marked.index("«")
    end = marked.index("»") - 1
    text = marked.replace("«", "").replace("»", "")
    source = text.encode("utf-8")
    assert text.isascii()
    tree = SyntaxTree.parse(language, source)
    value = Resolver(tree, source, source[start:end]).classify(start)
    if value is None:
        return "not an identifier"
    if isinstance(value, int):
        return "member" if value == 2 else "ref"
    assert isinstance(value, Occurrence)
    if value.keyword:
        return "keyword"
    kind = value.def_kind.removeprefix("local.definition.")
    return f"{kind}:{value.setting}" if value.setting else kind


CPP_CASES = [
    # declarations
    ("a declaration", "int «x»;", "var"),
    ("a pointer declarator", "int *«p»;", "var"),
    ("a pointer to a pointer", "int **«pp»;", "var"),
    ("an array declarator", "int «a»[3];", "var"),
    ("an initialised declarator", "int «x» = 1;", "var"),
    ("an initialised pointer", "int *«p» = 0;", "var"),
    ("an initialised array", "int «a»[2] = {1, 2};", "var"),
    ("an initialised reference", "int x; int &«r» = x;", "var"),
    ("a function pointer", "void (*«fp»)(int);", "var"),
    ("a function declaration", "int «f»(int);", "function"),
    ("a pointer-returning function declaration", "int *«f»(int);", "function"),
    # function definitions (their name belongs to the enclosing scope)
    ("a function definition", "int «f»() { return 0; }", "function:parent"),
    ("a pointer-returning function definition", "int *«f»() { return 0; }", "function:parent"),
    ("a reference-returning function definition", "int &«f»() { static int x; return x; }", "function:parent"),
    ("a function in a namespace", "namespace n { void «f»() {} }", "function:parent"),
    ("a function template", "template <class T> void «f»(T t) {}", "function:parent"),
    ("an out-of-class method definition", "int A::«m»() { return 0; }", "member"),
    # parameters
    ("a parameter", "void f(int «a») {}", "parameter"),
    ("a pointer parameter", "void f(int *«p») {}", "parameter"),
    ("an array parameter", "void f(int «a»[]) {}", "parameter"),
    ("a reference parameter", "void f(int &«r») {}", "parameter"),
    ("a default-valued parameter", "void f(int «a» = 1) {}", "parameter"),
    ("a parameter of a pointer-returning function", "int *f(int «a») { return 0; }", "parameter"),
    ("a prototype's parameter is no definition", "int f(int «a»);", "ref"),
    # types
    ("a struct with a body", "struct «S» { int a; };", "type:parent"),
    ("a struct named without a body is no definition", "struct «S» *p;", "ref"),
    ("a class", "class «C» {};", "type:parent"),
    ("a union", "union «U» { int a; };", "type"),
    ("an enum", "enum «E» { A };", "type"),
    ("an enumerator", "enum E { «A» };", "constant"),
    ("a typedef", "typedef int «T»;", "type"),
    ("a pointer typedef", "typedef int *«P»;", "type"),
    ("an alias", "using «A» = int;", "type"),
    ("a template type parameter", "template <typename «T»> struct S {};", "type"),
    ("a defaulted template type parameter", "template <typename «T» = int> struct S {};", "type"),
    ("a namespace", "namespace «n» {}", "namespace:parent"),
    ("a using declaration", "using std::«swap»;", "import"),
    # lambdas, loops, handlers
    ("a lambda parameter", "auto f = [](int «a») { return a; };", "parameter"),
    ("a lambda reference parameter", "auto f = [](int &«a») { return a; };", "parameter"),
    ("a lambda capture is a use", "void g() { int x; auto f = [«x»]() { return x; }; }", "ref"),
    ("a range-for variable", "void g() { for (auto «x» : v) {} }", "var"),
    ("a range-for reference", "void g() { for (auto &«x» : v) {} }", "var"),
    ("a structured binding", "void g() { auto [«a», b] = p; }", "var"),
    ("a caught exception", "void g() { try {} catch (E «e») {} }", "var"),
    # members and macros
    ("a field", "struct S { int «a»; };", "member"),
    ("a member access", "void g() { s.«a» = 1; }", "member"),
    ("a label", "void g() { «out»: return; }", "member"),
    ("a macro", "#define «N» 1\n", "macro"),
    ("a function-like macro", "#define «F»(x) x\n", "macro:parent"),
    ("a macro parameter", "#define F(«x») x\n", "parameter"),
    ("a plain use", "int g() { return «x»; }", "ref"),
]


@pytest.mark.parametrize(("marked", "expected"), [c[1:] for c in CPP_CASES], ids=[c[0] for c in CPP_CASES])
def test_cpp_construct_classifies(marked: str, expected: str) -> None:
    assert _classify("cpp", marked) == expected


C_CASES = [
    ("a declaration", "int «x»;", "var"),
    ("a pointer parameter", "void f(int *«p») {}", "parameter"),
    ("an array declarator", "static int «a»[3];", "var"),
    ("a function definition", "static int «f»(void) { return 0; }", "function:parent"),
    ("a pointer-returning function definition", "char *«f»(void) { return 0; }", "function:parent"),
    ("a struct with a body", "struct «S» { int a; };", "type"),
    ("a prototype's parameter is no definition", "int f(int «a»);", "ref"),
]


@pytest.mark.parametrize(("marked", "expected"), [c[1:] for c in C_CASES], ids=[c[0] for c in C_CASES])
def test_c_construct_classifies(marked: str, expected: str) -> None:
    assert _classify("c", marked) == expected


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_c_and_cpp_compile_no_query(language: str) -> None:
    """Every C / C++ classify pattern is matched in Python or read by type:
    the first suggest of a process pays no query compilation."""
    spec = classify_spec(language)
    assert spec.query is None
    assert spec._matched


# ----------------------------------------------------------------- parsing


def _parse(text: str):  # noqa: ANN202 - test helper
    return parse_pattern(query_analysis._tokens(text))


def test_parse_reads_fields_alternatives_captures_and_settings() -> None:
    parsed = _parse(
        '((declaration declarator: [(identifier) @a (pointer_declarator declarator: (identifier) @b)]) (#set! scope "parent"))'
    )
    assert parsed is not None
    assert parsed.settings == {"scope": "parent"}
    paths = [
        (cap, pat.type, [(c.type, c.field, p.type) for c, p, _i in steps]) for cap, pat, steps in parsed.capture_paths()
    ]
    assert paths == [
        ("a", "identifier", [("identifier", "declarator", "declaration")]),
        (
            "b",
            "identifier",
            [("identifier", "declarator", "pointer_declarator"), ("pointer_declarator", "declarator", "declaration")],
        ),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "(dotted_name . (identifier) @a)",  # anchor
        "(block (identifier)* @a)",  # quantifier
        '((identifier) @a (#eq? @a "self"))',  # a predicate other than #set!
        "(block ((identifier) (identifier) @a))",  # a group of siblings
    ],
)
def test_parse_leaves_what_it_does_not_read_to_tree_sitter(text: str) -> None:
    assert _parse(text) is None


# ------------------------------------------- agreement with tree-sitter itself

FIXTURES = {
    "cpp": "\n".join(c[1] for c in CPP_CASES)
    + """
namespace outer { template <typename T> class Box { public: T «v»; Box(T v) : v(v) {} T get() const { return v; } }; }
int *make(int *p, int n[], int &r, int d = 2) { int *q = p, a[2] = {0}, &s = r; for (auto &[k, w] : m) {} return q; }
struct Node { struct Node *next; union { int i; } u; enum Kind { K1, K2 } kind; };
template <typename T = int, int N = 3> struct Arr { T data[N]; };
""",
    "c": "\n".join(c[1] for c in C_CASES)
    + """
typedef struct list { struct list *next; int *(*fn)(int); } list_t;
static int **grid[4], (*handler)(int), total = 0;
int main(int argc, char **argv) { int i, *p = &i; for (int j = 0; j < argc; j++) { total += j; } return *p; }
int *proto(int), **pp; typedef int *ptr_t; union u { int i; }; enum e { E1, E2 = 3 };
char *dup(const char *s, int n[]) { int b[2] = {0}; out: return 0; }
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define LIMIT 10
""",
    "rust": """
use std::collections::{HashMap, hash_map::Entry};
use crate::a::b as c;
mod m { pub fn inner(x: i32) -> i32 { x } }
struct P(i32); enum E { A(i32), B { x: i32 } } trait T { fn t(&self); type Out; }
impl T for P { fn t(&self) {} const K: i32 = 1; type Out = i32; }
trait U { fn u(&self) { let w = |q| q; } } use a; use a::b; static S: i32 = 1; union Un { x: i32 }
fn gen<'a, X>(p: &'a X) { 'outer: loop { break 'outer; } match p { Some(m) => {} [s1, s2] => {} x @ 1 => {} } }
fn f(mut a: i32, &b: &i32, (c, d): (i32, i32)) {
    let mut e = 1; let &g = &a; let ref h = a; let (mut i, j) = (1, 2);
    for mut k in 0..3 {} if let Some(l) = x {} if let E::A(mut n) = y {}
    let E::B { x: mut o } = z; let v = a::b::c(); let w: a::B = w;
}
""",
    "typescript": """
import { a, b as c } from "m";
function f(...rest: number[]) {}
function* g() {}
class C {} abstract class D {} interface I {} type A = number;
var v = 1; for (var k in o) {} for (let q in o) {}
const { x, y: z, ...r } = o; const [p, ...ps] = arr; const [d = 1] = arr; const { m = 1 } = o;
function h({ s }: O, [t]: number[]) {}
""",
    "javascript": """
import { a, b as c } from "m";
function f(x = 1, ...rest) {} function* g() {}
var v = 1; for (var k in o) {} for (let q in o) {}
const { x, y: z, ...r } = o; const [p, ...ps] = arr; const [d = 1] = arr; const { m = 1 } = o;
function h({ s }, { u: w }, [t]) {}
""",
    "go": """
package p
type T struct{ x int }
type A = T
func f() { a, b := 1, 2; for i, v := range s {}; switch y := x.(type) {}; select { case m := <-c: } ; _ = T{x: 1} }
""",
    "java": """
import a.b.C;
class K { int f = 1; static final int G = 2; interface I { int H = 3; } enum E { A } record R(int x) {} @interface N {}
  void m(int... xs) { int y = 1; } }
""",
    "ruby": """
module M
  class C
    def m(a) = a
  end
end
""",
}


def _identifier_nodes(root: tree_sitter.Node, types: frozenset[str]) -> list[tree_sitter.Node]:
    out = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in types and node.end_byte > node.start_byte:
            out.append(node)
        stack.extend(node.children)
    return out


@functools.cache
def _read_patterns(language: str) -> tuple[tuple[str, ParsedPattern, tree_sitter.Query], ...]:
    """Every classify pattern of ``language`` the matcher reads, with the
    same pattern compiled by tree-sitter."""
    text = "\n".join(
        filter(None, (queries.query_text(language, "identifiers"), queries.query_text(language, "locals")))
    )
    out = []
    for pattern in query_analysis._split_patterns(text):
        if not any(is_classify_capture(n) for n in re.findall(r"@([\w.\-]+)", pattern)):
            continue
        parsed = parse_pattern(query_analysis._tokens(pattern))
        if parsed is not None:
            out.append((pattern, parsed, tree_sitter.Query(get_language(language), pattern)))
    return tuple(out)


def _assert_agreement(language: str, source: bytes) -> int:
    """Assert that each read pattern captures the same identifiers of
    ``source`` in Python as compiled; return how many captures there were."""
    tree = SyntaxTree.parse(language, source)
    nodes = _identifier_nodes(tree.root, identifier_node_types(language))
    captured = 0
    for pattern, parsed, query in _read_patterns(language):
        want: dict[int, set[str]] = {}
        for _index, captures in tree_sitter.QueryCursor(query).matches(tree.root):
            for name, found in captures.items():
                if is_classify_capture(name):
                    for n in found:
                        want.setdefault(n.id, set()).add(name)
        paths = [(cap, pat, steps) for cap, pat, steps in parsed.capture_paths() if is_classify_capture(cap)]
        for node in nodes:
            parent = node.parent
            ancestors = Ancestors(node, node.type, parent, parent.type if parent is not None else None)
            got = {cap for cap, pat, steps in paths if matches_at(ancestors, pat, steps, chain_types(steps))}
            assert got == want.get(node.id, set()), (pattern, node.text, node.start_point)
            captured += len(got)
    return captured


@pytest.mark.parametrize("language", sorted(FIXTURES))
def test_matched_patterns_capture_what_tree_sitter_captures(language: str) -> None:
    """For every classify pattern the matcher reads: the classify captures
    of every identifier of the fixture, matched in Python, equal those of
    the pattern compiled by tree-sitter and run over the whole tree."""
    assert _read_patterns(language)
    assert _assert_agreement(language, FIXTURES[language].replace("«", "").replace("»", "").encode("utf-8")) > 0


_WRAPPERS = ["{}", "namespace n {{ {} }}", "struct W {{ {} }};", "void w() {{ {} }}", "template <class T> {}", "({})"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from([c[1] for c in CPP_CASES]), st.sampled_from(_WRAPPERS), st.booleans()),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from(["c", "cpp"]),
)
def test_matcher_agrees_with_tree_sitter_on_any_mix_of_constructs(
    parts: list[tuple[str, str, bool]], language: str
) -> None:
    """Fixtures nested in namespaces, classes, functions and templates —
    and cut short, so the trees hold ERROR nodes — capture the same
    identifiers in Python as with the compiled patterns."""
    text = "\n".join(
        (wrapper.format(case) if not cut else wrapper.format(case)[: len(case) // 2]) for case, wrapper, cut in parts
    )
    _assert_agreement(language, text.replace("«", "").replace("»", "").encode("utf-8"))


@pytest.mark.parametrize(
    ("language", "text", "matched"),
    [
        ("javascript", "(assignment_expression left: (identifier) @local.definition.var)", True),
        # `expression` is a supertype: tree-sitter sees through it to an identifier's type
        ("javascript", "(assignment_expression left: (expression) @local.definition.var)", False),
        ("python", "(for_statement left: (pattern) @local.definition.var)", False),
        ("cpp", "(ERROR (identifier) @local.definition.var)", False),
    ],
)
def test_patterns_naming_supertypes_or_errors_are_left_to_tree_sitter(language: str, text: str, matched: bool) -> None:
    parsed = _parse(text)
    assert parsed is not None
    assert query_analysis._concrete_types(language, parsed) is matched
