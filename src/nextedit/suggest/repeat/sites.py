"""Repeated-edit sites: where a rule's before side matches, and whether the match sits in the example's context.

Owns the site search: the rule's longest literal piece is located with
``str.find`` (C speed) and the regex (or a walk of the template,
:mod:`~nextedit.suggest.repeat.template_walk`) runs only over the lines
around each occurrence; lines longer than ``_MAX_REGION_CHARS`` are skipped and
occurrences capped (the scan is then incomplete); a match is a site when its
rewrite changes the text and the after state is not already there. Also the
syntactic context of a span (:func:`node_category`) and the filter that
keeps sites in the example's context.

Must not know how rules are made or chosen
(:mod:`nextedit.suggest.repeat.rules`, :mod:`nextedit.suggest.repeat.synthesis`),
nor syntax trees (the caller maps spans to node types), LSP/ACP or position
encodings.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

from nextedit.suggest.repeat.model import Rule, Site
from nextedit.suggest.repeat.replay import Replay
from nextedit.suggest.repeat.template_walk import WalkMatch, literal_plan, walk_finditer, walk_plan
from nextedit.suggest.repeat.text import align_lines, without_trailing_blanks
from nextedit.text import common_affixes
from nextedit.text.lines import lines_back, lines_forward
from nextedit.text.occurrence_index import OccurrenceIndex

# a site region (the lines a match may span) longer than this is skipped
_MAX_REGION_CHARS = 4000
# anchor occurrences examined per rule
_MAX_ANCHOR_HITS = 2000


class _Scan:
    """Bookkeeping of one rule's site search: was it complete?"""

    __slots__ = ("complete", "cancelled", "_tick")

    def __init__(self, cancelled: Callable[[], bool] | None = None) -> None:
        self.complete = True  # False: a long line skipped or the hit cap reached
        self.cancelled = cancelled
        self._tick = 0

    def stop(self) -> bool:
        self._tick += 1
        if self.cancelled is not None and self._tick % 64 == 0 and self.cancelled():
            self.complete = False
            return True
        return False


def _anchor(rule: Rule) -> tuple[str, int, int] | None:
    """The before template's longest literal piece (found with ``str.find``)
    and how many line breaks the template has before / after it."""
    cached = rule.info.get("_anchor")
    if cached is not None:
        return cached or None
    parts = [p for p in rule.before if isinstance(p, str)]
    best = max(parts, key=lambda p: (any(c.isalnum() for c in p), len(p.strip())), default="")
    if not best.strip():
        rule.info["_anchor"] = ()
        return None
    idx = next(i for i, p in enumerate(rule.before) if p is best)
    nl_before = sum(p.count("\n") for p in rule.before[:idx] if isinstance(p, str))
    nl_after = sum(p.count("\n") for p in rule.before[idx + 1 :] if isinstance(p, str))
    found = (best, nl_before, nl_after)
    rule.info["_anchor"] = found
    return found


def _pieces(rule: Rule) -> tuple[str, ...] | None:
    """The literal pieces of the rule's before template, in order, when its
    regex is made from that template (None: a regex of its own)."""
    cached = rule.info.get("_pieces")
    if cached is None:
        own = rule.own_pattern is not None
        cached = rule.info["_pieces"] = () if own else tuple(p for p in rule.before if isinstance(p, str) and p)
    return cached or None


def pieces_in_order(text: str, pieces: Sequence[str], start: int, end: int) -> bool:
    """Each of ``pieces`` stands in ``text[start:end]``, in order and apart:
    what any match of a template holding them between its holes needs. A
    few ``str.find`` calls, so that a region where it fails costs no regex
    (compiling one made of a big example's template costs milliseconds)."""
    for piece in pieces:
        at = text.find(piece, start, end)
        if at < 0:
            return False
        start = at + len(piece)
    return True


_TEMPLATE_PIECE = re.compile(r"\\\\|\\g<(\w+)>")


