"""Bounded walks to the lines around an offset of a plain string.

The start of the line ``n`` lines above an offset and the end of the line
``n`` lines below it, never searching past a floor or ceiling, so that a
very long (minified) line is never walked whole: the repeat synthesis's
example windows and site regions, and the suggesters' name similarity, ask
these. Pure ``str``; knows nothing of documents or encodings.
"""

from __future__ import annotations

__all__ = ["lines_back", "lines_forward"]


def lines_back(text: str, pos: int, n: int, floor: int = 0) -> int:
    """Start of the line ``n`` lines above ``pos`` (never searching below ``floor``)."""
    floor = max(0, floor)
    start = text.rfind("\n", floor, pos) + 1 or floor
    for _ in range(n):
        if start <= floor:
            break
        start = text.rfind("\n", floor, start - 1) + 1 or floor
    return start


def lines_forward(text: str, pos: int, n: int, ceiling: int | None = None) -> int:
    """End (after the newline) of the line ``n`` lines below ``pos`` (never searching past ``ceiling``)."""
    ceiling = len(text) if ceiling is None else min(ceiling, len(text))
    end = pos
    for _ in range(n + 1):
        nl = text.find("\n", end, ceiling)
        if nl < 0:
            return ceiling
        end = nl + 1
    return end
