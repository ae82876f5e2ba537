"""One document's syntax tree, kept up to date incrementally.

Owns a ``tree_sitter.Tree`` for one document and its incremental re-parse:
each applied text edit is replayed on the tree with ``Tree.edit`` and the new
bytes are parsed against the old tree.

The re-parse is *deferred* until someone reads the tree: a keystroke only
records ``Tree.edit`` (O(depth)), and a burst of typing between two
suggestions costs one incremental re-parse, paid by the first reader — and
only by a request that reads syntax at all. This matters because an
incremental re-parse grows with the file for some grammars: at 100k lines a
one-character edit costs tree-sitter-python 50–200 ms (and, when the edit
leaves a syntax error, error recovery re-parses nearly everything:
~250–500 ms), tree-sitter-rust ~20 ms.

When everything edited since the last parse lies inside one identifier
that still reads as an identifier of the same lexical class (a rename typed
in place), the syntax cannot have changed: the new tree is the old one with
that token's offsets moved (``Tree.edit``), no re-parse
(:meth:`SyntaxTree._token_swap`). The token's new text is checked against
the grammar: not one of its keywords, bare-parsed to the same leaf type as
the old text, not glued to a neighbouring word, in a tree free of errors
(error recovery weighs skipped bytes, so lengths could matter there).
``tests/test_syntax_props.py`` checks the result against a fresh parse. (A
moved tree still refers to the bytes it was parsed from — py-tree-sitter
keeps them for ``Node.text``, which nextedit never reads — so until the next
re-parse one older copy of the UTF-8 text stays alive.)

A suggestion is computed off the event loop: :meth:`SyntaxTree.snapshot`
hands a reader on another thread this version in O(1) (the pending re-parse
travels with a copy of the edited tree and is fed to tree-sitter in chunks,
so the loop keeps running), and :meth:`SyntaxTree.adopt` takes that re-parse
back when no edit came meanwhile.

Must not know about LSP/ACP, position encodings or documents: it receives the
new UTF-8 bytes and duck-typed edits carrying tree-sitter coordinates
(``start_byte, old_end_byte, new_end_byte, start_point, old_end_point,
new_end_point``, points being ``(row, byte_column)``) — exactly the fields of
``nextedit.text.AppliedEdit``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

import tree_sitter

from nextedit.syntax.attribute_macros import (
    BLANKED_LANGUAGES,
    Blank,
    Region,
    Span,
    add_edit,
    blanked,
    read_blanked,
    reblank,
)
from nextedit.syntax.languages import get_language, get_parser
from nextedit.syntax.query_analysis import identifier_node_types, warm_up
from nextedit.text.lexical import KEYWORD_KIND_RE, WORD_BYTES

__all__ = ["ByteEdit", "ParseHalted", "SyntaxSnapshot", "SyntaxTree", "TreeEdit"]


class ParseHalted(Exception):
    """A snapshot's parse was stopped by its ``halt`` check (:meth:`SyntaxSnapshot.parse_ahead`)."""


class TreeEdit(Protocol):
    """What :meth:`SyntaxTree.apply_edit` reads from an edit."""

    @property
    def start_byte(self) -> int: ...
    @property
    def old_end_byte(self) -> int: ...
    @property
    def new_end_byte(self) -> int: ...
    @property
    def start_point(self) -> tuple[int, int]: ...
    @property
    def old_end_point(self) -> tuple[int, int]: ...
    @property
    def new_end_point(self) -> tuple[int, int]: ...


# ``(blanks, regions)``: a text's blanks and the lines blanked anew (:mod:`.attribute_macros`)
_Blanking = tuple[tuple[Blank, ...], list[Region]]


def _reader(source: bytes, blanks: tuple[Blank, ...] | None) -> Callable[[int, tuple[int, int]], bytes]:
    """A tree-sitter read callback over ``source``, ``blanks`` read as
    spaces, :data:`_CHUNK` bytes at a time."""
    if not blanks:
        return lambda offset, _point: source[offset : offset + _CHUNK]
    return lambda offset, _point: read_blanked(source, blanks, offset, offset + _CHUNK)


def _input(source: bytes, blanks: tuple[Blank, ...] | None) -> bytes | Callable[[int, tuple[int, int]], bytes]:
    """What ``Parser.parse`` is given for ``source``: the bytes, or a read
    callback that turns ``blanks`` to spaces."""
    return source if not blanks else _reader(source, blanks)


