"""One mirrored document: its text, UTF-8 bytes, line index and version.

The document is changed only through :meth:`Document.apply_changes`, which
keeps text, bytes and line index in step and reports each applied change as
an :class:`AppliedEdit` carrying everything tree-sitter's ``Tree.edit`` and
the edit history need.

Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` (LSP rules). The line index is
lazy: an edit keeps the line starts before it and drops the rest; they are
rescanned (at C speed, with a regex) only up to the line a later request
needs. Typing on one line therefore never rescans the file.

This module knows nothing of JSON-RPC, ACP or LSP types.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, islice
from operator import add

from nextedit.text.encoding import PositionEncoding, col_from_cp, cp_col_from, utf8, utf8_len

__all__ = ["AppliedEdit", "Document", "Position", "Range", "TextChange", "TextSnapshot"]

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")
# the same for a text without \r (most texts): a single-character search,
# and for long scans ``split`` (both several times faster than the alternation)
_NEWLINE = re.compile(r"\n")
_NEWLINE_BYTES = re.compile(rb"\n")
# the longest pending window (code points) before the text is materialised
_WINDOW_MAX = 8192
# changes a document remembers the span of (:meth:`Document.shared_since`)
_LOG = 64
# how far past its target a line scan goes (code points or bytes; lines)
_SCAN_AHEAD = 4096
_SCAN_AHEAD_LINES = 64


@dataclass(frozen=True, slots=True)
class Position:
    """A zero-based line and a column counted in some position encoding."""

    line: int
    character: int


@dataclass(frozen=True, slots=True)
class Range:
    start: Position
    end: Position


@dataclass(frozen=True, slots=True)
class TextChange:
    """One content change; ``range=None`` replaces the whole text."""

    range: Range | None
    text: str


@dataclass(frozen=True, slots=True)
class AppliedEdit:
    """A change as applied: offsets before (``old_*``) and after (``new_*``).

    ``*_point`` are tree-sitter points ``(row, byte_column)`` where rows count
    ``\\n`` as tree-sitter does.
    """

    start_cp: int
    old_end_cp: int
    new_end_cp: int
    start_byte: int
    old_end_byte: int
    new_end_byte: int
    start_point: tuple[int, int]
    old_end_point: tuple[int, int]
    new_end_point: tuple[int, int]
    old_text: str
    new_text: str


class Document:
    """The text of one open document at one version."""

    __slots__ = (
        "uri",
        "language_id",
        "version",
        "_text",
        "_bytes",
        "_starts_cp",
        "_starts_byte",
        "_scanned",
        "_cr",
        "_lone_cr",
        "_len",
        "_win",
        "_ws",
        "_we",
        "_wline",
        "_wbyte",
        "_lineage",
        "_serial",
        "_log",
    )

    def __init__(self, uri: str, language_id: str, version: int, text: str) -> None:
        self.uri = uri
        self.language_id = language_id
        self.version = version
        # the changes since it was opened: who it is (its snapshots share it), how many
        # changes it took, and the last ``_LOG`` of them (:meth:`shared_since`)
        self._lineage = object()
        self._serial = 0
        self._log: tuple[tuple[int, int, int], ...] = ()
        self._set_text(text)

    # -- state -------------------------------------------------------------

    def _set_text(self, text: str) -> None:
        self._win: str | None = None
        self._text = text
        self._len = len(text)
        self._bytes = utf8(text)
        # 4-byte line starts (half of "q"); 8-byte only for texts near 4 GB
        code = "I" if len(text) < 1 << 30 else "q"
        self._starts_cp = array(code, [0])
        self._starts_byte = array(code, [0])
        self._scanned = 0
        # how many lone ``\r`` (not followed by ``\n``) the text holds: kept
        # up to date per edit in O(edit), so ``point_at`` never scans the file
        self._lone_cr = _lone_crs(text, 0, len(text)) if "\r" in text else 0
        # whether the text may hold a \r (set by any change bringing one)
        self._cr = "\r" in text

    @property
    def text(self) -> str:
        if self._win is not None:
            self._flush()
        return self._text

    @property
    def source_bytes(self) -> bytes:
        """The text as UTF-8, kept in step with every change (for tree-sitter)."""
        return self._bytes

    def __len__(self) -> int:
        return self._len

    # -- pending window ------------------------------------------------------
    #
    # While typing, the ``str`` is not rebuilt per change. Instead one
    # *window* is pending: whole lines ``[_ws, _we)`` of the last materialised
    # text ``_text`` (the *base*) are replaced by ``_win``; the current text is
    # ``_text[:_ws] + _win + _text[_we:]``. Invariants: ``_ws`` and
    # ``_ws + len(_win)`` are line boundaries of the current text (``_win``
    # ends with a terminator it never loses, or reaches the end of the text);
    # the line index holds exact starts up to line ``_wline`` (at ``_ws``,
    # byte ``_wbyte``) and nothing past it. Queries inside the prefix or the
    # window are answered locally; any other read materialises (``_flush``).
    # ``_bytes`` is always current (one buffer copy per change).

    def _flush(self) -> None:
        base, win = self._text, self._win
        assert win is not None
        self._text = "".join((base[: self._ws], win, base[self._we :]))
        self._win = None

    def _win_line(self, k: int) -> tuple[int, int] | None:
        """``(start, end)`` (window-relative, end before the terminator) of the
        window's ``k``-th line, or None when that line is not in the window."""
        win = self._win
        assert win is not None
        start = 0
        for match in _LINE_BREAK.finditer(win):
            if k == 0:
                return start, match.start()
            k -= 1
            start = match.end()
        if k == 0 and self._we == len(self._text):  # last line of the text
            return start, len(win)
        return None

    def _win_line_of(self, rel: int) -> tuple[int, int]:
        """``(line, start_rel)`` of a window-relative offset ``0 <= rel <= len(win)``."""
        line, start = self._wline, 0
        assert self._win is not None
        for match in _LINE_BREAK.finditer(self._win):
            if match.end() > rel:
                break
            line += 1
            start = match.end()
        return line, start

    def _in_window(self, cp: int) -> bool:
        assert self._win is not None
        return self._ws <= cp <= self._ws + len(self._win)

    # -- line index --------------------------------------------------------
    #
    # ``_starts_cp`` / ``_starts_byte`` hold exactly the line starts at or
    # before ``_scanned``: the text up to there has been scanned for line
    # breaks, the rest not yet. ``_scanned`` never sits between a ``\r`` and
    # its ``\n``. An edit keeps what lies before it; scanning resumes at
    # ``_scanned`` and goes only as far as a request needs, in bulk (the C
    # regex engine collecting matches into a list, not one Python call per
    # line). The breaks of the ``str`` and of its UTF-8 bytes correspond one
    # to one (UTF-8 never encodes ``\r`` or ``\n`` inside another character),
    # so byte starts come from the same count of matches over the bytes.

    def _scan_until(
        self, line: int | None = None, cp_offset: int | None = None, byte_offset: int | None = None
    ) -> None:
        """Extend the known line starts so that ``line`` exists, or every start
        at or before ``cp_offset`` / ``byte_offset`` is known; with no target,
        to the end of the text. Scans go a little past their target, so a
        run of queries moving forward costs a few scans, not one per query."""
        if self._win is not None:
            self._flush()
        text = self._text
        size = len(text)
        scanned = self._scanned
        if scanned >= size:
            return
        starts_cp, starts_byte = self._starts_cp, self._starts_byte
        ascii_text = text.isascii()
        cr = self._cr
        if byte_offset is not None and ascii_text:
            cp_offset, byte_offset = byte_offset, None
        if byte_offset is not None:
            if starts_byte[-1] > byte_offset:
                return
            source, from_b = self._bytes, starts_byte[-1]
            end_b = _break_safe_end(source, byte_offset + max(_SCAN_AHEAD, byte_offset - from_b))
            found_b = _breaks(source, from_b, end_b, None, cr)
            # as many breaks in the text; a code point is at least a byte
            found = _breaks(text, scanned, min(size, scanned + end_b - from_b + 1), len(found_b), cr)
            if end_b >= len(source):
                scanned = size
            elif found:
                scanned = max(scanned, found[-1])
        else:
            if line is not None:
                need = line + 1 - len(starts_cp)
                if need <= 0:
                    return
                need += _SCAN_AHEAD_LINES
                found = _breaks(text, scanned, size, need, cr)
                end = found[-1] if len(found) == need else size
            elif cp_offset is not None:
                if cp_offset <= scanned:
                    return
                end = _break_safe_end(text, cp_offset + max(_SCAN_AHEAD, cp_offset - scanned))
                found = _breaks(text, scanned, end, None, cr)
            else:
                end = size
                found = _breaks(text, scanned, size, None, cr)
            if ascii_text:
                found_b = found
            else:
                found_b = _breaks(self._bytes, starts_byte[-1], len(self._bytes), len(found), cr)
            scanned = end
        starts_cp.extend(found)
        starts_byte.extend(found_b)
        self._scanned = scanned

    def _record_break(self, match: re.Match[str]) -> None:
        """Record a break found by searching from ``_scanned``: the next line start."""
        text = self._text
        end = match.end()
        prev_cp, prev_byte = self._starts_cp[-1], self._starts_byte[-1]
        self._starts_cp.append(end)
        self._starts_byte.append(prev_byte + (end - prev_cp if text.isascii() else utf8_len(text[prev_cp:end])))
        self._scanned = end

    def _next_line_end(self, line: int) -> tuple[int, int]:
        """``(end, end_with_break)`` of ``line``, a known line (materialised text)."""
        starts = self._starts_cp
        text = self._text
        if line + 1 < len(starts):
            nxt = starts[line + 1]
            if nxt - 2 >= starts[line] and text[nxt - 2 : nxt] == "\r\n":
                return nxt - 2, nxt
            return nxt - 1, nxt
        # the last known line: it ends at the first break after ``_scanned``
        match = _LINE_BREAK.search(text, self._scanned)
        if match is None:
            self._scanned = len(text)
            return len(text), len(text)
        self._record_break(match)
        return match.start(), match.end()

    def _truncate_index(self, cp_offset: int) -> None:
        """Forget line starts at or after ``cp_offset``: an edit begins there."""
        keep = bisect_right(self._starts_cp, cp_offset - 1)
        keep = max(keep, 1)
        if keep < len(self._starts_cp):
            del self._starts_cp[keep:]
            del self._starts_byte[keep:]
        scanned = max(self._starts_cp[-1], min(self._scanned, cp_offset - 1))
        if scanned > self._starts_cp[-1] and self._text[scanned - 1] == "\r":
            scanned -= 1  # never between a \r and the \n that may follow it
        self._scanned = scanned

    @property
    def line_count(self) -> int:
        if self._win is not None:
            self._flush()
        self._scan_until()
        return len(self._starts_cp)

    def line_of(self, cp_offset: int) -> int:
        """The line holding ``cp_offset`` (clamped to the text)."""
        if self._win is not None:
            self._flush()
        cp_offset = min(max(cp_offset, 0), len(self._text))
        self._scan_until(cp_offset=cp_offset)
        return bisect_right(self._starts_cp, cp_offset) - 1

    def line_start(self, line: int) -> int:
        """Code-point offset of the start of ``line`` (``line`` must exist)."""
        if self._win is not None:
            self._flush()
        self._scan_until(line=line)
        return self._starts_cp[line]

    def line_end(self, line: int, *, with_break: bool = False) -> int:
        """Code-point offset of the end of ``line``, before its terminator unless asked."""
        self.line_start(line)
        end, end_with_break = self._next_line_end(line)
        return end_with_break if with_break else end

    def line_text(self, line: int) -> str:
        """The text of ``line`` without its terminator."""
        if self._win is not None:
            self._flush()
        return self._text[self.line_start(line) : self.line_end(line)]

    # -- conversions -------------------------------------------------------

    def offset_at(self, position: Position, encoding: PositionEncoding) -> int:
        """Code-point offset of an encoded position, clamped and snapped (LSP rules).

        Reads the line only up to the column: a position on a very long line
        costs what lies before the column, not the whole line."""
        line = position.line
        if line < 0:
            return 0
        character = position.character
        if self._win is not None:
            if line < self._wline:  # wholly in the unchanged prefix
                start = self._starts_cp[line]
                end = self._next_line_end(line)[0]
                return start + cp_col_from(self._text[start:end], character, encoding)
            bounds = self._win_line(line - self._wline)
            if bounds is not None:
                start, end = bounds
                return self._ws + start + cp_col_from(self._win[start:end], character, encoding)
            self._flush()
        self._scan_until(line=line)
        starts = self._starts_cp
        text = self._text
        if line >= len(starts):
            return len(text)
        start = starts[line]
        if character <= 0:
            return start
        if line + 1 < len(starts):
            end = self._next_line_end(line)[0]
        else:
            # the last known line: a column is at most ``character`` code
            # points in, so look for its end no further than that
            limit = min(start + character, len(text))
            match = _LINE_BREAK.search(text, self._scanned, limit) if self._scanned < limit else None
            if match is not None:
                end = match.start()
            else:
                end = limit
                if self._scanned < limit and text[limit - 1] != "\r":
                    self._scanned = limit  # no break up to there: nothing to rescan
        if encoding is PositionEncoding.UTF32 or text.isascii():
            return start + min(character, end - start)
        return start + cp_col_from(text[start:end], character, encoding)

    def position_at(self, cp_offset: int, encoding: PositionEncoding) -> Position:
        """Encoded position of a code-point offset (inside a ``\\r\\n``: the line end)."""
        if self._win is not None:
            self._flush()
        text = self._text
        cp_offset = min(max(cp_offset, 0), len(text))
        line = self.line_of(cp_offset)
        start = self._starts_cp[line]
        if cp_offset > start and text[cp_offset - 1] == "\r" and text[cp_offset : cp_offset + 1] == "\n":
            cp_offset -= 1
        return Position(line, col_from_cp(text[start:cp_offset], cp_offset - start, encoding))

    def byte_offset_at(self, cp_offset: int) -> int:
        """UTF-8 byte offset of a code-point offset."""
        if self._win is not None:
            if self._text.isascii() and self._win.isascii():
                return min(max(cp_offset, 0), self._len)
            cp_offset = min(max(cp_offset, 0), self._len)
            if cp_offset <= self._ws:
                line = bisect_right(self._starts_cp, cp_offset) - 1
                start = self._starts_cp[line]
                return self._starts_byte[line] + utf8_len(self._text[start:cp_offset])
            if self._in_window(cp_offset):
                return self._wbyte + utf8_len(self._win[: cp_offset - self._ws])
            self._flush()
        if self._text.isascii():
            return min(max(cp_offset, 0), len(self._text))
        line = self.line_of(cp_offset)
        start = self._starts_cp[line]
        return self._starts_byte[line] + utf8_len(self._text[start:cp_offset])

    def byte_offsets_at(self, cp_offsets: Sequence[int]) -> list[int]:
        """:meth:`byte_offset_at` of many offsets at once: ascending offsets in
        one walk (each gap encoded once, from the nearest known line start;
        the line index is not extended), others one at a time."""
        if self._win is not None or any(a > b for a, b in zip(cp_offsets, cp_offsets[1:], strict=False)):
            return [self.byte_offset_at(cp) for cp in cp_offsets]
        text = self._text
        size = len(text)
        if text.isascii():
            return [min(max(cp, 0), size) for cp in cp_offsets]
        return _walk_ascending(
            [min(max(cp, 0), size) for cp in cp_offsets],
            self._starts_cp,
            self._starts_byte,
            lambda a, b: utf8_len(text[a:b]),
        )

    def cp_offset_at_byte(self, byte_offset: int) -> int:
        """Code-point offset of a UTF-8 byte offset (snapped to a character start)."""
        if self._win is not None:
            self._flush()
        if self._text.isascii():
            return min(max(byte_offset, 0), len(self._text))
        byte_offset = _char_start(self._bytes, min(max(byte_offset, 0), len(self._bytes)))
        self._scan_until(byte_offset=byte_offset)
        line = bisect_right(self._starts_byte, byte_offset) - 1
        return self._starts_cp[line] + _cps_between(self._bytes, self._starts_byte[line], byte_offset)

    def cp_offsets_at_bytes(self, byte_offsets: Sequence[int]) -> list[int]:
        """:meth:`cp_offset_at_byte` of many offsets at once: ascending
        offsets in one walk (each gap decoded once, from the nearest known
        line start; the line index is not extended), others with one index
        scan."""
        if self._win is not None:
            self._flush()
        size = len(self._bytes)
        if self._text.isascii():
            return [min(max(b, 0), size) for b in byte_offsets]
        if not byte_offsets:
            return []
        if all(a <= b for a, b in zip(byte_offsets, byte_offsets[1:], strict=False)):
            return self._cp_offsets_ascending(byte_offsets)
        self._scan_until(byte_offset=min(max(max(byte_offsets), 0), size))
        starts_cp, starts_byte, source = self._starts_cp, self._starts_byte, self._bytes
        out = []
        for b in byte_offsets:
            b = _char_start(source, min(max(b, 0), size))
            line = bisect_right(starts_byte, b) - 1
            out.append(starts_cp[line] + _cps_between(source, starts_byte[line], b))
        return out

    def _cp_offsets_ascending(self, byte_offsets: Sequence[int]) -> list[int]:
        """:meth:`cp_offsets_at_bytes` of ascending offsets: each offset,
        snapped back to the start of its character, is the previous one's
        code points plus those of the bytes between (or a known line start's
        plus those since, when one lies between)."""
        source, size = self._bytes, len(self._bytes)
        return _walk_ascending(
            [_char_start(source, min(max(b, 0), size)) for b in byte_offsets],
            self._starts_byte,
            self._starts_cp,
            lambda a, b: _cps_between(source, a, b),
        )

    def point_at(self, cp_offset: int) -> tuple[int, int]:
        """tree-sitter point ``(row, byte_column)`` of a code-point offset."""
        if self._win is not None and not self._lone_cr:
            cp_offset = min(max(cp_offset, 0), self._len)
            if cp_offset <= self._ws:
                line = bisect_right(self._starts_cp, cp_offset) - 1
                return line, self.byte_offset_at(cp_offset) - self._starts_byte[line]
            if self._in_window(cp_offset):
                line, start = self._win_line_of(cp_offset - self._ws)
                col = utf8_len(self._win[start : cp_offset - self._ws])
                return line, col
            self._flush()
        byte_offset = self.byte_offset_at(cp_offset)
        if self._lone_cr:
            # tree-sitter rows count only \n; LSP lines also break at a lone \r
            row = self._bytes.count(b"\n", 0, byte_offset)
            line_start = self._bytes.rfind(b"\n", 0, byte_offset) + 1
            return row, byte_offset - line_start
        line = self.line_of(cp_offset)
        return line, byte_offset - self._starts_byte[line]

    def range_offsets(self, range_: Range, encoding: PositionEncoding) -> tuple[int, int]:
        """Code-point ``(start, end)`` of an encoded range; a reversed range is ordered."""
        start = self.offset_at(range_.start, encoding)
        end = self.offset_at(range_.end, encoding)
        return (start, end) if start <= end else (end, start)

    # -- changes -----------------------------------------------------------

    def apply_changes(
        self, changes: Iterable[TextChange], version: int, encoding: PositionEncoding
    ) -> list[AppliedEdit]:
        """Apply changes in order, each to the result of the previous one (LSP rules)."""
        applied = []
        for change in changes:
            if change.range is None:
                start, end = 0, self._len
            else:
                start, end = self.range_offsets(change.range, encoding)
            applied.append(self.replace(start, end, change.text))
        self.version = version
        return applied

    def replace(self, start_cp: int, end_cp: int, new_text: str) -> AppliedEdit:
        """Replace ``text[start_cp:end_cp]`` with ``new_text``; the one place text changes."""
        start_cp = min(max(start_cp, 0), self._len)
        end_cp = min(max(end_cp, start_cp), self._len)
        if self._win is not None and not self._window_takes(start_cp, end_cp):
            self._flush()
        if self._win is not None or self._open_window(start_cp, end_cp):
            applied = self._replace_in_window(start_cp, end_cp, new_text)
        else:
            applied = self._replace_materialised(start_cp, end_cp, new_text)
        self._logged(start_cp, self._len - (start_cp + len(new_text)))
        return applied

    def _logged(self, start_cp: int, after_cp: int) -> None:
        """One more change: it kept the text before ``start_cp`` and the last ``after_cp`` characters."""
        self._serial += 1
        self._log = (*self._log[1 - _LOG :], (self._serial, start_cp, after_cp))

    @property
    def lineage(self) -> object:
        """Who this document is: the same object for its snapshots, another one
        for a document opened anew (its :meth:`serial` starts again)."""
        return self._lineage

    @property
    def serial(self) -> int:
        """How many changes this document took since it was opened."""
        return self._serial

    def shared_since(self, lineage: object, serial: int) -> tuple[int, int] | None:
        """``(prefix, suffix)``: how many characters at its start and, not
        overlapping them, at its end the text had in common with this one when
        this document (``lineage``) had taken ``serial`` changes — read off the
        log of changes since, not the texts (O(changes), not O(text)); None
        when that is another document, or further back than the log reaches."""
        if lineage is not self._lineage or serial > self._serial:
            return None
        if serial == self._serial:
            return self._len, 0
        log = self._log
        if not log or log[0][0] > serial + 1:
            return None
        since = [(start, after) for n, start, after in log if n > serial]
        return min(start for start, _ in since), min(after for _, after in since)

    def _window_takes(self, start_cp: int, end_cp: int) -> bool:
        """Whether the pending window can absorb a change of ``[start_cp, end_cp)``
        keeping its invariants (its first character and its final terminator stay)."""
        ws = self._ws
        win_end = ws + len(self._win)  # type: ignore[arg-type]
        if start_cp < ws:
            return False
        if end_cp >= win_end and not (end_cp == win_end and self._we == len(self._text)):
            return False
        return not (start_cp == ws and ws > 0 and self._text[ws - 1] != "\n")

    def _open_window(self, start_cp: int, end_cp: int) -> bool:
        """Open a pending window on the whole lines holding ``[start_cp, end_cp]``."""
        text = self._text
        first = self.line_of(start_cp)
        ws = self._starts_cp[first]
        if end_cp - ws > _WINDOW_MAX:
            return False
        last = self.line_of(end_cp)
        if last + 1 < len(self._starts_cp):
            we = self._starts_cp[last + 1]
        else:
            # look for the line's end only as far as a window may reach (a
            # very long line is never windowed: no scan to its end)
            limit = ws + _WINDOW_MAX + 1
            match = _LINE_BREAK.search(text, self._scanned, _break_safe_end(text, limit))
            if match is not None:
                self._record_break(match)
                we = match.end()
            elif limit >= len(text):
                we = len(text)
            else:
                return False
        if we - ws > _WINDOW_MAX or not (end_cp < we or we == len(text)):
            return False
        if start_cp == ws and ws > 0 and text[ws - 1] != "\n":
            return False
        self._truncate_index(ws + 1)  # keep the line starts up to ``ws``
        self._ws, self._we, self._wline, self._wbyte = ws, we, first, self._starts_byte[first]
        self._win = text[ws:we]
        return True

    def _replace_in_window(self, start_cp: int, end_cp: int, new_text: str) -> AppliedEdit:
        base, win, ws, we = self._text, self._win, self._ws, self._we
        assert win is not None
        start_byte = self.byte_offset_at(start_cp)
        old_end_byte = self.byte_offset_at(end_cp)
        start_point = self.point_at(start_cp)
        old_end_point = self.point_at(end_cp)
        new_bytes = utf8(new_text)
        rs, re_ = start_cp - ws, end_cp - ws
        old_text = win[rs:re_]
        new_win = win[:rs] + new_text + win[re_:]
        # lone \r bookkeeping as in ``_replace_materialised``, on the window
        # plus one character either side of it
        pre = base[ws - 1 : ws] if ws else ""
        post = base[we : we + 1]
        off = ws - len(pre)
        ctx = pre + win + post
        lo = max(start_cp - 1, 0) - off
        if "\r" in new_text or "\r" in ctx[lo : end_cp - off]:
            lone_before = _lone_crs(ctx, lo, end_cp - off)
        else:
            lone_before = 0
        if lone_before or "\r" in new_text or (start_cp and ctx[start_cp - 1 - off] == "\r"):
            after = pre + new_win + post
            self._lone_cr += _lone_crs(after, lo, start_cp + len(new_text) - off) - lone_before
        self._win = new_win
        self._cr = self._cr or "\r" in new_text
        self._len += len(new_text) - (end_cp - start_cp)
        with memoryview(self._bytes) as view:
            self._bytes = b"".join((view[:start_byte], new_bytes, view[old_end_byte:]))
        if len(new_win) > _WINDOW_MAX:
            self._flush()
        return _applied_edit(
            start_cp, end_cp, start_byte, old_end_byte, start_point, old_end_point, old_text, new_text, new_bytes
        )

    def _replace_materialised(self, start_cp: int, end_cp: int, new_text: str) -> AppliedEdit:
        text = self._text
        start_byte = self.byte_offset_at(start_cp)
        old_end_byte = self.byte_offset_at(end_cp)
        start_point = self.point_at(start_cp)
        old_end_point = self.point_at(end_cp)
        new_bytes = utf8(new_text)
        old_text = text[start_cp:end_cp]
        # lone \r whose status the edit can change: in [start-1, end) before,
        # in [start-1, start+len(new)) after (a \r at ``end`` keeps its follower)
        lo = max(start_cp - 1, 0)
        if "\r" in new_text or "\r" in text[lo:end_cp]:
            lone_before = _lone_crs(text, lo, end_cp)
        else:
            lone_before = 0

        self._text = text[:start_cp] + new_text + text[end_cp:]
        self._cr = self._cr or "\r" in new_text
        if lone_before or "\r" in new_text or (start_cp and text[start_cp - 1] == "\r"):
            self._lone_cr += _lone_crs(self._text, lo, start_cp + len(new_text)) - lone_before
        self._bytes = self._bytes[:start_byte] + new_bytes + self._bytes[old_end_byte:]
        self._len = len(self._text)
        self._truncate_index(start_cp)
        return _applied_edit(
            start_cp, end_cp, start_byte, old_end_byte, start_point, old_end_point, old_text, new_text, new_bytes
        )

    def set_text(self, text: str, version: int) -> None:
        """Replace everything (didOpen of an already open document)."""
        self._set_text(text)
        self._logged(0, 0)
        self.version = version

    # -- snapshots -----------------------------------------------------------
    #
    # A suggestion is computed on another thread while this document keeps
    # taking changes. The snapshot shares everything immutable (the ``str``,
    # the UTF-8 ``bytes``, a pending window's text) and copies only the line
    # index (4 bytes per line found so far, at C speed); reading it never
    # touches this document. ``adopt`` hands back what the reader worked out
    # (the materialised text, a longer line index) when nothing changed since.

    def snapshot(self) -> Document:
        """This version, frozen, for a reader on another thread (it refuses changes)."""
        snap = TextSnapshot.__new__(TextSnapshot)
        for name in Document.__slots__:
            try:
                setattr(snap, name, getattr(self, name))
            except AttributeError:  # the window's bounds exist only once one was opened
                pass
        snap._starts_cp = self._starts_cp[:]
        snap._starts_byte = self._starts_byte[:]
        return snap

    def adopt(self, snapshot: Document) -> bool:
        """Take the materialised text and longer line index a reader of
        ``snapshot`` (taken from this document) worked out, if this document
        has not changed since; ``snapshot`` must not be read afterwards."""
        if snapshot._bytes is not self._bytes or snapshot.version != self.version or snapshot._win is not None:
            return False
        longer = len(snapshot._starts_cp) > len(self._starts_cp) or snapshot._scanned > self._scanned
        if self._win is None and not longer:
            return False
        self._text, self._win = snapshot._text, None
        self._starts_cp, self._starts_byte, self._scanned = (
            snapshot._starts_cp,
            snapshot._starts_byte,
            snapshot._scanned,
        )
        return True


