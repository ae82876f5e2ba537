"""Why the repeat suggester offered no right candidate where the next edit repeats an earlier one.

Input: the files ``replay_inprocess.py --explain Q --candidates C`` wrote for
the same traces. A *miss* is a related query answered wrongly or not at all
with no correct candidate ranked. Its class compares each expected edit's
minimal change (common prefix and suffix stripped) with the session's earlier
edits: ``same-as-newest`` (the newest edit's minimal change), ``same-as-older``
(an older edit's), ``same-edit`` (an earlier edit's very old and new text).
Each miss of the first two classes, and of ``same-edit`` where the edit
replaces or deletes text (an insertion there has nothing of its own to
match), is replayed in process, as
``replay_inprocess.py`` replays it, and the repeat suggester's request at that
query is asked why it had no candidate for the expected site: the source edit
beyond its history, no rule that matches the site, the matching rules not
acceptable (a bare identifier swapped: the rename suggester's; a context too
generic), too many sites, another kind of list or context, the search budget
spent before the source, another rule of the source proposed, the site past the
candidates per rule, a guard, or a candidate made and lost in the engine.

Usage::

    python benchmarks/quality/repeat_miss_causes.py TRACE... --explain Q --candidates C [--cases OUT.jsonl]
"""

from __future__ import annotations

import argparse
import collections
import json
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import replay_inprocess
from replay_inprocess import FileResult, _query, _replay_session
from wrong_answers import right_candidate_ranks

from nextedit.bench.events import Change, Open, Query
from nextedit.bench.readers import load_sessions
from nextedit.bench.score import expected_in_cp
from nextedit.bench.wire import text_change
from nextedit.feedback import FeedbackLog
from nextedit.session import AnswerTally
from nextedit.suggest.imports import deletes_a_used_import
from nextedit.suggest.repeat import suggester as repeat
from nextedit.suggest.repeat import synthesis
from nextedit.suggest.repeat.examples import example_from_edit
from nextedit.suggest.repeat.rules import acceptable, literal_specificity, made_rules
from nextedit.suggest.repeat.sites import find_sites, same_category
from nextedit.suggest.signature import deletes_a_used_parameter
from nextedit.syntax.closed_trees import ClosedTrees
from nextedit.text import AppliedEdit, Document, PositionEncoding

Key = tuple[str, int]


def minimal_change(old: str, new: str) -> tuple[str, str]:
    """``old`` and ``new`` with their common prefix and suffix stripped."""
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    s = 0
    while s < min(len(old), len(new)) - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
        s += 1
    return old[p : len(old) - s], new[p : len(new) - s]


def misses(explain: str, candidates: str) -> set[Key]:
    """Related queries with no right answer and no right candidate."""
    with open(candidates, encoding="utf-8") as f:
        right = {key for key, ranks in right_candidate_ranks(f).items() if ranks}
    out = set()
    for line in open(explain):
        row = json.loads(line)
        key = (row["trace"], row["query"])
        if row["related"] and not (row["answered"] and row["correct"]) and key not in right:
            out.add(key)
    return out


@dataclass
class AtQuery:
    """One query of a trace file, with the session's documents and edits as they stand there."""

    trace: str
    query: int  # 1-based within the session, as replay_inprocess counts
    event: Query
    docs: dict[str, Document]
    enc: PositionEncoding
    applied: list[AppliedEdit]  # the session's edits so far, oldest first


def queries_of(path: str) -> Iterator[AtQuery]:
    """Every query of ``path``, its sessions' changes applied up to it (the
    documents and the list are live: read them before asking for the next)."""
    for session in load_sessions(path):
        enc = PositionEncoding(session.header.encoding)
        docs: dict[str, Document] = {}
        applied: list[AppliedEdit] = []
        qn = 0
        for ev in session.events:
            if isinstance(ev, Open):
                docs[ev.uri] = Document(ev.uri, ev.language_id, ev.version, ev.text)
            elif isinstance(ev, Change):
                for change in ev.content_changes:
                    applied.extend(docs[ev.uri].apply_changes([text_change(change)], ev.version, enc))
            elif isinstance(ev, Query):
                qn += 1
                yield AtQuery(session.trace, qn, ev, docs, enc, applied)


def classify(path: str, missed: set[Key]) -> list[dict[str, Any]]:
    """The misses of one trace file whose expected edit repeats an earlier edit, with their class."""
    cases = []
    for at in queries_of(path):
        if (at.trace, at.query) not in missed:
            continue
        past = [(a.old_text, a.new_text) for a in at.applied]
        case = _repeats(at.trace, at.query, at.event, at.docs, at.enc, past)
        if case is not None:
            cases.append({**case, "file": path})
    return cases


