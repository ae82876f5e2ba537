"""Reversals filtered whatever suggester made them (FORMAT.md's session-wide definition)."""

from __future__ import annotations

from nextedit.session import Session
from nextedit.suggest.engine import SuggestionEngine
from nextedit.suggest.model import Candidate, SuggestionKinds, TextEditCp
from nextedit.suggest.rank import Ranker
from nextedit.text import Position, Range, TextChange
from tests.helpers.suggesters import Fixed

URI = "file:///w/a.py"


def _session(text: str, candidates) -> Session:
    session = Session(
        "t", kinds=SuggestionKinds(), engine=SuggestionEngine([Fixed("fixed", candidates)], ranker=Ranker.untrained())
    )
    session.did_open(URI, "python", 1, text)
    return session


def _cand(start: int, end: int, new: str) -> Candidate:
    return Candidate("edit", URI, (TextEditCp(start, end, new),), 0.9, "fixed", ("test",), f"fixed:{start}:{new}")


def _change(session: Session, start: int, end: int, new: str) -> None:
    doc = session.documents[URI].document
    enc = session.encoding
    session.did_change(
        URI, doc.version + 1, [TextChange(Range(doc.position_at(start, enc), doc.position_at(end, enc)), new)]
    )


def _ask(session: Session):
    return session.suggest(URI, session.documents[URI].document.version, Position(0, 0))


def test_inserting_text_deleted_elsewhere_in_the_session_is_a_reversal():
    text = "a()\n    .max(1)\n    .run()\nb()\n    .run()\n"
    insert_at = text.rindex("    .run()")
    session = _session(text, [])
    start = text.index("    .max(1)\n")
    _change(session, start, start + len("    .max(1)\n"), "")
    at = session.documents[URI].document.text.rindex("    .run()")
    session.engine.suggesters[0].candidates = [_cand(at, at, "    .max(1)\n")]
    assert _ask(session) == []
    # another text is fine
    session.engine.suggesters[0].candidates = [_cand(at, at, "    .min(2)\n")]
    assert _ask(session)
    assert insert_at  # (text kept for readability)


def test_deleting_text_typed_earlier_in_the_session_is_a_reversal():
    text = "first()\nsecond()\nthird()\n"
    session = _session(text, [])
    at = text.index("second()") + len("second(")
    for i, ch in enumerate("x, y"):
        _change(session, at + i, at + i, ch)
    # many edits later, elsewhere
    _change(session, 0, 5, "one")
    now = session.documents[URI].document.text
    typed = now.index("x, y")
    session.engine.suggesters[0].candidates = [_cand(typed, typed + 4, "")]
    assert _ask(session) == []
    session.engine.suggesters[0].candidates = [_cand(now.index("third"), now.index("third") + 5, "fourth")]
    assert _ask(session)
