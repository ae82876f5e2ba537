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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--queries", required=True)
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--out", help="write the weights fitted on every repository here")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--thresholds", default="0.3,0.4,0.5,0.6,0.7,0.8")
    ap.add_argument("--threshold", type=float, default=0.5, help="the engine's threshold, recorded with the weights")
    args = ap.parse_args(argv)

    queries, cands = load(args.queries, args.candidates)
    rows = [c for cs in cands.values() for c in cs]
    names = sorted({k for r in rows for k in r["vector"]})
    x = design(rows, names)
    y = np.array([1.0 if r["correct"] else 0.0 for r in rows])
    repos = sorted({q["repo"] for q in queries})
    row_repo = np.array([r["repo"] for r in rows])

    # leave one repository out: every row's probability from a model that never saw its repository
    probs: dict[int, float] = {}
    for repo in repos:
        train = row_repo != repo
        coef, bias = fit(x[train], y[train], args.l2)
        p = predict(x[~train], coef, bias)
        for row, pr in zip((r for r, m in zip(rows, ~train, strict=True) if m), p, strict=True):
            probs[id(row)] = float(pr)

    print(f"{len(rows)} candidates ({int(y.sum())} correct), {len(queries)} queries, {len(names)} features")
    for t in [float(v) for v in args.thresholds.split(",")]:
        by = simulate(queries, cands, probs, t)
        p, r, s = ratios(by["POOLED"])
        worst = min((k for k in by if k != "POOLED"), key=lambda k: ratios(by[k])[0])
        print(
            f"threshold {t:.2f}: pooled P {p:.3f} R {r:.3f} S {s:.3f}  answered {by['POOLED']['answered']}"
            f"  worst {worst} P {ratios(by[worst])[0]:.3f}"
        )
    by = simulate(queries, cands, probs, args.threshold)
    for repo in repos:
        p, r, s = ratios(by[repo])
        print(f"  {repo:10s} P {p:.3f} R {r:.3f} S {s:.3f} answered {by[repo]['answered']}")

    if args.out:
        coef, bias = fit(x, y, args.l2)
        weights = {"bias": round(bias, 6)}
        weights.update({n: round(float(c), 6) for n, c in zip(names, coef, strict=True) if abs(c) > 1e-9})
        Path(args.out).write_text(
            json.dumps(
                {
                    "model": "logistic",
                    "threshold": args.threshold,
                    "trained_on": repos,
                    "candidates": len(rows),
                    "weights": weights,
                },
                indent=1,
                sort_keys=True,
            )
            + "\n"
        )
        print(f"weights written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
