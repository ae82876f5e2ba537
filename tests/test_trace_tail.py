"""The suggest profiler of ``benchmarks/perf/trace_tail.py`` over a real trace file."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "perf"))
import trace_tail  # noqa: E402

SAMPLE = Path(__file__).resolve().parent.parent / "src" / "nextedit" / "bench" / "sample" / "flask-sample.jsonl.gz"


def test_profile_all_prints_where_every_suggest_went_and_leaves_no_files(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = set(Path(tempfile.gettempdir()).glob("trace_tail.*.pstats"))
    assert trace_tail.main([str(SAMPLE), "--profile-all", "--sort", "cumulative", "--lines", "400"]) == 0
    out = capsys.readouterr().out
    # every suggest of the sample is in the one merged profile, the engine under it
    assert "session.py" in out and "(suggest)" in out
    assert "synthesis.py" in out and "(synthesize)" in out
    assert set(Path(tempfile.gettempdir()).glob("trace_tail.*.pstats")) == before
