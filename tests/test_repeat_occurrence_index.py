"""The repeat suggester reads its rules' anchors off the document's index of
occurrences (:class:`nextedit.text.occurrence_index.OccurrenceIndex`), and a
search whose anchor stands nowhere is not set up: the proposals are those of
a search that scans the text, request after request."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.suggest.repeat.synthesis import Proposal, synthesize
from nextedit.text import Document
from nextedit.text.occurrence_index import OccurrenceIndex
from tests.helpers.repeat import Editor

FUNCTION = "def f{i}(items):\n    total = 0\n    for item in items:\n        total += item\n    return total\n\n"


class MirroredEditor(Editor):
    """An :class:`Editor` whose every change also goes to a :class:`Document`, as an editor's would."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.document = Document("file:///t.py", "python", 1, text)

    def change(self, old: str, new: str, nth: int = 0) -> int:
        end = super().change(old, new, nth)
        start = end - len(new)
        self.document.replace(start, start + len(old), new)
        assert self.document.text == self.text
        return end


def _described(proposals: list[Proposal]) -> list[tuple[object, ...]]:
    return [
        (p.rule.before, p.rule.after, p.score, p.complete, [(s.start, s.end, s.new_text) for s in p.sites])
        for p in proposals
    ]


def _synthesize(editor: MirroredEditor, index: OccurrenceIndex | None) -> list[Proposal]:
    text = index.begin(editor.document) if index is not None else editor.text
    return synthesize(
        text, editor.edits, editor.edits[-1].new_end, max_sources=20, max_proposals=4, occurrence_index=index
    )


_OPS = st.lists(
    st.tuples(st.sampled_from(["edit", "undo", "rename", "top"]), st.integers(0, 15)), min_size=1, max_size=8
)


@settings(max_examples=30, deadline=None)
@given(ops=_OPS)
def test_with_the_index_the_proposals_are_those_of_a_scan(ops: list[tuple[str, int]]) -> None:
    editor = MirroredEditor("".join(FUNCTION.format(i=i) for i in range(16)))
    editor.change("total = 0", "total = 10", nth=3)
    index = OccurrenceIndex()
    assert _described(_synthesize(editor, index)) == _described(_synthesize(editor, None))
    for op, n in ops:
        zeros = editor.text.count("total = 0\n")
        tens = editor.text.count("total = 10")
        if op == "edit" and zeros:  # the change again: every site below moves
            editor.change("total = 0\n", "total = 10\n", nth=n % zeros)
        elif op == "undo" and tens:  # a site's anchor comes back
            editor.change("total = 10", "total = 0", nth=n % tens)
        elif op == "rename" and f"def f{n}(" in editor.text:  # the anchor of no rule
            editor.change(f"def f{n}(", f"def renamed_{n}(")
        elif op == "top":  # above everything: every start shifts
            editor.change("def ", "# note\ndef ")
        assert _described(_synthesize(editor, index)) == _described(_synthesize(editor, None))


def test_the_last_site_of_a_rule_is_found_through_the_index() -> None:
    editor = MirroredEditor(FUNCTION.format(i=0) + FUNCTION.format(i=1))
    editor.change("total = 0", "total = 10")
    index = OccurrenceIndex()
    _synthesize(editor, index)  # the index learns the anchors
    editor.change("def f0(", "# note\ndef f0(")  # everything moves down
    proposals = _synthesize(editor, index)
    assert _described(proposals) == _described(_synthesize(editor, None))
    site = editor.text.index("total = 0")
    assert any(site <= s.start <= site + len("total = 0") for p in proposals for s in p.sites)