def _repeats(
    trace: str, qn: int, q: Query, docs: dict[str, Document], enc: PositionEncoding, past: Sequence[tuple[str, str]]
) -> dict[str, Any] | None:
    changes = [minimal_change(o, n) for o, n in past]
    best: dict[str, Any] | None = None
    for x in expected_in_cp([e for e in q.expected or [] if e.id in (q.related or ())], docs, enc):
        text = docs[x.uri].text
        old, new = text[x.start : x.end], x.new_text
        change = minimal_change(old, new)
        if (old, new) in past:
            kind = "same-edit"
        elif change in changes:
            kind = "same-as-newest" if change == changes[-1] else "same-as-older"
        else:
            continue
        order = ("same-as-newest", "same-as-older", "same-edit")
        if best is None or order.index(kind) < order.index(best["class"]):
            best = {"trace": trace, "query": qn, "class": kind, "uri": x.uri, "start": x.start, "end": x.end}
            best.update(old=old, new=new, change=change)
    return best


def expected_rewrite(case: dict[str, Any], text: str) -> Callable[[int, int, str], bool]:
    """Whether replacing ``text[s:e]`` by ``t`` gives what the case's expected edit gives."""
    start, end, new = case["start"], case["end"], case["new"]
    want = text[:start] + new + text[end:]

    def gives(s: int, e: int, t: str) -> bool:
        return text[:s] + t + text[e:] == want

    return gives


def diagnose(case: dict[str, Any], context: Any, proposed: object) -> str:
    """Why the repeat suggester's request ``context`` had no candidate for the case's site."""
    text = context.text
    gives = expected_rewrite(case, text)
    edits = list(context.edits)
    sources = [i for i, e in enumerate(edits) if minimal_change(e.old_text, e.new_text) == tuple(case["change"])]
    if not sources:
        return "not-an-edit-of-its-own (inside a bigger edit)"
    recent = edits[-repeat._HISTORY :]
    if len(edits) - 1 - sources[-1] >= len(recent):
        return "source-beyond-history"
    past = [synthesis.PastEdit(e.start_cp, e.old_text, e.new_text, e.seq) for e in recent]
    source = past[sources[-1] - (len(edits) - len(recent))]
    examples = [ex for ex in (example_from_edit(text, e) for e in past) if ex is not None]
    found = [i for i, ex in enumerate(examples) if ex.edit == source]
    if not found:
        return "no-example"
    if found[0] < len(examples) - repeat._SOURCES:
        return "source-beyond-sources"
    made = made_rules(examples[: found[0] + 1])
    if made is None:
        return "no-rules"
    exclude = [(e.start, e.new_end) for e in past]
    category, edited = repeat.categorizer(context), repeat.categorizer(context, edited=True)
    matching = []
    for rule in made.rules:
        hits = [s for s in find_sites(text, rule, exclude, limit=100_000) if gives(s.start, s.end, s.new_text)]
        if hits:
            in_context = category is None or bool(same_category(hits, made.here(rule), category, edited))
            matching.append((rule, len(find_sites(text, rule, exclude, limit=100_000)), in_context))
    if not matching:
        return "no-rule-matches-the-site"
    fit = [(r, n, c) for r, n, c in matching if acceptable(r)]
    if not fit:
        if any(r.info.get("single_ident") for r, _, _ in matching):
            return "not-acceptable: a bare identifier swapped (the rename suggester's)"
        if all(literal_specificity(r) < 1.5 for r, _, _ in matching):
            return "not-acceptable: context too generic"
        return "not-acceptable: no anchor"
    fit = [(r, n, c) for r, n, c in fit if n <= synthesis._limit(r)]
    if not fit:
        return "too-many-sites"
    if not any(c for _, _, c in fit):
        return "another-kind-of-list-or-context"
    return _after_rules(case, context, proposed, source, gives)


