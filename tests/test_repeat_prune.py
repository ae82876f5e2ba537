"""Skipping literal rules that stand inside a literal with too many sites, or that hold a
literal matched nowhere, changes no proposal."""

from __future__ import annotations

import pytest

from nextedit.suggest.repeat import synthesis
from nextedit.suggest.repeat.synthesis import PastEdit, synthesize

FUNCTION = "def f{i}(items):\n    # total stays in this comment\n    total = 0\n    for item in items:\n        total += item\n    return total\n\n"


def _edited(functions: int, edited: list[int], old: str, new: str) -> tuple[str, list[PastEdit]]:
    """``functions`` copies of one function, ``old`` → ``new`` in the ``edited`` ones, in that order."""
    text = "".join(FUNCTION.format(i=i) for i in range(functions))
    edits = []
    for seq, i in enumerate(edited, 1):
        at = text.index(old, text.index(f"def f{i}("))
        text = text[:at] + new + text[at + len(old) :]
        edits.append(PastEdit(at, old, new, seq))
    return text, edits


def _without_pruning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(synthesis._Search, "inside_too_many", lambda self, rule, limit: False)
    monkeypatch.setattr(synthesis._Search, "longest_literals_first", lambda self, longest: None)
    monkeypatch.setattr(synthesis._Search, "holds_an_absent_literal", lambda self, rule: False)


@pytest.mark.parametrize(
    ("functions", "edited", "old", "new"),
    [
        (200, [100, 101, 102, 103], "total = 0", "total = 1"),  # many sites: the walk's next one either way
        (6, [1, 2], "total = 0", "total = 1"),  # few sites: the next functions
        (200, [50, 51, 52], "total", "amount"),
        (8, [3], "for item in items", "for item in sorted(items)"),
        (120, [0, 1], "total", "LIMIT"),  # f1 is a prefix of f10…f19, f100…
        (30, [2, 9], "items:\n", "items):\n"),
    ],
)
def test_pruned_search_proposes_the_same(
    monkeypatch: pytest.MonkeyPatch, functions: int, edited: list[int], old: str, new: str
) -> None:
    text, edits = _edited(functions, edited, old, new)
    cursor = edits[-1].start + len(new)
    pruned = synthesize(text, edits, cursor, max_sources=20, max_proposals=4)
    _without_pruning(monkeypatch)
    full = synthesize(text, edits, cursor, max_sources=20, max_proposals=4)
    assert [(p.rule.before, p.rule.after, [s.start for s in p.sites]) for p in pruned] == [
        (p.rule.before, p.rule.after, [s.start for s in p.sites]) for p in full
    ]


def test_the_same_edit_in_many_functions_searches_little(monkeypatch: pytest.MonkeyPatch) -> None:
    # out of order (no walk down the file, tests/test_repeat_walk.py): too many sites, no proposal
    text, edits = _edited(400, [200, 203, 201, 204, 202], "total = 0", "total = 1")
    scans = _count_scans(monkeypatch)
    assert synthesize(text, edits, edits[-1].start, max_sources=20, max_proposals=4) == []
    pruned = scans[0]
    _without_pruning(monkeypatch)
    scans[0] = 0
    assert synthesize(text, edits, edits[-1].start, max_sources=20, max_proposals=4) == []
    assert pruned * 4 < scans[0], (pruned, scans[0])


def _count_scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    count = [0]
    real = synthesis.scan_sites_reach

    def counting(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        count[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(synthesis, "scan_sites_reach", counting)
    return count


def _renamed_constant(functions: int) -> tuple[str, list[PastEdit]]:
    """A module constant used once per function, renamed at its definition and its first use."""
    text = "LIMIT = 10\n\n" + "".join(
        f"def f{i}(total):\n    return helper(total, LIMIT), 'x'\n\n" for i in range(functions)
    )
    edits = []
    for seq, at in enumerate((0, text.index("LIMIT", 1)), 1):
        text = text[:at] + "CAP" + text[at + 5 :]
        edits.append(PastEdit(at, "LIMIT", "CAP", seq))
    return text, edits


def test_contexts_around_a_vanished_example_are_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    text, edits = _renamed_constant(300)
    scans = _count_scans(monkeypatch)
    pruned = synthesize(text, edits, edits[-1].start + 3, max_sources=20, max_proposals=4)
    searched = scans[0]
    monkeypatch.setattr(synthesis._Search, "holds_an_absent_literal", lambda self, rule: False)
    scans[0] = 0
    full = synthesize(text, edits, edits[-1].start + 3, max_sources=20, max_proposals=4)
    assert [(p.rule.before, [s.start for s in p.sites]) for p in pruned] == [
        (p.rule.before, [s.start for s in p.sites]) for p in full
    ]
    assert searched < scans[0], (searched, scans[0])