@functools.lru_cache(maxsize=1024)
def _template(replacement: str) -> tuple[str | tuple[str], ...] | None:
    r"""``replacement`` as literal pieces and ``(group,)`` references, parsed
    once (``Match.expand`` re-parses its template on every call before
    Python 3.12); None when it uses anything beyond ``\\`` and ``\g<name>``
    — the rule's own makers write only those — and ``Match.expand`` must read it."""
    pieces: list[str | tuple[str]] = []
    pos = 0
    for m in _TEMPLATE_PIECE.finditer(replacement):
        literal = replacement[pos : m.start()]
        if "\\" in literal:
            return None
        if literal:
            pieces.append(literal)
        pieces.append("\\" if m.group(1) is None else (m.group(1),))
        pos = m.end()
    rest = replacement[pos:]
    if "\\" in rest:
        return None
    if rest:
        pieces.append(rest)
    return tuple(pieces)


def _expand(m: _Match, replacement: str) -> str:
    """What ``m.expand(replacement)`` gives, without re-parsing the template."""
    template = _template(replacement)
    if template is None:
        return m.expand(replacement)
    return "".join(p if isinstance(p, str) else (m.group(p[0]) or "") for p in template)


def _region(text: str, pos: int, end: int, nl_before: int, nl_after: int) -> tuple[int, int] | None:
    """The lines a match around ``text[pos:end]`` may span; ``None`` when longer
    than ``_MAX_REGION_CHARS`` (a minified or generated line)."""
    floor = max(0, pos - _MAX_REGION_CHARS)
    ls = lines_back(text, pos, nl_before, floor)
    if ls == floor and floor > 0 and text[floor - 1] != "\n":
        return None
    ceiling = min(len(text), end + _MAX_REGION_CHARS)
    le = lines_forward(text, end, nl_after, ceiling)
    if le == ceiling and ceiling < len(text) and text[ceiling - 1] != "\n":
        return None
    return ls, le


def _matches(
    text: str, rule: Rule, scan: _Scan, start: int = 0, anchor_starts: Sequence[int] | None = None
) -> Iterator[_Match]:
    """The rule's matches from ``start`` on, left to right, non-overlapping.
    The longest literal piece of the pattern is located with ``str.find`` (C
    speed), or read from ``anchor_starts`` (every start of it in ``text``,
    from the document's :class:`~nextedit.text.occurrence_index.OccurrenceIndex`,
    which moves them with each edit instead of scanning the file again), and the regex
    runs only over the lines around each occurrence, and only where the
    template's literal pieces stand there in order (:func:`pieces_in_order`;
    a rule whose regions all fail is never compiled). A template that reads
    one way only is walked instead of compiled
    (:mod:`~nextedit.suggest.repeat.template_walk`). A template whose
    literal pieces are all blank has no anchor: its regex runs over the text
    from ``start``, and stops at the same cap. The cost is at most one scan
    plus the number of occurrences (capped), never a Python loop over the
    file."""
    anchor = _anchor(rule)
    if anchor is None:
        for i, whole in enumerate(rule.regex.finditer(text, start)):
            if i >= _MAX_ANCHOR_HITS or scan.stop():
                scan.complete = False
                return
            yield whole
        return
    lit, nl_before, nl_after = anchor
    find = _anchor_finder(text, lit, anchor_starts)
    plain = rule.plain_literal
    walk = walk_plan(rule) if plain is None else None
    pieces = _pieces(rule) if plain is None else None
    last_end = start
    last_region = (-1, -1)
    hits = 0
    pos = find(start)
    while pos >= 0:
        hits += 1
        if hits > _MAX_ANCHOR_HITS or scan.stop():
            scan.complete = False
            return
        region = _region(text, pos, pos + len(lit), nl_before, nl_after)
        if region is None:
            scan.complete = False
        elif region != last_region:
            last_region = region
            window = (max(region[0], last_end), region[1])
            if plain is not None:
                found: Iterable[_Match] = literal_matches(text, plain, *window)
            elif pieces is not None and not pieces_in_order(text, pieces, *window):
                found = ()
            elif walk is not None:
                found = walk_finditer(text, rule, walk, *window)
            else:
                found = rule.regex.finditer(text, *window)
            for m in found:
                if m.start() < last_end:
                    continue
                last_end = m.end() if m.end() > m.start() else m.end() + 1
                yield m
        if region is None:  # skip the rest of the long line
            nl = text.find("\n", pos)
            pos = find(nl + 1) if nl >= 0 else -1
        else:
            pos = find(pos + 1)


