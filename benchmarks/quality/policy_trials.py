"""Answer policies beside the engine's, on recorded candidates, out of repository.

The engine answers with its most probable candidate when that probability
reaches the threshold (``train_ranker.simulate``). Each trial here changes
one part of that policy and is measured as ``train_ranker.py --curve`` is:
the related recall at each pooled precision, every probability from a model
that never saw the repository it scores.

- ``gate``: whether to answer is decided by a second, query-level model
  reading the whole candidate list (the top two probabilities, how many
  candidates, how many above 0.05, their summed probability, whether the top
  two come from one suggester), fitted leave one repository out on the
  held-out probabilities of the others. Those probabilities come from
  candidate models that saw the gate's held-out repository: a small leak in
  the gate's favour.
- ``top-ranked N``: the candidate model fitted only on candidates the engine
  ranked among its first N + 1 (the ones an answer is drawn from), scoring
  every candidate.
- ``listwise``: the answer chosen by a conditional-logit model (which
  candidate is right, given one is), fitted on the queries with right and
  wrong candidates; whether to answer is still the chosen candidate's
  pointwise probability.

Needs numpy (``pip install -e ".[train]"``)::

    python benchmarks/quality/policy_trials.py --queries Q --candidates C \\
        [--fit-extra C2 ...]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import train_ranker as tr  # noqa: E402


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1.0 - 1e-6)
    return math.log(p / (1.0 - p))


def query_features(cs: list[dict], probs: dict[int, float]) -> list[float]:
    """What the gate reads of one query's candidates (most probable first)."""
    ranked = sorted(cs, key=lambda c: -probs[id(c)])
    p = [probs[id(c)] for c in ranked]
    second = len(ranked) > 1
    return [
        _logit(p[0]),
        _logit(p[1]) if second else -8.0,
        float(second),
        math.log1p(len(ranked)),
        math.log1p(sum(v > 0.05 for v in p)),
        math.log(sum(p) + 1e-6),
        float(second and ranked[0]["suggester"] == ranked[1]["suggester"]),
    ]


def gate_policy(
    queries: list[dict], cands: dict[tuple[str, int], list[dict]], probs: dict[int, float], l2: float
) -> tr.Policy:
    """The most probable candidate, at the gate's probability that it is right."""
    rows = [(q, cands[(q["trace"], q["query"])]) for q in queries if cands.get((q["trace"], q["query"]))]
    x = np.array([query_features(cs, probs) for _, cs in rows])
    best = [max(cs, key=lambda c: probs[id(c)]) for _, cs in rows]
    y = np.array([1.0 if b["correct"] else 0.0 for b in best])
    asked = [q for q, _ in rows]
    repos = np.array([q["repo"] for q in asked])

    def scorer_without(repo: str) -> Callable[[np.ndarray], np.ndarray]:
        train = repos != repo
        coef, bias = tr.fit(x[train], y[train], l2, tr.row_weights(repos[train], "repository"))
        return lambda qx: tr.predict(qx, coef, bias)

    gate = tr.held_out(asked, x, scorer_without)
    decided = {id(q): (b, gate[id(q)]) for q, b in zip(asked, best, strict=True)}
    return lambda q, _cs: decided.get(id(q), (None, 0.0))


def fit_listwise(x: np.ndarray, y: np.ndarray, group: np.ndarray, l2: float) -> np.ndarray:
    """Weights of a conditional logit: per group (rows sorted by group), the
    probability that the right candidates are chosen among all, by softmax."""
    keep = np.zeros(len(y), dtype=bool)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    ends = np.r_[starts[1:], len(y)]
    for a, b in zip(starts, ends, strict=True):
        right = y[a:b].sum()
        keep[a:b] = 0 < right < b - a
    if not keep.any():
        raise ValueError("no query has both a right and a wrong candidate: there is no choice to fit")
    x, y, group = x[keep], y[keep], group[keep]
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    which = np.cumsum(np.r_[False, group[1:] != group[:-1]])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        s = x @ w
        # log-sum-exp over every candidate and over the right ones, each
        # shifted by its own maximum so that neither underflows
        top = np.maximum.reduceat(s, starts)
        top_right = np.maximum.reduceat(np.where(y > 0, s, -np.inf), starts)
        e = np.exp(s - top[which])
        e_right = np.where(y > 0, np.exp(np.minimum(s - top_right[which], 0.0)), 0.0)
        every = np.add.reduceat(e, starts)
        right = np.add.reduceat(e_right, starts)
        value = float(np.sum(top + np.log(every) - top_right - np.log(right))) + 0.5 * l2 * float(w @ w)
        weight = e / every[which] - e_right / right[which]
        return value, x.T @ weight + l2 * w

    return descend(loss, np.zeros(x.shape[1]))


