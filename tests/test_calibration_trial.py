"""The per-family recalibration trial (``benchmarks/quality/calibration_trial.py``).

The trial's figures are only worth reading if the recalibration does what it
says: a group whose probabilities run higher than its answers bear out is
brought down to its rate of right answers, and a group that earns its
probabilities keeps them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "quality"))
import calibration_trial  # noqa: E402


def _rows(suggester: str, n: int, right: int) -> list[dict]:
    return [
        {"suggester": suggester, "kind": "edit", "features": {"family": "f"}, "correct": i < right} for i in range(n)
    ]


def test_an_overconfident_group_is_brought_down_and_a_calibrated_one_kept() -> None:
    rows = _rows("rename", 200, 100) + _rows("repeat", 200, 180)
    probs = np.full(len(rows), 0.9)
    group = calibration_trial.GROUPS["suggester"]
    fitted, applied = calibration_trial.recalibrated(rows, probs, rows[:1] + rows[-1:], np.array([0.9, 0.9]), group)
    assert fitted[:200].mean() == pytest.approx(0.5, abs=0.02)
    assert fitted[200:].mean() == pytest.approx(0.9, abs=0.02)
    # what it learned applies to rows it was not fitted on
    assert applied[0] == pytest.approx(0.5, abs=0.02) and applied[1] == pytest.approx(0.9, abs=0.02)


def test_the_trial_prints_each_calibration_pooled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    queries, candidates = [], []
    rng = np.random.default_rng(0)
    for repo in ("a", "b", "c"):
        for n in range(60):
            related = n % 3 != 0
            queries.append({"trace": f"{repo}:t", "query": n, "repo": repo, "related": related, "empty": not related})
            signal = float(rng.normal())
            candidates.append(
                {
                    "trace": f"{repo}:t",
                    "query": n,
                    "repo": repo,
                    "rank": 0,
                    "suggester": "repeat" if n % 2 else "rename",
                    "kind": "edit",
                    "features": {"family": "f"},
                    "vector": {"signal": signal},
                    "correct": related and signal > -0.5,
                }
            )
    q, c = tmp_path / "q.jsonl", tmp_path / "c.jsonl"
    q.write_text("".join(json.dumps(x) + "\n" for x in queries))
    c.write_text("".join(json.dumps(x) + "\n" for x in candidates))
    assert calibration_trial.main(["--queries", str(q), "--candidates", str(c), "--target", "0.8"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in printed] == ["none", "suggester", "kind", "family"]
    assert all(" P 0." in line or " P 1." in line for line in printed)
