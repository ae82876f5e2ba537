"""Position encodings and the column arithmetic within one line.

This module owns the only code in nextedit that counts UTF-8 bytes, UTF-16
code units or code points inside a line. Everything else works in code-point
offsets (Python ``str`` indices, named ``cp_*``) or UTF-8 byte offsets
(``byte_*``, for tree-sitter) and asks this module to convert.

Worked example, the line ``a😀b`` (the emoji is one code point, two UTF-16
units, four UTF-8 bytes):

=========  =======  ========  =======
cp column  utf-32   utf-16    utf-8
=========  =======  ========  =======
0 (a)      0        0         0
1 (😀)     1        1         1
2 (b)      2        3         5
3 (end)    3        4         6
=========  =======  ========  =======

A UTF-16 column of 2 falls inside the surrogate pair and snaps back to the
emoji's start (cp 1); UTF-8 columns 2, 3 and 4 do the same. A column past the
end of the line clamps to the line's end.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "PositionEncoding",
    "choose_encoding",
    "cp_col_from",
    "col_from_cp",
    "utf8",
    "utf8_len",
]


class PositionEncoding(StrEnum):
    """How a ``Position.character`` counts: the LSP/ACP position encodings."""

    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"


def choose_encoding(client_encodings: list[str] | None) -> PositionEncoding:
    """The first client encoding we support; UTF-16 when the list is absent or empty."""
    for name in client_encodings or ():
        try:
            return PositionEncoding(name)
        except ValueError:
            continue
    return PositionEncoding.UTF16


def utf8(text: str) -> bytes:
    """UTF-8 bytes of ``text``; lone surrogates (possible in JSON) pass through as 3 bytes."""
    return text.encode("utf-8", "surrogatepass")


def utf8_len(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(utf8(text))


def _units(ch: str, encoding: PositionEncoding) -> int:
    code = ord(ch)
    if encoding is PositionEncoding.UTF16:
        return 2 if code > 0xFFFF else 1
    # UTF-8
    if code < 0x80:
        return 1
    if code < 0x800:
        return 2
    if code < 0x10000:
        return 3
    return 4


def cp_col_from(line: str, character: int, encoding: PositionEncoding) -> int:
    """Code-point column in ``line`` (terminator excluded) for an encoded column.

    Clamps past the end; a column inside a multi-unit character snaps to the
    character's start.
    """
    if character <= 0:
        return 0
    if encoding is PositionEncoding.UTF32 or line.isascii():
        return min(character, len(line))
    units = 0
    for cp_col, ch in enumerate(line):
        units += _units(ch, encoding)
        if units > character:
            return cp_col
    return len(line)


def col_from_cp(line: str, cp_col: int, encoding: PositionEncoding) -> int:
    """Encoded column for a code-point column of ``line``."""
    head = line[:cp_col]
    if encoding is PositionEncoding.UTF32 or head.isascii():
        return len(head)
    if encoding is PositionEncoding.UTF16:
        return len(head) + sum(1 for ch in head if ord(ch) > 0xFFFF)
    return utf8_len(head)
