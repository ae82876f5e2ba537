"""What blanking C and C++ attribute-like macros changes for tree-sitter (thread CPU).

For each C or C++ file first opened in the given traces (20 KB and more; all
files count toward the error totals): its ``ERROR`` and missing nodes
parsed as written and blanked (``nextedit.syntax.attribute_macros``), the
fresh parse and the re-parse with no edit (the floor of every incremental
re-parse, ``reparse_floor.py``) of each, and what blanking the whole text
costs. Figures: ``benchmarks/results/attribute-macros.md``.

    python benchmarks/perf/attribute_macros.py ../shared/traces/train/fmt.jsonl.gz ../shared/traces/train/jq.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json

import tree_sitter
from reparse_floor import median_ms

from nextedit.syntax.attribute_macros import BLANKED_LANGUAGES, blank_text
from nextedit.syntax.languages import get_parser, language_for

_SMALL = 20_000  # bytes: smaller files count toward the totals only


def _errors(tree: tree_sitter.Tree) -> int:
    """``ERROR`` and missing nodes below the root (one that spans 50 KB and
    more, a whole file gone wrong, is looked into rather than counted)."""
    count, stack = 0, [tree.root_node]
    while stack:
        node = stack.pop()
        if (node.type == "ERROR" and node.end_byte - node.start_byte < 50_000) or node.is_missing:
            count += 1
        elif node.has_error:
            stack.extend(node.children)
    return count


def _row(name: str, parser: tree_sitter.Parser, source: bytes, fed: bytes, errors: tuple[int, int], runs: int) -> str:
    """One table row: ``source`` as written against ``fed`` (it blanked)."""
    as_written, blanked = parser.parse(source), parser.parse(fed)
    fresh = (median_ms(lambda: parser.parse(source), runs), median_ms(lambda: parser.parse(fed), runs))
    floor = (
        median_ms(lambda: parser.parse(source, as_written), runs),
        median_ms(lambda: parser.parse(fed, blanked), runs),
    )
    cost = median_ms(lambda: blank_text(source), runs)
    return (
        f"| {name} | {len(source):,} | {errors[0]} / {errors[1]} | {fresh[0]:.1f} → {fresh[1]:.1f} "
        f"| {floor[0]:.1f} → {floor[1]:.1f} | {cost:.1f} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print("| file | bytes | errors as written / blanked | fresh parse | re-parse, no edit | blanking |")
    print("|---|---:|---:|---:|---:|---:|")
    seen: set[str] = set()
    totals = [0, 0]
    for trace in args.traces:
        with gzip.open(trace, "rt") as fh:
            for line in fh:
                event = json.loads(line)
                if event.get("kind") != "open" or event["uri"] in seen:
                    continue
                seen.add(event["uri"])
                grammar = language_for(event["languageId"], event["uri"], event["text"])
                if grammar not in BLANKED_LANGUAGES:
                    continue
                source = event["text"].encode()
                fed = blank_text(source)
                parser = get_parser(grammar)
                as_written, blanked = parser.parse(source), parser.parse(fed)
                errors = (_errors(as_written), _errors(blanked))
                totals[0] += errors[0]
                totals[1] += errors[1]
                if len(source) < _SMALL:
                    continue
                name = event["uri"].rsplit("/", 1)[-1]
                print(_row(name, parser, source, fed, errors, args.runs))
    print(f"\nERROR and missing nodes in all {len(seen)} files opened: {totals[0]} as written, {totals[1]} blanked")


if __name__ == "__main__":
    main()
