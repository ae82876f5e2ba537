"""The big-edit probe (``benchmarks/perf/big_edits.py``) on a small file: every scenario answers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "perf"))
import big_edits  # noqa: E402


def test_each_edit_is_made_and_the_suggest_after_it_timed(capsys: pytest.CaptureFixture[str]) -> None:
    lines = big_edits.source(60)
    edits = big_edits.scenarios(lines, 12)
    assert len(edits) == 5
    # the edits are what they say: the renamed block no longer reads `value`
    first, end, new = edits["rename `value` in 12 lines"]
    assert "value" in "".join(lines[first:end]) and "value" not in new and "amount" in new
    assert big_edits.main(["--lines", "60", "--size", "12"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "ms" not in line]
    assert len(rows) == 5
    assert all(float(row.split("|")[2]) >= 0 for row in rows)
