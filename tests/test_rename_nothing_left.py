"""A rename whose old name is gone from the text (as a word) reads no syntax tree.

Once the developer has renamed every occurrence of OLD (one hunk rewritten,
or the last site typed), nothing is left for the binding, for the same name
outside it or, with no other document open, in another file: the rename
suggester answers nothing without the re-parse its binding check would pay
(~12 ms on a C++ header whose tree is full of errors, whatever the edit).
OLD left only inside longer words (a NEW that extends it) counts as gone:
binding uses are whole identifier tokens. With another document open, the
cross-file renames still need the binding.
"""

from __future__ import annotations

from nextedit.session import Session
from nextedit.suggest.model import SuggestionKinds, SuggestRequest
from nextedit.suggest.rename.suggester import RenameSuggester
from nextedit.suggest.suggester import SuggestContext
from nextedit.text import PositionEncoding, Range, TextChange

URI = "file:///w/report.py"
OTHER = "file:///w/other.py"

TEXT = "def summary(rows):\n    count = 0\n    for row in rows:\n        count += row.size\n    return count\n"
ENC = PositionEncoding.UTF32


def _renamed_everywhere(session: Session, old: str, new: str) -> SuggestContext:
    """The developer rewrites the function with every ``old`` now ``new`` (one
    hunk) in a document parsed before; the context of the next suggest."""
    state = session.documents[URI]
    assert state.syntax is not None
    state.syntax.root  # noqa: B018 - parsed before the edit, as after an earlier suggest
    doc = state.document
    text = doc.text
    rng = Range(doc.position_at(0, ENC), doc.position_at(len(text), ENC))
    session.did_change(URI, 2, [TextChange(rng, text.replace(old, new))])
    assert state.syntax.reparse_pending
    cursor = state.document.text.index(new) + len(new)
    request = SuggestRequest(URI, 2, cursor)
    return SuggestContext.for_request(session, request, state, session.kinds, frozenset())


def test_a_rename_with_no_old_name_left_answers_nothing_and_parses_nothing() -> None:
    session = Session("t", encoding=ENC, kinds=SuggestionKinds(jump=True))
    session.did_open(URI, "python", 1, TEXT)
    context = _renamed_everywhere(session, "count", "total")
    assert "count" not in context.text
    assert not isinstance(RenameSuggester().propose(context), list)
    assert session.documents[URI].syntax.reparse_pending  # the binding check never ran


def test_an_old_name_left_only_inside_the_new_one_still_parses_nothing() -> None:
    """``count`` → ``count_all``: OLD still stands in the text, but only
    inside longer words, never as the identifier a binding use would be."""
    session = Session("t", encoding=ENC, kinds=SuggestionKinds(jump=True))
    session.did_open(URI, "python", 1, TEXT)
    context = _renamed_everywhere(session, "count", "count_all")
    assert "count" in context.text
    assert not isinstance(RenameSuggester().propose(context), list)
    assert session.documents[URI].syntax.reparse_pending


def test_an_old_name_still_standing_as_a_word_lets_the_tree_decide() -> None:
    """A whole-word ``count`` left (here in a comment the hunk did not touch):
    the binding check runs, on the re-parsed tree."""
    session = Session("t", encoding=ENC, kinds=SuggestionKinds(jump=True))
    session.did_open(URI, "python", 1, "# count the sizes\n" + TEXT)
    state = session.documents[URI]
    assert state.syntax is not None
    state.syntax.root  # noqa: B018 - parsed before the edit
    doc = state.document
    start = doc.text.index("def")
    rng = Range(doc.position_at(start, ENC), doc.position_at(len(doc.text), ENC))
    session.did_change(URI, 2, [TextChange(rng, TEXT.replace("count", "count_all"))])
    cursor = state.document.text.index("count_all") + len("count_all")
    context = SuggestContext.for_request(session, SuggestRequest(URI, 2, cursor), state, session.kinds, frozenset())
    RenameSuggester().propose(context)
    assert not state.syntax.reparse_pending


def test_with_another_document_open_the_binding_is_still_resolved() -> None:
    session = Session("t", encoding=ENC, kinds=SuggestionKinds(jump=True))
    session.did_open(URI, "python", 1, TEXT)
    session.did_open(OTHER, "python", 1, "from report import summary\n")
    context = _renamed_everywhere(session, "count", "total")
    RenameSuggester().propose(context)
    assert not session.documents[URI].syntax.reparse_pending  # resolved: a top-level name would go cross-file
