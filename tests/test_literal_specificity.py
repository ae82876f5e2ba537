"""A rule's literal specificity: the weight of its fixed text, counted up to the cap.

The ranker reads ``min(specificity, 20)`` and the synthesis compares it with
1.5 and 4, so counting stops at :data:`~nextedit.suggest.model.SPECIFICITY_CAP`. Whatever the
template, the capped figure is the full count's, capped.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from nextedit.suggest.model import SPECIFICITY_CAP
from nextedit.suggest.repeat.model import Rule
from nextedit.suggest.repeat.rules import _KEYWORDS, _kind_weight, literal_specificity
from nextedit.suggest.repeat.tokens import IDENT, tokenize


def _full_count(before: tuple[str | int, ...]) -> float:
    total = 0.0
    for part in before:
        if isinstance(part, str):
            for tok in tokenize(part):
                total += 0.5 if tok.kind == IDENT and tok.text in _KEYWORDS else _kind_weight(tok.kind, len(tok.text))
    return total


def _rule(before: tuple[str | int, ...]) -> Rule:
    return Rule(before=before, after=before, hole_kinds=(), evidence=1, specificity=0.0, examples=(), own_pattern=None)


_PIECES = st.sampled_from(["self.", "process_as_html", "(t, tb)", '"GET"', "42", " return ", "\n    ", "if", "::", ","])
_PARTS = st.one_of(st.lists(_PIECES, max_size=40).map("".join), st.integers(0, 2))


@given(st.lists(_PARTS, max_size=6).map(tuple))
def test_the_specificity_is_the_full_count_capped(before: tuple[str | int, ...]) -> None:
    assert literal_specificity(_rule(before)) == min(_full_count(before), SPECIFICITY_CAP)


def test_a_long_literal_counts_as_the_cap() -> None:
    long_line = "payload.issues = payload.issues.concat(result.issues.map(iss => prefixIssues(key, iss)));" * 20
    assert literal_specificity(_rule((long_line,))) == SPECIFICITY_CAP
    assert literal_specificity(_rule(("ok",))) == _full_count(("ok",)) < SPECIFICITY_CAP
