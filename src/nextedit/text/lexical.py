"""What counts as a word, an identifier and a token: the lexical definitions the engine shares.

Owns the character classes and token patterns the history, the syntax
fallback and the suggesters cut text with. Two definitions of a word char
live here side by side, on purpose:

- **with ``$``** (:data:`WORD_CHAR`, :data:`IDENTIFIER_RE`, :func:`is_word_char`,
  :func:`is_identifier`): a *name* the developer types or renames. ``$`` is
  part of a name in JavaScript/TypeScript (``$el``), PHP (``$x``), shell and
  Perl variables, so a rename of ``$el`` must see one name, and ``a$b`` must
  not be a match of ``a`` or ``b``. The edit history, the rename suggester,
  the plain-token fallback of :mod:`nextedit.syntax.tokens` and the signature
  suggester read names this way.
- **without ``$``** (:data:`PLAIN_IDENTIFIER`, :func:`is_plain_word_char`): the
  repeat synthesis (:mod:`nextedit.suggest.repeat`) cuts code into tokens to
  generalise an edit, and there ``$`` is punctuation: it is a sigil or an
  operator (template ``${…}``, Rust macros ``$x:expr``, jQuery ``$(…)``) whose
  change is a change of its own, and the hole patterns it writes for a
  client's search-and-replace stay within ``\\w``. The LSP bridge's code-action
  titles widen a change to the words around it the same way.

The three token patterns cut for different readers (each says why):
:data:`FALLBACK_TOKEN_RE` (names outside strings and comments, for the
same-name lookup of a language without a grammar), :data:`REPEAT_TOKEN_RE`
(fine tokens for anti-unifying edits) and :data:`LINE_DIFF_TOKEN_RE` (words,
runs of blanks and single characters, for diffing an edited line).

The syntax tree's in-place token swap reads two more here: the bytes that
may be part of a name (:data:`WORD_BYTES`) and the keyword kinds of a grammar
(:data:`KEYWORD_KIND_RE`).

Must not know about parsing, positions or any suggester's rules: these are
patterns over ``str`` (code points), and one set of UTF-8 bytes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

__all__ = [
    "FALLBACK_TOKEN_RE",
    "fallback_name_scanner",
    "IDENTIFIER",
    "IDENTIFIER_RE",
    "KEYWORD_KIND_RE",
    "LINE_DIFF_TOKEN_RE",
    "NAME_RE",
    "NUMBER",
    "PLAIN_IDENTIFIER",
    "REPEAT_TOKEN_RE",
    "WORD_CHAR",
    "WORD_CHAR_RE",
    "WORD_BYTES",
    "WORD_RE",
    "is_identifier",
    "is_plain_word_char",
    "is_word_char",
    "word_hits",
    "word_pattern",
]

# -- names: ``$`` is a word char --------------------------------------------------------

# One character of a name: a Unicode word char or ``$``.
WORD_CHAR = r"[\w$]"
WORD_CHAR_RE = re.compile(WORD_CHAR)
# A run of name characters (digits first included: a boundary scan, not a name).
WORD_RE = re.compile(r"[\w$]+")
# An identifier token in most languages: a letter/underscore then word chars, or a ``$`` name.
IDENTIFIER = r"[^\W\d][\w$]*|\$[\w$]*"
IDENTIFIER_RE = re.compile(IDENTIFIER)
# A name: a letter or underscore first, so a sigil before it (``$``, ``&``,
# ``*``) is skipped; word chars and ``$`` after it. The name in a parameter as
# the signature suggester finds it (``x`` in ``x: int``, ``&mut x``, ``$x``),
# and the names a change writes as the ranker counts them.
NAME_RE = re.compile(r"[^\W\d][\w$]*")


# The bytes of UTF-8 text that may be part of a name: ASCII word chars, ``$``,
# and every byte of a multi-byte sequence (a non-ASCII character is taken as
# a letter). The syntax tree's in-place token swap refuses an edit glued to one.
WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$") | frozenset(
    range(0x80, 0x100)
)
# A grammar's anonymous node kind that reads as a word (a keyword such as
# ``if``, ``fn``, ``$``-led ones in some grammars): a name typed in place that
# equals one would lex as the keyword, not as an identifier.
KEYWORD_KIND_RE = re.compile(r"[^\W\d]\w*|\$\w*")


def is_word_char(ch: str) -> bool:
    """Whether ``ch`` (one character) can be part of a name (``$`` included)."""
    return WORD_CHAR_RE.match(ch) is not None


def word_hits(text: str, name: str, lo: int = 0, hi: int | None = None) -> Iterator[tuple[int, bool]]:
    """Each place ``name`` (a name: word chars) is found between the offsets
    ``lo`` and ``hi`` (clamped to the text: a negative ``hi`` is an empty
    window, not a slice from the end), left to right without overlap
    (``str.find``, C speed), and whether it stands there as a whole word (no
    :data:`WORD_CHAR` on either side; two whole-word places of a name never
    overlap, so none is skipped)."""
    lo, hi = max(0, lo), len(text) if hi is None else max(0, min(hi, len(text)))
    n = len(name)
    pos = text.find(name, lo, hi)
    while pos != -1:
        end = pos + n
        yield pos, not (pos and WORD_CHAR_RE.match(text, pos - 1)) and not WORD_CHAR_RE.match(text, end)
        pos = text.find(name, end, hi)


def word_pattern(name: bytes) -> re.Pattern[bytes]:
    """``name`` as a whole word in UTF-8 bytes: no ASCII word char or ``$`` on
    either side."""
    word_char = WORD_CHAR.encode()
    return re.compile(rb"(?<!" + word_char + rb")" + re.escape(name) + rb"(?!" + word_char + rb")")


def is_identifier(text: str | None) -> bool:
    """Whether ``text`` is exactly one identifier token (``foo_bar``, ``$el``, ``été``)."""
    return text is not None and IDENTIFIER_RE.fullmatch(text) is not None


# -- code tokens of the repeat synthesis: ``$`` is punctuation ---------------------------

# An identifier of the repeat synthesis (its tokens and its rules' holes).
PLAIN_IDENTIFIER = r"[^\W\d]\w*"
# A number literal, suffixes and a decimal point included (``1.5f``, ``0x1F``, ``10u8``).
NUMBER = r"\d[\w.]*"


def is_plain_word_char(ch: str) -> bool:
    """Whether ``ch`` (one character) is a word char of the repeat synthesis
    (``\\w``: letters, digits, underscore; not ``$``)."""
    return ch.isalnum() or ch == "_"


# -- token patterns --------------------------------------------------------------------

# The plain-token fallback (:mod:`nextedit.syntax.tokens`) for a language
# without a grammar: comments and strings (``#``/``//``/``/* */``; single,
# double, backtick and triple quotes, multi-line) are one token each so that
# the same-name lookup never renames inside them; words are names (``$``
# included); every other non-blank character is a one-character token.
_FALLBACK_COMMENT = r"//[^\n]* | \#[^\n]* | /\*.*?(?:\*/|\Z)"
_FALLBACK_STRING = r"""
        \"\"\".*?(?:\"\"\"|\Z) | '''.*?(?:'''|\Z)
      | "(?:\\.|[^"\\\n])*"? | '(?:\\.|[^'\\\n])*'? | `(?:\\.|[^`\\])*`?"""
