"""Whole-line repeats: the same lines changed the same way, and the same lines inserted in the same place.

Owns the two line-level rule families of the repeat suggester:

- **clone** — the developer rewrote (or deleted) one or more whole lines;
  wherever the same lines stand again (indentation free: the block may sit
  at another depth, each line keeps its indentation relative to the first),
  they become the developer's new lines, re-indented to the site;
- **insertion** — the developer inserted whole lines between two lines;
  wherever a line reads like the line above the insertion (or the line below
  it), and the inserted lines are not already there, the same lines go in
  at the same place, re-indented relative to that context line.

These catch what token rules cannot state from one example — a line added
or removed, prose in a comment, an edit inside a long line — because their
context is the whole line. Sites are found with ``str.find`` of a line's text
(C speed), at most ``_MAX_HITS`` occurrences per rule; lines longer than
``_MAX_LINE_CHARS`` are never rules. How much to trust a rule is the
ranker's call (:class:`~nextedit.suggest.model.CandidateFeatures`: the
number of lines, their specificity, the sites left).

Must not know about tokens, syntax trees, LSP/ACP or position encodings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from nextedit.suggest.repeat.model import PastEdit, Site
from nextedit.suggest.repeat.replay import Replay
from nextedit.text import common_affixes

__all__ = [
    "BlockFinder",
    "LineRule",
    "LineSite",
    "line_ending",
    "line_rules",
    "line_sites",
    "reindent_lines",
    "trimmed_site",
]

_MAX_LINES = 12
_MAX_LINE_CHARS = 400
_MAX_HITS = 400
_MIN_CONTENT = 3  # a context line shorter than this (``}``, ``)``) says nothing

LineKind = Literal["clone", "insert-after", "insert-before"]


@dataclass(frozen=True)
class LineRule:
    """Lines ``before`` (stripped of the block's base indentation, relative
    indentation kept) become ``after``; for an insertion, ``before`` is the
    one context line and ``after`` the inserted lines (indented relative to
    the context line)."""

    kind: LineKind
    before: tuple[str, ...]
    after: tuple[str, ...]
    example: PastEdit
    # an insertion's context on its other side (the line below an insert-after), stripped
    other_side: str | None = None

    @property
    def before_text(self) -> str:
        return "\n".join(self.before)

    @property
    def after_text(self) -> str:
        return "\n".join(self.after)


@dataclass(frozen=True, slots=True)
class LineSite:
    """A site of a line rule; ``sides`` is how many context lines of an
    insertion match there (2: the line above and the line below)."""

    site: Site
    sides: int = 0


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _relative(lines: Sequence[str], base: str) -> tuple[str, ...] | None:
    """Each line with ``base`` indentation removed; None when a non-blank line is shallower."""
    out = []
    for line in lines:
        if not line.strip():
            out.append("")
        elif line.startswith(base):
            out.append(line[len(base) :].rstrip())
        else:
            return None
    return tuple(out)


def _line_aligned(text: str, edit: PastEdit) -> tuple[int, str, str] | None:
    """``(start, old, new)`` of an edit that replaces whole lines (each ending
    with a line break), sliding a pure insertion or deletion of whole lines to
    a line start; None when the edit is not whole lines."""
    start, old, new = edit.start, edit.old, edit.new
    if (
        (start == 0 or text[start - 1] == "\n")
        and (old == "" or old.endswith("\n"))
        and (new == "" or new.endswith("\n"))
    ):
        return start, old, new
    # a pure insertion/deletion written as "\n...": rotate it to the next line start
    if old == "" and new.startswith("\n") and not new.endswith("\n"):
        end = start + len(new)
        if end < len(text) and text.startswith("\n", end):
            return start + 1, "", new[1:] + "\n"
        if end == len(text):
            return None
    return None


def line_rules(text: str, edit: PastEdit) -> list[LineRule]:
    """The line-level rules the developer's ``edit`` (already applied to ``text``) shows."""
    if edit.new_end > len(text) or len(edit.old) > 4000 or len(edit.new) > 4000:
        return []
    aligned = _line_aligned(text, edit)
    if aligned is not None and aligned[1] == "" and aligned[2]:
        return _insertion_rules(text, edit, aligned[0], aligned[2])
    if aligned is not None:
        _, old, new = aligned
        before_lines = old.split("\n")[:-1]
        after_lines = new.split("\n")[:-1] if new else []
    else:
        ls = text.rfind("\n", 0, edit.start) + 1
        le = text.find("\n", edit.new_end)
        le = len(text) if le < 0 else le
        if edit.start - ls > _MAX_LINE_CHARS or le - edit.new_end > _MAX_LINE_CHARS:
            return []
        prefix, suffix = text[ls : edit.start], text[edit.new_end : le]
        before_lines = (prefix + edit.old + suffix).split("\n")
        after_lines = (prefix + edit.new + suffix).split("\n")
    if not before_lines or len(before_lines) > _MAX_LINES or len(after_lines) > _MAX_LINES:
        return []
    if any(len(line) > _MAX_LINE_CHARS for line in (*before_lines, *after_lines)):
        return []
    if not any(line.strip() for line in before_lines):
        return []
    base = _indent(next(line for line in before_lines if line.strip()))
    before = _relative(before_lines, base)
    after = _relative(after_lines, base)
    if before is None or after is None or before == after:
        return []
    while before and not before[0]:  # leading blank lines are not context
        before = before[1:]
    return [LineRule("clone", before, after, edit)] if before else []


