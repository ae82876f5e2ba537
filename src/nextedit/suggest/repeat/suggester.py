"""Repeated edits: the developer changed one or two sites; offer the same change at the others.

Owns the ``repeat`` suggester. The synthesis itself — generalising the
developer's edits into a rewrite rule and finding the sites where its
*before* side still matches — is :mod:`nextedit.suggest.repeat.synthesis` (pure
functions over text and cp offsets); this module adapts it to the engine:
it reads the request document's history, asks for proposals, and turns the
best rule's sites into ``edit`` candidates, one site per candidate, the
nearest site after the cursor first (then wrapping around).

One site per candidate maximises precision: an edit suggestion is judged
correct only if *every* region it changes is one the developer would change;
the whole set is offered separately as ``searchAndReplace`` by
:mod:`nextedit.suggest.repeat.search_replace`.

An identifier the developer renamed twice in the same surroundings is a
candidate here too: the rename suggester renames one binding, and the same
name renamed the same way in another scope (another function's local, a name
defined in another file) is no occurrence of it; the ranker weighs both. A
rename seen once, or of a member or path (``obj.name``: renamed by its
receiver in every scope), is the rename suggester's alone — unless the new
name stood in the file already (``Ordering::SeqCst`` -> ``Ordering::Relaxed``):
a use re-pointed at another name is no rename, and the rename suggester
leaves it.

Silence when: no history; the newest edits are formatting only or undo an
earlier edit; the rule is ambiguous (a lone punctuation change, prose, an
insertion or deletion seen only once, an identifier grown into another — the
rename suggester's job) or matches too many sites to be a targeted change —
unless the developer made that very change three times in a row, each
below (or above) the last: then the next match in that direction is offered
(the synthesis's walk). A site is never offered where the change would
delete a parameter the function still reads or an import the file still
uses (:mod:`nextedit.suggest.imports`): the developer kept those on purpose.

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from nextedit.suggest.imports import deletes_a_used_import
from nextedit.suggest.model import Candidate, CandidateFeatures, Shape, SilenceReason, TextEditCp
from nextedit.suggest.rename.evidence import identifier_renames
from nextedit.suggest.repeat.analogue import agreeing, analogue_rules, analogue_sites
from nextedit.suggest.repeat.examples import ExampleMemory
from nextedit.suggest.repeat.layout import keep_site_layout
from nextedit.suggest.repeat.lines import BlockFinder, LineRule, line_rules, nearest_line_sites, standing_reach
from nextedit.suggest.repeat.model import Site
from nextedit.suggest.repeat.rules import is_carried, literal_specificity
from nextedit.suggest.repeat.scan_memory import ScanMemory
from nextedit.suggest.repeat.synthesis import PastEdit, node_category, synthesize
from nextedit.suggest.repeat.synthesis import Proposal as RuleProposal
from nextedit.suggest.repeat.text import reads_as_prose
from nextedit.suggest.repeat.tokens import tokenize
from nextedit.suggest.signature import deletes_a_used_parameter
from nextedit.suggest.similarity import neighbour_similarity
from nextedit.suggest.suggester import Proposal, SuggestContext
from nextedit.syntax import enclosing_node
from nextedit.text import common_affixes
from nextedit.text.comments import ANY_COMMENT_STARTS, comment_starts
from nextedit.text.lexical import WORD_RE, word_hits
from nextedit.text.occurrence_index import OccurrenceIndex

__all__ = ["RepeatEditSuggester", "categorizer", "repeat_fingerprint", "repeat_proposals", "rule_features"]

# how many sites of each rule become candidates
_MAX_CANDIDATES = 3
# how many history edits the synthesis looks at, how many of them may be a
# rule's newest example, and how many rules (one per source) it proposes
_HISTORY = 24
_SOURCES = 20
_PROPOSALS = 4
# whole-line rules: how many sources, and sites per rule offered
_LINE_SOURCES = 20
_LINE_SITES_LIMIT = 60
# documents up to this many characters (a re-parse of a few ms) read the
# context of an edited span from the re-parsed tree (:func:`categorizer`)
_EXACT_EDITED_CHARS = 64 * 1024
# documents whose scan verdicts a suggester keeps across requests
_MEMORIES = 8
# an analogue rule's fixed text standing at more places than this says too little to be searched by
_ANALOGUE_PLACES = 120
# how many of the newest edits are an analogue rule's sources (of the traces' held-out
# analogue answers, 5 of 196 right ones came from older edits)
_ANALOGUE_SOURCES = 12


class DocumentMemory(NamedTuple):
    """What a suggester keeps of one document's earlier requests: the rules
    found in too many places, the examples of its recent edits (each used
    only while the text it was made from stands), and where the rules'
    anchor literals stand (moved with each edit): the token rules', and the
    analogue rules' fixed texts (up to :data:`_ANALOGUE_PLACES` places)."""

    scans: ScanMemory
    examples: ExampleMemory
    occurrences: OccurrenceIndex
    analogue_anchors: OccurrenceIndex