FALLBACK_TOKEN_RE = re.compile(
    rf"""
    (?P<comment> {_FALLBACK_COMMENT} )
  | (?P<string> {_FALLBACK_STRING}
    )
  | (?P<number> {NUMBER} )
  | (?P<word> {IDENTIFIER} )
  | (?P<punct> [^\s\w] )
    """,
    re.VERBOSE | re.DOTALL,
)


@functools.lru_cache(maxsize=64)
def fallback_name_scanner(name: str) -> re.Pattern[str]:
    """A pattern whose matches, left to right, cut a text where
    :data:`FALLBACK_TOKEN_RE` does, but meet only the word tokens ``name``
    (group ``name``), the comments and strings, and runs of every other
    token (group ``other``, blanks included). ``name`` is a word token's
    text. A file holds far fewer of those than tokens, so finding one name's
    occurrences costs one scan at the regex engine's speed, not a Python
    step per token.

    It cuts alike because every character starts what it would start there:
    a quote or ``#`` a string or comment, ``/`` one when ``/`` or ``*``
    follows, a digit a number, a letter, ``_`` or ``$`` a word (``name`` if
    the word is exactly that), any other character one punctuation token,
    and a blank nothing."""
    word = re.escape(name) + r"(?![\w$])"
    return re.compile(
        rf"""
        (?P<comment> {_FALLBACK_COMMENT} )
      | (?P<string> {_FALLBACK_STRING}
        )
      | (?P<name> {word} )
      | (?P<other> (?: \s | {NUMBER} | (?!{word})(?:{IDENTIFIER}) | [^\s\w$\#"'`/] | /(?![/*]) )+ )
        """,
        re.VERBOSE | re.DOTALL,
    )


# The repeat synthesis (:mod:`nextedit.suggest.repeat.tokens`): rules are
# anti-unified token by token, so a comment's words are tokens (an edit in a
# comment still yields a token-level change, judged as prose later),
# multi-character operators (``::``, ``->``, ``=>``, ``+=``…) are one token
# each (context is counted in tokens; ``Ordering::`` is two tokens), only
# single-line strings (with Python's prefixes) are literals (a hole never
# spans lines), and ``$`` is punctuation. No match holds a line break, nor
# does matching read past the next one: ``tokenize_changed`` re-reads only
# the lines an edit touched on the strength of it.
REPEAT_TOKEN_RE = re.compile(
    r"""
    (?P<string>
        [rRbBuUfF]{0,2}"(?:[^"\\\n]|\\.)*"
      | [rRbBuUfF]{0,2}'(?:[^'\\\n]|\\.)*'
      | `(?:[^`\\\n]|\\.)*`
    )
  | (?P<ident>[^\W\d]\w*)
  | (?P<number>\d[\w.]*)
  | (?P<punct>
        ::|->|=>|==|!=|<=|>=|&&|\|\||\+=|-=|\*=|/=|//|\*\*|<<|>>|\.\.\.|\.\.|:=|\?\?|\?\.
      | \S
    )
    """,
    re.VERBOSE,
)

# An edited line diffed as a sequence (the rename evidence,
# :mod:`nextedit.suggest.rename.evidence`): runs of name characters (``$``
# included), runs of whitespace, and every other character alone, so that a
# renamed identifier is one replaced element and nothing is lost between them.
LINE_DIFF_TOKEN_RE = re.compile(r"[\w$]+|\s+|[^\w\s$]")
