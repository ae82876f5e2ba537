"""Repeated-edit synthesis: generalise the developer's edits into a rewrite rule
and find the other sites where its *before* side matches.

Pure functions over plain strings and code-point offsets, so they can be
tested and evaluated offline without a session; :mod:`nextedit.suggest.repeat.suggester`
wraps them as a suggester.

A rule is a pair of templates over one stretch of text — ``before`` and
``after`` — made of literal text and *holes* (an identifier, number or string
token that differs between examples, or that moves from the old text into the
new one). The before template compiles to a Python regular expression (holes
become named groups, repeated holes back-references); a site is a match of it
whose replacement changes the text and whose after-state is not already
there. The same regex is the ``searchAndReplace`` form.

How a rule is chosen (precision first):

* the example is the developer's edit widened to whole tokens, with context
  tokens on both sides taken from the surrounding text (across lines);
* the context grows from the changed tokens outwards until the rule is
  *specific*: it carries enough identifier/string text, and it matches no
  more than a few sites; a rule that stays ambiguous (a lone ``(``, ``,``, an
  operator) is only used when a second example agrees with it;
* two examples with the same change are anti-unified: the context they share
  token for token is kept, identifiers/literals that differ become holes;
* one example that types in a new value (a string or number that is not an
  old one extended) is data, not a pattern: it waits for a second example;
* with a syntax tree, a site must sit in the example's context: never from
  code into a string or comment, and — unless the change only substitutes
  identifiers — in the same kind of list (call arguments, parameters,
  imports, attributes);
* negative evidence: when the developer works down the file, a matching site
  between two examples that they left unchanged means the rule is not
  universal — no suggestion from it;
* a rule matching more sites than its limit is too generic to list, unless
  the developer is walking through the file making that very change
  (:class:`_Walk`: three times in a row, each past the last, none skipped):
  then its one site is the next match in that direction.

Cost is bounded by the edit and the number of matches, never by the file: the
context window is clipped to ``_WINDOW_CHARS`` around the edit; sites are
found by ``str.find`` of the pattern's longest literal (C speed) and the regex
runs only over the lines around each occurrence; lines longer than
``_MAX_REGION_CHARS`` are skipped (the proposal is then marked incomplete and
never offered as search-and-replace); occurrences, sites, rules searched and
rules looked at are capped (a rule whose verdict is already known — the same
pattern searched for a newer source, a literal inside one found too often or
holding one found nowhere — is looked at, not searched), and
``cancelled()`` is checked as it goes.

This module owns :func:`synthesize` — which edits are examples, which rules
are tried in which order, the negative evidence — and re-exports the
synthesis's public names. The parts:

* :mod:`nextedit.suggest.repeat.model` — the value types (``PastEdit``,
  ``Rule``, ``Site``, ``Proposal``) and templates compiled to regexes;
* :mod:`nextedit.suggest.repeat.examples` — an edit widened to tokens with
  its context window (``_WINDOW_CHARS``);
* :mod:`nextedit.suggest.repeat.rules` — rules from one example, anti-unified
  from two, and whether a rule is specific enough (:func:`acceptable`);
* :mod:`nextedit.suggest.repeat.sites` — where a rule matches
  (``_MAX_REGION_CHARS``, hit caps) and the syntactic-context filter;
* :mod:`nextedit.suggest.repeat.text` — line and trimming helpers over
  plain strings.

Must not know about sessions, documents, syntax trees (a ``category``
callback stands in for them), LSP/ACP or position encodings.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections import deque
from collections.abc import Callable, Iterator, Sequence

from nextedit.suggest.repeat.examples import EditExample, ExampleMemory, example_from_edit

# re-exported: imported from here by callers and tests
from nextedit.suggest.repeat.model import (
    PastEdit,
    Proposal,
    Rule,
    Site,
    make_rule,  # noqa: F401
)
from nextedit.suggest.repeat.rules import MadeRules, acceptable, is_carried, literal_specificity, made_rules
from nextedit.suggest.repeat.scan_memory import ScanMemory
from nextedit.suggest.repeat.sites import (
    MatchMemo,
    find_sites,
    literal_matches,
    never_already_there,
    node_category,  # noqa: F401
    same_category,
    scan_sites_reach,
    sites_in,
)
from nextedit.text.occurrence_index import OccurrenceIndex

__all__ = [
    "EditExample",
    "PastEdit",
    "Rule",
    "Site",
    "example_from_edit",
    "find_sites",
    "synthesize",
    "Proposal",
]


# a rule must not match more sites than this many (after one example)
_MAX_SITES_ONE_EXAMPLE = 12
_MAX_SITES_TWO_EXAMPLES = 60
# the same change this many times in a row, down the file, is a walk (:class:`_Walk`)
_WALK_EDITS = 3
_WALK_REACH = 20_000
_WALK_TRIES = 8
# rules searched per request: a verdict known without a search (the same
# pattern searched for a newer source, a literal inside one found at too many
# sites or holding one found nowhere) is none
_MAX_RULE_SCANS = 50
# rules looked at per request, searched or not
_MAX_RULE_LOOKS = 600
# the newest edits whose carried-names rules are tried
_CARRIED_SOURCES = 5
# fixed identifier/string text a rule should carry to be tried before vaguer ones
SPECIFIC_LITERAL = 4.0


def synthesize(
    text: str,
    edits: Sequence[PastEdit],
    cursor: int,
    *,
    max_sources: int = 4,
    max_examples: int = 10,
    max_proposals: int = 1,
    cancelled: Callable[[], bool] | None = None,
    category: Callable[[int, int], tuple[str, str | None] | None] | None = None,
    example_category: Callable[[int, int], tuple[str, str | None] | None] | None = None,
    memory: ScanMemory | None = None,
    example_memory: ExampleMemory | None = None,
    occurrence_index: OccurrenceIndex | None = None,
) -> list[Proposal]:
    """Proposals from the developer's recent edits (oldest first), best first.

    ``category(start, end)`` names the syntactic context of a span of the
    current text (:func:`node_category`: call arguments, parameters, import,
    string, comment, code…); a site whose context differs from the example's
    is not a site. ``example_category`` names the context of an example's
    span, which the developer just edited (``category`` when not given).

    Sources are tried newest first; each gives at most one proposal (its
    first acceptable rule with sites), and the search stops after
    ``max_proposals`` proposals, not counting those of rules with carried
    names as holes (tried for the ``_CARRIED_SOURCES`` newest sources only).
    An older source's one-off edit counts only when ``max_proposals`` asks
    for more than the newest proposal.

    ``memory`` (one per document, kept across requests) remembers the rules
    found in too many places by earlier requests while the text they read
    stands (:class:`ScanMemory`), ``example_memory`` (the same document's)
    the examples of its recent edits while the text around them stands
    (:class:`ExampleMemory`), ``occurrence_index`` (the same document's, begun on
    ``text``: :meth:`OccurrenceIndex.begin`) where the rules' anchor literals
    stand; the proposals are the same without them.
    """
    recent = list(edits[-max_examples:])
    if not recent:
        return []
    examples: list[EditExample] = []
    for e in recent:
        ex = example_memory.example(text, e) if example_memory is not None else example_from_edit(text, e)
        if ex is not None:
            examples.append(ex)
    exclude = [(e.start, e.new_end) for e in recent]
    proposals: list[Proposal] = []
    sources = examples[-max_sources:]
    scans = looks = 0
    top_down = _top_down(recent)
    seen_rules: set[tuple[tuple[str | int, ...], tuple[str | int, ...]]] = set()
    # every source's rules repeat the same templates when the developer made
    # the same edit many times: a pattern is searched once per request
    search = _Search(text, exclude, cancelled, memory, occurrence_index)
    walk = _Walk.of(text, recent, exclude, cancelled)
    for idx in range(len(sources) - 1, -1, -1):
        src = sources[idx]
        age = len(sources) - 1 - idx
        if _is_undone(src.edit, recent) or (walk is not None and walk.offered and walk.made(src.edit)):
            continue  # undone, or one of the walk's own edits: the same rules again
        earlier = examples[: len(examples) - len(sources) + idx]
        made = made_rules([*earlier, src])
        if made is None:
            continue
        steps, longest = _plan(made)
        if not (max_proposals == 1 and age):
            search.longest_literals_first(longest)
        for rule, limit, holder in steps:
            if max_proposals == 1 and age and rule.evidence < 2:
                continue  # an older one-off edit the developer did not follow up
            if age >= _CARRIED_SOURCES and is_carried(rule):
                continue  # bounds their searches: held out, none older was answered in the traces
            looks += 1
            if scans >= _MAX_RULE_SCANS or looks > _MAX_RULE_LOOKS or (cancelled is not None and cancelled()):
                return proposals
            if (holder is not None and holder in search.too_many_literals(limit)) or search.inside_too_many(
                rule, limit
            ):
                found, complete = None, True
            elif search.holds_an_absent_literal(rule):
                continue
            else:
                known = len(search.scanned)
                found, complete = search.sites(rule, limit)
                scans += len(search.scanned) > known  # searched now, not known from a newer source
            walked = False
            if found is None and walk is not None and age == 0:
                # too many sites to be a targeted change, unless the developer
                # is walking down the file making it: then the next one
                step = walk.next_site(rule)
                found, complete = ([step], False) if step is not None else (None, complete)
                walked = step is not None
            if not found:  # none, or more than the limit
                continue
            rule = made.here(rule)  # stating its examples where they stand now
            sites = list(found)
            if category is not None:
                sites = same_category(sites, rule, category, example_category)
                if not sites:
                    continue
            passed = _passed_over(rule, sites, top_down)
            rule.info["passed_over"] = passed
            if passed and max_proposals == 1:
                continue
            key = (rule.before, rule.after)
            if key in seen_rules:
                break  # an older example of a rule already proposed
            seen_rules.add(key)
            sites.sort(key=lambda st: (st.start < cursor, st.start))
            score = rule.evidence * 2.0 + min(rule.specificity, 10.0) / 5.0 - 0.5 * age
            proposals.append(Proposal(rule, tuple(sites), score, complete, age))
            if walked and walk is not None:
                walk.offered = True
            break
        # a carried-names rule takes no other source's place
        if sum(1 for p in proposals if not is_carried(p.rule)) >= max_proposals:
            break
    return proposals


class _Walk:
    """The developer made the same change ``_WALK_EDITS`` times in a row, each
    below (or each above) the previous one: they are walking through the
    file. A rule of that change found in more places than its limit still has
    a next site: its first match past the newest edit in that direction
    (within ``_WALK_REACH`` characters), provided no match between the walked
    edits was left unchanged. At most ``_WALK_TRIES`` rules a request look
    for it (each look is two bounded scans)."""

    def __init__(
        self,
        text: str,
        walked: Sequence[PastEdit],
        exclude: Sequence[tuple[int, int]],
        cancelled: Callable[[], bool] | None,
    ) -> None:
        self.text = text
        self.walked = walked
        self.down = walked[-1].start > walked[0].start
        self.exclude = exclude
        self.cancelled = cancelled
        self.tries = 0
        self.offered = False  # a next site was found (and proposed)

    @classmethod
    def of(
        cls,
        text: str,
        recent: Sequence[PastEdit],
        exclude: Sequence[tuple[int, int]],
        cancelled: Callable[[], bool] | None,
    ) -> _Walk | None:
        walked = recent[-_WALK_EDITS:]
        if len(walked) < _WALK_EDITS:
            return None
        newest = walked[-1]
        if any((e.old, e.new) != (newest.old, newest.new) for e in walked):
            return None
        pairs = list(zip(walked, walked[1:], strict=False))
        if not (all(b.start > a.new_end for a, b in pairs) or all(b.new_end < a.start for a, b in pairs)):
            return None
        return cls(text, walked, exclude, cancelled)

    def made(self, edit: PastEdit) -> bool:
        """``edit`` is the walk's change (any of its repetitions)."""
        newest = self.walked[-1]
        return (edit.old, edit.new) == (newest.old, newest.new)

    def next_site(self, rule: Rule) -> Site | None:
        self.tries += 1
        if self.tries > _WALK_TRIES:
            return None
        first, newest = self.walked[0], self.walked[-1]
        top, bottom = (first, newest) if self.down else (newest, first)
        if next(self._sites(rule, top.start, bottom.start), None) is not None:
            return None  # a match the developer passed over: not every one is meant
        if self.down:
            return next(self._sites(rule, newest.new_end, newest.new_end + _WALK_REACH), None)
        before = deque(self._sites(rule, max(0, newest.start - _WALK_REACH), newest.start), maxlen=1)
        return before[0] if before else None

    def _sites(self, rule: Rule, start: int, stop: int) -> Iterator[Site]:
        return sites_in(self.text, rule, start, stop, self.exclude, self.cancelled)


def _limit(rule: Rule) -> int:
    return _MAX_SITES_TWO_EXAMPLES if rule.evidence >= 2 else _MAX_SITES_ONE_EXAMPLE


class _Search:
    """One request's site searches: each (pattern, replacement) scanned once,
    each pattern's matches found once (:class:`MatchMemo`), and the literal
    before-texts found at more sites than their limit."""

    def __init__(
        self,
        text: str,
        exclude: Sequence[tuple[int, int]],
        cancelled: Callable[[], bool] | None,
        memory: ScanMemory | None = None,
        occurrence_index: OccurrenceIndex | None = None,
    ) -> None:
        self.text = text
        self.exclude = exclude
        self.cancelled = cancelled
        self.memory = memory
        if memory is not None:
            memory.begin(text)
        self.memo = MatchMemo(text, cancelled, occurrence_index)
        self.scanned: dict[tuple[object, str, object, int], tuple[list[Site] | None, bool]] = {}
        # by limit, the literals found at more sites, newest last (a dict: ordered and a set)
        self.too_many: dict[int, dict[str, None]] = {}
        self.absent: list[str] = []  # literal before-texts matched nowhere in the text

    def sites(self, rule: Rule, limit: int) -> tuple[list[Site] | None, bool]:
        """The rule's sites (None: more than ``limit``) and whether the search
        was complete. A verdict not yet in ``scanned`` (one entry per pattern,
        rewrite and limit) is searched and added there."""
        key = (rule.pattern_key, rule.replacement, rule.info.get("indent"), limit)
        if key not in self.scanned:
            absent = self.memo.anchor_absent(rule)
            self.scanned[key] = found = self._scan(key, rule, limit, absent)
            literal = rule.plain_literal
            if found[0] is None and literal is not None:
                found_too_many = self.too_many.setdefault(limit, {})
                found_too_many.pop(literal, None)
                found_too_many[literal] = None
            elif literal is not None and not found[0] and (absent or self.memo.matches(rule).none_at_all):
                self.absent.append(literal)
        return self.scanned[key]

    def _scan(self, key: tuple[object, ...], rule: Rule, limit: int, absent: bool) -> tuple[list[Site] | None, bool]:
        """The search of ``rule``, or an earlier request's verdict that it
        has more than ``limit`` sites while that still holds (:class:`ScanMemory`):
        its own, or that of a rule of the same pattern writing something else
        when no match up to the end of the sites that verdict counted can find
        this rule's rewrite already there (:func:`never_already_there`: then
        every one of those sites is one of this rule's too). ``absent``: the
        rule's anchor stands nowhere in the text (:meth:`MatchMemo.anchor_absent`)."""
        memory = self.memory
        pattern = ("pattern", key[0], key[2], limit)
        if memory is not None:
            known = memory.too_many(self.text, key, self.exclude)
            if known is not None:
                return None, known[1]
            known = memory.too_many(self.text, pattern, self.exclude)
            if known is not None and never_already_there(self.text, rule, known[2]):
                return None, known[1]
        if absent:
            return [], True  # what the search finds, without setting it up
        sites, complete, read = scan_sites_reach(self.text, rule, self.exclude, limit, self.cancelled, self.memo)
        if memory is not None and sites is None and read is not None:
            reach, sites_end = read
            memory.remember(self.text, key, reach, self.exclude, complete, sites_end)
            memory.remember(self.text, pattern, reach, self.exclude, complete, sites_end)
        return sites, complete

    def longest_literals_first(self, longest: Sequence[tuple[int, Rule]]) -> None:
        """Search a source's longest literal rule of each limit
        (:func:`_longest_literals`) first: when even it has too many sites,
        so has every literal rule inside it (:meth:`inside_too_many`), and
        those need no search. After the same small edit in many places, most
        of a request's rules are such literals with the same verdict; this
        finds it once per source."""
        for limit, rule in longest:
            if not self.inside_too_many(rule, limit):
                self.sites(rule, limit)

    def holds_an_absent_literal(self, rule: Rule) -> bool:
        """``rule`` is a literal holding, with its word boundaries, a literal
        that matched nowhere in a complete search: each match of ``rule``
        would hold one of that literal's, so it has no match either. (After
        the developer's edit the example's own before-text is gone; the
        wider contexts around it then need no search.)"""
        literal = rule.plain_literal
        if literal is None:
            return False
        # a request asks this of hundreds of rules: the substring test runs
        # in C over every absent literal, and only those ``literal`` holds
        # reach the (cached) word-boundary check
        return any(map(_holds, itertools.repeat(literal), filter(literal.__contains__, self.absent)))

    def too_many_literals(self, limit: int) -> dict[str, None]:
        """The literal before-texts found at more than ``limit`` sites so far
        (newest last; ask ``in`` of it)."""
        return self.too_many.get(limit, {})

    def inside_too_many(self, rule: Rule, limit: int) -> bool:
        """``rule`` is a literal standing, with its word boundaries, inside a
        literal found at more than ``limit`` sites: each of those sites holds
        one of its matches, so it has more than ``limit`` too."""
        literal = rule.plain_literal
        if literal is None:
            return False
        longers = self.too_many.get(limit)
        if not longers:
            return False  # most requests' rules, before any literal is found too often
        # as holds_an_absent_literal, the other way round: the substring test
        # in C, newest first (most often a source's own longest literal,
        # searched just before its rules); the boundary check for the few that hold it
        holding = filter(operator.methodcaller("__contains__", literal), reversed(longers))
        return any(map(_holds, holding, itertools.repeat(literal)))


def _plan(made: MadeRules) -> tuple[list[tuple[Rule, int, str | None]], list[tuple[int, Rule]]]:
    """A source's acceptable rules in the order they are tried — a rule with
    enough fixed text first, a vaguer one only when none has sites, and the
    rules with carried names as holes only when no literal one has — each
    with its limit and the longest literal rule's text of that limit when
    it holds the rule's (found at too many sites, that one says this one is
    too: :meth:`_Search.inside_too_many`), and those longest literal rules:
    worked out once for as long as the rules are kept (all of it is
    position-free)."""
    plan = made.derived.get("plan")
    if plan is None:
        rules = [r for r in made.rules if acceptable(r)]
        ordered = []
        for group in ([r for r in rules if not is_carried(r)], [r for r in rules if is_carried(r)]):
            ordered += [r for r in group if literal_specificity(r) >= SPECIFIC_LITERAL]
            ordered += [r for r in group if literal_specificity(r) < SPECIFIC_LITERAL]
        longest = _longest_literals(ordered)
        longest_text = {limit: rule.plain_literal for limit, rule in longest}
        steps = []
        for rule in ordered:
            limit = _limit(rule)
            literal, holder = rule.plain_literal, longest_text.get(limit)
            held = literal is not None and holder is not None and _holds(holder, literal)
            steps.append((rule, limit, holder if held else None))
        plan = made.derived["plan"] = (steps, longest)
    return plan  # type: ignore[return-value]


def _longest_literals(rules: Sequence[Rule]) -> list[tuple[int, Rule]]:
    """``(limit, rule)``: the first longest literal rule of each limit, in
    the order the limits first appear."""
    longest: dict[int, tuple[int, Rule]] = {}
    for rule in rules:
        literal = rule.plain_literal
        limit = _limit(rule)
        if literal is not None and (limit not in longest or len(literal) > longest[limit][0]):
            longest[limit] = (len(literal), rule)
    return [(limit, rule) for limit, (_, rule) in longest.items()]


@functools.lru_cache(maxsize=4096)
def _holds(longer: str, shorter: str) -> bool:
    """``longer`` holds a match of the literal pattern ``shorter`` (with its
    word boundaries). The same pairs recur across the rules of a request and
    across requests."""
    return shorter in longer and next(literal_matches(longer, shorter), None) is not None


def _top_down(edits: Sequence[PastEdit]) -> bool:
    """The developer works down the file: every edit below the previous one."""
    return len(edits) >= 2 and all(b.start >= a.start for a, b in zip(edits, edits[1:], strict=False))


def _passed_over(rule: Rule, sites: Sequence[Site], top_down: bool) -> int:
    """How many matching sites the developer passed over. When they work
    down the file, a site between two of the rule's examples that they left
    unchanged is a negative example: the transformation is not universal, so
    its other sites are guesses. (Editing in any other order, the sites in
    between may simply not be reached yet.)"""
    if not top_down:
        return 0
    starts = [e.start for e in rule.examples]
    if len(starts) < 2:
        return 0
    lo, hi = min(starts), max(starts)
    return sum(1 for site in sites if lo < site.match_start < hi)


def _is_undone(edit: PastEdit, recent: Sequence[PastEdit]) -> bool:
    """``edit`` reverts an earlier edit, or a later edit reverts it."""
    for e in recent:
        if e is edit:
            continue
        if e.new == edit.old and e.old == edit.new:
            return True
    return False
