"""A builtin is the language's, not a binding of the file: replacing one use is no rename.

Go's ``uint16``, Ruby's ``warn``, Python's ``len`` (``grammars/<language>/builtins.txt``):
the developer who swaps one call for their own function decides site by
site; the rename suggester offers nothing. A file's own definition of the
same name is its binding again, renamed as any other.
"""

from __future__ import annotations

import pytest

from nextedit.suggest.model import SuggestionKinds
from nextedit.syntax.builtins import builtin_names
from tests.helpers.rename import check, parse_fixture
from tests.helpers.session import Editor

GO = """package p

func f(a, b int) (uint16, uint16) {
\treturn ⟦uint16⟧(a), uint16(b)
}
"""

RUBY = """class App
  def deprecated(msg)
    ⟦warn⟧ "deprecated: #{msg}"
  end

  def other(msg)
    warn msg
  end
end
"""


@pytest.mark.parametrize(
    ("language", "uri", "fixture", "new"),
    [("go", "file:///w/tree.go", GO, "safeUint16"), ("ruby", "file:///w/base.rb", RUBY, "warn_for_deprecation")],
)
def test_a_builtin_replaced_at_one_use_is_not_renamed(language: str, uri: str, fixture: str, new: str) -> None:
    text, site, old, _ = parse_fixture(fixture)
    assert old in builtin_names(language)
    editor = Editor(SuggestionKinds())
    editor.open(uri, language, text)
    cursor = editor.rename_at(uri, site, old, new)
    assert [s for s in editor.suggest(uri, cursor) if s.suggester == "rename"] == []


def test_a_builtin_name_the_file_defines_is_its_own_binding() -> None:
    fixture = """\
def measure(items):
    ⟦len⟧ = 0
    for item in items:
        ‹len› += item.size
    return ‹len›
"""
    check("python", "file:///w/m.py", fixture, "total")


def test_a_dialect_inherits_its_base_languages_builtins() -> None:
    assert {"Object", "Partial"} <= builtin_names("tsx")
    assert {"printf", "nullptr"} <= builtin_names("cpp")
