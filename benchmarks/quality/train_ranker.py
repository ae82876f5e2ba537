"""Fit the ranker's logistic model on recorded candidates, and measure it leave-one-repository-out.

Input: the files ``replay_inprocess.py --explain Q --candidates C`` writes —
one line per query (its repository, whether it has related edits or none
expected) and one per ranked candidate (its named feature vector and whether
it was a correct next edit). Per held-out repository the model is fitted on
the others' candidates and the answer policy is simulated on the held-out
queries: the candidate with the highest probability is the answer when the
probability reaches the threshold, else silence. The pooled and per-repository
precision / related recall / silence of that simulation is the
out-of-repository figure (the real replay with the engine in the loop is
``benchmarks/quality/loro.py``). The weights fitted on every repository are
written for the package.

Needs numpy (``pip install -e ".[train]"``)::

    python benchmarks/quality/train_ranker.py --queries Q --candidates C \\
        [--out src/nextedit/suggest/ranker_weights.json] [--l2 1.0]
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np


def load(queries_path: str, candidates_path: str) -> tuple[list[dict[str, Any]], dict[tuple[str, int], list[dict]]]:
    queries = [json.loads(line) for line in open(queries_path)]
    cands: dict[tuple[str, int], list[dict]] = collections.defaultdict(list)
    for line in open(candidates_path):
        c = json.loads(line)
        cands[(c["trace"], c["query"])].append(c)
    return queries, cands


def design(rows: list[dict], names: list[str]) -> np.ndarray:
    index = {n: i for i, n in enumerate(names)}
    x = np.zeros((len(rows), len(names)))
    for r, row in enumerate(rows):
        for k, v in row["vector"].items():
            i = index.get(k)
            if i is not None:
                x[r, i] = v
    return x


def fit(x: np.ndarray, y: np.ndarray, l2: float, iters: int = 30) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method (features standardised inside)."""
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    sd[sd < 1e-9] = 1.0
    z = (x - mu) / sd
    z = np.hstack([z, np.ones((len(z), 1))])
    w = np.zeros(z.shape[1])
    reg = np.full(z.shape[1], l2)
    reg[-1] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        g = z.T @ (p - y) + reg * w
        h = (z * (p * (1 - p))[:, None]).T @ z + np.diag(reg) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    # back to raw feature scale
    coef = w[:-1] / sd
    bias = w[-1] - float(np.sum(w[:-1] * mu / sd))
    return coef, bias


def predict(x: np.ndarray, coef: np.ndarray, bias: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x @ coef + bias, -30, 30)))


def simulate(
    queries: list[dict], cands: dict[tuple[str, int], list[dict]], probs: dict[int, float], threshold: float
) -> dict[str, collections.Counter]:
    """Answer each query with its most probable candidate when it reaches ``threshold``."""
    by: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for q in queries:
        cs = cands.get((q["trace"], q["query"]), [])
        best = max(cs, key=lambda c: probs[id(c)], default=None)
        answered = best is not None and probs[id(best)] >= threshold
        correct = answered and best["correct"]
        for key in (q["repo"], "POOLED"):
            k = by[key]
            k["queries"] += 1
            k["answered"] += answered
            k["correct"] += correct
            k["related"] += q["related"]
            k["related_correct"] += q["related"] and correct
            k["empty"] += q["empty"]
            k["silent_on_empty"] += q["empty"] and not answered
    return by


def ratios(k: collections.Counter) -> tuple[float, float, float]:
    p = k["correct"] / k["answered"] if k["answered"] else float("nan")
    r = k["related_correct"] / k["related"] if k["related"] else float("nan")
    s = k["silent_on_empty"] / k["empty"] if k["empty"] else float("nan")
    return p, r, s


def out_of_sample(
    rows: list[dict], x: np.ndarray, y: np.ndarray, l2: float, without: str | None = None
) -> dict[int, float]:
    """Each row's probability from a model fitted on the other repositories
    (never on its own, and never on ``without``)."""
    repos = sorted({r["repo"] for r in rows} - {without})
    row_repo = np.array([r["repo"] for r in rows])
    probs: dict[int, float] = {}
    for repo in repos:
        train = (row_repo != repo) & (row_repo != without)
        test = row_repo == repo
        coef, bias = fit(x[train], y[train], l2)
        for row, p in zip((r for r, m in zip(rows, test, strict=True) if m), predict(x[test], coef, bias), strict=True):
            probs[id(row)] = float(p)
    return probs