class TextSnapshot(Document):
    """A :class:`Document`'s text frozen at one version (:meth:`Document.snapshot`): it refuses changes."""

    __slots__ = ()

    def apply_changes(
        self, changes: Iterable[TextChange], version: int, encoding: PositionEncoding
    ) -> list[AppliedEdit]:
        raise TypeError("a document snapshot does not change")

    def replace(self, start_cp: int, end_cp: int, new_text: str) -> AppliedEdit:
        raise TypeError("a document snapshot does not change")

    def set_text(self, text: str, version: int) -> None:
        raise TypeError("a document snapshot does not change")


def _applied_edit(
    start_cp: int,
    end_cp: int,
    start_byte: int,
    old_end_byte: int,
    start_point: tuple[int, int],
    old_end_point: tuple[int, int],
    old_text: str,
    new_text: str,
    new_bytes: bytes,
) -> AppliedEdit:
    """The record of one replacement; the ``new_*`` ends follow from the inserted text."""
    return AppliedEdit(
        start_cp=start_cp,
        old_end_cp=end_cp,
        new_end_cp=start_cp + len(new_text),
        start_byte=start_byte,
        old_end_byte=old_end_byte,
        new_end_byte=start_byte + len(new_bytes),
        start_point=start_point,
        old_end_point=old_end_point,
        new_end_point=_advance_point(start_point, new_bytes),
        old_text=old_text,
        new_text=new_text,
    )


