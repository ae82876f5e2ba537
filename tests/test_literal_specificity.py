"""A rule's literal specificity: the weight of its fixed text, counted up to the cap.

The ranker reads ``min(specificity, 20)`` and the synthesis compares it with
1.5 and 4, so counting stops at :data:`~nextedit.suggest.model.SPECIFICITY_CAP`. Whatever the
template, the capped figure is the full count's, capped.
"""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from nextedit.suggest.model import SPECIFICITY_CAP
from nextedit.suggest.repeat.examples import EditExample, example_from_edit
from nextedit.suggest.repeat.model import PastEdit, Rule
from nextedit.suggest.repeat.rules import _KEYWORDS, _kind_weight, literal_specificity, made_rules
from nextedit.suggest.repeat.tokens import IDENT, Tok, tokenize


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


# lines of code-like tokens, where two lines that share names make the same change
_WORDS = st.sampled_from(["self", "process_as_html", "t", "tb", '"GET"', "42", "return", "if", "config", "i"])
_GLUE = st.sampled_from([".", "(", ")", ", ", " ", "::", " = ", "[", "]"])
_LINE = st.lists(st.tuples(_WORDS, _GLUE).map("".join), min_size=2, max_size=10).map("".join)


@st.composite
def _two_examples(draw: st.DrawFn) -> list[EditExample]:
    """Two lines, the second a copy of the first with some names swapped
    (as many tokens), where the developer replaced the same token in each:
    the examples of those two edits."""
    first = draw(_LINE)
    swap = {t.text: draw(_WORDS) for t in tokenize(first) if draw(st.booleans())}
    second = "".join(swap.get(t.text, t.text) + gap for t, gap in _with_gaps(first))
    assume(len(tokenize(second)) == len(tokenize(first)))  # ``42`` glued to ``.i`` is one number
    at = draw(st.integers(0, len(tokenize(first)) - 1))
    new = draw(st.sampled_from(["other", "self.config", '"POST"', "f(i)", ""]))
    text, edits = "", []
    for seq, line in enumerate((first, second), 1):
        tok = tokenize(line)[at]
        head = f"{text}def f{seq}():\n    "
        edits.append(PastEdit(len(head) + tok.start, tok.text, new, seq))
        text = f"{head}{line[: tok.start]}{new}{line[tok.end :]}\n\n"
    return [ex for ex in (example_from_edit(text, e) for e in edits) if ex is not None]


def _with_gaps(line: str) -> list[tuple[Tok, str]]:
    """Each token of ``line`` with the blanks after it."""
    tokens = tokenize(line)
    ends = [t.start for t in tokens[1:]] + [len(line)]
    return [(t, line[t.end : end]) for t, end in zip(tokens, ends, strict=True)]


@given(_two_examples())
def test_rules_made_from_examples_count_their_template(examples: list[EditExample]) -> None:
    """One-example, carried-names and anti-unified rules know their
    specificity when made, from their example's tokens; it is what counting
    their template's fixed text gives. (A whole-line rule's is counted from
    its template when asked.)"""
    made = made_rules(examples)
    for rule in made.rules if made is not None else ():
        if not rule.info.get("line_rule"):
            assert rule.info.get("_literal_specificity") == min(_full_count(rule.before), SPECIFICITY_CAP)
