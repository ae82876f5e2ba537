"""Bounded walks to the lines around an offset of a plain string.

The line around an offset, and the start of the line ``n`` lines above an
offset and the end of the line ``n`` lines below it, never searching past a
floor, ceiling or limit, so that a
very long (minified) line is never walked whole: the repeat synthesis's
example windows and site regions, a repeat site's own layout, the ranker's
site features and the suggesters' name similarity ask these. Pure ``str``; knows nothing of documents or encodings.
"""

from __future__ import annotations

__all__ = ["line_around", "lines_back", "lines_forward"]


def line_around(text: str, at: int, limit: int) -> tuple[int, int] | None:
    """``(start, end)`` of the line around ``at`` (``end`` before its newline),
    ``None`` when the line is longer than ``limit``: a minified line is never
    walked whole, only ``limit`` characters on each side of ``at``."""
    lo = max(0, at - limit - 1)
    start = text.rfind("\n", lo, at) + 1
    if start == 0 and lo > 0:
        return None
    end = text.find("\n", at, at + limit + 1)
    if end < 0:
        if len(text) - at > limit:
            return None
        end = len(text)
    return (start, end) if end - start <= limit else None


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
