"""What tree-sitter reads of a C or C++ text: attribute-like macros blanked.

Real C and C++ put macros where the grammar expects a declaration:
``FMT_CONSTEXPR inline void f()``, ``static JV_ALWAYS_INLINE int g()``,
``class FMT_API format_error``, ``FMT_BEGIN_NAMESPACE`` alone on a line.
tree-sitter has no preprocessor: it takes the macro for a type or a
declarator, fails on what follows, and recovers with an ``ERROR``. fmt's
``format.h`` has 163 of them and parses as one 161 KB ``ERROR`` node; nodes
built during error recovery are *fragile* (never reused), so its incremental
re-parse costs ~40% of a full parse even with no edit at all (11.6 ms), and
the enclosing function, class or scope read around an edit is wrong.

This module blanks such macros — replaces each byte with a space — in the
text handed to tree-sitter, never in the document. Blanking keeps every
byte offset and every row and column, so the tree describes the document's
text at the same coordinates; the macro's bytes just read as whitespace.

A macro is a name written in capitals, digits and underscores with at least
two capitals (``FMT_API``, ``EXPORT``; never ``T``). It is blanked when it
stands where a declaration begins and a declaration follows it:

- before it on its line come only specifiers (``static``, ``inline``,
  ``constexpr``…), blanked macros, a ``template <…>`` header, or the
  ``class``/``struct``/``union`` it qualifies; and
- after it comes a blanked macro, a keyword that starts or continues a
  declaration (``void``, ``inline``, ``explicit``, ``~``…), a type and a
  name (``FMT_API std::string f``, ``EXPORT Type *p``), or — after
  ``class``/``struct``/``union`` — the class's name; or it stands alone on
  its line right after a line that ends a statement or a block (``;``,
  ``{``, ``}``), a directive, a comment, another lone macro or a blank line.

Not blanked: preprocessor lines and their continuations, names in
expressions (after ``(``, ``=``, ``,``, ``return``…), a type followed by its
variable (``DWORD n;``, ``BOOL *p``), an enumerator alone on its line after
``A,``, function-like macros (``FMT_ENABLE_IF(…)``).

**Locality.** Whether a macro on a line is blanked depends on that line and
on the line before it only (a continuation ``\\`` or the alone rule), so an
edit changes what tree-sitter reads on the edited lines and the line after
them, nowhere else: :func:`reblank` re-blanks just those lines and tells
the span, which :class:`~nextedit.syntax.tree.SyntaxTree` marks as edited
for tree-sitter (``Tree.edit`` with no change in length).

**No copy of the text.** A text's blanking is its list of blanked spans
(:func:`blanked`), not a second text: tree-sitter reads the document's own
bytes through a callback that turns those spans to spaces
(:func:`read_blanked`). Figures: ``benchmarks/results/attribute-macros.md``.

Must not know about documents, sessions or position encodings: UTF-8 bytes in
and out.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from typing import NamedTuple

__all__ = [
    "BLANKED_LANGUAGES",
    "MAX_SPANS",
    "Blank",
    "Region",
    "Span",
    "add_edit",
    "blank_text",
    "blanked",
    "read_blanked",
    "reblank",
]

# grammars whose texts are read with their attribute-like macros blanked
BLANKED_LANGUAGES = frozenset({"c", "cpp"})
# ``(start, end)``: the bytes of one macro that tree-sitter reads as spaces
Blank = tuple[int, int]

# a macro's spelling: capitals, digits, underscores, two capitals at least
_MACRO = re.compile(rb"_*[A-Z][A-Z0-9_]*[A-Z][A-Z0-9_]*")
# a line's tokens up to a comment: names, ``::``, any other character
_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|::|//|/\*|\S")
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")

# may stand before a blanked macro on its line
_SPECIFIERS = frozenset(
    b"static inline extern virtual explicit friend constexpr consteval constinit const volatile "
    b"typedef register thread_local mutable __inline __inline__ __forceinline".split()
)
_CLASS_KEYS = frozenset((b"class", b"struct", b"union"))
# after a macro: a declaration begins or goes on
_DECLARATION_WORDS = _SPECIFIERS | frozenset(
    b"void auto bool char short int long float double signed unsigned wchar_t char8_t char16_t "
    b"char32_t struct class union enum typename template operator".split()
)
# what a macro alone on its line may follow: the end of a statement or a block
_ENDS_BEFORE_ALONE = (b";", b"{", b"}")
# a line's first tokens looked at: a declaration's opening is never longer (a
# minified line of a megabyte is not cut into tokens)
_MAX_TOKENS = 64
_DIRECTIVE = re.compile(rb"[ \t]*#")
# a name that is no type (a macro before it is no attribute)
_NOT_A_TYPE = frozenset(b"return case goto sizeof new delete throw else do if while for switch final".split())
# the lines worth a look: after any indentation, a ``template <…>`` header and
# specifiers, a capitalised name not called (``FMT_ENABLE_IF(``). A superset
# of the lines with a macro to blank. The leading words are matched
# possessively (a long line costs one pass, never a backtrack per word), and
# the first letter is checked before any word is tried.
_OPENING_WORDS = sorted(_SPECIFIERS | _CLASS_KEYS)
_OPENING_BODY = (
    rb"[ \t]*+(?=[A-Z_"
    + b"".join(sorted({w[:1] for w in _OPENING_WORDS}))
    + rb"])(?:template[ \t]*<[^\n]*>[ \t]*)?(?:(?:"
    + b"|".join(_OPENING_WORDS)
    + rb")[ \t]+)*+[A-Z_][A-Z0-9_]*+(?![a-z(])(?![ \t]*\()"
)
# matched at a line start
_LINE_OPENING = re.compile(_OPENING_BODY)
# scanned for: a line break, then a line worth a look (the regex engine skips
# from one line break to the next at memchr speed: ~3 ns a byte)
_NEXT_OPENING = re.compile(rb"\n" + _OPENING_BODY)


def blanked(source: bytes, lo: int = 0, hi: int | None = None) -> list[Blank]:
    """The macros to blank on the lines starting in ``[lo, hi)`` of
    ``source`` (``lo`` at a line start, ``hi`` at one or at the end; the
    first line's previous line counts): their byte spans, in order."""
    hi = len(source) if hi is None else hi
    out: list[Blank] = []
    for start in _openings(source, lo, hi):
        end = source.find(b"\n", start, hi)
        out.extend(_blanked_on_line(source, start, hi if end < 0 else end))
    return out


def blank_text(source: bytes) -> bytes:
    """``source`` as tree-sitter reads it: its attribute-like macros blanked
    (the module docstring)."""
    return read_blanked(source, blanked(source), 0, len(source))


def read_blanked(source: bytes, blanks: Sequence[Blank], lo: int, hi: int) -> bytes:
    """``source[lo:hi]`` with ``blanks`` (sorted, apart) turned to spaces:
    what tree-sitter reads there. O(log of the blanks + the span read)."""
    chunk = source[lo:hi]
    first = bisect_right(blanks, (lo, lo))  # the first blank starting after ``lo`` …
    if first and blanks[first - 1][1] > lo:
        first -= 1  # … or the one holding it
    out: bytearray | None = None
    for start, end in itertools.islice(blanks, first, None):
        if start >= hi:
            break
        if out is None:
            out = bytearray(chunk)
        start, end = max(start, lo), min(end, hi)
        out[start - lo : end - lo] = b" " * (end - start)
    return chunk if out is None else bytes(out)


class Span(NamedTuple):
    """A span of the newest text that edits wrote since the last parse."""

    start: int
    end: int
    growth: int  # how many bytes longer the edits made the text there
    row: int  # the row ``start`` is on (tree-sitter's: ``\n`` counted)


class Region(NamedTuple):
    """Whole lines of the newest text to blank anew (and to mark edited)."""

    start: int
    end: int
    row: int  # the row of ``start``


# edits kept apart between two parses; past this many, one span covers them all
MAX_SPANS = 16


def add_edit(
    spans: tuple[Span, ...], start: int, old_end: int, new_end: int, row: int, rows_growth: int
) -> tuple[Span, ...]:
    """``spans`` (sorted, apart, in the coordinates of the text before the
    edit) after the edit of ``[start, old_end)`` into ``[start, new_end)``,
    which starts on ``row`` and adds ``rows_growth`` line breaks: the spans
    it touches merge with it, those after it move."""
    growth = new_end - old_end
    out: list[Span] = []
    merged = Span(start, new_end, growth, row)
    for span in spans:
        if span.end < start:
            out.append(span)
        elif span.start > old_end:
            out.append(Span(span.start + growth, span.end + growth, span.growth, span.row + rows_growth))
        else:
            first = span if span.start < merged.start else merged
            merged = Span(first.start, max(merged.end, span.end + growth), merged.growth + span.growth, first.row)
    out.append(merged)
    out.sort()
    if len(out) > MAX_SPANS:
        return (Span(out[0].start, max(span.end for span in out), sum(span.growth for span in out), out[0].row),)
    return tuple(out)


def _regions(source: bytes, spans: tuple[Span, ...]) -> list[Region]:
    """The lines each span touches and the line after them, merged: where
    blanking may differ beyond the edits themselves. O(the lines edited)."""
    out: list[Region] = []
    for span in spans:
        start = source.rfind(b"\n", 0, span.start) + 1
        # the line holding the first byte after the edit (what comes before it
        # on that line may have changed, even after a line break written), then
        # the line after it
        end = _line_end(source, _line_end(source, span.end))
        if out and start <= out[-1].end:
            out[-1] = out[-1]._replace(end=max(out[-1].end, end))
        else:
            out.append(Region(start, end, span.row))
    return out


def reblank(blanks: Sequence[Blank], source: bytes, spans: tuple[Span, ...]) -> tuple[tuple[Blank, ...], list[Region]]:
    """The blanks of ``source`` from ``blanks`` (those of the previous text)
    when edits since wrote ``spans`` of ``source``: ``(new blanks,
    regions)``. The :func:`_regions` are blanked anew; the blanks elsewhere
    are the previous ones, moved by the edits before them. O(the lines
    edited + the blanks after the first edit)."""
    found = _regions(source, spans)
    if not found:
        return tuple(blanks), found
    # before the first region nothing moved
    out: list[Blank] = list(blanks[: bisect_left(blanks, (found[0].start, found[0].start))])
    i = len(out)
    grown = 0
    j = 0  # the spans before it have grown the text by ``grown``
    for region in found:
        while i < len(blanks) and blanks[i][1] <= region.start - grown:  # between the regions: moved
            start, end = blanks[i]
            out.append((start + grown, end + grown))
            i += 1
        while j < len(spans) and spans[j].start <= region.end:
            grown += spans[j].growth
            j += 1
        while i < len(blanks) and blanks[i][0] < region.end - grown:  # in the region: blanked anew
            i += 1
        out.extend(blanked(source, region.start, region.end))
    out.extend((start + grown, end + grown) for start, end in itertools.islice(blanks, i, None))
    return tuple(out), found


def _line_end(source: bytes, at: int) -> int:
    """Offset just past the ``\\n`` ending the line that holds ``at`` (the text's end on its last line)."""
    found = source.find(b"\n", at)
    return len(source) if found < 0 else found + 1


def _openings(source: bytes, lo: int, hi: int) -> Iterator[int]:
    """The starts of the lines in ``[lo, hi)`` (``lo`` at a line start)
    worth a look (:data:`_LINE_OPENING`)."""
    if _LINE_OPENING.match(source, lo, hi):
        yield lo
    for match in _NEXT_OPENING.finditer(source, lo, hi):
        yield match.start() + 1


def _blanked_on_line(source: bytes, start: int, end: int) -> list[Blank]:
    """The byte spans of the macros to blank on the line ``source[start:end]``."""
    if _DIRECTIVE.match(source, start, end):
        return []  # a directive
    if _continues(source, start):
        return []  # a directive's (or a string's) continuation
    tokens: list[tuple[int, bytes]] = []
    for m in _TOKEN.finditer(source, start, end):
        word = m.group()
        if word in (b"//", b"/*") or len(tokens) == _MAX_TOKENS:
            break
        tokens.append((m.start(), word))
    chosen = _decide(tokens, source, start)
    return [(pos, pos + len(word)) for (pos, word), b in zip(tokens, chosen, strict=True) if b]


def _decide(tokens: list[tuple[int, bytes]], source: bytes, start: int) -> list[bool]:
    """Which of a line's tokens (the line starting at ``start``) are
    attribute-like macros to blank."""
    words = [word for _, word in tokens]
    chosen = [False] * len(words)
    lo, hi = _declaration_opening(words)
    # right to left: whether a macro is blanked may depend on the one after it
    for i in range(hi - 1, lo - 1, -1):
        if not _MACRO.fullmatch(words[i]):
            continue
        after = words[i + 1] if i + 1 < len(words) else None
        if after is None:
            chosen[i] = len(words) == 1 and _ends_a_statement(_previous_line(source, start))
        elif chosen[i + 1]:
            chosen[i] = True
        elif i > lo and words[i - 1] in _CLASS_KEYS:
            chosen[i] = _class_name_follows(words, i + 1)
        elif after in _DECLARATION_WORDS or after == b"~":
            chosen[i] = True
        else:
            chosen[i] = _type_then_name(words, i + 1)
    return chosen


def _declaration_opening(words: list[bytes]) -> tuple[int, int]:
    """``(lo, hi)``: the words of a line that may be macros opening a
    declaration — past a ``template <…>`` header, the run of specifiers,
    class keys and macro-like names (each macro's own test is
    :func:`_decide`'s)."""
    lo = 0
    if words[:2] == [b"template", b"<"]:
        depth = 0
        for lo in range(1, len(words)):
            if words[lo] == b"<":
                depth += 1
            elif words[lo] == b">":
                depth -= 1
                if depth == 0:
                    break
        else:
            return 0, 0  # the header goes on to the next line
        lo += 1
    hi = lo
    while hi < len(words) and (words[hi] in _SPECIFIERS or words[hi] in _CLASS_KEYS or _MACRO.fullmatch(words[hi])):
        hi += 1
    return lo, hi


def _class_name_follows(words: list[bytes], i: int) -> bool:
    """Whether ``words[i]`` names the class that ``class MACRO`` declares:
    a name, then its body, its bases or the line's end (``struct TAG var;``
    declares a variable: ``TAG`` is the tag)."""
    if i >= len(words) or _NAME.fullmatch(words[i]) is None or words[i] in _NOT_A_TYPE:
        return False
    return i + 1 == len(words) or words[i + 1] in (b"{", b":", b"final")


def _type_then_name(words: list[bytes], i: int) -> bool:
    """Whether ``words[i:]`` begin with a type and then a name (``std::string
    f``, ``Type *p``, ``Type name``): the macro before them is no type
    (``DWORD n;`` and ``BOOL *p`` keep theirs)."""
    if i >= len(words) or _NAME.fullmatch(words[i]) is None or words[i] in _NOT_A_TYPE:
        return False
    j = i + 1
    while j + 1 < len(words) and words[j] == b"::" and _NAME.fullmatch(words[j + 1]):
        j += 2
    if j >= len(words):
        return False
    follow = words[j]
    return follow in (b"*", b"&") or (_NAME.fullmatch(follow) is not None and follow not in _NOT_A_TYPE)


def _continues(source: bytes, start: int) -> bool:
    """Whether the line starting at ``start`` continues the one before it
    (which ends with a backslash, before its ``\\r\\n`` or ``\\n``)."""
    end = start - 1  # the line break before ``start``
    if end > 0 and source[end - 1] == 0x0D:
        end -= 1
    return end > 0 and source[end - 1] == 0x5C


def _previous_line(source: bytes, start: int) -> bytes | None:
    """The line before the one starting at ``start``; ``None`` on the first line."""
    if start == 0:
        return None
    return source[source.rfind(b"\n", 0, start - 1) + 1 : start - 1]


def _ends_a_statement(previous: bytes | None) -> bool:
    """Whether a macro alone on the line after ``previous`` stands between
    declarations: the text starts there, or ``previous`` is blank, a
    directive, a comment, another lone macro, or ends a statement or a block."""
    if previous is None:
        return True
    text = previous.strip()
    cut = text.find(b"//")
    if cut >= 0:
        text = text[:cut].rstrip()
    if not text or text.startswith((b"#", b"/*", b"*")) or text.endswith(b"*/") or _MACRO.fullmatch(text):
        return True  # (a lone macro too: ``FMT_BEGIN_NAMESPACE`` then ``FMT_BEGIN_EXPORT``)
    return text[-1:] in _ENDS_BEFORE_ALONE