class SyntaxTree:
    """A parsed document: ``.tree``, ``.root``, ``.language``.

    ``apply_edit`` never mutates a tree handed out earlier: it edits a copy
    (copying is O(1); editing is O(depth)), so a reader still holding the
    previous ``.tree`` keeps a consistent view of the previous version.
    """

    __slots__ = (
        "_language",
        "_tree",
        "_tree_source",
        "_source_len",
        "_memo",
        "_pending",
        "_prefix",
        "_suffix",
        "_structure",
        "_stale",
        "_base",
        "_ahead",
        "_unused_aheads",
        "_blanks",
        "_spans",
        "_next",
    )

    def __init__(self, language: str, tree: tree_sitter.Tree, source_len: int, source: bytes | None = None) -> None:
        self._language = language
        self._tree = tree
        self._tree_source = source  # the bytes ``_tree`` describes, when known
        self._source_len = source_len  # length of the newest source
        self._memo: dict[object, object] = {}
        # (edited copy of the last parsed tree, newest source) awaiting a re-parse
        self._pending: tuple[tree_sitter.Tree, bytes] | None = None
        # bytes unchanged at the start / end of the text since ``_tree``
        self._prefix = self._suffix = source_len
        # identifies the node structure of ``_tree``: new at every parse, kept
        # where the structure provably stays (a token swap, moved offsets)
        self._structure = object()
        # once the pending edits are parsed: the edited tree they were parsed
        # from (the previous parse, offsets moved), still what ``stale_root``
        # reads until the next edit
        self._stale: tree_sitter.Tree | None = None
        # a re-open's first parse pending (:meth:`reopen`): the text of ``_tree``,
        # which the first reader diffs against the newest source to edit the
        # tree; meanwhile no stale view, no token swap
        self._base: bytes | None = None
        # the pending re-parse, done ahead of its reader (:meth:`SyntaxSnapshot.parse_ahead`)
        # and held until a reader takes it in place of its own parse; dropped by any edit
        self._ahead: tree_sitter.Tree | None = None
        # held parses ahead dropped unread since a reader last had to parse for itself
        self._unused_aheads = 0
        # C and C++: the spans of ``_tree_source`` that tree-sitter read as
        # spaces for ``_tree`` (its attribute-like macros, :mod:`.attribute_macros`);
        # None for other grammars (they read ``_tree_source`` as it is)
        self._blanks: tuple[Blank, ...] | None = None
        # C and C++: the spans of the newest text that edits wrote since ``_tree``
        # (what :func:`~.attribute_macros.reblank` blanks anew)
        self._spans: tuple[Span, ...] = ()
        # ``(pending source, spans, _next_blanks's answer)``: asked by the parse check, exact_outside and the reader
        self._next: tuple[bytes, tuple[Span, ...], _Blanking] | None = None

    @classmethod
    def parse(cls, language: str, source: bytes) -> SyntaxTree:
        """Parse ``source`` (UTF-8) with the bundled ``language`` grammar."""
        blanks = tuple(blanked(source)) if language in BLANKED_LANGUAGES else None
        tree = get_parser(language).parse(_input(source, blanks))
        warm_up(language)  # the first document of a language: its queries compile now, not at its first suggest
        syntax = cls(language, tree, len(source), source)
        syntax._blanks = blanks
        return syntax

    @classmethod
    def parse_later(cls, language: str, source: bytes) -> SyntaxTree:
        """The tree of ``source`` with its parse deferred to its first reader.

        An empty tree edited to span ``source``: the deferred re-parse then
        parses all of it (tree-sitter reuses nothing of an empty tree: the same
        tree as a fresh parse, in about the same time).
        """
        syntax = cls.parse(language, b"")
        if source:
            rows = source.count(b"\n")
            column = len(source) - source.rfind(b"\n") - 1
            syntax.apply_edits((ByteEdit(0, 0, len(source), (0, 0), (0, 0), (rows, column)),), source)
        return syntax

    @classmethod
    def reopen(
        cls,
        language: str,
        tree: tree_sitter.Tree,
        old_source: bytes,
        source: bytes,
        old_blanks: tuple[Blank, ...] | None = None,
    ) -> SyntaxTree:
        """The tree of ``source``, reached from ``tree`` (the tree of
        ``old_source``, never mutated here; ``old_blanks``: the spans of it
        tree-sitter read as spaces, :meth:`parsed_blanks`): the same text takes ``tree`` as
        it is; another one is deferred to the first reader, which edits a
        copy of ``tree`` by the line diff from ``old_source`` to the newest
        text (:func:`~nextedit.syntax.line_diff.line_edits`: edits applied
        meanwhile need no ``Tree.edit`` of their own) and re-parses it
        incrementally — around the changed lines only (for C and C++ the
        changed lines are blanked anew). The diff and the
        parse are both the reader's, so a front end's parse ahead does them
        off its loop. Until then it reads like :meth:`parse_later`'s tree:
        nothing stale, no token swap, so answers are those of a document
        opened fresh."""
        syntax = cls(language, tree, len(old_source), old_source)
        syntax._blanks = old_blanks
        if source != old_source:
            syntax._pending = (tree, source)
            syntax._source_len = len(source)
            syntax._base = old_source
        return syntax

    def parsed(self) -> tuple[tree_sitter.Tree, bytes] | None:
        """The last parse and the bytes it describes (never edited: safe to
        keep); ``None`` before the first parse of a non-empty text."""
        if not self._tree_source:
            return None
        return self._tree, self._tree_source

    def parsed_blanks(self) -> tuple[Blank, ...] | None:
        """The spans of :meth:`parsed`'s text that tree-sitter read as spaces
        (C and C++, :mod:`.attribute_macros`); ``None`` for a grammar that
        reads texts as they are."""
        return self._blanks

    @property
    def language(self) -> str:
        return self._language

    @property
    def tree(self) -> tree_sitter.Tree:
        """The tree of the newest source (re-parsing now if edits are pending)."""
        if self._pending is not None:
            edited, source = self._pending
            if self._base is not None:  # a re-open: the kept tree edited by the line diff, then parsed
                edited, found = self._reopened(edited, self._base, source)
                swapped = None
            else:
                found = self._next_blanks(source)
                swapped = self._token_swap(source)
            if swapped is None:
                if self._ahead is not None:
                    swapped = self._ahead
                else:  # a halted parse (ParseHalted) leaves it pending
                    swapped = self._parse_pending(source, found, edited)
                    self._unused_aheads = 0  # a parse ahead would have served this reader
                self._structure = object()
            self._blanks = None if found is None else found[0]
            self._next = None
            self._pending = None
            self._ahead = None
            # nothing stale before a document's first parse, nor after a re-open's
            self._stale = edited if self._keeps_stale_view else None
            self._base = None
            self._tree = swapped
            self._tree_source = source
            self._prefix = self._suffix = len(source)
            self._spans = ()
        return self._tree

    def _parse(self, source: bytes, blanks: tuple[Blank, ...] | None, old: tree_sitter.Tree) -> tree_sitter.Tree:
        return get_parser(self._language).parse(_input(source, blanks), old)

    def _parse_pending(self, source: bytes, found: _Blanking | None, edited: tree_sitter.Tree) -> tree_sitter.Tree:
        """Parse ``source`` from ``edited`` (the last tree, edited to span it)
        with its blanking ``found`` (``None``: a grammar that reads texts as
        they are). The lines blanked anew are marked edited in ``edited``
        first (``Tree.edit`` with no change in length): blanking may differ
        there beyond the edits themselves, and tree-sitter must read them
        again."""
        if found is None:
            return self._parse(source, None, edited)
        _mark_edited(edited, source, found[1])
        return self._parse(source, found[0], edited)

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node

    @property
    def structure(self) -> object:
        """An opaque token of the current tree's node structure (types,
        nesting, fields — not offsets): two trees with the same token have
        the same nodes, so over the same bytes any question about them has
        the same answer. A new token at every re-parse; kept by a token swap
        (:meth:`_token_swap`) and by :meth:`with_offsets_moved`."""
        self.tree  # noqa: B018 - the pending re-parse decides
        return self._structure

    @property
    def stale_root(self) -> tree_sitter.Node:
        """The root as of the last parse before the newest edits, its offsets
        moved by those edits (``Tree.edit``) but not re-parsed: free to read,
        exact away from the edits, stale around them. For questions about
        the text *far* from the edits (what a distant site sits in), at no
        re-parse. It stays the same tree once a reader has re-parsed, until
        the next edit: an answer read from it does not depend on whether
        another reader parsed first. A document not parsed yet (its first
        parse deferred, :meth:`parse_later`) has nothing stale to read: the
        real root then."""
        if self._pending is None:
            return (self._stale if self._stale is not None else self._tree).root_node
        if self._base is not None or (not self._tree_source and self._source_len):
            return self.tree.root_node
        return self._pending[0].root_node

    @property
    def reparse_pending(self) -> bool:
        """Whether edits await the re-parse that the next reader of ``tree`` pays."""
        return self._pending is not None

    @property
    def parse_wanted(self) -> bool:
        """Whether the next reader of ``tree`` would run tree-sitter: edits
        await a re-parse that no token swap serves and that no parse ahead
        has done already (what a front end's parse ahead is for)."""
        if self._pending is None or self._ahead is not None:
            return False
        if not self._keeps_stale_view:  # a first parse or a re-open's: no token swap serves it
            return True
        return self._token_swap(self._pending[1]) is None

    @property
    def unused_parses_ahead(self) -> int:
        """How many parses ahead in a row a later edit dropped before any
        reader took them, since a reader last had to parse for itself: a
        front end waits longer before the next one (keystrokes slower than
        its delay, and no suggest between them, would each pay a parse)."""
        return self._unused_aheads

    def _drop_ahead(self) -> None:
        if self._ahead is not None:
            self._ahead = None
            self._unused_aheads += 1

    @property
    def _keeps_stale_view(self) -> bool:
        """Whether a parse now would change what :attr:`stale_root` reads
        after the next edit: the pending edits follow a parse of a non-empty
        text (not a first parse, not a re-open, which have no stale view)."""
        return bool(self._tree_source) and self._base is None

    def apply_edit(self, edit: TreeEdit, new_source: bytes) -> None:
        """Apply one edit (already applied to the text); re-parse on next read."""
        self.apply_edits((edit,), new_source)

    def apply_edits(self, edits: Iterable[TreeEdit], new_source: bytes) -> None:
        """Apply several edits, each in the coordinates of the text left by the
        previous one (LSP ``didChange`` order); one re-parse on the next read."""
        edits = list(edits)
        if self._base is not None and self._pending is not None and edits:
            # a re-open not parsed yet: the first reader's line diff covers these edits too
            self._pending = (self._pending[0], new_source)
            self._source_len = len(new_source)
            self._memo = {}
            self._drop_ahead()
            return
        old = self._pending[0] if self._pending is not None else self._tree.copy()
        if not _edit_tree(old, edits):
            self.reparse(new_source)
            return
        size = self._source_len
        blanks_spans = self._language in BLANKED_LANGUAGES
        for edit in edits:  # what stayed put at both ends, in the coordinates of each edit
            self._prefix = min(self._prefix, edit.start_byte)
            self._suffix = min(self._suffix, size - edit.old_end_byte)
            size += edit.new_end_byte - edit.old_end_byte
            if blanks_spans:  # and, for C and C++, what each edit wrote
                rows = edit.new_end_point[0] - edit.old_end_point[0]
                self._spans = add_edit(
                    self._spans, edit.start_byte, edit.old_end_byte, edit.new_end_byte, edit.start_point[0], rows
                )
        self._pending = (old, new_source)
        self._stale = None
        self._drop_ahead()
        self._source_len = len(new_source)
        self._memo = {}

    def with_offsets_moved(self, edits: Iterable[TreeEdit], source_len: int) -> SyntaxTree:
        """A copy whose node offsets follow ``edits`` *without* re-parsing.

        Valid only when the edits keep the syntax (e.g. one identifier swapped
        for another): then the result is the tree of the edited text, at the
        cost of ``Tree.edit`` instead of a re-parse.
        """
        moved = self.tree.copy()
        _edit_tree(moved, edits)
        out = SyntaxTree(self._language, moved, source_len)
        out._structure = self._structure
        return out

    def exact_outside(self, lo: int, hi: int) -> SyntaxTree:
        """A tree of the newest text that is exact outside ``[lo, hi)`` (byte
        offsets of the newest text), at no re-parse when it can be had: the
        last parse, offsets moved, when every edit since lies within that
        span; else this tree (re-parsed by its first reader).

        For a reader that asks about the text away from a span it reads as
        text (a parameter list, then every call of the function): tree-sitter's
        incremental re-parse can cost a large share of a full parse whatever
        the edit (tens of ms at 100k lines of Python). Nodes overlapping the
        span are stale: their offsets are moved, their children are the old
        ones. An answer read from either tree outside the span is the same.
        """
        if self._pending is None or self._base is not None or not self._tree_source:
            return self
        if not (lo <= self._prefix and self._source_len - self._suffix <= hi):
            return self
        if self._blanks is not None and not self._reads_as_before(self._pending[1], lo, hi):
            return self
        # a copy (O(1)): later edits move the pending tree's offsets in place
        return SyntaxTree(self._language, self._pending[0].copy(), self._source_len)

    def _reopened(self, kept: tree_sitter.Tree, old: bytes, source: bytes) -> tuple[tree_sitter.Tree, _Blanking | None]:
        """A re-open's tree to re-parse (a copy of ``kept``, the tree of
        ``old``, edited by the line diff to ``source``) and the blanking of
        ``source``: its diff hunks blanked anew (``None``: a grammar that
        reads texts as they are)."""
        from nextedit.syntax.line_diff import line_edits  # it builds ByteEdits: imported here, not in a cycle

        edits = line_edits(old, source)
        edited = kept.copy()
        _edit_tree(edited, edits)
        if self._language not in BLANKED_LANGUAGES:
            return edited, None
        assert self._blanks is not None, "a C or C++ tree kept without its blanks"
        return edited, reblank(self._blanks, source, _written(edits))

    def _next_blanks(self, source: bytes) -> _Blanking | None:
        """``(blanks, regions)``: the blanks of the pending ``source``, and
        the whole lines where they may differ from the last parse's beyond
        the edits (none for a whole text blanked anew); ``None`` for a
        grammar that reads texts as they are."""
        if self._language not in BLANKED_LANGUAGES:
            return None
        memo = self._next
        if memo is not None and memo[0] is source and memo[1] is self._spans:
            return memo[2]
        old = self._blanks
        found: _Blanking
        if old is None or not self._tree_source:  # a first parse
            found = (tuple(blanked(source)), [])
        else:
            found = reblank(old, source, self._spans)
        self._next = (source, self._spans, found)
        return found

    def _reads_as_before(self, source: bytes, lo: int, hi: int, new: bytes | None = None) -> bool:
        """Whether tree-sitter would read the pending ``source`` as it read
        the last text outside ``[lo, hi)`` (offsets of ``source``, holding
        every edit since), and, when ``new`` is given, ``new`` itself there:
        the lines blanked anew compared, nothing else changes."""
        found = self._next_blanks(source)
        old, old_blanks = self._tree_source, self._blanks
        if found is None or old is None or old_blanks is None:
            return False
        blanks, found_regions = found
        if not found_regions:
            return False
        start, end = min(lo, found_regions[0].start), max(hi, found_regions[-1].end)
        delta = len(source) - len(old)
        now = read_blanked(source, blanks, start, end)
        before = read_blanked(old, old_blanks, start, end - delta)
        if new is not None and now[lo - start : hi - start] != new:
            return False  # the new text is blanked, in part
        return now[: lo - start] == before[: lo - start] and now[hi - start :] == before[hi - delta - start :]

    def reparse(self, source: bytes) -> None:
        """Full re-parse (for a whole-document replacement)."""
        self._pending = None
        self._blanks = tuple(blanked(source)) if self._language in BLANKED_LANGUAGES else None
        self._tree = get_parser(self._language).parse(_input(source, self._blanks))
        self._tree_source = source
        self._source_len = self._prefix = self._suffix = len(source)
        self._spans = ()
        self._memo = {}
        self._structure = object()
        self._stale = None
        self._base = None
        self._ahead = None

    def _token_swap(self, source: bytes) -> tree_sitter.Tree | None:
        """The tree of ``source`` without a re-parse when every change since
        ``_tree`` lies inside one identifier and leaves an identifier of the
        same lexical class (see the module docstring), and tree-sitter would
        read the rest as before (C and C++: no macro blanked or unblanked
        around it); else ``None``."""
        old_source = self._tree_source
        old_root = self._tree.root_node
        if old_source is None or old_root.has_error:
            return None
        start, old_end = self._prefix, len(old_source) - self._suffix
        delta = len(source) - len(old_source)
        node = _identifier_leaf(self._language, old_root, start, old_end)
        if node is None:
            return None
        new_end = node.end_byte + delta
        new_text = source[node.start_byte : new_end]
        if not new_text or b"\n" in new_text or b"\r" in new_text:
            return None
        if (node.start_byte > 0 and source[node.start_byte - 1] in WORD_BYTES) or (
            new_end < len(source) and source[new_end] in WORD_BYTES
        ):
            return None  # glued to a neighbouring word: the tokens would change
        old_text = old_source[node.start_byte : node.end_byte]
        if not _same_token_class(self._language, node, old_text, new_text):
            return None
        if self._blanks is not None and not self._reads_as_before(source, node.start_byte, new_end, new_text):
            return None  # the name changes which macros are blanked around it
        moved = self._tree.copy()
        row, column = node.start_point
        moved.edit(
            start_byte=node.start_byte,
            old_end_byte=node.end_byte,
            new_end_byte=new_end,
            start_point=(row, column),
            old_end_point=(row, column + len(old_text)),
            new_end_point=(row, column + len(new_text)),
        )
        return moved

    @property
    def memo(self) -> dict[object, object]:
        """Scratch cache for derived data of the *current* tree (syntax
        helpers only); emptied by every edit and re-parse."""
        return self._memo

    def __repr__(self) -> str:
        return f"SyntaxTree({self._language!r}, {self._source_len} bytes)"

    # -- snapshots -----------------------------------------------------------

    def snapshot(self) -> SyntaxSnapshot:
        """This version for a reader on another thread, in O(1).

        Shares the parsed tree (never edited once parsed) and its memo; a
        pending re-parse goes with a copy of the edited tree, so the reader
        parses on its own thread and the edits this tree takes meanwhile do
        not reach it. :meth:`adopt` takes the reader's parse back.
        """
        snap = SyntaxSnapshot(self._language, self._tree, self._source_len, self._tree_source)
        snap._prefix, snap._suffix = self._prefix, self._suffix
        snap._spans = self._spans
        snap._structure = self._structure
        snap._stale = self._stale
        snap._base = self._base
        snap._ahead = self._ahead
        snap._unused_aheads = self._unused_aheads
        snap._blanks = self._blanks
        snap._next = self._next  # the pending text's blanking, if the parse check worked it out
        snap._origin = self._pending
        snap._halt = None
        if self._pending is None:
            snap._memo = self._memo
        else:
            edited, source = self._pending
            snap._pending = (edited.copy(), source)
        return snap

    def adopt(self, snapshot: SyntaxTree) -> bool:
        """Take the re-parse a reader of ``snapshot`` (taken from this tree)
        made, or the parse it did ahead and holds for the next reader
        (:meth:`SyntaxSnapshot.parse_ahead`), if no edit came since;
        ``snapshot`` must not be read afterwards."""
        if not isinstance(snapshot, SyntaxSnapshot):
            return False
        if self._pending is None or snapshot._origin is not self._pending:
            return False
        if snapshot._pending is not None:
            if snapshot._ahead is None:
                return False
            self._ahead = snapshot._ahead
            self._next = snapshot._next  # the blanking that parse used, for the reader that takes it
            return True
        self._tree, self._tree_source, self._memo = snapshot._tree, snapshot._tree_source, snapshot._memo
        self._blanks = snapshot._blanks
        self._structure = snapshot._structure
        self._stale = snapshot._stale
        self._base = snapshot._base
        self._prefix, self._suffix = snapshot._prefix, snapshot._suffix
        self._spans = snapshot._spans
        self._pending = None
        self._next = None
        self._ahead = None
        self._unused_aheads = snapshot._unused_aheads
        return True


