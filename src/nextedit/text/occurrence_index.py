"""Where literals occur in one document's text, kept from version to version.

Owns :class:`OccurrenceIndex`. The repeat suggester looks up the anchor
literal of every rule it tries in the whole text, request after request;
``str.find`` over a 160 KB file costs ~0.1 ms even when the literal is not
there, and most of a request's rules were tried by the request before, over
a text that differs from this one by the developer's last edits. The index
keeps, per literal, the start of every occurrence in the text it last saw
and moves them to the next version: what stands in the text's common prefix
stays, what stands in its common suffix shifts by the change of length, and
only the changed stretch (plus the literal's length on each side) is read
again. Its answer is always the one a fresh scan gives.

What two versions share is read off the document's log of changes
(:meth:`~nextedit.text.Document.shared_since`), not by comparing the texts,
so a request costs what its edits cost, whatever the file's size; a document
opened anew, or one that took more changes than its log keeps, starts the
index afresh. An entry catches up with every version since its own when it
is next asked for, so entries nobody asks for cost nothing. The index holds
one text (the document's latest), at most ``size`` literals, oldest dropped
first, and refuses literals found more than ``cap`` times (their caller
scans as before, and stops when it has read enough).

Must not know what the literals are for (rules, sites), nor LSP/ACP or
position encodings.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from collections.abc import Sequence

from nextedit.text.document import Document

__all__ = ["OccurrenceIndex", "occurrences"]

_SIZE = 256
_CAP = 64
# versions an entry may lag behind and still catch up
_HISTORY = 64


def occurrences(
    text: str, literal: str, start: int = 0, end: int | None = None, cap: int | None = None
) -> list[int] | None:
    """Every start ``s`` in ``[start, end)`` with ``text.startswith(literal, s)``
    (overlapping ones too), ascending, the whole literal inside
    ``text[:end + len(literal) - 1]``; None when more than ``cap``."""
    n = len(literal)
    stop = len(text) if end is None else min(len(text), end + n - 1)
    found: list[int] = []
    q = text.find(literal, start, stop)
    while q >= 0:
        found.append(q)
        if cap is not None and len(found) > cap:
            return None
        q = text.find(literal, q + 1, stop)
    return found


class OccurrenceIndex:
    """The occurrences of the literals asked for, in one document's latest text."""

    def __init__(self, size: int = _SIZE, cap: int = _CAP) -> None:
        self._size = size
        self._cap = cap
        self._lock = threading.Lock()
        self._text: str | None = None
        self._lineage: object = None
        self._serial = 0
        self._version = 0
        # for the versions from ``_first`` on (the last ``_HISTORY``, latest excluded): the
        # length of each one's text, and the prefix and suffix it shares with the next one's
        self._first = 0
        self._lengths: list[int] = []
        self._prefixes: list[int] = []
        self._suffixes: list[int] = []
        # literal -> (version, starts); starts None: more than the cap
        self._entries: OrderedDict[str, tuple[int, list[int] | None]] = OrderedDict()

    def begin(self, document: Document) -> str:
        """A request over ``document``: its text is the index's latest from
        now on (and is returned, for the searches to read)."""
        text = document.text
        with self._lock:
            previous, self._text = self._text, text
            if previous is text:
                return text
            lineage, serial = self._lineage, self._serial
            self._lineage, self._serial = document.lineage, document.serial
            shared = document.shared_since(lineage, serial) if previous is not None else None
            if shared is None or previous is None:  # another document, or too long ago: afresh
                self._entries.clear()
                self._lengths.clear()
                self._prefixes.clear()
                self._suffixes.clear()
                self._first = self._version = self._version + 1
            elif serial != document.serial:  # else the same text, another str
                self._lengths.append(len(previous))
                self._prefixes.append(shared[0])
                self._suffixes.append(shared[1])
                self._version += 1
                if len(self._lengths) > _HISTORY:
                    del self._lengths[0], self._prefixes[0], self._suffixes[0]
                    self._first += 1
        return text

    def starts(self, text: str, literal: str) -> Sequence[int] | None:
        """Every start of ``literal`` in ``text``, ascending (overlapping ones
        too: what ``text.find(literal, s + 1)`` walks through), when ``text``
        is the index's latest; None when it is not, for an empty literal, or
        when the literal stands more than the cap times."""
        if not literal:
            return None
        with self._lock:
            if text is not self._text:
                return None
            entry = self._entries.get(literal)
            found: list[int] | None
            if entry is None:
                found = occurrences(text, literal, cap=self._cap)
            else:
                version, found = entry
                if version != self._version and found is not None:
                    found = self._caught_up(text, literal, version, found)
            self._entries[literal] = (self._version, found)
            self._entries.move_to_end(literal)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
            return found

    def _caught_up(self, text: str, literal: str, version: int, found: list[int]) -> list[int] | None:
        """``found`` (the starts in ``version``'s text) moved to the latest
        text: the starts in the prefix every version since shares, the ones
        in the suffix they share shifted, the stretch between read again."""
        i = version - self._first
        if i < 0:
            return occurrences(text, literal, cap=self._cap)  # too old: scanned afresh
        old_len = self._lengths[i]
        # what the text of ``version`` and the latest share: what every step between shares
        prefix, suffix = min(self._prefixes[i:]), min(self._suffixes[i:])
        n = len(literal)
        head = found[: bisect.bisect_right(found, prefix - n)]
        tail_from = bisect.bisect_left(found, old_len - suffix)
        delta = len(text) - old_len
        tail = [s + delta for s in found[tail_from:]] if delta else found[tail_from:]
        middle = occurrences(text, literal, max(0, prefix - n + 1), len(text) - suffix, self._cap)
        if middle is None or len(head) + len(middle) + len(tail) > self._cap:
            return None
        return head + middle + tail
