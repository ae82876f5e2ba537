"""Does recalibrating the ranker per suggester family help out of repository? (a trial)

The held-out model is surer of some families than their answers bear out
(rename bindings: precision 0.84 at probabilities ≥ 0.8, against 0.90 for
all). This trial fits, for each held-out repository, a second logistic model
on the other eleven repositories' own held-out probabilities — ``logit(p)``
and, per group, a constant and ``logit(p)`` × group — chooses the threshold
on the recalibrated probabilities, and applies both to the held-out
repository (the nested simulation of ``train_ranker.py --nested``, with the
recalibration inside it). ``benchmarks/results/quality-site-text-and-calibration.md``
has the figures; none was kept.

    python benchmarks/quality/calibration_trial.py --queries Q --candidates C --target 0.87
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import train_ranker as tr  # noqa: E402

Group = Callable[[dict], str]

GROUPS: dict[str, Group] = {
    "suggester": lambda row: row["suggester"],
    "kind": lambda row: f"{row['suggester']}:{row['kind']}",
    "family": lambda row: f"{row['suggester']}:{row['features']['family']}",
}


def recalibration_design(rows: list[dict], probs: np.ndarray, group: Group, levels: list[str]) -> np.ndarray:
    """Columns ``logit(p)``, then per level of ``group`` ``logit(p)`` × in-level and in-level."""
    p = np.clip(probs, 1e-6, 1 - 1e-6)
    lp = np.log(p / (1 - p))
    cols = [lp]
    for level in levels:
        inside = np.array([1.0 if group(r) == level else 0.0 for r in rows])
        cols += [lp * inside, inside]
    return np.vstack(cols).T


def recalibrated(
    fit_rows: list[dict], fit_probs: np.ndarray, rows: list[dict], probs: np.ndarray, group: Group
) -> tuple[np.ndarray, np.ndarray]:
    """The probabilities of ``fit_rows`` and of ``rows`` after a recalibration
    fitted on ``fit_rows`` (their held-out probabilities and verdicts)."""
    levels = sorted({group(r) for r in fit_rows})
    y = np.array([1.0 if r["correct"] else 0.0 for r in fit_rows])
    x_fit = recalibration_design(fit_rows, fit_probs, group, levels)
    coef, bias = tr.fit(x_fit, y, 1.0)
    return tr.predict(x_fit, coef, bias), tr.predict(recalibration_design(rows, probs, group, levels), coef, bias)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--queries", required=True)
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--target", type=float, default=0.87)
    ap.add_argument("--drop", default="", help="leave out features starting with these (comma-separated)")
    args = ap.parse_args(argv)
    drop = tr.drop_prefixes(args.drop)
    rec = tr.load_recorded(args.queries, args.candidates, [], drop)
    results: dict[str, dict[str, collections.Counter]] = {name: {} for name in ["none", *GROUPS]}
    for repo in sorted({q["repo"] for q in rec.queries}):
        inner = tr.out_of_sample(rec, 1.0, without=repo)
        other_queries = [q for q in rec.queries if q["repo"] != repo]
        own_queries = [q for q in rec.queries if q["repo"] == repo]
        own = np.array([r["repo"] == repo for r in rec.rows])
        own_rows = [r for r, m in zip(rec.rows, own, strict=True) if m]
        model, threshold = tr.heldout_model(rec, repo, 1.0, args.target, inner=inner)
        own_probs = model.predict(rec.x[own])
        outer = {id(r): float(p) for r, p in zip(own_rows, own_probs, strict=True)}
        results["none"][repo] = tr.simulate(own_queries, rec.cands, outer, threshold)["POOLED"]
        fit_rows = [r for r in rec.rows if id(r) in inner]
        fit_probs = np.array([inner[id(r)] for r in fit_rows])
        for name, group in GROUPS.items():
            cal_fit, cal_own = recalibrated(fit_rows, fit_probs, own_rows, own_probs, group)
            cal_inner = {id(r): float(p) for r, p in zip(fit_rows, cal_fit, strict=True)}
            threshold = tr.choose_threshold(other_queries, rec.cands, cal_inner, args.target)
            cal_outer = {id(r): float(p) for r, p in zip(own_rows, cal_own, strict=True)}
            results[name][repo] = tr.simulate(own_queries, rec.cands, cal_outer, threshold)["POOLED"]
    for name, by in results.items():
        pooled: collections.Counter = collections.Counter()
        for tally in by.values():
            pooled.update(tally)
        p, r, s = tr.ratios(pooled)
        worst = min(by, key=lambda k: tr.ratios(by[k])[0])
        print(f"{name:<10} P {p:.3f} R {r:.3f} S {s:.3f}  worst {worst} {tr.ratios(by[worst])[0]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
