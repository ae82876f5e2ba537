"""The edit log of one document: raw changes coalesced into developer-level edits.

Owns :class:`EditHistory` (bounded, one per open document) and the value it
hands out, :class:`DeveloperEdit`. A *raw* change is what one ``didChange``
content change did to the text (:class:`~nextedit.text.AppliedEdit`); a
*developer edit* is what a person would call one edit: a word typed, a token
replaced, a selection overwritten, a line rewritten.

Rules, in the order :meth:`EditHistory.record` applies them to each raw change:

1. A no-op raw change is ignored. A large one is trimmed to what really
   changed (common prefix and suffix dropped), so a client sending whole
   lines or the whole document still yields the narrow edit; every
   developer edit is trimmed the same way when it is handed out.
2. If it touches or overlaps the most recent developer edit (typing forward,
   backspacing into it or just before it, replacing a selection then typing,
   undoing it), the two merge; a merge that restores the original text drops
   the edit (typed then deleted = nothing happened). Typing a non-word
   character right after a finished identifier replacement starts a new edit,
   so ``foo``→``bar`` stays an identifier change when ``(`` follows.
3. Every older developer edit is kept in *current-text* offsets: edits after
   the change shift by its length delta; an older edit the change overlaps is
   dropped (its text no longer exists as recorded).

Recording costs O(size of the change + history bound); line context and
tokens are computed only when a suggester asks (:meth:`EditHistory.edits`),
from the document as it is then. An edit described before is not described
again when the lines it read are still there, unchanged (see
:class:`_Described`). The history never reads the syntax tree:
a suggester that wants the syntax around an edit asks the tree itself, so a
request that needs no syntax never pays for a re-parse.

Must not know about LSP/ACP, position encodings, or any suggester.
"""

from __future__ import annotations

import copy
import itertools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nextedit.frozen import evolve
from nextedit.text.affixes import common_affixes
from nextedit.text.lexical import is_identifier, is_word_char

if TYPE_CHECKING:  # pragma: no cover - typing only
    from nextedit.text import AppliedEdit, Document

__all__ = [
    "DEFAULT_BOUND",
    "DeveloperEdit",
    "EditHistory",
]

DEFAULT_BOUND = 64
# raw changes larger than this are trimmed on arrival (keystrokes are not:
# their span must stay where the caret is)
_TRIM_RAW_ABOVE = 64

# bounds of the session-long reversal guard
_TYPED_SPANS_LIMIT = 512
_DELETED_LIMIT = 512

# Developer-edit sequence numbers are process-wide, so edits of different
# documents can be ordered by recency.
_SEQ = itertools.count(1)


def _trim(start: int, old: str, new: str) -> tuple[int, str, str]:
    """Drop the common prefix and suffix of ``old`` and ``new``."""
    if not old or not new:
        return start, old, new
    p, s = common_affixes(old, new)
    return start + p, old[p : len(old) - s], new[p : len(new) - s]


@dataclass(frozen=True)
class DeveloperEdit:
    """One developer-level edit, in offsets of the *current* text.

    The edit replaced ``old_text`` with ``new_text``; ``new_text`` now sits at
    ``[start_cp, new_end_cp)``. ``version`` is the document version of its
    latest keystroke; ``seq`` orders edits by when they began (higher =
    newer; process-wide, so edits of different documents compare).

    Context (computed from the current text when the snapshot was taken):

    - ``before_lines`` / ``after_lines``: the whole line(s) the edit lies on,
      without the final line break, with the edit reverted / as it is now;
      ``lines_start_cp`` is where ``after_lines`` starts in the current text.
    - ``old_token`` / ``new_token``: when the edit lies within one identifier
      (and the text before it was one identifier too, or nothing), the whole
      identifier before and after; ``token_start_cp`` is where ``new_token``
      starts. E.g. changing ``r`` to ``z`` in ``fooBar`` gives ``old_token
      'fooBar'``, ``new_token 'fooBaz'``.
    - ``keystrokes``: how many raw changes were merged into this edit.
    """

    uri: str
    seq: int
    version: int
    start_cp: int
    old_text: str
    new_text: str
    before_lines: str = ""
    after_lines: str = ""
    lines_start_cp: int = 0
    old_token: str | None = None
    new_token: str | None = None
    token_start_cp: int | None = None
    keystrokes: int = 1
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def new_end_cp(self) -> int:
        """End of ``new_text`` in the current text."""
        return self.start_cp + len(self.new_text)

    @property
    def is_identifier_change(self) -> bool:
        """Whether one whole identifier became another (``foo`` → ``bar``)."""
        return is_identifier(self.old_token) and is_identifier(self.new_token) and self.old_token != self.new_token


