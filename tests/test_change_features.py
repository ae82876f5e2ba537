"""The names a candidate's change writes (:mod:`nextedit.suggest.change_features`).

A change that only moves, drops or re-punctuates the names already at its
site writes none; one that brings names the site lacks writes them, each
counted once. The ranker reads the count as ``log_new_names`` and, fitted on
the traces, trusts a change less the more new names it carries.
"""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from nextedit.suggest.change_features import new_names
from nextedit.suggest.model import SuggestionKinds, SuggestRequest, TextEditCp
from nextedit.suggest.rank import Ranker, request_features
from nextedit.suggest.suggester import SuggestContext
from tests.helpers.session import Editor
from tests.helpers.suggesters import repeat_candidate

TEXT = "result = convert(a.value, b)\nother = convert(c.value, d)\n"


def _edit(old: str, new: str, text: str = TEXT) -> TextEditCp:
    at = text.index(old)
    return TextEditCp(at, at + len(old), new)


def test_dropping_or_moving_names_writes_none() -> None:
    assert new_names(TEXT, [_edit("a.value, b", "a.value")]) == 0  # an argument deleted
    assert new_names(TEXT, [_edit("a.value", "value")]) == 0  # a qualifier dropped
    assert new_names(TEXT, [_edit("a.value, b", "b, a.value")]) == 0  # arguments swapped
    assert new_names(TEXT, [_edit("convert(a.value, b)", "convert(a.value, b,)")]) == 0


def test_names_the_site_lacks_count_once_each() -> None:
    assert new_names(TEXT, [_edit("a.value, b", "a.value, b, strict")]) == 1
    assert new_names(TEXT, [_edit("a.value, b", "a.value, b, strict=strict")]) == 1
    comment = "# convert the value before it is stored\n"
    at = TEXT.index("other")
    # "convert" and "value" are written but not replaced here: the insertion replaces nothing
    assert new_names(TEXT, [TextEditCp(at, at, comment)]) == 7


def test_every_edit_of_the_change_counts_and_numbers_are_no_names() -> None:
    edits = [_edit("a.value", "a.value[0]"), _edit("c.value", "c.value[limit]")]
    assert new_names(TEXT, edits) == 1
    assert new_names("x = ñame\n", [TextEditCp(4, 9, "ñame_2")]) == 1


@given(st.text(alphabet="ab_c1 .,()\n", max_size=40), st.data())
def test_writing_back_what_is_there_in_any_order_writes_no_name(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    pieces = data.draw(st.permutations(text[start:end].split(" ")))
    assert new_names(text, [TextEditCp(start, end, " ".join(pieces))]) == 0


URI = "file:///w/convert.py"


def test_the_ranker_trusts_a_change_less_the_more_new_names_it_writes() -> None:
    editor = Editor(SuggestionKinds())
    editor.open(URI, "python", TEXT)
    state = editor.session.documents[URI]
    context = SuggestContext.for_request(
        editor.session, SuggestRequest(URI, state.document.version, 0), state, SuggestionKinds(), frozenset()
    )
    at = TEXT.index("c.value, d") + len("c.value, d")
    plain = repeat_candidate(context, at, at, ", e", example_seq=0)
    wordy = repeat_candidate(context, at, at, ", e, strict_mode, limit_value", example_seq=0)
    assert request_features(context, plain)["log_new_names"] == math.log1p(1)
    assert request_features(context, wordy)["log_new_names"] == math.log1p(3)
    ranker = Ranker()
    assert ranker.probability(wordy, context) < ranker.probability(plain, context)
