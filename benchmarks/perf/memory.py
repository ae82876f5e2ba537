"""Memory held per open document beyond the tree-sitter tree.

For generated Python files of 1k, 5k and 20k lines, ASCII and non-ASCII
(CJK in a comment and a string; or CJK plus an emoji), measures with
``tracemalloc`` what one ``Session`` holds for one open document after
``did_open``, a burst of keystrokes (a word typed and deleted at several
places), a rename and one ``nes/suggest`` (so the history snapshot and the
syntax memo are filled): the document text (``str``), its UTF-8 ``bytes``,
the line index, the edit history, syntax memos and anything else allocated by
Python code and still alive.

tracemalloc sees only allocations made through Python's allocator. The
tree-sitter binding (py-tree-sitter 0.26) routes tree-sitter's own mallocs
through ``PyMem_*``, so the trees *are* traced: every allocation whose
traceback passes through ``syntax/tree.py`` (``Parser.parse``, ``Tree.edit``,
``Tree.copy``) is counted as "the parse tree" — reported, but excluded from
the ratio the target bounds. (With a binding that used plain ``malloc`` the
tree would be invisible to tracemalloc; the RSS growth column is a
cross-check, an upper bound that includes allocator slack.) One small
document is opened first in another session so one-time caches (query
compilation, imports) are not charged to the measured document.

The ratio is taken against the text's UTF-8 size (what the user's file
weighs on disk). CPython stores a ``str`` with 1, 2 or 4 bytes per code point
depending on its widest character: one emoji makes the whole text 4 bytes a
character, so non-ASCII files cost more for reasons of the runtime, not of
nextedit; the table shows the ``str`` share separately.

Usage (writes benchmarks/results/memory.{json,md})::

    python benchmarks/perf/memory.py
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tracemalloc
from pathlib import Path
from typing import Any

from results_file import metadata_lines, run_metadata, write_results

from nextedit.session import Session
from nextedit.text import Position, Range, TextChange

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"


VARIANTS = {
    # name: (comment, string) — ASCII; CJK only (CPython str: 2 bytes a char);
    # CJK + emoji (an astral character makes the whole str 4 bytes a char)
    "ASCII": ("accumulate", "kanji"),
    "CJK": ("accumulate 合計", "漢字"),
    "CJK+emoji": ("😀 accumulate", "漢字"),
}


def python_file(lines: int, variant: str) -> tuple[str, int]:
    word, label_text = VARIANTS[variant]
    comment = f"    # {word}: total stays in this comment"
    label = f'    label = "total {label_text}"'
    block = [
        "def function_{i}(items, scale):",
        comment,
        "    total = 0",
        "    for item in items:",
        "        total += item.price * scale",
        label,
        "    return total, label",
        "",
    ]
    count = max(1, lines // len(block))
    text = "\n".join(line.format(i=i) for i in range(count) for line in block) + "\n"
    return text, (count // 2) * len(block) + 2


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _category(frames: list[str]) -> str:
    if any(f.endswith("/syntax/tree.py") for f in frames):
        return TREE
    filename = frames[0]
    for part, name in (
        ("/text/", "text (document: str, bytes, line index)"),
        ("/history/", "history"),
        ("/syntax/", "syntax (memos, wrappers)"),
        ("/suggest/", "suggesters (caches)"),
        ("session.py", "session"),
    ):
        if part in filename:
            return name
    return "other"


TREE = "parse tree (tree-sitter, excluded)"


def measure(lines: int, variant: str, keystrokes: int) -> dict[str, Any]:
    warm = Session("warm-up")
    warm.did_open("file:///bench/warm.py", "python", 1, python_file(80, variant)[0])
    warm.did_change("file:///bench/warm.py", 2, [TextChange(Range(Position(2, 4), Position(2, 9)), "amount")])
    warm.suggest("file:///bench/warm.py", 2, Position(2, 10))
    gc.collect()
    session = Session("memory")
    uri = "file:///bench/memory.py"
    rss0 = rss_bytes()
    tracemalloc.start(40)
    before = tracemalloc.take_snapshot()
    text, line = python_file(lines, variant)  # allocated under tracing: the document keeps it
    utf8_size = len(text.encode("utf-8"))
    chars = len(text)
    session.did_open(uri, "python", 1, text)
    del text
    after_open = tracemalloc.take_snapshot()
    # a burst of edits: type and delete a word at several places, then a rename
    version = 1
    word = " + extra_value"
    col = len("    total = 0")
    sites = [line + 8 * k for k in range(-4, 5)]
    typed = 0
    while typed < keystrokes:
        for site in sites:
            for i, ch in enumerate(word):
                version += 1
                session.did_change(
                    uri, version, [TextChange(Range(Position(site, col + i), Position(site, col + i)), ch)]
                )
            for i in range(len(word), 0, -1):
                version += 1
                session.did_change(
                    uri, version, [TextChange(Range(Position(site, col + i - 1), Position(site, col + i)), "")]
                )
            typed += 2 * len(word)
            if typed >= keystrokes:
                break
    version += 1
    session.did_change(uri, version, [TextChange(Range(Position(line, 4), Position(line, 9)), "amount")])
    placed = session.suggest(uri, version, Position(line, 10))
    gc.collect()
    after = tracemalloc.take_snapshot()
    rss1 = rss_bytes()
    tracemalloc.stop()

    def held(snapshot: tracemalloc.Snapshot) -> tuple[int, dict[str, int]]:
        by: dict[str, int] = {}
        total = 0
        for stat in snapshot.compare_to(before, "traceback"):
            # innermost frame first
            name = _category([frame.filename for frame in reversed(stat.traceback)])
            by[name] = by.get(name, 0) + stat.size_diff
            if name != TREE:
                total += stat.size_diff
        return total, by

    open_total, open_by = held(after_open)
    total, by = held(after)
    state = session.documents[uri]
    document = state.document
    text_now = document.text
    parts = {
        "text_str": sys.getsizeof(text_now),
        "utf8_bytes": sys.getsizeof(document.source_bytes),
        "line_index": sys.getsizeof(document._starts_cp) + sys.getsizeof(document._starts_byte),  # noqa: SLF001
    }
    return {
        "lines": lines,
        "variant": variant,
        "chars": chars,
        "utf8_bytes": utf8_size,
        "str_bytes_per_char": round(sys.getsizeof(text_now) / max(len(text_now), 1), 2),
        "keystrokes": typed + 1,
        "history_edits": len(state.history),
        "suggestions": [f"{p.kind} by {p.suggester}" for p in placed],
        "held_after_open": open_total,
        "held_after_edits": total,
        "ratio_after_open": round(open_total / utf8_size, 2),
        "ratio_after_edits": round(total / utf8_size, 2),
        "held_by_room": dict(sorted(by.items(), key=lambda kv: -kv[1])),
        "parse_tree_after_open": open_by.get(TREE, 0),
        "parse_tree_after_edits": by.get(TREE, 0),
        "parts": parts,
        "rss_growth_bytes": rss1 - rss0,
    }


def markdown(results: dict[str, Any]) -> str:
    out = [
        "# Memory per open document (beyond the tree-sitter tree)",
        "",
        *metadata_lines(results),
        "",
        "Held = Python allocations still alive (tracemalloc) for one document after `did_open`, "
        f"{results['rows'][0]['keystrokes']} edits and one `nes/suggest`; ratio = held ÷ the text's UTF-8 size. "
        "tree-sitter's tree allocations (traced: py-tree-sitter routes them through PyMem) are counted apart as "
        '"the parse tree" and excluded from held/ratio; RSS growth (everything, incl. allocator slack) is shown for scale only.',
        "",
        "| lines | text | UTF-8 KB | str B/char | held after open KB (×) | held after edits KB (×) | str KB | bytes KB | line index KB | parse tree KB (excluded) | RSS growth KB |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results["rows"]:
        p = r["parts"]
        out.append(
            f"| {r['lines']} | {r['variant']} | {r['utf8_bytes'] / 1024:.0f} | {r['str_bytes_per_char']} | "
            f"{r['held_after_open'] / 1024:.0f} ({r['ratio_after_open']}×) | {r['held_after_edits'] / 1024:.0f} ({r['ratio_after_edits']}×) | "
            f"{p['text_str'] / 1024:.0f} | {p['utf8_bytes'] / 1024:.0f} | {p['line_index'] / 1024:.0f} | {r['parse_tree_after_edits'] / 1024:.0f} | {r['rss_growth_bytes'] / 1024:.0f} |"
        )
    out += ["", "Held after edits, by room (KB):", ""]
    for r in results["rows"]:
        rooms = ", ".join(f"{k}: {v / 1024:.0f}" for k, v in r["held_by_room"].items() if abs(v) >= 512)
        out.append(f"- {r['lines']} lines, {r['variant']}: {rooms}")
    out += ["", "Target: ≤ 3× the text size per open document beyond the parse tree.", ""]
    if results.get("notes"):
        out += ["## Notes", "", results["notes"], ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--keystrokes", type=int, default=200)
    parser.add_argument("--notes", type=Path, help="a Markdown file whose text is added under Notes")
    parser.add_argument("--out", type=Path, default=RESULTS / "memory")
    args = parser.parse_args(argv)
    rows = [measure(int(n), variant, args.keystrokes) for n in args.sizes.split(",") for variant in VARIANTS]
    results: dict[str, Any] = {
        **run_metadata(argv),
        "rows": rows,
    }
    write_results(args.out, results, args.notes, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
