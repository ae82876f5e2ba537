"""The syntax trees of recently closed documents, for a cheap re-open.

Editors close and re-open the same file all the time: a buffer closed and
opened again, an NES session restarted (``nes/close`` + ``nes/start`` open
every document anew), a branch switched and switched back. The text is then
the same as, or a few hunks away from, one we parsed minutes ago. A
:class:`ClosedTrees` keeps the last parse of each closed document, keyed by
URI and grammar, and :meth:`ClosedTrees.reopen` turns a re-opened text into
a :class:`~nextedit.syntax.tree.SyntaxTree`: the same text takes the tree as
it is; a changed one gets that tree edited by the line diff
(:func:`~nextedit.syntax.line_diff.line_edits`), re-parsed incrementally by
its first reader (tree-sitter re-parses around the changed hunks only).

It holds no meaning of any session: a tree is a pure function of the
grammar and the bytes, so one process-wide instance serves every session of
a front end (each front end makes one and hands it to its sessions). A tree
is never mutated here or by its user (``SyntaxTree`` edits a copy), and the
instance locks around its table, so sessions on different threads may share
it.

Bounded (LRU): at most :data:`MAX_DOCUMENTS` documents and :data:`MAX_BYTES`
bytes of text; a document larger than the byte bound is not kept. A tree
costs ~22× its text in memory (format.h: 162 KB of text, 3.6 MB of tree), so
the bounds cap the table near 90 MB in the worst case (a few big files);
source files of tens of KB make it a few MB. A re-open that pays off is a
recent close (an editor's last buffers, a restarted session's documents):
on the 12 shared trace sets (2,160 opens, each set one agent), 32 documents
serve 1,629 opens against 1,665 for a table without bound, 16 serve 1,488,
8 serve 1,244, and the text held peaks at 1.1 MB, so the byte bound only
guards against huge files (``benchmarks/results/trace-latency-reopen.md``).

Must not know about sessions, front ends or position encodings.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import tree_sitter

from nextedit.syntax.attribute_macros import Blank
from nextedit.syntax.tree import SyntaxTree

__all__ = ["MAX_BYTES", "MAX_DOCUMENTS", "ClosedTrees"]

# default bounds: documents kept, and bytes of their texts summed
MAX_DOCUMENTS = 32
MAX_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class _Entry:
    tree: tree_sitter.Tree
    source: bytes
    blanks: tuple[Blank, ...] | None  # the spans of ``source`` tree-sitter read as spaces (C, C++)


class ClosedTrees:
    """An LRU table ``(uri, grammar) -> (tree, the bytes it was parsed from)``."""

    def __init__(self, max_documents: int | None = None, max_bytes: int | None = None) -> None:
        # the module's bounds when not given (read now: an experiment may set them)
        self.max_documents = MAX_DOCUMENTS if max_documents is None else max_documents
        self.max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        self._entries: OrderedDict[tuple[str, str], _Entry] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size_bytes(self) -> int:
        """Bytes of text held (what :attr:`max_bytes` bounds)."""
        return self._bytes

    def keep(self, uri: str, syntax: SyntaxTree) -> None:
        """Remember the last parse of ``syntax`` (a document being closed or
        replaced); nothing when it was never parsed or is too large."""
        parsed = syntax.parsed()
        if parsed is None:
            return
        tree, source = parsed
        key = (uri, syntax.language)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= len(old.source)
            if len(source) > self.max_bytes or self.max_documents <= 0:
                return
            self._entries[key] = _Entry(tree.copy(), source, syntax.parsed_blanks())
            self._bytes += len(source)
            while len(self._entries) > self.max_documents or self._bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= len(dropped.source)

    def reopen(self, uri: str, language: str, source: bytes) -> SyntaxTree | None:
        """The tree of ``source`` reached from the kept tree of ``uri`` in
        ``language`` (if the text changed, the line diff and the re-parse are
        deferred to the first reader); ``None`` when none is kept. The entry stays (a copy of
        its tree is handed out) and becomes the most recent."""
        key = (uri, language)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
        return SyntaxTree.reopen(language, entry.tree.copy(), entry.source, source, entry.blanks)
