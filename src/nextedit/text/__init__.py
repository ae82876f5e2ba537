"""Documents and positions: the only room that converts position encodings."""

from nextedit.text.affixes import common_affixes
from nextedit.text.document import AppliedEdit, Document, Position, Range, TextChange, split_lines
from nextedit.text.encoding import PositionEncoding, choose_encoding, utf8, utf8_len

__all__ = [
    "AppliedEdit",
    "Document",
    "Position",
    "PositionEncoding",
    "Range",
    "TextChange",
    "choose_encoding",
    "common_affixes",
    "split_lines",
    "utf8",
    "utf8_len",
]
