"""The stdio agent's own machinery, in process: cutting input into lines, and the compute slot.

:class:`~nextedit.acp.transport.LineSplitter` must give the same lines
whatever way the input was cut into reads. :class:`~nextedit.acp.compute_slot.ComputeSlot`
runs on a real asyncio loop with its real worker thread: computations run one
at a time, in the order they were queued, off the loop's thread; one that
has nothing to do is skipped; a bug in any of its steps fails that
computation only.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from nextedit.acp.compute_slot import Computation, ComputeSlot
from nextedit.acp.transport import LineSplitter

# -- lines ----------------------------------------------------------------------------------

_BYTES = st.lists(st.sampled_from([b"a", b"{}", b"\n", b" ", b"\xff", b"\n\n", b"xyz\n"]), max_size=40).map(b"".join)


@given(data=_BYTES, cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=12))
def test_lines_are_the_same_however_the_input_was_cut(data: bytes, cuts: list[int]) -> None:
    pieces, start = [], 0
    for cut in sorted(cuts):
        pieces.append(data[start : max(start, cut)])
        start = max(start, cut)
    pieces.append(data[start:])
    splitter = LineSplitter()
    lines = [line for piece in pieces for line in splitter.feed(piece)] + splitter.finish()
    *whole, last = data.split(b"\n")
    assert lines == whole + ([last] if last.strip() else [])


def test_input_read_before_the_loop_starts_the_first_line() -> None:
    splitter = LineSplitter(b'{"a":')
    assert splitter.feed(b"1}\n{") == [b'{"a":1}']
    assert splitter.feed(b'"b":2}\n\n') == [b'{"b":2}', b""]
    assert splitter.finish() == []


def test_a_long_line_in_many_reads_is_one_line() -> None:
    splitter = LineSplitter()
    for _ in range(1000):
        assert splitter.feed(b"x" * 1000) == []
    assert splitter.feed(b"\n") == [b"x" * 1_000_000]


# -- the compute slot -------------------------------------------------------------------------


class _Journal:
    """What the computations did, where, and whether two ever overlapped."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.threads: set[int] = set()
        self.running = 0
        self.overlapped = False
        self.lock = threading.Lock()

    def computation(self, name: str, *, begin: Any = "work", compute_fails: bool = False) -> Computation:
        def do_begin() -> Any:
            self.events.append(f"begin {name}")
            if isinstance(begin, Exception):
                raise begin
            return begin

        def compute(work: Any) -> str:
            with self.lock:
                self.running += 1
                self.overlapped |= self.running > 1
            self.threads.add(threading.get_ident())
            try:
                threading.Event().wait(0.005)  # a computation that takes a while
                if compute_fails:
                    raise RuntimeError(f"bug in {name}")
                return f"{work} of {name}"
            finally:
                with self.lock:
                    self.running -= 1

        def end(work: Any, result: Any) -> None:
            if name == "end-fails":
                raise RuntimeError("bug at the end")
            self.events.append(f"end {result}")

        return Computation(do_begin, compute, end, lambda: self.events.append(f"failed {name}"), name)


async def _run(computations: list[Computation]) -> tuple[int, int]:
    """Run ``computations`` through a slot until it is idle: the loop's
    thread, and how many computations came back from the worker."""
    loop = asyncio.get_running_loop()
    slot = ComputeSlot(loop)
    idle = loop.create_future()
    slot.on_idle = lambda: idle.done() or idle.set_result(None)
    for computation in computations:
        slot.add(computation)
    slot.run_next()
    await idle
    slot.close()
    return threading.get_ident(), slot.finished


def test_computations_run_one_at_a_time_in_order_off_the_loop() -> None:
    journal = _Journal()
    computations = [journal.computation(f"c{i}") for i in range(5)]
    loop_thread, _ = asyncio.run(_run(computations))
    assert journal.events == [e for i in range(5) for e in (f"begin c{i}", f"end work of c{i}")]
    assert not journal.overlapped
    assert journal.threads and loop_thread not in journal.threads
    assert len(journal.threads) == 1  # one long-lived worker, not a thread per job


def test_nothing_to_do_is_skipped_and_a_bug_fails_only_its_computation() -> None:
    journal = _Journal()
    computations = [
        journal.computation("answered", begin=None),
        journal.computation("begin-fails", begin=RuntimeError("bug at the beginning")),
        journal.computation("compute-fails", compute_fails=True),
        journal.computation("end-fails"),
        journal.computation("last"),
    ]
    _, finished = asyncio.run(_run(computations))
    assert journal.events == [
        "begin answered",
        "begin begin-fails",
        "failed begin-fails",
        "begin compute-fails",
        "failed compute-fails",
        "begin end-fails",
        "failed end-fails",
        "begin last",
        "end work of last",
    ]
    # what came back from the worker, failed or not (the agents' collections
    # between requests follow this count: nextedit.heap.BetweenRequests); the
    # first two never reached it
    assert finished == 3
