"""What each open document adds to every ``nes/suggest``: the workspace snapshot (thread CPU, in process).

A suggest computes on a snapshot of *every* open document of its session
(:meth:`nextedit.session.Session.prepare_suggest`; other documents are read
for cross-file renames), and takes back what the computation worked out on
each (``finish_suggest``). This times those two steps alone, with nothing
computed, for sessions holding N small open Python documents. A lead, not a
target: the cost grows with the open documents, not with the edit.

    python benchmarks/perf/open_documents_cost.py [--documents 1,10,50,200] [--runs 200]
"""

from __future__ import annotations

import argparse
import statistics
import time

from nextedit.session import Session
from nextedit.suggest.model import SuggestionKinds
from nextedit.text import Position, PositionEncoding, Range, TextChange

_TEXT = "def f(count):\n    return count + count\n" * 20


def prepare_and_finish_ms(documents: int, runs: int) -> float:
    """Median thread CPU (ms) of ``prepare_suggest`` + ``finish_suggest`` with ``documents`` open."""
    session = Session("bench", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(jump=True))
    for i in range(documents):
        session.did_open(f"file:///w/m{i}.py", "python", 1, _TEXT)
    times = []
    for _ in range(runs):
        start = time.thread_time()
        work = session.prepare_suggest("file:///w/m0.py", 1, Position(0, 3))
        assert work is not None
        session.finish_suggest(work, None)
        times.append((time.thread_time() - start) * 1000)
    return statistics.median(times)


def suggest_after_edit_ms(documents: int, runs: int) -> float:
    """Median thread CPU (ms) of a whole suggest (the engine computing) after an
    edit of the request document, with ``documents`` open and left alone."""
    session = Session("bench", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(rename=True, jump=True))
    for i in range(documents):
        session.did_open(f"file:///w/m{i}.py", "python", 1, _TEXT)
    uri, names, version = "file:///w/m0.py", ("count", "total"), 1
    times = []
    for run in range(runs):
        old, new = names[run % 2], names[(run + 1) % 2]
        version += 1  # rename the first parameter back and forth: a fresh edit every time
        session.did_change(uri, version, [TextChange(Range(Position(0, 6), Position(0, 6 + len(old))), new)])
        start = time.thread_time()
        session.suggest(uri, version, Position(0, 6 + len(new)))
        times.append((time.thread_time() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", default="1,10,50,200")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    print("| open documents | prepare + finish, thread CPU p50 ms | suggest after an edit, thread CPU p50 ms |")
    print("|---:|---:|---:|")
    for n in (int(x) for x in args.documents.split(",")):
        print(f"| {n} | {prepare_and_finish_ms(n, args.runs):.3f} | {suggest_after_edit_ms(n, args.runs):.3f} |")


if __name__ == "__main__":
    main()
