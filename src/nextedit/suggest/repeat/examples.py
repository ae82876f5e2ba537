"""Repeated-edit examples: a developer edit widened to whole tokens, with its context window.

Owns :class:`EditExample` and :func:`example_from_edit`: the window of a few
lines around the edit, clipped to ``_WINDOW_CHARS`` on each side (its cost
is bounded by the edit, not by the line or file), the before and after
texts of that window and their tokens, and how many tokens the two share
before and after the change.

Must not know about rules, their acceptability or sites
(:mod:`nextedit.suggest.repeat.rules`, :mod:`nextedit.suggest.repeat.sites`),
nor LSP/ACP or position encodings.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from nextedit.frozen import evolve
from nextedit.suggest.repeat.model import PastEdit
from nextedit.suggest.repeat.text import glued
from nextedit.suggest.repeat.tokens import Tok, tokenize, tokenize_changed
from nextedit.text import common_affixes
from nextedit.text.lines import lines_back, lines_forward

# how many lines around an edit we look at for context
_WINDOW_LINES = 3
# limits to keep the cost bounded by the edit size
_MAX_EDIT_CHARS = 2000
# the context window never reaches further than this many chars from the edit
# (a 1 MB line is never tokenized whole)
_WINDOW_CHARS = 400


@dataclass(frozen=True)
class EditExample:
    """An edit widened to whole tokens, with token context from both texts.

    ``before``/``after`` are the window texts; ``b_toks``/``a_toks`` their
    tokens; ``p`` tokens are shared before the change, ``s`` after it;
    ``window_start`` is the window's offset in the current text.
    """

    edit: PastEdit
    window_start: int
    before: str
    after: str
    b_toks: list[Tok]
    a_toks: list[Tok]
    p: int
    s: int
    clipped: bool = False  # the window was cut short of whole lines
    # what the example is made of wherever it stands (:func:`relative_key`)
    key: tuple[object, ...] = field(default=(), compare=False, repr=False)

    @property
    def old_toks(self) -> list[Tok]:
        return self.b_toks[self.p : len(self.b_toks) - self.s]

    @property
    def new_toks(self) -> list[Tok]:
        return self.a_toks[self.p : len(self.a_toks) - self.s]


def example_from_edit(text: str, edit: PastEdit) -> EditExample | None:
    """Widen ``edit`` (already applied to ``text``) to tokens with context.

    The window is a few lines around the edit, clipped to ``_WINDOW_CHARS``
    on each side: its cost is bounded by the edit, not by the line or file.
    A token cut by a clipped window edge is dropped."""
    if len(edit.old) > _MAX_EDIT_CHARS or len(edit.new) > _MAX_EDIT_CHARS:
        return None
    if edit.new_end > len(text) or not text.startswith(edit.new, edit.start):
        return None
    pre, suf = common_affixes(edit.old, edit.new)
    if pre + suf >= len(edit.old) and pre + suf >= len(edit.new):
        return None  # no change
    ws = max(lines_back(text, edit.start, _WINDOW_LINES, edit.start - _WINDOW_CHARS), edit.start - _WINDOW_CHARS, 0)
    we = min(
        lines_forward(text, edit.new_end, _WINDOW_LINES, edit.new_end + _WINDOW_CHARS), edit.new_end + _WINDOW_CHARS
    )
    clip_left = ws > 0 and text[ws - 1] != "\n"
    clip_right = we < len(text) and text[we - 1] != "\n"
    after = text[ws:we]
    # the same edit in the same window (the developer typed elsewhere since,
    # perhaps above it, moving it): the example is the one worked out before,
    # moved to where the edit stands now
    key = relative_key(edit, ws, after, clip_left, clip_right)
    if key in _MEMO:
        _MEMO.move_to_end(key)
        known = _MEMO[key]
        return None if known is None else moved(known, edit, ws)
    example = _example(edit, ws, we, text, after, pre, suf, clip_left, clip_right, key)
    _MEMO[key] = example
    if len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return example


class ExampleMemory:
    """One document's examples of its recent edits, each kept with the text
    that made it: what :func:`example_from_edit` reads is the edit and the
    text from just before its window to just after it (the window's line
    walks stop at a newline, at ``_WINDOW_CHARS`` from the edit, or at the
    text's ends). The same edit (its seq and texts) where that text stands
    unchanged, shifted as a whole by an edit above, gives the same example,
    moved; anything else is worked out again. At most ``size`` edits, the
    least recently asked dropped first."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        # (seq, old, new) -> (edit start, region start, region text, chars after the edit's end, example)
        self._known: OrderedDict[tuple[int, str, str], tuple[int, int, str, int, EditExample | None]] = OrderedDict()

    def example(self, text: str, edit: PastEdit) -> EditExample | None:
        """:func:`example_from_edit` of ``edit`` in ``text``."""
        key = (edit.seq, edit.old, edit.new)
        known = self._known.get(key)
        if known is not None:
            start, lo, region, tail, example = known
            shift = edit.start - start
            if _stands(text, edit, shift, start, lo, region, tail):
                self._known.move_to_end(key)
                if example is None:
                    return None
                return moved(example, edit, example.window_start + shift)
        example = example_from_edit(text, edit)
        window = _window(text, edit)
        if window is not None:
            ws, we = window
            lo, hi = max(ws - 1, 0), min(we + 1, len(text))
            self._known[key] = (edit.start, lo, text[lo:hi], len(text) - edit.new_end, example)
            self._known.move_to_end(key)
            while len(self._known) > self._size:
                self._known.popitem(last=False)
        return example


def _stands(text: str, edit: PastEdit, shift: int, start: int, lo: int, region: str, tail: int) -> bool:
    """The text an example was made from stands ``shift`` characters further
    on around ``edit``, and so do the limits its window walks met: the
    start of the text or ``_WINDOW_CHARS`` before the edit, the end of the
    text or ``_WINDOW_CHARS`` after it."""
    if shift and not (start > _WINDOW_CHARS and edit.start > _WINDOW_CHARS):
        return False
    after = len(text) - edit.new_end
    if after != tail and not (tail > _WINDOW_CHARS and after > _WINDOW_CHARS):
        return False
    return lo + shift >= 0 and text.startswith(region, lo + shift)


def _window(text: str, edit: PastEdit) -> tuple[int, int] | None:
    """The window :func:`example_from_edit` reads around ``edit`` (None
    when it reads no window)."""
    if len(edit.old) > _MAX_EDIT_CHARS or len(edit.new) > _MAX_EDIT_CHARS:
        return None
    if edit.new_end > len(text) or not text.startswith(edit.new, edit.start):
        return None
    ws = max(lines_back(text, edit.start, _WINDOW_LINES, edit.start - _WINDOW_CHARS), edit.start - _WINDOW_CHARS, 0)
    we = min(
        lines_forward(text, edit.new_end, _WINDOW_LINES, edit.new_end + _WINDOW_CHARS), edit.new_end + _WINDOW_CHARS
    )
    return ws, we


def relative_key(edit: PastEdit, window_start: int, window: str, *clips: bool) -> tuple[object, ...]:
    """What an example is made of, wherever in the text it stands: the edit's
    texts, its offset in the window and the window's text. Two edits with the
    same key have the same example up to its position."""
    return (edit.old, edit.new, edit.start - window_start, window, *clips)


def moved(example: EditExample, edit: PastEdit, window_start: int) -> EditExample:
    """``example`` standing where ``edit`` (of the same relative key) stands;
    its tokens are window-relative and shared."""
    if example.edit == edit and example.window_start == window_start:
        return example
    # the position-free facts of the change (rules._example_info) go along
    return evolve(example, edit=edit, window_start=window_start)


# relative_key(edit, window start, window text, clipped left, clipped right) -> example
_MEMO: OrderedDict[tuple[object, ...], EditExample | None] = OrderedDict()
_MEMO_SIZE = 512


def _example(
    edit: PastEdit,
    ws: int,
    we: int,
    text: str,
    after: str,
    pre: int,
    suf: int,
    clip_left: bool,
    clip_right: bool,
    key: tuple[object, ...],
) -> EditExample | None:
    before = text[ws : edit.start] + edit.old + text[edit.new_end : we]
    # the changed char span, in window coordinates
    cs = edit.start - ws + pre
    b_ce = edit.start - ws + len(edit.old) - suf
    a_ce = edit.start - ws + len(edit.new) - suf
    b_toks = tokenize(before)
    # the two windows differ in the changed span alone: ``cs`` characters
    # before it and ``len(before) - b_ce`` after it are the same in both
    a_toks = tokenize_changed(after, b_toks, len(before), cs, len(before) - b_ce)
    if clip_left and b_toks and a_toks and b_toks[0].end < cs:
        b_toks, a_toks = b_toks[1:], a_toks[1:]
    if clip_right and b_toks and a_toks and b_toks[-1].start > b_ce and a_toks[-1].start > a_ce:
        b_toks, a_toks = b_toks[:-1], a_toks[:-1]
    # shared prefix: tokens ending at or before the change start (in both)
    p = 0
    while (
        p < len(b_toks)
        and p < len(a_toks)
        and b_toks[p].end <= cs
        and a_toks[p].end <= cs
        and not (b_toks[p].end == cs and b_ce > cs and glued(before, cs))
    ):
        p += 1
    # shared suffix: tokens starting at or after the change end
    s = 0
    while (
        s < len(b_toks) - p
        and s < len(a_toks) - p
        and b_toks[len(b_toks) - 1 - s].start >= b_ce
        and a_toks[len(a_toks) - 1 - s].start >= a_ce
    ):
        s += 1
    # a change strictly inside whitespace (no token touched) is formatting
    ex = EditExample(edit, ws, before, after, b_toks, a_toks, p, s, clip_left or clip_right, key)
    if [t.text for t in ex.old_toks] == [t.text for t in ex.new_toks]:
        return None
    return ex
