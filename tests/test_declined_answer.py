"""What the developer said of our newest answer reaches the ranker.

Right after a declined suggestion the next answer is right far less often
(``benchmarks/results/quality-declined.md``): the developer is doing
something the engine did not read. The session remembers whether the last
suggestion it showed was declined — rejected or ignored, not merely replaced
by a newer one or cancelled — until it shows another, and the ranker reads
it as ``last_declined``: the same candidate scores lower.

The fixture: the developer adds ``strict=True`` to calls, one after another
(``tests/helpers/strict_calls.py``).
"""

from __future__ import annotations

import pytest

from nextedit.suggest.model import SuggestRequest
from nextedit.suggest.rank import Ranker, request_features
from nextedit.suggest.suggester import SuggestContext
from tests.helpers.session import Editor
from tests.helpers.strict_calls import URI, add_strict, answer, three_calls_done


def _context(editor: Editor, cursor: int) -> SuggestContext:
    """The context a request at ``cursor`` gets from the session, as the engine makes it."""
    session = editor.session
    state = session.documents[URI]
    request = SuggestRequest(URI, state.document.version, cursor)
    ranking = session.engine.rank(session, request, session.kinds, frozenset(), verdicts=session.verdicts())
    assert ranking.context is not None and ranking.candidates
    return ranking.context


@pytest.mark.parametrize("reason", ["ignored", "rejected", None])
def test_declining_the_answer_shown_is_remembered_until_the_next_answer(reason: str | None) -> None:
    editor, cursor = three_calls_done()
    assert not editor.session.last_declined
    shown = answer(editor, cursor)
    assert not editor.session.last_declined
    editor.session.reject(shown.id, reason)
    assert editor.session.last_declined
    add_strict(editor, "d")  # the developer goes on by hand, until the engine answers again
    add_strict(editor, "e")
    cursor = add_strict(editor, "f")
    assert editor.session.last_declined, "a developer edit is no new answer"
    answer(editor, cursor)
    assert not editor.session.last_declined


@pytest.mark.parametrize("reason", ["replaced", "cancelled"])
def test_a_suggestion_replaced_or_cancelled_was_not_declined(reason: str) -> None:
    editor, cursor = three_calls_done()
    editor.session.reject(answer(editor, cursor).id, reason)
    assert not editor.session.last_declined


def test_rejecting_an_older_suggestion_says_nothing_of_the_newest() -> None:
    editor, cursor = three_calls_done()
    older = answer(editor, cursor)
    cursor = add_strict(editor, "d")
    answer(editor, cursor)
    editor.session.reject(older.id, "ignored")
    assert not editor.session.last_declined


def test_an_accepted_answer_was_not_declined() -> None:
    editor, cursor = three_calls_done()
    editor.session.accept(answer(editor, cursor).id)
    assert not editor.session.last_declined


def test_after_a_declined_answer_the_same_candidate_scores_lower() -> None:
    editor, cursor = three_calls_done()
    before = _context(editor, cursor)
    editor.session.reject(answer(editor, cursor).id, "ignored")
    cursor = add_strict(editor, "d")
    after = _context(editor, cursor)
    assert after.verdicts.last_declined and not before.verdicts.last_declined
    candidate = max(
        (
            c
            for c in editor.session.engine.rank(
                editor.session, after.request, editor.session.kinds, frozenset()
            ).candidates
        ),
        key=lambda c: c.score,
    )
    assert request_features(after, candidate)["last_declined"] == 1.0
    undeclined = SuggestContext.for_request(editor.session, after.request, after.state, after.kinds, frozenset())
    assert request_features(undeclined, candidate)["last_declined"] == 0.0
    ranker = Ranker()
    assert ranker.probability(candidate, after) < ranker.probability(candidate, undeclined)