def _walk_ascending(
    targets: Sequence[int], keys: Sequence[int], values: Sequence[int], between: Callable[[int, int], int]
) -> list[int]:
    """Each of the ascending ``targets`` (offsets in one unit) in the other
    unit, in one walk: the previous target's value plus ``between`` the two
    (or, when a known line start lies between, that line's value plus the
    rest). ``keys`` / ``values``: the line index in the two units (line
    starts up to ``keys[-1]`` are indexed; the index is not extended)."""
    known = keys[-1]
    out: list[int] = []
    at_key, at_value = 0, 0
    for target in targets:
        if target > at_key and at_key < known:
            line = bisect_right(keys, target) - 1
            if keys[line] > at_key:
                at_key, at_value = keys[line], values[line]
        if target > at_key:
            at_value += between(at_key, target)
            at_key = target
        out.append(at_value)
    return out


def _char_start(source: bytes, b: int) -> int:
    """``b``, or the start of the character holding it (past UTF-8 continuation bytes)."""
    while 0 < b < len(source) and 0x80 <= source[b] < 0xC0:
        b -= 1
    return b


def _cps_between(source: bytes, start: int, end: int) -> int:
    """Code points in ``source[start:end]``, both character starts (a lone
    surrogate, which :func:`~nextedit.text.encoding.utf8` passes through, is one)."""
    return len(source[start:end].decode("utf-8", "surrogatepass"))