def _anchor_finder(text: str, literal: str, starts: Sequence[int] | None) -> Callable[[int], int]:
    """``text.find(literal, k)`` as a function of ``k``: from ``starts``
    (every start of ``literal`` in ``text``) when known (the same answers)."""
    if starts is None:
        return functools.partial(text.find, literal)
    last = len(starts)

    def at_or_after(k: int) -> int:
        i = bisect.bisect_left(starts, k)
        return starts[i] if i < last else -1

    return at_or_after


# a regex match, or one found without a regex: a literal's, a template walk's
_Match = re.Match[str] | WalkMatch


def literal_matches(text: str, literal: str, pos: int = 0, endpos: int | None = None) -> Iterator[WalkMatch]:
    """Where ``literal`` matches in ``text`` as a literal rule's pattern does:
    what ``_compile((literal,), ()).finditer(text, pos, endpos)`` yields,
    without compiling a regex (almost every one-example rule is a literal, and
    compiling is most of its cost): occurrences left to right, not
    overlapping, with the same word-boundary assertions — the one before
    looks behind ``pos``, the one after treats ``endpos`` as the end."""
    return walk_finditer(text, None, literal_plan(literal), pos, len(text) if endpos is None else endpos)


class MatchMemo:
    """The matches of the before patterns searched in one text, shared by the
    rules that have the same pattern (after a burst of similar edits, many
    rules differ only in what they write): each pattern's matches are found
    lazily, once, and replayed for the next rule."""

    def __init__(
        self, text: str, cancelled: Callable[[], bool] | None = None, index: OccurrenceIndex | None = None
    ) -> None:
        self.text = text
        self.cancelled = cancelled
        self.index = index
        self._found: dict[tuple[object, object], _Found] = {}
        # anchor literal -> its starts from the index (None: not known there), asked once a request
        self._starts: dict[str, Sequence[int] | None] = {}

    def anchor_starts(self, rule: Rule) -> Sequence[int] | None:
        """Every start of the rule's anchor in the text, when the document's
        index of occurrences has them (None: the search scans for it)."""
        anchor = _anchor(rule)
        if self.index is None or anchor is None:
            return None
        literal = anchor[0]
        if literal not in self._starts:
            self._starts[literal] = self.index.starts(self.text, literal)
        return self._starts[literal]

    def anchor_absent(self, rule: Rule) -> bool:
        """The document's index of occurrences knows that the rule's anchor
        stands nowhere in the text: the rule matches nowhere, and its search
        would skip nothing."""
        starts = self.anchor_starts(rule)
        return starts is not None and not starts

    def matches(self, rule: Rule) -> _Found:
        key = (rule.pattern_key, _anchor(rule))
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = _Found(self.text, rule, self.cancelled, self.anchor_starts(rule))
        return found


class _Found(Replay[_Match]):
    """One pattern's matches so far, and the rest to come."""

    __slots__ = ("_scan",)

    def __init__(
        self,
        text: str,
        rule: Rule,
        cancelled: Callable[[], bool] | None,
        anchor_starts: Sequence[int] | None = None,
    ) -> None:
        self._scan = _Scan(cancelled)
        super().__init__(_matches(text, rule, self._scan, 0, anchor_starts))

    @property
    def complete(self) -> bool:
        """False once part of the text was skipped (long lines, the hit cap, cancelled)."""
        return self._scan.complete

    @property
    def none_at_all(self) -> bool:
        """The whole text was searched, nothing skipped, and no match found."""
        return self._done and not self._seen and self._scan.complete


def find_sites(text: str, rule: Rule, exclude: Sequence[tuple[int, int]] = (), limit: int = 200) -> list[Site]:
    """Every match of ``rule.before`` whose rewrite changes the text (none
    when there are more than ``limit``)."""
    return scan_sites_reach(text, rule, exclude, limit)[0] or []


