"""Cost of the syntax layer on a 5,000-line file: binding lookups and re-parses.

Generates a realistic ~5,000-line Python module and a ~5,000-line TypeScript
module (classes with fields and methods, module-level helpers called all over
the file, imports, comprehensions / closures, shadowing locals) and measures:

* ``syntax.scopes.binding_occurrences`` for a range of bindings, from a local
  variable to a member name with thousands of textual occurrences. Two modes:
  **cold** — a fresh ``SyntaxTree`` wrapper each call (empty ``memo``: what
  the rename suggester sees, it resolves on an edited copy of the tree) — and
  **warm** — the same ``SyntaxTree`` again (memo filled by the previous call);
* a single-character insert / delete in the middle of the file with the
  tree read after each (``SyntaxTree.apply_edit`` and the deferred re-parse
  the read pays), inside a name (no re-parse: offsets moved) and after it.

Reports median / p99 / max in milliseconds per case.

Usage::

    python benchmarks/syntax_cost.py \
        --json benchmarks/results/syntax-cost.json --md benchmarks/results/syntax-cost.md
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from nextedit.syntax import SyntaxTree
from nextedit.syntax.scopes import binding_occurrences

# ----------------------------------------------------------------- sources

_PY_HEAD = '''"""Generated module: records, helpers and processing pipelines."""

from __future__ import annotations

import os
import json
from dataclasses import dataclass

DEFAULT_LIMIT = 100


def helper(value, scale=1):
    """Clamp and scale ``value``."""
    if value > DEFAULT_LIMIT:
        value = DEFAULT_LIMIT
    return value * scale


class Base:
    value = 0

    def describe(self):
        return f"{type(self).__name__}({self.value})"

'''

_PY_UNIT = '''
class Record{i}(Base):
    """Record {i}: holds a value and a few derived items."""

    limit = {n}

    def __init__(self, value, name="r{i}"):
        self.value = value
        self.name = name
        self.items = [helper(v) for v in range(self.value % 7)]

    def update(self, delta):
        total = self.value + delta
        if total > self.limit:
            total = helper(total) - self.value
        self.value = total
        return self.value

    def to_json(self):
        data = {{"name": self.name, "value": self.value}}
        return json.dumps(data)


def process_{i}(records, factor=2):
    """Scale every record's value by ``factor``."""
    result = []
    for rec in records:
        value = rec.value * factor
        result.append(helper(value) + rec.value)
    path = os.path.join("out", "{i}.json")
    return [helper(r, factor) for r in result if r > value], path

