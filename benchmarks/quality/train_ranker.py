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
import functools
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from replay_inprocess import ratios, tally  # noqa: E402


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


@dataclass
class Fitted:
    """A fitted model: probabilities for a design matrix, and the JSON the engine reads."""

    kind: str
    names: list[str]
    coef: np.ndarray | None = None
    bias: float = 0.0
    trees: Any = None  # sklearn GradientBoostingClassifier

    def predict(self, x: np.ndarray) -> np.ndarray:
        if self.kind == "trees":
            return self.trees.predict_proba(x)[:, 1]
        assert self.coef is not None
        return 1.0 / (1.0 + np.exp(-np.clip(x @ self.coef + self.bias, -30, 30)))

    def to_json(self, threshold: float, **meta: Any) -> dict:
        """The file the engine reads: the operating point is folded into the
        constant, so the engine's default threshold 0.5 answers exactly when
        the model's probability reaches ``threshold``."""
        shift = math.log(threshold / (1.0 - threshold))
        if self.kind == "trees":
            return {
                "model": "trees",
                "operating_point": threshold,
                **meta,
                **_export_trees(self.trees, self.names, shift),
            }
        assert self.coef is not None
        weights = {"bias": round(self.bias - shift, 6)}
        weights.update({n: round(float(c), 6) for n, c in zip(self.names, self.coef, strict=True) if abs(c) > 1e-9})
        return {"model": "logistic", "operating_point": threshold, **meta, "weights": weights}


def _export_trees(model: Any, names: list[str], shift: float) -> dict:
    """sklearn's gradient-boosted trees as ``nextedit.suggest.ranker_model.Trees`` reads them."""
    init = float(model._raw_predict_init(np.zeros((1, len(names))))[0, 0]) - shift
    rate = model.learning_rate
    trees = []
    for estimator in model.estimators_[:, 0]:
        t = estimator.tree_
        nodes = []
        for i in range(t.node_count):
            leaf = t.children_left[i] == -1
            nodes.append(
                [
                    -1 if leaf else int(t.feature[i]),
                    0.0 if leaf else round(float(t.threshold[i]), 6),
                    0 if leaf else int(t.children_left[i]),
                    0 if leaf else int(t.children_right[i]),
                    round(float(t.value[i][0][0]) * rate, 6) if leaf else 0.0,
                ]
            )
        trees.append(nodes)
    return {"features": names, "init": round(init, 6), "trees": trees}


BALANCES = ("repository", "none")


def row_weights(
    repos: np.ndarray, balance: str, first: np.ndarray | None = None, first_weight: float = 1.0
) -> np.ndarray | None:
    """The weight of each fitting row. ``repository``: every repository weighs
    the same in the fit, however many candidates its traces produce, as every
    repository weighs the same when it is held out (zod's traces give 12% of
    the rows and requests' under 3%: per candidate, zod would weigh over four
    times what requests does). ``none``: every candidate weighs one.

    ``first`` marks the candidates the engine ranked first, each weighing
    ``first_weight`` times another of its repository: the answer is always
    one of them, so the fit leans toward telling a right one from a wrong one
    there. The total weight stays the number of rows (the L2 penalty keeps
    its scale), each repository's the same under ``repository``."""
    lean = np.ones(len(repos)) if first is None else np.where(first, first_weight, 1.0)
    if balance == "none":
        return None if first is None or first_weight == 1.0 else lean * (len(repos) / lean.sum())
    repositories, index = np.unique(repos, return_inverse=True)
    totals = np.bincount(index, weights=lean)
    return lean * (len(repos) / (len(repositories) * totals))[index]


@dataclass(frozen=True)
class Weighting:
    """How :func:`row_weights` weighs a fit's rows (``--balance``, ``--first-weight``)."""

    balance: str = "repository"
    first_weight: float = 1.0


@dataclass(frozen=True)
class FitRows:
    """Rows a fit may draw on: features, labels, repositories, and which the engine ranked first."""

    x: np.ndarray
    y: np.ndarray
    repos: np.ndarray
    first: np.ndarray

    def subset(self, keep: np.ndarray) -> FitRows:
        return FitRows(self.x[keep], self.y[keep], self.repos[keep], self.first[keep])

    def without(self, *repos: str | None) -> FitRows:
        """These rows but those of ``repos`` (``None`` leaves none out)."""
        return self.subset(~np.isin(self.repos, [r for r in repos if r is not None]))

    def fit(self, names: list[str], kind: str, l2: float, weighting: Weighting) -> Fitted:
        """The model fitted on these rows."""
        weights = row_weights(self.repos, weighting.balance, self.first, weighting.first_weight)
        return fit_model(self.x, self.y, names, kind, l2, weights)


