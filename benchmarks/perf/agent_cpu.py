"""The CPU time a process (the agent under measurement) has used so far, as the perf benchmarks read it.

The first field of ``/proc/PID/task/*/schedstat`` (ns on CPU), summed over every thread: the
agent's reader and worker threads count too.
"""

from __future__ import annotations

import os


def cpu_ns(pid: int) -> int:
    """CPU time of every thread of ``pid`` so far (schedstat's first field, ns)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that just ended
    return total