class _Entry:
    """A developer edit under construction (mutable; never handed out)."""

    __slots__ = ("seq", "version", "start", "old", "new", "keystrokes")

    def __init__(self, seq: int, version: int, start: int, old: str, new: str) -> None:
        self.seq = seq
        self.version = version
        self.start = start
        self.old = old
        self.new = new
        self.keystrokes = 1

    @property
    def end(self) -> int:
        return self.start + len(self.new)

    def copy(self) -> _Entry:
        entry = _Entry(self.seq, self.version, self.start, self.old, self.new)
        entry.keystrokes = self.keystrokes
        return entry


class _Described:
    """An entry as it was described, and what its description read.

    A description is a function of the entry (start, old, new, seq, version,
    keystrokes) and of the text of the lines it lies on: ``after_lines``
    (``text[lines_start_cp : lines_start_cp + len(after_lines)]``) plus the
    character before and the one after (``prev_char`` / ``next_char``; ``""``
    at the start / end of the text), which decide where those lines begin
    and end (``\\n``, ``\\r\\n`` and a lone ``\\r`` break lines; the tokens are
    looked for within the lines). When the entry is the same but for its
    start, moved by ``shift``, and those characters stand unchanged ``shift``
    further on, a description from scratch is this one with its offsets
    moved by ``shift``: the same object when nothing moved (its ``extra``
    memo kept), else a copy with an empty ``extra`` (a memo may hold
    offsets).
    """

    __slots__ = ("start", "old", "new", "prev_char", "next_char", "edit")

    def __init__(self, entry: _Entry, prev_char: str, next_char: str, edit: DeveloperEdit) -> None:
        self.start = entry.start
        self.old = entry.old
        self.new = entry.new
        self.prev_char = prev_char
        self.next_char = next_char
        self.edit = edit

    def restated(self, entry: _Entry, text: str) -> DeveloperEdit | None:
        """The description of ``entry`` in ``text``, if it follows from this one."""
        edit = self.edit
        if (
            entry.version != edit.version
            or entry.keystrokes != edit.keystrokes
            or entry.old != self.old
            or entry.new != self.new
        ):
            return None
        shift = entry.start - self.start
        lines_start = edit.lines_start_cp + shift
        lines_end = lines_start + len(edit.after_lines)
        if lines_start < 0 or not text.startswith(edit.after_lines, lines_start):
            return None
        if (text[lines_start - 1] if lines_start else "") != self.prev_char:
            return None
        if text[lines_end : lines_end + 1] != self.next_char:
            return None
        if not shift:
            return edit
        token_start = edit.token_start_cp
        return evolve(
            edit,
            start_cp=edit.start_cp + shift,
            lines_start_cp=lines_start,
            token_start_cp=None if token_start is None else token_start + shift,
            extra={},
        )


