"""Portable regular expressions: the subset ECMAScript, Rust's ``regex``, Java and Python read alike.

A ``searchAndReplace`` suggestion with ``isRegex: true`` is applied by the
*client*: VS Code and the TypeScript ACP SDK with ``RegExp`` and
``String.prototype.replace``, Zed with Rust's ``regex`` crate, JetBrains with
``java.util.regex``, Python clients with ``re``.  A pattern means the same
thing to all of them only inside a small subset, and this module decides
membership conservatively: whatever it cannot show to be read alike is *not
portable*.

The pattern subset (docs/trace-format.md, "Portable regex"):

* literal characters from the Basic Multilingual Plane, except the syntax
  characters ``\\ ^ $ . | ? * + ( ) [ ] { }`` and control characters other
  than tab, line feed and carriage return;
* escapes: ``\\n \\t \\r`` and a backslash before one of the syntax characters;
* positive character classes ``[...]`` of literal characters, ranges ``a-z``
  (ascending, not touching the surrogate block) and the escapes above plus
  ``\\-``; a literal ``-`` only first or last;
* groups ``(...)`` and ``(?:...)``; alternation ``|`` without empty branches;
* quantifiers ``* + ? {n} {n,} {n,m}`` (counts up to 1000), each optionally lazy
  (``?`` after it).

Not portable, with the reason returned: lookaround, backreferences, inline
flags, named groups and every other ``(?`` form; ``^``/``$`` and the ``\\A
\\z \\b \\B`` anchors; shorthand classes (``\\w \\d \\s`` …) and ``.`` (each
engine ends lines differently); negated classes (``[^…]`` can split a
character outside the BMP in an ECMAScript engine without the ``u`` flag);
characters outside the BMP; ``\\x``, ``\\u``, ``\\p`` and other escapes;
possessive or stacked quantifiers; a repeated part that can match the empty
string; a capturing group inside a repeated group (ECMAScript resets it each
iteration); and a pattern that can match the empty string (the engines step
past empty matches differently).

The replacement subset: literal text, ``$1`` … ``$9`` naming a group the
pattern has, ``$$`` for a literal dollar.  A backslash, any other use of ``$``
(``$0``, ``$&``, ``${1}``, ``$<name>``, a trailing ``$``), or a group
reference followed by a letter, digit or ``_`` (Rust reads ``$1x`` as the
group named ``1x``) is not portable.

Within the subset every engine finds the same leftmost-first, non-overlapping
matches, so :func:`replace_edits` applies a portable pair with Python's
``re`` and the replacement semantics above (a group that did not take part
in the match is the empty string, as in all four).

This module imports nothing else of nextedit: the engine checks the patterns
it writes (``suggest/repeat/search_replace.py``) against the same rules the
bench scores them by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "NotPortable",
    "check_pattern",
    "escape",
    "check_replacement",
    "why_not_portable",
    "why_pattern_not_portable",
    "why_replacement_not_portable",
    "replace_all",
    "replace_edits",
]

MAX_PATTERN_LENGTH = 2000
MAX_REPEAT = 1000
MAX_DEPTH = 32

_SYNTAX = frozenset("\\^$.|?*+()[]{}")
_CONTROL_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
_CLASS_ESCAPES = frozenset("\\]-[^")
_SHORTHAND = frozenset("wWdDsShHvVRX")
_ANCHOR_ESCAPES = frozenset("AzZGbBK")
_SURROGATES = (0xD800, 0xDFFF)
_COUNT = re.compile(r"\{([0-9]{1,4})(,([0-9]{1,4})?)?\}")


class NotPortable(ValueError):
    """A pattern or replacement outside the portable subset; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --------------------------------------------------------------------------
# the pattern: a recursive-descent reader that accepts only the subset
# --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PatternInfo:
    """What the reader learnt about a portable pattern."""

    groups: int  # capturing groups


@dataclass(slots=True)
class _Node:
    nullable: bool  # can match the empty string
    has_capture: bool  # contains a capturing group


def _char_problem(ch: str, where: str) -> str | None:
    code = ord(ch)
    if code > 0xFFFF:
        return (
            f"the character {ch!r} {where} lies outside the Basic Multilingual Plane "
            "(ECMAScript without the u flag reads it as two units)"
        )
    if _SURROGATES[0] <= code <= _SURROGATES[1]:
        return f"a lone surrogate U+{code:04X} {where}"
    if (code < 0x20 and ch not in "\t\n\r") or code == 0x7F:
        return f"the control character U+{code:04X} {where} (write \\n, \\t or \\r, or leave it out)"
    return None


