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

from nextedit.text.lexical import IDENTIFIER_RE
from nextedit.text.lines import lines_back, lines_forward

__all__ = ["line_similarity", "neighbour_similarity"]

_NEIGHBOUR_LINES = 2
_CHARS = 2000  # longest span (and neighbour text on each side) read: cost bounded by the edit, not the line


def _line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    return ls, len(text) if le < 0 else le


def _around(text: str, start: int, end: int) -> str:
    """The ``_NEIGHBOUR_LINES`` lines above and below the lines of
    ``text[start:end]``, at most ``_CHARS`` characters on each side (a
    minified neighbour reads as its nearest few thousand characters, and is
    never walked whole)."""
    ls, le = _line_bounds(text, start, end)
    above = lines_back(text, ls, _NEIGHBOUR_LINES, ls - _CHARS)
    below = lines_forward(text, le, _NEIGHBOUR_LINES, le + _CHARS)
    return text[above:ls] + text[le:below]


def _jaccard(a: str, b: str) -> float:
    x, y = set(IDENTIFIER_RE.findall(a)), set(IDENTIFIER_RE.findall(b))
    union = x | y
    return len(x & y) / len(union) if union else 0.0


def neighbour_similarity(text: str, site: tuple[int, int], example: tuple[int, int]) -> float:
    """The share of names the lines around ``text[site]`` and around
    ``text[example]`` (``(start, end)`` spans) have in common."""
    if site[1] - site[0] > _CHARS or example[1] - example[0] > _CHARS:
        return 0.0
    return _jaccard(_around(text, *site), _around(text, *example))


def line_similarity(text: str, site: tuple[int, int], example: tuple[int, int]) -> float:
    """The share of names the site's own line(s) and the example's have in
    common, the spans themselves left out (what the change is made *in*)."""
    ls, le = _line_bounds(text, *site)
    es, ee = _line_bounds(text, *example)
    if le - ls > _CHARS or ee - es > _CHARS:
        return 0.0
    return _jaccard(text[ls : site[0]] + " " + text[site[1] : le], text[es : example[0]] + " " + text[example[1] : ee])
