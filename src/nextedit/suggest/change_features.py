"""What a candidate's change writes: a feature the ranker reads.

Owns :func:`new_names`: how many distinct names (:data:`~nextedit.text.lexical.NAME_RE`) the
candidate's edits write that the text they replace does not hold. A change
that only moves, drops or re-punctuates names already at the site — a
deleted argument, ``a.b(x)`` → ``b(x)``, ``},`` → ``}`` — carries nothing
of its own; one that writes names the site lacks carries the developer's
new content (a comment's prose, a new argument, a new call), and the more
of it a change carries, the less often its every word is what the
developer writes at the next site. Fitted leave one repository out, its
weight is negative (``benchmarks/results/quality-newnames.md``).

Reads only the edits' own text (at most ``_CHANGE_CHARS`` characters of
each side of each edit): the cost grows with the change, not the file.
Pure text; must not know about suggesters' internals, syntax trees,
LSP/ACP or position encodings.
"""

from __future__ import annotations

from collections.abc import Iterable

from nextedit.suggest.model import TextEditCp
from nextedit.text.lexical import NAME_RE

__all__ = ["new_names"]

# a longer side of an edit is read only this far
_CHANGE_CHARS = 4000


def new_names(text: str, edits: Iterable[TextEditCp]) -> int:
    """Distinct names the ``edits`` write that the text they replace in ``text`` lacks."""
    written: set[str] = set()
    replaced: set[str] = set()
    for edit in edits:
        written.update(NAME_RE.findall(edit.new_text, 0, _CHANGE_CHARS))
        end = min(edit.end_cp, edit.start_cp + _CHANGE_CHARS)
        replaced.update(NAME_RE.findall(text, edit.start_cp, end))
    return len(written - replaced)
