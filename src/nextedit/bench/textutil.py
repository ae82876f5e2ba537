"""The bench's own text mirror: positions in UTF-8/16/32 and LSP change rules.

The bench keeps an independent mirror of every replayed document (it must not
trust the engine it measures), so it carries its own small implementation of
the LSP position rules: ``\\n``, ``\\r\\n`` and ``\\r`` end lines; a character
past the end of a line clamps to the line end; a position inside a surrogate
pair or a UTF-8 sequence snaps to the start of the character; a line past the
end of the document clamps to the end of the document.

Offsets here are **code point offsets** (Python ``str`` indices), named
``*_cp``.  Positions are wire dicts ``{"line": int, "character": int}``.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from dataclasses import dataclass

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"
ENCODINGS = (UTF8, UTF16, UTF32)

_LINE_END = re.compile(r"\r\n|\r|\n")


def sha256_text(text: str) -> str:
    """Hex SHA-256 of the UTF-8 encoding of ``text`` (the trace `end` hash)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _units(ch: str, enc: str) -> int:
    o = ord(ch)
    if enc == UTF16:
        return 2 if o > 0xFFFF else 1
    if enc == UTF8:
        return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    return 1


def units_len(text: str, enc: str) -> int:
    """Length of ``text`` in code units of ``enc``."""
    if enc == UTF32 or text.isascii():
        return len(text)
    if enc == UTF16:
        return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)
    return len(text.encode("utf-8", "surrogatepass"))


def cp_col(line_text: str, character: int, enc: str) -> int:
    """Code point column of ``character`` (in ``enc`` units) on a line: clamped, snapped."""
    if character <= 0:
        return 0
    if enc == UTF32 or line_text.isascii():
        return min(character, len(line_text))
    units = 0
    for i, ch in enumerate(line_text):
        u = _units(ch, enc)
        if units + u > character:
            return i  # inside a multi-unit character: snap to its start
        units += u
        if units == character:
            return i + 1
    return len(line_text)


class LineIndex:
    """Text plus the code point offsets of line starts, updated incrementally."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _LINE_END.finditer(text)]

    # -- lines -------------------------------------------------------------
    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, cp: int) -> int:
        return bisect_right(self.starts, cp) - 1

    def line_bounds(self, line: int) -> tuple[int, int]:
        """(start, end) of ``line`` without its terminator."""
        start = self.starts[line]
        if line + 1 < len(self.starts):
            end = self.starts[line + 1]
            text = self.text
            if end > start and text[end - 1] == "\n":
                end -= 1
                if end > start and text[end - 1] == "\r":
                    end -= 1
            elif end > start and text[end - 1] == "\r":
                end -= 1
        else:
            end = len(self.text)
        return start, end

    def line_text(self, line: int) -> str:
        s, e = self.line_bounds(line)
        return self.text[s:e]

    # -- positions ---------------------------------------------------------
    def offset_at(self, pos: dict, enc: str) -> int:
        line = int(pos["line"])
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        s, e = self.line_bounds(line)
        return s + cp_col(self.text[s:e], int(pos["character"]), enc)

    def position_at(self, cp: int, enc: str) -> dict:
        cp = max(0, min(cp, len(self.text)))
        line = self.line_of(cp)
        s, e = self.line_bounds(line)
        if cp > e:  # inside a \r\n terminator: snap to the line end
            cp = e
        return {"line": line, "character": units_len(self.text[s:cp], enc)}

    def range_offsets(self, rng: dict, enc: str) -> tuple[int, int]:
        a = self.offset_at(rng["start"], enc)
        b = self.offset_at(rng["end"], enc)
        return (a, b) if a <= b else (b, a)

    def range_at(self, start_cp: int, end_cp: int, enc: str) -> dict:
        return {"start": self.position_at(start_cp, enc), "end": self.position_at(end_cp, enc)}

    # -- changes -----------------------------------------------------------
    def replace(self, start: int, end: int, new: str) -> None:
        """Replace ``text[start:end]`` by ``new``; the line index follows incrementally."""
        old = self.text
        text = old[:start] + new + old[end:]
        self.text = text
        delta = len(new) - (end - start)
        starts = self.starts
        keep = max(1, bisect_right(starts, start - 1))  # starts < start (and 0) stay
        tail = bisect_right(starts, end + 1)  # starts > end+1 just shift
        hi = start + len(new) + 1  # new starts in [start, hi] are re-scanned
        mid = [
            m.end()
            for m in _LINE_END.finditer(text, max(0, start - 1), min(len(text), hi + 1))
            if start <= m.end() <= hi
        ]
        self.starts = starts[:keep] + mid + [s + delta for s in starts[tail:]]

    def set_text(self, text: str) -> None:
        self.__init__(text)  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class AppliedChange:
    """One applied change in code point offsets of the text before it."""

    start: int
    end: int
    old_text: str
    new_text: str


class Mirror:
    """A mirrored document: text, version, language; applies LSP content changes."""

    def __init__(self, uri: str, language_id: str, version: int, text: str) -> None:
        self.uri = uri
        self.language_id = language_id
        self.version = version
        self.index = LineIndex(text)

    @property
    def text(self) -> str:
        return self.index.text

    def offset_at(self, pos: dict, enc: str) -> int:
        return self.index.offset_at(pos, enc)

    def position_at(self, cp: int, enc: str) -> dict:
        return self.index.position_at(cp, enc)

    def range_offsets(self, rng: dict, enc: str) -> tuple[int, int]:
        return self.index.range_offsets(rng, enc)

    def apply_change(self, change: dict, enc: str) -> AppliedChange:
        """Apply one ``TextDocumentContentChangeEvent`` (a missing range = full text)."""
        rng = change.get("range")
        new = change["text"]
        if rng is None:
            old = self.index.text
            self.index.set_text(new)
            return AppliedChange(0, len(old), old, new)
        a, b = self.index.range_offsets(rng, enc)
        old = self.index.text[a:b]
        self.index.replace(a, b, new)
        return AppliedChange(a, b, old, new)

    def replace(self, start: int, end: int, new: str) -> AppliedChange:
        old = self.index.text[start:end]
        self.index.replace(start, end, new)
        return AppliedChange(start, end, old, new)


def trim_change(old: str, new: str) -> tuple[int, int, int]:
    """Strip the common prefix and suffix of ``old`` → ``new``.

    Returns ``(prefix, old_core_end, new_core_end)``: the changed region is
    ``old[prefix:old_core_end]`` replaced by ``new[prefix:new_core_end]``.
    """
    n = min(len(old), len(new))
    p = 0
    while p < n and old[p] == new[p]:
        p += 1
    s = 0
    while s < n - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
        s += 1
    return p, len(old) - s, len(new) - s


def apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping ``(start, end, new)`` edits, all against ``text``."""
    out = []
    pos = 0
    for s, e, new in sorted(edits, key=lambda x: (x[0], x[1])):
        if s < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos:s])
        out.append(new)
        pos = e
    out.append(text[pos:])
    return "".join(out)
