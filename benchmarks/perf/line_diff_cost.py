"""The line diff and the incremental re-parse of a re-open against a fresh parse, on one file's versions in a trace.

Takes every distinct text a trace opens for the URIs ending in ``SUFFIX``
(in trace order) and, for each consecutive pair, times (thread CPU) the line
diff (:func:`nextedit.syntax.line_diff.line_edits`), a fresh parse of the
newer text, and the re-parse of the older text's tree edited by the diff
(:meth:`nextedit.syntax.SyntaxTree.reopen`), and checks the two trees print
the same s-expression. Figures: ``benchmarks/results/trace-latency-reopen.md``.

Usage::

    python benchmarks/perf/line_diff_cost.py TRACE SUFFIX     # e.g. fmt.jsonl.gz format.h
"""

from __future__ import annotations

import statistics
import sys
import time

from nextedit.bench.events import Open
from nextedit.bench.readers import load_sessions
from nextedit.syntax import SyntaxTree, get_parser, language_for
from nextedit.syntax.line_diff import line_edits


def main(path: str, suffix: str) -> None:
    texts: list[bytes] = []
    language = None
    for session in load_sessions(path):
        for event in session.events:
            if isinstance(event, Open) and event.uri.endswith(suffix):
                language = language or language_for(event.language_id, event.uri, event.text)
                text = event.text.encode()
                if not texts or texts[-1] != text:
                    texts.append(text)
    assert language is not None, f"no open of *{suffix} in {path}"
    parser = get_parser(language)
    diff, fresh, reopen, edits, same = [], [], [], [], 0
    for old, new in zip(texts, texts[1:], strict=False):
        start = time.thread_time()
        hunks = line_edits(old, new)
        diff.append(time.thread_time() - start)
        edits.append(len(hunks))
        start = time.thread_time()
        fresh_tree = parser.parse(new)
        fresh.append(time.thread_time() - start)
        syntax = SyntaxTree.reopen(language, parser.parse(old), old, new)
        start = time.thread_time()
        tree = syntax.tree  # the line diff again, then the incremental parse
        reopen.append(time.thread_time() - start - diff[-1])
        same += str(tree.root_node) == str(fresh_tree.root_node)

    def ms(values: list[float]) -> str:
        return f"p50 {statistics.median(values) * 1000:.1f} max {max(values) * 1000:.1f} ms"

    print(f"{suffix} ({language}): {len(texts)} distinct texts, {len(texts[0]) // 1024}-{len(texts[-1]) // 1024} KB")
    print(f"  hunks per pair: median {statistics.median(edits):.0f}, max {max(edits)}")
    print(f"  line diff        {ms(diff)}")
    print(f"  re-parse (reopen) {ms(reopen)}")
    print(f"  fresh parse      {ms(fresh)}")
    print(f"  same tree        {same} / {len(fresh)}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