def scan_sites_reach(
    text: str,
    rule: Rule,
    exclude: Sequence[tuple[int, int]] = (),
    limit: int = 200,
    cancelled: Callable[[], bool] | None = None,
    memo: MatchMemo | None = None,
) -> tuple[list[Site] | None, bool, tuple[int, int] | None]:
    """``(sites, complete, read)``: every match of ``rule.before`` whose
    rewrite changes the text, or None when there are more than ``limit`` (the
    search stops there and no site is built); ``complete`` is False when part
    of the text was not examined (a line too long, too many occurrences,
    cancelled); ``read``, when it found more than ``limit`` sites, how far
    into the text it read (:func:`scan_reach`) and where the last site it
    counted ends (None: it may have read all of it)."""
    matches = (memo or MatchMemo(text, cancelled)).matches(rule)
    found: list[tuple[int, int, str, str]] = []
    looked = [0]
    for change in _changes(text, rule, matches, exclude, looked):
        found.append(change)
        if len(found) > limit:
            reach = scan_reach(rule, change[0], looked[0])
            return None, matches.complete, None if reach is None else (reach, change[1])
    return [_site(text, *change) for change in found], matches.complete, None


def scan_reach(rule: Rule, last_start: int, looked: int) -> int | None:
    """An end of the text (exclusive) that a search which stopped at a
    match starting at ``last_start`` did not read past, when ``looked`` is
    the furthest its "already there" looks read (:func:`_changes`). Each
    match was found in the lines around an occurrence of the rule's anchor
    (:func:`_matches`), and those lines reach no further than
    ``_MAX_REGION_CHARS`` before it (so the anchor stood at most that far
    after the match's start) nor after it; occurrences are met in order. The
    same text and the same exclusions up to there give the same verdict.
    None for a rule without an anchor: its regex runs over the whole text."""
    anchor = _anchor(rule)
    if anchor is None:
        return None
    return max(last_start + 2 * _MAX_REGION_CHARS + len(anchor[0]) + 1, looked) + 1


def never_already_there(text: str, rule: Rule, end: int) -> bool:
    """No match of ``rule`` ending by ``end`` can find its rewrite already
    there (:func:`_changes`), nor be rewritten into itself: the rewrite's
    fixed text differs from the match and stands nowhere in the text up to
    ``end`` plus its length — which the "already there" look of such a
    match never reads past. Told for a literal rule (its rewrite is that
    text) and a whole-line rule (the match's indentation, then that text,
    on one line); False for any other rule."""
    template = _template(rule.replacement)
    if template is None:
        return False
    groups = [p for p in template if not isinstance(p, str)]
    fixed = "".join(p for p in template if isinstance(p, str))
    if not groups and rule.plain_literal is not None:
        before = rule.plain_literal
    elif groups == [("ind",)] and template[0] == ("ind",) and rule.info.get("line_rule") and "\n" not in fixed:
        before = rule.before_text
    else:
        return False
    return bool(fixed) and fixed != before and text.find(fixed, 0, end + len(fixed)) < 0


def sites_in(
    text: str,
    rule: Rule,
    start: int,
    stop: int,
    exclude: Sequence[tuple[int, int]] = (),
    cancelled: Callable[[], bool] | None = None,
) -> Iterator[Site]:
    """The sites of ``rule`` whose match starts in ``[start, stop)``, top to
    bottom, found as they are read: taking the first costs what the text up
    to it costs, not the file (the next site of a rule found in too many
    places to list them all)."""
    scan = _Scan(cancelled)
    matches = itertools.takewhile(lambda m: m.start() < stop, _matches(text, rule, scan, start))
    return (_site(text, *change) for change in _changes(text, rule, matches, exclude))