def fit_model(
    x: np.ndarray, y: np.ndarray, names: list[str], kind: str, l2: float, weights: np.ndarray | None = None
) -> Fitted:
    if kind == "trees":
        from sklearn.ensemble import GradientBoostingClassifier

        model = GradientBoostingClassifier(
            n_estimators=TREES, max_depth=3, learning_rate=0.1, subsample=0.8, random_state=0
        )
        model.fit(x, y, sample_weight=weights)
        return Fitted("trees", names, trees=model)
    coef, bias = fit(x, y, l2, weights)
    return Fitted("logistic", names, coef=coef, bias=bias)


TREES = 100


def fit(
    x: np.ndarray, y: np.ndarray, l2: float, weights: np.ndarray | None = None, iters: int = 30
) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method (features standardised inside),
    each row's loss scaled by its weight (default one)."""
    rw = np.ones(len(y)) if weights is None else weights
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
        g = z.T @ (rw * (p - y)) + reg * w
        h = (z * (rw * p * (1 - p))[:, None]).T @ z + np.diag(reg) + 1e-9 * np.eye(len(w))
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


Policy = Callable[[dict, list[dict]], tuple[dict | None, float]]
"""An answer policy: for a query and its candidates, the candidate it would
answer with and the confidence compared with the threshold."""


def most_probable(probs: dict[int, float], ranking: dict[int, float] | None = None) -> Policy:
    """The engine's policy: the most probable candidate, at its probability
    (or the candidate highest by ``ranking``, still at its probability)."""
    order = probs if ranking is None else ranking

    def answer(_query: dict, cs: list[dict]) -> tuple[dict | None, float]:
        best = max(cs, key=lambda c: order[id(c)], default=None)
        return best, (probs[id(best)] if best is not None else 0.0)

    return answer


def simulate(
    queries: list[dict],
    cands: dict[tuple[str, int], list[dict]],
    probs: dict[int, float],
    threshold: float,
    policy: Policy | None = None,
) -> dict[str, collections.Counter]:
    """Answer each query with its most probable candidate when it reaches
    ``threshold`` (or with what ``policy`` picks, when its confidence does)."""
    answer = policy or most_probable(probs)
    by: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for q in queries:
        best, confidence = answer(q, cands.get((q["trace"], q["query"]), []))
        answered = best is not None and confidence >= threshold
        tally(by, q["repo"], answered, answered and best["correct"], q["related"], q["empty"])
    return by


def out_of_sample(
    rec: Recorded,
    l2: float,
    without: str | None = None,
    kind: str = "logistic",
    weighting: Weighting = Weighting(),
) -> dict[int, float]:
    """Each row's probability from a model fitted on the other repositories
    (never on its own, and never on ``without``); the ``extra`` rows (other
    replays of the same traces) join the fitting, by the same rule."""
    return held_out(
        rec.rows,
        rec.x,
        lambda repo: rec.pool.without(repo, without).fit(rec.names, kind, l2, weighting).predict,
        without,
    )


def held_out(
    rows: list[dict],
    x: np.ndarray,
    scorer_without: Callable[[str], Callable[[np.ndarray], np.ndarray]],
    skip: str | None = None,
) -> dict[int, float]:
    """Per repository of ``rows`` (but ``skip``), its rows' values from
    ``scorer_without(repo)``: a scorer built without that repository."""
    own = np.array([r["repo"] for r in rows])
    values: dict[int, float] = {}
    for repo in sorted(set(own) - {skip}):
        test = own == repo
        scores = scorer_without(str(repo))(x[test])
        for row, v in zip((r for r, m in zip(rows, test, strict=True) if m), scores, strict=True):
            values[id(row)] = float(v)
    return values


CURVE_PRECISIONS = (0.85, 0.86, 0.87, 0.88, 0.90)


def worst_repository(by: dict[str, Any]) -> tuple[str, float]:
    """The repository of ``simulate``'s result with the lowest precision, and that precision."""
    worst = min((k for k in by if k != "POOLED"), key=lambda k: ratios(by[k])[0])
    return worst, ratios(by[worst])[0]