# bytes handed to tree-sitter per read callback when a snapshot re-parses
_CHUNK = 16 * 1024


class SyntaxSnapshot(SyntaxTree):
    """A :class:`SyntaxTree` frozen at one version (:meth:`SyntaxTree.snapshot`)."""

    __slots__ = ("_origin", "_halt")
    # the pending re-parse of the tree this snapshot was taken from
    _origin: tuple[tree_sitter.Tree, bytes] | None
    # while :meth:`parse_ahead` runs: asked during the parse, True stops it
    _halt: Callable[[], bool] | None

    def apply_edits(self, edits: Iterable[TreeEdit], new_source: bytes) -> None:
        raise TypeError("a syntax snapshot does not change")

    def parse_ahead(self, halt: Callable[[], bool]) -> bool:
        """Do the pending re-parse now, ahead of any reader (a document just
        opened, or edited, parsed while the editor is idle), stopping early
        once ``halt()`` says the result is no longer wanted. True when the
        tree is parsed (:meth:`SyntaxTree.adopt` can take it); False when
        halted — the parse is then still pending and nothing of it is kept.

        A document's first parse (or a re-open's) is done as its reader
        would do it. A re-parse after edits is *held*: the reader that comes
        next takes it in place of its own ``Parser.parse`` and everything
        else happens as if it had parsed itself — the token swap first, the
        stale view (:attr:`stale_root`) of the parse before. A further edit
        drops it. So which parse the stale view starts from depends on the
        readers only, never on whether a parse ran ahead, and no answer
        depends on it either."""
        self._halt = halt
        try:
            if self._pending is not None and self._ahead is None and self._keeps_stale_view:
                edited, source = self._pending
                self._ahead = self._parse_pending(source, self._next_blanks(source), edited)
            else:
                self.tree  # noqa: B018 - the read is the parse
        except ParseHalted:
            return False
        finally:
            self._halt = None
        return True

    def _parse(self, source: bytes, blanks: tuple[Blank, ...] | None, old: tree_sitter.Tree) -> tree_sitter.Tree:
        """The same parse, fed in chunks: ``Parser.parse`` holds the GIL for the
        whole parse, a read callback lets the thread that owns the live tree
        run between chunks (a 3 MB re-parse no longer stalls it for a second)."""
        read = _reader(source, blanks)
        parser = get_parser(self._language)
        halt = self._halt
        if halt is None:
            return parser.parse(read, old)
        try:
            return parser.parse(read, old, progress_callback=lambda _offset, _has_error: halt())
        except ValueError:
            if not halt():
                raise
            # a halted tree-sitter parse resumes at the parser's next parse
            # (of whatever text) unless the parser is reset
            parser.reset()
            raise ParseHalted from None

    def reparse(self, source: bytes) -> None:
        raise TypeError("a syntax snapshot does not change")


