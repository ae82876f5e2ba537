"""A document's memory of the rules found in too many places
(:class:`nextedit.suggest.repeat.scan_memory.ScanMemory`) never changes an
answer: when the text those searches read changes (the document reopened
with other text, a site edited away above the examples) or the developer's
own edits there change, the rule is searched again and its sites offered."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.suggest.model import Candidate
from nextedit.suggest.repeat import examples, synthesis
from nextedit.suggest.repeat import suggester as repeat_suggester
from nextedit.suggest.repeat.examples import EditExample, ExampleMemory, example_from_edit
from nextedit.suggest.repeat.scan_memory import ScanMemory
from nextedit.suggest.repeat.suggester import RepeatEditSuggester
from nextedit.suggest.repeat.synthesis import PastEdit, Proposal, make_rule, synthesize
from tests.helpers.repeat import Editor, suggest_context

FUNCTION = "def f{i}(items):\n    total = 0\n    for item in items:\n        total += item\n    return total\n\n"
# enough text after the functions that a search stopping at their sites has not read it all
FILLER = "".join(f"def g{i}():\n    return {i}\n\n" for i in range(400))


def _text(functions: int = 16) -> str:
    return "".join(FUNCTION.format(i=i) for i in range(functions)) + FILLER


def _described(proposals: list[Proposal]) -> list[tuple[object, ...]]:
    return [
        (p.rule.before, p.rule.after, p.rule.examples, p.score, [(s.start, s.end, s.new_text) for s in p.sites])
        for p in proposals
    ]


def _synthesize(
    editor: Editor, memory: ScanMemory | None, example_memory: ExampleMemory | None = None
) -> list[Proposal]:
    return synthesize(
        editor.text,
        editor.edits,
        editor.edits[-1].new_end,
        max_sources=20,
        max_proposals=4,
        memory=memory,
        example_memory=example_memory,
    )


def _offers_total_1(proposals: list[Proposal]) -> bool:
    return any("total = 1" in p.rule.after_text for p in proposals)


def _assert_offered_as_by_a_fresh_search(editor: Editor, memory: ScanMemory) -> None:
    """The sites left are few enough to offer, and the memory's answer is a fresh search's."""
    again = _synthesize(editor, memory)
    fresh = _synthesize(editor, None)
    assert _offers_total_1(fresh)
    assert _described(again) == _described(fresh)


def _remove_unrecorded(editor: Editor, old: str, after: str = "") -> None:
    """The first ``old`` after ``after`` goes, without an edit in the
    history (the document reopened with other text)."""
    editor.change(old, "", nth=editor.text[: editor.text.index(after)].count(old))
    editor.edits.pop()


@pytest.mark.parametrize("removed", [(5, 6, 7), (13, 14, 15)])
def test_a_site_edited_away_within_the_searched_text_is_searched_again(removed: tuple[int, ...]) -> None:
    editor = Editor(_text())
    editor.change("total = 0", "total = 1")  # in f0: nothing below moves the example
    memory = ScanMemory()
    first = _synthesize(editor, memory)
    assert _described(first) == _described(_synthesize(editor, None))
    assert not _offers_total_1(first), "15 other sites: too many for one example"
    assert len(memory) > 0, "the verdicts are remembered"

    # three of the sites go (between the example and the last site, or the
    # last ones): 12 are left, few enough to offer
    for i in removed:
        _remove_unrecorded(editor, "    total = 0\n", after=f"def f{i}(")
    _assert_offered_as_by_a_fresh_search(editor, memory)


def test_an_edit_of_the_developer_over_sites_is_searched_again() -> None:
    editor = Editor(_text())
    editor.change("total = 0", "total = 1", nth=9)
    memory = ScanMemory()
    assert not _offers_total_1(_synthesize(editor, memory))
    assert len(memory) > 0

    # the same text, but the first three functions are now the developer's own
    # (pasted): their sites are not offered, 12 are left
    pasted = "".join(FUNCTION.format(i=i) for i in range(3))
    assert editor.text.startswith(pasted)
    editor.seq += 1
    editor.edits.append(PastEdit(0, "", pasted, editor.seq))
    _assert_offered_as_by_a_fresh_search(editor, memory)


def test_an_edit_below_the_searched_text_keeps_the_verdicts() -> None:
    editor = Editor(_text())
    editor.change("total = 0", "total = 1", nth=9)
    memory = ScanMemory()
    _synthesize(editor, memory)
    remembered = len(memory)
    assert remembered > 0
    # far below the sites: no search read there, the verdicts stand and are used
    editor.change("return 390", "return 391")
    searched: list[object] = []
    memory_too_many = memory.too_many

    def counting(text: str, key: object, exclude: object) -> bool | None:
        verdict = memory_too_many(text, key, exclude)  # type: ignore[arg-type]
        searched.append(verdict)
        return verdict

    memory.too_many = counting  # type: ignore[method-assign]
    again = _synthesize(editor, memory)
    assert _described(again) == _described(_synthesize(editor, None))
    assert any(verdict is not None for verdict in searched), "a remembered verdict was used"


_OPS = st.lists(
    st.tuples(st.sampled_from(["edit", "remove", "restore", "far"]), st.integers(0, 15)), min_size=1, max_size=5
)


@settings(max_examples=25, deadline=None)
@given(ops=_OPS)
def test_with_a_memory_the_proposals_are_those_of_a_fresh_search(ops: list[tuple[str, int]]) -> None:
    editor = Editor(_text())
    editor.change("total = 0", "total = 1", nth=9)
    memory, example_memory = ScanMemory(), ExampleMemory()
    assert _described(_synthesize(editor, memory, example_memory)) == _described(_synthesize(editor, None))
    for op, n in ops:
        count = editor.text.count("    total = 0\n")
        if op == "edit" and count:
            editor.change("total = 0", "total = 1", nth=n % count)
        elif op == "remove" and count:
            editor.change("    total = 0\n", "", nth=n % count)
            editor.edits.pop()
        elif op == "restore":
            at = editor.text.index("    for item in items:", editor.text.index(f"def f{n}("))
            if not editor.text.startswith("    total = ", at - 14):
                editor.text = editor.text[:at] + "    total = 0\n" + editor.text[at:]
                editor.edits = [
                    e if e.start < at else PastEdit(e.start + 14, e.old, e.new, e.seq) for e in editor.edits
                ]
        elif op == "far" and f"return {100 + n}\n" in editor.text:
            editor.change(f"return {100 + n}\n", f"return {200 + n}\n")
        if not editor.edits:
            continue
        assert _described(_synthesize(editor, memory, example_memory)) == _described(_synthesize(editor, None))


def _answer(found: object) -> list[tuple[object, ...]]:
    if not isinstance(found, list):
        return [found]
    return [(c.edits, c.score, c.fingerprint) for c in found if isinstance(c, Candidate)]


def test_a_document_reopened_with_other_text_gets_a_fresh_answer() -> None:
    repeat = RepeatEditSuggester()
    editor = Editor(_text())
    editor.change("total = 0", "total = 1")
    first = _candidates(repeat.propose(suggest_context(editor)))
    assert not any(c.features.family == "tokens" for c in first), "the token rule has too many sites"
    assert any(len(memory) for memory in repeat._memories.values()), "its verdict is remembered"

    # closed, and opened again (same uri) with three of the functions' sites gone
    reopened = Editor(_text())
    for i in (5, 6, 7):
        _remove_unrecorded(reopened, "    total = 0\n", after=f"def f{i}(")
    reopened.change("total = 0", "total = 1")
    repeat_suggester._CACHE.clear()
    kept = repeat.propose(suggest_context(reopened))
    repeat_suggester._CACHE.clear()
    fresh = RepeatEditSuggester().propose(suggest_context(reopened))
    assert any(c.features.family == "tokens" and "total = 1" in c.fingerprint for c in _candidates(fresh))
    assert _answer(kept) == _answer(fresh)


def _candidates(found: object) -> list[Candidate]:
    return [c for c in found if isinstance(c, Candidate)] if isinstance(found, list) else []


def test_a_line_rewrite_past_its_limit_is_looked_for_again_when_its_lines_change() -> None:
    repeat = RepeatEditSuggester()
    editor = Editor(_text(64))
    editor.change("total = 0", "total = 1")  # in f0: the line stands in 63 other functions
    first = _candidates(repeat.propose(suggest_context(editor)))
    assert not any(c.features.family == "clone" for c in first), "more places than the line rules' limit"

    # three of them go (the document reopened with other text): 60 are left
    for i in (5, 6, 7):
        _remove_unrecorded(editor, "    total = 0\n", after=f"def f{i}(")
    repeat_suggester._CACHE.clear()
    kept = repeat.propose(suggest_context(editor))
    repeat_suggester._CACHE.clear()
    fresh = RepeatEditSuggester().propose(suggest_context(editor))
    assert any(c.features.family == "clone" for c in _candidates(fresh))
    assert _answer(kept) == _answer(fresh)


def test_a_rule_of_the_same_pattern_whose_rewrite_already_stands_is_searched_again() -> None:
    # f(a, 2) stands on 10 lines already; f(a) on 12: "f(a" matches all 22
    text = "x = f(a, 2)\n" * 10 + "x = f(a)\n" * 12 + FILLER
    example = (PastEdit(len(text) - 1, "", "\n", 1),)
    writes_1 = make_rule(["f(a"], ["f(a, 1"], [], 1, 5.0, example)
    writes_2 = make_rule(["f(a"], ["f(a, 2"], [], 1, 5.0, example)
    memory = ScanMemory()
    first = synthesis._Search(text, [], None, memory)
    assert first.sites(writes_1, 12)[0] is None, "22 sites: too many"
    assert len(memory) > 0

    # the next request, the same text: "f(a, 2" is already there at 10 of them
    again = synthesis._Search(text, [], None, memory).sites(writes_2, 12)[0]
    fresh = synthesis._Search(text, [], None, None).sites(writes_2, 12)[0]
    assert fresh is not None and len(fresh) == 12
    assert again == fresh

    # "f(a, 3" stands nowhere: too many, as the other rule's verdict says
    writes_3 = make_rule(["f(a"], ["f(a, 3"], [], 1, 5.0, example)
    assert synthesis._Search(text, [], None, memory).sites(writes_3, 12)[0] is None
    assert synthesis._Search(text, [], None, None).sites(writes_3, 12)[0] is None


def _example_facts(example: EditExample | None) -> tuple[object, ...] | None:
    if example is None:
        return None
    return (
        example.edit,
        example.window_start,
        example.before,
        example.after,
        example.p,
        example.s,
        example.clipped,
        [(t.kind, t.text, t.start, t.end) for t in example.b_toks],
        [(t.kind, t.text, t.start, t.end) for t in example.a_toks],
    )


def test_an_older_edits_context_edited_again_gives_its_new_example() -> None:
    editor = Editor(_text())
    editor.change("total = 0", "total = 1", nth=3)
    remembered = ExampleMemory()
    edit = editor.edits[-1]
    assert _example_facts(remembered.example(editor.text, edit)) == _example_facts(example_from_edit(editor.text, edit))
    # the line below it (in its window) changes; then a line far above (it moves)
    editor.change("for item in items", "for entry in items", nth=3)
    editor.change("return total", "return total  # sum", nth=0)
    edit = editor.edits[0]
    mine = remembered.example(editor.text, edit)
    assert mine is not None and "for entry in items" in mine.after
    assert _example_facts(mine) == _example_facts(example_from_edit(editor.text, edit))


_SNIPPETS = st.sampled_from(["x", "total", " = 1", "\n", "\n    ", "(a, b)", "", "# note\n"])


@settings(max_examples=60, deadline=None)
@given(
    lines=st.integers(1, 40),
    ops=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 12), _SNIPPETS), min_size=1, max_size=8),
)
def test_a_remembered_example_is_the_one_worked_out_afresh(lines: int, ops: list[tuple[float, int, str]]) -> None:
    """Edits anywhere — above an older edit (it moves), in its window, at the
    text's start and end — and every recent edit's example from the memory
    is the one :func:`example_from_edit` works out in the text as it stands."""
    editor = Editor("".join(f"    value{i} = compute(a, {i})\n" for i in range(lines)))
    remembered = ExampleMemory(size=8)
    for where, length, new in ops:
        start = int(where * len(editor.text))
        old = editor.text[start : start + length]
        if not old and not new:
            continue
        editor.change(old, new, nth=editor.text[:start].count(old)) if old else _insert(editor, start, new)
        for edit in editor.edits[-10:]:
            got = remembered.example(editor.text, edit)
            assert _example_facts(got) == _example_facts(example_from_edit(editor.text, edit))


def _insert(editor: Editor, at: int, new: str) -> None:
    """``new`` typed at ``at`` (Editor.change finds what it replaces by text)."""
    kept = [
        e if e.new_end <= at else PastEdit(e.start + len(new), e.old, e.new, e.seq)
        for e in editor.edits
        if not (e.start < at < e.new_end)
    ]
    editor.seq += 1
    kept.append(PastEdit(at, "", new, editor.seq))
    editor.edits = kept
    editor.text = editor.text[:at] + new + editor.text[at:]


def test_the_line_break_before_an_examples_window_is_part_of_what_made_it() -> None:
    editor = Editor(_text())
    editor.change("total = 0", "total = 1", nth=3)
    edit = editor.edits[-1]
    remembered = ExampleMemory()
    remembered.example(editor.text, edit)
    ws = examples._window(editor.text, edit)[0]  # type: ignore[index]
    assert ws > 0 and editor.text[ws - 1] == "\n"
    # the line above the window joins its first line (the same length: nothing moves)
    editor.text = editor.text[: ws - 1] + " " + editor.text[ws:]
    mine = remembered.example(editor.text, edit)
    assert _example_facts(mine) == _example_facts(example_from_edit(editor.text, edit))
    assert mine is not None and mine.window_start < ws
