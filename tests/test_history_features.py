"""The ranker's view of a candidate against the developer's session
(:mod:`nextedit.suggest.history_features`): how much of the change the
developer has already done, whether the site lies ahead of their sweep,
whether it sits next to code they reworked for something else, and whether
it lies behind a developer who has worked down (or up) the file edit after
edit.

The fixture is one function opening five files; the developer adds
``, "rb"`` to some of the ``open`` calls. These pin what each feature reads on
it, that they reach the model's vector, and the changed-part reduction they
compare edits by.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from hypothesis import assume, given
from hypothesis import strategies as st

from nextedit.suggest.history_features import history_features, sweep_direction
from nextedit.suggest.model import Candidate, CandidateFeatures, SuggestionKinds, SuggestRequest, TextEditCp
from nextedit.suggest.rank import feature_vector, request_features
from nextedit.suggest.suggester import SuggestContext
from nextedit.text.affixes import changed_part
from tests.helpers.session import Editor
from tests.helpers.suggesters import repeat_candidate

URI = "file:///w/read.py"

# line 0 the header, lines 1-6 filler, 7-11 the calls (v w x y z), 12 the return
TEXT = (
    "def read(a, b, c, d, e):\n"
    + "".join(f"    k{i} = {i}\n" for i in range(6))
    + "    v = open(e)\n    w = open(a)\n    x = open(b)\n    y = open(c)\n    z = open(d)\n"
    + "    return v, w, x, y, z\n"
)

RB = ', "rb"'


def _session(*edits: tuple[str, str]) -> SuggestContext:
    """The context once the developer replaced each ``old`` (its first
    occurrence) by ``new``, in order, cursor after the last."""
    editor = Editor(SuggestionKinds())
    editor.open(URI, "python", TEXT)
    cursor = 0
    for old, new in edits:
        text = editor.text(URI)
        start = text.index(old)
        cursor = editor.replace(URI, start, start + len(old), new)
    state = editor.session.documents[URI]
    request = SuggestRequest(URI, state.document.version, cursor)
    return SuggestContext.for_request(editor.session, request, state, SuggestionKinds(), frozenset())


def _rb_at(context: SuggestContext, call: str, examples: int = 1, sites: int = 2) -> Candidate:
    """The candidate adding ``, "rb"`` to ``call`` (e.g. ``open(c``), newest edit as its example."""
    at = context.text.index(call) + len(call)
    return repeat_candidate(context, at, at, RB, features=replace(CandidateFeatures(), examples=examples, sites=sites))


def test_repeats_of_the_change_count_as_done_though_the_rule_has_one_example() -> None:
    twice = _session(("open(a)", "open(a" + RB + ")"), ("open(b)", "open(b" + RB + ")"))
    once = _session(("open(b)", "open(b" + RB + ")"))
    # the rule saw one example either way; the session shows the change made twice
    assert history_features(twice, _rb_at(twice, "open(c"))["rule_done_share"] == 2 / 4
    assert history_features(once, _rb_at(once, "open(c"))["rule_done_share"] == 1 / 3


def test_a_change_never_made_counts_only_the_rules_examples() -> None:
    context = _session(("open(a)", "open(a" + RB + ")"), ("open(b)", "open(b" + RB + ")"))
    at = context.text.index("open(c")
    other = replace(_rb_at(context, "open(c", examples=3, sites=1), edits=(TextEditCp(at, at + 4, "load"),))
    assert history_features(context, other)["rule_done_share"] == 3 / 4


def test_a_site_further_down_a_downward_sweep_is_ahead_and_one_left_above_is_not() -> None:
    context = _session(("open(a)", "open(a" + RB + ")"), ("open(b)", "open(b" + RB + ")"))
    assert history_features(context, _rb_at(context, "open(c"))["ahead_of_sweep"] == 1.0
    assert history_features(context, _rb_at(context, "open(e"))["ahead_of_sweep"] == 0.0


def test_an_upward_sweep_is_ahead_above() -> None:
    context = _session(("open(b)", "open(b" + RB + ")"), ("open(a)", "open(a" + RB + ")"))
    assert history_features(context, _rb_at(context, "open(e"))["ahead_of_sweep"] == 1.0
    assert history_features(context, _rb_at(context, "open(c"))["ahead_of_sweep"] == 0.0


def test_one_repeat_is_no_sweep() -> None:
    context = _session(("open(b)", "open(b" + RB + ")"))
    assert "ahead_of_sweep" not in history_features(context, _rb_at(context, "open(c"))


# four edits, each below the one before: lines 2, 4, 8, 9
_DOWN = (
    ("k1 = 1", "k1 = 11"),
    ("k3 = 3", "k3 = 33"),
    ("open(a)", "open(a" + RB + ")"),
    ("open(b)", "open(b" + RB + ")"),
)


def test_a_site_the_developer_passed_on_the_way_down_is_against_the_sweep() -> None:
    context = _session(*_DOWN)
    assert history_features(context, _rb_at(context, "open(e"))["against_sweep"] == 1.0  # line 7, behind
    assert history_features(context, _rb_at(context, "open(c"))["against_sweep"] == 0.0  # line 10, ahead
    assert history_features(context, _rb_at(context, "open(b"))["against_sweep"] == 0.0  # the newest edit's line


def test_on_the_way_up_a_site_below_is_against_the_sweep() -> None:
    context = _session(*reversed(_DOWN))
    assert history_features(context, _rb_at(context, "open(c"))["against_sweep"] == 1.0
    assert history_features(context, _rb_at(context, "k0 = 0"))["against_sweep"] == 0.0


def test_three_edits_or_a_turn_back_make_no_sweep() -> None:
    three = _session(*_DOWN[1:])
    assert "against_sweep" not in history_features(three, _rb_at(three, "open(e"))
    turned = _session(_DOWN[0], _DOWN[2], _DOWN[1], _DOWN[3])  # lines 2, 8, 4, 9
    assert "against_sweep" not in history_features(turned, _rb_at(turned, "open(e"))


def test_edits_on_one_line_make_no_sweep() -> None:
    assert sweep_direction((3, 5, 5, 9)) == 0
    assert sweep_direction((3, 5, 7, 9)) == 1


@given(st.lists(st.integers(0, 40), min_size=0, max_size=8))
def test_a_sweep_read_backwards_or_mirrored_runs_the_other_way(lines: list[int]) -> None:
    down = sweep_direction(tuple(lines))
    assert sweep_direction(tuple(reversed(lines))) == -down
    assert sweep_direction(tuple(-line for line in lines)) == -down
    rising = all(a < b for a, b in itertools.pairwise(lines))
    falling = all(a > b for a, b in itertools.pairwise(lines))
    assert down == (0 if len(lines) < 4 else 1 if rising else -1 if falling else 0)


def test_a_site_next_to_a_hand_made_edit_is_near_another_edit() -> None:
    reworked = _session(("open(a)", "open(a" + RB + ")"), ("return v", "return (v"), ("open(b)", "open(b" + RB + ")"))
    assert history_features(reworked, _rb_at(reworked, "open(c"))["near_other_edit"] == 1.0


def test_the_changes_own_repeats_and_a_far_edit_are_not_near_another_edit() -> None:
    # the repeats sit on the lines just above the site; the other edit six lines up
    context = _session(("k3 = 3", "k3 = 33"), ("open(a)", "open(a" + RB + ")"), ("open(b)", "open(b" + RB + ")"))
    assert history_features(context, _rb_at(context, "open(c"))["near_other_edit"] == 0.0


def test_no_history_or_another_document_reads_nothing() -> None:
    fresh = _session()
    assert history_features(fresh, _no_example(fresh)) == {}
    context = _session(("open(b)", "open(b" + RB + ")"))
    elsewhere = replace(_rb_at(context, "open(c"), uri="file:///w/other.py")
    assert history_features(context, elsewhere) == {}


def _no_example(context: SuggestContext) -> Candidate:
    at = context.text.index("open(c") + len("open(c")
    return Candidate("edit", URI, (TextEditCp(at, at, RB),), 0.5, "repeat", (), "repeat:x")


def test_the_history_features_reach_the_models_vector() -> None:
    context = _session(("open(a)", "open(a" + RB + ")"), ("open(b)", "open(b" + RB + ")"))
    candidate = _rb_at(context, "open(c")
    vector = feature_vector(candidate, request_features(context, candidate))
    assert vector["rule_done_share"] == 0.5
    assert vector["ahead_of_sweep"] == 1.0
    assert vector["near_other_edit"] == 0.0
    swept = _session(*_DOWN)
    behind = _rb_at(swept, "open(e")
    assert feature_vector(behind, request_features(swept, behind))["against_sweep"] == 1.0


_WORDS = st.text(alphabet="ab(), ", max_size=6)


@given(_WORDS, _WORDS, _WORDS, _WORDS)
def test_the_same_change_reads_alike_whatever_surrounds_it(pre: str, post: str, old: str, new: str) -> None:
    """Text shared around a change is not part of it: when ``old`` and
    ``new`` differ at both ends, the change read off ``pre+old+post ->
    pre+new+post`` is ``old -> new`` itself (blanks at its ends stripped)."""
    assume(old and new and old[0] != new[0] and old[-1] != new[-1])
    assert changed_part(pre + old + post, pre + new + post) == (old.strip(), new.strip())


@given(_WORDS, _WORDS)
def test_the_changed_part_lies_within_each_side(old: str, new: str) -> None:
    removed, inserted = changed_part(old, new)
    assert removed in old and inserted in new
    assert (removed, inserted) == ("", "") or old != new