def _advance_point(point: tuple[int, int], inserted: bytes) -> tuple[int, int]:
    newlines = inserted.count(b"\n")
    if not newlines:
        return point[0], point[1] + len(inserted)
    return point[0] + newlines, len(inserted) - inserted.rfind(b"\n") - 1


def _breaks(seq: str | bytes, start: int, end: int, limit: int | None, cr: bool) -> list[int]:
    """Ends of the first ``limit`` (all: ``None``) line breaks in
    ``seq[start:end]``, as offsets into ``seq`` (``end`` must not cut a
    ``\\r\\n``). Without ``\\r`` the C ``split`` and running sums do it, else
    the regex engine."""
    if cr or (limit is not None and limit <= _SCAN_AHEAD_LINES * 2):
        if isinstance(seq, str):
            matches: Iterator[re.Match[str] | re.Match[bytes]] = (_LINE_BREAK if cr else _NEWLINE).finditer(
                seq, start, end
            )
        else:
            matches = (_LINE_BREAK_BYTES if cr else _NEWLINE_BYTES).finditer(seq, start, end)
        return [m.end() for m in (islice(matches, limit) if limit is not None else matches)]
    if isinstance(seq, str):
        parts: list[str] | list[bytes] = seq[start:end].split("\n", -1 if limit is None else limit)
    else:
        parts = seq[start:end].split(b"\n", -1 if limit is None else limit)
    # the i-th break ends after i + 1 separators and the parts before it
    count = len(parts) - 1
    return list(map(add, accumulate(map(len, parts[:count])), range(start + 1, start + 1 + count)))


def _break_safe_end(text: str | bytes, end: int) -> int:
    """``end``, moved past a ``\r`` it would cut from its ``\n`` (a bounded
    scan must not see half of a ``\r\n``)."""
    cr = "\r" if isinstance(text, str) else 13
    while 0 < end < len(text) and text[end - 1] == cr:
        end += 1
    return min(end, len(text))


def _lone_crs(text: str, start: int, end: int) -> int:
    """How many ``\r`` in ``text[start:end]`` are not followed by ``\n`` (looking past ``end``)."""
    count = 0
    pos = text.find("\r", start, end)
    while pos != -1:
        if text[pos + 1 : pos + 2] != "\n":
            count += 1
        pos = text.find("\r", pos + 1, end)
    return count


def split_lines(text: str) -> Sequence[str]:
    """Lines of ``text`` without terminators, by LSP rules (a trailing break ends an empty line)."""
    return _LINE_BREAK.split(text)
