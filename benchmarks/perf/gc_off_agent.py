"""``nextedit acp`` with Python's cyclic garbage collector switched off after start-up.

A measuring tool, not a way to run nextedit: it shows how much of a
replay's suggest latency is the collector's (``nextedit bench --agent-cmd
"python benchmarks/perf/gc_off_agent.py"``). Start-up runs as in the real
agent (:func:`nextedit.heap.settle` collects and freezes its heap); after
that nothing is collected but what reference counting frees, so memory grows
with every cycle a request leaves behind.
"""

from __future__ import annotations

import gc
import sys

from nextedit import heap
from nextedit.cli import main

_settle = heap.settle


def _settle_then_stop_collecting() -> None:
    _settle()
    gc.disable()


if __name__ == "__main__":
    heap.settle = _settle_then_stop_collecting
    sys.exit(main(["acp", *sys.argv[1:]]))
