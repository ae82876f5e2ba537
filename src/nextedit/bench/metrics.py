"""Aggregating query verdicts into the metrics of docs/trace-format.md, pooled and per repository.

Exact definitions (over queries that carry ground truth, i.e. ``expected`` is
not ``None``; keystroke queries and VS Code recordings without
``nextUserEdit`` are only timed):

* **answered**: the first suggestion exists (``suggestions`` non-empty).
* **precision** = correct / answered.  A jump is correct only when it landed
  on an expected line and its follow-up's first suggestion is a correct
  change (:func:`nextedit.bench.score.settle_jump`).
* **recall (related)** = queries with a non-empty ``related`` whose first
  suggestion is correct / queries with a non-empty ``related`` (the
  suggestion may match any expected edit).  **recall_related_strict**
  additionally requires every expected edit the suggestion matched to be one
  of the ``related`` ids.
* **silence** = queries with an empty ``expected`` answered with nothing /
  queries with an empty ``expected``.
* **reversals**: answered queries whose first suggestion (for a jump: the
  change its follow-up showed) is a reversal; ``reversal_rate`` = reversals /
  answered.
* **jumps**: answered queries whose first suggestion is a jump;
  ``jumps_landed`` of them on a line of an expected edit (whatever followed),
  ``jumps_correct`` of them correct.
* **latency**: wall clock around each ``nes/suggest`` of a query (all
  queries, timed ones included), in ms; the follow-up requests of jumps are
  timed apart (``followup_latency_ms``).  Percentiles by nearest rank (the
  smallest sample with at least p % of samples at or below it).
* **agent CPU** (``cpu_ms``, ``followup_cpu_ms``): the agent's CPU time
  charged to each of those requests — all it did since the previous answer
  (:mod:`nextedit.bench.replay`); only for an agent the bench can read it of
  (a subprocess on Linux), else the summaries count nothing.

Every group (pooled, per repository, language, reader and tag) carries the
raw counts, so figures over any union of repositories — e.g. leaving one out
— are sums of counts.

**By source** (``by_source``): the scored queries grouped by who made the
first suggestion — ``synthesis`` (the engine) or ``model:<id>`` (the
model behind it) — and ``silent`` for those answered with nothing. Per
source: answered, correct, **precision** = correct / answered, reversals,
``related_correct`` and **recall_related** = its related_correct / *all*
queries with related edits (so the sources' recalls add up to the pooled
one), and the latency of the queries it answered.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

from nextedit.bench.replay import QueryResult, SessionResult


def percentile(sorted_values: Sequence[float], p: float) -> float | None:
    """The nearest-rank percentile ``p`` (0-100) of ascending values; ``None`` for none.

    The rank is computed in exact decimal arithmetic: in floats
    ``99.9 / 100 * 1000`` is a hair above 999, and the p99.9 of a thousand
    values would read as their maximum."""
    if not sorted_values:
        return None
    k = max(1, math.ceil(Fraction(str(p)) * len(sorted_values) / 100))
    return sorted_values[min(k, len(sorted_values)) - 1]


def latency_summary(values: list[float]) -> dict[str, float | int | None]:
    """``count``, ``p50``, ``p95``, ``p99``, ``max`` and ``mean`` of latencies in ms."""
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "p50": percentile(ordered, 50),
        "p95": percentile(ordered, 95),
        "p99": percentile(ordered, 99),
        "max": ordered[-1] if ordered else None,
        "mean": (sum(ordered) / len(ordered)) if ordered else None,
    }


def ratio(a: int, b: int) -> float | None:
    return None if b == 0 else a / b


@dataclass(slots=True)
class Counts:
    """The raw counts of one group of scored queries."""

    queries: int = 0
    answered: int = 0
    correct: int = 0
    related: int = 0
    related_correct: int = 0
    related_correct_strict: int = 0
    empty: int = 0
    silent_on_empty: int = 0
    reversals: int = 0
    jumps: int = 0
    jumps_landed: int = 0
    jumps_correct: int = 0

    def add(self, q: QueryResult) -> None:
        v = q.verdict
        if not v.scored:
            return
        self.queries += 1
        if v.answered:
            self.answered += 1
            self.correct += v.correct
            self.reversals += v.reversal
            if v.kind == "jump":
                self.jumps += 1
                self.jumps_landed += bool(v.landed)
                self.jumps_correct += v.correct
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
        d: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        d["precision"] = ratio(self.correct, self.answered)
        d["recall_related"] = ratio(self.related_correct, self.related)
        d["recall_related_strict"] = ratio(self.related_correct_strict, self.related)
        d["silence"] = ratio(self.silent_on_empty, self.empty)
        d["answer_rate"] = ratio(self.answered, self.queries)
        d["reversal_rate"] = ratio(self.reversals, self.answered)
        return d


@dataclass(slots=True)
class Timing:
    """Wall time and agent CPU of a group's requests: the queries' own, and
    their jump follow-ups' apart."""

    latencies: list[float] = field(default_factory=list)
    followup_latencies: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    followup_cpu: list[float] = field(default_factory=list)

    def add(self, q: QueryResult) -> None:
        if q.latency_ms is not None:
            self.latencies.append(q.latency_ms)
        if q.cpu_ms is not None:
            self.cpu.append(q.cpu_ms)
        f = q.followup
        if f is not None:
            if f.latency_ms is not None:
                self.followup_latencies.append(f.latency_ms)
            if f.cpu_ms is not None:
                self.followup_cpu.append(f.cpu_ms)

    def to_json(self) -> dict[str, Any]:
        return {
            "latency_ms": latency_summary(self.latencies),
            "followup_latency_ms": latency_summary(self.followup_latencies),
            "cpu_ms": latency_summary(self.cpu),
            "followup_cpu_ms": latency_summary(self.followup_cpu),
        }


