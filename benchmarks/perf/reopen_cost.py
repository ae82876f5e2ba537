"""What a re-open served by the closed-trees table costs, against a fresh parse, on trace replays.

Runs ``benchmarks/quality/replay_inprocess.py`` (one job) and, at every
``didOpen`` that :class:`nextedit.syntax.closed_trees.ClosedTrees` serves,
measures on a snapshot (the live document is left as the replay leaves it),
in thread CPU: the line diff, the incremental re-parse from the kept tree, a
fresh parse of the same bytes, and whether the two trees print the same
s-expression. Prints one line per trace file and the totals. Figures:
``benchmarks/results/trace-latency-reopen.md``.

Usage::

    NEXTEDIT_STRICT=1 python benchmarks/perf/reopen_cost.py TRACE...
"""

import atexit
import os
import runpy
import sys
import time
from collections import defaultdict

import nextedit.syntax.closed_trees as C
import nextedit.syntax.line_diff as LD
from nextedit.syntax import get_parser

clock = time.thread_time
stats: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
current = ["?"]
orig_reopen = C.ClosedTrees.reopen
orig_edits = LD.line_edits
diff_time = [0.0]


def timed_edits(old, new):
    t = clock()
    try:
        return orig_edits(old, new)
    finally:
        diff_time[0] = clock() - t


def reopen(self, uri, language, source):
    diff_time[0] = 0.0
    syntax = orig_reopen(self, uri, language, source)
    if syntax is None:
        return None
    row = stats[current[0]]
    row["opens served"] += 1
    t = clock()
    fresh = get_parser(language).parse(source)
    fresh_ms = (clock() - t) * 1000
    if not syntax.reparse_pending:
        row["same text"] += 1
        row["same: fresh parse ms"] += fresh_ms
        row["same tree"] += str(syntax.root) == str(fresh.root_node)
        return syntax
    snap = syntax.snapshot()
    t = clock()
    tree = snap.tree  # the line diff, then the incremental parse
    row["changed: reopen parse ms"] += (clock() - t - diff_time[0]) * 1000
    row["diff ms"] += diff_time[0] * 1000
    row["changed: fresh parse ms"] += fresh_ms
    row["changed text"] += 1
    row["same tree"] += str(tree.root_node) == str(fresh.root_node)
    return syntax


C.ClosedTrees.reopen = reopen
LD.line_edits = timed_edits

import nextedit.bench.readers as R  # noqa: E402

orig_load = R.load_sessions


def load_sessions(path, *a, **k):
    current[0] = os.path.basename(path).split(".")[0]
    return orig_load(path, *a, **k)


R.load_sessions = load_sessions


def dump():
    keys = [
        "opens served",
        "same text",
        "same tree",
        "same: fresh parse ms",
        "changed text",
        "diff ms",
        "changed: reopen parse ms",
        "changed: fresh parse ms",
    ]
    print("set        " + " | ".join(keys), file=sys.stderr)
    total: dict[str, float] = defaultdict(float)
    for name, row in sorted(stats.items()):
        for k in keys:
            total[k] += row[k]
        print(f"{name:10s} " + " | ".join(f"{row[k]:.0f}" for k in keys), file=sys.stderr)
    print("TOTAL      " + " | ".join(f"{total[k]:.0f}" for k in keys), file=sys.stderr)


atexit.register(dump)
sys.argv = ["replay_inprocess.py", *sys.argv[1:], "--jobs", "1"]
runpy.run_path("benchmarks/quality/replay_inprocess.py", run_name="__main__")
