"""Property tests for syntax: incremental parsing equals a fresh parse;
binding and token invariants hold on arbitrary cursors."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from nextedit.syntax import SyntaxTree, binding_occurrences, identifier_at, tokenize
from nextedit.syntax.tokens import same_name_occurrences

SEEDS = {
    "python": '''import os

class Greeter:
    """Says hello — ça va? 中文"""
    def __init__(self, name: str) -> None:
        self.name = name

    def greet(self, times=1):
        for i in range(times):
            print(f"hi {self.name} {i} 😀")  # comment é
        return [n for n in range(times) if n % 2]
''',
    "typescript": """// greeter 😀
export class Greeter {
  constructor(private name: string) {}
  greet(times = 1): string[] {
    const out: string[] = [];
    for (let i = 0; i < times; i++) { out.push(`hi ${this.name} é`); }
    return out;
  }
}
""",
    "rust": """/// doc é
fn main() {
    let v: Vec<i32> = (0..10).collect();
    let total: i32 = v.iter().map(|x| x * 2).sum();
    println!("{} 中 {}", total, "😀");
}
""",
    "go": """package main

import "fmt"

// Sum adds é
func Sum(xs []int) (total int) {
	for _, x := range xs {
		total += x
	}
	fmt.Println("中", total)
	return
}
""",
}

INSERTS = st.sampled_from(
    [
        "é",
        "中",
        "😀",
        "\n",
        " ",
        "x",
        "(",
        ")",
        "{",
        "}",
        '"',
        "'",
        ":",
        "ab_1",
        "if ",
        "\n    ",
        "#",
        "//",
        "é中😀\n",
        ";",
    ]
)


def _point(data: bytes, byte_offset: int) -> tuple[int, int]:
    row = data.count(b"\n", 0, byte_offset)
    return row, byte_offset - (data.rfind(b"\n", 0, byte_offset) + 1)


class _Edit:
    """Tree-sitter edit fields computed from code-point positions."""

    def __init__(self, old_text: str, start_cp: int, old_end_cp: int, new_piece: str) -> None:
        new_text = old_text[:start_cp] + new_piece + old_text[old_end_cp:]
        old_b, new_b = old_text.encode(), new_text.encode()
        self.start_byte = len(old_text[:start_cp].encode())
        self.old_end_byte = len(old_text[:old_end_cp].encode())
        self.new_end_byte = self.start_byte + len(new_piece.encode())
        self.start_point = _point(old_b, self.start_byte)
        self.old_end_point = _point(old_b, self.old_end_byte)
        self.new_end_point = _point(new_b, self.new_end_byte)
        self.new_text = new_text


@st.composite
def edit_scripts(draw):
    language = draw(st.sampled_from(sorted(SEEDS)))
    text = SEEDS[language]
    steps = []
    for _ in range(draw(st.integers(1, 12))):
        start = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        end = start if kind == "insert" else min(len(text), start + draw(st.integers(0, 6)))
        piece = "" if kind == "delete" else draw(INSERTS)
        edit = _Edit(text, start, end, piece)
        steps.append(edit)
        text = edit.new_text
    return language, steps


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_scripts())
def test_incremental_parse_equals_fresh_parse(script):
    language, steps = script
    tree = SyntaxTree.parse(language, SEEDS[language].encode())
    for edit in steps:
        tree.apply_edit(edit, edit.new_text.encode())
    final = steps[-1].new_text.encode()
    _assert_same_as_fresh(tree, language, final)


def _assert_same_as_fresh(tree: SyntaxTree, language: str, final: bytes) -> None:
    """Identical trees whenever the text parses without errors. On erroneous
    text tree-sitter's error recovery may legitimately place ERROR nodes
    differently after reusing the old tree (plain py-tree-sitter does the same,
    checked by hand), so there we only require both to see the error."""
    fresh = SyntaxTree.parse(language, final).root
    assert tree.root.end_byte == len(final) == fresh.end_byte
    if fresh.has_error:
        event("fresh parse has errors")
        assert tree.root.has_error
    else:
        event("fresh parse is clean")
        assert str(tree.root) == str(fresh)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_scripts())
def test_batched_edits_equal_fresh_parse(script):
    language, steps = script
    tree = SyntaxTree.parse(language, SEEDS[language].encode())
    final = steps[-1].new_text.encode()
    tree.apply_edits(steps, final)
    _assert_same_as_fresh(tree, language, final)


IDENT_PIECES = st.sampled_from(["é", "中", "é中", "x", "_1", "ab"])
TEXT_PIECES = st.sampled_from(["é", "中", "😀", "é中😀", "x y", "\\n"])


@st.composite
def identifier_edit_scripts(draw):
    """Edits that keep the text valid: grow identifiers in place or replace
    their last character (ASCII and non-ASCII letters), and insert any text
    (emoji included) inside string literals and comments of the seed."""
    language = draw(st.sampled_from(sorted(SEEDS)))
    text = SEEDS[language]
    steps = []
    for _ in range(draw(st.integers(1, 10))):
        ident_ends = [i + len(w) for w in ("total", "name", "times") for i in _find_all(text, w)]
        text_spots = [i + 3 for i in _find_all(text, "// ")] + [i + 4 for i in _find_all(text, '"hi ')]
        if draw(st.booleans()) and ident_ends:
            pos = draw(st.sampled_from(sorted(ident_ends)))
            if draw(st.booleans()):
                edit = _Edit(text, pos, pos, draw(IDENT_PIECES))
            else:  # replace the identifier's last character
                edit = _Edit(text, pos - 1, pos, draw(IDENT_PIECES))
        elif text_spots:
            pos = draw(st.sampled_from(sorted(text_spots)))
            edit = _Edit(text, pos, pos, draw(TEXT_PIECES))
        else:
            break
        steps.append(edit)
        text = edit.new_text
    return language, steps


def _find_all(text: str, word: str) -> list[int]:
    out, i = [], text.find(word)
    while i != -1:
        out.append(i)
        i = text.find(word, i + 1)
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(identifier_edit_scripts())
def test_incremental_parse_equals_fresh_parse_on_valid_edits(script):
    language, steps = script
    if not steps:
        return
    tree = SyntaxTree.parse(language, SEEDS[language].encode())
    for edit in steps:
        tree.apply_edit(edit, edit.new_text.encode())
    final = steps[-1].new_text.encode()
    fresh = SyntaxTree.parse(language, final).root
    assert not fresh.has_error, final.decode()
    assert str(tree.root) == str(fresh)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(SEEDS)), st.data())
def test_binding_invariants(language, data):
    source = SEEDS[language].encode()
    tree = SyntaxTree.parse(language, source)
    offset = data.draw(st.integers(0, len(source)))
    got = binding_occurrences(tree, source, offset)
    ident = identifier_at(tree, source, offset)
    if ident is None:
        assert got is None
        return
    start, end, _ = ident
    assert got is not None
    assert (start, end) in got
    assert got == sorted(got)
    name = source[start:end]
    for (s, e), nxt in zip(got, got[1:] + [None], strict=False):
        assert source[s:e] == name
        if nxt is not None:
            assert e <= nxt[0]
    # every occurrence resolves back to the same binding
    for s, _e in got:
        assert binding_occurrences(tree, source, s) == got


@given(st.text(alphabet=st.sampled_from(list("ab_1 \n\"'#/*`é中😀(){}.$=")), max_size=80), st.data())
def test_tokens_cover_non_space(text, data):
    tokens = tokenize(text)
    pos = 0
    for tok in tokens:
        assert tok.start_cp >= pos and tok.end_cp > tok.start_cp
        assert text[pos : tok.start_cp].strip() == ""
        assert text[tok.start_cp : tok.end_cp] == tok.text
        pos = tok.end_cp
    assert text[pos:].strip() == ""
    offset = data.draw(st.integers(0, len(text)))
    occ = same_name_occurrences(text, offset)
    if occ is not None:
        names = {text[s:e] for s, e in occ}
        assert len(names) == 1


# -- renaming in place needs no re-parse, and gives the fresh parse's tree ------------------

SWAP_SEEDS = {
    **SEEDS,
    "java": """class Greeter {
    private final String name; // é
    int greet(int times) {
        int total = 0;
        for (int i = 0; i < times; i++) { total += name.length(); }
        return total;
    }
}
""",
    "c": """#include <stdio.h>