def repeat_rule(uri: str, before: str, after: str) -> str:
    """What the sites of one rule share (``Candidate.rule``). The texts are
    quoted: code holds ``->`` and ``@`` (C's ``p->next``, Rust's ``-> T``,
    decorators), and unquoted, a rule ``p`` → ``q->r`` would share its key with
    ``p->q`` → ``r``, so dismissing one would silence the other."""
    return f"repeat:{uri}:{before!r}->{after!r}"


def repeat_fingerprint(rule: str, site_text: str) -> str:
    """Stable under offset shifts: the rule (:func:`repeat_rule`) and the text of the site."""
    return f"{rule}@{site_text!r}"


# (uri, version, newest edit seq, cursor) -> proposals; shared by the repeat and
# search-and-replace suggesters so one request synthesises once
_CACHE: OrderedDict[tuple[object, ...], list[RuleProposal]] = OrderedDict()
_CACHE_SIZE = 32


def repeat_proposals(context: SuggestContext, memory: DocumentMemory | None = None) -> list[RuleProposal]:
    """The synthesizer's proposals for this request (cached per request);
    ``memory`` is what the caller keeps of the request document's earlier
    requests, if anything."""
    edits = context.edits[-_HISTORY:]
    if not edits:
        return []
    key = (
        context.uri,
        context.request.version,
        len(context.text),
        tuple((e.seq, e.start_cp, len(e.new_text)) for e in edits),
        context.cursor_cp,
    )
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    text = memory.occurrences.begin(context.document) if memory is not None else context.text
    proposals = synthesize(
        text,
        _past_edits(edits),
        context.cursor_cp,
        max_sources=_SOURCES,
        max_examples=_HISTORY,
        max_proposals=_PROPOSALS,
        cancelled=context.cancelled,
        category=categorizer(context),
        example_category=categorizer(context, edited=True),
        memory=memory.scans if memory is not None else None,
        example_memory=memory.examples if memory is not None else None,
        occurrence_index=memory.occurrences if memory is not None else None,
    )
    _CACHE[key] = proposals
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return proposals


def categorizer(
    context: SuggestContext, *, edited: bool = False
) -> Callable[[int, int], tuple[str, str | None] | None] | None:
    """``(start_cp, end_cp) -> (coarse, fine)`` context of a span, from the
    nodes of the request document's syntax tree strictly enclosing it.

    Read from the tree as of the last parse, offsets moved (no re-parse):
    exact away from the edits since. ``edited``: for a span the developer
    just edited (a rule's example), where that tree still holds the old
    nodes, laid out anyhow — the re-parsed tree is read instead when the
    document is small enough (:data:`_EXACT_EDITED_CHARS`) that its re-parse
    costs a few ms; a larger one keeps the old tree's reading."""
    tree = context.syntax
    if tree is None:
        return None
    document = context.document
    stale = not edited or len(context.text) > _EXACT_EDITED_CHARS

    # remembered for the request: the same sites are asked about by many rules
    @functools.cache
    def category(start: int, end: int) -> tuple[str, str | None] | None:
        bs, be = document.byte_offset_at(start), document.byte_offset_at(end)
        node = enclosing_node(tree, bs, be, stale=stale)
        while node is not None and node.start_byte == bs and node.end_byte == be:
            node = node.parent  # the span itself: its context is above it
        types: list[str] = []
        while node is not None and len(types) < 3:
            types.append(node.type)
            node = node.parent
        return node_category(types) if types else None

    return category


