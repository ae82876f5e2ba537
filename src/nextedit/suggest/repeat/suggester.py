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

Silence when: no history; the newest edits are formatting only or undo an
earlier edit; the rule is ambiguous (a lone punctuation change, prose, an
insertion or deletion seen only once, an identifier grown into another — the
rename suggester's job) or matches too many sites to be a targeted change.

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence

from nextedit.suggest.model import Candidate, SilenceReason, TextEditCp
from nextedit.suggest.repeat.synthesis import PastEdit, node_category, synthesize
from nextedit.suggest.repeat.synthesis import Proposal as RuleProposal
from nextedit.suggest.suggester import Proposal, SuggestContext
from nextedit.syntax import enclosing_node

__all__ = ["RepeatEditSuggester", "repeat_proposals", "repeat_fingerprint"]

log = logging.getLogger(__name__)

# how many sites of the best rule become candidates
_MAX_CANDIDATES = 3
# how many history edits the synthesis looks at
_HISTORY = 10


def repeat_fingerprint(uri: str, before: str, after: str, site_text: str) -> str:
    """Stable under offset shifts: the rule and the text of the site."""
    return f"repeat:{uri}:{before}->{after}@{site_text}"


# (uri, version, newest edit seq, cursor) -> proposals; shared by the repeat and
# search-and-replace suggesters so one request synthesises once
_CACHE: OrderedDict[tuple[object, ...], list[RuleProposal]] = OrderedDict()
_CACHE_SIZE = 32


def repeat_proposals(context: SuggestContext) -> list[RuleProposal]:
    """The synthesizer's proposals for this request (cached per request)."""
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
    past = _past_edits(edits)
    try:
        proposals = synthesize(
            context.text, past, context.cursor_cp, cancelled=context.cancelled, category=_categorizer(context)
        )
    except Exception:  # never cost the other suggesters
        log.exception("repeat synthesis failed for %s", context.uri)
        proposals = []
    _CACHE[key] = proposals
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return proposals


def _categorizer(context: SuggestContext) -> Callable[[int, int], tuple[str, str | None] | None] | None:
    """``(start_cp, end_cp) -> (coarse, fine)`` context of a span, from the
    nodes of the request document's syntax tree strictly enclosing it."""
    tree = context.syntax
    if tree is None:
        return None
    document = context.document

    def category(start: int, end: int) -> tuple[str, str | None] | None:
        try:
            bs, be = document.byte_offset_at(start), document.byte_offset_at(end)
            node = enclosing_node(tree, bs, be)
        except Exception:  # noqa: BLE001 - a stale tree must not cost the suggestion
            return None
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

    def propose(self, context: SuggestContext) -> Proposal:
        if not context.edits:
            return SilenceReason.NO_EVIDENCE
        proposals = repeat_proposals(context)
        if not proposals:
            return SilenceReason.NO_CANDIDATES
        best = proposals[0]
        rule = best.rule
        evidence = evidence_lines(best)
        confidence = _confidence(best)
        candidates: list[Candidate] = []
        for rank, site in enumerate(best.sites[:_MAX_CANDIDATES]):
            if context.cancelled():
                return SilenceReason.CANCELLED
            candidates.append(
                Candidate(
                    kind="edit",
                    uri=context.uri,
                    edits=(TextEditCp(site.start, site.end, site.new_text),),
                    score=max(0.05, confidence - 0.05 * rank),
                    suggester=self.name,
                    evidence=evidence,
                    fingerprint=repeat_fingerprint(context.uri, rule.before_text, rule.after_text, site.match_text),
                    cursor_cp=site.start + len(site.new_text),
                    extra={
                        "rule_evidence": rule.evidence,
                        "sites": len(best.sites),
                        "specificity": rule.specificity,
                    },
                )
            )
        return candidates
