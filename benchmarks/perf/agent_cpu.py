"""The CPU time a process (the agent under measurement) has used so far, as the perf benchmarks read it.

One implementation with the bench's (:mod:`nextedit.bench.process_cpu`): the
first field of ``/proc/PID/task/*/schedstat``, summed over every thread.
"""

from __future__ import annotations

from nextedit.bench import process_cpu


def cpu_ns(pid: int) -> int:
    """CPU time of every thread of ``pid`` so far (schedstat's first field, ns)."""
    value = process_cpu.cpu_ns(pid)
    if value is None:
        raise RuntimeError(f"no CPU time for process {pid}: the perf benchmarks need Linux's /proc")
    return value
