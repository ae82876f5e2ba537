"""Ranking: one probability per candidate that it is the developer's next edit.

Owns :class:`Ranker`. A suggester says what it knows of its candidate in
typed :class:`~nextedit.suggest.model.CandidateFeatures` (how many examples,
how many sites, how specific the pattern…); the ranker adds what depends on
the request (:func:`request_features`: distance from the cursor and from the
developer's last edit, another document) and turns both into one number with
a logistic model learned from recorded traces — a weight per named feature,
evaluated in pure Python in microseconds. The weights are a small JSON file
shipped in the package (``ranker_weights.json``), fitted by
``benchmarks/quality/train_ranker.py`` and measured leave-one-repository-out;
``NEXTEDIT_RANKER_WEIGHTS=FILE`` points at another file (that is how the
out-of-repository figures are measured).

On top of the learned score, two adjustments the traces cannot teach:

- **past acceptance** of the suggester in this installation, from the
  feedback log — as evidence added to the prior the model gives, so a few
  dismissals move it little and many move it more;
- **diagnostics**: with ``triggerKind: diagnostic``, a candidate touching a
  diagnosed range is preferred.

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import dataclasses
import math
import os
from pathlib import Path

from nextedit.suggest.change_features import new_names
from nextedit.suggest.history_features import history_features
from nextedit.suggest.model import SPECIFICITY_CAP, Candidate, CandidateFeatures, TriggerKind, Verdicts
from nextedit.suggest.ranker_model import Model, load_model
from nextedit.suggest.site_features import site_features
from nextedit.suggest.suggester import SuggestContext

__all__ = ["Ranker", "answers_declined", "feature_vector", "line_distance", "request_features"]

WEIGHTS_ENV = "NEXTEDIT_RANKER_WEIGHTS"

# lines from the cursor at which distance stops counting (another document reads as this far)
_FAR_LINES = 400


def line_distance(context: SuggestContext, candidate: Candidate) -> int | None:
    """Lines between the cursor and the candidate's nearest edit (``None``: other document)."""
    if candidate.uri != context.uri:
        return None
    document = context.document
    cursor_line = document.line_of(context.cursor_cp)
    offsets = [e.start_cp for e in candidate.edits]
    if candidate.target_cp is not None:
        offsets.append(candidate.target_cp)
    if not offsets:
        return 0
    nearest = min(offsets, key=lambda cp: abs(cp - context.cursor_cp))
    return abs(document.line_of(nearest) - cursor_line)


def request_features(context: SuggestContext, candidate: Candidate) -> dict[str, float]:
    """What depends on the request: where the candidate is, seen from the cursor and the last edit.

    Not how many edits the history holds: the recorded sessions are short
    commits, where that count reads as "late in the change"; an editor's
    session fills the history to its bound and stays there, so such a
    feature would lower every candidate of a long session for good
    (``benchmarks/results/quality-nohistory.md``). What the session says of
    the candidate's own change (how much of it is done, the direction of the
    developer's sweep) is :func:`history_features`'.

    A rename is read where its ``edit`` fallback renames (the next
    occurrence), not at the binding's first occurrence in the file: that is
    the site an editor without ``rename`` shows, and the one a developer
    finishing the rename by hand goes to next."""
    if candidate.fallback_edits:
        candidate = dataclasses.replace(candidate, edits=candidate.fallback_edits)
    distance = line_distance(context, candidate)
    out = {
        "other_document": 1.0 if distance is None else 0.0,
        "log_line_distance": math.log1p(distance) if distance is not None else math.log1p(_FAR_LINES),
        "history_repeats": context.repeated_share,
        "test_file": 1.0 if "test" in candidate.uri.rsplit("/", 1)[-1].lower() else 0.0,
        # the developer declined our newest answer: they are doing something we did not
        # read, and the next answer is right far less often (quality-declined.md)
        "last_declined": 1.0 if context.verdicts.last_declined else 0.0,
        # how often this developer declined the engine's answers against how often they
        # took them, over the agent's sessions: where its reading of the code is off
        "answers_declined": answers_declined(context.verdicts),
        # names the change writes that the text it replaces lacks (change_features.py)
        "log_new_names": math.log1p(new_names(context.text_of(candidate.uri), candidate.edits)),
    }
    first = min((e.start_cp for e in candidate.edits), default=candidate.target_cp)
    last = context.last_edit
    if candidate.uri == context.uri and first is not None:
        document = context.document
        out["below_cursor"] = 1.0 if first >= context.cursor_cp else 0.0
        if last is not None:
            gap = abs(document.line_of(first) - document.line_of(min(last.start_cp, len(document.text))))
            out["log_lines_from_last_edit"] = math.log1p(gap)
    out.update(site_features(context, candidate))
    out.update(history_features(context, candidate))
    return out


