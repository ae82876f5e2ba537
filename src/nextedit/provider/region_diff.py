"""From a model's rewrite of a region to the edits that make it: the smallest changes, line by line.

Owns :func:`region_edits` (like Zed's ``compute_edits``: a line diff of the
old and new region — a run of lines replaced by as many lines is taken line
by line — each change trimmed of the characters it shares with the old text
at both ends) and :func:`similarity` (how much of the old
region's lines the rewrite kept, to tell a rewrite of *this* region from an
answer about some other text).

Must not know: prompts, HTTP, the engine.
"""

from __future__ import annotations

import difflib
import re

from nextedit.suggest.model import TextEditCp
from nextedit.text import common_affixes

__all__ = ["region_edits", "similarity"]

_WS = re.compile(r"\s+")


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def region_edits(old: str, new: str, offset_cp: int) -> list[TextEditCp]:
    """The edits turning ``old`` (which starts at ``offset_cp`` in its document) into ``new``,
    in document code-point offsets, sorted; changes of whitespace only are left out."""
    a, b = _lines(old), _lines(new)
    starts = [0]
    for line in a:
        starts.append(starts[-1] + len(line))
    edits: list[TextEditCp] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        # as many lines replaced as replacing: line by line, so each changed line is its own edit
        if i2 - i1 == j2 - j1:
            spans = [(i1 + k, i1 + k + 1, j1 + k, j1 + k + 1) for k in range(i2 - i1)]
        else:
            spans = [(i1, i2, j1, j2)]
        for i, last_i, j, last_j in spans:
            was, now = "".join(a[i:last_i]), "".join(b[j:last_j])
            if _WS.sub("", was) == _WS.sub("", now):
                continue
            prefix, suffix = common_affixes(was, now)
            edits.append(
                TextEditCp(
                    offset_cp + starts[i] + prefix,
                    offset_cp + starts[last_i] - suffix,
                    now[prefix : len(now) - suffix],
                )
            )
    return edits


def similarity(old: str, new: str) -> float:
    """The share of lines the two texts have in common (difflib's ratio over lines), 1.0 for two empty texts."""
    a, b = _lines(old), _lines(new)
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
