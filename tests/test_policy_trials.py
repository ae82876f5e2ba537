"""Answer-policy trials (``benchmarks/quality/policy_trials.py``) and the
policy hook of ``train_ranker.simulate`` they are measured through.

A trial that picks or gates answers differently must be scored by the same
simulation as the engine's policy, or the comparison between them says
nothing: these tests pin that the hook changes only the choice it is given.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "quality"))
import policy_trials  # noqa: E402
import train_ranker  # noqa: E402


def _query(repo: str, n: int, related: bool = True) -> dict:
    return {"trace": f"{repo}:t", "query": n, "repo": repo, "related": related, "empty": not related}


def _candidate(query: dict, correct: bool, suggester: str = "repeat") -> dict:
    return {
        "trace": query["trace"],
        "query": query["query"],
        "repo": query["repo"],
        "correct": correct,
        "suggester": suggester,
        "vector": {},
    }


def test_the_default_policy_answers_with_the_most_probable_candidate() -> None:
    q = _query("gin", 1)
    wrong, right = _candidate(q, False), _candidate(q, True)
    cands = {(q["trace"], 1): [wrong, right]}
    probs = {id(wrong): 0.7, id(right): 0.6}
    by = train_ranker.simulate([q], cands, probs, 0.5)
    assert by["POOLED"]["answered"] == 1 and by["POOLED"]["correct"] == 0
    # at a threshold above the best probability the query is silent
    assert train_ranker.simulate([q], cands, probs, 0.75)["POOLED"]["answered"] == 0


def test_a_policy_chooses_the_answer_and_the_confidence_the_threshold_reads() -> None:
    q = _query("gin", 1)
    wrong, right = _candidate(q, False), _candidate(q, True)
    cands = {(q["trace"], 1): [wrong, right]}
    probs = {id(wrong): 0.7, id(right): 0.6}

    def second_best(_q: dict, cs: list[dict]) -> tuple[dict | None, float]:
        return cs[1], 0.55

    by = train_ranker.simulate([q], cands, probs, 0.5, second_best)
    assert by["POOLED"]["answered"] == 1 and by["POOLED"]["correct"] == 1
    assert by["POOLED"]["related_correct"] == 1
    # the threshold compares with the policy's confidence, not the candidate's probability
    assert train_ranker.simulate([q], cands, probs, 0.58, second_best)["POOLED"]["answered"] == 0
    # another ranking picks the answer; its own probability still decides whether to offer it
    listwise = train_ranker.most_probable(probs, ranking={id(wrong): -1.0, id(right): 2.0})
    assert listwise(q, [wrong, right]) == (right, 0.6)
    assert train_ranker.simulate([q], cands, probs, 0.65, listwise)["POOLED"]["answered"] == 0


def _groups(reversed_groups: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Twenty queries of three candidates: feature 0 marks the right one (but
    in ``reversed_groups`` of them a wrong one), feature 1 is noise."""
    rng = np.random.default_rng(0)
    xs, ys, groups = [], [], []
    for g in range(20):
        for i in range(3):
            right = i == 0
            marked = right if g >= reversed_groups else i == 1
            xs.append([1.0 if marked else 0.0, rng.normal()])
            ys.append(1.0 if right else 0.0)
            groups.append(g)
    return np.array(xs), np.array(ys), np.array(groups)


def test_the_listwise_fit_learns_which_candidate_of_a_query_is_right() -> None:
    x, y, group = _groups(reversed_groups=4)
    w = policy_trials.fit_listwise(x, y, group, l2=0.1)
    assert w[0] > 1.0  # the marked candidate is preferred
    assert abs(w[1]) < abs(w[0]) / 3  # the noise feature is not


def test_queries_without_a_choice_do_not_move_the_listwise_fit() -> None:
    x, y, group = _groups(reversed_groups=4)
    base = policy_trials.fit_listwise(x, y, group, l2=0.1)
    # a query whose candidates are all wrong, marked or not, says nothing about which is right
    x2 = np.vstack([x, [[1.0, 0.0], [1.0, 0.0], [0.0, 0.0]]])
    y2 = np.concatenate([y, [0.0, 0.0, 0.0]])
    g2 = np.concatenate([group, [99, 99, 99]])
    assert policy_trials.fit_listwise(x2, y2, g2, l2=0.1) == pytest.approx(base)


def test_descend_finds_the_minimum_of_a_quadratic() -> None:
    target = np.array([3.0, -2.0])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        d = w - target
        return float(d @ d), 2.0 * d

    assert policy_trials.descend(loss, np.zeros(2)) == pytest.approx(target, abs=1e-5)


def test_the_gate_reads_the_top_two_candidates_in_order_of_probability() -> None:
    q = _query("zod", 1)
    low, high = _candidate(q, False, "rename"), _candidate(q, True, "repeat")
    probs = {id(low): 0.2, id(high): 0.8}
    features = policy_trials.query_features([low, high], probs)
    assert features[0] == pytest.approx(np.log(0.8 / 0.2))  # the top probability, as a logit
    assert features[1] == pytest.approx(np.log(0.2 / 0.8))  # the second
    assert features[2] == 1.0  # there is a second
    assert features[6] == 0.0  # from another suggester
    alone = policy_trials.query_features([high], probs)
    assert alone[1] == -8.0 and alone[2] == 0.0


def test_the_gate_answers_each_query_with_its_most_probable_candidate() -> None:
    queries, cands, probs = [], {}, {}
    for repo in ("a", "b", "c"):
        for n in range(30):
            q = _query(repo, n)
            good = n % 3 != 0
            best, other = _candidate(q, good), _candidate(q, not good)
            probs[id(best)], probs[id(other)] = (0.8 if good else 0.6), 0.3
            queries.append(q)
            cands[(q["trace"], n)] = [other, best]
    gate = policy_trials.gate_policy(queries, cands, probs, l2=1.0)
    for q in queries:
        chosen, confidence = gate(q, cands[(q["trace"], q["query"])])
        assert chosen is not None and probs[id(chosen)] >= 0.6
        assert 0.0 <= confidence <= 1.0
    # fitted on the other repositories, the gate trusts the 0.8 answers more than the 0.6 ones
    sure = gate(queries[1], cands[(queries[1]["trace"], 1)])[1]
    unsure = gate(queries[0], cands[(queries[0]["trace"], 0)])[1]
    assert sure > unsure


def test_wrong_answers_with_a_right_candidate_below_are_counted_apart() -> None:
    beaten_q, alone_q, right_q, silent_q = (_query("jq", n) for n in range(4))
    cands: dict[tuple[str, int], list[dict]] = {}
    probs: dict[int, float] = {}
    for q, top, below in (
        (beaten_q, False, True),
        (alone_q, False, False),
        (right_q, True, False),
        (silent_q, False, True),
    ):
        first, second = _candidate(q, top), _candidate(q, below)
        probs[id(first)], probs[id(second)] = (0.3 if q is silent_q else 0.9), 0.2
        cands[(q["trace"], q["query"])] = [first, second]
    queries = [beaten_q, alone_q, right_q, silent_q]
    # the silent query is no wrong answer; the right answer is none either
    assert policy_trials.wrong_with_right_below(queries, cands, probs, 0.5) == (2, 1)
