"""Aggregating query verdicts into the FORMAT.md metrics.

Exact definitions (over queries that carry ground truth, i.e. ``expected`` is
not ``None``; keystroke queries and VS Code recordings without
``nextUserEdit`` are only timed):

* **answered**: the first suggestion exists (``suggestions`` non-empty).
* **precision** = correct / answered.
* **recall (related)** = queries with a non-empty ``related`` whose first
  suggestion is correct / queries with a non-empty ``related`` (FORMAT.md:
  "correct / queries whose related is non-empty"; the suggestion may match
  any expected edit).  **recall_related_strict** additionally requires every
  expected edit the suggestion matched to be one of the ``related`` ids.
* **silence** = queries with an empty ``expected`` answered with nothing /
  queries with an empty ``expected``.
* **reversals**: answered queries whose first suggestion is a reversal (see
  :mod:`nextedit.bench.score`); ``reversal_rate`` = reversals / answered.
* **latency**: wall clock around each ``nes/suggest`` (all queries, timed ones
  included), in ms; percentiles by nearest rank (the smallest sample with at
  least p % of samples at or below it).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any

from nextedit.bench.replay import QueryResult, SessionResult


def percentile(sorted_values: list[float], p: float) -> float | None:
    if not sorted_values:
        return None
    k = max(1, math.ceil(p / 100.0 * len(sorted_values)))
    return sorted_values[min(k, len(sorted_values)) - 1]


def _ratio(a: int, b: int) -> float | None:
    return None if b == 0 else a / b


class _Counts:
    __slots__ = (
        "queries",
        "answered",
        "correct",
        "related",
        "related_correct",
        "related_correct_strict",
        "empty",
        "silent_on_empty",
        "reversals",
    )

    def __init__(self) -> None:
        for k in self.__slots__:
            setattr(self, k, 0)

    def add(self, q: QueryResult) -> None:
        v = q.verdict
        if not v.scored:
            return
        self.queries += 1
        if v.answered:
            self.answered += 1
            self.correct += v.correct
            self.reversals += v.reversal
        if q.query.related:
            self.related += 1
            if v.correct:
                self.related_correct += 1
                if set(v.matched) <= set(q.query.related):
                    self.related_correct_strict += 1
        if not q.query.expected:
            self.empty += 1
            self.silent_on_empty += not v.answered

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: getattr(self, k) for k in self.__slots__}
        d["precision"] = _ratio(self.correct, self.answered)
        d["recall_related"] = _ratio(self.related_correct, self.related)
        d["recall_related_strict"] = _ratio(self.related_correct_strict, self.related)
        d["silence"] = _ratio(self.silent_on_empty, self.empty)
        d["answer_rate"] = _ratio(self.answered, self.queries)
        d["reversal_rate"] = _ratio(self.reversals, self.answered)
        return d


def summarize(sessions: list[SessionResult]) -> dict[str, Any]:
    """All metrics of one bench run as a JSON-ready dict."""
    total = _Counts()
    by_lang: dict[str, _Counts] = defaultdict(_Counts)
    by_source: dict[str, _Counts] = defaultdict(_Counts)
    by_tag: dict[str, _Counts] = defaultdict(_Counts)
    kinds_answered: Counter[str] = Counter()
    kinds_correct: Counter[str] = Counter()
    kinds_reversal: Counter[str] = Counter()
    latencies: list[float] = []
    errors = 0
    unscored = 0
    grades: list[dict[str, Any]] = []
    for s in sessions:
        for q in s.queries:
            if q.latency_ms is not None:
                latencies.append(q.latency_ms)
            if q.error:
                errors += 1
            if not q.verdict.scored:
                unscored += 1
            total.add(q)
            by_lang[q.language].add(q)
            by_source[q.kind].add(q)
            for tag in s.tags:
                by_tag[tag].add(q)
            if q.verdict.answered and q.verdict.scored:
                k = q.verdict.kind or "?"
                kinds_answered[k] += 1
                kinds_correct[k] += q.verdict.correct
                kinds_reversal[k] += q.verdict.reversal
            if q.verdict.grade is not None:
                grades.append(
                    {
                        "trace": s.trace,
                        "grade": q.verdict.grade,
                        "correct": q.verdict.correct if q.verdict.scored else None,
                        "kind": q.verdict.kind,
                    }
                )
    latencies.sort()
    lat = {
        "count": len(latencies),
        "p50": percentile(latencies, 50),
        "p95": percentile(latencies, 95),
        "p99": percentile(latencies, 99),
        "max": latencies[-1] if latencies else None,
        "mean": (sum(latencies) / len(latencies)) if latencies else None,
    }
    return {
        **total.to_json(),  # first: the keys below (e.g. "queries": all queries) win
        "scored_queries": total.queries,
        "sessions": len(sessions),
        "sessions_hash_ok": sum(1 for s in sessions if s.hash_ok),
        "sessions_hash_bad": sum(1 for s in sessions if s.hash_ok is False),
        "sessions_error": sum(1 for s in sessions if s.error),
        "session_errors": [{"trace": s.trace, "error": s.error} for s in sessions if s.error][:20],
        "changes": sum(s.changes for s in sessions),
        "queries": sum(len(s.queries) for s in sessions),
        "queries_unscored": unscored,
        "query_errors": errors,
        "by_kind": {
            k: {
                "answered": kinds_answered[k],
                "correct": kinds_correct[k],
                "reversals": kinds_reversal[k],
                "precision": _ratio(kinds_correct[k], kinds_answered[k]),
            }
            for k in sorted(kinds_answered)
        },
        "by_language": {k: v.to_json() for k, v in sorted(by_lang.items())},
        "by_source": {k: v.to_json() for k, v in sorted(by_source.items())},
        "by_tag": {k: v.to_json() for k, v in sorted(by_tag.items())},
        "latency_ms": lat,
        "vscode_grades": grades,
        "latencies_ms": latencies,
    }
