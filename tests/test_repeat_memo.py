"""An edit's example and rules are worked out once and moved with the edit:
after the developer types above (or between) earlier edits, the proposals are
exactly those a fresh synthesis makes, at the sites where the text now stands."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.suggest.repeat import examples, rules
from nextedit.suggest.repeat.synthesis import PastEdit, Proposal, synthesize
from tests.helpers.repeat import Editor

FUNCTION = "def f{i}(items, limit):\n    total = compute(items, {i})\n    return check(total, limit)\n\n"


def _fresh() -> None:
    examples._MEMO.clear()
    rules._RULES.clear()
    rules._AGREE.clear()
    rules._ANTI_UNIFIED.clear()
    rules._SINGLE.clear()


def _described(proposals: list[Proposal]) -> list[tuple[object, ...]]:
    return [
        (
            p.rule.before,
            p.rule.after,
            p.rule.examples,
            p.rule.info.get("a_span"),
            p.score,
            [(s.start, s.end, s.new_text) for s in p.sites],
        )
        for p in proposals
    ]


@pytest.mark.parametrize(
    ("typed_in", "old", "new"),
    [
        ("f0", "total", "result"),  # above both examples, longer
        ("f2", "items, limit", "xs, limit"),  # between them, shorter
        ("f7", "limit", "cap"),  # below both: nothing moves
    ],
)
def test_moved_examples_propose_what_a_fresh_synthesis_proposes(typed_in: str, old: str, new: str) -> None:
    editor = Editor("".join(FUNCTION.format(i=i) for i in range(8)))
    for name in ("f1", "f3"):
        at = editor.text.index(f"def {name}(")
        editor.change("check(total, limit)", "check(total, limit, strict=True)", nth=editor.text[:at].count("check("))
    _fresh()
    before = synthesize(editor.text, editor.edits, editor.edits[-1].new_end, max_sources=20, max_proposals=4)
    assert before, "two examples of the same change propose the other functions"

    at = editor.text.index(f"def {typed_in}(")
    editor.change(old, new, nth=editor.text[:at].count(old))
    cursor = editor.edits[-2].new_end
    memoised = synthesize(editor.text, editor.edits, cursor, max_sources=20, max_proposals=4)
    _fresh()
    fresh = synthesize(editor.text, editor.edits, cursor, max_sources=20, max_proposals=4)
    assert _described(memoised) == _described(fresh)
    # the proposals name the examples where they stand now
    for proposal in memoised:
        for example in proposal.rule.examples:
            assert editor.text.startswith(example.new, example.start)


def _rule_facts(found: list[rules.Rule]) -> list[tuple[object, ...]]:
    return [
        (
            r.before,
            r.after,
            r.hole_kinds,
            r.evidence,
            r.specificity,
            r.examples,
            r.replacement,
            {k: v for k, v in r.info.items() if not k.startswith("_") and k != "passed_over"},
        )
        for r in found
    ]


def test_the_same_edit_in_function_after_function_is_anti_unified_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each function's window differs (its name three lines up), the rules of
    the edit and the one before it do not: they are made once and moved."""
    body = (
        "def handler_{i}(request, timeout):\n    log.debug('start')\n    total = 0\n"
        "    for item in request.items:\n        total += item.size\n    return total\n\n"
    )
    editor = Editor("".join(body.format(i=i) for i in range(12)))
    made = []
    anti_unify = rules._anti_unify
    monkeypatch.setattr(rules, "_anti_unify", lambda a, b: made.append(a) or anti_unify(a, b))
    _fresh()
    for i in range(2, 8):
        at = editor.text.index(f"def handler_{i}(")
        editor.change("total = 0", "total = 1", nth=editor.text[:at].count("total = 0"))
        memoised = _described(synthesize(editor.text, editor.edits, editor.edits[-1].new_end, max_proposals=4))
    assert len(made) == 1, "one anti-unification for the five pairs of the same local text"
    assert memoised, "the change is proposed in the functions not yet changed"
    _fresh()
    assert memoised == _described(synthesize(editor.text, editor.edits, editor.edits[-1].new_end, max_proposals=4))


_TOKEN = st.sampled_from(["a", "bb", "the", "x1", "(", ")", ",", "=", "42", "'s'", "#"])
_WORDS = st.lists(st.one_of(_TOKEN, st.sampled_from(["\n", "    "])), max_size=12)
# the shared tokens around the change: about as many as the widest rule's context
_CORE = st.lists(_TOKEN, min_size=5, max_size=9)
_SEPARATORS = st.sampled_from([" ", "\n", "\n    ", " ;\n"])


# the same change amid the same few tokens, with anything around them (on the
# same line or the lines above and below), made three times
_REPEATED_CHANGE = given(
    change=st.tuples(
        st.lists(st.tuples(_WORDS, _SEPARATORS, _SEPARATORS, _WORDS), min_size=3, max_size=3),
        _CORE,
        _CORE,
        st.sampled_from(["0", "value", "f(a)", "", "x, y"]),
        st.sampled_from(["1", "amount", "g(a, b)", "z", ""]),
    )
)
# (places: (front, left gap, right gap, back) each, tokens left of the change, right of it, old, new)
_Change = tuple[list[tuple[list[str], str, str, list[str]]], list[str], list[str], str, str]


def _repeated_examples(
    outside: list[tuple[list[str], str, str, list[str]]],
    core_left: list[str],
    core_right: list[str],
    old: str,
    new: str,
) -> list[examples.EditExample] | None:
    """The examples of the change made at each of ``outside``'s places
    (None when the change is no change, or an edit gives no example)."""
    if old == new:
        return None
    text, edits = "", []
    for seq, (front, left_gap, right_gap, back) in enumerate(outside, start=1):
        text += f"{' '.join(front)}{left_gap}{' '.join(core_left)} <"
        edits.append(PastEdit(len(text), old, new, seq))
        text += f"{new}> {' '.join(core_right)}{right_gap}{' '.join(back)}\n#\n"
    found = [examples.example_from_edit(text, e) for e in edits]
    return None if any(ex is None for ex in found) else [ex for ex in found if ex is not None]


@settings(max_examples=300, deadline=None)
@_REPEATED_CHANGE
def test_anti_unified_rules_are_those_of_a_fresh_anti_unification(change: _Change) -> None:
    """Every pair's rules, as the memo serves them (made for another pair
    and moved, or made here), are a fresh anti-unification's."""
    found = _repeated_examples(*change)
    if found is None:
        return
    _fresh()
    for last in found:
        for partner in found:
            if partner is not last:
                made, offset = rules._anti_unified(last, partner)
                served = made if offset is None else rules._moved(made, offset, last, partner)
                assert _rule_facts(served) == _rule_facts(rules._anti_unify(last, partner))


@settings(max_examples=300, deadline=None)
@_REPEATED_CHANGE
def test_one_example_rules_are_those_made_afresh(change: _Change) -> None:
    """Every example's one-example rules, as the memo serves them (made for
    another example and moved, or made here), are those made afresh."""
    found = _repeated_examples(*change)
    if found is None:
        return
    _fresh()
    for ex in found:
        made, offset = rules._one_example_rules(ex)
        served = made if offset is None else rules._moved(made, offset, ex, None)
        assert _rule_facts(served) == _rule_facts(rules._single_rules(ex))