def _insertion_rules(text: str, edit: PastEdit, start: int, new: str) -> list[LineRule]:
    inserted = new.split("\n")[:-1]
    if not inserted or len(inserted) > _MAX_LINES or any(len(x) > _MAX_LINE_CHARS for x in inserted):
        return []
    # the nearest non-blank line above the insertion, and below it
    above = _neighbour(text, start, -1)
    below = _neighbour(text, start + len(new), +1)
    usable = [
        found
        if found is not None and _MIN_CONTENT <= len(found[1].strip()) and len(found[1]) <= _MAX_LINE_CHARS
        else None
        for found in (above, below)
    ]
    kind: LineKind
    if usable[0] is not None:
        kind, (_, line), other = "insert-after", usable[0], usable[1]
    elif usable[1] is not None:
        kind, (_, line), other = "insert-before", usable[1], None
    else:
        return []
    rel = _relative(inserted, _indent(line))
    if rel is None:
        return []
    return [LineRule(kind, (line.strip(),), rel, edit, other[1].strip() if other else None)]


def _neighbour(text: str, pos: int, step: int) -> tuple[int, str] | None:
    """``(line start, line)`` of the nearest non-blank line above (``step`` -1)
    the line start ``pos``, or at/below it (+1)."""
    for _ in range(4):
        if step < 0:
            if pos <= 0:
                return None
            ls = text.rfind("\n", 0, pos - 1) + 1
            line = text[ls : pos - 1]
            pos = ls
        else:
            if pos >= len(text):
                return None
            le = text.find("\n", pos)
            le = len(text) if le < 0 else le
            line = text[pos:le]
            ls, pos = pos, le + 1
        if line.strip():
            return ls, line
    return None


# where a rule's lines stand: (line start, block end, indentation)
Block = tuple[int, int, str]


