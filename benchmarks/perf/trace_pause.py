"""Replay traces in process as if the editor paused before every suggest: a parse ahead of each changed document first.

The in-process replay (``benchmarks/quality/replay_inprocess.py``) sends a
change and its query back to back, as ``nextedit bench`` does. An editor's
NES client asks some debounce time after the last keystroke, and the agent
parses ahead in that pause (:meth:`~nextedit.session.Session.prepare_parse`
→ :meth:`~nextedit.session.ParseWork.run` →
:meth:`~nextedit.session.Session.finish_parse`). With ``--pause`` this script
does that for every open document that wants a parse before each
``Session.suggest`` (what the stdio agent does when the pause exceeds
``PARSE_AHEAD_DELAY``), and without it nothing. Either way it times, with
``time.thread_time``, each suggest (its follow-up of a jump included) and
each parse ahead, and counts the parses ahead whose tree a reader took
against those a later edit dropped.

The verdicts go through the replayer's own judge: ``--explain`` files of a
run with and without ``--pause`` must be identical (no answer depends on the
parse ahead)::

    NEXTEDIT_STRICT=1 PYTHONPATH=src python benchmarks/perf/trace_pause.py /work/shared/traces/train/fmt.jsonl.gz --pause --explain E.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "quality"))

import replay_inprocess  # noqa: E402

from nextedit.session import Session  # noqa: E402
from nextedit.syntax.tree import SyntaxTree  # noqa: E402

STATS: dict[str, Any] = {"suggest_ms": [], "ahead_ms": [], "aheads": 0, "halted": 0, "used": 0, "dropped": 0}


def _install(pause: bool) -> None:
    original_suggest = Session.suggest
    original_edits = SyntaxTree.apply_edits
    original_tree = SyntaxTree.tree.fget
    assert original_tree is not None

    def suggest(self: Session, *args: Any, **kwargs: Any) -> Any:
        if pause:
            for uri in list(self.documents):
                started = time.thread_time()
                work = self.prepare_parse(uri)
                if work is None:
                    continue
                STATS["aheads"] += 1
                if work.run():
                    self.finish_parse(work)
                else:
                    STATS["halted"] += 1
                STATS["ahead_ms"].append((time.thread_time() - started) * 1000)
        started = time.thread_time()
        try:
            return original_suggest(self, *args, **kwargs)
        finally:
            STATS["suggest_ms"].append((time.thread_time() - started) * 1000)

    def apply_edits(self: SyntaxTree, *args: Any, **kwargs: Any) -> None:
        if getattr(self, "_ahead", None) is not None:
            STATS["dropped"] += 1
        original_edits(self, *args, **kwargs)

    def tree(self: SyntaxTree) -> Any:
        if getattr(self, "_ahead", None) is not None and self.reparse_pending:
            STATS["used"] += 1
        return original_tree(self)

    Session.suggest = suggest  # type: ignore[method-assign]
    SyntaxTree.apply_edits = apply_edits  # type: ignore[method-assign]
    SyntaxTree.tree = property(tree)  # type: ignore[method-assign, assignment]


def _q(values: list[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "–"

    def at(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return f"p50 {at(0.5):.2f}  p90 {at(0.9):.2f}  p99 {at(0.99):.2f}  max {ordered[-1]:.2f}  sum {sum(ordered):.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--pause", action="store_true", help="parse ahead before every suggest")
    ap.add_argument("--explain", help="write one JSON line per query (the replayer's)")
    args = ap.parse_args(argv)
    _install(args.pause)
    rows: list[dict[str, Any]] = []
    for path in args.traces:
        rows.extend(replay_inprocess.replay_file(path).queries)
    replay_inprocess.write_report(rows, None, args.explain)
    print(f"pause: {args.pause}")
    print(f"suggest CPU ms ({len(STATS['suggest_ms'])} calls): {_q(STATS['suggest_ms'])}")
    print(f"parse ahead CPU ms ({len(STATS['ahead_ms'])}): {_q(STATS['ahead_ms'])}")
    print(
        f"parses ahead: {STATS['aheads']} (halted {STATS['halted']}); held trees taken by a reader "
        f"{STATS['used']}, dropped by a later edit {STATS['dropped']}"
    )
    print(json.dumps({k: v for k, v in STATS.items() if not k.endswith("_ms")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