@dataclass(frozen=True, slots=True)
class ByteEdit:
    """A :class:`TreeEdit` and nothing else: the fields ``Tree.edit`` reads."""

    start_byte: int
    old_end_byte: int
    new_end_byte: int
    start_point: tuple[int, int]
    old_end_point: tuple[int, int]
    new_end_point: tuple[int, int]


def _edit_tree(tree: tree_sitter.Tree, edits: Iterable[TreeEdit]) -> bool:
    """Replay ``edits`` on ``tree`` with ``Tree.edit``; False when there were none."""
    any_edit = False
    for edit in edits:
        tree.edit(
            start_byte=edit.start_byte,
            old_end_byte=edit.old_end_byte,
            new_end_byte=edit.new_end_byte,
            start_point=_point(edit.start_point),
            old_end_point=_point(edit.old_end_point),
            new_end_point=_point(edit.new_end_point),
        )
        any_edit = True
    return any_edit


def _written(edits: list[ByteEdit]) -> tuple[Span, ...]:
    """The spans of the new text that ``edits`` (in ``SyntaxTree.apply_edits``
    order, from the end of the text to its start, as ``line_edits`` gives
    them) wrote, from its start to its end."""
    spans = []
    shift = rows = 0  # bytes and line breaks the edits before this one added
    for edit in reversed(edits):
        growth = edit.new_end_byte - edit.old_end_byte
        spans.append(Span(edit.start_byte + shift, edit.new_end_byte + shift, growth, edit.start_point[0] + rows))
        shift += growth
        rows += edit.new_end_point[0] - edit.old_end_point[0]
    return tuple(spans)