static const int LIMIT = 10; /* 中 */
int total_of(const int *xs, int n) {
    int total = 0;
    for (int i = 0; i < n; i++) { total += xs[i] < LIMIT ? xs[i] : LIMIT; }
    return total;
}
""",
    "cpp": """#include <vector>
struct Item { int price; };
int total_of(const std::vector<Item> &items, int scale) {
    int total = 0;
    for (const Item &item : items) { total += item.price * scale; }
    return total; // 😀
}
""",
}
# what a developer may type into a name: letters, digits, non-ASCII letters,
# and pieces that turn the name into a keyword, a literal or two tokens
SWAP_PIECES = st.sampled_from(
    [
        "x",
        "_",
        "1",
        "é",
        "中",
        "$",
        "if",
        "fn",
        "self",
        "True",
        "None",
        "null",
        "const",
        "u8",
        "int",
        "mut",
        "nil",
        "NULL",
        "this",
        "let",
        "var",
        "match",
        " ",
        "(",
        "-",
    ]
)
_WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_é中$"


def _nodes(root) -> list[tuple]:
    """Every node, named or not, with its type and exact position."""
    out, cursor = [], root.walk()
    while True:
        node = cursor.node
        out.append((node.type, node.is_named, node.start_byte, node.end_byte, node.start_point, node.end_point))
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.goto_next_sibling():
                break
        else:
            return out


@st.composite
def name_edit_scripts(draw):
    """Keystrokes inside one identifier (a rename typed in place), the tree read
    after some of them: each read may take the no-re-parse path."""
    language = draw(st.sampled_from(sorted(SWAP_SEEDS)))
    text = SWAP_SEEDS[language]
    words = [
        w
        for w in ("total", "name", "times", "items", "LIMIT", "xs", "price", "Item", "Greeter", "Vec", "String")
        if w in text
    ]
    word = draw(st.sampled_from(words))
    start = draw(st.sampled_from(_find_all(text, word)))
    end = start + len(word)
    steps = []
    for _ in range(draw(st.integers(1, 6))):
        a = draw(st.integers(start, end))
        b = draw(st.integers(a, end))
        piece = "" if draw(st.integers(0, 4)) == 0 else draw(SWAP_PIECES)
        edit = _Edit(text, a, b, piece)
        steps.append((edit, draw(st.booleans())))
        text = edit.new_text
        end += len(piece) - (b - a)
        while start < end and text[start] not in _WORD:
            start += 1  # keep the span on what is left of the name
    return language, steps


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name_edit_scripts())
def test_edits_inside_a_name_give_the_fresh_parse(script):
    language, steps = script
    tree = SyntaxTree.parse(language, SWAP_SEEDS[language].encode())
    for edit, read in steps:
        tree.apply_edit(edit, edit.new_text.encode())
        if read:
            _assert_exactly_fresh(tree, language, edit.new_text.encode())
    _assert_exactly_fresh(tree, language, steps[-1][0].new_text.encode())


def _assert_exactly_fresh(tree: SyntaxTree, language: str, text: bytes) -> None:
    fresh = SyntaxTree.parse(language, text).root
    if fresh.has_error:
        event("fresh parse has errors")
        assert tree.root.has_error
    else:
        event("moved, not re-parsed" if tree.root.has_changes else "re-parsed")
        assert _nodes(tree.root) == _nodes(fresh)


def test_a_rename_typed_in_place_is_not_reparsed():
    src = SWAP_SEEDS["rust"].encode()
    tree = SyntaxTree.parse("rust", src)
    at = src.index(b"total")
    edit = _Edit(src.decode(), len(src[:at].decode()), len(src[:at].decode()) + 5, "amount")
    tree.apply_edit(edit, edit.new_text.encode())
    # offsets moved by Tree.edit keep their change marks; a re-parse clears them
    assert tree.root.has_changes
    assert _nodes(tree.root) == _nodes(SyntaxTree.parse("rust", edit.new_text.encode()).root)


@pytest.mark.parametrize(
    ("language", "source", "name", "new_name"),
    [
        ("c", "typedef int myint;\nmyint x = 1;\n", "myint x", "int"),
        ("rust", "fn f(v: Thing) -> Thing { v }\n", "Thing {", "u8"),
        ("rust", "fn f() { let total = 1; }\n", "total", "mut"),
        ("python", "total = 1\nprint(total)\n", "total)", "True"),
        ("java", "class C { void f() { int total = 0; } }\n", "total", "_"),
        ("javascript", "let total = 1;\nf(total);\n", "total)", "undefined"),
        ("go", "package p\nvar total = 1\nvar x = total\n", "total\n", "nil"),
    ],
)
def test_a_name_becoming_a_keyword_or_literal_gives_the_fresh_parse(language, source, name, new_name):
    tree = SyntaxTree.parse(language, source.encode())
    at = source.index(name)
    old = name.split()[0].rstrip(")\n{")
    edit = _Edit(source, at, at + len(old), new_name)
    tree.apply_edit(edit, edit.new_text.encode())
    fresh = SyntaxTree.parse(language, edit.new_text.encode()).root
    assert _nodes(tree.root) == _nodes(fresh)
