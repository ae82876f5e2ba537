"""The ranker: the learned model file, its operating point, the online adjustment, the fallback."""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import pytest

from nextedit.suggest.model import Candidate, CandidateFeatures, SuggestionKinds, SuggestRequest, TextEditCp
from nextedit.suggest.rank import WEIGHTS_ENV, Ranker, feature_vector, online_adjustment
from nextedit.suggest.ranker_model import Logistic, Trees, load_model, model_from_json
from nextedit.suggest.suggester import SuggestContext
from tests.helpers.session import Editor

URI = "file:///w/a.py"


def _candidate(**features: object) -> Candidate:
    return Candidate(
        kind="edit",
        uri=URI,
        edits=(TextEditCp(0, 1, "x"),),
        score=0.9,
        suggester="repeat",
        evidence=(),
        fingerprint="repeat:x",
        features=CandidateFeatures(**features),  # type: ignore[arg-type]
    )


def _context(feedback: dict[str, tuple[int, int]] | None = None) -> SuggestContext:
    editor = Editor(SuggestionKinds())
    editor.open(URI, "python", "a = 1\nb = 2\n")
    state = editor.session.documents[URI]
    return SuggestContext(
        workspace=editor.session,
        request=SuggestRequest(URI, 1, 0),
        state=state,
        kinds=SuggestionKinds(),
        edits=(),
        feedback=feedback or {},
    )


def test_the_package_ships_a_model_trained_out_of_the_repositories_it_names() -> None:
    model = load_model()
    assert model is not None
    assert 0.0 < model.operating_point < 1.0
    data = json.loads(resources.files("nextedit.suggest").joinpath("ranker_weights.json").read_text())
    assert len(data["trained_on"]) >= 12


def test_a_logistic_model_folds_its_operating_point_into_the_threshold() -> None:
    model = model_from_json({"model": "logistic", "operating_point": 0.8, "weights": {"bias": 1.0, "a": 2.0}})
    assert isinstance(model, Logistic)
    assert model.logit({"a": 1.0, "unknown": 5.0}) == pytest.approx(3.0)
    assert model.operating_point == 0.8


def test_a_tree_model_walks_each_tree_to_a_leaf() -> None:
    data = {
        "model": "trees",
        "features": ["a", "b"],
        "init": -1.0,
        # a <= 0.5 ? 0.25 : (b <= 2 ? 1.0 : 2.0)
        "trees": [
            [[0, 0.5, 1, 2, 0.0], [-1, 0, 0, 0, 0.25], [1, 2.0, 3, 4, 0.0], [-1, 0, 0, 0, 1.0], [-1, 0, 0, 0, 2.0]]
        ],
    }
    model = model_from_json(data)
    assert isinstance(model, Trees)
    assert model.logit({}) == pytest.approx(-0.75)  # a feature the vector lacks is 0
    assert model.logit({"a": 1.0, "b": 1.0}) == pytest.approx(0.0)
    assert model.logit({"a": 1.0, "b": 3.0}) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "data",
    [
        {"model": "logistic", "weights": [1, 2]},
        {"model": "trees", "features": ["a"], "init": 0.0, "trees": [[[0, 0.5, 7, 8, 0.0]]]},
        {"model": "forest"},
        {"model": "logistic", "operating_point": 1.5, "weights": {}},
    ],
)
def test_a_broken_weights_file_is_refused_by_name(data: dict) -> None:
    with pytest.raises(ValueError, match="ranker weights"):
        model_from_json(data)


def test_the_environment_points_the_ranker_at_another_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"model": "logistic", "weights": {"bias": 3.0}}))
    monkeypatch.setenv(WEIGHTS_ENV, str(path))
    ranker = Ranker()
    assert ranker.probability(_candidate(), _context()) == pytest.approx(1 / (1 + math.exp(-3.0)))


def test_online_adjustment_follows_explicit_verdicts_only_and_is_bounded() -> None:
    candidate = _candidate()
    assert online_adjustment(_context(), candidate) == 0.0
    liked = online_adjustment(_context({"repeat": (30, 30)}), candidate)
    disliked = online_adjustment(_context({"repeat": (0, 30)}), candidate)
    assert 0.0 < liked <= 1.0 and -1.0 <= disliked < 0.0
    assert online_adjustment(_context({"repeat": (0, 10_000)}), candidate) == -1.0


def test_the_learned_model_prefers_more_evidence_and_fewer_doubts() -> None:
    """Sanity of whatever weights ship: a second example, agreement of
    another rule and fewer sites left raise the score; a site the developer
    passed over lowers it."""
    ranker = Ranker()
    context = _context()
    base = dict(family="tokens", examples=1, sites=3, specificity=4.0, changed_tokens=2, changed_chars=8)
    p = ranker.probability(_candidate(**base), context)
    assert ranker.probability(_candidate(**{**base, "examples": 2}), context) > p
    assert ranker.probability(_candidate(**{**base, "support": 2}), context) > p
    assert ranker.probability(_candidate(**{**base, "sites": 30}), context) < p
    assert ranker.probability(_candidate(**{**base, "passed_over": 2}), context) < p


def test_an_untrained_ranker_is_the_suggesters_own_confidence() -> None:
    ranker = Ranker.untrained()
    candidate = _candidate()
    assert ranker.probability(candidate, _context()) == pytest.approx(0.9, abs=0.01)
    vector = feature_vector(candidate, {})
    assert vector["suggester=repeat"] == 1.0 and "kind=edit" in vector


def test_sites_scored_alike_with_the_best_walk_nearest_first_and_a_site_far_below_keeps_its_place() -> None:
    """One rule's sites: the two scored within ``_SITE_TIE`` of the best come
    in the suggester's order (nearest after the cursor first) with the same
    scores, best first; the third, scored clearly lower, stays last — and
    a rule whose sites the ranker separates keeps the ranker's order."""
    from dataclasses import replace

    from nextedit.suggest.engine import _SITE_TIE, _sites_in_order

    def site(rank: int, score: float, evidence: tuple[str, ...] = ("rule a",)) -> Candidate:
        return replace(
            _candidate(site_rank=rank), score=score, evidence=evidence, edits=(TextEditCp(rank, rank + 1, "x"),)
        )

    near, second, far = site(0, 0.7255), site(1, 0.7257), site(2, 0.7257 - 2 * _SITE_TIE)
    out = _sites_in_order([near, second, far])
    assert [(c.features.site_rank, c.score) for c in sorted(out, key=lambda c: -c.score)] == [
        (0, 0.7257),
        (1, 0.7255),
        (2, far.score),
    ]
    apart = [site(0, 0.60, ("rule b",)), site(1, 0.70, ("rule b",))]
    assert _sites_in_order(apart) == apart
