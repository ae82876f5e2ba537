"""The wrong-answer breakdown (``benchmarks/quality/wrong_answers.py``) reads the judge's reasons right."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "quality"))
import wrong_answers  # noqa: E402


def test_judge_reasons_fall_into_site_text_and_unrelated_classes() -> None:
    assert wrong_answers.judged_class("region 12-15 lies outside every expected edit") == "wrong site"
    assert wrong_answers.judged_class("followed jump: region 3-4 lies outside every expected edit") == "wrong site"
    assert wrong_answers.judged_class("jump to a line with no expected edit") == "wrong site"
    assert wrong_answers.judged_class("not on a shortest edit path to the expected text") == "wrong text"
    assert wrong_answers.judged_class("followed jump: nothing was expected") == "nothing expected"
    assert wrong_answers.judged_class("no expected edit in this document") == "wrong site"
    assert wrong_answers.judged_class("changes nothing") == "wrong text"
    assert wrong_answers.judged_class("followed jump: silence") == "nothing after the jump"
    assert wrong_answers.judged_class("something new").startswith("other: ")


def test_report_counts_only_answered_queries_and_splits_followed_jumps() -> None:
    rows = [
        {"repo": "a", "answered": False, "correct": False, "reason": "silent"},
        {"repo": "a", "answered": True, "correct": True, "suggester": "repeat", "kind": "edit", "related": True},
        {
            "repo": "a",
            "answered": True,
            "correct": False,
            "suggester": "repeat",
            "kind": "jump",
            "related": True,
            "reason": "followed jump: region 1-2 lies outside every expected edit",
        },
        {
            "repo": "b",
            "answered": True,
            "correct": False,
            "suggester": "rename",
            "kind": "edit",
            "related": False,
            "reason": "nothing was expected",
        },
    ]
    text = wrong_answers.report(rows, top=10)
    assert text.startswith("3 answers, 2 wrong, precision 0.333")
    assert "| a | 2 | 1 | 0.500 |" in text
    assert "| rename edit | 1 | 1 | 0.000 |" in text
    assert "| wrong site | related | after a followed jump | 1 |" in text
    assert "| nothing expected | unrelated | directly | 1 |" in text


def test_report_of_a_replay_with_no_answers_says_so() -> None:
    assert wrong_answers.report([{"repo": "a", "answered": False}], top=5) == "no answered queries\n"


def test_candidate_report_splits_queries_by_what_was_left_and_finds_right_candidates_ranked_lower() -> None:
    rows = [
        # related, answered wrong, a right candidate at rank 1: a ranking miss
        {"trace": "t", "query": 1, "answered": True, "correct": False, "related": True, "empty": False},
        # related, answered right
        {"trace": "t", "query": 2, "answered": True, "correct": True, "related": True, "empty": False},
        # nothing left, answered (always wrong)
        {"trace": "t", "query": 3, "answered": True, "correct": False, "related": False, "empty": True},
        # related, silent: right candidate first (under the threshold), lower, none right, no candidate
        {"trace": "t", "query": 4, "answered": False, "correct": False, "related": True, "empty": False},
        {"trace": "t", "query": 5, "answered": False, "correct": False, "related": True, "empty": False},
        {"trace": "t", "query": 6, "answered": False, "correct": False, "related": True, "empty": False},
        {"trace": "t", "query": 7, "answered": False, "correct": False, "related": True, "empty": False},
        # silent on a query with other edits only: not a miss, not counted
        {"trace": "t", "query": 8, "answered": False, "correct": False, "related": False, "empty": False},
    ]
    candidates = [
        {"trace": "t", "query": 1, "rank": 0, "correct": False},
        {"trace": "t", "query": 1, "rank": 1, "correct": True},
        {"trace": "t", "query": 2, "rank": 0, "correct": True},
        {"trace": "t", "query": 3, "rank": 0, "correct": False},
        {"trace": "t", "query": 4, "rank": 0, "correct": True},
        {"trace": "t", "query": 5, "rank": 0, "correct": False},
        {"trace": "t", "query": 5, "rank": 2, "correct": True},
        {"trace": "t", "query": 6, "rank": 0, "correct": False},
        {"trace": "t", "query": 8, "rank": 0, "correct": False},
    ]
    ranks = wrong_answers.right_candidate_ranks(json.dumps(c) for c in candidates)
    text = wrong_answers.candidate_report(rows, ranks)
    assert "| related | 2 | 1 | 0.500 | 1 |" in text
    assert "| nothing left | 1 | 1 | 0.000 | 0 |" in text
    assert "other edits only" not in text.split("\n\n")[0]  # no answers of that class
    assert "| a right candidate first | 1 |" in text
    assert "| a right candidate lower | 1 |" in text
    assert "| candidates, none right | 1 |" in text
    assert "| no candidate | 1 |" in text
