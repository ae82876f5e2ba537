"""The ranker's view of a site against the developer's example
(:mod:`nextedit.suggest.site_features`): does the change begin at the line's
start at the site as it did at the example, and does the example's line
close the brackets it opens.

A repeat of ``open(path)`` -> ``open(path, "rb")`` offered as a new line
where the example changed text mid-line is another kind of change; an
example line that reads ``open(path, "rb"`` leaves a bracket open (as a
block header or a multi-line call does). These pin both features on minimal
fixtures, that they reach the model's vector, and the bracket check's
invariants.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from nextedit.suggest.model import Candidate, SuggestionKinds, SuggestRequest
from nextedit.suggest.rank import feature_vector, request_features
from nextedit.suggest.site_features import line_closed, site_features
from nextedit.suggest.suggester import SuggestContext
from tests.helpers.session import Editor
from tests.helpers.suggesters import repeat_candidate

URI = "file:///w/read.py"

TEXT = "def read(path):\n    data = open(path)\n    meta = open(path)\n    return data, meta\n"


def _after(edit: tuple[str, str]) -> SuggestContext:
    """The context once the developer replaced ``edit[0]`` (its first
    occurrence) by ``edit[1]``, cursor after it."""
    editor = Editor(SuggestionKinds())
    editor.open(URI, "python", TEXT)
    start = TEXT.index(edit[0])
    cursor = editor.replace(URI, start, start + len(edit[0]), edit[1])
    state = editor.session.documents[URI]
    request = SuggestRequest(URI, state.document.version, cursor)
    return SuggestContext.for_request(editor.session, request, state, SuggestionKinds(), frozenset())


def _candidate(context: SuggestContext, start: int, end: int, new: str, example_seq: int | None = None) -> Candidate:
    return repeat_candidate(context, start, end, new, example_seq=example_seq)


def test_a_mid_line_change_repeated_mid_line_agrees_and_as_a_new_line_does_not() -> None:
    context = _after(("open(path)", 'open(path, "rb")'))
    text = context.text
    mid = text.index("open(path)\n    return") + len("open(path")
    same_kind = site_features(context, _candidate(context, mid, mid, ', "rb"'))
    line = text.index("    return")
    new_line = site_features(context, _candidate(context, line, line, '    f = open(path, "rb")\n'))
    assert same_kind["start_of_line_agrees"] == 1.0
    assert new_line["start_of_line_agrees"] == 0.0


def test_an_example_line_left_open_is_told_from_a_closed_one() -> None:
    closed_line = _after(("open(path)", 'open(path, "rb")'))
    left_open = _after(("open(path)", 'open(path, "rb"'))
    for context, closed in ((closed_line, 1.0), (left_open, 0.0)):
        at = context.text.index("meta = open(path)") + len("meta = open(path")
        assert site_features(context, _candidate(context, at, at, ', "rb"'))["example_line_closed"] == closed


def test_a_candidate_without_an_example_in_this_document_has_no_site_features() -> None:
    context = _after(("open(path)", 'open(path, "rb")'))
    at = context.text.index("meta")
    assert site_features(context, _candidate(context, at, at + 4, "info", example_seq=-7)) == {}


def test_the_site_features_reach_the_models_vector() -> None:
    context = _after(("open(path)", 'open(path, "rb")'))
    at = context.text.index("open(path)\n    return") + len("open(path")
    candidate = _candidate(context, at, at, ', "rb"')
    vector = feature_vector(candidate, request_features(context, candidate))
    assert vector["start_of_line_agrees"] == 1.0
    assert vector["example_line_closed"] == 1.0


def _wrapped(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``inner`` joined to itself, or put inside brackets or double quotes."""
    return st.one_of(
        st.tuples(inner, inner).map("".join),
        st.builds("({})".format, inner),
        st.builds("[{}]".format, inner),
        st.builds("{{{}}}".format, inner),
        st.builds('"{}"'.format, inner),
    )


_CLOSED = st.recursive(st.text(alphabet="ab =,.", max_size=4), _wrapped, max_leaves=8)


@given(_CLOSED, _CLOSED)
def test_closed_lines_stay_closed_when_joined_and_an_opener_left_open_is_not(a: str, b: str) -> None:
    assert line_closed(a) and line_closed(b)
    assert line_closed(a + b)
    assert not line_closed(a + "(" + b)
    assert not line_closed(a + ")" + b)


def test_a_minified_line_is_not_read() -> None:
    editor = Editor(SuggestionKinds())
    long_line = "x = [" + ", ".join(["f(a)"] * 2000) + "]\n"
    editor.open(URI, "python", long_line + "y = f(a)\n")
    start = long_line.index("f(a)")
    cursor = editor.replace(URI, start, start + 4, "f(a, b)")
    state = editor.session.documents[URI]
    context = SuggestContext.for_request(
        editor.session, SuggestRequest(URI, state.document.version, cursor), state, SuggestionKinds(), frozenset()
    )
    at = context.text.index("y = f(a") + len("y = f(a")
    assert site_features(context, _candidate(context, at, at, ", b")) == {}