# the verdicts ``answers_declined`` starts from, as if already said: about one
# answer in seven declined, so that a few verdicts move it little
_PRIOR_DECLINED, _PRIOR_TAKEN = 3, 17


def answers_declined(verdicts: Verdicts) -> float:
    """The log-odds of a declined answer in this agent, from its verdicts and a prior."""
    return math.log((verdicts.declined + _PRIOR_DECLINED) / (verdicts.taken + _PRIOR_TAKEN))


def online_adjustment(context: SuggestContext, candidate: Candidate) -> float:
    """A shift of the logit from what this installation's user said of the
    suggester: accepted against *explicitly* rejected suggestions (a
    suggestion ``ignored`` while typing on is no verdict), with a prior of two
    of each, half weight, at most ±1. No feedback, no shift."""
    accepted, total = context.feedback.get(candidate.suggester, (0, 0))
    if total == 0:
        return 0.0
    rate = (accepted + 2) / (total + 4)
    return max(-1.0, min(1.0, 0.5 * math.log(rate / (1.0 - rate))))


def _log(x: float) -> float:
    return math.log1p(max(0.0, x))


def feature_vector(candidate: Candidate, request: dict[str, float]) -> dict[str, float]:
    """The named inputs of the model: the candidate's typed features, encoded, and the request's."""
    f: CandidateFeatures = candidate.features
    out: dict[str, float] = {
        f"suggester={candidate.suggester}": 1.0,
        f"kind={candidate.kind}": 1.0,
        f"family={candidate.suggester}:{f.family}": 1.0,
        f"shape={f.shape}": 1.0,
        "log_examples": _log(f.examples - 1),
        "log_source_age": _log(f.source_age),
        "newest_source": 1.0 if f.source_age == 0 else 0.0,
        "log_sites": _log(f.sites - 1),
        "single_site": 1.0 if f.sites == 1 else 0.0,
        "log_site_rank": _log(f.site_rank),
        "log_done": _log(f.done),
        "passed_over": 1.0 if f.passed_over else 0.0,
        "specificity": min(f.specificity, SPECIFICITY_CAP) / 10.0,
        "log_context_tokens": _log(f.context_tokens),
        "log_changed_lines": _log(f.changed_lines),
        "log_changed_tokens": _log(f.changed_tokens),
        "log_changed_chars": _log(f.changed_chars),
        "whole_line": float(f.whole_line),
        "prose": float(f.prose),
        "comment": float(f.comment),
        "same_line_text": float(f.same_line_text),
        "same_line_shape": float(f.same_line_shape),
        "above_source": float(f.above_source),
        "new_literal": float(f.new_literal),
        "identifier_only": float(f.identifier_only),
        "defined_here": float(f.defined_here),
        "log_occurrences": _log(f.occurrences),
        # a rename typed at the definition leaves every use dangling; one that
        # rewrote the definition line besides the name says less
        "clean_definition_rename": float(f.at_definition and f.identifier_only and f.defined_here and not f.partial),
        "rewritten_definition": float(f.at_definition and not f.identifier_only),
        "imported": float(f.imported),
        "member": float(f.member),
        "partial": float(f.partial),
        "file_level": float(f.file_level),
        "log_support": _log(f.support - 1),
        "log_rivals": _log(f.rivals - 1),
        "log_lines_from_examples": _log(f.lines_from_examples),
        "between_examples": float(f.between_examples),
        "done_ratio": f.examples / (f.examples + f.sites),
        "neighbour_similarity": f.neighbour_similarity if candidate.suggester != "rename" else 0.0,
    }
    if candidate.suggester == "rename" and f.family in ("binding", "cross-file", "tokens"):
        # a binding rename reads its evidence differently from a repeated edit:
        # its own terms, so the model need not share weights across the two
        out.update(
            {
                "rename_clean": float(f.identifier_only and not f.partial),
                "rename_pure": float(f.identifier_only),
                "rename_defined_here": float(f.defined_here),
                "rename_log_occurrences": _log(f.occurrences),
                "rename_log_done": _log(f.done - 1),
            }
        )
    if candidate.suggester == "rename" and f.family == "text":
        # the same name outside the renamed binding: renamed too where it sits
        # among the same names as the renamed site, kept where it does not
        out["rename_text_similarity"] = f.neighbour_similarity
        out["rename_text_line_similarity"] = f.line_similarity
    out.update(request)
    return out


