"""The suggestion engine: run the suggesters, filter, rank, fit the client, answer.

Owns :class:`SuggestionEngine` and the registry of suggesters
(:data:`SUGGESTERS`). One request goes:

1. build a :class:`~nextedit.suggest.suggester.SuggestContext` (request document,
   its history, the client's kinds, the rejected fingerprints);
2. run every suggester, checking ``cancelled()`` between them (an exception in
   one is logged and costs only its candidates; a ``strict`` engine, as the
   test suite runs it, raises it instead);
3. widen deletions that empty a line to the whole line, as the developer's
   example did (:mod:`nextedit.suggest.line_deletions`), and drop what must
   never be offered (:mod:`nextedit.suggest.filters`);
4. score (:mod:`nextedit.suggest.rank`), abstain below :attr:`threshold`;
5. fit the client's kinds: ``rename`` / ``searchAndReplace`` become ``edit``
   when not advertised, ``jump`` is dropped when not advertised;
6. lead with a jump when the best edit is out of view (:mod:`nextedit.suggest.jump`);
7. return the best :attr:`max_results`, best first.

Silence is an answer with a :class:`~nextedit.suggest.model.SilenceReason`.
Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from nextedit.settings import DEFAULT_MIN_CONFIDENCE
from nextedit.suggest import filters, jump
from nextedit.suggest.line_deletions import line_removals, widen_line_deletions
from nextedit.suggest.model import (
    NO_VERDICTS,
    Candidate,
    SilenceReason,
    SuggestionKinds,
    SuggestOutcome,
    SuggestRequest,
    TextEditCp,
    Verdicts,
)
from nextedit.suggest.rank import Ranker
from nextedit.suggest.rename import RenameSuggester
from nextedit.suggest.repeat import RepeatEditSuggester, SearchReplaceSuggester
from nextedit.suggest.signature import SignatureSuggester
from nextedit.suggest.suggester import DocumentStateView, SuggestContext, Suggester, WorkspaceView

__all__ = ["STRICT_ENV", "SUGGESTERS", "SuggestionEngine", "default_suggesters"]

log = logging.getLogger(__name__)

# "1": engines built without an explicit ``strict`` raise a suggester's exception
STRICT_ENV = "NEXTEDIT_STRICT"

# The registry: factories of the suggesters every engine runs, in order.
# To add one: import its class here and append it (a zero-argument callable
# returning an object with ``name`` and ``propose(context)``).
SUGGESTERS: list[Callable[[], Suggester]] = [
    RenameSuggester,
    RepeatEditSuggester,
    SearchReplaceSuggester,
    SignatureSuggester,
]


def default_suggesters() -> list[Suggester]:
    return [factory() for factory in SUGGESTERS]


class SuggestionEngine:
    """Runs the registered suggesters for one session (see the module docstring).

    ``languages``: when set, only documents whose languageId or grammar name
    is in it get suggestions, and no suggestion edits a document outside it
    (user setting ``languages``); ``None`` watches every language.
    """

    def __init__(
        self,
        suggesters: Iterable[Suggester] | None = None,
        *,
        threshold: float = DEFAULT_MIN_CONFIDENCE,
        max_results: int = 3,
        languages: frozenset[str] | None = None,
        strict: bool | None = None,
        ranker: Ranker | None = None,
    ) -> None:
        self.suggesters: list[Suggester] = list(suggesters) if suggesters is not None else default_suggesters()
        self.threshold = threshold
        self.max_results = max_results
        self.languages = languages
        # raise a suggester's exception instead of logging it; unset: strict when
        # $NEXTEDIT_STRICT is 1 (the test suite sets it, so a suggester's bug fails the test)
        self.strict = strict if strict is not None else os.environ.get(STRICT_ENV) == "1"
        self.ranker = ranker if ranker is not None else Ranker()
        self._promise: _Promise | None = None
        # suggester name -> (accepted, accepted + rejected): the counts used when a request brings none
        self.feedback_counts: Mapping[str, tuple[int, int]] = {}

    def suggest(
        self,
        workspace: WorkspaceView,
        request: SuggestRequest,
        kinds: SuggestionKinds,
        rejected: set[str] | frozenset[str],
        cancelled: Callable[[], bool] = lambda: False,
        rejected_rules: Mapping[str, int] | None = None,
        feedback: Mapping[str, tuple[int, int]] | None = None,
        verdicts: Verdicts = NO_VERDICTS,
    ) -> SuggestOutcome:
        """The suggestions for ``request``, best first. ``feedback`` is the
        per-suggester (accepted, judged) counts as they were when the request
        arrived (default: :attr:`feedback_counts`); ``verdicts``: what the
        developer said of the engine's answers so far."""
        promised = self._promised(workspace, request, rejected)
        if promised is not None:
            return SuggestOutcome((promised,), None, ("the edit a jump here promised",))
        ranking = self.rank(workspace, request, kinds, rejected, cancelled, rejected_rules, feedback, verdicts)
        notes = list(ranking.notes)
        if ranking.reason is not None or ranking.context is None:
            return SuggestOutcome((), ranking.reason, tuple(notes))
        kept = ranking.candidates
        strong = [c for c in kept if c.score >= self.threshold]
        if not strong:
            notes.append(f"best score {kept[0].score:.2f} < {self.threshold}")
            return SuggestOutcome((), SilenceReason.BELOW_THRESHOLD, tuple(notes))

        strong = _edit_before_its_replace_all(strong, ranking.context.text)
        fitted = _dedupe(c for c in (fit_kinds(c, kinds) for c in strong) if c is not None)
        if not fitted:
            return SuggestOutcome((), SilenceReason.FILTERED, tuple(notes))
        planned = [c for c in jump.plan(fitted, ranking.context) if c.fingerprint not in ranking.context.rejected]
        if len(planned) > 1 and planned[0].kind == "jump" and planned[0].target_cp is not None:
            target = workspace.get(planned[0].uri)
            if target is not None:
                self._promise = _Promise(planned[0].uri, target.document.version, planned[0].target_cp, planned[1])
        return SuggestOutcome(tuple(_varied(planned)[: self.max_results]), None, tuple(notes))

    def _promised(
        self, workspace: WorkspaceView, request: SuggestRequest, rejected: set[str] | frozenset[str]
    ) -> Candidate | None:
        """A jump promises an edit: asked again at the jump's target, in the
        same version of the text, the engine answers that edit (DESIGN.md
        "Jump"), unless the developer rejected it meanwhile."""
        promise = self._promise
        if promise is None or (promise.uri, promise.version, promise.target_cp) != (
            request.uri,
            request.version,
            request.cursor_cp,
        ):
            return None
        state = workspace.get(request.uri)
        if state is None or state.document.version != promise.version or promise.edit.fingerprint in rejected:
            return None
        return promise.edit

    def rank(
        self,
        workspace: WorkspaceView,
        request: SuggestRequest,
        kinds: SuggestionKinds,
        rejected: set[str] | frozenset[str],
        cancelled: Callable[[], bool] = lambda: False,
        rejected_rules: Mapping[str, int] | None = None,
        feedback: Mapping[str, tuple[int, int]] | None = None,
        verdicts: Verdicts = NO_VERDICTS,
    ) -> Ranking:
        """Every candidate that passes the filters, scored, best first (no threshold yet)."""
        state = workspace.get(request.uri)
        if state is None:
            return Ranking(None, (), SilenceReason.UNKNOWN_DOCUMENT)
        if not self.watches(state):
            return Ranking(None, (), SilenceReason.LANGUAGE_NOT_WATCHED)
        rejected = frozenset(rejected)
        context = SuggestContext.for_request(
            workspace,
            request,
            state,
            kinds,
            rejected,
            cancelled,
            rejected_rules,
            feedback if feedback is not None else self.feedback_counts,
            verdicts,
        )
        notes: list[str] = []
        proposed: list[Candidate] = []
        reasons: list[SilenceReason] = []
        for suggester in self.suggesters:
            if cancelled():
                return Ranking(context, (), SilenceReason.CANCELLED, tuple(notes))
            try:
                result = suggester.propose(context)
            except Exception:  # noqa: BLE001 - one suggester must not sink the request
                if self.strict:
                    raise
                log.exception("suggester %s failed", getattr(suggester, "name", suggester))
                notes.append(f"{getattr(suggester, 'name', '?')}: error")
                continue
            if isinstance(result, SilenceReason):
                reasons.append(result)
                notes.append(f"{suggester.name}: {result}")
                continue
            proposed.extend(result)
        if cancelled():
            return Ranking(context, (), SilenceReason.CANCELLED, tuple(notes))
        if not proposed:
            reason = (
                SilenceReason.NO_CANDIDATES if SilenceReason.NO_CANDIDATES in reasons else SilenceReason.NO_EVIDENCE
            )
            return Ranking(context, (), reason, tuple(notes))

        kept: list[Candidate] = []
        removals = line_removals(context)
        for candidate in proposed:
            candidate = widen_line_deletions(candidate, context, removals)
            screened = filters.screen(candidate, context, rejected)
            if isinstance(screened, str):
                notes.append(f"{candidate.suggester}: {candidate.fingerprint} filtered ({screened})")
                continue
            target = workspace.get(screened.uri)
            assert target is not None  # filters.screen dropped candidates for documents not open
            if not self.watches(target):
                notes.append(f"{candidate.suggester}: {candidate.fingerprint} filtered (language not watched)")
                continue
            kept.append(screened)
        if not kept:
            return Ranking(context, (), SilenceReason.FILTERED, tuple(notes))
        kept = _with_support(kept)
        kept = _sites_in_order([dataclasses.replace(c, score=self.ranker.score(c, context)) for c in kept])
        kept.sort(key=lambda c: c.score, reverse=True)
        return Ranking(context, tuple(kept), None, tuple(notes))

    def watches(self, state: DocumentStateView) -> bool:
        """Whether ``languages`` lets this document have suggestions."""
        languages = self.languages
        return languages is None or state.document.language_id in languages or state.language in languages


