"""Whole-line rewrites repeated with one word swapped: the same change made to an analogous block.

Owns the ``analogue`` family of the repeat suggester. The developer rewrote
whole lines (a :mod:`clone <nextedit.suggest.repeat.lines>` rule) and a word
of them — a segment of an identifier, ``plus`` in ``f_plus`` — stands in the
new lines too: ``static jv f_plus(jq_state *jq, jv input, jv a, jv b) {`` →
``jv binop_plus(jv a, jv b) {``. Where the same lines stand with another word
of the same kind in its place (``f_divide``), the same rewrite goes there,
carrying that word (``binop_divide``). No token rule states this: the word
is part of a longer identifier that differs at every site, and a rename
cannot map ``f_divide`` to ``binop_divide`` from ``f_plus`` → ``binop_plus``.

Two sources that are analogues of each other generalise to the same rule
(``f_plus`` → ``binop_plus`` and ``f_minus`` → ``binop_minus``): the rule's
``examples`` count them. How much to trust a rule is the ranker's call.

A word is a maximal run of lower-case letters (an upper-case letter may lead
it) or of upper-case letters, inside an identifier or not (the segments of
``add_template_filter``, ``TagSearchList``, ``LIBM_DDD``); numbers are
literals, never swapped. A word is swapped only where it stands whole at
every place it appears in the two blocks, and for a word of the same kind
(``filter`` for ``global``, never ``Filter`` or ``filters_x``). Sites are
found where fixed text of the old lines stands that none of the source's
words splits, shared by its rules (the repeat suggester asks its
:class:`~nextedit.text.occurrence_index.OccurrenceIndex`, kept across
requests: a fixed text standing at more than its cap of places gives no
site); a rule whose old lines stand with another word at more than the
caller's limit of places has no site.

Must not know about tokens, syntax trees, LSP/ACP or position encodings.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from nextedit.suggest.repeat.lines import LineRule, line_ending, reindent_lines, trimmed_site
from nextedit.suggest.repeat.model import Site
from nextedit.text.lines import lines_back
from nextedit.text.occurrence_index import occurrences

__all__ = ["AnalogueRule", "AnalogueSite", "agreeing", "analogue_rules", "analogue_sites"]

# words of the lines looked at per rule (the longest first), the fixed text a
# rule must keep, and how many places of its fixed text are looked at without an index
_MAX_WORDS = 8
_MIN_FIXED = 12
_MAX_HITS = 400
# a fixed text shared by a source's rules shorter than this stands at too many places to search by
_MIN_ANCHOR = 8

_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
# the words that may stand for a word of each kind
_KIND_RE = {
    "lower": re.compile("[a-z]+"),
    "capital": re.compile("[A-Z][a-z]+"),
    "upper": re.compile("[A-Z]+(?![a-z])"),
}


def _kind(word: str) -> str | None:
    if word.islower() and word.isalpha():
        return "lower"
    if word[0].isupper() and word[1:].islower() and word.isalpha():
        return "capital"
    if word.isupper() and word.isalpha():
        return "upper"
    return None  # digits: a number changed is a literal, not an analogue


Key = tuple[tuple[str, ...], tuple[str, ...], str]


@dataclass(frozen=True)
class AnalogueRule:
    """``before`` lines become ``after`` lines (relative indentation, as a
    clone :class:`LineRule`), with ``word`` standing for any word of its kind
    (:func:`analogue_sites` puts the site's word in its place). ``key`` is
    the rule with its word set aside: two analogous sources give the same key."""

    before: tuple[str, ...]
    after: tuple[str, ...]
    word: str
    key: Key
    source: LineRule
    # the fixed text its sites are found by, and the line of ``before`` it lies on
    anchor: tuple[str, int]

    @property
    def before_text(self) -> str:
        return "\n".join(self.before).replace(self.word, "<word>")

    @property
    def after_text(self) -> str:
        return "\n".join(self.after).replace(self.word, "<word>")


@dataclass(frozen=True, slots=True)
class AnalogueSite:
    """A place of an analogue rule, and the word that stands there."""

    site: Site
    word: str


def _whole_everywhere(text: str, word: str, whole: frozenset[tuple[str, int]]) -> bool:
    """Each place ``word`` appears in ``text`` is a whole word (``whole``:
    the words of ``text`` and where they start)."""
    pos = text.find(word)
    while pos >= 0:
        if (word, pos) not in whole:
            return False
        pos = text.find(word, pos + 1)
    return True


# every request asks again of the same few sources: their words are worked out once
@functools.lru_cache(maxsize=512)
def _words(before: tuple[str, ...], after: tuple[str, ...]) -> tuple[tuple[str, Key, tuple[str, int]], ...]:
    """The words of an analogue rule of ``before`` -> ``after`` lines, with
    the rule's key and its anchor: the longest text of ``before`` that none
    of the words splits, so that one search serves every rule of the source
    (each word's own longest fixed text when that one is shorter than
    ``_MIN_ANCHOR``)."""
    old, new = "\n".join(before), "\n".join(after)
    in_old = frozenset((m.group(), m.start()) for m in _WORD.finditer(old))
    in_new = frozenset((m.group(), m.start()) for m in _WORD.finditer(new))
    shared = {w for w, _ in in_old} & {w for w, _ in in_new}
    words = sorted((w for w in shared if len(w) >= 2 and _kind(w) is not None), key=lambda w: (-len(w), w))
    out = []
    for word in words[:_MAX_WORDS]:
        if not (_whole_everywhere(old, word, in_old) and _whole_everywhere(new, word, in_new)):
            continue
        if len(old.replace(word, "").strip()) < _MIN_FIXED:
            continue
        key = (
            tuple(line.replace(word, "\0") for line in before),
            tuple(line.replace(word, "\0") for line in after),
            _kind(word) or "",
        )
        out.append((word, key))
    shared_anchor = _longest_piece(before, [w for w, _ in out])
    return tuple(
        (word, key, shared_anchor if len(shared_anchor[0]) >= _MIN_ANCHOR else _longest_piece(before, [word]))
        for word, key in out
    )


def _longest_piece(before: tuple[str, ...], words: Sequence[str]) -> tuple[str, int]:
    """The longest text of the lines ``before`` (blanks around it stripped)
    between places of ``words``, and the line it lies on."""
    if not words:
        return "", 0
    anchor, line_no = "", 0
    for i, line in enumerate(before):
        cut = [False] * len(line)  # the characters some place of a word covers
        for word in words:
            at = line.find(word)
            while at >= 0:
                cut[at : at + len(word)] = [True] * len(word)
                at = line.find(word, at + 1)
        start = 0
        for end in range(len(line) + 1):
            if end == len(line) or cut[end]:
                piece = line[start:end].strip(" \t")
                if len(piece) > len(anchor):
                    anchor, line_no = piece, i
                start = end + 1
    return anchor, line_no


# the same sources come back request after request (their rules are worked out once)
@functools.lru_cache(maxsize=256)
def analogue_rules(rule: LineRule) -> tuple[AnalogueRule, ...]:
    """The analogue rules of one clone rule: one per word its old and new lines
    share (whole at every place), of a kind that can be swapped, leaving at
    least ``_MIN_FIXED`` characters of fixed text in the old lines."""
    if rule.kind != "clone" or not rule.after or rule.before == rule.after:
        return ()
    return tuple(
        AnalogueRule(rule.before, rule.after, word, key, rule, anchor)
        for word, key, anchor in _words(rule.before, rule.after)
    )


@functools.lru_cache(maxsize=512)
def _pieces(before: tuple[str, ...], word: str) -> tuple[tuple[str, ...], ...]:
    """Each line of ``before`` cut at the places of ``word``."""
    return tuple(tuple(line.split(word)) for line in before)


def _match_block(text: str, ls: int, pieces: tuple[tuple[str, ...], ...], kind: str) -> tuple[int, str, str] | None:
    """``(end, indentation, word)`` where the block of ``pieces`` stands at
    line start ``ls`` (its last line break included), at any indentation,
    with one word of ``kind`` at every place between pieces; None when it
    does not stand there. Read from ``ls`` on over the block's length only."""
    pos = ls
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    indent = text[ls:pos]
    word: str | None = None
    for i, line in enumerate(pieces):
        if i > 0:
            found = _line_break(text, pos)
            if found is None:
                return None
            pos = found
            if line == ("",):  # a blank line, at any indentation
                while pos < len(text) and text[pos] in " \t":
                    pos += 1
                continue
            if not text.startswith(indent, pos):
                return None
            pos += len(indent)
        for j, piece in enumerate(line):
            if j > 0:
                if word is None:
                    m = _KIND_RE[kind].match(text, pos)
                    if m is None:
                        return None
                    word = m.group()
                elif not text.startswith(word, pos):
                    return None
                pos += len(word)
            if not text.startswith(piece, pos):
                return None
            pos += len(piece)
    end = _line_break(text, pos)
    if word is None or end is None:
        return None  # a block ends with its line break: a last line without one is no site
    return end, indent, word


def _line_break(text: str, pos: int) -> int | None:
    """Just past the line break ending the line at ``pos``, when only blanks
    (a ``\r`` too) stand before it — a line's trailing blanks are not part of
    a rule's lines, as they are not of a clone rule's; None otherwise."""
    while pos < len(text) and text[pos] in " \t\r":
        pos += 1
    return pos + 1 if text.startswith("\n", pos) else None


def analogue_sites(
    text: str,
    rule: AnalogueRule,
    exclude: Sequence[tuple[int, int]] = (),
    limit: int = 60,
    places_of: Callable[[str], Sequence[int] | None] | None = None,
) -> list[AnalogueSite] | None:
    """Where ``rule``'s old lines stand in ``text`` with another word of the
    word's kind in its place, top to bottom, each with the rewrite there;
    None when at more than ``limit`` places. Blocks touching ``exclude``
    (the developer's own edits) are not sites. ``places_of(fixed text)``
    says where the rule's fixed text stands in ``text`` (None: at too many
    places to look at), e.g. from an index kept across requests; without
    it, ``str.find`` looks, up to ``_MAX_HITS`` places."""
    pieces = _pieces(rule.before, rule.word)
    anchor, line_no = rule.anchor
    kind = _kind(rule.word)
    if not anchor or kind is None:
        return None
    places = places_of(anchor) if places_of is not None else occurrences(text, anchor, cap=_MAX_HITS)
    if places is None:
        return None
    out: list[AnalogueSite] = []
    seen: set[int] = set()
    for pos in places:
        ls = lines_back(text, pos, line_no)  # where the block starts if it stands here
        if ls not in seen:
            seen.add(ls)
            found = _match_block(text, ls, pieces, kind)
            if found is not None and found[2] != rule.word:
                end, indent, word = found
                if not any((ls < xe and xs < end) or xs == ls for xs, xe in exclude):
                    after = [line.replace(rule.word, word) for line in rule.after]
                    new = reindent_lines(after, indent, line_ending(text, end))
                    out.append(AnalogueSite(trimmed_site(ls, end, text[ls:end], new), word))
                    if len(out) > limit:
                        return None
    return out


def agreeing(rules: Iterable[tuple[int, AnalogueRule]]) -> dict[tuple[object, ...], list[tuple[int, AnalogueRule]]]:
    """``(age, rule)`` pairs grouped by :attr:`AnalogueRule.key`, newest source first in each group."""
    groups: dict[tuple[object, ...], list[tuple[int, AnalogueRule]]] = {}
    for age, rule in rules:
        groups.setdefault(rule.key, []).append((age, rule))
    return groups