# Repairs too rare in the traces to learn (a handful of examples, or none: a
# trace replays one document, so no other file imports the renamed name): the
# code does not compile until they are made, so their suggester's own
# confidence stands.
_OWN_CONFIDENCE = frozenset(
    {("signature", "removed-argument"), ("signature", "added-argument"), ("rename", "cross-file")}
)

# A rename that changed nothing but the name (and skipped no occurrence) answers from
# this probability on, below the general operating point: on the traces such
# renames are right about 70% of the time, and a binding renamed at one site
# but not the others leaves the code broken — finishing it is the developer's
# likeliest next edit, the one an editor user expects first.
CLEAN_RENAME_POINT = 0.5


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


class Ranker:
    """Scores candidates: the learned model (``None``: the suggesters' own
    confidence), and the diagnostics preference."""

    def __init__(self, model: Model | None = None) -> None:
        if model is None:
            env = os.environ.get(WEIGHTS_ENV)
            model = load_model(Path(env) if env else None)
        self.model = model

    @classmethod
    def untrained(cls) -> Ranker:
        """A ranker without a model: each suggester's own confidence, lowered
        with distance (tests of the engine's mechanics use it)."""
        ranker = cls.__new__(cls)
        ranker.model = None
        return ranker

    def probability(self, candidate: Candidate, context: SuggestContext) -> float:
        """The model's probability that ``candidate`` is a right next edit
        (shifted so that 0.5 is the operating point it was trained for)."""
        vector = feature_vector(candidate, request_features(context, candidate))
        if self.model is None or (candidate.suggester, candidate.features.family) in _OWN_CONFIDENCE:
            return _untrained(candidate, vector)
        z = self.model.logit(vector) + online_adjustment(context, candidate)
        if vector.get("rename_clean"):
            # its own operating point (see CLEAN_RENAME_POINT)
            z += _logit(self.model.operating_point) - _logit(CLEAN_RENAME_POINT)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def score(self, candidate: Candidate, context: SuggestContext) -> float:
        """The candidate's final score (higher is better; the engine's threshold applies)."""
        value = self.probability(candidate, context)
        if context.request.trigger_kind is TriggerKind.DIAGNOSTIC and _touches_diagnostic(candidate, context):
            value *= 1.2
        return value


def _untrained(candidate: Candidate, vector: dict[str, float]) -> float:
    """Without weights: the suggester's own confidence, lowered with distance."""
    value = max(0.0, min(1.0, candidate.score))
    if vector["other_document"]:
        return value * 0.85
    distance = math.expm1(vector["log_line_distance"])
    return value * (1.0 - 0.15 * min(1.0, distance / _FAR_LINES))


def _touches_diagnostic(candidate: Candidate, context: SuggestContext) -> bool:
    for diag in context.request.diagnostics:
        if diag.uri != candidate.uri:
            continue
        for edit in candidate.edits:
            if edit.start_cp <= diag.end_cp and edit.end_cp >= diag.start_cp:
                return True
    return False
