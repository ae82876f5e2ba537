"""Fitting the ranker (``benchmarks/quality/train_ranker.py``): every repository weighs the same.

The shipped weights are fitted on twelve repositories whose traces yield very
different numbers of candidates (zod's are 12% of the rows, requests' under 3%),
and they are judged on repositories the fit never saw, each of which counts
once. Fitted candidate by candidate, the repositories with the most rows
decide what the model learns.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "quality"))
import train_ranker  # noqa: E402


def _two_repositories(big: int, small: int) -> tuple[list[dict], np.ndarray, np.ndarray]:
    """Rows of two repositories where one feature means opposite things:
    right in ``big`` three times in four when it is set, in ``small`` one time in four."""
    rows: list[dict] = []
    labels: list[float] = []
    for repo, count, right_when_set in (("big", big, 0.75), ("small", small, 0.25)):
        for i in range(count):
            feature = i % 2
            right = (i // 2) % 4 < (4 * right_when_set if feature else 2)
            rows.append({"repo": repo, "vector": {"f": float(feature)}, "correct": right})
            labels.append(1.0 if right else 0.0)
    return rows, train_ranker.design(rows, ["f"]), np.array(labels)


def test_repository_weights_give_each_repository_the_same_total() -> None:
    repos = np.array(["gin"] * 60 + ["sinatra"] * 15 + ["jq"] * 25)
    weights = train_ranker.row_weights(repos, "repository")
    assert weights is not None
    totals = {r: float(weights[repos == r].sum()) for r in ("gin", "sinatra", "jq")}
    assert totals == pytest.approx({"gin": 100 / 3, "sinatra": 100 / 3, "jq": 100 / 3})
    assert float(weights.sum()) == pytest.approx(len(repos))  # the penalty keeps its scale
    assert train_ranker.row_weights(repos, "none") is None


def test_the_repository_with_more_rows_no_longer_decides_what_a_feature_means() -> None:
    rows, x, y = _two_repositories(big=800, small=200)
    pool = train_ranker.fitting_pool(rows, x, y, None)
    per_candidate = pool.fit(["f"], "logistic", 1.0, train_ranker.Weighting("none"))
    balanced = pool.fit(["f"], "logistic", 1.0, train_ranker.Weighting("repository"))
    assert per_candidate.coef is not None and balanced.coef is not None
    # per candidate the big repository's reading wins: the feature raises the odds
    assert per_candidate.coef[0] > 0.5
    # balanced, the two repositories' opposite readings cancel
    assert abs(balanced.coef[0]) < 0.05


def test_a_weight_of_two_fits_as_the_row_twice() -> None:
    rows, x, y = _two_repositories(big=80, small=40)
    doubled = np.where(np.array([r["repo"] for r in rows]) == "small", 2.0, 1.0)
    weighted = train_ranker.fit(x, y, 1e-6, doubled)
    small = doubled == 2.0
    repeated = train_ranker.fit(np.vstack([x, x[small]]), np.concatenate([y, y[small]]), 1e-6)
    assert weighted[0] == pytest.approx(repeated[0], abs=1e-4)
    assert weighted[1] == pytest.approx(repeated[1], abs=1e-4)


def test_held_out_rows_and_extra_rows_join_the_fit_by_repository() -> None:
    rows, x, y = _two_repositories(big=8, small=4)
    extra_rows = [{"repo": "small", "vector": {"f": 1.0}, "correct": True}]
    extra = (extra_rows, train_ranker.design(extra_rows, ["f"]), np.array([1.0]))
    pool = train_ranker.fitting_pool(rows, x, y, extra).without("big")
    assert list(pool.repos) == ["small"] * 5
    assert len(pool.x) == len(pool.y) == len(pool.first) == 5


def test_a_first_ranked_candidate_weighs_more_and_every_repository_still_the_same() -> None:
    repos = np.array(["gin"] * 6 + ["jq"] * 4)
    first = np.array([True, False, False, True, False, False, True, False, False, False])
    weights = train_ranker.row_weights(repos, "repository", first, 3.0)
    assert weights is not None
    assert weights[0] == pytest.approx(3 * weights[1])  # within a repository, first weighs three others
    assert weights[6] == pytest.approx(3 * weights[7])
    assert float(weights[repos == "gin"].sum()) == pytest.approx(float(weights[repos == "jq"].sum()))
    assert float(weights.sum()) == pytest.approx(len(repos))
    # without balancing, the lean alone, still summing to the number of rows
    plain = train_ranker.row_weights(repos, "none", first, 3.0)
    assert plain is not None and plain[0] == pytest.approx(3 * plain[1])
    assert float(plain.sum()) == pytest.approx(len(repos))
    assert train_ranker.row_weights(repos, "none", first, 1.0) is None


def test_leaning_on_first_ranked_candidates_fits_what_holds_where_the_answer_is_chosen() -> None:
    # among the first-ranked candidates the feature marks right ones; among the
    # others (three times as many) it marks wrong ones
    rows: list[dict] = []
    labels: list[float] = []
    for i in range(400):
        first = i % 4 == 0
        feature = (i // 4) % 2
        right = bool(feature) == first if (i // 8) % 4 else bool(feature) != first
        rows.append({"repo": "r", "vector": {"f": float(feature)}, "correct": right, "rank": 0 if first else 1})
        labels.append(1.0 if right else 0.0)
    x, y = train_ranker.design(rows, ["f"]), np.array(labels)
    pool = train_ranker.fitting_pool(rows, x, y, None)
    even = pool.fit(["f"], "logistic", 1.0, train_ranker.Weighting())
    leaning = pool.fit(["f"], "logistic", 1.0, train_ranker.Weighting(first_weight=6.0))
    assert even.coef is not None and leaning.coef is not None
    assert even.coef[0] < 0  # the many other candidates decide an even fit
    assert leaning.coef[0] > 0  # the first-ranked ones decide a leaning one