def _past_edits(edits: Sequence[object]) -> list[PastEdit]:
    out: list[PastEdit] = []
    for e in edits:
        out.append(PastEdit(e.start_cp, e.old_text, e.new_text, e.seq))  # type: ignore[attr-defined]
    return out


def _confidence(proposal: RuleProposal) -> float:
    rule = proposal.rule
    base = 0.9 if rule.evidence >= 2 else 0.75
    # fewer remaining sites = more targeted
    return max(0.1, base - 0.01 * min(len(proposal.sites), 10))


def evidence_lines(proposal: RuleProposal) -> tuple[str, ...]:
    rule = proposal.rule
    lines = [
        f"rule {rule.before_text!r} -> {rule.after_text!r} "
        f"({rule.evidence} example{'s' if rule.evidence > 1 else ''}, {len(proposal.sites)} site(s))"
    ]
    for example in rule.examples:
        lines.append(f"edit #{example.seq} at {example.start}: {example.old!r} -> {example.new!r}")
    return tuple(lines)


class RepeatEditSuggester:
    """Suggest the developer's last transformation at its next site."""

    name = "repeat"

    def __init__(self) -> None:
        # one session's documents, the most recently asked about last
        self._memories: OrderedDict[str, DocumentMemory] = OrderedDict()

    def propose(self, context: SuggestContext) -> Proposal:
        if not context.edits:
            return SilenceReason.NO_EVIDENCE
        memory = self._memory(context.uri)
        proposals = repeat_proposals(context, memory)
        renames = _Renames(context)
        category = categorizer(context) if renames else None

        def not_ours(start: int, end: int, new: str, examples: int) -> bool:
            """A rename seen once (or of a member) is the rename suggester's (it
            knows the binding); a parameter the function still reads, an import
            the file still uses, were kept on purpose."""
            return (
                (
                    (examples < 2 or _after_a_receiver(context.text, start))
                    and _renames_an_identifier(context.text, start, end, new, renames, category)
                )
                or deletes_a_used_parameter(context, start, end, new)
                or deletes_a_used_import(context, start, end, new)
            )

        comments = comment_starts(context.language)
        sources = _line_sources(context)
        candidates = [
            c
            for c in (
                *_line_candidates(context, self.name, sources, memory.scans),
                *_analogue_candidates(context, self.name, sources, memory.analogue_anchors),
            )
            if not not_ours(c.edits[0].start_cp, c.edits[0].end_cp, c.edits[0].new_text, c.features.examples)
        ]
        for proposal in proposals:
            rule = proposal.rule
            rule_id = repeat_rule(context.uri, rule.before_text, rule.after_text)
            evidence = evidence_lines(proposal)
            confidence = _confidence(proposal)
            for rank, site in enumerate(proposal.sites[:_MAX_CANDIDATES]):
                if context.cancelled():
                    return SilenceReason.CANCELLED
                if not_ours(site.start, site.end, site.new_text, rule.evidence) or _reindents_unlike(
                    context.text, site.start, site.end, site.new_text, rule.examples[-1]
                ):
                    continue
                candidates.append(
                    Candidate(
                        kind="edit",
                        uri=context.uri,
                        edits=(TextEditCp(site.start, site.end, site.new_text),),
                        score=max(0.05, confidence - 0.05 * rank - 0.05 * proposal.age),
                        suggester=self.name,
                        evidence=evidence,
                        fingerprint=repeat_fingerprint(rule_id, site.match_text),
                        rule=rule_id,
                        cursor_cp=site.start + len(site.new_text),
                        example_seq=max(e.seq for e in rule.examples),
                        features=rule_features(
                            proposal,
                            rank,
                            _placement(context, site.match_start, [e.start for e in rule.examples]),
                            _same_line(context.text, site.match_start, site.match_end, rule.examples[-1]),
                            _neighbour_similarity(context.text, site.start, site.end, rule.examples[-1]),
                            comments,
                        ),
                    )
                )
        # once each candidate is judged ours: whose change it is reads the rule's whole change
        return [_in_site_layout(context, c) for c in candidates] or SilenceReason.NO_CANDIDATES

    def _memory(self, uri: str) -> DocumentMemory:
        """The document's :class:`DocumentMemory` (the ``_MEMORIES`` most
        recently asked about are kept)."""
        memory = self._memories.get(uri)
        if memory is None:
            memory = self._memories[uri] = DocumentMemory(
                ScanMemory(), ExampleMemory(), OccurrenceIndex(), OccurrenceIndex(cap=_ANALOGUE_PLACES)
            )
            while len(self._memories) > _MEMORIES:
                self._memories.popitem(last=False)
        self._memories.move_to_end(uri)
        return memory