class _Reader:
    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0
        self.groups = 0

    # -- helpers ---------------------------------------------------------------
    def peek(self) -> str | None:
        return self.p[self.i] if self.i < len(self.p) else None

    def fail(self, reason: str) -> NotPortable:
        return NotPortable(f"{reason} (at offset {self.i})")

    # -- grammar -----------------------------------------------------------------
    def alternation(self, depth: int, in_repeat: bool) -> _Node:
        if depth > MAX_DEPTH:
            raise self.fail(f"groups nested deeper than {MAX_DEPTH}")
        branches = [self.concatenation(depth, in_repeat)]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.concatenation(depth, in_repeat))
        return _Node(any(b.nullable for b in branches), any(b.has_capture for b in branches))

    def concatenation(self, depth: int, in_repeat: bool) -> _Node:
        start = self.i
        nullable, capture = True, False
        empty = True
        while (c := self.peek()) is not None and c not in "|)":
            atom_start = self.i
            atom = self.atom(depth, in_repeat)
            minimum = self.quantifier()
            if minimum is not None:
                if atom.nullable:
                    self.i = atom_start
                    raise self.fail("a repeated part that can match the empty string")
                atom = _Node(minimum == 0, atom.has_capture)
            nullable = nullable and atom.nullable
            capture = capture or atom.has_capture
            empty = False
        if empty:
            self.i = start
            raise self.fail("an empty alternative or group")
        return _Node(nullable, capture)

    def quantifier(self) -> int | None:
        """Read an optional quantifier (and its lazy ``?``); its minimum count, or None when there is none."""
        c = self.peek()
        if c in ("*", "?"):
            self.i += 1
            minimum = 0
        elif c == "+":
            self.i += 1
            minimum = 1
        elif c == "{":
            m = _COUNT.match(self.p, self.i)
            if m is None:
                raise self.fail("a `{` that is not a {n}, {n,} or {n,m} quantifier (escape it as \\{)")
            lo = int(m.group(1))
            hi = int(m.group(3)) if m.group(3) else None
            if lo > MAX_REPEAT or (hi is not None and hi > MAX_REPEAT):
                raise self.fail(f"a repetition count above {MAX_REPEAT}")
            if hi is not None and hi < lo:
                raise self.fail("a {n,m} quantifier with m < n")
            self.i = m.end()
            minimum = lo
        else:
            return None
        if self.peek() == "?":  # lazy
            self.i += 1
        if self.peek() in ("*", "+", "?", "{"):
            raise self.fail("a quantifier after a quantifier (possessive or stacked)")
        return minimum

    def atom(self, depth: int, in_repeat: bool) -> _Node:
        c = self.peek()
        assert c is not None
        if c == "(":
            return self.group(depth, in_repeat)
        if c == "[":
            self.char_class()
            return _Node(False, False)
        if c == "\\":
            self.escape()
            return _Node(False, False)
        if c in "^$":
            raise self.fail(f"the anchor {c} (anchors are not portable)")
        if c == ".":
            raise self.fail("`.` (each engine ends lines differently; spell the class out)")
        if c in "*+?":
            raise self.fail(f"the quantifier {c} with nothing to repeat")
        if c == "{":
            raise self.fail("an unescaped `{` (write \\{)")
        if c in "}]":
            raise self.fail(f"an unescaped `{c}` (write \\{c})")
        problem = _char_problem(c, "in the pattern")
        if problem:
            raise self.fail(problem)
        self.i += 1
        return _Node(False, False)

    def group(self, depth: int, in_repeat: bool) -> _Node:
        self.i += 1  # (
        capturing = True
        if self.peek() == "?":
            if self.p.startswith("?:", self.i):
                self.i += 2
                capturing = False
            else:
                rest = self.p[self.i : self.i + 4]
                if rest.startswith(("?=", "?!", "?<=", "?<!")):
                    raise self.fail("lookaround")
                if rest.startswith(("?<", "?P", "?'")):
                    raise self.fail("a named group")
                if rest.startswith("?>"):
                    raise self.fail("an atomic group")
                raise self.fail("an inline flag or other (? construct")
        if capturing:
            if in_repeat:
                raise self.fail("a capturing group inside a repeated group (ECMAScript resets it each iteration)")
            self.groups += 1
        # whether what follows the group repeats it is known only after it; the
        # inner check uses the enclosing repetition, the outer one is made by
        # `concatenation` for the group itself
        after = self._group_end(self.i)
        repeated_here = after is not None and after < len(self.p) and self.p[after] in "*+?{"
        inner = self.alternation(depth + 1, in_repeat or repeated_here)
        if self.peek() != ")":
            raise self.fail("an unclosed group")
        self.i += 1
        return _Node(inner.nullable, capturing or inner.has_capture)

    def _group_end(self, i: int) -> int | None:
        """Offset just after the ``)`` closing the group whose body starts at ``i`` (a quick scan)."""
        level = 1
        in_class = False
        while i < len(self.p):
            c = self.p[i]
            if c == "\\":
                i += 2
                continue
            if in_class:
                if c == "]":
                    in_class = False
            elif c == "[":
                in_class = True
            elif c == "(":
                level += 1
            elif c == ")":
                level -= 1
                if level == 0:
                    return i + 1
            i += 1
        return None

    def escape(self) -> None:
        self.i += 1  # backslash
        c = self.peek()
        if c is None:
            raise self.fail("a trailing backslash")
        self.i += 1
        if c in _CONTROL_ESCAPES or c in _SYNTAX:
            return
        self.i -= 2
        raise self.fail(_escape_problem(c))

    def char_class(self) -> None:
        start = self.i
        self.i += 1  # [
        if self.peek() == "^":
            raise self.fail("a negated class [^…] (it can split a character outside the BMP in ECMAScript)")
        if self.peek() == "]":
            raise self.fail("`]` first in a class (write \\])")
        items: list[str | None] = []  # a literal character, or None for an escape that is not a range end
        first = True
        while True:
            c = self.peek()
            if c is None:
                self.i = start
                raise self.fail("an unclosed class")
            if c == "]":
                self.i += 1
                break
            if c == "[":
                raise self.fail("an unescaped `[` inside a class (a nested class in Rust and Java; write \\[)")
            if c in "&~|-" and self.p.startswith(c * 2, self.i):
                raise self.fail(f"`{c * 2}` inside a class (a set operation in Rust or Java)")
            if c == "\\":
                self.i += 1
                e = self.peek()
                if e is None:
                    raise self.fail("a trailing backslash")
                if e not in _CONTROL_ESCAPES and e not in _CLASS_ESCAPES:
                    self.i -= 1
                    raise self.fail(_escape_problem(e, in_class=True))
                self.i += 1
                items.append(None)
                first = False
                continue
            if c == "-":
                nxt = self.p[self.i + 1] if self.i + 1 < len(self.p) else None
                if first or nxt == "]":
                    self.i += 1
                    items.append(None)  # a literal '-' first or last
                    first = False
                    continue
                lo = items[-1] if items else None
                if lo is None or nxt is None or nxt in "\\[":
                    raise self.fail("a `-` in a class that is neither a range between two characters nor first/last")
                hi = nxt
                problem = _char_problem(hi, "in a class")
                if problem:
                    raise self.fail(problem)
                if ord(hi) < ord(lo):
                    raise self.fail(f"the reversed range {lo}-{hi}")
                if ord(lo) <= _SURROGATES[1] and ord(hi) >= _SURROGATES[0]:
                    raise self.fail(f"the range {lo!r}-{hi!r} spans the surrogate block")
                self.i += 2
                items[-1] = None  # a range end cannot start another range
                continue
            problem = _char_problem(c, "in a class")
            if problem:
                raise self.fail(problem)
            self.i += 1
            items.append(c)
            first = False
        if not items:
            self.i = start
            raise self.fail("an empty class")