def precision_curve(
    queries: list[dict[str, Any]],
    cands: dict[tuple[str, int], list[dict]],
    probs: dict[int, float],
    policy: Policy | None = None,
) -> dict[float, tuple[float, float, float, str, float] | None]:
    """Per precision of ``CURVE_PRECISIONS``: ``(threshold, recall, silence, worst
    repository, its precision)`` at the threshold (0.20-0.89, by 0.01) with the
    most related recall among those reaching it; ``None`` when none does. Two
    feature sets compare here at matched precision, not at one threshold."""
    points = []
    for t in np.arange(0.20, 0.90, 0.01):
        by = simulate(queries, cands, probs, float(t), policy)
        p, r, s = ratios(by["POOLED"])
        worst, worst_p = worst_repository(by)
        points.append((float(t), p, r, s, worst, worst_p))
    out: dict[float, tuple[float, float, float, str, float] | None] = {}
    for target in CURVE_PRECISIONS:
        reached = [pt for pt in points if pt[1] >= target]
        best = max(reached, key=lambda pt: pt[2]) if reached else None
        out[target] = None if best is None else (best[0], best[2], best[3], best[4], best[5])
    return out


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


def heldout_model(
    rec: Recorded,
    repo: str,
    l2: float,
    target: float,
    kind: str = "logistic",
    weighting: Weighting = Weighting(),
    inner: dict[int, float] | None = None,
) -> tuple[Fitted, float]:
    """The model for ``repo`` that never saw it: weights fitted on the other
    repositories, and the threshold chosen on their own out-of-sample
    predictions (nested: ``repo`` takes no part in either). ``inner``: those
    predictions, when the caller has them already (``out_of_sample(rec, l2,
    without=repo, ...)``)."""
    if inner is None:
        inner = out_of_sample(rec, l2, without=repo, kind=kind, weighting=weighting)
    others = [q for q in rec.queries if q["repo"] != repo]
    threshold = choose_threshold(others, rec.cands, inner, target)
    return rec.pool.without(repo).fit(rec.names, kind, l2, weighting), threshold


def fitting_pool(
    rows: list[dict],
    x: np.ndarray,
    y: np.ndarray,
    extra: tuple[list[dict], np.ndarray, np.ndarray] | None,
) -> FitRows:
    """Every row a fit may draw on, ``rows`` then ``extra``'s. A fit takes
    those of the repositories it may see."""
    repos = np.array([r["repo"] for r in rows])
    first = np.array([r.get("rank") == 0 for r in rows], dtype=bool)
    if extra is None:
        return FitRows(x, y, repos, first)
    extra_repos = np.array([r["repo"] for r in extra[0]])
    extra_first = np.array([r.get("rank") == 0 for r in extra[0]], dtype=bool)
    return FitRows(
        np.vstack([x, extra[1]]),
        np.concatenate([y, extra[2]]),
        np.concatenate([repos, extra_repos]),
        np.concatenate([first, extra_first]),
    )


@dataclass
class Recorded:
    """A replay's recorded queries and candidates, as a fit reads them."""

    queries: list[dict]
    cands: dict[tuple[str, int], list[dict]]
    rows: list[dict]  # every candidate, query by query
    names: list[str]  # the features, sorted
    x: np.ndarray
    y: np.ndarray
    extra: tuple[list[dict], np.ndarray, np.ndarray] | None

    @functools.cached_property
    def pool(self) -> FitRows:
        """Every row a fit may draw on (:func:`fitting_pool`), built once."""
        return fitting_pool(self.rows, self.x, self.y, self.extra)

    @property
    def pool_rows(self) -> list[dict]:
        """The candidates behind :attr:`pool`'s rows, in its order."""
        return [*self.rows, *(self.extra[0] if self.extra is not None else [])]


def drop_prefixes(value: str) -> tuple[str, ...]:
    """``--drop``'s comma-separated feature-name prefixes (empty: none)."""
    return tuple(p for p in value.split(",") if p)


def load_recorded(
    queries_path: str, candidates_path: str, fit_extra: list[str], drop: tuple[str, ...] = ()
) -> Recorded:
    """``--queries``, ``--candidates`` and ``--fit-extra`` read into design
    matrices; features starting with any of ``drop`` left out."""
    queries, cands = load(queries_path, candidates_path)
    rows = [c for cs in cands.values() for c in cs]
    names = sorted({k for r in rows for k in r["vector"] if not (drop and k.startswith(drop))})
    y = np.array([1.0 if r["correct"] else 0.0 for r in rows])
    return Recorded(queries, cands, rows, names, design(rows, names), y, load_extra(fit_extra, names))