def _renames_an_identifier(
    text: str,
    start: int,
    end: int,
    new: str,
    renames: _Renames,
    category: Callable[[int, int], tuple[str, str | None] | None] | None = None,
) -> bool:
    """Whether replacing ``text[start:end]`` by ``new`` turns one whole
    identifier *of code* into another the way one of ``renames`` does (a
    word in a comment or a string is no binding: it stays a repeat)."""
    if not renames or (new and not WORD_RE.fullmatch(new)):
        return False
    ws = start
    while ws > 0 and WORD_RE.match(text, ws - 1):
        ws -= 1
    we = end
    while we < len(text) and WORD_RE.match(text, we):
        we += 1
    if (text[ws:we], text[ws:start] + new + text[end:we]) not in renames:
        return False
    where = category(ws, we) if category is not None else None
    return where is not None and where[0] == "code"


def _in_site_layout(context: SuggestContext, candidate: Candidate) -> Candidate:
    """``candidate`` (one edit, the rule's change at its site) with the site's
    own line breaks (:func:`~nextedit.suggest.repeat.layout.keep_site_layout`)."""
    (edit,) = candidate.edits
    start, end, new = keep_site_layout(context.text, edit.start_cp, edit.end_cp, edit.new_text, context.language)
    if (start, end, new) == (edit.start_cp, edit.end_cp, edit.new_text):
        return candidate
    return dataclasses.replace(candidate, edits=(TextEditCp(start, end, new),), cursor_cp=start + len(new))


def _reindents_unlike(text: str, start: int, end: int, new: str, example: PastEdit) -> bool:
    """A change within one line that begins inside the line's indentation,
    where the example's (within one line too) began among its line's text: a
    rule whose context is a blank before a name (``print name`` ->
    ``print(name)``) also matches the last blank of an indented
    ``name = …``, and rewriting it there would re-indent the line, not
    repeat the edit. A change that takes the rest of its line, or whole
    lines, is not judged here."""
    if "\n" in text[start:end] or "\n" in new or "\n" in example.old or "\n" in example.new:
        return False
    le = text.find("\n", end)
    if not text[end : len(text) if le < 0 else le].strip():
        return False  # nothing of the line stays after it: the line's text is replaced or removed whole
    return _in_indentation(text, start) and not _in_indentation(
        text, example.start + common_affixes(example.old, example.new)[0]
    )


def _in_indentation(text: str, at: int) -> bool:
    """``at`` lies before the first non-blank character of a line that has one."""
    ls = text.rfind("\n", 0, at) + 1
    le = text.find("\n", at)
    line = text[ls : len(text) if le < 0 else le]
    body = line.lstrip(" \t")
    return bool(body.strip()) and at < ls + len(line) - len(body)