def descend(
    loss: Callable[[np.ndarray], tuple[float, np.ndarray]], w: np.ndarray, iters: int = 400, tol: float = 1e-6
) -> np.ndarray:
    """Gradient descent with a backtracking (Armijo) step: numpy only, deterministic."""
    value, grad = loss(w)
    step = 1.0
    for _ in range(iters):
        norm = float(grad @ grad)
        if norm < tol * tol:
            break
        while True:
            trial = w - step * grad
            trial_value, trial_grad = loss(trial)
            if trial_value <= value - 0.5 * step * norm or step < 1e-12:
                break
            step *= 0.5
        w, value, grad = trial, trial_value, trial_grad
        step *= 2.0
    return w


def listwise_policy(rec: tr.Recorded, probs: dict[int, float], l2: float) -> tr.Policy:
    """The candidate the conditional logit prefers, at its pointwise probability."""
    pool = rec.pool
    # a replay writes each query's candidates together, so a query's group
    # is a run of rows; the same query of another replay is another group
    keys = [(r["trace"], r["query"]) for r in rec.pool_rows]
    group = np.cumsum([0] + [a != b for a, b in zip(keys, keys[1:], strict=False)])
    mu, sd = pool.x.mean(axis=0), pool.x.std(axis=0)
    sd[sd < 1e-9] = 1.0
    z = (pool.x - mu) / sd

    def scorer_without(repo: str) -> Callable[[np.ndarray], np.ndarray]:
        train = pool.repos != repo
        w = fit_listwise(z[train], pool.y[train], group[train], l2)
        return lambda rx: ((rx - mu) / sd) @ w

    return tr.most_probable(probs, ranking=tr.held_out(rec.rows, rec.x, scorer_without))


def top_ranked_probs(rec: tr.Recorded, max_rank: int, l2: float) -> dict[int, float]:
    """Held-out probabilities of a model fitted only on candidates ranked at most ``max_rank``."""
    pool = rec.pool
    ranked = np.array([r["rank"] <= max_rank for r in rec.pool_rows])
    return tr.held_out(
        rec.rows,
        rec.x,
        lambda repo: pool.subset(ranked & (pool.repos != repo)).fit(rec.names, "logistic", l2, tr.Weighting()).predict,
    )


def wrong_with_right_below(
    queries: list[dict], cands: dict[tuple[str, int], list[dict]], probs: dict[int, float], threshold: float
) -> tuple[int, int]:
    """The engine's wrong answers at ``threshold``, and how many of them had a
    right candidate ranked lower: all a better choice of answer could win."""
    answer = tr.most_probable(probs)
    wrong = beaten = 0
    for q in queries:
        cs = cands.get((q["trace"], q["query"]), [])
        best, p = answer(q, cs)
        if best is None or p < threshold or best["correct"]:
            continue
        wrong += 1
        beaten += any(c["correct"] for c in cs)
    return wrong, beaten


def curve_line(label: str, curve: dict[float, tuple[float, float, float, str, float] | None]) -> str:
    cells = []
    for target, point in curve.items():
        if point is None:
            cells.append(f"P>={target:.2f}: -")
        else:
            _t, r, _s, worst, worst_p = point
            cells.append(f"P>={target:.2f}: R {r:.3f} ({worst} {worst_p:.3f})")
    return f"{label:16s} " + " | ".join(cells)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", required=True)
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--fit-extra", action="append", default=[], metavar="CANDIDATES", help="more rows to fit on")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--top-ranks", default="0,1,2", help="the N of the top-ranked trials")
    args = ap.parse_args(argv)

    rec = tr.load_recorded(args.queries, args.candidates, args.fit_extra)
    queries, cands = rec.queries, rec.cands
    probs = tr.out_of_sample(rec, args.l2)

    engine = tr.precision_curve(queries, cands, probs)
    print(curve_line("engine", engine))
    point = engine.get(0.86)
    if point is not None:
        wrong, beaten = wrong_with_right_below(queries, cands, probs, point[0])
        print(
            f"engine at threshold {point[0]:.2f}: {wrong} wrong answers, {beaten} with a right candidate ranked below"
        )
    print(curve_line("gate", tr.precision_curve(queries, cands, probs, gate_policy(queries, cands, probs, args.l2))))
    for n in (int(v) for v in args.top_ranks.split(",") if v):
        top = top_ranked_probs(rec, n, args.l2)
        print(curve_line(f"top-ranked {n}", tr.precision_curve(queries, cands, top)))
    listwise = listwise_policy(rec, probs, args.l2)
    print(curve_line("listwise", tr.precision_curve(queries, cands, probs, listwise)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
