r"""Search-and-replace: a repeated transformation with several sites left, as one find/replace.

Owns the ``searchAndReplace`` suggester. It takes the repeat synthesizer's
best rule (:func:`nextedit.suggest.repeat.repeat_proposals`) and, when the
rule has at least two remaining sites, expresses it as a search pattern:

- **literal** (``is_regex`` false) when the rule has no holes and every
  occurrence of the literal text in the file is a site;
- otherwise a **regex** in the subset that ECMAScript, Rust's ``regex``, Java
  and Python read alike (:mod:`nextedit.text.portable_regex`, the rule the
  bench scores by): escaped literal text, a group per identifier or number
  hole (ASCII classes spelt out), ``$1``…``$9`` in the replacement and ``$$``
  for a dollar. A rule that needs more — a repeated hole (a
  back-reference), a string hole (a negated class), word boundaries, line
  anchors, a backslash in the replacement — has no portable form: its sites
  stay one-site ``edit``\ s.

A pattern is offered only when expanding it over the whole file gives
exactly the sites the repeat suggester would edit (same ranges, same new
text) — never one that would touch anything else. ``Candidate.edits`` holds
that expansion. The engine offers the kind only to clients that advertised
it; others get the repeat suggester's one-site ``edit`` candidates.

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from nextedit.suggest.model import Candidate, SilenceReason, TextEditCp
from nextedit.suggest.repeat.model import Proposal as RuleProposal
from nextedit.suggest.repeat.model import Rule, Site
from nextedit.suggest.repeat.suggester import evidence_lines, repeat_proposals, rule_features
from nextedit.suggest.repeat.text import align_lines
from nextedit.suggest.repeat.tokens import IDENT, NUMBER
from nextedit.suggest.suggester import Proposal, SuggestContext
from nextedit.text import common_affixes
from nextedit.text.comments import comment_starts
from nextedit.text.portable_regex import escape, replace_edits, why_not_portable

__all__ = [
    "SearchReplaceSuggester",
    "expand",
    "portable_pattern",
    "search_replace_for",
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
    replaced = ((m.start(), m.end(), m.expand(replace) if is_regex else replace) for m in pattern.finditer(text))
    return _minimal_edits(text, replaced, limit)


def _minimal_edits(text: str, edits: Iterable[tuple[int, int, str]], limit: int | None = None) -> list[TextEditCp]:
    """Replacements ``(start, end, new)`` as minimal edits, unchanged ones
    dropped; only the first ``limit + 1`` when a limit is given."""
    out: list[TextEditCp] = []
    for start, end, new in itertools.islice(edits, None if limit is None else limit + 1):
        old = text[start:end]
        if new == old:
            continue
        pre, suf = common_affixes(old, new)
        s, e, ins = align_lines(text, start + pre, end - suf, new[pre : len(new) - suf])
        out.append(TextEditCp(s, e, ins))
    return out


def _site_edits(sites: Sequence[Site]) -> list[TextEditCp]:
    return sorted((TextEditCp(s.start, s.end, s.new_text) for s in sites), key=lambda e: (e.start_cp, e.end_cp))


def _same_change(text: str, a: Sequence[TextEditCp], b: Sequence[TextEditCp]) -> bool:
    """Same edits, or at least the same resulting text from the same regions."""
    if list(a) == list(b):
        return True
    return False


# hole kinds with a portable class (a string hole would need a negated class)
_PORTABLE_HOLES = {IDENT: "([A-Za-z_][A-Za-z0-9_]*)", NUMBER: "([0-9][A-Za-z0-9_.]*)"}


def portable_pattern(rule: Rule) -> tuple[str, str] | None:
    """The rule as a portable ``(pattern, replacement)``, or None when it has none
    (see the module docstring)."""
    if rule.info.get("line_rule") or len(rule.hole_kinds) > 9:
        return None
    group_of: dict[int, int] = {}
    parts: list[str] = []
    for part in rule.before:
        if isinstance(part, str):
            escaped = escape(part)
            if escaped is None:
                return None
            parts.append(escaped)
            continue
        if part in group_of or rule.hole_kinds[part] not in _PORTABLE_HOLES:
            return None  # a back-reference, or a string hole
        group_of[part] = len(group_of) + 1
        parts.append(_PORTABLE_HOLES[rule.hole_kinds[part]])
    replacement: list[str] = []
    for i, part in enumerate(rule.after):
        if isinstance(part, str):
            if "\\" in part:
                return None  # Java reads a backslash in a replacement as an escape
            replacement.append(part.replace("$", "$$"))
            continue
        nxt = rule.after[i + 1] if i + 1 < len(rule.after) else ""
        if part not in group_of or (isinstance(nxt, str) and nxt[:1] and (nxt[0].isalnum() or nxt[0] == "_")):
            return None  # ``$1x`` is group ``1x`` to Rust
        replacement.append(f"${group_of[part]}")
    pattern, replace = "".join(parts), "".join(replacement)
    if why_not_portable(pattern, replace) is not None:
        return None
    return pattern, replace


def search_replace_for(text: str, proposal: RuleProposal) -> tuple[str, str, bool, list[TextEditCp]] | None:
    """``(search, replace, is_regex, expansion)`` equal to the proposal's sites, or None."""
    if len(proposal.sites) < _MIN_SITES or not proposal.complete or proposal.rule.evidence < _MIN_EVIDENCE:
        return None
    wanted = _site_edits(proposal.sites)
    rule = proposal.rule
    # a literal rule, unless it is a line rule whose own regex reads lines ("(?m)"):
    # asked of the rule's source, as compiling a pattern costs more than the search
    if rule.literal and not (rule.own_pattern or "").startswith("(?m)"):
        search, replace = rule.before_text, rule.after_text
        if search:
            got = expand(text, search, replace, False, len(wanted))
            if _same_change(text, got, wanted):
                return search, replace, False, got
    portable = portable_pattern(rule)
    if portable is None:
        return None
    search, replace = portable
    got = _minimal_edits(text, replace_edits(text, search, replace), len(wanted))
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
                fingerprint=f"searchAndReplace:{context.uri}:{search!r}->{replace!r}",
                search=search,
                replace=replace,
                is_regex=is_regex,
                example_seq=max(e.seq for e in rule.examples),
                features=rule_features(best, 0, comments=comment_starts(context.language)),
            )
        ]