def _after_rules(
    case: dict[str, Any], context: Any, proposed: object, source: Any, gives: Callable[[int, int, str], bool]
) -> str:
    text = context.text
    proposals = repeat.repeat_proposals(context)
    for p in proposals:
        ranks = [k for k, s in enumerate(p.sites) if gives(s.start, s.end, s.new_text)]
        if not ranks:
            continue
        if ranks[0] >= repeat._MAX_CANDIDATES:
            return "site-past-the-candidates-per-rule"
        if isinstance(proposed, list) and any(
            gives(c.edits[0].start_cp, c.edits[0].end_cp, c.edits[0].new_text) for c in proposed
        ):
            return "candidate-made-and-lost-in-the-engine"
        site = p.sites[ranks[0]]
        if deletes_a_used_parameter(context, site.start, site.end, site.new_text):
            return "guard: deletes a used parameter"
        if deletes_a_used_import(context, site.start, site.end, site.new_text):
            return "guard: deletes a used import"
        if repeat._reindents_unlike(text, site.start, site.end, site.new_text, p.rule.examples[-1]):
            return "guard: re-indents"
        return "guard: a rename left to the rename suggester"
    if any(any(e.seq == source.seq for e in p.rule.examples) for p in proposals):
        return "the-source-proposed-another-rule"
    if len(proposals) >= repeat._PROPOSALS:
        return "crowded-out-by-newer-proposals"
    repeat._CACHE.clear()
    budget = synthesis._MAX_RULE_SCANS, synthesis._MAX_RULE_LOOKS
    synthesis._MAX_RULE_SCANS = synthesis._MAX_RULE_LOOKS = 10**9
    try:
        unbounded = repeat.repeat_proposals(context)
    finally:
        synthesis._MAX_RULE_SCANS, synthesis._MAX_RULE_LOOKS = budget
        repeat._CACHE.clear()
    if any(gives(s.start, s.end, s.new_text) for p in unbounded for s in p.sites):
        return "search-budget-spent-before-the-source"
    return "other"


def diagnose_file(path: str, cases: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str]]:
    """Replay the sessions of ``path`` holding ``cases`` and diagnose each at its query."""
    wanted = {(c["trace"], c["query"]): c for c in cases}
    captured: dict[str, Any] = {}
    propose = repeat.RepeatEditSuggester.propose

    def capturing(self: repeat.RepeatEditSuggester, context: Any) -> Any:
        out = propose(self, context)
        if captured.get("on") and "context" not in captured:
            captured.update(context=context, out=out)
        return out

    results: list[tuple[dict[str, Any], str]] = []

    def query(sess: Any, trace: str, repo: str, q: Query, qn: int, *rest: Any) -> Any:
        case = wanted.get((trace, qn))
        if case is None:
            return _query(sess, trace, repo, q, qn, *rest)
        captured.clear()
        captured["on"] = True
        row = _query(sess, trace, repo, q, qn, *rest)
        captured["on"] = False
        context = captured.get("context")
        if context is None or context.uri != case["uri"] or context.text[case["start"] : case["end"]] != case["old"]:
            results.append((case, "repeat-not-asked-of-this-document"))
        else:
            results.append((case, diagnose(case, context, captured["out"])))
        return row

    repeat.RepeatEditSuggester.propose = capturing  # type: ignore[method-assign]
    replay_inprocess._query = query  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as state:
            feedback = FeedbackLog(Path(state) / "feedback.jsonl")
            # the agent's verdicts counted over the sessions replayed here only: they
            # move the ranking, not the candidates this diagnosis reads
            closed, answers = ClosedTrees(), AnswerTally()
            traces = {t for t, _ in wanted}
            for n, session in enumerate(load_sessions(path)):
                if session.trace in traces:
                    _replay_session(session, f"nes-{n}", feedback, closed, answers, FileResult(path), False)
            feedback.close()
    finally:
        repeat.RepeatEditSuggester.propose = propose  # type: ignore[method-assign]
        replay_inprocess._query = _query
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--explain", required=True)
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--cases", help="write one JSON line per diagnosed case")
    args = ap.parse_args()
    missed = misses(args.explain, args.candidates)
    table: collections.Counter[tuple[str, str]] = collections.Counter()
    classes: collections.Counter[str] = collections.Counter()
    insertions = 0
    sink = open(args.cases, "w") if args.cases else None
    for path in args.traces:
        cases = classify(path, missed)
        classes.update(c["class"] for c in cases)
        insertions += sum(c["class"] == "same-edit" and not c["old"] for c in cases)
        diagnosed = [c for c in cases if c["class"] != "same-edit" or c["old"]]
        for case, cause in diagnose_file(path, diagnosed):
            table[(case["class"], cause)] += 1
            if sink is not None:
                sink.write(json.dumps({**case, "cause": cause}) + "\n")
    if sink is not None:
        sink.close()
    print(f"misses: {len(missed)}; repeating an earlier edit: {dict(classes)}")
    print(f"same-edit insertions (not diagnosed): {insertions}")
    kinds = ("same-as-newest", "same-as-older", "same-edit")
    print("| cause | " + " | ".join(kinds) + " |\n|---|" + "---:|" * len(kinds))
    for cause in sorted({c for _, c in table}, key=lambda c: -sum(table[(k, c)] for k in classes)):
        print(f"| {cause} | " + " | ".join(str(table[(k, cause)]) for k in kinds) + " |")


if __name__ == "__main__":
    main()
