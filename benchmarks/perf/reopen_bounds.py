"""How many of a trace set's opens a closed-trees table of a given bound could serve.

Replays only the opens and closes of each trace file (one table per file, as
one agent process per file; a session's documents still open at its end are
closed by its ``nes/close``) through an LRU of ``(documents, bytes of text)``
bounds, as :class:`nextedit.syntax.closed_trees.ClosedTrees` keeps them, and
counts the opens of a URI the table still holds, and the most text it held.
No parsing: it assumes every closed document was parsed (true of a document
queried at least once). Figures: ``benchmarks/results/trace-latency-reopen.md``.

Usage::

    python benchmarks/perf/reopen_bounds.py TRACE...
"""

from __future__ import annotations

import sys
from collections import OrderedDict

from nextedit.bench.events import Close, Open
from nextedit.bench.readers import load_sessions

BOUNDS = [(4, 4 << 20), (8, 4 << 20), (16, 4 << 20), (32, 4 << 20), (64, 4 << 20), (32, 1 << 20), (10**9, 10**15)]


def lifecycle(path: str) -> list[tuple[str, str, int]]:
    """``(open|close, uri, bytes)`` in trace order."""
    out: list[tuple[str, str, int]] = []
    for session in load_sessions(path):
        open_now: dict[str, int] = {}
        for event in session.events:
            if isinstance(event, Open):
                open_now[event.uri] = len(event.text.encode())
                out.append(("open", event.uri, open_now[event.uri]))
            elif isinstance(event, Close):
                out.append(("close", event.uri, open_now.pop(event.uri, 0)))
        out.extend(("close", uri, size) for uri, size in open_now.items())
    return out


def serve(events: list[tuple[str, str, int]], documents: int, max_bytes: int) -> tuple[int, int]:
    """(opens served, peak bytes of text held) under the bound."""
    table: OrderedDict[str, int] = OrderedDict()
    held = served = peak = 0
    for kind, uri, size in events:
        if kind == "open":
            if uri in table:
                served += 1
                table.move_to_end(uri)
            continue
        held -= table.pop(uri, 0)
        if size <= max_bytes:
            table[uri] = size
            held += size
            while len(table) > documents or held > max_bytes:
                held -= table.popitem(last=False)[1]
        peak = max(peak, held)
    return served, peak


def main(paths: list[str]) -> None:
    opens = 0
    totals = [[0, 0] for _ in BOUNDS]
    for path in paths:
        events = lifecycle(path)
        opens += sum(kind == "open" for kind, _, _ in events)
        for total, (documents, max_bytes) in zip(totals, BOUNDS, strict=True):
            served, peak = serve(events, documents, max_bytes)
            total[0] += served
            total[1] = max(total[1], peak)
    print(f"{opens} opens in {len(paths)} files")
    for (documents, max_bytes), (served, peak) in zip(BOUNDS, totals, strict=True):
        bound = "no bound" if documents >= 10**9 else f"{documents} documents / {max_bytes >> 20} MB"
        print(f"  {bound:24s} serves {served:5d}  peak text held {peak / 2**20:.2f} MB")


if __name__ == "__main__":
    main(sys.argv[1:])