class BlockFinder(Replay["Block | None"]):
    """Where one block of lines (a rule's ``before``) stands in one text, found
    once for every rule that shares it: after a burst of similar edits many
    rules start from the same lines and differ only in what they become.
    Per occurrence of the first line, top to bottom: the block there, or None
    (found lazily and remembered)."""

    __slots__ = ("_standing",)

    def __init__(
        self,
        text: str,
        before: tuple[str, ...],
        exclude: Sequence[tuple[int, int]] = (),
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(_blocks(text, before, exclude, cancelled))
        self._standing: dict[int, list[Block]] = {}

    def standing(self, limit: int) -> list[Block]:
        """The first ``limit + 1`` places where the block stands, top to
        bottom (fewer when there are no more): worked out once per limit."""
        found = self._standing.get(limit)
        if found is None:
            found = []
            for block in self:
                if block is not None:
                    found.append(block)
                    if len(found) > limit:
                        break
            self._standing[limit] = found
        return found


def standing_reach(standing: Sequence[Block]) -> int:
    """An end of the text (exclusive) that finding the blocks ``standing``
    (:meth:`BlockFinder.standing`, stopped at its last) read no further than:
    each occurrence of the first line is looked at back to its line's start
    and forward over the block's lines, and occurrences are met in order, so
    none read past the last block's lines."""
    return standing[-1][1] + 1


def _blocks(
    text: str, before: tuple[str, ...], exclude: Sequence[tuple[int, int]], cancelled: Callable[[], bool] | None
) -> Iterator[Block | None]:
    """Per occurrence of ``before``'s first line, in order, at most ``_MAX_HITS``
    (fewer once cancelled): the block there, or None."""
    first = before[0]
    # one line, as the line rules make them (no indent, no trailing blank): it
    # stands where its text fills a line after the indent (what _lines_at and
    # _relative would say, without building either)
    one_line = len(before) == 1 and first.strip() == first != ""
    # the developer's own edits, a handful near each other: most lines lie outside their span
    ex_lo = min((xs for xs, _ in exclude), default=0)
    ex_hi = max((xe for _, xe in exclude), default=-1)
    pos = text.find(first)
    hits = 0
    while pos >= 0:
        hits += 1
        if hits > _MAX_HITS or (cancelled is not None and hits % 64 == 0 and cancelled()):
            return
        ls = text.rfind("\n", 0, pos) + 1
        indent = text[ls:pos]
        block = None
        if indent.strip(" \t") == "" and not (
            ex_lo <= ls <= ex_hi and any(ls <= xe and xs <= ls for xs, xe in exclude)
        ):
            if one_line:
                after = pos + len(first)
                le = text.find("\n", after)
                if le >= 0 and (le == after or text[after:le].isspace()):
                    block = (ls, le + 1, indent)
            else:
                got = _lines_at(text, ls, len(before))
                if got is not None:
                    lines, end = got
                    if _relative(lines, indent) == before and not (end == len(text) and not text.endswith("\n")):
                        block = (ls, end, indent)
        yield block
        pos = text.find(first, pos + 1)


def line_sites(
    text: str,
    rule: LineRule,
    exclude: Sequence[tuple[int, int]] = (),
    limit: int = 60,
    cancelled: Callable[[], bool] | None = None,
    finder: BlockFinder | None = None,
    both_sides: bool = False,
) -> list[LineSite] | None:
    """Where ``rule`` applies in ``text``, top to bottom; None when at more
    than ``limit`` places (no site is built then). With ``both_sides``, of
    the first ``limit + 1`` places only those where an insertion's context
    stands on both sides (None when that is all of them). ``finder`` (for
    ``rule.before`` in this text, with this ``exclude``) is shared by the
    rules with the same lines."""
    found = _places(text, rule, exclude, limit, cancelled, finder)
    if len(found) > limit and not both_sides:
        return None
    sites = [_site_at(text, rule, *block) for block in found]
    if both_sides:
        sites = [x for x in sites if x.sides == 2]
    return None if len(sites) > limit else sites


def nearest_line_sites(
    text: str,
    rule: LineRule,
    cursor: int,
    keep: int,
    exclude: Sequence[tuple[int, int]] = (),
    limit: int = 60,
    cancelled: Callable[[], bool] | None = None,
    finder: BlockFinder | None = None,
    both_sides: bool = False,
) -> tuple[int, list[LineSite]] | None:
    """What :func:`line_sites` finds, as ``(how many, the first keep of
    them from the cursor on, then wrapping around)``; None as there. Only
    the sites kept are built (a rule may stand at 60 places and be offered
    at three): a block's site starts inside the block, and blocks do not
    overlap, so the blocks' order is the sites' order, and only a block the
    cursor falls in needs its site to say on which side of it it starts."""

    def key(block: Block) -> tuple[bool, int]:
        ls, end = block[0], block[1]
        if ls < cursor <= end:
            return _site_at(text, rule, *block).site.start < cursor, ls
        return end < cursor, ls

    if not both_sides:
        found = _places(text, rule, exclude, limit, cancelled, finder)
        if len(found) > limit:
            return None
        if all(a[1] <= b[0] for a, b in zip(found, found[1:], strict=False)):
            return len(found), [_site_at(text, rule, *block) for block in sorted(found, key=key)[:keep]]
    # an insertion's context on both sides, or blocks that overlap: every site
    every = line_sites(text, rule, exclude, limit, cancelled, finder, both_sides)
    if every is None:
        return None
    every.sort(key=lambda x: (x.site.start < cursor, x.site.start))
    return len(every), every[:keep]


def _places(
    text: str,
    rule: LineRule,
    exclude: Sequence[tuple[int, int]],
    limit: int,
    cancelled: Callable[[], bool] | None,
    finder: BlockFinder | None,
) -> list[Block]:
    """The first ``limit + 1`` blocks where ``rule`` applies, top to bottom."""
    if finder is None:
        finder = BlockFinder(text, rule.before, exclude, cancelled)
    if rule.kind == "clone" and rule.before != rule.after:
        # the lines stand there and the rule rewrites them: it applies at each
        return finder.standing(limit)
    found: list[Block] = []
    for block in finder:
        if block is not None and _applies(text, rule, *block):
            found.append(block)
            if len(found) > limit:
                break
    return found


def _lines_at(text: str, ls: int, n: int) -> tuple[list[str], int] | None:
    lines = []
    pos = ls
    for _ in range(n):
        if pos > len(text):
            return None
        le = text.find("\n", pos)
        if le < 0:
            lines.append(text[pos:])
            pos = len(text) + 1
        else:
            lines.append(text[pos:le])
            pos = le + 1
    return lines, min(pos, len(text))


def reindent_lines(lines: Sequence[str], indent: str, newline: str = "\n") -> str:
    """``lines`` (relative indentation) at ``indent``, each ending with ``newline``."""
    return "".join((indent + line if line else "") + newline for line in lines)


def line_ending(text: str, end: int) -> str:
    """The line break of the line of ``text`` ending at ``end`` (just past
    its ``\n``): a rule's lines hold none, and a site in a CRLF document
    keeps CRLF."""
    return "\r\n" if end >= 2 and text.startswith("\r\n", end - 2, end) else "\n"


def _applies(text: str, rule: LineRule, ls: int, end: int, indent: str) -> bool:
    """The rule changes something where its lines stand (``text[ls:end]``, at ``indent``)."""
    block = reindent_lines(rule.after, indent, line_ending(text, end))
    if rule.kind == "clone":
        return block != text[ls:end]
    # an insertion: after the context line, or before it; not when already there
    where = end if rule.kind == "insert-after" else ls
    return not (text.startswith(block, where) or (where >= len(block) and text[where - len(block) : where] == block))


def _site_at(text: str, rule: LineRule, ls: int, end: int, indent: str) -> LineSite:
    """The rule's change where its lines stand (:func:`_applies` holds there)."""
    block = reindent_lines(rule.after, indent, line_ending(text, end))
    if rule.kind == "clone":
        return LineSite(trimmed_site(ls, end, text[ls:end], block))
    where = end if rule.kind == "insert-after" else ls
    sides = 1
    if rule.other_side is not None:
        below = _neighbour(text, where, +1)
        sides += below is not None and below[1].strip() == rule.other_side
    return LineSite(Site(where, where, block, ls, end, text[ls:end]), sides)


def trimmed_site(ls: int, end: int, old: str, new: str) -> Site:
    """The site rewriting the lines ``old`` (``[ls, end)``) as ``new``, its
    change cut to what differs."""
    pre, suf = common_affixes(old, new)
    # keep whole-line deletions whole (an editor deletes the line)
    if new == "":
        return Site(ls, end, "", ls, end, old)
    return Site(ls + pre, end - suf, new[pre : len(new) - suf], ls, end, old)
