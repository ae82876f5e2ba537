"""C and C++ are parsed with their attribute-like macros blanked: the trees
read like the code a developer sees (no ERROR around ``FMT_CONSTEXPR``),
and incremental re-parses stay exact."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from nextedit.syntax import SyntaxTree, enclosing_node
from nextedit.syntax.attribute_macros import MAX_SPANS, add_edit, blank_text, blanked, read_blanked, reblank
from nextedit.syntax.closed_trees import ClosedTrees
from tests.test_syntax_props import _Edit


def _blanked_words(text: str) -> list[str]:
    """The words of ``text`` that blanking removed."""
    fed = blank_text(text.encode()).decode()
    assert len(fed) == len(text)
    out, word = [], ""
    for a, b in zip(text, fed, strict=True):
        if a != b:
            assert b == " "
            word += a
        elif word:
            out.append(word)
            word = ""
    return out + ([word] if word else [])


@pytest.mark.parametrize(
    ("line", "blanked"),
    [
        ("FMT_CONSTEXPR inline void f() {}", ["FMT_CONSTEXPR"]),
        ("  static FMT_CONSTEXPR20 void grow(int n);", ["FMT_CONSTEXPR20"]),
        ("FMT_CONSTEXPR FMT_NOINLINE auto copy(It b) -> It;", ["FMT_CONSTEXPR", "FMT_NOINLINE"]),
        ("class FMT_API format_error : public std::runtime_error {", ["FMT_API"]),
        ("struct JV_EXPORT parser {", ["JV_EXPORT"]),
        ("  FMT_NO_UNIQUE_ADDRESS Allocator alloc_;", ["FMT_NO_UNIQUE_ADDRESS"]),
        ("FMT_API std::string vformat(string_view fmt);", ["FMT_API"]),
        ("EXPORT Widget *make_widget(void);", ["EXPORT"]),
        ("template <typename T> FMT_CONSTEXPR auto f(T x) -> T {", ["FMT_CONSTEXPR"]),
        ("  FMT_CONSTEXPR20 ~basic_memory_buffer() { deallocate(); }", ["FMT_CONSTEXPR20"]),
        ("  FMT_CONSTEXPR explicit buffer(size_t n);", ["FMT_CONSTEXPR"]),
        # a type and its variable, an expression, a call, a tag: nothing to blank
        ("DWORD n;", []),
        ("BOOL *p = NULL;", []),
        ("  return FOO_BAR;", []),
        ("  x = MAX_SIZE + 1;", []),
        ("template <typename T, FMT_ENABLE_IF(is_integral<T>::value)>", []),
        ("struct LIST_ENTRY entry;", []),
        ("  if (x) FOO_LOG(x);", []),
        ("HRESULT CFoo::Method() {", []),
        ('#define FMT_API __attribute__((visibility("default")))', []),
        ("// FMT_API void f();", []),
    ],
)
def test_what_a_line_loses(line: str, blanked: list[str]) -> None:
    assert _blanked_words(line + "\n") == blanked


def test_a_macro_alone_on_its_line_between_declarations_is_blanked_an_enumerator_is_not() -> None:
    text = (
        '#include "base.h"\n'
        "FMT_BEGIN_NAMESPACE\n"
        "FMT_BEGIN_EXPORT\n"
        "enum class color {\n"
        "  red,\n"
        "  LAST_COLOR\n"
        "};\n"
        "FMT_END_NAMESPACE\n"
        "int f(int a,\n"
        "      DEFAULT_B\n"
        ");\n"
    )
    assert _blanked_words(text) == ["FMT_BEGIN_NAMESPACE", "FMT_BEGIN_EXPORT", "FMT_END_NAMESPACE"]


def test_directive_continuations_are_left_as_they_are() -> None:
    text = "#define DECLARE(name) \\\n  FMT_API void name(); \\\n  FMT_API int name##_n();\nFMT_API void g();\n"
    assert _blanked_words(text) == ["FMT_API"]
    assert blank_text(text.encode()).decode().splitlines()[3] == "        void g();"


HEADER = """#ifndef FMT_EXAMPLE_H_
#define FMT_EXAMPLE_H_
#include "base.h"

