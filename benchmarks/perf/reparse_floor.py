"""What tree-sitter's incremental re-parse of a trace's files costs, edit or no edit (thread CPU).

For each named file, its first text opened in the trace: the fresh parse, the
re-parse from its own tree with **no edit at all** (the floor of every
re-parse of that text), and the re-parse after one line inserted at 10%, 50%
and 90% of it; plus how its tree looks (the largest top-level ``ERROR``, the
error nodes). Figures: ``benchmarks/results/trace-latency-p99-notes.md``.

    python benchmarks/perf/reparse_floor.py /work/shared/traces/train/fmt.jsonl.gz format.h base.h format-test.cc
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from collections.abc import Callable

from nextedit.syntax.languages import get_parser, language_for

_PROBE = b"  int nextedit_probe = 0;\n"


def _first_open(trace: str, name: str) -> tuple[str, bytes] | None:
    """``(grammar, bytes)`` of the first text opened in ``trace`` whose URI ends with ``name``."""
    with gzip.open(trace, "rt") as fh:
        for line in fh:
            event = json.loads(line)
            if event.get("kind") == "open" and event["uri"].endswith(name):
                return language_for(event["languageId"], event["uri"], event["text"]), event["text"].encode()
    return None


def median_ms(call: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.thread_time()
        call()
        times.append((time.thread_time() - started) * 1000)
    return statistics.median(times)


def _row(name: str, grammar: str | None, source: bytes, runs: int) -> str:
    """One table row for ``source`` parsed with ``grammar``."""
    if grammar is None:
        return f"| {name} | no grammar |"
    ts = get_parser(grammar)
    tree = ts.parse(source)
    errors = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            errors.append(node)
        elif node.has_error:
            stack.extend(node.children)
    largest = max((c.end_byte - c.start_byte for c in tree.root_node.children if c.type == "ERROR"), default=0)
    lines = source.split(b"\n")

    def inserted(fraction: float) -> Callable[[], object]:
        row = int(len(lines) * fraction)
        start = sum(len(line) + 1 for line in lines[:row])
        new = source[:start] + _PROBE + source[start:]
        edited = tree.copy()
        edited.edit(
            start_byte=start,
            old_end_byte=start,
            new_end_byte=start + len(_PROBE),
            start_point=(row, 0),
            old_end_point=(row, 0),
            new_end_point=(row + 1, 0),
        )
        return lambda: ts.parse(new, edited)

    fresh = median_ms(lambda: ts.parse(source), runs)
    same = median_ms(lambda: ts.parse(source, tree), runs)
    edits = " / ".join(f"{median_ms(inserted(f), runs):.1f}" for f in (0.1, 0.5, 0.9))
    spans = sum(e.end_byte - e.start_byte for e in errors)
    return f"| {name} | {grammar} | {len(source):,} | {len(errors)} ({spans:,}) | {largest:,} | {fresh:.1f} | {same:.1f} | {edits} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace")
    parser.add_argument("names", nargs="+", help="file names (URI endings) to measure")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    print(
        "| file | grammar | bytes | error nodes (bytes) | largest top-level ERROR | fresh | re-parse, no edit | one line inserted at 10% / 50% / 90% |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in args.names:
        found = _first_open(args.trace, name)
        print(_row(name, *found, args.runs) if found is not None else f"| {name} | not opened in the trace |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