def _changes(
    text: str,
    rule: Rule,
    matches: Iterable[_Match],
    exclude: Sequence[tuple[int, int]],
    looked: list[int] | None = None,
) -> Iterator[tuple[int, int, str, str]]:
    """``(start, end, old, new)`` of each match whose rewrite changes the
    text, outside the developer's own edits (``exclude``), where the after
    state is not already there; ``looked[0]``, when given, is raised to the
    furthest offset that look read."""
    # the developer's own edits, a handful near each other: most matches lie outside their span
    ex_lo = min((xs for xs, _ in exclude), default=0)
    ex_hi = max((xe for _, xe in exclude), default=-1)
    ex_indent: str | None = rule.info.get("indent")
    for m in matches:
        ms, me = m.start(), m.end()
        if (
            ms <= ex_hi
            and me >= ex_lo
            and any(ms < xe and xs < me or (xs == xe and ms <= xs <= me) for xs, xe in exclude)
        ):
            continue
        try:
            replaced = _expand(m, rule.replacement)
        except (re.error, IndexError):
            continue
        old = m.group()
        if ex_indent is not None and "ind" in rule.regex.groupindex:
            site_indent = m.group("ind")
            if site_indent != ex_indent:
                replaced = replaced.replace("\n" + ex_indent, "\n" + site_indent)
        if replaced == old:
            continue
        # the change is already there: the after text covers the match
        if looked is not None and ms + len(replaced) > looked[0]:
            looked[0] = ms + len(replaced)
        if text.find(replaced, max(0, me - len(replaced)), ms + len(replaced)) >= 0:
            continue
        yield ms, me, old, replaced


def _site(text: str, ms: int, me: int, old: str, replaced: str) -> Site:
    """The site of one change, trimmed to what differs and aligned to lines."""
    pre, suf = common_affixes(old, replaced)
    start, end, new = align_lines(text, ms + pre, me - suf, replaced[pre : len(replaced) - suf])
    start, end, new = without_trailing_blanks(text, start, end, new)
    return Site(start, end, new, ms, me, old)


# node-type name fragments -> the list-level context of a span; by suffix or
# substring so that one table serves every grammar
_FINE_CONTEXTS = (
    (("type_arguments", "type_parameters", "generic"), "type"),
    (("parameters", "parameter_list"), "parameters"),
    (("arguments", "argument_list"), "arguments"),
    (("import", "use_declaration", "use_list"), "import"),
    (("decorator", "attribute_item", "annotation", "attribute"), "attribute"),
)
_CONTEXT_DEPTH = 2


def node_category(types: Sequence[str]) -> tuple[str, str | None]:
    """The syntactic context of a span from the types of the nodes strictly
    enclosing it, innermost first: ``(coarse, fine)`` — coarse is ``comment``,
    ``string`` or ``code``; fine the list the span sits in (call
    ``arguments``, ``parameters``, ``import``, ``attribute``, ``type``) or None."""
    return _node_category(tuple(types[:_CONTEXT_DEPTH]))


@functools.lru_cache(maxsize=1024)
def _node_category(near: tuple[str, ...]) -> tuple[str, str | None]:
    coarse = "code"
    for node_type in near:
        if "comment" in node_type:
            coarse = "comment"
            break
        if "string" in node_type or node_type in ("char_literal", "heredoc_body", "template_string"):
            coarse = "string"
            break
    fine = None
    for node_type in near:
        for fragments, name in _FINE_CONTEXTS:
            if any(f in node_type for f in fragments):
                fine = name
                break
        if fine is not None:
            break
    return coarse, fine


def same_category(
    sites: list[Site],
    rule: Rule,
    category: Callable[[int, int], tuple[str, str | None] | None],
    example_category: Callable[[int, int], tuple[str, str | None] | None] | None = None,
) -> list[Site]:
    """The sites whose syntactic context is the example's: never from code
    into a string or comment (or back); and, unless the change only
    substitutes identifiers one for one or one name or literal for one
    expression, in the same kind of list (a parameter removed from a
    definition is not removed from a call). The example's
    context is read by ``example_category`` when given (its span was just
    edited), the sites' by ``category``."""
    span = rule.info.get("a_span")
    if span is None:
        return sites
    want = (example_category or category)(*span)
    if want is None:
        return sites
    substitution = rule.info.get("substitution", False) or rule.info.get("atom_swap", False)
    out = []
    for site in sites:
        got = category(site.match_start, site.match_end)
        if got is None or (got[0] == want[0] and (substitution or got[1] == want[1])):
            out.append(site)
    return out