class EditHistory:
    """The bounded edit log of one document (see the module docstring)."""

    def __init__(self, uri: str, bound: int = DEFAULT_BOUND) -> None:
        self.uri = uri
        self.bound = bound
        self._entries: deque[_Entry] = deque()
        self._revision = 0
        self._document: Document | None = None
        # the developer edits described for one (revision, document version), once asked for
        self._described: tuple[tuple[int, int], list[DeveloperEdit]] | None = None
        # the last descriptions worked out, by entry seq: reused where they still hold
        # (never changed in place: a snapshot shares it)
        self._basis: dict[int, _Described] = {}
        # session-long reversal guard (FORMAT.md "reversal"): spans of text the
        # developer typed, tracked through every later change, and the non-blank
        # texts they deleted; both bounded
        self._typed: list[list[int]] = []  # [start, end, age], sorted by start
        self._deleted: dict[str, None] = {}
        self._age = 0

    # -- recording ---------------------------------------------------------

    def __len__(self) -> int:
        return len(self._entries)

    def record(self, applied: Sequence[AppliedEdit], document: Document | None) -> None:
        """Record the raw changes of one accepted ``didChange`` (in order)."""
        self._document = document
        version = document.version if document is not None else 0
        for edit in applied:
            start, old, new = edit.start_cp, edit.old_text, edit.new_text
            if old == new:
                continue
            if len(old) + len(new) > _TRIM_RAW_ABOVE:
                # a whole line, hunk or document sent for a small change
                start, old, new = _trim(start, old, new)
            self._track_typed_and_deleted(start, old, new)
            self._record_one(start, old, new, version)
        self._revision += 1
        self._described = None

    def _record_one(self, start: int, old: str, new: str, version: int) -> None:
        end = start + len(old)  # end of the replaced span, in the text before
        delta = len(new) - len(old)
        entries = self._entries
        last = entries[-1] if entries else None

        # shift or drop the older edits (everything but the last)
        if len(entries) > 1:
            keep: list[_Entry] = []
            changed = False
            for entry in list(entries)[:-1]:
                if entry.end <= start and not (entry.end == start == entry.start and end > start):
                    keep.append(entry)
                elif entry.start >= end:
                    entry.start += delta
                    keep.append(entry)
                else:
                    changed = True  # overlapped: the recorded text is gone
            if changed:
                entries.clear()
                entries.extend(keep)
                if last is not None:
                    entries.append(last)

        if last is not None and start <= last.end and end >= last.start and self._merges(last, start, old, new):
            self._merge(last, start, end, old, new, version)
            return
        if last is not None:
            if last.end <= start:
                pass
            elif last.start >= end:
                last.start += delta
            else:  # overlaps but does not merge: cannot happen, be safe
                entries.pop()
        entries.append(_Entry(next(_SEQ), version, start, old, new))
        while len(entries) > self.bound:
            entries.popleft()

    def _track_typed_and_deleted(self, start: int, old: str, new: str) -> None:
        """Keep the typed spans and deleted texts up to date (O(spans))."""
        s, old_core, ins = _trim(start, old, new)
        e = s + len(old_core)
        delta = len(ins) - len(old_core)
        self._age += 1
        spans: list[list[int]] = []
        for a, b, age in self._typed:
            if b <= s:
                spans.append([a, b, age])
            elif a >= e:
                spans.append([a + delta, b + delta, age])
            else:
                if a < s:
                    spans.append([a, s, age])
                if b > e:
                    spans.append([s + len(ins), b + delta, age])
        if ins:
            spans.append([s, s + len(ins), self._age])
            spans.sort()
        # touching spans become one (typing forward, a deletion inside a span)
        merged: list[list[int]] = []
        for span in spans:
            if merged and span[0] <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], span[1])
                merged[-1][2] = max(merged[-1][2], span[2])
            else:
                merged.append(span)
        spans = merged
        if len(spans) > _TYPED_SPANS_LIMIT:
            cutoff = sorted(span[2] for span in spans)[len(spans) - _TYPED_SPANS_LIMIT * 3 // 4]
            spans = [span for span in spans if span[2] >= cutoff]
        self._typed = spans
        removed = old_core.strip()
        if removed:
            self._deleted.pop(removed, None)
            self._deleted[removed] = None
            if len(self._deleted) > _DELETED_LIMIT:
                del self._deleted[next(iter(self._deleted))]

    def typed_spans(self) -> list[tuple[int, int]]:
        """Current-text ``[start, end)`` spans of text the developer typed this session."""
        return [(a, b) for a, b, _ in self._typed]

    def was_deleted(self, text: str) -> bool:
        """Whether the developer deleted exactly ``text`` (whitespace-stripped) this session."""
        stripped = text.strip()
        return bool(stripped) and stripped in self._deleted

    @staticmethod
    def _merges(last: _Entry, start: int, old: str, new: str) -> bool:
        """Whether a raw change touching ``last`` continues it."""
        if (
            not old
            and start == last.end
            and last.old
            and last.new
            and new
            and not is_word_char(new[0])
            and is_word_char(last.new[-1])
        ):
            # `foo`→`bar` then typing `(`: the replacement is finished
            return False
        return True

    def _merge(self, last: _Entry, start: int, end: int, old: str, new: str, version: int) -> None:
        ls, le = last.start, last.end
        pre = old[: ls - start] if start < ls else ""
        post = old[len(old) - (end - le) :] if end > le else ""
        lo = min(ls, start)
        current = pre + last.new + post  # text[lo:hi] before this raw change
        combined_old = pre + last.old + post
        combined_new = current[: start - lo] + new + current[end - lo :]
        if combined_old == combined_new:
            self._entries.pop()  # typed then deleted: nothing happened
            return
        # kept untrimmed: the span stays where the keystrokes are (trimming
        # "count"→"t" to a deletion of "coun" would move it away from the caret)
        last.start, last.old, last.new = lo, combined_old, combined_new
        last.version = version
        last.keystrokes += 1

    # -- snapshots -----------------------------------------------------------

    def snapshot(self, document: Document | None) -> EditHistory:
        """This history as of now, for a reader on another thread, read
        against ``document`` — a snapshot of this history's document at the
        same version. O(bound): the entries and the
        reversal guard are copied (every mutable field must be, here);
        descriptions already worked out are shared."""
        snap = copy.copy(self)
        snap._entries = deque(entry.copy() for entry in self._entries)
        snap._typed = [span[:] for span in self._typed]
        snap._deleted = dict(self._deleted)
        if self._document is not None:
            snap._document = document
        return snap

    def adopt(self, snapshot: EditHistory) -> bool:
        """Keep the descriptions a reader of ``snapshot`` (taken from this
        history) worked out: as the answer if nothing was recorded since,
        else as a basis for the next descriptions (they are checked before
        any reuse). Returns whether the answer was kept."""
        if snapshot._basis is not self._basis:
            self._basis = snapshot._basis
        described = snapshot._described
        if described is None or self._described is not None or described[0] != self._key():
            return False
        self._described = described
        return True

    # -- reading -----------------------------------------------------------

    def edits(self) -> list[DeveloperEdit]:
        """Developer edits, oldest first, in offsets of the current text."""
        key = self._key()
        if self._described is not None and self._described[0] == key:
            return list(self._described[1])
        previous = self._basis if self._document is not None else {}
        text = self._document.text if self._document is not None else ""
        basis: dict[int, _Described] = {}
        out = []
        for entry in self._entries:
            known = previous.get(entry.seq)
            if known is not None and (edit := known.restated(entry, text)) is not None:
                if edit is not known.edit:  # moved: what it read is now further on
                    known = _Described(entry, known.prev_char, known.next_char, edit)
            else:
                edit, known = self._describe(entry)
            out.append(edit)
            if known is not None:
                basis[entry.seq] = known
        self._basis = basis
        self._described = (key, out)
        return list(out)

    def _key(self) -> tuple[int, int]:
        """What the descriptions depend on: the entries' revision and the document's version."""
        return self._revision, self._document.version if self._document is not None else 0

    def newest_seq(self) -> int:
        """The ``seq`` of the newest developer edit (0: none), without describing any."""
        return max((entry.seq for entry in self._entries), default=0)

    def last(self) -> DeveloperEdit | None:
        """The most recent developer edit, or ``None``."""
        if not self._entries:
            return None
        return self.edits()[-1]

    def _describe(self, entry: _Entry) -> tuple[DeveloperEdit, _Described | None]:
        """``entry`` described from the document, and what the description read
        (``None``: it read no lines)."""
        document = self._document
        start, entry_old, entry_new = _trim(entry.start, entry.old, entry.new)
        end = start + len(entry_new)

        def described(**context: Any) -> DeveloperEdit:
            return DeveloperEdit(
                uri=self.uri,
                seq=entry.seq,
                version=entry.version,
                start_cp=start,
                old_text=entry_old,
                new_text=entry_new,
                keystrokes=entry.keystrokes,
                **context,
            )

        if document is None or end > len(document.text):
            return described(), None
        text = document.text
        first = document.line_of(start)
        last_line = document.line_of(end)
        lines_start = document.line_start(first)
        lines_end = document.line_end(last_line)
        if lines_end < end:  # the edit ends with a line break
            lines_end = end
        after = text[lines_start:lines_end]
        before = text[lines_start:start] + entry_old + text[end:lines_end]

        old_token = new_token = token_start = None
        if all(is_word_char(c) for c in entry_new) and all(is_word_char(c) for c in entry_old):
            tok_start = start
            while tok_start > lines_start and is_word_char(text[tok_start - 1]):
                tok_start -= 1
            tok_end = end
            while tok_end < lines_end and is_word_char(text[tok_end]):
                tok_end += 1
            new_tok = text[tok_start:tok_end]
            old_tok = text[tok_start:start] + entry_old + text[end:tok_end]
            if (not new_tok or is_identifier(new_tok)) and (not old_tok or is_identifier(old_tok)):
                old_token, new_token, token_start = old_tok, new_tok, tok_start

        edit = described(
            before_lines=before,
            after_lines=after,
            lines_start_cp=lines_start,
            old_token=old_token,
            new_token=new_token,
            token_start_cp=token_start,
        )
        prev_char = text[lines_start - 1] if lines_start else ""
        return edit, _Described(entry, prev_char, text[lines_end : lines_end + 1], edit)