def _after_a_receiver(text: str, start: int) -> bool:
    """The name at ``start`` is a member or path (``obj.name``, ``Type::name``,
    ``ptr->name``): the rename suggester renames those by their receiver in
    every scope, so it stays theirs however often the developer renamed it."""
    ws = start
    while ws > 0 and WORD_RE.match(text, ws - 1):
        ws -= 1
    before = text[max(0, ws - 8) : ws].rstrip()
    return before.endswith((".", "::", "->"))


class _Renames:
    """``(OLD, NEW)`` of the identifiers the developer renamed in the recent
    edits, as a container: a pair is in it unless NEW stood in the file
    already (a use re-pointed at a name the file had is no rename: the
    rename suggester leaves it). Asked only of the pairs a site would
    repeat, once each."""

    def __init__(self, context: SuggestContext) -> None:
        self.text = context.text
        self.made: dict[tuple[str, str], int] = {}  # how many sites the developer's renames gave NEW
        self.near: dict[tuple[str, str], int] = {}  # the newest of them
        for edit in context.edits[-_HISTORY:]:
            found = identifier_renames(edit)
            if found is not None and found[2]:
                pair = (found[0], found[1])
                self.made[pair] = self.made.get(pair, 0) + len(found[2])
                self.near[pair] = found[2][0]
        self.verdicts: dict[tuple[str, str], bool] = {}

    def __bool__(self) -> bool:
        return bool(self.made)

    def __contains__(self, pair: object) -> bool:
        if pair not in self.made:
            return False
        verdict = self.verdicts.get(pair)
        if verdict is None:
            verdict = self.verdicts[pair] = not _stands_more_often(self.text, pair[1], self.made[pair], self.near[pair])
        return verdict


# how far from the newest renamed site a new name is looked for, and how many
# of its appearances (inside longer words too) are looked at: the look costs
# the edit's surroundings, not the file
_NAME_REACH = 50_000
_NAME_HITS = 1_000


def _stands_more_often(text: str, name: str, made: int, around: int) -> bool:
    """Whether ``name`` stands as a whole word within ``_NAME_REACH``
    characters of ``around`` more than ``made`` times: somewhere the developer
    did not put it. A name found inside words more than ``_NAME_HITS`` times
    there (``i``) is taken to stand there already."""
    count = 0
    for hits, (_pos, whole) in enumerate(word_hits(text, name, around - _NAME_REACH, around + _NAME_REACH), 1):
        if hits > _NAME_HITS:
            return True
        count += whole
        if count > made:
            return True
    return False


def _line_sources(context: SuggestContext) -> list[tuple[int, LineRule]]:
    """``(age, rule)``: the whole-line rules (:mod:`nextedit.suggest.repeat.lines`)
    of the ``_LINE_SOURCES`` newest edits, the newest first (age 0)."""
    text = context.text
    out: list[tuple[int, LineRule]] = []
    for age, edit in enumerate(reversed(context.edits[-_LINE_SOURCES:])):
        past = PastEdit(edit.start_cp, edit.old_text, edit.new_text, edit.seq)
        out.extend((age, rule) for rule in line_rules(text, past))
    return out