def _mark_edited(tree: tree_sitter.Tree, source: bytes, found: list[Region]) -> None:
    """Tell ``tree`` (edited to span ``source``) that the lines of ``found``
    changed, with no change in length: blanking may differ there beyond the
    edits themselves, and tree-sitter must read them again."""
    for region in found:
        end = region.end
        rows = source.count(b"\n", region.start, end)
        last_break = source.rfind(b"\n", region.start, end)
        end_point = (region.row + rows, end - (last_break + 1 if last_break >= 0 else region.start))
        tree.edit(
            start_byte=region.start,
            old_end_byte=end,
            new_end_byte=end,
            start_point=(region.row, 0),
            old_end_point=end_point,
            new_end_point=end_point,
        )


def _identifier_leaf(language: str, root: tree_sitter.Node, start: int, end: int) -> tree_sitter.Node | None:
    """The identifier leaf of ``root`` holding ``[start, end]`` (ends included)."""
    types = identifier_node_types(language)
    spans = [(start, end)] if end > start else [(start, start + 1), (start - 1, start)]
    for lo, hi in spans:
        if lo < 0:
            continue
        node = root.descendant_for_byte_range(lo, hi)
        if (
            node is not None
            and node.child_count == 0
            and node.type in types
            and not node.is_missing
            and node.start_byte <= start
            and end <= node.end_byte
        ):
            return node
    return None


