"""A whole module swapped in its import is a new dependency, not a rename of its uses."""

from __future__ import annotations

from nextedit.suggest.model import SuggestionKinds
from tests.helpers.rename import check
from tests.helpers.session import Editor


def test_a_module_swapped_in_its_import_is_no_rename_of_its_uses() -> None:
    """``import subprocess`` → ``import sys``: a new dependency; ``subprocess.run``
    does not become ``sys.run``. An alias is a name of the file: renamed."""
    text = "import subprocess\n\n\ndef run():\n    return subprocess.run(['ls'])\n"
    editor = Editor(SuggestionKinds())
    editor.open("file:///w/t.py", "python", text)
    cursor = editor.rename_at("file:///w/t.py", text.index("subprocess"), "subprocess", "sys")
    assert [s for s in editor.suggest("file:///w/t.py", cursor) if s.suggester == "rename"] == []
    fixture = """\
import subprocess as ⟦sp⟧


def run():
    return ‹sp›.run(['ls'])
"""
    check("python", "file:///w/u.py", fixture, "proc")
