"""Replay nes-trace/1 files through the engine in process: the bench's verdicts, fast, and every candidate.

``nextedit bench`` drives the real agent over stdio and is the measure of
record. This replayer calls :class:`nextedit.session.Session` directly, with
the same client behaviour (``jump`` and ``searchAndReplace`` advertised, a
jump followed by a second request at its position, a wrong first suggestion
rejected as ``ignored``, one feedback log and one table of closed
documents' trees per trace file, shared by its sessions as one agent process
shares them) and the bench's own judge, so its figures match the bench's while it runs several times faster
and can see inside the engine: with ``--candidates FILE`` it writes, per
query, every candidate the engine ranked (before the threshold) with its
features and its verdict — the training data of the learned ranker
(``benchmarks/quality/train_ranker.py``).

Usage::

    python benchmarks/quality/replay_inprocess.py TRACE... [--jobs 2] [--explain FILE] [--candidates FILE]

``--client reporting`` replays for a client that, as ACP's ``NesRejectReason``
describes ``ignored``, reports *every* first suggestion the developer went
past: a right one is accepted when the developer's next change touches its
lines, and rejected as ``ignored`` otherwise (the bench rejects only the
wrong ones, so a right answer the developer put off stays on offer).

(``--set nextedit.syntax.closed_trees.MAX_DOCUMENTS=0``: every open parses
anew, as before the closed-trees table. ``--syntax grammar-only`` replays
as for a language the grammar pack parses but nextedit ships no query folder
for — Kotlin, PHP, C# —, ``--syntax none`` as for one the pack lacks: every
document read as plain tokens.)
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import importlib
import json
import multiprocessing
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nextedit.bench.events import Change, Close, End, Focus, Open, Query
from nextedit.bench.readers import load_sessions
from nextedit.bench.score import (
    JUMP_TO_NO_EXPECTED_LINE,
    CpExpected,
    ReversalTracker,
    expand_search_and_replace,
    expected_in_cp,
    judge_change,
    regions_of,
)
from nextedit.bench.wire import position, range_, text_change
from nextedit.feedback import FeedbackLog
from nextedit.session import AnswerTally, PlacedSuggestion, Session
from nextedit.suggest.engine import fit_kinds
from nextedit.suggest.filters import clean_edits
from nextedit.suggest.model import Candidate, SuggestionKinds, SuggestRequest, TriggerKind
from nextedit.suggest.rank import feature_vector, request_features
from nextedit.syntax.closed_trees import ClosedTrees
from nextedit.text import Document, PositionEncoding, TextChange
from nextedit.text.portable_regex import why_not_portable

KINDS = SuggestionKinds(jump=True, search_and_replace=True)

# A followed jump's reason: this prefix, then the follow-up's own reason or
# one of the two answers that leave the jump without an edit.
FOLLOWED_JUMP = "followed jump: "
FOLLOW_UP_SILENT = "silence"
FOLLOW_UP_JUMPED = "another jump"


@dataclass
class Judged:
    correct: bool
    reason: str
    reversal: bool = False


def judge_edits(
    doc: Document, uri: str, edits: list[tuple[int, int, str]], expected: list[CpExpected], tracker: ReversalTracker
) -> Judged:
    regions = regions_of(doc.text, edits)
    correct, _matched, reason = judge_change(doc, uri, regions, expected)
    return Judged(correct, reason, tracker.is_reversal(uri, regions))


def placed_edits(doc: Document, s: PlacedSuggestion, enc: PositionEncoding) -> list[tuple[int, int, str]]:
    if s.kind == "searchAndReplace" and s.search is not None:
        return expand_search_and_replace(doc.text, s.search, s.replace or "", s.is_regex)
    return [(*doc.range_offsets(e.range, enc), e.new_text) for e in s.edits]


CLIENTS = ("bench", "reporting")


@dataclass
class _Shown:
    """A right first suggestion a ``reporting`` client waits to settle: its ids
    (a jump's and its follow-up's) and the lines its change touches."""

    ids: tuple[str, ...]
    uri: str
    lines: frozenset[int]

    def taken_by(self, uri: str, first_line: int, last_line: int) -> bool:
        return uri == self.uri and any(first_line <= line <= last_line for line in self.lines)


def _shown(first: PlacedSuggestion, follow_up: PlacedSuggestion | None) -> _Shown:
    made = follow_up if follow_up is not None else first
    lines = frozenset(line for e in made.edits for line in range(e.range.start.line, e.range.end.line + 1))
    ids = (first.id,) if follow_up is None else (first.id, follow_up.id)
    return _Shown(ids, made.uri, lines)


@dataclass
class FileResult:
    path: str
    queries: list[dict[str, Any]] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)


def file_repo(path: str) -> str:
    """The repository a trace file's sessions come from (its first session's)."""
    for session in load_sessions(path):
        return _repo(session.trace, path)
    return Path(path).name.split(".")[0]


def _repo(trace: str, path: str) -> str:
    return trace.split("@", 1)[0] if "@" in trace else Path(path).name.split(".")[0]


def replay_file(path: str, collect: bool = False, client: str = "bench") -> FileResult:
    out = FileResult(path)
    with tempfile.TemporaryDirectory() as state:
        feedback = FeedbackLog(Path(state) / "feedback.jsonl")
        # as one agent process: shared by the file's sessions
        closed_trees, answers = ClosedTrees(), AnswerTally()
        for n, session in enumerate(load_sessions(path)):
            _replay_session(session, f"nes-{n}", feedback, closed_trees, answers, out, collect, client)
        feedback.close()
    return out


def _replay_session(
    session: Any,
    sid: str,
    feedback: FeedbackLog,
    closed_trees: ClosedTrees,
    answers: AnswerTally,
    out: FileResult,
    collect: bool,
    client: str = "bench",
) -> None:
    enc = PositionEncoding(session.header.encoding)
    sess = Session(sid, encoding=enc, kinds=KINDS, feedback=feedback, closed_trees=closed_trees, tally=answers)
    sess.engine.strict = True
    tracker = ReversalTracker()
    mirror: dict[str, Document] = {}  # the client's own copy, as the bench keeps it
    repo = _repo(session.trace, out.path)
    qn = 0
    waiting: list[_Shown] = []  # a reporting client's right answer, until the next change
    for ev in session.events:
        if isinstance(ev, Open):
            sess.did_open(ev.uri, ev.language_id, ev.version, ev.text)
            mirror[ev.uri] = Document(ev.uri, ev.language_id, ev.version, ev.text)
            tracker.reset(ev.uri)
        elif isinstance(ev, Change):
            doc = mirror[ev.uri]
            changes = [text_change(ch) for ch in ev.content_changes]
            while waiting:
                _settle(sess, waiting.pop(), ev.uri, changes)
            for change in changes:
                (applied,) = doc.apply_changes([change], ev.version, enc)
                tracker.on_change(ev.uri, applied.start_cp, applied.old_end_cp, applied.old_text, applied.new_text)
            sess.did_change(ev.uri, ev.version, changes)
        elif isinstance(ev, Focus):
            sess.did_focus(ev.uri, ev.version, position(ev.position), range_(ev.visible_range))
        elif isinstance(ev, Close):
            sess.did_close(ev.uri)
        elif isinstance(ev, Query):
            qn += 1
            out.queries.append(
                _query(
                    sess, session.trace, repo, ev, qn, tracker, out, collect, waiting if client == "reporting" else None
                )
            )
        elif isinstance(ev, End):
            pass
    sess.close()


def _settle(sess: Session, shown: _Shown, uri: str, changes: list[TextChange]) -> None:
    """A reporting client's word on a right answer, as the developer's next change shows it."""
    ranged = [c.range for c in changes if c.range is not None]
    first_line = min((r.start.line for r in ranged), default=0)
    last_line = max((r.end.line for r in ranged), default=1 << 30)
    taken = shown.taken_by(uri, first_line, last_line)
    for suggestion_id in shown.ids:
        if taken:
            sess.accept(suggestion_id)
        else:
            sess.reject(suggestion_id, "ignored")


def _query(
    sess: Session,
    trace: str,
    repo: str,
    q: Query,
    qn: int,
    tracker: ReversalTracker,
    out: FileResult,
    collect: bool,
    waiting: list[_Shown] | None = None,
) -> dict[str, Any]:
    enc = sess.encoding
    expected = expected_in_cp(q.expected or [], {u: s.document for u, s in sess.documents.items()}, enc)
    if collect:
        _collect(sess, trace, repo, q, qn, expected, tracker, out)
    placed = sess.suggest(q.uri, q.version, position(q.position), trigger_kind=q.trigger_kind)
    first = placed[0] if placed else None
    row: dict[str, Any] = {
        "trace": trace,
        "repo": repo,
        "query": qn,
        "related": bool(q.related),
        "empty": q.expected == [],
        "answered": first is not None,
        "kind": first.kind if first else None,
        "suggester": first.suggester if first else None,
        "correct": False,
        "reversal": False,
        "reason": "silent",
    }
    if first is None:
        return row
    follow_ups: list[PlacedSuggestion] = []
    judged = _judge_placed(sess, first, q, expected, tracker, follow_ups)
    row.update(correct=judged.correct, reason=judged.reason, reversal=judged.reversal)
    if not judged.correct:
        sess.reject(first.id, "ignored")
    elif waiting is not None:
        waiting.append(_shown(first, follow_ups[0] if follow_ups else None))
    return row


def _judge_placed(
    sess: Session,
    first: PlacedSuggestion,
    q: Query,
    expected: list[CpExpected],
    tracker: ReversalTracker,
    follow_ups: list[PlacedSuggestion] | None = None,
) -> Judged:
    enc = sess.encoding
    doc = sess.documents[first.uri].document
    if first.kind == "jump":
        # followed as an editor does (and as the bench does): always asked again at its position
        assert first.position is not None
        line = first.position.line
        landed = any(x.uri == first.uri and line in x.lines for x in expected)
        follow = sess.suggest(first.uri, doc.version, first.position)
        nxt = follow[0] if follow else None
        if nxt is None or nxt.kind == "jump":
            if nxt is not None:
                sess.reject(nxt.id, "ignored")
            return Judged(False, FOLLOWED_JUMP + (FOLLOW_UP_SILENT if nxt is None else FOLLOW_UP_JUMPED))
        if follow_ups is not None:
            follow_ups.append(nxt)
        judged = _judge_placed(sess, nxt, q, expected, tracker)
        if not judged.correct:
            sess.reject(nxt.id, "ignored")
            return Judged(False, FOLLOWED_JUMP + judged.reason, judged.reversal)
        if not landed:
            return Judged(False, JUMP_TO_NO_EXPECTED_LINE, judged.reversal)
        return judged
    if first.kind == "searchAndReplace" and first.is_regex:
        why = why_not_portable(first.search or "", first.replace or "")
        if why is not None:
            return Judged(False, why)
    return judge_edits(doc, first.uri, placed_edits(doc, first, enc), expected, tracker)


def _collect(
    sess: Session,
    trace: str,
    repo: str,
    q: Query,
    qn: int,
    expected: list[CpExpected],
    tracker: ReversalTracker,
    out: FileResult,
) -> None:
    """Every ranked candidate of this query, judged as if it were the answer."""
    doc = sess.documents[q.uri].document
    request_cp = doc.offset_at(position(q.position), sess.encoding)
    request = SuggestRequest(q.uri, q.version, request_cp, trigger_kind=TriggerKind(q.trigger_kind))
    if sess.feedback is not None:
        sess.engine.feedback_counts = sess.feedback.verdicts_by_suggester()
    ranking = sess.engine.rank(
        sess,
        request,
        sess.kinds,
        sess._rejected,
        rejected_rules=sess._rejected_rules,
        verdicts=sess.verdicts(),
    )
    context = ranking.context
    if context is None:  # no request was made: nothing ranked
        return
    for rank_, cand in enumerate(ranking.candidates):
        fitted = fit_kinds(cand, sess.kinds)
        if fitted is None:
            continue
        verdict = _judge_candidate(sess, fitted, expected, tracker)
        out.candidates.append(
            {
                "trace": trace,
                "repo": repo,
                "query": qn,
                "rank": rank_,
                "suggester": cand.suggester,
                "kind": cand.kind,
                "score": cand.score,
                "features": dataclasses.asdict(cand.features),
                "vector": feature_vector(cand, request_features(context, cand)),
                "correct": verdict.correct,
                "reversal": verdict.reversal,
                "why": verdict.reason,
                "edit": [(doc.text[e.start_cp : e.end_cp][:160], e.new_text[:160]) for e in fitted.edits[:2]],
                "evidence": cand.evidence[:2],
                "related": bool(q.related),
                "empty": q.expected == [],
                "cursor": request_cp,
                # where the candidate acts: its first edit's start, or a jump's target
                "site": fitted.edits[0].start_cp if fitted.edits else fitted.target_cp,
            }
        )


def _judge_candidate(sess: Session, cand: Candidate, expected: list[CpExpected], tracker: ReversalTracker) -> Judged:
    doc = sess.documents[cand.uri].document
    if cand.kind == "jump":
        assert cand.target_cp is not None
        line = doc.line_of(cand.target_cp)
        ok = any(x.uri == cand.uri and line in x.lines for x in expected)
        return Judged(ok, "jump target on an expected line" if ok else "jump elsewhere")
    if (
        cand.kind == "searchAndReplace"
        and cand.is_regex
        and why_not_portable(cand.search or "", cand.replace or "") is not None
    ):
        return Judged(False, "non-portable regex")
    edits = clean_edits(cand, doc.text) or ()
    return judge_edits(doc, cand.uri, [(e.start_cp, e.end_cp, e.new_text) for e in edits], expected, tracker)


def tally(
    by: dict[str, collections.Counter[str]],
    repo: str,
    answered: bool,
    correct: bool,
    related: bool,
    empty: bool,
    reversal: bool = False,
) -> None:
    """Count one query, under its repository and ``POOLED`` (``correct``: the answer was right)."""
    for key in (repo, "POOLED"):
        k = by[key]
        k["queries"] += 1
        k["answered"] += answered
        k["correct"] += answered and correct
        k["related"] += related
        k["related_correct"] += related and answered and correct
        k["empty"] += empty
        k["silent_on_empty"] += empty and not answered
        k["reversals"] += reversal


def ratios(k: collections.Counter[str]) -> tuple[float, float, float]:
    """``(precision, related recall, silence)`` of a tally (NaN where nothing counts)."""
    p = k["correct"] / k["answered"] if k["answered"] else float("nan")
    r = k["related_correct"] / k["related"] if k["related"] else float("nan")
    s = k["silent_on_empty"] / k["empty"] if k["empty"] else float("nan")
    return p, r, s


def summarize(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    by: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for r in rows:
        tally(by, r["repo"], r["answered"], r["correct"], r["related"], r["empty"], r["reversal"])
    table = {}
    for repo, k in by.items():
        precision, recall, silence = ratios(k)
        table[repo] = {**k, "precision": precision, "recall": recall, "silence": silence}
    return table


def print_table(table: dict[str, dict[str, float]], file: Any = sys.stdout) -> None:
    for repo in sorted(table, key=lambda r: (r == "POOLED", r)):
        t = table[repo]
        print(
            f"{repo:10s} q={t['queries']:5d} ans={t['answered']:5d} P={t['precision']:.3f} "
            f"R={t['recall']:.3f} S={t['silence']:.3f} rev={t['reversals']}",
            file=file,
        )
    repos = [r for r in table if r != "POOLED"]
    if repos:
        worst = min(repos, key=lambda r: table[r]["precision"])
        print(f"worst precision: {worst} {table[worst]['precision']:.3f}", file=file)


def write_report(queries: list[dict[str, Any]], json_path: str | None, explain_path: str | None) -> None:
    """Print the per-repository table; write it as JSON (``--json``) and one line per query (``--explain``)."""
    table = summarize(queries)
    print_table(table)
    if json_path:
        Path(json_path).write_text(json.dumps(table, indent=1))
    if explain_path:
        with open(explain_path, "w") as f:
            for q in queries:
                f.write(json.dumps(q) + "\n")


def _run(args: tuple[str, bool, str]) -> FileResult:
    return replay_file(*args)


def apply_overrides(overrides: list[str]) -> None:
    """``module.NAME=value`` (a Python literal): set a module constant, for experiments."""
    import ast

    for item in overrides:
        target, value = item.split("=", 1)
        module_name, name = target.rsplit(".", 1)
        module = importlib.import_module(module_name)
        if not hasattr(module, name):
            raise SystemExit(f"{module_name} has no {name}")
        setattr(module, name, ast.literal_eval(value))


SYNTAX_LEVELS = ("full", "grammar-only", "none")


def limit_syntax(level: str) -> None:
    """Replay with less syntax than the engine has (``SYNTAX_LEVELS``): ``grammar-only``
    hides the query files and builtin lists of ``grammars/``; ``none`` gives no
    document a grammar."""
    import nextedit.session
    from nextedit.syntax import builtins, queries, query_analysis

    if level == "full":
        return
    if level == "grammar-only":
        queries.query_text = lambda language, name: None  # type: ignore[assignment]
        query_analysis.query_text = queries.query_text
        queries.grammar_dirs = lambda: []
        builtins.grammar_dirs = queries.grammar_dirs
    elif level == "none":
        nextedit.session.language_for = lambda *args, **kwargs: None
    else:
        raise SystemExit(f"--syntax: one of {', '.join(SYNTAX_LEVELS)}")
    _check_syntax_limited(level)


def _check_syntax_limited(level: str) -> None:
    """Fail when the patches of :func:`limit_syntax` miss the names the engine
    reads (a module that imported one by name since): the figures would be
    the full engine's, labelled as less."""
    import nextedit.session
    from nextedit.syntax import builtins, queries

    queries.load.cache_clear()
    builtins.builtin_names.cache_clear()
    if level == "grammar-only" and (queries.load("python", "locals") is not None or builtins.builtin_names("python")):
        raise SystemExit("--syntax grammar-only: the engine still reads grammars/ query files or builtin lists")
    if level == "none" and nextedit.session.language_for("python", "file:///x.py", "x = 1\n") is not None:
        raise SystemExit("--syntax none: documents still get a grammar")


