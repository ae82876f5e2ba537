"""Search-and-replace: a repeated transformation with several sites left, as one find/replace.

Owns the ``searchAndReplace`` suggester. It takes the repeat synthesizer's
best rule (:func:`nextedit.suggest.repeat.repeat_proposals`) and, when the
rule has at least two remaining sites, expresses it as a search pattern:

- **literal** (``is_regex`` false) when the rule has no holes and every
  occurrence of the literal text in the file is a site;
- otherwise a **regex** in Python ``re`` syntax: numbered groups ``(...)``
  for the rule's holes, ``\\1``-style back-references in the replacement,
  ``(?<!\\w)``/``(?!\\w)`` word boundaries, ``(?m)`` for line anchors.

A pattern is offered only when expanding it over the whole file gives
exactly the sites the repeat suggester would edit (same ranges, same new
text) — never one that would touch anything else. ``Candidate.edits`` holds
that expansion. The engine offers the kind only to clients that advertised
it; others get the repeat suggester's one-site ``edit`` candidates.

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from nextedit.suggest.model import Candidate, SilenceReason, TextEditCp
from nextedit.suggest.repeat.model import Proposal as RuleProposal
from nextedit.suggest.repeat.model import Rule, Site
from nextedit.suggest.repeat.suggester import evidence_lines, repeat_proposals, rule_features
from nextedit.suggest.repeat.text import align_lines, trim_edit
from nextedit.suggest.suggester import Proposal, SuggestContext

__all__ = [
    "SearchReplaceSuggester",
    "expand",
    "search_replace_for",
    "numbered_pattern",
]

_MIN_SITES = 2
# a one-off edit that happens to match elsewhere is common; a whole-file
# replacement is offered only once two examples agree
_MIN_EVIDENCE = 2


def expand(text: str, search: str, replace: str, is_regex: bool, limit: int | None = None) -> list[TextEditCp]:
    """What a client does with a search-and-replace: every match, left to right,
    as minimal edits (unchanged matches dropped); stops after ``limit + 1``
    matches when a limit is given."""
    pattern = re.compile(search if is_regex else re.escape(search))
    out: list[TextEditCp] = []
    for i, m in enumerate(pattern.finditer(text)):
        if limit is not None and i > limit:
            break
        new = m.expand(replace) if is_regex else replace
        old = m.group()
        if new == old:
            continue
        pre, suf, _ = trim_edit(old, new)
        start, end, ins = align_lines(text, m.start() + pre, m.end() - suf, new[pre : len(new) - suf])
        out.append(TextEditCp(start, end, ins))
    return out


def _site_edits(sites: Sequence[Site]) -> list[TextEditCp]:
    return sorted((TextEditCp(s.start, s.end, s.new_text) for s in sites), key=lambda e: (e.start_cp, e.end_cp))


def _same_change(text: str, a: Sequence[TextEditCp], b: Sequence[TextEditCp]) -> bool:
    """Same edits, or at least the same resulting text from the same regions."""
    if list(a) == list(b):
        return True
    return False


def numbered_pattern(rule: Rule) -> tuple[str, str]:
    """The rule's regex and replacement with numbered groups (``(...)``, ``\\1``)."""
    names = list(rule.regex.groupindex)  # in order of appearance
    number = {name: i + 1 for i, name in enumerate(sorted(names, key=lambda n: rule.regex.groupindex[n]))}
    pattern = rule.regex.pattern
    for name, n in number.items():
        pattern = pattern.replace(f"(?P<{name}>", "(")
        pattern = pattern.replace(f"(?P={name})", f"\\{n}")
    replacement = rule.replacement
    for name, n in number.items():
        replacement = re.sub(re.escape(f"\\g<{name}>") + r"(?=(\d?))", _group_reference(n), replacement)
    return pattern, replacement


def _group_reference(n: int) -> Callable[[re.Match[str]], str]:
    """``\\n``, or ``\\g<n>`` when a digit follows (``\\10`` would be group 10)."""
    return lambda m: f"\\g<{n}>" if m.group(1) else f"\\{n}"


def search_replace_for(text: str, proposal: RuleProposal) -> tuple[str, str, bool, list[TextEditCp]] | None:
    """``(search, replace, is_regex, expansion)`` equal to the proposal's sites, or None."""
    if len(proposal.sites) < _MIN_SITES or not proposal.complete or proposal.rule.evidence < _MIN_EVIDENCE:
        return None
    wanted = _site_edits(proposal.sites)
    rule = proposal.rule
    if rule.literal and not rule.regex.pattern.startswith("(?m)"):
        search, replace = rule.before_text, rule.after_text
        if search:
            got = expand(text, search, replace, False, len(wanted))
            if _same_change(text, got, wanted):
                return search, replace, False, got
    search, replace = numbered_pattern(rule)
    try:
        got = expand(text, search, replace, True, len(wanted))
    except re.error:
        return None
    if _same_change(text, got, wanted):
        return search, replace, True, got
    return None


class SearchReplaceSuggester:
    """Offer the repeat rule as one search-and-replace when it has several sites."""

    name = "search-replace"

    def propose(self, context: SuggestContext) -> Proposal:
        if not context.kinds.search_and_replace:
            return SilenceReason.FILTERED
        if not context.edits:
            return SilenceReason.NO_EVIDENCE
        proposals = repeat_proposals(context)
        if not proposals:
            return SilenceReason.NO_CANDIDATES
        best = proposals[0]
        found = search_replace_for(context.text, best)
        if found is None:
            return SilenceReason.NO_CANDIDATES
        search, replace, is_regex, edits = found
        rule = best.rule
        # below the one-site edit: a many-region change is judged region by
        # region, so it is riskier than the nearest site alone
        score = (0.85 if rule.evidence >= 2 else 0.65) - 0.01 * min(len(edits), 10)
        return [
            Candidate(
                kind="searchAndReplace",
                uri=context.uri,
                edits=tuple(edits),
                score=score,
                suggester=self.name,
                evidence=evidence_lines(best),
                fingerprint=f"searchAndReplace:{context.uri}:{search}->{replace}",
                search=search,
                replace=replace,
                is_regex=is_regex,
                features=rule_features(best, 0),
            )
        ]
