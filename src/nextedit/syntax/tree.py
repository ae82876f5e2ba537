"""One document's syntax tree, kept up to date incrementally.

Owns a ``tree_sitter.Tree`` for one document and its incremental re-parse:
each applied text edit is replayed on the tree with ``Tree.edit`` and the new
bytes are parsed against the old tree.

The re-parse is *deferred* until someone reads the tree: a keystroke only
records ``Tree.edit`` (O(depth)), and a burst of typing between two
suggestions costs one incremental re-parse, paid by the first reader. This
matters because some grammars reuse little on re-parse (tree-sitter-python
re-lexes much of a flat 5,000-line file for a one-character edit: ~8 ms,
against ~0.2 ms for Rust), and the engine reads the tree only to answer a
suggestion.

Must not know about LSP/ACP, position encodings or documents: it receives the
new UTF-8 bytes and duck-typed edits carrying tree-sitter coordinates
(``start_byte, old_end_byte, new_end_byte, start_point, old_end_point,
new_end_point``, points being ``(row, byte_column)``) — exactly the fields of
``nextedit.text.AppliedEdit``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import tree_sitter

from nextedit.syntax.languages import get_language, get_parser

__all__ = ["SyntaxSnapshot", "SyntaxTree", "TreeEdit"]


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


class SyntaxTree:
    """A parsed document: ``.tree``, ``.root``, ``.language``.

    ``apply_edit`` never mutates a tree handed out earlier: it edits a copy
    (copying is O(1); editing is O(depth)), so a reader still holding the
    previous ``.tree`` keeps a consistent view of the previous version.
    """

    __slots__ = ("_language", "_tree", "_source_len", "_edited_previous", "_memo", "_pending")

    def __init__(self, language: str, tree: tree_sitter.Tree, source_len: int) -> None:
        self._language = language
        self._tree = tree
        self._source_len = source_len
        self._edited_previous: tree_sitter.Tree | None = None
        self._memo: dict[object, object] = {}
        # (edited copy of the last parsed tree, newest source) awaiting a re-parse
        self._pending: tuple[tree_sitter.Tree, bytes] | None = None

    @classmethod
    def parse(cls, language: str, source: bytes) -> SyntaxTree:
        """Parse ``source`` (UTF-8) with the bundled ``language`` grammar."""
        tree = get_parser(language).parse(source)
        return cls(language, tree, len(source))

    @property
    def language(self) -> str:
        return self._language

    @property
    def tree(self) -> tree_sitter.Tree:
        """The tree of the newest source (re-parsing now if edits are pending)."""
        if self._pending is not None:
            edited, source = self._pending
            self._pending = None
            self._tree = self._parse(source, edited)
            self._edited_previous = edited
        return self._tree

    def _parse(self, source: bytes, old: tree_sitter.Tree) -> tree_sitter.Tree:
        return get_parser(self._language).parse(source, old)

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node

    @property
    def reparse_pending(self) -> bool:
        return self._pending is not None

    @property
    def ts_language(self) -> tree_sitter.Language:
        return get_language(self._language)

    def apply_edit(self, edit: TreeEdit, new_source: bytes) -> None:
        """Apply one edit (already applied to the text); re-parse on next read."""
        self.apply_edits((edit,), new_source)

    def apply_edits(self, edits: Iterable[TreeEdit], new_source: bytes) -> None:
        """Apply several edits, each in the coordinates of the text left by the
        previous one (LSP ``didChange`` order); one re-parse on the next read."""
        old = self._pending[0] if self._pending is not None else self._tree.copy()
        if not _edit_tree(old, edits):
            self.reparse(new_source)
            return
        self._pending = (old, new_source)
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
        return SyntaxTree(self._language, moved, source_len)

    def reparse(self, source: bytes) -> None:
        """Full re-parse (for a whole-document replacement)."""
        self._pending = None
        self._tree = get_parser(self._language).parse(source)
        self._source_len = len(source)
        self._edited_previous = None
        self._memo = {}

    def changed_ranges(self) -> list[tree_sitter.Range] | None:
        """Ranges whose syntax changed in the last incremental re-parse
        (``None`` after a full parse)."""
        tree = self.tree
        if self._edited_previous is None:
            return None
        return list(self._edited_previous.changed_ranges(tree))

    @property
    def memo(self) -> dict[object, object]:
        """Scratch cache for derived data of the *current* tree (syntax
        helpers only); emptied by every re-parse."""
        return self._memo

    def __repr__(self) -> str:
        return f"SyntaxTree({self._language!r}, {self._source_len} bytes)"

    # -- snapshots -----------------------------------------------------------

    def snapshot(self) -> SyntaxTree:
        """This version for a reader on another thread, in O(1).

        Shares the parsed tree (never edited once parsed) and its memo; a
        pending re-parse goes with a copy of the edited tree, so the reader
        parses on its own thread and the edits this tree takes meanwhile do
        not reach it. :meth:`adopt` takes the reader's parse back.
        """
        snap = SyntaxSnapshot(self._language, self._tree, self._source_len)
        snap._edited_previous = self._edited_previous
        snap._origin = self._pending
        if self._pending is None:
            snap._memo = self._memo
        else:
            edited, source = self._pending
            snap._pending = (edited.copy(), source)
        return snap

    def adopt(self, snapshot: SyntaxTree) -> bool:
        """Take the re-parse a reader of ``snapshot`` (taken from this tree)
        made, if no edit came since; ``snapshot`` must not be read afterwards."""
        if not isinstance(snapshot, SyntaxSnapshot) or snapshot._pending is not None:
            return False
        if self._pending is None or snapshot._origin is not self._pending:
            return False
        self._tree, self._edited_previous, self._memo = snapshot._tree, snapshot._edited_previous, snapshot._memo
        self._pending = None
        return True


# bytes handed to tree-sitter per read callback when a snapshot re-parses
_CHUNK = 16 * 1024


class SyntaxSnapshot(SyntaxTree):
    """A :class:`SyntaxTree` frozen at one version (:meth:`SyntaxTree.snapshot`)."""

    __slots__ = ("_origin",)
    # the pending re-parse of the tree this snapshot was taken from
    _origin: tuple[tree_sitter.Tree, bytes] | None

    def apply_edits(self, edits: Iterable[TreeEdit], new_source: bytes) -> None:
        raise TypeError("a syntax snapshot does not change")

    def _parse(self, source: bytes, old: tree_sitter.Tree) -> tree_sitter.Tree:
        """The same parse, fed in chunks: ``Parser.parse`` holds the GIL for the
        whole parse, a read callback lets the thread that owns the live tree
        run between chunks (a 3 MB re-parse no longer stalls it for a second)."""

        def read(byte_offset: int, point: tuple[int, int]) -> bytes:
            return source[byte_offset : byte_offset + _CHUNK]

        return get_parser(self._language).parse(read, old)

    def reparse(self, source: bytes) -> None:
        raise TypeError("a syntax snapshot does not change")


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


def _point(point: tuple[int, int]) -> tuple[int, int]:
    """A ``(row, column)`` tuple, whatever sequence the edit holds it in."""
    return (point[0], point[1])