'''

_TS_HEAD = """// Generated module: records, helpers and processing pipelines.
import { readFileSync } from "fs";
import * as path from "path";

export const DEFAULT_LIMIT = 100;

export function helper(value: number, scale = 1): number {
  if (value > DEFAULT_LIMIT) {
    value = DEFAULT_LIMIT;
  }
  return value * scale;
}

export interface Sized {
  count: number;
  name: string;
}

"""

_TS_UNIT = """
export class Record{i} implements Sized {{
  count = {n};
  name = "r{i}";

  constructor(initial: number, private readonly label: string) {{
    this.count = helper(initial);
  }}

  update(delta: number): number {{
    let total = this.count + delta;
    if (total > DEFAULT_LIMIT) {{
      total = helper(total) - this.count;
    }}
    this.count = total;
    return this.count;
  }}

  toJSON(): Sized {{
    const {{ count, name }} = this;
    return {{ count: count + this.count, name }};
  }}
}}

export function process{i}(records: Sized[], factor = 2): number[] {{
  const result: number[] = [];
  for (const rec of records) {{
    const value = rec.count * factor;
    result.push(helper(value) + rec.count);
  }}
  const file = path.join("out", `${{factor}}-{i}.json`);
  return result.filter((r) => r > helper(r, factor) && file.length > 0);
}}

"""


def python_source(lines: int = 5000) -> bytes:
    rng = random.Random(1)
    parts = [_PY_HEAD]
    i = 0
    while sum(p.count("\n") for p in parts) < lines:
        parts.append(_PY_UNIT.format(i=i, n=rng.randint(1, 999)))
        i += 1
    return "".join(parts).encode()


def typescript_source(lines: int = 5000) -> bytes:
    rng = random.Random(2)
    parts = [_TS_HEAD]
    i = 0
    while sum(p.count("\n") for p in parts) < lines:
        parts.append(_TS_UNIT.format(i=i, n=rng.randint(1, 999)))
        i += 1
    return "".join(parts).encode()


def _nth(source: bytes, needle: bytes, n: int, skip: int = 0) -> int:
    """Byte offset of the ``n``-th occurrence of ``needle`` (+ ``skip``)."""
    pos = -1
    for _ in range(n + 1):
        pos = source.index(needle, pos + 1)
    return pos + skip


def cases(language: str, source: bytes) -> dict[str, int]:
    """Cursor offsets of the measured bindings (middle of the file)."""
    mid = source.count(b"\nclass Record" if language == "python" else b"\nexport class Record") // 2
    if language == "python":
        return {
            "local (total in a method)": _nth(source, b"total = self.value + delta", mid),
            "parameter (delta)": _nth(source, b"self, delta", mid, 6),
            "member (self.value)": _nth(source, b"self.value = total", mid, 5),
            "top-level function (helper)": _nth(source, b"helper(value) + rec", mid),
            "module constant (DEFAULT_LIMIT)": _nth(source, b"DEFAULT_LIMIT", 1),
            "import (os)": _nth(source, b"os.path", mid),
            "class (Base)": _nth(source, b"(Base)", mid, 1),
            "shadowing local (value in process_N)": _nth(source, b"value = rec.value", mid),
        }
    return {
        "local (total in a method)": _nth(source, b"let total", mid, 4),
        "parameter (delta)": _nth(source, b"delta: number", mid),
        "member (this.count)": _nth(source, b"this.count = total", mid, 5),
        "top-level function (helper)": _nth(source, b"helper(value) + rec", mid),
        "module constant (DEFAULT_LIMIT)": _nth(source, b"DEFAULT_LIMIT", 1),
        "import (path)": _nth(source, b"path.join", mid),
        "interface (Sized)": _nth(source, b"implements Sized", mid, 11),
        "destructured local (count)": _nth(source, b"{ count, name }", mid, 2),
    }


# ------------------------------------------------------------- measurement


def _stats(samples_s: list[float]) -> dict[str, float]:
    ordered = sorted(samples_s)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "median_ms": round(statistics.median(ordered) * 1e3, 3),
        "p99_ms": round(p99 * 1e3, 3),
        "max_ms": round(ordered[-1] * 1e3, 3),
        "n": len(ordered),
    }


def measure_bindings(language: str, source: bytes, repeat: int) -> list[dict]:
    base = SyntaxTree.parse(language, source)
    rows = []
    for what, offset in cases(language, source).items():
        occurrences = binding_occurrences(base, source, offset) or []
        name = source[occurrences[0][0] : occurrences[0][1]] if occurrences else b"?"
        textual = source.count(name)
        cold, warm = [], []
        warm_tree = SyntaxTree(language, base.tree, len(source))
        binding_occurrences(warm_tree, source, offset)
        for _ in range(repeat):
            fresh = SyntaxTree(language, base.tree, len(source))
            t0 = time.perf_counter()
            binding_occurrences(fresh, source, offset)
            cold.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            binding_occurrences(warm_tree, source, offset)
            warm.append(time.perf_counter() - t0)
        rows.append(
            {
                "language": language,
                "case": what,
                "name": name.decode(),
                "textual": textual,
                "occurrences": len(occurrences),
                "cold": _stats(cold),
                "warm": _stats(warm),
            }
        )
    return rows


def _point(data: bytes, byte_offset: int) -> tuple[int, int]:
    row = data.count(b"\n", 0, byte_offset)
    return row, byte_offset - (data.rfind(b"\n", 0, byte_offset) + 1)


class _Edit:
    def __init__(self, old: bytes, start: int, old_end: int, new_text: bytes) -> None:
        self.new = old[:start] + new_text + old[old_end:]
        self.start_byte, self.old_end_byte, self.new_end_byte = start, old_end, start + len(new_text)
        self.start_point = _point(old, start)
        self.old_end_point = _point(old, old_end)
        self.new_end_point = _point(self.new, self.new_end_byte)


def measure_reparse(language: str, source: bytes, repeat: int) -> list[dict]:
    """Type one character, then delete it, reading the tree after each
    (``apply_edit`` + the deferred re-parse paid by that read): inside a
    name (``tota|l``: the token swap, no re-parse) and after it (``total|``
    followed by a space: a real incremental re-parse)."""
    rows = []
    for case, offset, char in (("inside a name", 2, b"x"), ("after a name", 5, b" ")):
        tree = SyntaxTree.parse(language, source)
        pos = source.index(b"total", len(source) // 2) + offset
        inserts, deletes = [], []
        current = source
        for _ in range(repeat):
            e = _Edit(current, pos, pos, char)
            t0 = time.perf_counter()
            tree.apply_edit(e, e.new)
            tree.root  # noqa: B018 - the read pays the deferred re-parse
            inserts.append(time.perf_counter() - t0)
            current = e.new
            e = _Edit(current, pos, pos + 1, b"")
            t0 = time.perf_counter()
            tree.apply_edit(e, e.new)
            tree.root  # noqa: B018
            deletes.append(time.perf_counter() - t0)
            current = e.new
        assert current == source
        rows.append({"language": language, "case": case, "insert": _stats(inserts), "delete": _stats(deletes)})
    return rows


# ------------------------------------------------------------------ report


def to_markdown(result: dict) -> str:
    out = [
        "# syntax cost (5,000-line files)",
        "",
        f"- date: {result['date']}",
        f"- command: `{result['command']}`",
        f"- python {result['python']}, {result['machine']}",
        "- cold = fresh `SyntaxTree` wrapper per call (empty memo, as in the rename suggester);"
        " warm = same wrapper again",
        "",
        "## `binding_occurrences`",
        "",
        "| language | case | textual | found | cold median | cold p99 | warm median | warm p99 |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in result["bindings"]:
        out.append(
            f"| {row['language']} | {row['case']} | {row['textual']} | {row['occurrences']} "
            f"| {row['cold']['median_ms']:.3f} | {row['cold']['p99_ms']:.3f} "
            f"| {row['warm']['median_ms']:.3f} | {row['warm']['p99_ms']:.3f} |"
        )
    out += [
        "",
        "## one character typed then deleted mid-file, the tree read after each (ms)",
        "",
        "`apply_edit` plus the re-parse the read pays; inside a name the tree's offsets are moved instead (no re-parse).",
        "",
        "| language | lines | where | insert median | insert p99 | delete median | delete p99 |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for row in result["reparse"]:
        out.append(
            f"| {row['language']} | {row['lines']} | {row.get('case', '')} | {row['insert']['median_ms']:.3f} | {row['insert']['p99_ms']:.3f} "
            f"| {row['delete']['median_ms']:.3f} | {row['delete']['p99_ms']:.3f} |"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=200, help="calls per binding case")
    parser.add_argument("--reparse-repeat", type=int, default=1000, help="insert/delete pairs")
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    parser.add_argument("--md", type=Path, help="write the figures as Markdown")
    args = parser.parse_args(argv)
    sources = {"python": python_source(), "typescript": typescript_source()}
    result = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "command": "python benchmarks/syntax_cost.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
        "bindings": [],
        "reparse": [],
    }
    for language, source in sources.items():
        result["bindings"] += measure_bindings(language, source, args.repeat)
        for row in measure_reparse(language, source, args.reparse_repeat):
            row["lines"] = source.count(b"\n")
            result["reparse"].append(row)
    md = to_markdown(result)
    print(md)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.md:
        args.md.parent.mkdir(parents=True, exist_ok=True)
        args.md.write_text(md, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