def _line_candidates(
    context: SuggestContext, name: str, sources: Sequence[tuple[int, LineRule]], memory: ScanMemory | None = None
) -> list[Candidate]:
    """Candidates of the whole-line rules of recent edits (``sources``: :func:`_line_sources`).

    A rewrite of lines standing at more than ``_LINE_SITES_LIMIT`` places
    offers nothing; ``memory`` (the document's) keeps that verdict while the
    text up to the last place looked at, and the exclusions there, stand."""
    if not sources:
        return []
    if memory is not None:
        memory.begin(context.text)
    edits = context.edits[-_LINE_SOURCES:]
    text = context.text
    exclude = [(e.start_cp, e.new_end_cp) for e in edits]
    groups: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[tuple[int, LineRule]]] = {}
    for age, rule in sources:
        groups.setdefault((rule.kind, rule.before, rule.after), []).append((age, rule))
    out: list[Candidate] = []
    finders: dict[tuple[str, ...], BlockFinder] = {}
    comments = comment_starts(context.language)
    for (kind, before, after), members in groups.items():
        age, rule = members[0]
        finder = finders.get(before)
        if finder is None:
            finder = finders[before] = BlockFinder(text, before, exclude, context.cancelled)
        # one inserted example: only where both its context lines stand
        both_sides = kind != "clone" and len(members) < 2
        # a rewrite applies wherever its lines stand: past the limit it has no site
        rewrite = kind == "clone" and before != after
        key = ("lines", before, _LINE_SITES_LIMIT)
        if rewrite and memory is not None and memory.too_many(text, key, exclude) is not None:
            continue
        nearest = nearest_line_sites(
            text,
            rule,
            context.cursor_cp,
            _MAX_CANDIDATES,
            exclude,
            _LINE_SITES_LIMIT,
            context.cancelled,
            finder,
            both_sides,
        )
        if nearest is None and rewrite and memory is not None:
            standing = finder.standing(_LINE_SITES_LIMIT)  # what nearest_line_sites found, remembered
            if len(standing) > _LINE_SITES_LIMIT:
                memory.remember(text, key, standing_reach(standing), exclude, True, standing[-1][1])
        if not nearest or not nearest[0]:  # none, or more than the limit
            continue
        count, found = nearest
        spec = _line_specificity(" ".join(before))
        shape: Shape = "insert" if kind != "clone" else ("delete" if not after else "replace")
        changed = sum(len(x) for x in before) + sum(len(x) for x in after) if kind == "clone" else sum(map(len, after))
        evidence = (
            f"lines {rule.before_text!r} -> {rule.after_text!r} ({kind}, {len(members)} example(s), {count} site(s))",
            f"edit #{rule.example.seq} at {rule.example.start}",
        )
        example_cps = sorted(r.example.start for _, r in members)
        view = _LineRuleView(
            rule.before_text,
            rule.after_text,
            (*before, *after),
            rule.example,
            max(r.example.seq for _, r in members),
            repeat_rule(context.uri, rule.before_text, rule.after_text),
        )
        for rank, line_site in enumerate(found):
            out.append(
                _line_site_candidate(
                    context,
                    name,
                    line_site.site,
                    evidence,
                    view,
                    example_cps,
                    comments,
                    family=kind,
                    examples=len(members),
                    source_age=age,
                    sites=count,
                    site_rank=rank,
                    specificity=spec,
                    context_tokens=line_site.sides,
                    changed_tokens=len(before) + len(after),
                    changed_chars=changed,
                    changed_lines=len(before) + len(after) if kind == "clone" else len(after),
                    shape=shape,
                    same_line_text=True,
                )
            )
    return out


def _line_specificity(fixed: str) -> float:
    """How specific a whole-line rule's fixed text is: each name or string
    of it counts, longer ones more (up to 12 characters)."""
    return sum(min(len(t.text), 12) / 4.0 + 0.5 for t in tokenize(fixed) if t.kind in ("ident", "string"))


def _has_comment_line(lines: Sequence[str], comments: tuple[str, ...]) -> bool:
    """One of ``lines`` opens a comment (``comments``: the language's prefixes)."""
    return any(line.lstrip().startswith(comments) for line in lines)


class _LineRuleView(NamedTuple):
    """What a whole-line rule's candidates say of it: its before and after
    text, its lines (relative indentation), its newest example (whose
    surroundings a site's are compared with), the newest of all the
    examples that show it, and its key (:func:`repeat_rule`)."""

    before_text: str
    after_text: str
    lines: tuple[str, ...]
    example: PastEdit
    example_seq: int
    key: str


