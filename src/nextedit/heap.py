"""The long-running process's garbage-collector policy, shared by the ACP agent and the LSP server.

Two measures, each taken once start-up's imports are done (:func:`settle`):

- **freeze**: what start-up allocated (modules, grammars, pydantic's models)
  moves out of the collector's reach, so a full collection walks only what
  requests allocate; it took ~10 ms off suggest's p99
  (``benchmarks/results/suggest-cpu-after-gc-freeze.md``).
- **a wider young generation**: a suggest allocates tens of thousands of
  short-lived containers (tokens, rules, their dicts). At CPython's default
  threshold of 700 the youngest generation is collected several times a
  request, each time walking the ~2,000 temporaries still alive mid-request,
  and the survivors push older collections (1-20 ms) onto the request path.
  Past :data:`YOUNG_THRESHOLD` allocations most temporaries are already freed
  by reference counting when a collection comes; nothing else changes (cycles
  are still collected, only later).
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG_THRESHOLD", "settle"]

# allocations (net of frees) between two collections of the youngest generation
YOUNG_THRESHOLD = 10_000


def settle() -> None:
    """Collect and freeze start-up's heap, and widen the young generation."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
