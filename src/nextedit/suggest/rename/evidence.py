"""Rename evidence: the developer edits that turned one identifier OLD into NEW.

Owns reading the edit history for renames: :func:`identifier_renames` (one
edit — a keystroke inside an identifier, or a rewritten line or hunk whose
token diff replaced OLD by NEW, memoised on the edit), the evidence the
``rename`` suggester tries (newest first), the sites already renamed, whether
the developer earlier renamed NEW back to OLD, which remaining
occurrences a rewritten hunk kept on purpose, and the one other change
every edit of a rename also made (:func:`change_besides`), if any.

Must not know about syntax trees, bindings or other documents
(:mod:`nextedit.suggest.rename.binding`,
:mod:`nextedit.suggest.rename.occurrences`), nor LSP/ACP or position
encodings.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from nextedit.history import DeveloperEdit
from nextedit.suggest.model import TextEditCp
from nextedit.suggest.suggester import SuggestContext
from nextedit.text import Document
from nextedit.text.affixes import common_affixes
from nextedit.text.lexical import LINE_DIFF_TOKEN_RE, REPEAT_TOKEN_RE, is_identifier, word_hits
from nextedit.text.patience import patience_hunks

# how many of the newest edits may carry the rename evidence (developers
# rename a definition, fix something else, then come back to the uses), and
# how many distinct renames among them a request resolves at most (each
# resolution reads the tree of the text as it was before that rename). Five,
# not three: words changed in strings (``"requests"`` -> ``"psf"``) count as
# renames too and pushed an older binding rename out (+3 right answers on the
# shared sets, none wrong; quality-trials-session52.md)
_LOOKBACK = 20
_MAX_EVIDENCE = 5
# a hunk is token-diffed whole while (its tokens before) x (after) stays
# under this (~6 ms at most); a bigger one is diffed by lines first
_WHOLE_HUNK_TOKENS = 250_000


@dataclass(frozen=True, slots=True)
class RenameEvidence:
    edit: DeveloperEdit
    old: str
    new: str
    site_cp: int  # where NEW starts in the current text (the site nearest the cursor)
    pure: bool  # the edit changed nothing but the name


def find_evidence(context: SuggestContext) -> list[RenameEvidence] | None:
    out: list[RenameEvidence] = []
    for edit in reversed(context.edits[-_LOOKBACK:]):
        found = identifier_renames(edit)
        if found is None:
            continue
        old, new, sites, pure = found
        if any((e.old, e.new) == (old, new) for e in out):
            continue
        site = min(sites, key=lambda s: abs(s - context.cursor_cp))
        out.append(RenameEvidence(edit, old, new, site, pure))
        if len(out) >= _MAX_EVIDENCE:
            break
    return out or None


def identifier_renames(edit: DeveloperEdit) -> tuple[str, str, list[int], bool] | None:
    """``(OLD, NEW, sites, pure)`` when ``edit`` turned identifier OLD into NEW.

    ``sites`` are the current offsets where NEW now starts. A keystroke-level
    edit inside one identifier gives one site; a rewritten line or hunk gives
    every place its token diff replaced OLD by NEW. ``pure`` says that
    nothing else changed. Backspacing (NEW a strict prefix of OLD, reached
    one character per change) is not a rename; the end cut in one change is.
    """
    cached = edit.extra.get("identifier_renames", False)
    if cached is not False:
        return cached
    result = _identifier_renames(edit)
    if result is not None and (result[0] in _LITERAL_WORDS or result[1] in _LITERAL_WORDS):
        result = None  # ``true`` -> ``false`` sets a value: it names nothing
    edit.extra["identifier_renames"] = result
    return result


# the values languages spell as words: an identifier to the lexer, never a name
_LITERAL_WORDS = frozenset("true false True False TRUE FALSE None null nil NULL undefined nullptr NaN".split())


def _identifier_renames(edit: DeveloperEdit) -> tuple[str, str, list[int], bool] | None:
    old, new = edit.old_token, edit.new_token
    if is_identifier(old) and is_identifier(new) and old != new and edit.token_start_cp is not None:
        assert old is not None and new is not None
        if old.startswith(new) and not _cut_at_once(edit):
            return None
        return old, new, [edit.token_start_cp], True
    if edit.old_token is not None or not edit.after_lines or len(edit.after_lines) > 20_000:
        return None
    found = _hunk_renames(edit.before_lines, edit.after_lines)
    if found is None:
        return None
    old, new, offsets, pure = found
    return old, new, [edit.lines_start_cp + offset for offset in offsets], pure


def _cut_at_once(edit: DeveloperEdit) -> bool:
    """The name lost its end in one change of more than one character (a
    selection deleted, a line rewritten): a rename to the shorter name, where
    backspacing (one character per change) is a name being retyped."""
    return edit.keystrokes == 1 and not edit.new_text and len(edit.old_text) > 1


# a text's tokens for the diff: (offset in the text, token)
_Tokens = list[tuple[int, str]]


def _tokens(text: str) -> _Tokens:
    return [(m.start(), m.group()) for m in LINE_DIFF_TOKEN_RE.finditer(text)]


@functools.lru_cache(maxsize=128)
def _hunk_renames(before: str, after: str) -> tuple[str, str, tuple[int, ...], bool] | None:
    """``(OLD, NEW, offsets in after, pure)`` of a rewritten line or hunk
    whose token diff replaced OLD by NEW. Position-free: an edit the
    history restates at a new place starts with an empty memo, and the
    same hunk is diffed once.

    One token diff of a big hunk is quadratic in its repeated tokens (a
    58-line table whose every row lost a cast took 108 ms): past
    :data:`_WHOLE_HUNK_TOKENS`, lines are matched first and tokens only
    within each changed block (a replaced block of as many lines, line by
    line; a reflowed block may then read as no rename). A changed block
    itself past that bound reads as no rename: it is a rewrite, not a name
    swapped (serde's 242 lines replaced by 24 took 47 ms of token diff for
    no rename; on the 12 shared sets no candidate changed). A side without
    a name has no rename to find: no diff at all (a reflowed table of 400
    numbers took 12 ms)."""
    b_tokens, a_tokens = _tokens(before), _tokens(after)
    if not any(is_identifier(t) for _, t in b_tokens) or not any(is_identifier(t) for _, t in a_tokens):
        return None  # no name on one side (a table of numbers reflowed): nothing renamed, no diff needed
    if len(b_tokens) * len(a_tokens) <= _WHOLE_HUNK_TOKENS:
        blocks: Iterable[tuple[_Tokens, _Tokens, int]] = [(b_tokens, a_tokens, 0)]
    else:
        blocks = ((_tokens(b), _tokens(a), offset) for b, a, offset in _changed_blocks(before, after))
    pair: tuple[str, str] | None = None
    offsets: list[int] = []
    pure = True
    for b_block, a_block, a_offset in blocks:
        if len(b_block) * len(a_block) > _WHOLE_HUNK_TOKENS:
            return None  # a block rewritten wholesale (242 lines as 24): no rename to read cheaply
        found = _token_replacements(b_block, a_block)
        if found is None:
            return None
        block_pair, block_offsets, block_pure = found
        pure = pure and block_pure
        if block_pair is None:
            continue
        if pair is None:
            pair = block_pair
        elif pair != block_pair:
            return None  # two different renames: ambiguous
        offsets.extend(a_offset + offset for offset in block_offsets)
    if pair is None:
        return None
    return pair[0], pair[1], tuple(offsets), pure


def _changed_blocks(before: str, after: str) -> list[tuple[str, str, int]]:
    """``(before text, after text, offset of the after text)`` of each block
    of lines that differs; a replaced block of as many lines on both sides
    comes line by line. A patience diff (:mod:`nextedit.text.patience`):
    ``difflib``'s line matcher took 1.1 s on a 1,000-line hunk renaming a
    name on lines that repeat (``}``, the same call), and 9 s on 2,000."""
    b_lines = before.splitlines(keepends=True)
    a_lines = after.splitlines(keepends=True)
    a_starts = [0]
    for line in a_lines:
        a_starts.append(a_starts[-1] + len(line))
    blocks: list[tuple[str, str, int]] = []
    for i1, i2, j1, j2 in patience_hunks(b_lines, a_lines):
        if i2 - i1 == j2 - j1:
            blocks.extend(
                (b_lines[i], a_lines[j], a_starts[j]) for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            )
        else:
            blocks.append(("".join(b_lines[i1:i2]), "".join(a_lines[j1:j2]), a_starts[j1]))
    return blocks


def _token_replacements(a: _Tokens, b: _Tokens) -> tuple[tuple[str, str] | None, list[int], bool] | None:
    """The identifier ``(OLD, NEW)`` the token diff of one block (its tokens
    before, ``a``, and after, ``b``) replaced (``None`` if none), where NEW
    stands in the block after, and whether nothing else changed; ``None``
    when the block renames two different names."""
    matcher = difflib.SequenceMatcher(None, [t for _, t in a], [t for _, t in b], autojunk=False)
    pair: tuple[str, str] | None = None
    offsets: list[int] = []
    pure = True
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        olds = [t for _, t in a[i1:i2] if not t.isspace()]
        news = [t for _, t in b[j1:j2] if not t.isspace()]
        if not olds and not news:
            continue
        if op == "replace" and len(olds) == 1 and len(news) == 1 and is_identifier(olds[0]) and is_identifier(news[0]):
            if pair is None:
                pair = (olds[0], news[0])
            elif pair != (olds[0], news[0]):
                return None
            offsets.append(next(pos for pos, t in b[j1:j2] if t == news[0]))
        else:
            pure = False
    return pair, offsets, pure


def renames_back(context: SuggestContext, ev: RenameEvidence) -> bool:
    """Whether the developer earlier renamed NEW to OLD (in any open document)."""
    for edit in context.recent_edits(limit=64):
        if edit.seq >= ev.edit.seq:
            continue
        found = identifier_renames(edit)
        if found is not None and found[0] == ev.new and found[1] == ev.old:
            return True
    return False


def renamed_sites(edits: Sequence[DeveloperEdit], old: str, new: str) -> list[int]:
    """Current offsets (ascending) where the developer already turned OLD into NEW."""
    sites: set[int] = set()
    for edit in edits:
        found = identifier_renames(edit)
        if found is not None and found[0] == old and found[1] == new:
            sites.update(found[2])
    return sorted(sites)


def evidence_edits(edits: Sequence[DeveloperEdit], old: str, new: str) -> list[DeveloperEdit]:
    """The developer edits (oldest first) that renamed OLD to NEW somewhere."""
    out = []
    for edit in edits:
        found = identifier_renames(edit)
        if found is not None and found[0] == old and found[1] == new:
            out.append(edit)
    return out


def _code_tokens(text: str) -> tuple[str, ...]:
    """The code tokens of ``text`` (:data:`~nextedit.text.lexical.REPEAT_TOKEN_RE`:
    names, numbers, one-line strings, operators; blanks and line breaks are none)."""
    return tuple(m.group() for m in REPEAT_TOKEN_RE.finditer(text))


def renamed_text(text: str, old: str, new: str) -> str:
    """``text`` with every whole-word OLD read as NEW."""
    parts: list[str] = []
    prev = 0
    for pos, whole in word_hits(text, old):
        if whole:
            parts += [text[prev:pos], new]
            prev = pos + len(old)
    parts.append(text[prev:])
    return "".join(parts)


def _residual(edit: DeveloperEdit, old: str, new: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What ``edit`` changed besides OLD → NEW: the code tokens of its lines
    with OLD renamed against those of its lines as written, common ends
    trimmed (a call rejoined on one line is the same change). Memoised on the
    edit, as :func:`identifier_renames` is."""
    memo: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = edit.extra.setdefault("rename_residuals", {})
    cached = memo.get((old, new))
    if cached is not None:
        return cached
    before = _code_tokens(renamed_text(edit.before_lines, old, new))
    after = _code_tokens(edit.after_lines)
    prefix, suffix = common_affixes(before, after)
    residual = before[prefix : len(before) - suffix], after[prefix : len(after) - suffix]
    memo[(old, new)] = residual
    return residual