@functools.cache
def _keywords(language: str) -> frozenset[bytes]:
    """Every word-like literal token of the grammar (``if``, ``self``, ``u8``…)."""
    lang = get_language(language)
    out = set()
    for kind in range(lang.node_kind_count):
        name = lang.node_kind_for_id(kind)
        if (
            name
            and lang.node_kind_is_visible(kind)
            and not lang.node_kind_is_named(kind)
            and KEYWORD_KIND_RE.fullmatch(name)
        ):
            out.add(name.encode())
    return frozenset(out)


# Where a lone name stands, per language: ``(before, after)`` it — an
# expression, and where the grammar has tokens of its own for declared names
# (``mut`` in a Rust pattern, ``_`` in a Java declaration), a declaration.
# The lexical class of a name is read there (``True`` is no identifier in
# Python, ``self`` none in Rust, ``null`` none in Java). A language not
# listed here is always re-parsed.
_NAME_CONTEXTS: dict[str, tuple[tuple[bytes, bytes], ...]] = {
    "python": ((b"", b"\n"),),
    "javascript": ((b"", b";\n"),),
    "typescript": ((b"", b";\n"),),
    "tsx": ((b"", b";\n"),),
    "rust": ((b"fn f() { ", b"; }\n"), (b"fn f() { let ", b" = 0; }\n")),
    "go": ((b"package p\nvar _ = ", b"\n"),),
    "java": ((b"class C { Object o = ", b"; }\n"), (b"class C { void f() { int ", b" = 0; } }\n")),
    "c": ((b"int x = ", b";\n"),),
    "cpp": ((b"int x = ", b";\n"),),
}