def _line_site_candidate(
    context: SuggestContext,
    name: str,
    site: Site,
    evidence: tuple[str, ...],
    rule: _LineRuleView,
    example_cps: Sequence[int],
    comments: tuple[str, ...],
    **features: Any,
) -> Candidate:
    """The ``edit`` candidate of one site of a whole-line rule (clone,
    insertion or analogue): the features every such site has (whole lines,
    where it lies against the examples, how its surroundings read like the
    newest example's) and the rule's own ``features``."""
    near, between, above = _placement(context, site.match_start, example_cps)
    return Candidate(
        kind="edit",
        uri=context.uri,
        edits=(TextEditCp(site.start, site.end, site.new_text),),
        score=0.6,
        suggester=name,
        evidence=evidence,
        fingerprint=repeat_fingerprint(rule.key, site.match_text),
        rule=rule.key,
        cursor_cp=site.start + len(site.new_text),
        example_seq=rule.example_seq,
        features=CandidateFeatures(
            whole_line=True,
            same_line_shape=True,
            prose=reads_as_prose(rule.before_text) or reads_as_prose(rule.after_text),
            comment=_has_comment_line(rule.lines, comments),
            above_source=above,
            lines_from_examples=near,
            between_examples=between,
            neighbour_similarity=_neighbour_similarity(context.text, site.start, site.end, rule.example),
            **features,
        ),
    )


def _analogue_candidates(
    context: SuggestContext, name: str, sources: Sequence[tuple[int, LineRule]], index: OccurrenceIndex
) -> list[Candidate]:
    """Candidates of the analogue rules (:mod:`nextedit.suggest.repeat.analogue`)
    of the whole-line rewrites in ``sources`` made by the
    ``_ANALOGUE_SOURCES`` newest edits: the nearest ``_MAX_CANDIDATES``
    sites of each rule from the cursor on, none of a rule standing at more
    than ``_LINE_SITES_LIMIT`` places. Their fixed texts are looked up in
    ``index`` (the document's), so a request reads what changed since the
    last one, not the whole text; one the index does not keep (more than
    its cap of places) gives no site. A rule with a comment line has no
    site: one comment's word swapped for another's is seldom the developer's
    next edit (about one top-ranked candidate in ten was right)."""
    groups = agreeing((age, a) for age, rule in sources if age < _ANALOGUE_SOURCES for a in analogue_rules(rule))
    if not groups:
        return []
    text = index.begin(context.document)
    places_of = functools.cache(functools.partial(index.starts, text))  # a source's rules share their fixed text
    exclude = [(e.start_cp, e.new_end_cp) for e in context.edits[-_LINE_SOURCES:]]
    out: list[Candidate] = []
    comments = comment_starts(context.language)
    for members in groups.values():
        age, rule = members[0]
        if _has_comment_line((*rule.before, *rule.after), comments):
            continue  # a word swapped in a comment's prose is no analogy (see above)
        found = analogue_sites(text, rule, exclude, _LINE_SITES_LIMIT, places_of)
        if not found:
            continue
        found.sort(key=lambda x: (x.site.start < context.cursor_cp, x.site.start))
        example = rule.source.example
        spec = _line_specificity("\n".join(rule.before).replace(rule.word, " "))
        evidence = (
            f"lines {rule.before_text!r} -> {rule.after_text!r} (analogue, {len(members)} example(s), "
            f"{len(found)} site(s))",
            f"edit #{example.seq} at {example.start}: `{rule.word}` there",
        )
        example_cps = sorted(r.source.example.start for _, r in members)
        view = _LineRuleView(
            rule.before_text,
            rule.after_text,
            (*rule.before, *rule.after),
            example,
            max(r.source.example.seq for _, r in members),
            repeat_rule(context.uri, rule.before_text, rule.after_text),
        )
        for rank, place in enumerate(found[:_MAX_CANDIDATES]):
            out.append(
                _line_site_candidate(
                    context,
                    name,
                    place.site,
                    evidence,
                    view,
                    example_cps,
                    comments,
                    family="analogue",
                    examples=len(members),
                    source_age=age,
                    sites=len(found),
                    site_rank=rank,
                    specificity=spec,
                    changed_tokens=len(rule.before) + len(rule.after),
                    changed_chars=sum(map(len, rule.before)) + sum(map(len, rule.after)),
                    changed_lines=len(rule.before) + len(rule.after),
                    shape="replace",
                )
            )
    return out