@dataclass(slots=True)
class RepositoryGroup:
    """Counts, latencies and sessions of one source repository."""

    counts: Counts = field(default_factory=Counts)
    timing: Timing = field(default_factory=Timing)
    sessions: int = 0
    languages: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "languages": [lang for lang, _ in self.languages.most_common()],
            **self.counts.to_json(),
            **self.timing.to_json(),
        }


@dataclass(slots=True)
class SourceGroup:
    """The scored queries whose first suggestion came from one source."""

    answered: int = 0
    correct: int = 0
    reversals: int = 0
    related_correct: int = 0
    latencies: list[float] = field(default_factory=list)

    def add(self, q: QueryResult) -> None:
        v = q.verdict
        self.answered += v.answered
        self.correct += v.correct
        self.reversals += v.reversal
        self.related_correct += bool(q.query.related) and v.correct
        if q.latency_ms is not None:
            self.latencies.append(q.latency_ms)

    def to_json(self, related: int) -> dict[str, Any]:
        return {
            "answered": self.answered,
            "correct": self.correct,
            "precision": ratio(self.correct, self.answered),
            "reversals": self.reversals,
            "related_correct": self.related_correct,
            "recall_related": ratio(self.related_correct, related),
            "latency_ms": latency_summary(self.latencies),
        }


SILENT = "silent"


def worst_repositories(by_repository: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The repository with the lowest precision and the one with the lowest related recall.

    Only repositories where the figure is defined count; ties go to the name
    first in alphabetical order.  ``None`` when no repository has the figure.
    """

    def lowest(metric: str) -> dict[str, Any] | None:
        have = [(d[metric], name) for name, d in by_repository.items() if d[metric] is not None]
        if not have:
            return None
        value, name = min(have)
        return {"repository": name, metric: value}

    return {"by_precision": lowest("precision"), "by_recall_related": lowest("recall_related")}


def summarize(sessions: list[SessionResult]) -> dict[str, Any]:
    """All metrics of one bench run as a JSON-ready dict."""
    total = Counts()
    by_lang: dict[str, Counts] = {}
    by_reader: dict[str, Counts] = {}
    by_tag: dict[str, Counts] = {}
    by_repo: dict[str, RepositoryGroup] = {}
    by_source: dict[str, SourceGroup] = {}
    kinds_answered: Counter[str] = Counter()
    kinds_correct: Counter[str] = Counter()
    kinds_reversal: Counter[str] = Counter()
    timing = Timing()
    errors = 0
    unscored = 0
    grades: list[dict[str, Any]] = []
    for s in sessions:
        repo = by_repo.setdefault(s.repository or s.trace, RepositoryGroup())
        repo.sessions += 1
        repo.languages[s.language] += 1
        for q in s.queries:
            timing.add(q)
            repo.timing.add(q)
            if q.error:
                errors += 1
            if not q.verdict.scored:
                unscored += 1
            total.add(q)
            repo.counts.add(q)
            if q.verdict.scored:
                by_source.setdefault(q.source if q.verdict.answered and q.source else SILENT, SourceGroup()).add(q)
            by_lang.setdefault(q.language, Counts()).add(q)
            by_reader.setdefault(q.kind, Counts()).add(q)
            for tag in s.tags:
                by_tag.setdefault(tag, Counts()).add(q)
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
    by_repository = {k: v.to_json() for k, v in sorted(by_repo.items())}
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
                "precision": ratio(kinds_correct[k], kinds_answered[k]),
            }
            for k in sorted(kinds_answered)
        },
        "by_repository": by_repository,
        "by_source": {k: v.to_json(total.related) for k, v in sorted(by_source.items())},
        "worst_repository": worst_repositories(by_repository),
        "by_language": {k: v.to_json() for k, v in sorted(by_lang.items())},
        "by_reader": {k: v.to_json() for k, v in sorted(by_reader.items())},
        "by_tag": {k: v.to_json() for k, v in sorted(by_tag.items())},
        **timing.to_json(),
        "vscode_grades": grades,
        "latencies_ms": sorted(timing.latencies),
    }
