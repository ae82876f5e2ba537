"""The in-process replayer's two clients (``benchmarks/quality/replay_inprocess.py --client``).

``bench`` rejects only the wrong first suggestions, as ``nextedit bench``
does; ``reporting`` settles the right ones too, as ACP describes a client
that says ``ignored`` of every suggestion the developer went past: accepted
when the developer's next change touches its lines, ignored otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "quality"))
import replay_inprocess  # noqa: E402

from nextedit.session import PlacedEdit, PlacedSuggestion, Session  # noqa: E402
from nextedit.text import Position, Range, TextChange  # noqa: E402
from tests.helpers.sample import SAMPLE_TRACE  # noqa: E402

SAMPLE = str(SAMPLE_TRACE)


class _Verdicts:
    """What a session was told: ``(action, id, reason)``."""

    def __init__(self) -> None:
        self.said: list[tuple[str, str, str | None]] = []

    def accept(self, suggestion_id: str) -> None:
        self.said.append(("accept", suggestion_id, None))

    def reject(self, suggestion_id: str, reason: str | None) -> None:
        self.said.append(("reject", suggestion_id, reason))


def _edit_on(line: int) -> PlacedEdit:
    return PlacedEdit(Range(Position(line, 4), Position(line, 9)), "total")


def _change_on(first: int, last: int) -> TextChange:
    return TextChange(Range(Position(first, 0), Position(last, 3)), "x")


def test_a_right_answer_is_accepted_when_the_next_change_touches_its_lines_and_ignored_otherwise() -> None:
    edit = PlacedSuggestion("s-1", "edit", "file:///a.py", 2, (_edit_on(7),))
    for change, expected in ((_change_on(6, 7), "accept"), (_change_on(8, 9), "reject")):
        said = _Verdicts()
        replay_inprocess._settle(said, replay_inprocess._shown(edit, None), "file:///a.py", [change])  # type: ignore[arg-type]
        assert said.said == [(expected, "s-1", None if expected == "accept" else "ignored")]
    said = _Verdicts()  # another document's change leaves it untaken
    replay_inprocess._settle(said, replay_inprocess._shown(edit, None), "file:///b.py", [_change_on(7, 7)])  # type: ignore[arg-type]
    assert said.said == [("reject", "s-1", "ignored")]


def test_a_jump_is_settled_with_its_follow_up_where_the_follow_up_edits() -> None:
    jump = PlacedSuggestion("s-1", "jump", "file:///a.py", 2, (), position=Position(40, 0))
    follow_up = PlacedSuggestion("s-2", "edit", "file:///a.py", 2, (_edit_on(41),))
    shown = replay_inprocess._shown(jump, follow_up)
    assert shown.ids == ("s-1", "s-2") and shown.lines == frozenset({41})
    said = _Verdicts()
    replay_inprocess._settle(said, shown, "file:///a.py", [_change_on(41, 41)])  # type: ignore[arg-type]
    assert said.said == [("accept", "s-1", None), ("accept", "s-2", None)]


@pytest.mark.parametrize("client", replay_inprocess.CLIENTS)
def test_on_the_bundled_sample_only_the_reporting_client_settles_right_answers(
    client: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[tuple[str, Any]] = []
    accept, reject = Session.accept, Session.reject

    def record_accept(self: Session, suggestion_id: str) -> Any:
        said.append(("accept", None))
        return accept(self, suggestion_id)

    def record_reject(self: Session, suggestion_id: str, reason: str | None) -> Any:
        said.append(("reject", reason))
        return reject(self, suggestion_id, reason)

    monkeypatch.setattr(Session, "accept", record_accept)
    monkeypatch.setattr(Session, "reject", record_reject)
    result = replay_inprocess.replay_file(SAMPLE, client=client)
    answered = [q for q in result.queries if q["answered"]]
    wrong = sum(not q["correct"] for q in answered)
    assert len(result.queries) == 80 and answered
    assert all(reason == "ignored" for action, reason in said if action == "reject")
    if client == "bench":
        # every wrong first suggestion is rejected (a wrong jump with its follow-up), nothing accepted
        assert not [a for a, _ in said if a == "accept"]
        assert wrong <= len(said) <= 2 * wrong
    else:
        # the right answers are settled as well: more verdicts than wrong answers
        assert len(said) > 2 * wrong


def test_the_candidates_file_says_where_each_candidate_acts() -> None:
    """``--candidates`` rows carry ``site``: where a miss analysis reads the
    candidate's text. A candidate the judge found right acts inside an edit
    the developer still made, whose text at ``site`` is the candidate's old text."""
    import repeat_miss_causes

    from nextedit.bench.score import expected_in_cp

    result = replay_inprocess.replay_file(SAMPLE, collect=True)
    right = [c for c in result.candidates if c["correct"] and c["kind"] == "edit"]
    assert right and all(isinstance(c["site"], int) for c in result.candidates)
    by_query: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for c in right:
        by_query.setdefault((c["trace"], c["query"]), []).append(c)
    checked = 0
    for at in repeat_miss_causes.queries_of(SAMPLE):  # documents are live: read each at its query
        text = at.docs[at.event.uri].text
        expected = expected_in_cp(at.event.expected or [], at.docs, at.enc)
        for c in by_query.get((at.trace, at.query), []):
            assert text.startswith(c["edit"][0][0], c["site"])
            assert any(x.start <= c["site"] <= x.end for x in expected)
            checked += 1
    assert checked == len(right)
