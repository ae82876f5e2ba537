"""Generated source files for the speed benchmarks, one shape in seven languages.

Every file is a header (a module-level constant ``LIMIT`` and a function
``helper(value, limit)``) followed by N small functions of the same shape::

    def function_7(items, scale):
        # 😀 accumulate: total stays in this comment
        total = 0
        for item in items:
            total += item.price * scale
        label = "total 漢字"
        return helper(total, LIMIT), label

so a local (``total``: a definition and three uses, plus a comment and a
string that mention it), a module-level constant used once per function and
a function called once per function all grow with the file. The non-ASCII
comment and string keep the position conversions honest (no ASCII fast path
for the file as a whole). :class:`Source` knows where each edit of the
benchmarks goes, as ``(line, utf16_column)``: the edited lines are ASCII.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LANGUAGES", "Source", "source"]


@dataclass(frozen=True)
class _Shape:
    ext: str
    head: tuple[str, ...]
    block: tuple[str, ...]  # one function; ``{i}`` is its number
    tail: tuple[str, ...] = ()
    limit_def: str = "LIMIT"  # the header line defining LIMIT contains this text first


_SHAPES: dict[str, _Shape] = {
    "python": _Shape(
        "py",
        ("LIMIT = 10", "", "", "def helper(value, limit):", "    return min(value, limit)", "", ""),
        (
            "def function_{i}(items, scale):",
            "    # 😀 accumulate: total stays in this comment",
            "    total = 0",
            "    for item in items:",
            "        total += item.price * scale",
            '    label = "total 漢字"',
            "    return helper(total, LIMIT), label",
            "",
        ),
    ),
    "rust": _Shape(
        "rs",
        (
            "struct Item {",
            "    price: i64,",
            "}",
            "",
            "const LIMIT: i64 = 10;",
            "",
            "fn helper(value: i64, limit: i64) -> i64 {",
            "    value.min(limit)",
            "}",
            "",
        ),
        (
            "fn function_{i}(items: &[Item], scale: i64) -> (i64, &'static str) {{",
            "    // 😀 accumulate: total stays in this comment",
            "    let mut total = 0;",
            "    for item in items {{",
            "        total += item.price * scale;",
            "    }}",
            '    let label = "total 漢字";',
            "    (helper(total, LIMIT), label)",
            "}}",
            "",
        ),
    ),
    "typescript": _Shape(
        "ts",
        (
            "interface Item {",
            "    price: number;",
            "}",
            "",
            "const LIMIT = 10;",
            "",
            "function helper(value: number, limit: number): number {",
            "    return Math.min(value, limit);",
            "}",
            "",
        ),
        (
            "function function_{i}(items: Item[], scale: number): [number, string] {{",
            "    // 😀 accumulate: total stays in this comment",
            "    let total = 0;",
            "    for (const item of items) {{",
            "        total += item.price * scale;",
            "    }}",
            '    const label = "total 漢字";',
            "    return [helper(total, LIMIT), label];",
            "}}",
            "",
        ),
    ),
    "go": _Shape(
        "go",
        (
            "package generated",
            "",
            "type Item struct {",
            "\tPrice int",
            "}",
            "",
            "const LIMIT = 10",
            "",
            "func helper(value int, limit int) int {",
            "\treturn min(value, limit)",
            "}",
            "",
        ),
        (
            "func function_{i}(items []Item, scale int) (int, string) {{",
            "\t// 😀 accumulate: total stays in this comment",
            "\ttotal := 0",
            "\tfor _, item := range items {{",
            "\t\ttotal += item.Price * scale",
            "\t}}",
            '\tlabel := "total 漢字"',
            "\treturn helper(total, LIMIT), label",
            "}}",
            "",
        ),
    ),
    "java": _Shape(
        "java",
        (
            "class Generated {",
            "    static final int LIMIT = 10;",
            "",
            "    static int helper(int value, int limit) {",
            "        return Math.min(value, limit);",
            "    }",
            "",
        ),
        (
            "    static int function_{i}(Item[] items, int scale) {{",
            "        // 😀 accumulate: total stays in this comment",
            "        int total = 0;",
            "        for (Item item : items) {{",
            "            total += item.price * scale;",
            "        }}",
            '        String label = "total 漢字";',
            "        return helper(total, LIMIT) + label.length();",
            "    }}",
            "",
        ),
        ("}",),
    ),
    "c": _Shape(
        "c",
        (
            "struct item {",
            "    int price;",
            "};",
            "",
            "static const int LIMIT = 10;",
            "",
            "static int helper(int value, int limit) {",
            "    return value < limit ? value : limit;",
            "}",
            "",
        ),
        (
            "int function_{i}(const struct item *items, int n, int scale) {{",
            "    /* 😀 accumulate: total stays in this comment */",
            "    int total = 0;",
            "    for (int k = 0; k < n; k++) {{",
            "        total += items[k].price * scale;",
            "    }}",
            '    const char *label = "total 漢字";',
            "    return helper(total, LIMIT) + label[0];",
            "}}",
            "",
        ),
    ),
    "cpp": _Shape(
        "cpp",
        (
            "#include <vector>",
            "",
            "struct Item {",
            "    int price;",
            "};",
            "",
            "const int LIMIT = 10;",
            "",
            "static int helper(int value, int limit) {",
            "    return value < limit ? value : limit;",
            "}",
            "",
        ),
        (
            "int function_{i}(const std::vector<Item> &items, int scale) {{",
            "    // 😀 accumulate: total stays in this comment",
            "    int total = 0;",
            "    for (const Item &item : items) {{",
            "        total += item.price * scale;",
            "    }}",
            '    const char *label = "total 漢字";',
            "    return helper(total, LIMIT) + label[0];",
            "}}",
            "",
        ),
    ),
}

LANGUAGES = tuple(_SHAPES)


@dataclass(frozen=True)
class Source:
    """A generated file and where the benchmarks edit it (lines are 0-based)."""

    language: str
    uri: str
    text: str
    functions: int
    _head_lines: int
    _block: tuple[str, ...]
    _head: tuple[str, ...]

    @property
    def lines(self) -> int:
        return self.text.count("\n")

    def _line(self, function: int, marker: str) -> tuple[int, str]:
        k = next(k for k, line in enumerate(self._block) if marker in line)
        return self._head_lines + function * len(self._block) + k, self._block[k].format(i=function)

    def local_definition(self, function: int) -> tuple[int, int]:
        """``total`` at its definition (``total = 0``)."""
        marker = "total = 0" if any("total = 0" in line for line in self._block) else "total := 0"
        line, text = self._line(function, marker)
        return line, text.index("total")

    def init_value(self, function: int) -> tuple[int, int]:
        """The ``0`` of ``total = 0`` (the repeated edit turns it into ``1``)."""
        line, col = self.local_definition(function)
        return line, self.text_of(line).index("0", col)

    def limit_use(self, function: int) -> tuple[int, int]:
        """``LIMIT`` in the function's return line."""
        line, text = self._line(function, "LIMIT")
        return line, text.index("LIMIT")

    def limit_definition(self) -> tuple[int, int]:
        k = next(k for k, line in enumerate(self._head) if "LIMIT" in line)
        return k, self._head[k].index("LIMIT")

    def helper_parameters_end(self) -> tuple[int, int]:
        """Just before the ``)`` closing ``helper``'s parameter list."""
        k = next(k for k, line in enumerate(self._head) if "helper(" in line)
        return k, self._head[k].index(")")

    def text_of(self, line: int) -> str:
        if line < self._head_lines:
            return self._head[line]
        return self._block[(line - self._head_lines) % len(self._block)].format(
            i=(line - self._head_lines) // len(self._block)
        )


def source(language: str, lines: int) -> Source:
    """A file of about ``lines`` lines in ``language``."""
    shape = _SHAPES[language]
    count = max(2, (lines - len(shape.head)) // len(shape.block))
    body = [line.format(i=i) for i in range(count) for line in shape.block]
    text = "\n".join([*shape.head, *body, *shape.tail]) + "\n"
    return Source(
        language, f"file:///bench/generated.{shape.ext}", text, count, len(shape.head), shape.block, shape.head
    )