def _placement(context: SuggestContext, site_cp: int, example_cps: Sequence[int]) -> tuple[int, bool, bool]:
    """``(lines to the nearest example, between two examples, above the newest)``."""
    if not example_cps:
        return 0, False, False
    document = context.document
    line = document.line_of(min(site_cp, len(context.text)))
    lines = [document.line_of(min(cp, len(context.text))) for cp in example_cps]
    nearest = min(abs(line - x) for x in lines)
    return nearest, min(lines) < line < max(lines), site_cp < example_cps[-1]


def _same_line(text: str, start: int, end: int, example: PastEdit) -> tuple[bool, bool]:
    """Whether the site's line(s) read like the example's line(s) before its
    edit (indentation free): exactly, and with their numbers and strings set
    aside (``assertEquals(1, 1)`` and ``assertEquals(2, 2)``: the same shape)."""
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    le = len(text) if le < 0 else le
    es = text.rfind("\n", 0, example.start) + 1
    ee = text.find("\n", example.new_end)
    ee = len(text) if ee < 0 else ee
    if le - ls > 2000 or ee - es > 2000:
        return False, False
    before = text[es : example.start] + example.old + text[example.new_end : ee]
    site = text[ls:le].strip()
    return site == before.strip(), _shape(site) == _shape(before.strip())


_LITERAL = re.compile(r"""\d[\w.]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\s+""")


def _shape(line: str) -> str:
    """``line`` with numbers, strings and whitespace runs set aside."""
    return _LITERAL.sub(lambda m: " " if m.group().isspace() else "#", line)


def _neighbour_similarity(text: str, start: int, end: int, example: PastEdit) -> float:
    """Names shared by the lines around the site and around the newest
    example (:func:`nextedit.suggest.similarity.neighbour_similarity`)."""
    return neighbour_similarity(text, (start, end), (example.start, example.new_end))


def rule_features(
    proposal: RuleProposal,
    site_rank: int,
    placement: tuple[int, bool, bool] = (0, False, False),
    same_line: tuple[bool, bool] = (False, False),
    neighbour_similarity: float = 0.0,
    comments: tuple[str, ...] = ANY_COMMENT_STARTS,
) -> CandidateFeatures:
    """The ranker's view of one site of a repeat rule; ``comments`` are the
    prefixes that open a comment line in the document's language
    (:func:`~nextedit.text.comments.comment_starts`)."""
    rule = proposal.rule
    info = rule.info
    n_old, n_new = info.get("n_old", 0), info.get("n_new", 0)
    shape: Shape = "insert" if n_old == 0 else "delete" if n_new == 0 else "replace"
    if info.get("line_rule"):
        family = "line"
    elif rule.evidence >= 2:
        family = "anti-unified"
    else:
        family = "carried" if is_carried(rule) else "tokens"
    return CandidateFeatures(
        family=family,
        examples=rule.evidence,
        source_age=proposal.age,
        sites=len(proposal.sites),
        site_rank=site_rank,
        passed_over=info.get("passed_over", 0),
        specificity=literal_specificity(rule),
        context_tokens=info.get("kl", 0) + info.get("kr", 0),
        changed_tokens=n_old + n_new,
        changed_chars=len(info.get("old_text", "")) + len(info.get("new_text", "")),
        changed_lines=rule.examples[-1].old.count("\n") + rule.examples[-1].new.count("\n"),
        shape=shape,
        whole_line=bool(info.get("line_rule") or info.get("full_line")),
        prose=bool(info.get("prose")),
        comment=info.get("line_head", "").startswith(comments),
        new_literal=bool(info.get("new_literal")),
        identifier_only=bool(info.get("substitution")),
        lines_from_examples=placement[0],
        between_examples=placement[1],
        above_source=placement[2],
        same_line_text=same_line[0],
        same_line_shape=same_line[1],
        neighbour_similarity=neighbour_similarity,
    )
