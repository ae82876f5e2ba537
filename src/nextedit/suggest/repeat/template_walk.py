"""A template rule's matches found by walking its parts, without compiling its regex.

Owns :func:`walk_plan`, :func:`literal_plan` and :func:`walk_finditer`. A rule's before template
(literal pieces and holes, :class:`~nextedit.suggest.repeat.model.Rule`)
compiles to a regex (``model._compile``). Python's ``re`` parses a pattern
in pure Python, so a big example's template costs a millisecond or more to
compile. On the traces one request could compile 50 to 70 of them (a
removed list entry with 16 holes, a long ``assert`` line per test): up to
100 ms on their own (``benchmarks/results/repeat-template-walk.md``).

Most templates read one way only: each hole's text ends where the next part
can begin. Then the regex has no choice to backtrack over, and its leftmost
match at each start of the first literal piece is found by walking the parts
in order:

- a literal piece is compared with ``str.startswith``;
- a first occurrence of a hole is matched with its kind's regex, one per kind,
  compiled once for the process;
- a repeated hole must repeat its text, as the regex's back-reference does.

The word-boundary assertions are checked as the regex checks them: the one
before looks behind ``pos``, and the one after treats ``endpos`` as the end.

A template reads one way only when it starts with a literal piece and every
first occurrence of a hole is a string, or is followed by the template's end
or by a literal that cannot continue it. An identifier cannot be continued
by a literal that starts with a non-word character; a number cannot be
continued by one that starts with neither a word character nor a dot. Other
templates return no plan, and the site search runs their regex.
``tests/test_repeat_template_walk.py`` checks the walk against the regex on
generated templates and texts.

Must not know where rules come from or what is done with their matches.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from nextedit.suggest.repeat.model import (
    Rule,
    group_name,
    hole_pattern,
    stands_apart,
    template_boundaries,
)
from nextedit.suggest.repeat.tokens import IDENT, NUMBER, STRING
from nextedit.text.lexical import is_plain_word_char

__all__ = ["WalkMatch", "WalkPlan", "literal_plan", "walk_finditer", "walk_plan"]


@functools.cache
def _hole_regex(kind: str) -> re.Pattern[str]:
    return re.compile(hole_pattern(kind))


# a part of a plan: a literal piece; (group name, its kind's regex) for a
# hole's first occurrence; (group name,) for a repeat of it
_Part = str | tuple[str, re.Pattern[str]] | tuple[str]


class WalkPlan:
    """How to walk a template: its first part (a literal piece, found with
    ``str.find``), the parts after it, and the word-boundary assertions its
    regex makes before and after."""

    __slots__ = ("first", "rest", "left", "right")

    def __init__(self, first: str, rest: tuple[_Part, ...], left: bool, right: bool) -> None:
        self.first = first
        self.rest = rest
        self.left = left
        self.right = right


def _ends_alone(kind: str, following: str | int | None) -> bool:
    """Whether a hole of ``kind`` followed by ``following`` (a literal piece,
    another hole, or None at the template's end) can match one text only at
    a given start: its kind's longest match, or a string's only one."""
    if kind == STRING:
        return True  # a quote closes it: the first one not escaped
    if following is None:
        return True  # the template ends with "no word character after": only the longest match has none
    if not isinstance(following, str) or is_plain_word_char(following[0]):
        return False
    if kind == IDENT:
        return True
    return kind == NUMBER and not following.startswith(".")


def walk_plan(rule: Rule) -> WalkPlan | None:
    """The rule's plan, when its regex can be replaced by a walk of its
    template (see the module docstring); None otherwise. Kept on the rule."""
    cached = rule.info.get("_walk")
    if cached is not None:
        return cached or None
    plan = _plan(rule)
    rule.info["_walk"] = plan if plan is not None else ()
    return plan


def _plan(rule: Rule) -> WalkPlan | None:
    before = rule.before
    if rule.own_pattern is not None or not rule.hole_kinds or not before or not isinstance(before[0], str):
        return None
    parts: list[_Part] = []
    seen: set[int] = set()
    for i, part in enumerate(before):
        if isinstance(part, str):
            parts.append(part)
            continue
        name = group_name(part)
        if part in seen:
            parts.append((name,))
            continue
        kind = rule.hole_kinds[part]
        if kind not in (IDENT, NUMBER, STRING):
            return None
        if not _ends_alone(kind, before[i + 1] if i + 1 < len(before) else None):
            return None
        seen.add(part)
        parts.append((name, _hole_regex(kind)))
    left, right = template_boundaries(before)
    first = parts[0]
    assert isinstance(first, str)  # checked above: before[0] is a literal piece
    return WalkPlan(first, tuple(parts[1:]), left, right)


def literal_plan(literal: str) -> WalkPlan:
    """The plan of a template that is one literal piece (a literal rule's,
    ``Rule.plain_literal``): found with ``str.find``, never compiled. Not
    cached: it costs two character tests, and a cache would keep pasted
    blocks alive after their rules are gone."""
    left, right = template_boundaries((literal,))
    return WalkPlan(literal, (), left, right)


class WalkMatch:
    """A match found without running a regex — a template walk's, or a
    literal's found with ``str.find`` (no groups, no rule): the part of
    ``re.Match`` the site search reads."""

    __slots__ = ("_text", "_start", "_end", "_groups", "_rule", "_endpos")

    def __init__(self, text: str, start: int, end: int, groups: dict[str, str], rule: Rule | None, endpos: int) -> None:
        self._text, self._start, self._end, self._groups = text, start, end, groups
        self._rule, self._endpos = rule, endpos

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def group(self, index: int | str = 0) -> str:
        if index == 0:
            return self._text[self._start : self._end]
        if isinstance(index, str) and index in self._groups:
            return self._groups[index]
        raise IndexError("no such group")

    def expand(self, template: str) -> str:
        """What the regex's match would expand to (a replacement the site
        search cannot read itself: never one a rule's maker writes)."""
        if self._rule is None:
            whole = self.group()
            m = re.compile(re.escape(whole)).match(whole)
        else:
            m = self._rule.regex.match(self._text, self._start, self._endpos)
        if m is None or m.end() - m.start() != self._end - self._start:
            # the walk and the regex disagree: a bug, which costs this site, not the request
            raise IndexError("the walk and the rule's regex disagree")
        return m.expand(template)


def walk_finditer(text: str, rule: Rule | None, plan: WalkPlan, pos: int, endpos: int) -> Iterator[WalkMatch]:
    """What ``rule.regex.finditer(text, pos, endpos)`` yields, as walks of
    ``plan`` (:func:`walk_plan`, or :func:`literal_plan` with no rule): left
    to right, not overlapping."""
    first = plan.first
    q = text.find(first, pos, endpos)
    while q >= 0:
        found = _walk(text, plan, q, q + len(first), endpos)
        if found is None:
            q = text.find(first, q + 1, endpos)
            continue
        end, groups = found
        yield WalkMatch(text, q, end, groups, rule, endpos)
        q = text.find(first, end, endpos)


# the groups of a walk with no holes (a literal's): never written to
_NO_GROUPS: dict[str, str] = {}


def _walk(text: str, plan: WalkPlan, start: int, at: int, endpos: int) -> tuple[int, dict[str, str]] | None:
    """Where the template's one reading from ``start`` ends, its first part
    already found there up to ``at``, and its holes' texts; None when it does
    not match."""
    groups: dict[str, str] = {} if plan.rest else _NO_GROUPS
    for part in plan.rest:
        if isinstance(part, str):
            if not text.startswith(part, at, endpos):
                return None
            at += len(part)
        elif len(part) == 2:
            name, regex = part
            m = regex.match(text, at, endpos)
            if m is None:
                return None
            groups[name] = m.group()
            at = m.end()
        else:
            seen = groups[part[0]]
            if not text.startswith(seen, at, endpos):
                return None
            at += len(seen)
    if not stands_apart(text, start, at, endpos, plan.left, plan.right):
        return None
    return at, groups
