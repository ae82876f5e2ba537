"""Repeated edits too generic to list, placed by the developer's sweep.

A rule found at more sites than its limit, or whose only fixed text is
punctuation (``)`` -> ``, ctx)``), lists nothing; when two of the developer's
edits agree on it, its next sites in the direction they went from one to the
other are offered (issue 9: 178 misses "too many sites" / "context too
generic"), marked for the ranker with the count it knows.
"""

from __future__ import annotations

from nextedit.suggest.repeat.suggester import rule_features
from nextedit.suggest.repeat.synthesis import PastEdit, Proposal, synthesize

_NAMES = ("alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta")


def _calls(count: int) -> str:
    """Calls of differently named functions, one a line: no fixed text but ``(`` and ``)`` is shared."""
    return "".join(f"    {_NAMES[i % len(_NAMES)]}{i}(x{i})\n" for i in range(count))


def _totals(count: int) -> str:
    """The same ``total = 0`` in ``count`` functions: a rule with far more sites than its limit."""
    return "".join(f"def f{i}(items):\n    total = 0\n    return total\n\n" for i in range(count))


def _add_ctx(text: str, calls: list[int]) -> tuple[str, list[PastEdit]]:
    edits = []
    for seq, i in enumerate(calls, 1):
        at = text.index(f"{_NAMES[i % len(_NAMES)]}{i}(x{i})") + len(f"{_NAMES[i % len(_NAMES)]}{i}(x{i}")
        text = text[:at] + ", ctx" + text[at:]
        # the history states earlier edits where they stand now
        edits = [PastEdit(e.start + 5 if e.start > at else e.start, e.old, e.new, e.seq) for e in edits]
        edits.append(PastEdit(at, "", ", ctx", seq))
    return text, edits


def _set_totals(text: str, functions: list[int]) -> tuple[str, list[PastEdit]]:
    edits = []
    for seq, i in enumerate(functions, 1):
        at = text.index(f"def f{i}(") + len(f"def f{i}(items):\n    total = ")
        text = text[:at] + "1" + text[at + 1 :]
        edits.append(PastEdit(at, "0", "1", seq))
    return text, edits


def _proposals(text: str, edits: list[PastEdit]) -> list[Proposal]:
    return synthesize(text, edits, edits[-1].new_end, max_sources=20, max_examples=24, max_proposals=4)


def _line_of(text: str, at: int) -> str:
    return text[text.rfind("\n", 0, at) + 1 : text.find("\n", at)]


def test_punctuation_only_rule_of_two_agreeing_edits_offers_the_next_sites_down() -> None:
    text, edits = _add_ctx(_calls(24), [3, 4])
    (proposal,) = _proposals(text, edits)
    assert proposal.rule.before_text == ")" and proposal.rule.info["sweep"]
    assert [_line_of(text, s.start).strip() for s in proposal.sites] == ["zeta5(x5)", "eta6(x6)"]


def test_punctuation_only_rule_of_one_edit_offers_nothing() -> None:
    text, edits = _add_ctx(_calls(24), [4])
    assert _proposals(text, edits) == []


def test_a_sweep_up_the_file_offers_the_sites_above() -> None:
    text, edits = _add_ctx(_calls(24), [12, 11])
    (proposal,) = _proposals(text, edits)
    assert [_line_of(text, s.start).strip() for s in proposal.sites] == ["gamma10(x10)", "beta9(x9)"]


def test_a_match_passed_over_between_the_edits_means_no_sweep() -> None:
    text, edits = _add_ctx(_calls(24), [3, 5, 6])  # 4 left alone
    assert not [p for p in _proposals(text, edits) if p.rule.info.get("sweep")]


def test_an_edit_ahead_of_the_newest_means_no_sweep() -> None:
    text, edits = _add_ctx(_calls(24), [8, 3, 4])  # back and forth: no one direction
    assert not [p for p in _proposals(text, edits) if p.rule.info.get("sweep")]


def test_a_rule_over_its_limit_offers_the_next_function_with_its_site_count_for_the_ranker() -> None:
    text, edits = _set_totals(_totals(200), [40, 41])
    proposals = [p for p in _proposals(text, edits) if p.rule.info.get("sweep")]
    assert proposals, "two agreeing edits past the limit: a sweep"
    proposal = proposals[0]
    assert text[text.rfind("def ", 0, proposal.sites[0].start) :].startswith("def f42(")
    features = rule_features(proposal, 0)
    assert features.family == "sweep"
    assert features.sites > 60  # more than the limit: the ranker prices the rule's generality


def test_a_rule_of_the_source_that_lists_its_sites_comes_before_a_sweep() -> None:
    lines = "".join(f"    r{i} = self.handle_{i}(x{i})\n" for i in range(80))
    text, edits = lines, []
    for seq, i in enumerate((10, 11), 1):
        at = text.index(f"handle_{i}(") + len(f"handle_{i}(")
        text = text[:at] + "ctx, " + text[at:]
        edits.append(PastEdit(at, "", "ctx, ", seq))
    proposals = _proposals(text, edits)
    assert proposals and not any(p.rule.info.get("sweep") for p in proposals)
