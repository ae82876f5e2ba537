"""The ranker's learned model: a file of numbers, read once, evaluated in pure Python.

Owns the two shapes ``benchmarks/quality/train_ranker.py`` writes:

- ``"logistic"`` — ``{"weights": {feature name: weight, "bias": b}}``: the
  logit is ``b + Σ weight × value``;
- ``"trees"`` — gradient-boosted regression trees: ``{"features": [names],
  "init": f0, "trees": [[node, …], …]}`` where a node is ``[feature index,
  threshold, left, right, value]`` (``feature index`` −1 for a leaf, whose
  ``value`` is already scaled by the learning rate); the logit is ``init`` plus
  each tree's leaf for the vector (``value <= threshold`` goes left; a feature
  the vector lacks is 0).

Both fold the operating point chosen at training into their constant, so the
engine's default threshold 0.5 means "the probability the training chose".
A few dozen shallow trees cost tens of microseconds a candidate.

Must not know about candidates, suggesters or the engine: names and numbers in,
a logit out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Protocol

__all__ = ["Logistic", "Model", "Trees", "load_model", "model_from_json"]

_PACKAGE_FILE = "ranker_weights.json"


class Model(Protocol):
    @property
    def operating_point(self) -> float:
        """The probability the constant was shifted for (0.5: no shift)."""
        ...

    def logit(self, vector: Mapping[str, float]) -> float: ...


@dataclass(frozen=True)
class Logistic:
    weights: Mapping[str, float]
    bias: float
    operating_point: float = 0.5

    def logit(self, vector: Mapping[str, float]) -> float:
        weights = self.weights
        z = self.bias
        for name, value in vector.items():
            w = weights.get(name)
            if w is not None:
                z += w * value
        return z


@dataclass(frozen=True)
class Trees:
    features: tuple[str, ...]
    init: float
    trees: tuple[tuple[tuple[int, float, int, int, float], ...], ...]
    operating_point: float = 0.5

    def logit(self, vector: Mapping[str, float]) -> float:
        x = [vector.get(name, 0.0) for name in self.features]
        z = self.init
        for nodes in self.trees:
            node = nodes[0]
            while node[0] >= 0:
                node = nodes[node[2] if x[node[0]] <= node[1] else node[3]]
            z += node[4]
        return z


def model_from_json(data: Mapping[str, object]) -> Model:
    """A model from the parsed JSON of a weights file (``ValueError`` when it is not one)."""
    kind = data.get("model", "logistic")
    point = data.get("operating_point", 0.5)
    if not isinstance(point, int | float) or not 0.0 < point < 1.0:
        raise ValueError("ranker weights: 'operating_point' must be a probability")
    if kind == "logistic":
        weights = data.get("weights")
        if not isinstance(weights, dict):
            raise ValueError("ranker weights: 'weights' must map feature names to numbers")
        table = {str(k): float(v) for k, v in weights.items()}
        return Logistic(table, table.pop("bias", 0.0), float(point))
    if kind == "trees":
        features = data.get("features")
        trees = data.get("trees")
        init = data.get("init")
        if not isinstance(features, list) or not isinstance(trees, list) or not isinstance(init, int | float):
            raise ValueError("ranker weights: a tree model needs 'features', 'init' and 'trees'")
        parsed = tuple(
            tuple((int(n[0]), float(n[1]), int(n[2]), int(n[3]), float(n[4])) for n in tree) for tree in trees
        )
        for tree in parsed:
            for node in tree:
                if node[0] >= len(features) or (
                    node[0] >= 0 and not (0 < node[2] < len(tree) and 0 < node[3] < len(tree))
                ):
                    raise ValueError("ranker weights: a tree node points outside its tree")
        return Trees(tuple(str(f) for f in features), float(init), parsed, float(point))
    raise ValueError(f"ranker weights: unknown model {kind!r}")


def load_model(path: Path | None = None) -> Model | None:
    """The model in ``path``, else the one shipped in the package (``None`` when there is none)."""
    try:
        if path is not None:
            text = path.read_text(encoding="utf-8")
        else:
            text = resources.files("nextedit.suggest").joinpath(_PACKAGE_FILE).read_text("utf-8")
    except FileNotFoundError:
        return None
    return model_from_json(json.loads(text))
