"""What the developer said of the engine's answers, counted over an agent's sessions.

Held out, how well the engine reads a repository's code differs by
repository (precision 0.75 on one, 0.95 on another), and the developer's
verdicts on its answers say which kind this one is
(``benchmarks/results/quality-verdicts.md``). Every answer counts once: as
*taken* when its first suggestion was accepted, or when the developer's very
next change to the document made exactly that change by hand; as *declined*
when it was rejected or ignored. The counts are shared by every session of an
agent, and the ranker reads them as ``answers_declined``.

The fixture: the developer adds ``strict=True`` to calls, one after another
(``tests/helpers/strict_calls.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from nextedit.acp.inprocess import InProcessAgent
from nextedit.session import AnswerTally, Session
from nextedit.suggest.model import SuggestRequest, Verdicts
from nextedit.suggest.rank import Ranker, answers_declined, request_features
from nextedit.suggest.suggester import SuggestContext
from nextedit.text import TextChange
from tests.helpers.session import apply_suggestion
from tests.helpers.strict_calls import STRICT, URI, add_strict, answer, three_calls_done


def _counts(session: Session) -> tuple[int, int]:
    return session.tally.taken, session.tally.declined


@pytest.mark.parametrize("reason", ["ignored", "rejected", None])
def test_a_declined_answer_counts_once(reason: str | None) -> None:
    editor, cursor = three_calls_done()
    shown = answer(editor, cursor)
    editor.session.reject(shown.id, reason)
    editor.session.reject(shown.id, reason)
    assert _counts(editor.session) == (0, 1)
    assert editor.session.verdicts() == Verdicts(last_declined=True, taken=0, declined=1)


@pytest.mark.parametrize("reason", ["replaced", "cancelled"])
def test_a_replaced_or_cancelled_answer_is_no_verdict(reason: str) -> None:
    editor, cursor = three_calls_done()
    editor.session.reject(answer(editor, cursor).id, reason)
    assert _counts(editor.session) == (0, 0)


def test_an_accepted_answer_was_taken() -> None:
    editor, cursor = three_calls_done()
    shown = answer(editor, cursor)
    editor.session.accept(shown.id)
    editor.session.accept(shown.id)
    assert _counts(editor.session) == (1, 0)


def test_the_answer_made_by_hand_was_taken() -> None:
    """The developer types exactly the suggested change, over a span of their
    own (the whole line, as a recorded hunk is)."""
    editor, cursor = three_calls_done()
    answer(editor, cursor)
    text = editor.text(URI)
    line_start = text.index('    d_file = parse_payload(d, "utf-8")')
    line_end = text.index("\n", line_start)
    editor.replace(URI, line_start, line_end, f'    d_file = parse_payload(d, "utf-8"{STRICT})')
    assert _counts(editor.session) == (1, 0)


def test_the_applied_answer_was_taken() -> None:
    editor, cursor = three_calls_done()
    apply_suggestion(editor.session, answer(editor, cursor))
    assert _counts(editor.session) == (1, 0)


def test_another_change_next_is_no_verdict_and_ends_the_wait() -> None:
    """A change that is not the suggested one says nothing of it; nor does the
    suggested change made later, after the developer did something else."""
    editor, cursor = three_calls_done()
    answer(editor, cursor)
    editor.replace(URI, 0, 0, "# header\n")
    add_strict(editor, "d")
    assert _counts(editor.session) == (0, 0)


def test_more_than_the_suggested_change_is_no_verdict() -> None:
    editor, cursor = three_calls_done()
    answer(editor, cursor)
    call = 'parse_payload(d, "utf-8"'
    at = editor.text(URI).index(call) + len(call)
    editor.replace(URI, at, at, ", strict=False")
    assert _counts(editor.session) == (0, 0)


def test_a_declined_answer_made_by_hand_afterwards_stays_declined() -> None:
    editor, cursor = three_calls_done()
    editor.session.reject(answer(editor, cursor).id, "ignored")
    add_strict(editor, "d")
    assert _counts(editor.session) == (0, 1)


def test_a_change_to_another_document_does_not_end_the_wait() -> None:
    editor, cursor = three_calls_done()
    editor.open("file:///w/notes.py", "python", "x = 1\n")
    answer(editor, cursor)
    editor.replace("file:///w/notes.py", 0, 0, "# notes\n")
    add_strict(editor, "d")
    assert _counts(editor.session) == (1, 0)


def test_sessions_given_one_tally_count_together() -> None:
    shared = AnswerTally()
    first, cursor = three_calls_done(shared)
    first.session.reject(answer(first, cursor).id, "ignored")
    second, cursor = three_calls_done(shared)
    apply_suggestion(second.session, answer(second, cursor))
    assert (shared.taken, shared.declined) == (1, 1)
    assert second.session.verdicts() == Verdicts(last_declined=False, taken=1, declined=1)


def test_the_acp_agent_hands_its_sessions_one_tally(tmp_path: Path) -> None:
    def request(id: int, method: str, params: Any) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": id, "method": method, "params": params}

    with InProcessAgent(tmp_path) as agent:
        agent.send(request(1, "initialize", {"protocolVersion": 1, "clientCapabilities": {}}))
        (one,) = agent.send(request(2, "nes/start", {}))
        (two,) = agent.send(request(3, "nes/start", {}))
        sessions = agent.agent.sessions
        first, second = sessions[one["result"]["sessionId"]], sessions[two["result"]["sessionId"]]
        assert first.tally is second.tally


def test_the_ranker_trusts_an_answer_less_where_answers_were_declined() -> None:
    """Under the shipped weights: the same candidate, the same request, scores
    lower for an agent whose answers were mostly declined than for one whose
    answers were mostly taken, and nothing said reads as the prior."""
    editor, cursor = three_calls_done()
    session = editor.session
    request = SuggestRequest(URI, session.documents[URI].document.version, cursor)
    ranking = session.engine.rank(session, request, session.kinds, frozenset())
    assert ranking.context is not None and ranking.candidates
    candidate = ranking.candidates[0]

    def context(verdicts: Verdicts) -> SuggestContext:
        state = session.documents[URI]
        return SuggestContext.for_request(session, request, state, session.kinds, frozenset(), verdicts=verdicts)

    declining, taking = context(Verdicts(taken=5, declined=30)), context(Verdicts(taken=30, declined=5))
    assert request_features(context(Verdicts()), candidate)["answers_declined"] == answers_declined(Verdicts())
    assert (
        answers_declined(Verdicts(taken=5, declined=30))
        > answers_declined(Verdicts())
        > answers_declined(Verdicts(taken=30, declined=5))
    )
    ranker = Ranker()
    assert ranker.probability(candidate, declining) < ranker.probability(candidate, taking)


def test_did_change_reports_the_changes_as_applied() -> None:
    editor, _ = three_calls_done()
    state = editor.session.documents[URI]
    applied = state.apply_changes([TextChange(None, "x = 1\n")], state.document.version + 1, editor.encoding)
    assert [(e.old_text[:9], e.new_text) for e in applied] == [("def read(", "x = 1\n")]