def choose_threshold(
    queries: list[dict], cands: dict[tuple[str, int], list[dict]], probs: dict[int, float], target: float
) -> float:
    """The lowest threshold whose simulated pooled precision reaches ``target``
    (the highest-precision one when none does)."""
    best_t, best_p = 0.95, -1.0
    for t in np.arange(0.30, 0.96, 0.01):
        qs = [q for q in queries if all(id(c) in probs for c in cands.get((q["trace"], q["query"]), []))]
        p, _, _ = ratios(simulate(qs, cands, probs, float(t))["POOLED"])
        if not math.isnan(p) and p >= target:
            return float(t)
        if not math.isnan(p) and p > best_p:
            best_t, best_p = float(t), p
    return best_t


def weights_json(names: list[str], coef: np.ndarray, bias: float, threshold: float, **meta: Any) -> dict:
    """The file the engine reads: the operating point is folded into the bias,
    so that the engine's default threshold 0.5 answers exactly when the
    model's probability reaches ``threshold``."""
    shift = math.log(threshold / (1.0 - threshold))
    weights = {"bias": round(bias - shift, 6)}
    weights.update({n: round(float(c), 6) for n, c in zip(names, coef, strict=True) if abs(c) > 1e-9})
    return {"model": "logistic", "operating_point": threshold, **meta, "weights": weights}


def heldout_model(
    rows: list[dict],
    x: np.ndarray,
    y: np.ndarray,
    queries: list[dict],
    cands: dict[tuple[str, int], list[dict]],
    repo: str,
    l2: float,
    target: float,
) -> tuple[np.ndarray, float, float]:
    """The model for ``repo`` that never saw it: weights fitted on the other
    repositories, and the threshold chosen on their own out-of-sample
    predictions (nested: ``repo`` takes no part in either)."""
    inner = out_of_sample(rows, x, y, l2, without=repo)
    others = [q for q in queries if q["repo"] != repo]
    threshold = choose_threshold(others, cands, inner, target)
    mask = np.array([r["repo"] != repo for r in rows])
    coef, bias = fit(x[mask], y[mask], l2)
    return coef, bias, threshold


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--queries", required=True)
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--out", help="write the weights fitted on every repository here")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--target", type=float, default=0.9, help="the pooled precision the threshold is chosen for")
    ap.add_argument("--thresholds", default="0.4,0.5,0.6,0.7,0.8")
    ap.add_argument("--nested", action="store_true", help="also simulate with nested thresholds (slower)")
    args = ap.parse_args(argv)

    queries, cands = load(args.queries, args.candidates)
    rows = [c for cs in cands.values() for c in cs]
    names = sorted({k for r in rows for k in r["vector"]})
    x = design(rows, names)
    y = np.array([1.0 if r["correct"] else 0.0 for r in rows])
    repos = sorted({q["repo"] for q in queries})
    probs = out_of_sample(rows, x, y, args.l2)

    print(f"{len(rows)} candidates ({int(y.sum())} correct), {len(queries)} queries, {len(names)} features")
    for t in [float(v) for v in args.thresholds.split(",")]:
        by = simulate(queries, cands, probs, t)
        p, r, s = ratios(by["POOLED"])
        worst = min((k for k in by if k != "POOLED"), key=lambda k: ratios(by[k])[0])
        print(
            f"threshold {t:.2f}: pooled P {p:.3f} R {r:.3f} S {s:.3f}  answered {by['POOLED']['answered']}"
            f"  worst {worst} P {ratios(by[worst])[0]:.3f}"
        )
    if args.nested:
        total: collections.Counter = collections.Counter()
        for repo in repos:
            _coef, _bias, t = heldout_model(rows, x, y, queries, cands, repo, args.l2, args.target)
            held = [q for q in queries if q["repo"] == repo]
            k = simulate(held, cands, probs, t)[repo]
            total.update(k)
            p, r, s = ratios(k)
            print(f"  {repo:10s} threshold {t:.2f}  P {p:.3f} R {r:.3f} S {s:.3f} answered {k['answered']}")
        p, r, s = ratios(total)
        print(f"nested thresholds (target {args.target}): pooled P {p:.3f} R {r:.3f} S {s:.3f}")

    if args.out:
        threshold = choose_threshold(queries, cands, probs, args.target)
        coef, bias = fit(x, y, args.l2)
        data = weights_json(names, coef, bias, threshold, trained_on=repos, candidates=len(rows))
        Path(args.out).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"weights written to {args.out} (operating point {threshold:.2f})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
