"""An edit's example and rules are worked out once and moved with the edit:
after the developer types above (or between) earlier edits, the proposals are
exactly those a fresh synthesis makes, at the sites where the text now stands."""

from __future__ import annotations

import pytest

from nextedit.suggest.repeat import examples, rules
from nextedit.suggest.repeat.synthesis import Proposal, synthesize
from tests.helpers.repeat import Editor

FUNCTION = "def f{i}(items, limit):\n    total = compute(items, {i})\n    return check(total, limit)\n\n"


def _fresh() -> None:
    examples._MEMO.clear()
    rules._RULES.clear()
    rules._AGREE.clear()


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
