"""The before text's tree kept from one rename suggest for the next
(:class:`nextedit.suggest.rename.binding.BeforeTrees`): renaming a second
site gives the same before text, whose tree is reused only while the current
tree's structure is the same — and the answer is always the one a fresh
session gives."""

from __future__ import annotations

import pytest

from nextedit.syntax import ByteEdit, SyntaxTree
from tests.helpers.session import Editor

URI = "file:///m.py"
SOURCE = """\
LIMIT = 10


def first(x):
    return x + LIMIT


def second(y):
    return y * LIMIT


def third(z):
    return [LIMIT, z]
"""


def _answer(editor: Editor, cursor: int) -> list[tuple]:
    return [(s.kind, s.uri, tuple((e.range, e.new_text) for e in s.edits)) for s in editor.suggest(URI, cursor)]


def _uses(text: str, name: str) -> list[int]:
    out, at = [], text.find(name)
    while at >= 0:
        out.append(at)
        at = text.find(name, at + 1)
    return out


@pytest.fixture
def moves(monkeypatch) -> list[int]:
    """Counts the before trees built (``SyntaxTree.with_offsets_moved``)."""
    calls: list[int] = []
    original = SyntaxTree.with_offsets_moved

    def counted(self, edits, source_len):
        calls.append(source_len)
        return original(self, edits, source_len)

    monkeypatch.setattr(SyntaxTree, "with_offsets_moved", counted)
    return calls


def _fresh(steps: list[tuple[int, int, str]], cursor: int) -> list[tuple]:
    """The answer of a session that saw the same edits and no earlier suggest."""
    editor = Editor()
    editor.open(URI, "python", SOURCE)
    for start, end, new in steps:
        editor.replace(URI, start, end, new)
    return _answer(editor, cursor)


def _renamed_at_the_definition() -> tuple[Editor, list[tuple[int, int, str]], int]:
    """A session where ``LIMIT`` became ``CAP`` at its definition and a
    suggest was asked there: the editor, the edits so far, and where the
    first use now stands."""
    editor = Editor()
    editor.open(URI, "python", SOURCE)
    definition, use = _uses(SOURCE, "LIMIT")[:2]
    steps = [(definition, definition + 5, "CAP")]
    editor.replace(URI, *steps[0])
    _answer(editor, definition + 3)
    return editor, steps, use - 2  # the definition got shorter


def test_second_site_reuses_the_before_tree_and_answers_as_a_fresh_session(moves):
    editor, steps, use = _renamed_at_the_definition()
    built = len(moves)
    assert built >= 1
    steps.append((use, use + 5, "CAP"))
    editor.replace(URI, *steps[1])
    second = _answer(editor, use + 3)
    assert len(moves) == built  # the same before text and structure: no new before tree
    assert second == _fresh(steps, use + 3)
    assert second  # the rename is offered: the reused tree resolved the binding


def test_the_kept_tree_knows_whether_the_binding_is_file_level(monkeypatch):
    """Whether a binding is defined at file level is worked out by looking at
    each of its occurrences (thousands, for a module constant): on a kept
    before tree, once for both renames, and the answer is a fresh session's."""
    from nextedit.suggest.rename import binding

    looked: list[int] = []
    original = binding._is_file_level

    def counted(tree, ranges):
        looked.append(len(ranges))
        return original(tree, ranges)

    monkeypatch.setattr(binding, "_is_file_level", counted)
    editor, steps, use = _renamed_at_the_definition()
    assert looked == [4]  # the definition and its three uses
    steps.append((use, use + 5, "CAP"))
    editor.replace(URI, *steps[1])
    second = _answer(editor, use + 3)
    assert looked == [4]
    assert second == _fresh(steps, use + 3)
    assert looked[1:], "the fresh session looked for itself"


def test_a_reparse_between_the_renames_builds_a_new_before_tree(moves):
    editor, steps, use = _renamed_at_the_definition()
    # a syntax change elsewhere, read (re-parsed), then undone: the text is
    # back, the next suggest re-parses again
    end = len(editor.text(URI))
    for step in ((end, end, "(\n"), (end, end + 2, "")):
        steps.append(step)
        editor.replace(URI, *step)
        assert editor.session.documents[URI].syntax.root is not None
    built = len(moves)
    steps.append((use, use + 5, "CAP"))
    editor.replace(URI, *steps[-1])
    answer = _answer(editor, use + 3)
    assert len(moves) > built  # another structure: the kept tree is not used
    assert answer == _fresh(steps, use + 3)


def test_structure_token_follows_token_swaps_and_reparses():
    source = SOURCE.encode()
    tree = SyntaxTree.parse("python", source)
    token = tree.structure
    at = source.index(b"LIMIT")

    def edit(start: int, old_end: int, new_end: int) -> ByteEdit:
        return ByteEdit(start, old_end, new_end, (0, start), (0, old_end), (0, new_end))

    renamed = source[:at] + b"CAP" + source[at + 5 :]
    tree.apply_edit(edit(at, at + 5, at + 3), renamed)
    assert tree.structure is token  # an identifier swapped in place
    assert tree.with_offsets_moved([edit(at, at + 3, at + 5)], len(source)).structure is token
    broken = b"(" + renamed
    tree.apply_edit(edit(0, 0, 1), broken)
    assert tree.structure is not token  # re-parsed
