"""Where the slow suggests of a trace replay spend their time, by cause (in process, CPU).

Runs ``benchmarks/quality/replay_inprocess.py`` (one job) with each
``Session.suggest`` split into exclusive thread-CPU time per cause: the first
parse of a document (``parse-first``), an incremental re-parse
(``parse-re``), a re-opened document's first parse from the tree of its
closed text (``parse-reopen``) and its line diff (``reopen-diff``), the token swap, tree-sitter query execution
(``Resolver._classify_node``: every query the engine runs), each suggester's
own work (``sugg:<name>``), garbage collection (``gc.callbacks``) and the
rest (``other``). Prints the suggests slower than ``SLOW`` ms wall (default
20), the causes summed over them, and with ``OUT=file.json`` every suggest's
row. Figures: ``benchmarks/results/trace-latency-fmt.md``.

Usage::

    NEXTEDIT_STRICT=1 SLOW=20 OUT=rows.json python benchmarks/perf/trace_causes.py TRACE...

``CALLERS=1`` adds which engine code asked for each parse (the two
innermost engine frames outside the syntax tree), its count and ms.

``--agent`` runs the stdio agent (``nextedit acp`` and its arguments) with the
same split of each suggest's computation (``SuggestWork.compute``, on the
agent's worker thread, with the agent's own heap policy), for ``nextedit
bench --agent-cmd``; its rows (and the summary) go to ``OUT`` at exit::

    nextedit bench TRACE --agent-cmd "env OUT=rows.json python benchmarks/perf/trace_causes.py --agent --state-dir {state}"
"""

import atexit
import gc
import json
import os
import runpy
import sys
import time
import traceback
from collections import defaultdict

import nextedit.session as S
import nextedit.suggest.engine as E
import nextedit.syntax.name_resolution as NR
import nextedit.syntax.tree as T

SLOW = float(os.environ.get("SLOW", "20"))
clock = time.thread_time
stack: list[list] = []  # [category, start]
acc: dict[str, float] = defaultdict(float)
active = [False]


def push(cat):
    now = clock()
    if stack:
        top = stack[-1]
        acc[top[0]] += now - top[1]
    stack.append([cat, now])


def pop():
    now = clock()
    if parses_pending and parses_pending[-1][2] == len(stack):
        entry, started, _ = parses_pending.pop()
        entry[1] += (now - started) * 1000
    cat, start = stack.pop()
    acc[cat] += now - start
    if stack:
        stack[-1][1] = now


def wrap(cls, name, cat_fn):
    orig = getattr(cls, name)

    def f(self, *a, **k):
        if not active[0]:
            return orig(self, *a, **k)
        push(cat_fn(self, *a))
        try:
            return orig(self, *a, **k)
        finally:
            pop()

    setattr(cls, name, f)


# CALLERS=1: (cause, the engine's two innermost frames outside the syntax tree) -> [parses, ms]
callers: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])


def _parse_cause(syntax):
    if not syntax._tree_source:
        cause = "parse-first"
    else:
        # a re-opened document's first parse, from the tree of its closed text (absent before that table)
        cause = "parse-reopen" if getattr(syntax, "_base", None) is not None else "parse-re"
    if os.environ.get("CALLERS") == "1":
        frames = [
            f"{f.filename.split('/nextedit/')[-1]}:{f.lineno}:{f.name}"
            for f in traceback.extract_stack()
            if "/nextedit/" in f.filename and not f.filename.endswith("syntax/tree.py")
        ]
        entry = callers[(cause, " < ".join(reversed(frames[-2:])))]
        entry[0] += 1
        # closed by the ``pop`` of the frame ``wrap`` pushes next, one deeper than now
        parses_pending.append((entry, clock(), len(stack) + 1))
    return cause


# the parses under way (CALLERS=1): their ``callers`` entry and start, closed by ``pop``
parses_pending: list[tuple[list[float], float, int]] = []


for cls in (T.SyntaxTree, T.SyntaxSnapshot):
    wrap(cls, "_parse", lambda self, *a: _parse_cause(self))
wrap(T.SyntaxTree, "_token_swap", lambda self, *a: "tokenswap")
try:  # a re-open's line diff (absent before the closed-trees table)
    import nextedit.syntax.line_diff as LD

    _line_edits = LD.line_edits

    def _timed_line_edits(old, new):
        if not active[0]:
            return _line_edits(old, new)
        push("reopen-diff")
        try:
            return _line_edits(old, new)
        finally:
            pop()

    LD.line_edits = _timed_line_edits
except ImportError:
    pass
