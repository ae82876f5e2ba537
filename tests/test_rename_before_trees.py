"""The before text's tree kept from one rename suggest for the next
(:class:`nextedit.suggest.rename.binding.BeforeTrees`): renaming a second
site gives the same before text, whose tree is reused only while the current
tree's structure is the same — and the answer is always the one a fresh
session gives."""

from __future__ import annotations

import pytest

from nextedit.syntax import SyntaxTree
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


def test_second_site_reuses_the_before_tree_and_answers_as_a_fresh_session(moves):
    editor = Editor()
    editor.open(URI, "python", SOURCE)
    definition, use = _uses(SOURCE, "LIMIT")[:2]
    steps = [(definition, definition + 5, "CAP")]
    editor.replace(URI, *steps[0])
    _answer(editor, definition + 3)
    built = len(moves)
    assert built >= 1
    use -= 2  # the definition got shorter
    steps.append((use, use + 5, "CAP"))
    editor.replace(URI, *steps[1])
    second = _answer(editor, use + 3)
    assert len(moves) == built  # the same before text and structure: no new before tree
    assert second == _fresh(steps, use + 3)
    assert second  # the rename is offered: the reused tree resolved the binding


def test_a_reparse_between_the_renames_builds_a_new_before_tree(moves):
    editor = Editor()
    editor.open(URI, "python", SOURCE)
    definition, use = _uses(SOURCE, "LIMIT")[:2]
    steps = [(definition, definition + 5, "CAP")]
    editor.replace(URI, *steps[0])
    _answer(editor, definition + 3)
    # a syntax change elsewhere, read (re-parsed), then undone: the text is
    # back, the next suggest re-parses again
    end = len(editor.text(URI))
    for step in ((end, end, "(\n"), (end, end + 2, "")):
        steps.append(step)
        editor.replace(URI, *step)
        assert editor.session.documents[URI].syntax.root is not None
    built = len(moves)
    use -= 2
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

    class _Edit:
        def __init__(self, start: int, old_end: int, new_end: int) -> None:
            self.start_byte, self.old_end_byte, self.new_end_byte = start, old_end, new_end
            self.start_point = (0, start)
            self.old_end_point = (0, old_end)
            self.new_end_point = (0, new_end)

    renamed = source[:at] + b"CAP" + source[at + 5 :]
    tree.apply_edit(_Edit(at, at + 5, at + 3), renamed)
    assert tree.structure is token  # an identifier swapped in place
    assert tree.with_offsets_moved([_Edit(at, at + 3, at + 5)], len(source)).structure is token
    broken = b"(" + renamed
    tree.apply_edit(_Edit(0, 0, 1), broken)
    assert tree.structure is not token  # re-parsed
