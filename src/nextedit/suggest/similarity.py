"""How alike two places of one text read: the names around them.

Owns :func:`neighbour_similarity` (the lines above and below) and
:func:`line_similarity` (the rest of their own lines), both the Jaccard
overlap of the names they hold. Suggesters use them to say whether a site
sits in surroundings like the developer's example — one more instance of the
same construct — or in unrelated code, where the developer often left the
text alone. Pure text; must not know about suggesters, syntax trees or the
ranker.
"""

from __future__ import annotations

import re

__all__ = ["line_similarity", "neighbour_similarity"]

NAME = re.compile(r"[A-Za-z_$][\w$]*")

_NEIGHBOUR_LINES = 2
_CHARS = 2000  # longest span (and neighbour text on each side) read: cost bounded by the edit, not the line


def _line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    return ls, len(text) if le < 0 else le


def around(text: str, start: int, end: int) -> str:
    """The ``_NEIGHBOUR_LINES`` lines above and below the lines of ``text[start:end]``."""
    ls, le = _line_bounds(text, start, end)
    above = ls
    for _ in range(_NEIGHBOUR_LINES):
        if above <= 0:
            break
        above = text.rfind("\n", 0, above - 1) + 1
    below = le
    for _ in range(_NEIGHBOUR_LINES):
        if below >= len(text):
            break
        nxt = text.find("\n", below + 1)
        below = len(text) if nxt < 0 else nxt
    # a minified neighbour reads as its first and last few thousand characters
    return text[max(above, ls - _CHARS) : ls] + text[le : min(below, le + _CHARS)]


def _jaccard(a: str, b: str) -> float:
    x, y = set(NAME.findall(a)), set(NAME.findall(b))
    union = x | y
    return len(x & y) / len(union) if union else 0.0


def neighbour_similarity(text: str, site: tuple[int, int], example: tuple[int, int]) -> float:
    """The share of names the lines around ``text[site]`` and around
    ``text[example]`` (``(start, end)`` spans) have in common."""
    if site[1] - site[0] > _CHARS or example[1] - example[0] > _CHARS:
        return 0.0
    return _jaccard(around(text, *site), around(text, *example))


def line_similarity(text: str, site: tuple[int, int], example: tuple[int, int]) -> float:
    """The share of names the site's own line(s) and the example's have in
    common, the spans themselves left out (what the change is made *in*)."""
    ls, le = _line_bounds(text, *site)
    es, ee = _line_bounds(text, *example)
    if le - ls > _CHARS or ee - es > _CHARS:
        return 0.0
    return _jaccard(text[ls : site[0]] + " " + text[site[1] : le], text[es : example[0]] + " " + text[example[1] : ee])
