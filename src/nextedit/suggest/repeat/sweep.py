"""The next sites of a rule too generic to list, in the direction the developer sweeps.

A rule found at more sites than its limit, or whose only fixed context is
punctuation or a keyword (``)`` -> ``, ctx)``, ``(`` -> ``(ctx, ``), is no
targeted change: listing its sites would offer most of the file. When two
of the developer's edits agree on it, though, they went from one example to
the other, and the sites just past the newest in that direction are the
likeliest next ones (a sweep). :class:`Sweep` finds those few, reading only
the text between the examples and a bounded stretch past the newest (never
the file), and counts the matches the developer passed over between the two
examples (a negative example the ranker weighs).

The ranker prices these sites on their own terms: the suggester marks their
rule ``info["sweep"]`` with the site count it knows (``info["sweep_sites"]``:
the exact count when under the limit, else the limit plus one).

Must not know about sessions, documents, syntax trees, LSP/ACP or position
encodings.
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence

from nextedit.suggest.repeat.model import PastEdit, Rule, Site
from nextedit.suggest.repeat.sites import sites_in
from nextedit.text.affixes import changed_part

__all__ = ["SWEEP_SITES", "Sweep"]

# sites a sweep proposes (read before the syntactic-context filter: a few more)
SWEEP_SITES = 2
_SWEEP_READ = 6
# how far past the newest example, and between the examples, a sweep reads
_SWEEP_REACH = 20_000
# sweeps looked for per request (each is two bounded scans)
_SWEEP_TRIES = 8
# matches between the examples counted as passed over, at most
_PASSED_CAP = 3
# a match passed over between the examples means no sweep (else: a feature)
_REFUSE_PASSED = os.environ.get("NEXTEDIT_SWEEP_PASSED", "refuse") == "refuse"


class Sweep:
    """One request's sweeps (at most ``_SWEEP_TRIES``)."""

    def __init__(
        self,
        text: str,
        recent: Sequence[PastEdit],
        exclude: Sequence[tuple[int, int]],
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self.text = text
        self.recent = recent
        self.exclude = exclude
        self.cancelled = cancelled
        self.tries = 0

    def direction(self, rule: Rule) -> tuple[PastEdit, PastEdit] | None:
        """``(first, newest)``: the rule's newest example and the furthest
        back of the recent edits making the same change (the sweep went from
        the first to the newest), when two of the rule's examples agree and
        every such edit lies behind the newest in that direction."""
        if rule.evidence < 2 or len(rule.examples) < 2:
            return None
        ordered = sorted(rule.examples, key=lambda e: e.seq)
        previous, newest = ordered[-2], ordered[-1]
        if previous.start == newest.start:
            return None
        down = newest.start > previous.start
        change = changed_part(newest.old, newest.new)
        first = previous
        for edit in self.recent:
            if edit.seq >= newest.seq or changed_part(edit.old, edit.new) != change:
                continue
            if (edit.start > newest.start) == down and edit.start != newest.start:
                return None  # made ahead of the newest: no sweep in one direction
            if (edit.start < first.start) if down else (edit.start > first.start):
                first = edit
        return first, newest

    def next_sites(self, rule: Rule) -> tuple[list[Site], int] | None:
        """The rule's first sites past its newest example in the sweep's
        direction, nearest first (up to ``_SWEEP_READ``), and how many
        matches lie between the two examples unchanged (up to
        ``_PASSED_CAP``); ``None`` when the rule has no sweep or the
        request's tries are spent."""
        pair = self.direction(rule)
        if pair is None:
            return None
        self.tries += 1
        if self.tries > _SWEEP_TRIES:
            return None
        previous, newest = pair
        down = newest.start > previous.start
        lo, hi = (previous.start, newest.start) if down else (newest.new_end, previous.new_end)
        passed = 0
        if hi - lo <= _SWEEP_REACH:
            passed = sum(1 for _ in itertools.islice(self._sites(rule, lo, hi), _PASSED_CAP))
        else:
            passed = _PASSED_CAP  # examples far apart: not one sweep
        if passed and _REFUSE_PASSED:
            return None
        if down:
            found = list(
                itertools.islice(self._sites(rule, newest.new_end, newest.new_end + _SWEEP_REACH), _SWEEP_READ)
            )
        else:
            # read upwards in growing stretches: a rule of a few characters
            # matches all over the text, and the nearest few are close
            for reach in (_SWEEP_REACH // 40, _SWEEP_REACH // 8, _SWEEP_REACH):
                tail = deque(self._sites(rule, max(0, newest.start - reach), newest.start), maxlen=_SWEEP_READ)
                if len(tail) == _SWEEP_READ or newest.start <= reach:
                    break
            found = list(reversed(tail))
        return found, passed

    def order(self, rule: Rule, sites: Sequence[Site]) -> tuple[list[Site], int] | None:
        """``sites`` (all the rule's, a complete list) past its newest example
        in the sweep's direction, nearest first, and how many lie between the
        two examples (capped as :meth:`next_sites` counts them)."""
        pair = self.direction(rule)
        if pair is None:
            return None
        previous, newest = pair
        down = newest.start > previous.start
        lo, hi = sorted((previous.start, newest.start))
        passed = min(_PASSED_CAP, sum(1 for s in sites if lo < s.match_start < hi))
        if hi - lo > _SWEEP_REACH:
            passed = _PASSED_CAP
        if passed and _REFUSE_PASSED:
            return None
        ahead = [s for s in sites if (s.match_start >= newest.new_end if down else s.match_start < newest.start)]
        ahead.sort(key=lambda s: s.match_start if down else -s.match_start)
        return ahead[:_SWEEP_READ], passed

    def _sites(self, rule: Rule, start: int, stop: int) -> Iterator[Site]:
        return sites_in(self.text, rule, start, stop, self.exclude, self.cancelled)