def _escape_problem(c: str, in_class: bool = False) -> str:
    if c in _SHORTHAND:
        return f"the shorthand class \\{c} (spell the class out, e.g. [A-Za-z0-9_] for \\w, [0-9] for \\d)"
    if c in "123456789":
        return f"the backreference \\{c}"
    if c in _ANCHOR_ESCAPES:
        return f"the anchor \\{c}" if c != "b" or not in_class else "\\b inside a class"
    if c in "pP":
        return f"the Unicode property class \\{c}"
    if c in "xuUoN0c":
        return f"the escape \\{c} (engines spell code escapes differently; write the character itself)"
    if c in "fvae":
        return f"the escape \\{c} (not read alike; write the character itself)"
    if c in "kgQEL":
        return f"the escape \\{c}"
    if c.isalnum():
        return f"the unknown escape \\{c}"
    where = "inside a class" if in_class else "outside a class"
    return f"the escape \\{c} {where} (an error in some engines; only syntax characters may be escaped)"


def check_pattern(pattern: str) -> PatternInfo:
    """Read a pattern in the portable subset; :class:`NotPortable` says why it is not."""
    if not isinstance(pattern, str):
        raise NotPortable("the pattern is not a string")
    if not pattern:
        raise NotPortable("an empty pattern")
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise NotPortable(f"a pattern longer than {MAX_PATTERN_LENGTH} characters")
    reader = _Reader(pattern)
    node = reader.alternation(0, False)
    if reader.i < len(pattern):
        raise reader.fail("an unbalanced `)`")
    if node.nullable:
        raise NotPortable("the pattern can match the empty string (engines step past empty matches differently)")
    try:  # the subset is a subset of Python's syntax; a failure here is a bug in the reader
        re.compile(pattern)
    except re.error as exc:  # pragma: no cover - defensive
        raise NotPortable(f"not a valid pattern: {exc}") from exc
    return PatternInfo(groups=reader.groups)