wrap(NR.Resolver, "_classify_node", lambda self, *a: "query")

orig_factories = list(E.SUGGESTERS)


def make(factory):
    def build():
        s = factory()
        orig = s.propose
        name = s.name

        def propose(ctx):
            push("sugg:" + name)
            try:
                return orig(ctx)
            finally:
                pop()

        s.propose = propose
        return s

    return build


E.SUGGESTERS[:] = [make(f) for f in orig_factories]


def gccb(phase, info):
    if not active[0]:
        return
    if phase == "start":
        push("gc")
    else:
        pop()


gc.callbacks.append(gccb)
rows = []
orig_suggest = S.Session.suggest


def suggest(self, uri, version, *a, **k):
    return _timed(self.documents.get(uri), lambda: orig_suggest(self, uri, version, *a, **k))


def _timed(state, call):
    pending = state is not None and state.syntax is not None and state.syntax.reparse_pending
    first = state is not None and state.syntax is not None and not state.syntax._tree_source
    reopen = state is not None and state.syntax is not None and getattr(state.syntax, "_base", None) is not None
    size = len(state.document.source_bytes) if state else 0
    acc.clear()
    active[0] = True
    w0 = time.perf_counter()
    push("other")
    try:
        return call()
    finally:
        pop()
        active[0] = False
        wall = (time.perf_counter() - w0) * 1000
        rows.append(
            {
                "uri": state.uri.rsplit("/", 1)[-1] if state else "",
                "size": size,
                "first": first,
                "reopen": reopen,
                "pending": pending,
                "wall": wall,
                "cpu": sum(acc.values()) * 1000,
                **{k2: v * 1000 for k2, v in acc.items()},
            }
        )


def compute(self, *a, **k):
    return _timed(self.workspace.get(self.uri), lambda: orig_compute(self, *a, **k))


AGENT = sys.argv[1:2] == ["--agent"]
if AGENT:  # the stdio agent: its worker thread runs each suggest's computation
    orig_compute = S.SuggestWork.compute
    S.SuggestWork.compute = compute
else:
    S.Session.suggest = suggest


def dump():
    out = os.environ.get("OUT")
    if out:
        with open(out, "w") as fh:
            json.dump(rows, fh)
    if AGENT:  # stderr is the bench's: the summary goes beside the rows
        if not out:
            return
        sys.stderr = open(out + ".txt", "w")  # noqa: SIM115 - the process is ending
    walls = sorted(r["wall"] for r in rows)
    cpus = sorted(r["cpu"] for r in rows)

    def pct(xs, p):
        return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else 0

    print(
        f"n={len(rows)} wall p50={pct(walls, 0.5):.1f} p99={pct(walls, 0.99):.1f}  cpu p50={pct(cpus, 0.5):.1f} p99={pct(cpus, 0.99):.1f}",
        file=sys.stderr,
    )
    slow = [r for r in rows if r["wall"] > SLOW]
    agg = defaultdict(float)
    for r in slow:
        for k2, v in r.items():
            if isinstance(v, float) and k2 not in ("wall", "cpu"):
                agg[k2] += v
    print(
        f"slow(>{SLOW}ms wall)={len(slow)} first-parse={sum(r['first'] for r in slow)} "
        f"reopen-parse={sum(r['reopen'] for r in slow)}",
        file=sys.stderr,
    )
    for k2, v in sorted(agg.items(), key=lambda kv: -kv[1]):
        print(f"  {k2:24s} {v:8.1f} ms", file=sys.stderr)
    for (cause, where), (n, ms) in sorted(callers.items(), key=lambda kv: -kv[1][1]):
        print(f"  {ms:8.1f} ms {int(n):5d} {cause:13s} {where}", file=sys.stderr)
    for r in sorted(slow, key=lambda r: -r["wall"])[:40]:
        parts = " ".join(
            f"{k2}={v:.1f}"
            for k2, v in sorted(r.items())
            if isinstance(v, float) and k2 not in ("wall", "cpu") and v > 0.5
        )
        print(
            f"  {r['wall']:6.1f} cpu={r['cpu']:6.1f} {r['uri']:28s} {r['size']:8d} first={int(r['first'])} pend={int(r['pending'])} {parts}",
            file=sys.stderr,
        )


atexit.register(dump)
if AGENT:
    from nextedit.cli import main

    sys.exit(main(["acp", *sys.argv[2:]]))
sys.argv = ["replay_inprocess.py", *sys.argv[1:], "--jobs", "1"]
runpy.run_path("benchmarks/quality/replay_inprocess.py", run_name="__main__")
