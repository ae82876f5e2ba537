"""A rename's request features read the occurrence its ``edit`` fallback renames."""

from __future__ import annotations

from nextedit.suggest.model import SuggestionKinds, SuggestRequest
from nextedit.suggest.rank import request_features
from nextedit.suggest.rename import RenameSuggester
from nextedit.suggest.suggester import SuggestContext
from tests.helpers.session import Editor

URI = "file:///w/f.py"
TEXT = "def f(items):\n    a = len(items)\n    b = sorted(items)\n    return items\n"


def test_a_rename_is_read_at_the_next_occurrence_not_the_binding_first() -> None:
    """The parameter (the binding's first occurrence) lies above the cursor;
    the occurrence the edit renames lies below it: so does the candidate."""
    editor = Editor(SuggestionKinds())
    editor.open(URI, "python", TEXT)
    start = TEXT.index("len(items)") + len("len(")
    cursor = editor.replace(URI, start, start + len("items"), "values")
    state = editor.session.documents[URI]
    request = SuggestRequest(URI, state.document.version, cursor)
    context = SuggestContext.for_request(editor.session, request, state, SuggestionKinds(), frozenset())
    proposal = RenameSuggester().propose(context)
    assert isinstance(proposal, list)
    (rename,) = [c for c in proposal if c.kind == "rename"]
    assert [context.document.line_of(e.start_cp) for e in rename.edits] == [0, 2, 3]
    assert rename.fallback_edits is not None
    assert [context.document.line_of(e.start_cp) for e in rename.fallback_edits] == [2]
    features = request_features(context, rename)
    assert features["below_cursor"] == 1.0
    assert features["log_line_distance"] == 0.6931471805599453  # one line: the next occurrence, not the parameter
