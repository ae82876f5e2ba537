"""Where a candidate stands in the developer's session: features the ranker reads.

Owns :func:`history_features`: given a candidate and the request, read the
request document's history (its bound: 64 edits; the edits' lines and
changes are worked out once per request by the context) and say three
things a developer sees of the rule's progress that the suggesters' own
counts leave out:

- ``rule_done_share``: of the change's sites, the share the developer has
  already done — the edits of the session that make the candidate's very
  change (the same text replaced by the same text, wherever it sits, and
  whichever rule the suggester built: the suggesters count only the
  examples their rule was made from), or the rule's examples when those are
  more, against the sites left. A change made at nine sites with one left
  is a habit; made once with seven left, maybe a one-off;
- ``ahead_of_sweep``: the developer has made the change at least twice and
  the site lies further on in the direction they went from the one before
  to the newest (down the file or up it) — the next site of a sweep, not
  one left behind;
- ``near_other_edit``: the site lies within ``_NEAR_LINES`` lines of an edit
  the developer made for something else (neither an example of the change
  nor a repeat of it): code they have just reworked by hand, where a
  repeated change is seldom what comes next;
- ``against_sweep``: every edit the document holds (at least
  ``_SWEEP_EDITS``) started below the one before it — or every one above —
  and the site lies behind the newest, where the developer has already
  been. Whatever the change, a developer working down a file edit after
  edit seldom turns back to something they passed. Unlike
  ``ahead_of_sweep`` it reads all the developer's edits, not only the
  repeats of the candidate's change.

Measured leave one repository out (``benchmarks/results/quality-rankevidence.md``),
where other readings of the session (streaks, interleaving, how far the
developer has moved on from the example, a monotone sweep) did not help.
Pure text and line numbers; must not know about suggesters' internals,
syntax trees, LSP/ACP or position encodings.
"""

from __future__ import annotations

import bisect
import functools
import itertools

from nextedit.suggest.model import Candidate
from nextedit.suggest.suggester import SuggestContext
from nextedit.text.affixes import changed_part

__all__ = ["history_features", "sweep_direction"]

# an edit at most this many lines from the site counts as near it
_NEAR_LINES = 3
# the fewest edits that make a sweep: four edits in one direction are one
# order in 24 when the order is arbitrary (measured against 3 and against
# the newest run of edits only: benchmarks/results/quality-sweep-direction.md)
_SWEEP_EDITS = 4


def history_features(context: SuggestContext, candidate: Candidate) -> dict[str, float]:
    """The candidate's change and site read against the session's edits
    (empty when the candidate is in another document, edits nothing, or the
    document has no history)."""
    if candidate.uri != context.uri or not candidate.edits or not context.edits:
        return {}
    text = context.text
    first = candidate.edits[0]
    start = min(first.start_cp, len(text))
    change = changed_part(text[start : min(first.end_cp, len(text))], first.new_text)
    repeats = context.edits_by_change.get(change, ())
    features = candidate.features
    done = max(len(repeats), features.examples)
    out = {"rule_done_share": done / (done + max(1, features.sites))}
    lines = context.edit_lines
    site_line = context.document.line_of(start)
    if len(repeats) >= 2:
        newest, before = lines[repeats[-1]], lines[repeats[-2]]
        out["ahead_of_sweep"] = 1.0 if (newest - before) * (site_line - newest) > 0 else 0.0
    out["near_other_edit"] = 1.0 if _near_other_edit(context, site_line, repeats, candidate.example_seq) else 0.0
    direction = sweep_direction(lines)
    if direction:
        out["against_sweep"] = 1.0 if (site_line - lines[-1]) * direction < 0 else 0.0
    return out


@functools.lru_cache(maxsize=4)  # one request asks for each of its candidates
def sweep_direction(lines: tuple[int, ...]) -> int:
    """1 when each of the edits starting on ``lines`` (oldest first, at least
    ``_SWEEP_EDITS``) starts below the one before, -1 when each starts above,
    else 0."""
    if len(lines) < _SWEEP_EDITS:
        return 0
    step = 1 if lines[1] > lines[0] else -1
    for before, after in itertools.pairwise(lines):
        if (after - before) * step <= 0:
            return 0
    return step


def _near_other_edit(context: SuggestContext, site_line: int, repeats: tuple[int, ...], example_seq: int) -> bool:
    """An edit within ``_NEAR_LINES`` of ``site_line`` that neither makes the
    change (``repeats``) nor is the candidate's example."""
    by_line = context.edit_lines_sorted
    edits = context.edits
    at = bisect.bisect_left(by_line, (site_line - _NEAR_LINES, -1))
    while at < len(by_line) and by_line[at][0] <= site_line + _NEAR_LINES:
        i = by_line[at][1]
        if i not in repeats and edits[i].seq != example_seq:
            return True
        at += 1
    return False
