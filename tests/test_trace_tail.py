"""The suggest profiler of ``benchmarks/perf/trace_tail.py`` over a real trace file."""

from __future__ import annotations

import pstats
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "perf"))
import trace_tail  # noqa: E402

from tests.helpers.sample import SAMPLE_TRACE as SAMPLE  # noqa: E402


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


def test_save_keeps_the_merged_profile_for_pstats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "all.pstats"
    assert trace_tail.main([str(SAMPLE), "--profile-all", "--lines", "1", "--save", str(saved)]) == 0
    capsys.readouterr()
    stats = pstats.Stats(str(saved))
    assert "synthesize" in stats.get_stats_profile().func_profiles


@pytest.mark.usefixtures("restored_collector")
def test_the_agents_heap_collects_once_after_each_suggest_timed_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert trace_tail.main([str(SAMPLE), "--heap", "agent", "--slowest", "1"]) == 0
    out = capsys.readouterr().out
    total = next(line for line in out.splitlines() if line.startswith("total"))
    suggests = int(total.split()[1])
    assert f"between suggests (untimed above): {suggests} collections" in out