@functools.lru_cache(maxsize=4096)
def _probe(language: str, text: bytes) -> tuple[str, frozenset[int]] | None:
    """``(grammar symbol, named tokens the lexer turned down)``: the symbol of
    the single leaf ``text`` parses to in every context of
    :data:`_NAME_CONTEXTS`, and the other named tokens valid there; ``None``
    when no context is known, or ``text`` is not one such leaf in each."""
    symbol: str | None = None
    passed: set[int] = set()
    for before, after in _NAME_CONTEXTS.get(language, ()):
        root = get_parser(language).parse(before + text + after).root_node
        if root.has_error:
            return None
        start, end = len(before), len(before) + len(text)
        node = root.descendant_for_byte_range(start, end)
        if node is None or node.child_count or node.start_byte != start or node.end_byte != end:
            return None
        if symbol is not None and node.grammar_name != symbol:
            return None
        symbol = node.grammar_name
        passed |= _named_tokens(language, node.parse_state)
    return (symbol, frozenset(passed)) if symbol is not None else None


@functools.cache
def _terminals(language: str) -> frozenset[int]:
    """The grammar's terminal symbols (every token is valid in the error state)."""
    lookahead = get_language(language).lookahead_iterator(0)
    return frozenset(lookahead.symbols()) if lookahead is not None else frozenset()


