"""Repeated-edit values: past edits, rewrite rules, sites and proposals, and rule templates as regexes.

Owns the synthesis's vocabulary — :class:`PastEdit`, :class:`Rule` (before
and after templates of literal text and hole indices), :class:`Site`,
:class:`Proposal` — and the template machinery: rendering, compiling a
before template to a regex (holes become named groups, repeated holes
back-references, word boundaries at word-character edges), the replacement
string, and building a rule from templates (:func:`make_rule`).

Must not know how examples are built, how rules are chosen or where they
match (:mod:`nextedit.suggest.repeat.examples`,
:mod:`nextedit.suggest.repeat.rules`, :mod:`nextedit.suggest.repeat.sites`),
nor LSP/ACP or position encodings.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from nextedit.suggest.repeat.tokens import IDENT, NUMBER, STRING
from nextedit.text import lexical

_HOLE_PATTERNS = {
    IDENT: lexical.PLAIN_IDENTIFIER,
    NUMBER: lexical.NUMBER,
    STRING: r"""[rRbBuUfF]{0,2}(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""",
}


@dataclass(frozen=True, slots=True)
class PastEdit:
    """One developer edit in current-text coordinates: ``text[start:start+len(new)] == new``."""

    start: int
    old: str
    new: str
    seq: int = 0

    @property
    def new_end(self) -> int:
        return self.start + len(self.new)


@dataclass(frozen=True)
class Rule:
    """A rewrite: ``before`` and ``after`` templates (lists of str | int hole index)."""

    before: tuple[str | int, ...]
    after: tuple[str | int, ...]
    hole_kinds: tuple[str, ...]
    evidence: int  # how many examples agree
    specificity: float
    examples: tuple[PastEdit, ...]
    # a regex of its own (a line rule's), as its source: compiled on first use
    own_pattern: str | None = field(compare=False, hash=False, repr=False)
    replacement: str = field(compare=False, hash=False, repr=False, default="")
    info: dict = field(compare=False, hash=False, repr=False, default_factory=dict)

    @property
    def regex(self) -> re.Pattern[str]:
        """The before template as a regex, compiled on first use (most rules
        are judged unacceptable before any search, and most line rules are
        never searched with their own regex: 40 of 544 on zod's trace set)."""
        own = self.own_pattern
        return _compile(self.before, self.hole_kinds) if own is None else re.compile(own)  # re caches it

    @property
    def pattern_key(self) -> object:
        """What identifies the before pattern, without compiling it."""
        return self.own_pattern if self.own_pattern is not None else (self.before, self.hole_kinds)

    @functools.cached_property
    def plain_literal(self) -> str | None:
        """The before text when the pattern is one literal between the usual
        word boundaries (:func:`template_boundaries`); None otherwise (holes,
        or a regex of its own)."""
        if (
            self.own_pattern is not None
            or self.hole_kinds
            or len(self.before) != 1
            or not isinstance(self.before[0], str)
        ):
            return None
        return self.before[0]

    @property
    def before_text(self) -> str:
        return _render(self.before, self.hole_kinds)

    @property
    def after_text(self) -> str:
        return _render(self.after, self.hole_kinds)

    @property
    def literal(self) -> bool:
        return not self.hole_kinds


@dataclass(frozen=True, slots=True)
class Site:
    start: int
    end: int
    new_text: str  # replacement for text[start:end], already trimmed
    match_start: int
    match_end: int
    match_text: str


@dataclass(frozen=True)
class Proposal:
    rule: Rule
    sites: tuple[Site, ...]  # every remaining site, nearest after the cursor first
    score: float
    complete: bool = True  # False: part of the text was not searched (long lines, caps)
    age: int = 0  # developer edits made since the rule's newest example


def _render(parts: Sequence[str | int], kinds: Sequence[str]) -> str:
    return "".join(p if isinstance(p, str) else f"<{kinds[p]}{p}>" for p in parts)


def hole_pattern(kind: str) -> str:
    """The regex a hole of ``kind`` (``IDENT``, ``NUMBER``, ``STRING``) is compiled to."""
    return _HOLE_PATTERNS[kind]


def _boundary_left(first: str) -> str:
    return r"(?<![\w])" if first and lexical.is_plain_word_char(first[0]) else ""


def _boundary_right(last: str) -> str:
    return r"(?![\w])" if last and lexical.is_plain_word_char(last[-1]) else ""


def _edges(before: Sequence[str | int]) -> tuple[str, str]:
    """The text a template's boundary assertions are read from, at each end:
    its literal piece there, or a word character for a hole (every hole kind
    may begin and end with one)."""
    first = before[0] if before and isinstance(before[0], str) else "a"
    last = before[-1] if before and isinstance(before[-1], str) else "a"
    return first, last


def template_boundaries(before: Sequence[str | int]) -> tuple[bool, bool]:
    """Whether a template's regex asserts no word character before / after
    it (what :func:`_compile` writes around it); a literal pattern's are
    ``template_boundaries((literal,))``."""
    first, last = _edges(before)
    return bool(_boundary_left(first)), bool(_boundary_right(last))


_WORD_CHAR = re.compile(r"\w")


def stands_apart(text: str, start: int, end: int, endpos: int, left: bool, right: bool) -> bool:
    """Whether ``text[start:end]`` meets the word-boundary assertions a
    compiled pattern makes before (``left``) and after (``right``) it
    (:func:`template_boundaries`), in a search of ``text`` up to ``endpos``,
    as ``re`` reads them: the one before looks behind the search's start,
    the one after treats ``endpos`` as the end."""
    return (not left or start == 0 or not _WORD_CHAR.match(text, start - 1)) and (
        not right or end == endpos or not _WORD_CHAR.match(text, end)
    )


@functools.lru_cache(maxsize=1024)
def _compile(before: tuple[str | int, ...], kinds: tuple[str, ...]) -> re.Pattern[str]:
    seen: set[int] = set()
    parts: list[str] = []
    for part in before:
        if isinstance(part, str):
            parts.append(re.escape(part))
        elif part in seen:
            parts.append(f"(?P={group_name(part)})")
        else:
            seen.add(part)
            parts.append(f"(?P<{group_name(part)}>{_HOLE_PATTERNS[kinds[part]]})")
    first, last = _edges(before)
    return re.compile(_boundary_left(first) + "".join(parts) + _boundary_right(last))


def group_name(i: int) -> str:
    """The regex group of hole ``i`` (in the before pattern and the replacement)."""
    return f"h{i}"


def _replacement(after: Sequence[str | int]) -> str:
    out = []
    for part in after:
        if isinstance(part, str):
            out.append(part.replace("\\", "\\\\"))
        else:
            out.append(f"\\g<{group_name(part)}>")
    return "".join(out)


def make_rule(
    before: list[str | int],
    after: list[str | int],
    kinds: list[str],
    evidence: int,
    specificity: float,
    examples: tuple[PastEdit, ...],
) -> Rule:
    before = _merge(before)
    after = _merge(after)
    return Rule(
        tuple(before),
        tuple(after),
        tuple(kinds),
        evidence,
        specificity,
        examples,
        None,
        _replacement(after),
    )


def _merge(parts: list[str | int]) -> list[str | int]:
    out: list[str | int] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] = out[-1] + part
        elif part != "":
            out.append(part)
    return out