def load_extra(paths: list[str], names: list[str]) -> tuple[list[dict], np.ndarray, np.ndarray] | None:
    """Candidates of other replays, for fitting only."""
    if not paths:
        return None
    rows = [json.loads(line) for p in paths for line in open(p)]
    return rows, design(rows, names), np.array([1.0 if r["correct"] else 0.0 for r in rows])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--queries", required=True)
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--out", help="write the weights fitted on every repository here")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--model", choices=["logistic", "trees"], default="logistic")
    ap.add_argument(
        "--balance",
        choices=BALANCES,
        default="repository",
        help="weigh every repository the same in the fit (default), or every candidate",
    )
    ap.add_argument(
        "--first-weight",
        type=float,
        default=1.0,
        help="how many times a candidate the engine ranked first weighs another (row_weights)",
    )
    ap.add_argument("--fit-extra", action="append", default=[], metavar="CANDIDATES", help="more rows to fit on")
    ap.add_argument("--target", type=float, default=0.9, help="the pooled precision the threshold is chosen for")
    ap.add_argument("--thresholds", default="0.4,0.5,0.6,0.7,0.8")
    ap.add_argument("--nested", action="store_true", help="also simulate with nested thresholds (slower)")
    ap.add_argument(
        "--curve",
        action="store_true",
        help="also print the related recall at each precision of 0.85-0.90 (the best threshold of "
        "0.20-0.89 reaching it): run with and without --drop to compare at matched precision",
    )
    ap.add_argument(
        "--drop",
        default="",
        metavar="PREFIXES",
        help="leave out the features whose names start with any of these (comma-separated): "
        "the same candidates scored without them",
    )
    args = ap.parse_args(argv)

    drop = drop_prefixes(args.drop)
    rec = load_recorded(args.queries, args.candidates, args.fit_extra, drop)
    queries, cands, rows, names, y = rec.queries, rec.cands, rec.rows, rec.names, rec.y
    repos = sorted({q["repo"] for q in queries})
    weighting = Weighting(args.balance, args.first_weight)
    probs = out_of_sample(rec, args.l2, kind=args.model, weighting=weighting)

    print(f"{len(rows)} candidates ({int(y.sum())} correct), {len(queries)} queries, {len(names)} features")
    for t in [float(v) for v in args.thresholds.split(",")]:
        by = simulate(queries, cands, probs, t)
        p, r, s = ratios(by["POOLED"])
        worst, worst_p = worst_repository(by)
        print(
            f"threshold {t:.2f}: pooled P {p:.3f} R {r:.3f} S {s:.3f}  answered {by['POOLED']['answered']}"
            f"  worst {worst} P {worst_p:.3f}"
        )
    if args.curve:
        for target, point in precision_curve(queries, cands, probs).items():
            if point is None:
                print(f"precision >= {target:.2f}: no threshold reaches it")
                continue
            t, r, s, worst, worst_p = point
            print(f"precision >= {target:.2f}: R {r:.3f} S {s:.3f} at threshold {t:.2f}  worst {worst} P {worst_p:.3f}")
    if args.nested:
        total: collections.Counter = collections.Counter()
        for repo in repos:
            _model, t = heldout_model(rec, repo, args.l2, args.target, args.model, weighting)
            held = [q for q in queries if q["repo"] == repo]
            k = simulate(held, cands, probs, t)[repo]
            total.update(k)
            p, r, s = ratios(k)
            print(f"  {repo:10s} threshold {t:.2f}  P {p:.3f} R {r:.3f} S {s:.3f} answered {k['answered']}")
        p, r, s = ratios(total)
        print(f"nested thresholds (target {args.target}): pooled P {p:.3f} R {r:.3f} S {s:.3f}")

    if args.out:
        threshold = choose_threshold(queries, cands, probs, args.target)
        model = rec.pool.fit(names, args.model, args.l2, weighting)
        data = model.to_json(threshold, trained_on=repos, candidates=len(rec.pool.y))
        Path(args.out).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"weights written to {args.out} (operating point {threshold:.2f})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
