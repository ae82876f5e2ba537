"""Ranking: one score per candidate, from the evidence and from how it went before.

Owns :func:`score`. A suggester states its own confidence (``Candidate.score``
in ``[0, 1]``: how specific its transformation is, how sure the resolution).
The ranker multiplies in what the suggester cannot see on its own:

- **evidence**: how many developer edits back it (``extra["evidence_count"]``,
  default 1) — a second example raises the score, capped;
- **specificity**: ``extra["specificity"]`` in ``[0, 1]`` (default 1) — how
  much of the *before* pattern is fixed text rather than holes;
- **distance**: lines between the cursor and the nearest edit of the
  candidate; another document counts as far;
- **past acceptance** of the suggester, from the feedback log (``None`` =
  no data = no effect);
- **diagnostics**: with ``triggerKind: diagnostic``, a candidate touching a
  diagnosed range is preferred.

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

from collections.abc import Callable

from nextedit.suggest.model import Candidate, TriggerKind
from nextedit.suggest.suggester import SuggestContext

__all__ = ["score", "line_distance"]

# lines at which the distance factor bottoms out
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


def score(
    candidate: Candidate,
    context: SuggestContext,
    acceptance: Callable[[str], float | None] | None = None,
) -> float:
    """The candidate's final score (higher is better; the engine's threshold applies)."""
    value = max(0.0, min(1.0, candidate.score))
    evidence_count = candidate.extra.get("evidence_count", 1)
    if isinstance(evidence_count, int) and evidence_count > 1:
        value *= min(1.15, 1.0 + 0.07 * (evidence_count - 1))
    specificity = candidate.extra.get("specificity")
    if isinstance(specificity, (int, float)):
        value *= 0.7 + 0.3 * max(0.0, min(1.0, float(specificity)))
    distance = line_distance(context, candidate)
    if distance is None:
        value *= 0.85
    else:
        value *= 1.0 - 0.15 * min(1.0, distance / _FAR_LINES)
    if acceptance is not None:
        try:
            rate = acceptance(candidate.suggester)
        except Exception:  # noqa: BLE001 - feedback is advisory
            rate = None
        if rate is not None:
            value *= 0.8 + 0.4 * max(0.0, min(1.0, rate))
    if context.request.trigger_kind is TriggerKind.DIAGNOSTIC and _touches_diagnostic(candidate, context):
        value *= 1.2
    return value


def _touches_diagnostic(candidate: Candidate, context: SuggestContext) -> bool:
    for diag in context.request.diagnostics:
        if diag.uri != candidate.uri:
            continue
        for edit in candidate.edits:
            if edit.start_cp <= diag.end_cp and edit.end_cp >= diag.start_cp:
                return True
    return False