def change_besides(
    group: Sequence[DeveloperEdit], old: str, new: str
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The one other change (tokens replaced, tokens written) that each of
    two or more edits renaming OLD to NEW also made, OLD read as NEW in it
    (``PyErr_SetString(PyExc_RuntimeError, …)`` → ``psutil_runtime_error(…)``:
    ``PyExc_RuntimeError ,`` dropped each time); None when the edits made
    none, or not the same."""
    if len(group) < 2:
        return None
    residuals = {_residual(edit, old, new) for edit in group}
    if len(residuals) != 1:
        return None
    (residual,) = residuals
    return residual if residual != ((), ()) else None


def holds_tokens(text: str, tokens: Sequence[str]) -> bool:
    """Whether ``tokens`` (non-empty) stand one after another in ``text`` (blanks aside)."""
    found = _code_tokens(text)
    wanted = tuple(tokens)
    n = len(wanted)
    return n > 0 and any(found[i : i + n] == wanted for i in range(len(found) - n + 1))


def kept_on_purpose(group: Sequence[DeveloperEdit], remaining: Sequence[TextEditCp]) -> list[TextEditCp]:
    """Remaining occurrences inside a rewritten hunk (not a keystroke-level
    token edit) that renamed OLD elsewhere: the developer saw them and kept them."""
    kept: list[TextEditCp] = []
    for edit in group:
        if edit.old_token is not None:  # typed inside one identifier: saw nothing else
            continue
        lo, hi = edit.start_cp, edit.new_end_cp
        kept.extend(e for e in remaining if lo <= e.start_cp and e.end_cp <= hi)
    return kept


def describe_evidence(document: Document, edit: DeveloperEdit, old: str, new: str) -> str:
    line = document.line_of(min(edit.start_cp, len(document.text))) + 1
    return f"edit #{edit.seq} at line {line}: `{old}`→`{new}`"
