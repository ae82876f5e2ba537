"""The long-running process's memory policy, shared by the ACP agent and the LSP server.

Three measures, each taken once start-up's imports are done (:func:`settle`),
and a fourth taken between requests (:class:`BetweenRequests`):

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
- **large blocks kept** (glibc): by default the C library maps every block
  past its mmap threshold afresh and hands freed memory at the heap's top
  back to the system, so each copy of a large document's text (the text
  after an edit: 9.6 MB for 2.4 M characters when one needs four bytes)
  touches new pages, a fault each 4 KB: ~6 ms where the copy itself takes
  0.5. Blocks up to :data:`MMAP_THRESHOLD` come from the heap and up to
  :data:`TRIM_THRESHOLD` of free heap is kept for the next: a rename's
  suggest at 100k lines went from 7.7 to 6.2 ms (p99 15 to 9), for ~5 MB
  more resident (``benchmarks/results/suggest-cpu-malloc.md``).
- **young generations collected between requests**: CPython 3.11 starts a
  collection when allocations *net of frees* pass the threshold, and a free
  of any object counts, however old. A suggest that evicts old cache
  entries (rules, examples, tokens) while it makes new ones leaves the
  count low while the youngest generation fills up: 100,000 objects were
  found in it at a collection of the replayed traces, and its collection
  then took 24 ms, a middle one 20-100 ms, in the middle of a request.
  Collected once after each computation, while the agent waits for the next
  message, the young generations hold one request's survivors when the
  next begins (``benchmarks/results/gc-between-requests.md``).
"""

from __future__ import annotations

import gc
import logging
import sys

__all__ = [
    "MMAP_THRESHOLD",
    "OLDER_EVERY",
    "TRIM_THRESHOLD",
    "YOUNG_THRESHOLD",
    "BetweenRequests",
    "keep_large_blocks",
    "settle",
]

log = logging.getLogger(__name__)

# allocations (net of frees) between two collections of the youngest generation
YOUNG_THRESHOLD = 10_000
# collections between requests: each one in this many takes the middle generation too
# (the ratio of CPython's own thresholds); the oldest is left to the collector's rule
OLDER_EVERY = 10
# glibc: blocks below this size come from the heap, not a fresh mapping
MMAP_THRESHOLD = 32 * 1024 * 1024
# glibc: free memory at the heap's top kept (not returned to the system) up to this size
TRIM_THRESHOLD = 64 * 1024 * 1024
_M_TRIM_THRESHOLD = -1  # mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3


def settle() -> None:
    """Collect and freeze start-up's heap, widen the young generation, keep large blocks."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
    keep_large_blocks()


def keep_large_blocks() -> bool:
    """Set glibc's mmap and trim thresholds (see the module docstring);
    False where there is no glibc ``mallopt`` (another libc, another system),
    which changes nothing else."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # a C library without mallopt (musl)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    kept = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
    if not kept:
        log.debug("mallopt refused the thresholds: large blocks are mapped per allocation")
    return kept


class BetweenRequests:
    """Collects the young generations after computations, where nobody waits.

    The front end calls :meth:`after` whenever it is idle, with the number
    of computations that have come back so far: the first call after one
    came back collects the youngest generation (the middle one too, each
    :data:`OLDER_EVERY`-th time), later ones find nothing new and do
    nothing, so a burst of notifications between two requests costs no
    collection. The oldest generation is left to CPython's own rule (a full
    collection between every few requests would walk every cached rule and
    tree each time)."""

    def __init__(self, older_every: int = OLDER_EVERY) -> None:
        self.older_every = older_every
        self.collections = 0
        self._finished = 0  # computations seen back at the last collection

    def due(self, finished: int) -> bool:
        """Computations came back since the last collection (``finished``:
        how many have so far)."""
        return finished != self._finished

    def after(self, finished: int) -> bool:
        """Collect if computations came back since the last collection
        (``finished``: how many have so far); whether it collected."""
        if not self.due(finished):
            return False
        self._finished = finished
        self.collections += 1
        gc.collect(1 if self.collections % self.older_every == 0 else 0)
        return True
