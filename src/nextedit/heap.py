"""The long-running process's memory policy, shared by the ACP agent and the LSP server.

Three measures, each taken once start-up's imports are done (:func:`settle`):

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
"""

from __future__ import annotations

import gc
import logging
import sys

__all__ = ["MMAP_THRESHOLD", "TRIM_THRESHOLD", "YOUNG_THRESHOLD", "keep_large_blocks", "settle"]

log = logging.getLogger(__name__)

# allocations (net of frees) between two collections of the youngest generation
YOUNG_THRESHOLD = 10_000
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