@functools.lru_cache(maxsize=4096)
def _named_tokens(language: str, state: int) -> frozenset[int]:
    """The named tokens the lexer may return in parse ``state``."""
    lang = get_language(language)
    lookahead = lang.lookahead_iterator(state)
    if lookahead is None:
        return frozenset()
    terminals = _terminals(language)
    return frozenset(s for s in lookahead.symbols() if s in terminals and lang.node_kind_is_named(s))


def _same_token_class(language: str, node: tree_sitter.Node, old: bytes, new: bytes) -> bool:
    """Whether ``new``, in place of the identifier leaf ``node`` (text
    ``old``), lexes as the same token. It must not be a keyword of the
    grammar; where a lone name stands it must lex as ``old`` does (as
    ``node``'s symbol); and every other named token the lexer may return at
    ``node`` must be one it could return there too, where ``new`` lost to
    that symbol (``u8`` is a primitive type only in a Rust type position:
    no shortcut there)."""
    if new in _keywords(language):
        return False
    was, now = _probe(language, old), _probe(language, new)
    if was is None or now is None or was[0] != now[0] or now[0] != node.grammar_name:
        return False
    return _named_tokens(language, node.parse_state) - {node.grammar_id} <= now[1]


def _point(point: tuple[int, int]) -> tuple[int, int]:
    """A ``(row, column)`` tuple, whatever sequence the edit holds it in."""
    return (point[0], point[1])
