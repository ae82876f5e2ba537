"""What one document's earlier requests learnt about rules found in too many places.

Owns :class:`ScanMemory`. A rule's site search that found more than its
limit of sites stopped there, near the top of the file: what it read is the
text up to its last site and a bounded stretch after it
(:func:`nextedit.suggest.repeat.sites.scan_reach`,
:func:`nextedit.suggest.repeat.lines.standing_reach`), and the developer's
own edits there (the search skips them). The keys are the caller's (a
rule's pattern and rewrite and limit, a line block and limit). The next request, after an edit below
that reach, would read the same text and the same exclusions and stop at
the same site with the same verdict, so the verdict is remembered instead of
searched again. A fresh edit after the developer repeated a small change
many times asks that of every recent edit's rules, request after request.

A verdict is kept while it stays true by construction: at each request the
text is compared with the one the memory last saw, and every verdict that
read past their first difference is dropped; a verdict is used only when the
exclusions within its reach are those it was found with. The memory holds
one text (the document's latest) and at most ``_SIZE`` verdicts, oldest
dropped first. A search over another text than the memory's latest (two
requests at once) neither reads nor writes it.

Must not know how rules are made or chosen, nor sessions, LSP/ACP or
position encodings.
"""

from __future__ import annotations

import bisect
import itertools
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence

from nextedit.text.affixes import common_prefix_len

__all__ = ["ScanMemory"]

_SIZE = 256

# (reach, exclusions within it, complete, where its sites end)
_Verdict = tuple[int, frozenset[tuple[int, int]], bool, int]


class ScanMemory:
    """The "more than its limit of sites" verdicts of one document's searches,
    each with how far into the text it read and the exclusions there."""

    def __init__(self, size: int = _SIZE) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._text: str | None = None
        self._verdicts: OrderedDict[Hashable, _Verdict] = OrderedDict()  # search key -> verdict
        # (reach, order, key, verdict) by reach: those that read past a change are the last ones;
        # an entry whose verdict is no longer the key's is stale (dropped when met)
        self._by_reach: list[tuple[int, int, Hashable, _Verdict]] = []
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._verdicts)

    def begin(self, text: str) -> None:
        """A request over ``text``: forget every verdict that read text which changed since the last one."""
        with self._lock:
            previous, self._text = self._text, text
            if previous is text or not self._verdicts:
                return
            if previous is None:
                self._verdicts.clear()
                self._by_reach.clear()
                return
            by_reach = self._by_reach
            same = common_prefix_len(previous, text, by_reach[-1][0])
            while by_reach and by_reach[-1][0] > same:
                _, _, key, verdict = by_reach.pop()
                if self._verdicts.get(key) is verdict:
                    del self._verdicts[key]

    def too_many(self, text: str, key: Hashable, exclude: Sequence[tuple[int, int]]) -> tuple[int, bool, int] | None:
        """``(reach, complete, where the sites it counted end)`` of the
        remembered verdict when the search of ``key`` found too many sites in
        ``text`` with these exclusions; None when it must be searched."""
        with self._lock:
            known = self._verdicts.get(key) if text is self._text else None
            if known is None:
                return None
            reach, excluded, complete, sites_end = known
            if _within(exclude, reach) != excluded:
                return None
            self._verdicts.move_to_end(key)
            return reach, complete, sites_end

    def remember(
        self,
        text: str,
        key: Hashable,
        reach: int,
        exclude: Sequence[tuple[int, int]],
        complete: bool,
        sites_end: int,
    ) -> None:
        """The search of ``key`` found too many sites in ``text``, the last
        it counted ending at ``sites_end``, reading it no further than ``reach``."""
        with self._lock:
            if text is not self._text or reach > len(text):
                return  # another request's text, or read to its end: any edit may change it
            verdict = self._verdicts[key] = (reach, _within(exclude, reach), complete, sites_end)
            self._verdicts.move_to_end(key)
            bisect.insort(self._by_reach, (reach, next(self._order), key, verdict))
            while len(self._verdicts) > self._size:
                self._verdicts.popitem(last=False)
            if len(self._by_reach) > 2 * self._size:  # the stale entries go
                self._by_reach = [e for e in self._by_reach if self._verdicts.get(e[2]) is e[3]]


def _within(exclude: Sequence[tuple[int, int]], reach: int) -> frozenset[tuple[int, int]]:
    """The exclusions a search reading up to ``reach`` can meet."""
    return frozenset(span for span in exclude if span[0] <= reach)