@dataclass(frozen=True, slots=True)
class _Promise:
    """The edit behind the last jump the engine answered."""

    uri: str
    version: int
    target_cp: int
    edit: Candidate


@dataclass(frozen=True)
class Ranking:
    """What :meth:`SuggestionEngine.rank` found: the scored candidates, best
    first, or why there are none (``reason``)."""

    context: SuggestContext | None
    candidates: tuple[Candidate, ...]
    reason: SilenceReason | None = None
    notes: tuple[str, ...] = ()


def fit_kinds(candidate: Candidate, kinds: SuggestionKinds) -> Candidate | None:
    """Express ``candidate`` in a kind the client advertised (``None``: cannot)."""
    if candidate.kind == "jump":
        return candidate if kinds.jump else None
    if candidate.kind == "rename" and not kinds.rename:
        # a bounded group (the suggester's choice), not every occurrence: the
        # editor applies it and asks again for the next one
        fallback = candidate.fallback_edits
        if fallback:
            wanted = set(fallback)
            edits = tuple(e for e in candidate.edits if e in wanted) or candidate.edits
            return dataclasses.replace(candidate, kind="edit", edits=edits)
        return dataclasses.replace(candidate, kind="edit")
    if candidate.kind == "searchAndReplace" and not kinds.search_and_replace:
        return dataclasses.replace(candidate, kind="edit")
    return candidate