def _start_worker(overrides: list[str], syntax: str) -> None:
    apply_overrides(overrides)
    limit_syntax(syntax)


def replay_all(
    paths: list[str],
    jobs: int = 2,
    collect: bool = False,
    overrides: list[str] | None = None,
    syntax: str = "full",
    client: str = "bench",
) -> Iterator[FileResult]:
    _start_worker(overrides or [], syntax)
    if jobs <= 1:
        for p in paths:
            yield replay_file(p, collect, client)
        return
    with multiprocessing.Pool(jobs, initializer=_start_worker, initargs=(overrides or [], syntax)) as pool:
        yield from pool.imap(_run, [(p, collect, client) for p in paths])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--explain", help="write one JSON line per query")
    ap.add_argument("--candidates", help="write one JSON line per ranked candidate")
    ap.add_argument("--json", help="write the per-repository table as JSON")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE", help="override a constant")
    ap.add_argument(
        "--syntax", choices=SYNTAX_LEVELS, default="full", help="replay as for a language with less syntax support"
    )
    ap.add_argument(
        "--client",
        choices=CLIENTS,
        default="bench",
        help="bench: reject only wrong answers; reporting: also settle right ones (module docstring)",
    )
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = []
    cand_out = open(args.candidates, "w") if args.candidates else None  # noqa: SIM115
    for res in replay_all(args.traces, args.jobs, cand_out is not None, args.set, args.syntax, args.client):
        rows.extend(res.queries)
        if cand_out is not None:
            for c in res.candidates:
                cand_out.write(json.dumps(c) + "\n")
    if cand_out is not None:
        cand_out.close()
    write_report(rows, args.json, args.explain)
    return 0


if __name__ == "__main__":
    sys.exit(main())
