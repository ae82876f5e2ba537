"""The CPU time another process has used so far: how the bench and the perf scripts time the agent.

The first field of ``/proc/PID/task/*/schedstat`` (ns on a CPU), summed over
every thread, so the agent's reader and worker threads count too. Unlike
wall time it barely moves when the machine is busy with something else.
Linux only: elsewhere (no ``/proc``) there is no figure.
"""

from __future__ import annotations

import os

__all__ = ["cpu_ns"]


def cpu_ns(pid: int) -> int | None:
    """CPU time of every thread of ``pid`` so far, in ns; ``None`` when the
    system does not say (no ``/proc``) or the process is gone."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    total = 0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat", "rb") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that just ended
    return total