# a literal tab, line feed, carriage return -> how a portable pattern writes it
_WRITTEN_CONTROLS = {ch: "\\" + name for name, ch in _CONTROL_ESCAPES.items()}


def escape(literal: str) -> str | None:
    """Portable pattern text that matches exactly ``literal``: syntax
    characters escaped, tab, line feed and carriage return written ``\\t \\n
    \\r``; None when ``literal`` holds a character no portable pattern
    spells (another control character, one outside the Basic Multilingual
    Plane, a lone surrogate)."""
    out = []
    for ch in literal:
        if ch in _SYNTAX:
            out.append("\\" + ch)
        elif ch in _WRITTEN_CONTROLS:
            out.append(_WRITTEN_CONTROLS[ch])
        elif _char_problem(ch, "") is not None:
            return None
        else:
            out.append(ch)
    return "".join(out)


def why_pattern_not_portable(pattern: str) -> str | None:
    """``None`` when ``pattern`` reads alike in ECMAScript, Rust, Java and Python, else the reason it does not."""
    try:
        check_pattern(pattern)
    except NotPortable as exc:
        return exc.reason
    return None


# --------------------------------------------------------------------------
# the replacement
# --------------------------------------------------------------------------
def check_replacement(replacement: str, groups: int = 9) -> list[str | int]:
    """The replacement as literal strings and group numbers; :class:`NotPortable` when outside the subset.

    ``groups`` is the number of capturing groups of the pattern it goes with.
    """
    if not isinstance(replacement, str):
        raise NotPortable("the replacement is not a string")
    parts: list[str | int] = []
    lit: list[str] = []
    i = 0
    n = len(replacement)
    while i < n:
        c = replacement[i]
        if c == "\\":
            raise NotPortable(
                f"a backslash in the replacement (at offset {i}; Java and Python read it as an escape, "
                "ECMAScript as a character)"
            )
        if c != "$":
            lit.append(c)
            i += 1
            continue
        nxt = replacement[i + 1] if i + 1 < n else ""
        if nxt == "$":
            lit.append("$")
            i += 2
            continue
        if nxt and nxt in "123456789":
            number = int(nxt)
            if number > groups:
                raise NotPortable(
                    f"${number} in the replacement names group {number}, but the pattern has "
                    f"{groups} group{'s' if groups != 1 else ''}"
                )
            after = replacement[i + 2] if i + 2 < n else ""
            if after and (after.isascii() and (after.isalnum() or after == "_")):
                raise NotPortable(
                    f"${number} followed by {after!r} in the replacement (Rust reads ${number}{after} as one "
                    "group name, ECMAScript and Java may read a two-digit group)"
                )
            if lit:
                parts.append("".join(lit))
                lit = []
            parts.append(number)
            i += 2
            continue
        shown = nxt or "the end"
        raise NotPortable(
            f"`$` followed by {shown!r} in the replacement (at offset {i}; only $1…$9 and $$ are portable)"
            if nxt
            else f"a trailing `$` in the replacement (at offset {i}; write $$ for a dollar)"
        )
    if lit:
        parts.append("".join(lit))
    return parts


def why_replacement_not_portable(replacement: str, groups: int = 9) -> str | None:
    """``None`` when ``replacement`` reads alike for a pattern with ``groups`` groups, else the reason."""
    try:
        check_replacement(replacement, groups)
    except NotPortable as exc:
        return exc.reason
    return None


def why_not_portable(pattern: str, replacement: str) -> str | None:
    """``None`` when the pair reads alike everywhere; else the reason (the pattern's first)."""
    try:
        info = check_pattern(pattern)
        check_replacement(replacement, info.groups)
    except NotPortable as exc:
        return exc.reason
    return None


# --------------------------------------------------------------------------
# applying a portable pair
# --------------------------------------------------------------------------
def replace_edits(text: str, pattern: str, replacement: str) -> list[tuple[int, int, str]]:
    """Every match of a portable ``pattern`` in ``text`` as ``(start, end, new text)``, code point offsets.

    Matches are leftmost-first and non-overlapping, as every engine finds
    them; ``$n`` is group ``n`` (empty when it took no part), ``$$`` a dollar.
    Raises :class:`NotPortable` for a pair outside the subset.
    """
    info = check_pattern(pattern)
    parts = check_replacement(replacement, info.groups)
    out = []
    for m in re.finditer(pattern, text):
        new = "".join(p if isinstance(p, str) else (m.group(p) or "") for p in parts)
        out.append((m.start(), m.end(), new))
    return out


def replace_all(text: str, pattern: str, replacement: str) -> str:
    """``text`` with every match of a portable pattern replaced (see :func:`replace_edits`)."""
    pieces = []
    pos = 0
    for start, end, new in replace_edits(text, pattern, replacement):
        pieces.append(text[pos:start])
        pieces.append(new)
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)
