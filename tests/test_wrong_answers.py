"""The wrong-answer breakdown (``benchmarks/quality/wrong_answers.py``) reads the judge's reasons right."""

from __future__ import annotations

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
