"""How a candidate's site compares with the developer's example: features the ranker reads.

Owns :func:`site_features`: given a candidate and the request, find the
developer edit the candidate repeats (``Candidate.example_seq``) and say in
two cheap numbers what the suggesters' own features leave out:

- ``start_of_line_agrees``: the change begins at the start of its line's
  text (within the indentation: a whole statement inserted, removed or
  rewritten) at the site exactly when it did at the example — an edit made
  mid-line repeated as a line-start one, or the reverse, is another kind of
  change at a place that only shares the rule's tokens;
- ``example_line_closed``: the example's line closes every bracket it opens
  and pairs its double quotes. Fitted on the traces its weight is negative:
  an example line left open is most often a header (``fn f(…) {``,
  ``if (…) {``) or the first line of a multi-line call, and a change there
  (a signature, a condition) is one the developer repeats at the next such
  header more often than a change inside a closed statement.

Each reads the two lines only (at most ``_LINE_CHARS`` characters each):
microseconds per candidate. Measured by leave-one-repository-out replay
(``benchmarks/results/quality-rankfeat.md``), where other measures of the
same kind did not help (see there). Pure text; must not know about
suggesters' internals, syntax trees, LSP/ACP or position encodings.
"""

from __future__ import annotations

from nextedit.suggest.model import Candidate
from nextedit.suggest.suggester import SuggestContext
from nextedit.text.lines import line_around

__all__ = ["line_closed", "site_features"]

_LINE_CHARS = 2000  # a longer line is not compared
_CLOSERS = {")": "(", "]": "[", "}": "{"}


def _at_line_start(text: str, line_start: int, at: int) -> bool:
    """``at`` lies within the indentation of the line beginning at ``line_start``
    (or at its first non-blank character)."""
    return not text[line_start:at].strip(" \t")


def line_closed(line: str) -> bool:
    """Brackets close in the order they open and double quotes pair up."""
    stack: list[str] = []
    for ch in line:
        if ch in "([{":
            stack.append(ch)
        elif ch in _CLOSERS and (not stack or stack.pop() != _CLOSERS[ch]):
            return False
    return not stack and line.count('"') % 2 == 0


def site_features(context: SuggestContext, candidate: Candidate) -> dict[str, float]:
    """The site against its newest example (empty when the example is no
    edit of this document, or a line is too long to read)."""
    if candidate.uri != context.uri or not candidate.edits:
        return {}
    example = next((e for e in reversed(context.edits) if e.seq == candidate.example_seq), None)
    if example is None:
        return {}
    text = context.text
    site_start = min(candidate.edits[0].start_cp, len(text))
    example_start = min(example.start_cp, len(text))
    site_line = line_around(text, site_start, _LINE_CHARS)
    example_line = line_around(text, example_start, _LINE_CHARS)
    if site_line is None or example_line is None:
        return {}
    sls, els, ele = site_line[0], example_line[0], example_line[1]
    agrees = _at_line_start(text, sls, site_start) == _at_line_start(text, els, example_start)
    return {
        "start_of_line_agrees": 1.0 if agrees else 0.0,
        "example_line_closed": 1.0 if line_closed(text[els:ele]) else 0.0,
    }