FMT_BEGIN_NAMESPACE
namespace detail {

FMT_CONSTEXPR20 inline auto count_digits(uint64_t n) -> int {
  int count = 1;
  for (;;) {
    if (n < 10) return count;
    n /= 10;
    ++count;
  }
}

class FMT_API format_error : public std::runtime_error {
 public:
  FMT_CONSTEXPR explicit format_error(const char* message);
  FMT_NO_UNIQUE_ADDRESS Allocator alloc_;
};

}  // namespace detail
FMT_END_NAMESPACE
#endif  // FMT_EXAMPLE_H_
"""


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_the_function_around_an_edit_is_found_behind_its_macros(language: str) -> None:
    source = (
        HEADER.encode()
        if language == "cpp"
        else b"JV_EXPORT static JV_ALWAYS_INLINE int twice(int n) {\n  return 2 * n;\n}\n"
    )
    tree = SyntaxTree.parse(language, source)
    if language == "cpp":
        assert not tree.root.has_error
    at = source.index(b"count = 1" if language == "cpp" else b"2 * n")
    node = enclosing_node(tree, at, at + 1, ("function_definition",))
    assert node is not None
    declarator = node.child_by_field_name("declarator")
    assert declarator is not None
    name = source[declarator.start_byte : declarator.end_byte]
    assert name.startswith(b"count_digits" if language == "cpp" else b"twice")


def test_the_tree_is_the_one_of_the_text_as_written_at_every_offset() -> None:
    tree = SyntaxTree.parse("cpp", HEADER.encode())
    assert tree.root.end_byte == len(HEADER.encode())
    assert tree.root.end_point == (HEADER.count("\n"), 0)


MACRO_PIECES = st.sampled_from(
    [
        "FMT_API ",
        "EXPORT",
        "inline ",
        "void ",
        "\n",
        "\\\n",
        "#",
        "x",
        ";",
        "{",
        "}",
        "(",
        ",",
        "//",
        "Type name",
        "FMT_BEGIN_NAMESPACE\n",
        " ",
        "é",
    ]
)


@st.composite
def macro_edit_scripts(draw):
    text = HEADER
    steps = []
    for _ in range(draw(st.integers(1, 10))):
        start = draw(st.integers(0, len(text)))
        end = min(len(text), start + draw(st.integers(0, 8)))
        piece = "" if draw(st.integers(0, 3)) == 0 else draw(MACRO_PIECES)
        new = text[:start] + piece + text[end:]
        steps.append((_Edit(text, start, end, piece), draw(st.booleans())))
        text = new
    return steps


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(macro_edit_scripts())
def test_incremental_blanking_and_parse_equal_a_fresh_one(steps) -> None:
    tree = SyntaxTree.parse("cpp", HEADER.encode())
    for edit, read in steps:
        source = edit.new_text.encode()
        tree.apply_edit(edit, source)
        if read:
            _assert_fresh(tree, source)
    _assert_fresh(tree, steps[-1][0].new_text.encode())


def _assert_fresh(tree: SyntaxTree, source: bytes) -> None:
    root = tree.root
    assert tree.parsed_blanks() == tuple(blanked(source))
    fresh = SyntaxTree.parse("cpp", source).root
    assert root.end_byte == fresh.end_byte == len(source)
    if fresh.has_error:
        event("fresh parse has errors")
        assert root.has_error
    else:
        event("fresh parse is clean")
        assert str(root) == str(fresh)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(macro_edit_scripts())
def test_a_snapshot_parses_as_the_live_tree_would(steps) -> None:
    tree = SyntaxTree.parse("cpp", HEADER.encode())
    for edit, _ in steps:
        tree.apply_edit(edit, edit.new_text.encode())
    source = steps[-1][0].new_text.encode()
    snapshot = tree.snapshot()
    assert snapshot.parse_ahead(lambda: False)
    assert tree.adopt(snapshot)
    _assert_fresh(tree, source)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(macro_edit_scripts())
def test_a_reopened_text_is_diffed_on_what_tree_sitter_read(steps) -> None:
    table = ClosedTrees()
    tree = SyntaxTree.parse("cpp", HEADER.encode())
    table.keep("file:///x.h", tree)
    source = steps[-1][0].new_text.encode()
    reopened = table.reopen("file:///x.h", "cpp", source)
    assert reopened is not None
    _assert_fresh(reopened, source)


def _fed(source: bytes, blanks) -> bytes:
    return read_blanked(source, blanks, 0, len(source))


def test_reblank_reblanks_the_edited_lines_and_the_line_after_only() -> None:
    old = b"int a;\nint b;\nFMT_API\nint c;\n"
    blanks = blanked(old)
    assert _fed(old, blanks) == b"int a;\nint b;\n       \nint c;\n"
    # the line before the lone macro no longer ends a statement: it is kept
    new = b"int a;\nint b,\nFMT_API\nint c;\n"
    at = old.index(b";", 7)
    now, regions = reblank(blanks, new, add_edit((), at, at + 1, at + 1, 1, 0))
    assert now == () and _fed(new, now) == blank_text(new) == new
    assert regions == [(7, new.index(b"int c"), 1)]


def test_edits_far_apart_are_blanked_anew_each_on_its_own_lines() -> None:
    old = HEADER.encode()
    first, second = old.index(b"int count"), old.index(b"FMT_NO_UNIQUE_ADDRESS")
    spans = add_edit((), first, first, first + 1, old.count(b"\n", 0, first), 0)  # "int count" -> "xint count"
    new = old[:first] + b"x" + old[first:]
    spans = add_edit(spans, second + 1, second + 1, second + 10, old.count(b"\n", 0, second), 0)  # "EXPORTED " …
    new = new[: second + 1] + b"EXPORTED " + new[second + 1 :]
    now, regions = reblank(tuple(blanked(old)), new, spans)
    assert now == tuple(blanked(new))
    assert len(regions) == 2
    assert all(new.count(b"\n", start, end) == 2 for start, end, _ in regions)
    assert [region.row for region in regions] == [new.count(b"\n", 0, start) for start, _, _ in regions]


EDIT_TEXTS = st.sampled_from(["", "x", "FMT_API ", "void ", "\n", ";", "{", "\\\n", "#", "EXPORT\n", "Type name", "  "])


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_reblank_after_any_edits_equals_blanking_the_whole_text(data) -> None:
    old = HEADER.encode()
    text, spans = old, ()
    for _ in range(data.draw(st.integers(1, 24))):
        start = data.draw(st.integers(0, len(text)))
        end = min(len(text), start + data.draw(st.integers(0, 12)))
        piece = data.draw(EDIT_TEXTS).encode()
        row, rows_growth = text.count(b"\n", 0, start), piece.count(b"\n") - text.count(b"\n", start, end)
        text = text[:start] + piece + text[end:]
        spans = add_edit(spans, start, end, start + len(piece), row, rows_growth)
    now, regions = reblank(tuple(blanked(old)), text, spans)
    assert now == tuple(blanked(text))
    assert len(spans) <= MAX_SPANS
    for region in regions:
        assert region.start <= region.end
        assert region.row == text.count(b"\n", 0, region.start)


@given(st.binary(max_size=200), st.data())
def test_reading_blanked_in_any_window_equals_the_blanked_text(source, data) -> None:
    blanks = sorted(
        {
            tuple(sorted(data.draw(st.tuples(st.integers(0, len(source)), st.integers(0, len(source))))))
            for _ in range(data.draw(st.integers(0, 5)))
        }
    )
    blanks = [b for b in blanks if b[0] < b[1]]
    apart = []
    for start, end in blanks:  # apart, as blanks are
        if not apart or start >= apart[-1][1]:
            apart.append((start, end))
    whole = bytearray(source)
    for start, end in apart:
        whole[start:end] = b" " * (end - start)
    lo = data.draw(st.integers(0, len(source)))
    hi = data.draw(st.integers(lo, len(source)))
    assert read_blanked(source, apart, lo, hi) == bytes(whole[lo:hi])


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # typed after a name: the name becomes a macro, blanked, left of the edit
        ("void g() {\n  FOO f();\n}\n", "void g() {\n  FOO void f();\n}\n"),
        ("void g() {\n  FOO void f();\n}\n", "void g() {\n  FOO f();\n}\n"),
        # the line before a lone macro starts or stops ending a statement
        ("int a = 1;\nFMT_API\nint c;\n", "int a = 1\n;\nFMT_API\nint c;\n"),
    ],
)
def test_blanking_changed_beside_an_edit_gives_the_fresh_tree(before: str, after: str) -> None:
    start = next(i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b)
    tail = 0
    while tail < min(len(before), len(after)) - start and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    edit = _Edit(before, start, len(before) - tail, after[start : len(after) - tail])
    assert edit.new_text == after
    tree = SyntaxTree.parse("cpp", before.encode())
    tree.root  # noqa: B018 - parsed, then edited
    tree.apply_edit(edit, after.encode())
    assert str(tree.root) == str(SyntaxTree.parse("cpp", after.encode()).root)
    assert not tree.root.has_error