def _with_support(candidates: list[Candidate]) -> list[Candidate]:
    """Each candidate's ``features.support`` — how many distinct rules propose
    the very same change (independent evidence for it) — and ``rivals``, how
    many different changes this request's candidates propose."""
    rules: dict[tuple[str, tuple[TextEditCp, ...]], set[tuple[str, str]]] = {}
    for c in candidates:
        rules.setdefault((c.uri, c.edits), set()).add((c.suggester, c.features.family))
    rivals = len(rules)
    return [
        dataclasses.replace(
            c, features=dataclasses.replace(c.features, support=len(rules[(c.uri, c.edits)]), rivals=rivals)
        )
        for c in candidates
    ]


def _varied(candidates: list[Candidate], per_rule: int = 2) -> list[Candidate]:
    """The same order, except that a rule's sites beyond the first
    ``per_rule`` go last: the few suggestions an answer carries offer
    different changes (one site, the next, the search-and-replace that does
    them all) rather than three sites of one rule."""
    counts: dict[tuple[str, str, tuple[str, ...]], int] = {}
    first: list[Candidate] = []
    rest: list[Candidate] = []
    for c in candidates:
        key = (c.kind, c.suggester, c.evidence)
        counts[key] = counts.get(key, 0) + 1
        (first if counts[key] <= per_rule else rest).append(c)
    return first + rest


