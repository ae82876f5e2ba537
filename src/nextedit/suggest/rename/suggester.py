"""Rename propagation: the developer renamed an identifier at one site; rename the rest.

Owns the ``rename`` suggester. Evidence is a developer edit that turned one
whole identifier ``OLD`` into another identifier ``NEW`` (at a definition or
a use). The other occurrences *of the same binding* still read ``OLD``;
they are found by resolving the binding in the text as it was *before* the
rename: the renamed site(s) are reverted in a scratch copy of the text, the
syntax tree is edited and re-parsed incrementally (cost grows with the edit,
not the file), and :func:`nextedit.syntax.scopes.binding_occurrences` is asked
at the edited site. Strings and comments are never identifiers, a same-named
variable of another scope is another binding: both stay untouched.

When the binding is a file-level definition (a top-level function, class,
type, constant…), other open documents of the same language get their own
candidates for the occurrences that refer to it (imports of it and
references with no local definition of their own).

Refinements of the syntax layer's binding (which resolves names per
function): a Python ``except … as NAME`` is its own binding per clause (the
name is unbound when the clause ends); a member or path use whose binding
has no definition in the file (``Pool::new``, ``obj.attr``) only renames the
uses with the same receiver text (``Pool::new``, not ``Vec::new``).

Partial renames: when a hunk the developer rewrote still reads OLD at an
occurrence of the binding, they kept it on purpose (``rule_obj =
make(rule)``): silence. When occurrences between two renamed sites were
skipped, only the next occurrence beyond the renamed span is offered. The
same name elsewhere (below) is never an occurrence the developer kept.

Once the binding is done, the same name elsewhere may follow, one site per
candidate: family ``text`` (code the binding does not reach, never another
function's local), or — for a word fixed in a comment or a string with the
shape of a typo (``bounaries`` → ``boundaries``) — family ``spelling`` (the
other comments and strings that spell it so, never code).

Without the client's ``rename`` kind the suggestion falls back to an
``edit`` of one occurrence (``fallback_edits``): the one a diagnostic
covers, else the nearest at or after the cursor (else the last before it).
An editor applying it and asking again gets the next one (NES style), as the
repeat suggester offers one site at a time: a developer often renames only
some uses (a use re-pointed at another name, an external method swapped at a
few calls), and a group of occurrences is wrong as soon as one of them was
meant to stay. ``rename`` itself always carries every occurrence.

Silence when: the edit is not an identifier change; ``OLD`` is a name the
language predeclares (``grammars/<language>/builtins.txt``: Go's
``string``, Ruby's ``warn``) and the file does not define it — the
developer replaced one use of the builtin, which is no rename of it;
``NEW`` is a strict prefix of ``OLD`` (backspacing) or does not parse as an
identifier; the developer earlier renamed ``NEW`` to ``OLD`` (that would
rename back); every occurrence already reads ``NEW``; a capitalised ``OLD``
becomes a lower-case ``NEW`` and an occurrence left is constructed with
``new`` (``import { OperatorSubscriber }`` → ``{ createOperatorSubscriber }``:
a class swapped for a factory, whose calls drop ``new``: ``new
createOperatorSubscriber(…)`` is no rename).

Owns the suggester itself: evidence in, candidates (or a reason for
silence) out. Its parts live beside it: :mod:`nextedit.suggest.rename.evidence`
(renames in the edit history), :mod:`nextedit.suggest.rename.binding` (the
binding in the text before the rename) and
:mod:`nextedit.suggest.rename.occurrences` (shorthands, diagnostics, fallback
groups, other documents).

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from typing import Any

from tree_sitter import Node

from nextedit.suggest.model import Candidate, CandidateFeatures, SilenceReason, TextEditCp, TriggerKind
from nextedit.suggest.rename.binding import (
    BeforeBinding,
    BeforeTrees,
    binding_in_before,
    check_new_name,
    in_import,
    is_definition_name,
    map_to_before,
    revert_sites,
    token_occurrences,
)
from nextedit.suggest.rename.evidence import (
    RenameEvidence,
    change_besides,
    describe_evidence,
    evidence_edits,
    find_evidence,
    holds_tokens,
    identifier_renames,
    kept_on_purpose,
    renamed_sites,
    renamed_text,
    renames_back,
)
from nextedit.suggest.rename.occurrences import (
    cross_file_edits,
    diagnosed_occurrence,
    is_member,
    next_occurrence,
    shorthand_fields,
    word_starts,
)
from nextedit.suggest.similarity import line_similarity, neighbour_similarity
from nextedit.suggest.suggester import DocumentStateView, Proposal, SuggestContext
from nextedit.syntax.builtins import builtin_names
from nextedit.text import utf8
from nextedit.text.lexical import word_hits

__all__ = ["RenameSuggester", "identifier_renames", "rename_fingerprint"]
log = logging.getLogger(__name__)


def rename_fingerprint(uri: str, old: str, new: str) -> str:
    return f"rename:{uri}:{old}->{new}"


@dataclass(frozen=True, slots=True)
class _KeptOnPurpose:
    """A partial rename: a hunk the developer rewrote still reads OLD at an
    occurrence of the binding. Nothing is offered for the binding, and these
    occurrences (current offsets: every one the binding has left) are not
    the same name elsewhere either."""

    occurrences: frozenset[int]


class RenameSuggester:
    """Propagates an identifier rename to the rest of its binding."""

    name = "rename"

    def __init__(self) -> None:
        # (uri, version, old, new, sites) -> proposal; suggest is asked often
        # for the same state (cursor moves), the resolution is not free
        self._cache: dict[tuple, Proposal | _KeptOnPurpose] = {}
        # (other uri, its version, text hash, old) -> OLD starts that refer to another
        # file's top-level OLD; unchanged documents are not searched again
        self._cross_cache: dict[tuple, tuple[int, ...]] = {}
        # the before text's tree of the last rename, for the next site's suggest
        self._before_trees = BeforeTrees()

    def propose(self, context: SuggestContext) -> Proposal:
        """The newest rename's binding, or else its same word elsewhere. A
        rename that reaches only the same word (a word changed in a string,
        ``"requests"`` → ``"psf"``) does not hide an older rename whose
        binding still has occurrences to rename: both are offered, and the
        ranker weighs them."""
        evidence = find_evidence(context)
        if evidence is None:
            return SilenceReason.NO_EVIDENCE
        words: list[Candidate] = []
        for rank, ev in enumerate(evidence):
            if context.cancelled():
                return SilenceReason.CANCELLED
            if renames_back(context, ev):
                continue
            if _nothing_left(context, ev):
                continue
            fingerprint = rename_fingerprint(context.uri, ev.old, ev.new)
            result = self._propose_for(context, ev, rank) if fingerprint not in context.rejected else []
            binding = result if isinstance(result, list) else []
            if binding:
                return words + binding
            if words:
                continue  # an older rename is looked at for its binding alone
            # the same word outside the binding: only once the binding itself is
            # done, and never where the developer kept OLD on purpose
            kept = result.occurrences if isinstance(result, _KeptOnPurpose) else frozenset()
            words = _same_word_candidates(context, ev, rank, self.name, kept) if _TEXT_SITES else []
        return words if words else SilenceReason.NO_CANDIDATES

    # -- one piece of evidence ----------------------------------------------

    def _propose_for(self, context: SuggestContext, ev: RenameEvidence, rank: int) -> Proposal | _KeptOnPurpose:
        sites = renamed_sites(context.edits, ev.old, ev.new)
        key = (
            context.uri,
            context.document.version,
            ev.old,
            ev.new,
            tuple(sites),
            rank,
            context.rejected,
            context.request.diagnostics if context.request.trigger_kind is TriggerKind.DIAGNOSTIC else (),
        )
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        result = self._propose_binding(context, ev, sites, rank)
        if len(self._cache) > 32:
            self._cache.clear()
        self._cache[key] = result
        return result

    def _propose_binding(
        self, context: SuggestContext, ev: RenameEvidence, sites: list[int], rank: int
    ) -> Proposal | _KeptOnPurpose:
        state = context.state
        document = context.document
        text = document.text
        old, new = ev.old, ev.new
        if state.syntax is not None:
            verdict = check_new_name(state, ev, sites)
            if verdict is not None:
                return verdict

        before = revert_sites(document, sites, old, new)
        anchor_before = map_to_before(ev.site_cp, sites, old, new)
        resolved: BeforeBinding | None = None
        if state.syntax is not None:
            resolved = binding_in_before(state, before, anchor_before, self._before_trees)
            if resolved is None:
                return SilenceReason.NO_CANDIDATES
            ranges_before = resolved.ranges
        else:
            ranges_before = token_occurrences(before.text, anchor_before)
        if (resolved is None or not resolved.defined_here) and _is_builtin(context, old):
            log.debug("rename %s→%s: %s is the language's, not a binding of the file", old, new, old)
            return SilenceReason.NO_CANDIDATES
        file_level = resolved is not None and resolved.file_level

        edits = _remaining(text, ranges_before, sites, old, new)
        if _factory_for_a_class(text, old, new, [e.start_cp for e in edits]):
            log.debug("rename %s→%s: a class swapped for a function where it is constructed", old, new)
            return SilenceReason.NO_CANDIDATES

        if state.syntax is not None and edits:
            edits = shorthand_fields(state, edits, old, new)
        base_score = 0.9 if state.syntax is not None else 0.6
        base_score -= 0.1 * rank
        group_edits = evidence_edits(context.edits, old, new)
        kept = kept_on_purpose(group_edits, edits)
        if kept:
            log.debug("rename %s→%s: %d occurrence(s) kept in a rewritten hunk: partial", old, new, len(kept))
            return _KeptOnPurpose(frozenset(e.start_cp for e in edits))
        partial = False
        if len(sites) >= 2 and edits:
            lo, hi = sites[0], sites[-1]
            skipped = [e for e in edits if lo < e.start_cp < hi]
            if skipped:
                outside = [e for e in edits if not lo < e.start_cp < hi]
                if not outside:
                    return SilenceReason.NO_CANDIDATES
                nearest = min(outside, key=lambda e: abs(e.start_cp - ev.site_cp))
                edits = [nearest]
                partial = True
                base_score = min(base_score, 0.6)

        candidates: list[Candidate] = []
        # what every candidate of this rename shares (its own file's and the other files')
        shared = _rename_features(ev, rank, examples=len(sites), done=len(sites))
        evidence = tuple(describe_evidence(document, e, old, new) for e in group_edits[-3:])
        if len(sites) > 1:
            evidence += (f"{len(sites)} sites already renamed",)
        if partial:
            evidence += ("occurrences between renamed sites were skipped: only the next one",)
        if edits:
            target = min(edits, key=lambda e: abs(e.start_cp - ev.site_cp)).start_cp
            diagnosed = diagnosed_occurrence(context, edits)
            if diagnosed is not None:
                # fix what the editor reports first (e.g. the now-undefined OLD)
                evidence += (f"fixes the diagnostic at line {document.line_of(diagnosed.start_cp) + 1}",)
            fallback = [diagnosed] if diagnosed is not None else [next_occurrence(edits, context.cursor_cp)]
            member = _anchor_is_member(state, ev)
            candidates.append(
                Candidate(
                    kind="rename",
                    uri=context.uri,
                    edits=tuple(edits),
                    score=base_score,
                    suggester=self.name,
                    evidence=evidence + (f"{len(edits)} more occurrence(s) of the binding",),
                    fingerprint=rename_fingerprint(context.uri, old, new),
                    cursor_cp=None,
                    target_cp=target,
                    new_name=new,
                    fallback_edits=tuple(fallback),
                    example_seq=ev.edit.seq,
                    features=replace(
                        shared,
                        family="binding" if state.syntax is not None else "tokens",
                        sites=len(edits),
                        occurrences=len(edits),
                        defined_here=resolved is not None and resolved.defined_here,
                        at_definition=resolved is not None and resolved.at_definition,
                        member=member,
                        imported=resolved is not None and resolved.imported,
                        partial=partial,
                        file_level=file_level,
                    ),
                )
            )
        if file_level:
            for other in context.other_states():
                if context.cancelled():
                    break
                cross = cross_file_edits(state.language, other, old, new, self._cross_cache)
                if cross:
                    candidates.append(
                        Candidate(
                            kind="rename",
                            uri=other.uri,
                            edits=tuple(cross),
                            score=base_score - 0.1,
                            suggester=self.name,
                            evidence=evidence + (f"{len(cross)} reference(s) to the top-level {old} in {other.uri}",),
                            fingerprint=rename_fingerprint(other.uri, old, new),
                            target_cp=cross[0].start_cp,
                            new_name=new,
                            example_seq=ev.edit.seq,
                            features=replace(shared, family="cross-file", sites=len(cross), occurrences=len(cross)),
                        )
                    )
        return candidates if candidates else SilenceReason.NO_CANDIDATES


# places of OLD inside longer words :func:`_nothing_left` looks past before the tree decides
_NOTHING_LEFT_HITS = 64


def _nothing_left(context: SuggestContext, ev: RenameEvidence) -> bool:
    """OLD stands nowhere in the text as a whole word (at most inside longer
    words, as inside a NEW that extends it: ``format_to`` → ``format_to_n``)
    and no other document is open: no occurrence is left for the binding,
    whose uses are whole identifier tokens, nor for the same name outside it
    or in another file, whatever the syntax says — so the tree is not read
    (a re-parse of an error-laden C++ header costs ~10 ms whatever the edit:
    ``benchmarks/results/trace-latency-p99-notes.md``). The search is C
    ``str.find`` scans of the text (1.6 ms at 5 MB when OLD is absent, which
    then saves a re-parse of as many MB), for at most three renames; past
    ``_NOTHING_LEFT_HITS`` places inside longer words it gives up and the
    tree decides."""
    if next(iter(context.other_states()), None) is not None:
        return False
    for n, (_, whole) in enumerate(word_hits(context.text, ev.old)):
        if whole or n >= _NOTHING_LEFT_HITS:
            return False
    return True


def _remaining(
    text: str, ranges_before: list[tuple[int, int]], sites: list[int], old: str, new: str
) -> list[TextEditCp]:
    """An edit OLD → NEW at every occurrence of the binding (before-text
    ranges) that is not a renamed site and still reads OLD, in
    current offsets, ascending: one merge walk past the sites."""
    grow, n = len(old) - len(new), len(old)
    sites_before = [s + grow * i for i, s in enumerate(sites)]  # = map_to_before of each site
    edits: list[TextEditCp] = []
    k = 0
    for start_b, _end_b in sorted(ranges_before):
        while k < len(sites_before) and sites_before[k] < start_b:
            k += 1
        if k < len(sites_before) and sites_before[k] == start_b:
            continue  # a renamed site
        start = start_b - grow * k  # = map_from_before(start_b, sites, old, new)
        if text.startswith(old, start):
            edits.append(TextEditCp(start, start + n, new))
    edits.sort(key=lambda e: e.start_cp)
    return edits


def _rename_features(ev: RenameEvidence, rank: int, **fields: Any) -> CandidateFeatures:
    """The features every rename candidate carries (one identifier swapped
    for another, the evidence's age among the renames tried), with ``fields``."""
    return CandidateFeatures(
        source_age=rank, identifier_only=ev.pure, changed_tokens=2, changed_chars=len(ev.old) + len(ev.new), **fields
    )


# ``new`` right before a name: the name is constructed there (JavaScript,
# TypeScript, Java, C#, C++, PHP), not a member ``x.new`` or a word ``renew``
_NEW_BEFORE = re.compile(r"(?<![\w$.])new\s+$")


def _factory_for_a_class(text: str, old: str, new: str, starts: list[int]) -> bool:
    """``OperatorSubscriber`` → ``createOperatorSubscriber`` with OLD still
    constructed (``new OLD(…)``) at one of ``starts``: a capitalised name (a
    class, by every convention) swapped for a lower-case one (a function),
    whose calls drop ``new`` — no rename of the class."""
    o, n = old.lstrip("_$"), new.lstrip("_$")
    if not o or not n or not o[0].isupper() or not n[0].islower():
        return False
    return any(_NEW_BEFORE.search(text, max(0, s - 16), s) is not None for s in starts)


def _is_builtin(context: SuggestContext, name: str) -> bool:
    """Whether ``name`` is one the document's language predeclares (Go's
    ``string``, Ruby's ``warn``): replacing a use of it is no rename of it."""
    language = context.language
    return language is not None and name in builtin_names(language)


def _anchor_is_member(state: DocumentStateView, ev: RenameEvidence) -> bool:
    """Whether the renamed site is a member name (``obj.name``)."""
    if state.syntax is None:
        return False
    document = state.document
    b = document.byte_offset_at(ev.site_cp)
    node = state.syntax.root.named_descendant_for_byte_range(b, b + len(utf8(ev.new)))
    return node is not None and is_member(node)


# same-name occurrences outside the binding offered as candidates (0: none)
_TEXT_SITES = 3
_TEXT_MAX_OCCURRENCES = 64


def _same_word_candidates(
    context: SuggestContext, ev: RenameEvidence, rank: int, name: str, kept: frozenset[int] = frozenset()
) -> list[Candidate]:
    """OLD → NEW at the other whole-word places of OLD, once the binding has
    nothing left to rename, one site per candidate; the ranker weighs them.
    A typo fixed in prose goes to the prose that spells it so (family
    ``spelling``: :func:`_spelling_sites`); otherwise the developer's rename
    goes to the code the binding does not reach (family ``text``:
    :func:`_text_sites`). OLD's places are found once for both; ``kept``
    (the binding's occurrences a partial rename left) are none of them."""
    old, new = ev.old, ev.new
    starts = word_starts(context.text, old)
    if not starts or len(starts) > _TEXT_MAX_OCCURRENCES:
        return []
    if kept:
        starts = [s for s in starts if s not in kept]
    sites = _spelling_sites(context, ev, starts)
    prose = bool(sites)
    if prose:
        family, evidence = "spelling", f"`{old}`→`{new}` fixed elsewhere in prose; the same spelling here"
    else:
        sites = _text_sites(context, ev, starts)
        if not ev.pure:
            sites = _without_the_whole_change(context, ev, sites)
        family, evidence = "text", f"`{old}`→`{new}` elsewhere; the same name here, outside that binding"
    return _site_candidates(context, ev, rank, name, sites, family=family, evidence=evidence, prose=prose)


def _text_sites(context: SuggestContext, ev: RenameEvidence, starts: list[int]) -> list[int]:
    """The places of OLD (``starts``) the developer's rename may reach that
    the binding does not — another binding of the same name (a pytest
    fixture's parameter in another test), a name defined elsewhere. Never in
    a comment or a string, never another local variable of the same name,
    and none for a name the language predeclares or a class swapped for a
    factory (:func:`_factory_for_a_class`)."""
    old = ev.old
    if _is_builtin(context, old):
        return []  # the same name elsewhere is the language's
    if _factory_for_a_class(context.text, old, ev.new, starts):
        return []
    return [
        s for s in _outside_other_locals(context, starts, len(old)) if not _in_comment_or_string(context, s, len(old))
    ]


# the lines from a site's own on where the rest of the developer's change is looked for
_BESIDES_LINES = 2


def _without_the_whole_change(context: SuggestContext, ev: RenameEvidence, starts: list[int]) -> list[int]:
    """``starts`` less the places where the developer's whole change applies.
    When every edit that renamed OLD also made one same other change
    (:func:`~nextedit.suggest.rename.evidence.change_besides`), the rename
    alone is half of it where that change's old text stands on the line too
    (``PyErr_SetString(PyExc_RuntimeError, msg)``: the repeat suggester
    offers the whole); elsewhere the name is all there is to change (``n >
    alloced`` rewritten with its condition, a lone ``alloced`` renamed). A
    change that only writes (no old text) applies anywhere."""
    besides = change_besides(evidence_edits(context.edits, ev.old, ev.new), ev.old, ev.new)
    if besides is None:
        return starts
    replaced = besides[0]
    if not replaced:
        return []
    document, text = context.document, context.text
    last_line = document.line_of(len(text))
    kept = []
    for start in starts:
        line = document.line_of(start)
        window = text[document.line_start(line) : document.line_end(min(line + _BESIDES_LINES, last_line))]
        if not holds_tokens(renamed_text(window, ev.old, ev.new), replaced):
            kept.append(start)
    return kept


def _site_candidates(
    context: SuggestContext,
    ev: RenameEvidence,
    rank: int,
    name: str,
    starts: list[int],
    *,
    family: str,
    evidence: str,
    prose: bool,
) -> list[Candidate]:
    """OLD → NEW at the first ``_TEXT_SITES`` of ``starts`` (nearest after
    the cursor first), one candidate each, with what the ranker reads of such
    a site: how far it lies from the renamed sites and how much its line and
    its neighbourhood read like the developer's."""
    text = context.text
    old, new = ev.old, ev.new
    cursor = context.cursor_cp
    starts = sorted(starts, key=lambda s: (s < cursor, s))
    renamed = renamed_sites(context.edits, old, new)
    document = context.document
    renamed_at = (ev.site_cp, ev.site_cp + len(new))  # the developer's renamed site nearest the cursor
    rule = f"rename-{family}:{context.uri}:{old}->{new}"
    out = []
    for site_rank, start in enumerate(starts[:_TEXT_SITES]):
        line = document.line_of(start)
        line_text = text[document.line_start(line) : document.line_end(line)].strip()
        near = min((abs(line - document.line_of(min(r, len(text)))) for r in renamed), default=0)
        out.append(
            Candidate(
                kind="edit",
                uri=context.uri,
                edits=(TextEditCp(start, start + len(old), new),),
                score=0.5,
                suggester=name,
                evidence=(evidence,),
                fingerprint=f"{rule}@{line_text!r}",
                rule=rule,
                cursor_cp=start + len(new),
                example_seq=ev.edit.seq,
                features=_rename_features(
                    ev,
                    rank,
                    family=family,
                    examples=max(1, len(renamed)),
                    sites=len(starts),
                    site_rank=site_rank,
                    done=len(renamed),
                    lines_from_examples=near,
                    neighbour_similarity=neighbour_similarity(text, (start, start + len(old)), renamed_at),
                    line_similarity=line_similarity(text, (start, start + len(old)), renamed_at),
                    prose=prose,
                ),
            )
        )
    return out


# a word fixed in prose: its least length, and the most letters a fix changes
_SPELLING_MIN_CHARS = 5
_SPELLING_MAX_DISTANCE = 2


def _spelling_sites(context: SuggestContext, ev: RenameEvidence, starts: list[int]) -> list[int]:
    """The places of a misspelt word fixed in a comment or a string
    (``bounaries`` → ``boundaries``) that still spell it so in the other
    comments and strings: no binding covers prose, and the repeat suggester
    leaves a bare word swapped to this suggester. Only a fix the shape of a
    typo: two words of letters, the old one at least five long, at most two
    letters apart (a transposition is one), not a change of case alone —
    ``it`` → ``them`` in a sentence is an edit of that sentence, not of
    every ``it``. Places in code are not offered. Only a fix made in at most
    as many changes as the letters it may change: a word typed out letter by
    letter is never done until the developer stops (``extensio`` is two
    letters from ``extesion`` too)."""
    old, new = ev.old, ev.new
    if context.syntax is None or ev.edit.keystrokes > _SPELLING_MAX_DISTANCE or not _typo_fixed(old, new):
        return []
    if not _in_comment_or_string(context, ev.site_cp, len(new)):
        return []
    return [s for s in starts if _in_comment_or_string(context, s, len(old))]


def _typo_fixed(old: str, new: str) -> bool:
    """Whether ``old`` → ``new`` has the shape of a spelling fix (see
    :func:`_spelling_sites`)."""
    if len(old) < _SPELLING_MIN_CHARS or not old.isalpha() or not new.isalpha() or old.lower() == new.lower():
        return False
    return _edit_distance(old, new, _SPELLING_MAX_DISTANCE) <= _SPELLING_MAX_DISTANCE


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Letters inserted, deleted, replaced or swapped with a neighbour to turn
    ``a`` into ``b`` (optimal string alignment), or ``limit + 1`` once it is
    sure to exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], before[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        before, prev = prev, row
    return prev[-1]


def _outside_other_locals(context: SuggestContext, starts: list[int], length: int) -> list[int]:
    """``starts`` less the occurrences of another *local variable* of the same
    name (defined in this file, not as a parameter): a developer renaming one
    function's ``total`` leaves another function's ``total`` alone (a
    definition by field name, or a ``var`` definition of the grammar's
    locals.scm, as Go's ``total := 1`` or a Rust ``let`` pattern). Same-named
    parameters (a test fixture renamed test by test), comments, strings and
    names defined elsewhere stay. Each binding is resolved once: its other
    occurrences among ``starts`` share its verdict (a file-level name's
    dozens of uses are not each resolved again)."""
    tree = context.syntax
    if tree is None:
        return starts
    from nextedit.syntax import scopes

    document = context.document
    source = document.source_bytes
    root = tree.root
    decided: dict[int, bool] = {}  # byte start of an occurrence -> whether its binding is another local
    kept = []
    for start in starts:
        b = document.byte_offset_at(start)
        local = decided.get(b)
        if local is None:
            ranges = scopes.binding_occurrences(tree, source, b) or []
            nodes = [root.named_descendant_for_byte_range(s, e) for s, e in ranges]
            local = any(
                n is not None and is_definition_name(n) and not in_import(n) and not _in_parameters(n) for n in nodes
            ) or any(kind.endswith(".var") for _, kind in scopes.binding_definitions(tree, source, b) or ())
            decided.update((s, local) for s, _ in ranges)
        if not local:
            kept.append(start)
    return kept


def _in_parameters(node: Node) -> bool:
    anc = node.parent
    for _ in range(3):
        if anc is None:
            return False
        if "parameter" in anc.type:
            return True
        anc = anc.parent
    return False


def _in_comment_or_string(context: SuggestContext, start: int, length: int) -> bool:
    tree = context.syntax
    if tree is None:
        return False
    document = context.document
    b = document.byte_offset_at(start)
    node = tree.root.named_descendant_for_byte_range(b, b + len(utf8(context.text[start : start + length])))
    for _ in range(3):
        if node is None:
            return False
        if "comment" in node.type or "string" in node.type:
            return True
        node = node.parent
    return False
