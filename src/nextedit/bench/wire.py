"""The bench's edge to :mod:`nextedit.text`: wire positions, changes, and the trace hash.

Traces and the agent speak positions as JSON dicts ``{"line", "character"}``
in a named position encoding (``"utf-8" | "utf-16" | "utf-32"``).  The bench
mirrors every replayed document in a :class:`nextedit.text.Document`, which
does all position/offset conversion and change application (ARCHITECTURE.md:
only ``text/`` converts encodings); these helpers only change the shape of
values at the edge.  The mirror is still checked independently of the
engine under test: the trace's ``end`` event records the SHA-256 of the final
text (:func:`sha256_text`).

Offsets are **code point offsets** (Python ``str`` indices).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from nextedit.text import AppliedEdit, Document, Position, PositionEncoding, Range, TextChange, utf8


def sha256_text(text: str) -> str:
    """Hex SHA-256 of the UTF-8 encoding of ``text`` (the trace `end` hash)."""
    return hashlib.sha256(utf8(text)).hexdigest()


def encoding(name: str) -> PositionEncoding:
    """The position encoding called ``name`` (ValueError when it is not one of the three)."""
    try:
        return PositionEncoding(name)
    except ValueError:
        raise ValueError(f"unsupported position encoding {name!r}") from None


# -- wire dicts ↔ text values ---------------------------------------------
def position(pos: dict) -> Position:
    return Position(int(pos["line"]), int(pos["character"]))


def wire_position(pos: Position) -> dict:
    return {"line": pos.line, "character": pos.character}


def range_(rng: dict) -> Range:
    return Range(position(rng["start"]), position(rng["end"]))


def text_change(change: dict) -> TextChange:
    """A ``TextDocumentContentChangeEvent`` (a missing range = the full text)."""
    rng = change.get("range")
    return TextChange(None if rng is None else range_(rng), change["text"])


# -- conversions through the mirror ---------------------------------------
def offset_at(doc: Document, pos: dict, enc: str) -> int:
    return doc.offset_at(position(pos), encoding(enc))


def position_at(doc: Document, cp_offset: int, enc: str) -> dict:
    return wire_position(doc.position_at(cp_offset, encoding(enc)))


def range_offsets(doc: Document, rng: dict, enc: str) -> tuple[int, int]:
    """Code point ``(start, end)`` of a wire range; a reversed range is ordered."""
    return doc.range_offsets(range_(rng), encoding(enc))


def range_at(doc: Document, start_cp: int, end_cp: int, enc: str) -> dict:
    return {"start": position_at(doc, start_cp, enc), "end": position_at(doc, end_cp, enc)}


def apply_changes(doc: Document, changes: Iterable[dict], version: int, enc: str) -> list[AppliedEdit]:
    """Apply wire content changes in order (LSP rules); the mirror moves to ``version``."""
    return doc.apply_changes([text_change(ch) for ch in changes], version, encoding(enc))
