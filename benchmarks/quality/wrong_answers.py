"""Where a replay's wrong answers come from: the precision side of a miss analysis.

Input: the file ``replay_inprocess.py --explain Q`` or ``loro.py --explain Q``
wrote (one JSON object per query). Every answered query is counted by
repository, by suggester and kind, and — for the wrong ones — by what the
judge found (``docs/trace-format.md``):

- ``wrong site``: the suggestion's region lies outside every expected edit
  (or a jump lands on a line with none);
- ``wrong text``: at an expected edit, but not on a shortest edit path to
  the expected text;
- ``nothing expected``: the developer made no further edit in the file,
  and any answer is wrong;
- ``nothing after the jump``: a followed jump answered by silence or by
  another jump.

The classes read the reasons ``nextedit.bench.score`` and
``replay_inprocess.py`` name; a reason neither names shows as
``other: …`` rather than being folded into a class.

A ``followed jump:`` prefix (the judge followed a jump and judged the
suggestion made there) is counted apart, so a wrong jump and a wrong edit
read separately.

With ``--candidates C`` (the ranked candidates ``replay_inprocess.py
--candidates`` wrote for the same replay) it also splits the queries by
what was left to do — a repeat of a change already made (``related``),
only other edits, or nothing — and says, for each, how the engine's own
candidates stood: whether a wrong answer had a right candidate ranked
below it (a ranking miss), and whether a related query left silent had a
right candidate first (under the answer threshold), lower, or none (a
synthesis miss).

Usage::

    python benchmarks/quality/wrong_answers.py Q [--top N] [--candidates C]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from nextedit.bench import score

sys.path.insert(0, str(Path(__file__).parent))
from replay_inprocess import FOLLOW_UP_JUMPED, FOLLOW_UP_SILENT, FOLLOWED_JUMP  # noqa: E402

_CLASSES = {
    score.NO_EXPECTED_EDIT_IN_DOCUMENT: "wrong site",
    score.JUMP_TO_NO_EXPECTED_LINE: "wrong site",
    score.NOT_ON_SHORTEST_PATH: "wrong text",
    score.CHANGES_NOTHING: "wrong text",
    score.OVERLAPPING_REGIONS: "wrong text",
    FOLLOW_UP_SILENT: "nothing after the jump",
    FOLLOW_UP_JUMPED: "nothing after the jump",
    score.NOTHING_EXPECTED: "nothing expected",
}


def judged_class(reason: str) -> str:
    """The class of a wrong answer's judge reason (see the module docstring)."""
    reason = reason.removeprefix(FOLLOWED_JUMP)
    if reason.endswith(score.OUTSIDE_EVERY_EXPECTED_EDIT):
        return "wrong site"
    return _CLASSES.get(reason, "other: " + reason[:40])


def table(title: str, counts: dict[str, list[int]], top: int) -> list[str]:
    """Rows ``key | answers | wrong | precision``, most wrong first."""
    lines = [f"| {title} | answers | wrong | precision |", "|---|---:|---:|---:|"]
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1][1], kv[0]))
    for key, (n, wrong) in ranked[:top]:
        lines.append(f"| {key} | {n} | {wrong} | {(n - wrong) / n:.3f} |")
    return lines


def report(rows: list[dict[str, Any]], top: int) -> str:
    by_repo: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    by_source: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    by_class: collections.Counter[str] = collections.Counter()
    n = wrong = 0
    for row in rows:
        if not row.get("answered"):
            continue
        is_wrong = not row.get("correct")
        n += 1
        wrong += is_wrong
        source = f"{row.get('suggester')} {row.get('kind')}"
        for key, counts in ((row["repo"], by_repo), (source, by_source)):
            counts[key][0] += 1
            counts[key][1] += is_wrong
        if is_wrong:
            reason = str(row.get("reason", ""))
            jump = "after a followed jump" if reason.startswith(FOLLOWED_JUMP) else "directly"
            related = "related" if row.get("related") else "unrelated"
            by_class[f"{judged_class(reason)} | {related} | {jump}"] += 1
    if not n:
        return "no answered queries\n"
    out = [f"{n} answers, {wrong} wrong, precision {(n - wrong) / n:.3f}", ""]
    out += table("repository", by_repo, top) + [""]
    out += table("suggester kind", by_source, top) + [""]
    out += ["| what the judge found | query | how | wrong answers |", "|---|---|---|---:|"]
    out += [f"| {key} | {count} |" for key, count in by_class.most_common(top)]
    return "\n".join(out) + "\n"


def query_class(row: dict[str, Any]) -> str:
    """What the developer still did after the query: a repeat, only other edits, or nothing."""
    if row.get("related"):
        return "related"
    return "nothing left" if row.get("empty") else "other edits only"


def right_candidate_ranks(lines: Iterable[str]) -> dict[tuple[str, int], list[int]]:
    """Per (trace, query): the ranks of the candidates the judge found right, from a ``--candidates`` file."""
    out: dict[tuple[str, int], list[int]] = {}
    for line in lines:
        if not line.strip():
            continue
        c = json.loads(line)
        right = out.setdefault((c["trace"], c["query"]), [])  # a query with candidates, right or not
        if c.get("correct"):
            right.append(c["rank"])
    return out


def candidate_report(rows: list[dict[str, Any]], ranks: dict[tuple[str, int], list[int]]) -> str:
    """Answers by query class, with the right candidates ranked below a wrong answer; and
    the related queries left silent, by where their best right candidate stood."""
    answered: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    silent: collections.Counter[str] = collections.Counter()
    for row in rows:
        key = (row["trace"], row["query"])
        right = ranks.get(key)
        if row.get("answered"):
            counts = answered[query_class(row)]
            counts[0] += 1
            if not row.get("correct"):
                counts[1] += 1
                counts[2] += bool(right and min(right) > 0)
        elif row.get("related"):
            if right is None:
                silent["no candidate"] += 1
            elif not right:
                silent["candidates, none right"] += 1
            else:
                silent["a right candidate first" if min(right) == 0 else "a right candidate lower"] += 1
    out = [
        "| query (what was left to do) | answers | wrong | precision | wrong with a right candidate below |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in ("related", "other edits only", "nothing left"):
        n, wrong, below = answered[name]
        if n:
            out.append(f"| {name} | {n} | {wrong} | {(n - wrong) / n:.3f} | {below} |")
    out += ["", "| related query left silent | queries |", "|---|---:|"]
    for name in ("a right candidate first", "a right candidate lower", "candidates, none right", "no candidate"):
        out.append(f"| {name} | {silent[name]} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("explain", help="an --explain file of replay_inprocess.py or loro.py")
    ap.add_argument("--top", type=int, default=20, help="rows per table")
    ap.add_argument("--candidates", help="the --candidates file of the same replay_inprocess.py run")
    args = ap.parse_args(argv)
    with open(args.explain, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    print(report(rows, args.top), end="")
    if args.candidates:
        with open(args.candidates, encoding="utf-8") as f:
            print("\n" + candidate_report(rows, right_candidate_ranks(f)), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