# scores of one rule's sites closer than this are a tie
_SITE_TIE = 0.005


def _sites_in_order(candidates: list[Candidate]) -> list[Candidate]:
    """Within one rule (same suggester, same evidence), the sites the ranker
    scores alike with its best one (within ``_SITE_TIE`` of it) keep the
    suggester's order — nearest after the cursor first — and their scores go
    to them best first, so a walk through the sites does not skip one on a
    difference of 0.002 (a site scored further below keeps its place).
    Where the ranker separates sites more than that, its order stands: on the
    shared traces it is the better one (ordering every rule's sites by the
    suggester cost 0.008 precision and 0.006 recall in-sample; a tie of
    0.01 one correct answer in 12,844 queries, 0.002 none). The weights
    refitted with the analogue family scored the next two sites of a walk in
    Neovim 0.898 and 0.896, and the walk skipped one at 0.002; at 0.005 it
    does not, and in-sample one answer turns right and one wrong."""
    groups: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for i, c in enumerate(candidates):
        groups.setdefault((c.suggester, c.evidence), []).append(i)
    out = list(candidates)
    for group in groups.values():
        best = max(candidates[i].score for i in group)
        members = [i for i in group if best - candidates[i].score <= _SITE_TIE]
        if len(members) < 2:
            continue
        scores = sorted((candidates[i].score for i in members), reverse=True)
        in_order = sorted(members, key=lambda i: (candidates[i].features.site_rank, -candidates[i].score))
        for i, score in zip(in_order, scores, strict=True):
            out[i] = dataclasses.replace(candidates[i], score=score)
    return out


def _edit_before_its_replace_all(strong: list[Candidate], text: str) -> list[Candidate]:
    """A search-and-replace is right only if every one of its matches is to
    change; an ``edit`` making the same change at one of them is right
    whenever that one is. When the first answer would replace all and an
    ``edit`` of the same change also reaches the threshold (``strong`` holds
    only those), the edit goes first: the developer is offered the site, not
    every match at once (the search-and-replace still follows it)."""
    first = strong[0] if strong else None
    if first is None or first.kind != "searchAndReplace":
        return strong
    key = filters.change_key(first.uri, first.edits, text)
    if not key:
        return strong
    for i, c in enumerate(strong):
        if c.kind == "edit" and c.uri == first.uri and filters.change_key(c.uri, c.edits, text) == key:
            return [c, *strong[:i], *strong[i + 1 :]]
    return strong


def _dedupe(candidates: Iterable[Candidate]) -> list[Candidate]:
    seen: set[tuple] = set()
    out: list[Candidate] = []
    for c in candidates:
        key = (c.uri, c.kind, c.edits, c.target_cp)
        if key in seen:
            continue
        seen.add(key)
        out.append(c)
    return out
