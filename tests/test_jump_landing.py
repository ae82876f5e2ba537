"""Where a jump puts the caret: on the first line its edit changes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.suggest.jump import landing
from nextedit.suggest.model import TextEditCp

ENUM = "pub enum MmapMode {\n    Auto,\n    Never,\n}\n\n"
IMPL = "impl Default for MmapMode {\n    fn default() -> MmapMode {\n        MmapMode::Auto\n    }\n}\n"


def line_of(text: str, cp: int) -> str:
    return text[: text.find("\n", cp) if "\n" in text[cp:] else len(text)].rsplit("\n", 1)[-1]


def test_a_block_deleted_from_the_line_above_lands_on_the_block() -> None:
    """A rule learned as ``}\\n\\nimpl …}`` → ``}`` deletes from the enum's
    closing brace; the lines that go are the ``impl`` block's."""
    text = ENUM + IMPL + "\nfn main() {}\n"
    start = text.index("}\n\nimpl")
    end = text.index("    }\n}\n", start) + len("    }\n")
    at = landing(TextEditCp(start, end, ""), text)
    assert line_of(text, at) == "impl Default for MmapMode {"
    assert text[at - 1] == "\n"


def test_a_replacement_lands_past_the_lines_it_keeps() -> None:
    text = "call(\n    first,\n    second,\n)\n"
    start = text.index("call(")
    end = text.index("second") + len("second")
    at = landing(TextEditCp(start, end, "call(\n    first,\n    third"), text)
    assert line_of(text, at) == "    second,"


def test_removed_lines_after_a_line_break_land_on_the_first_of_them() -> None:
    text = "x = 1\ny = 2\nz = 3\n"
    start = text.index("\ny")
    at = landing(TextEditCp(start, start + len("\ny = 2"), ""), text)
    assert at == text.index("y = 2")


def test_a_crlf_line_break_is_stepped_over_whole() -> None:
    text = "x = 1\r\ny = 2\r\nz = 3\r\n"
    start = text.index("\r\ny")
    at = landing(TextEditCp(start, start + len("\r\ny = 2"), ""), text)
    assert at == text.index("y = 2")


def test_an_insertion_lands_where_it_goes() -> None:
    text = "x = 1\ny = 2\n"
    at = text.index("y")
    assert landing(TextEditCp(at, at, "w = 0\n"), text) == at
    assert landing(TextEditCp(at - 1, at - 1, "\nw = 0"), text) == at - 1


def test_a_line_break_the_edit_keeps_is_passed_over() -> None:
    """``\ny`` → ``\nw`` changes only the next line."""
    text = "x = 1\ny = 2\n"
    start = text.index("\n")
    assert landing(TextEditCp(start, start + len("\ny"), "\nw"), text) == text.index("y")


def test_text_put_in_place_of_a_line_break_lands_on_the_line_it_extends() -> None:
    """``\ny = 2`` → `` # y gone`` writes onto the end of ``x = 1``."""
    text = "x = 1\ny = 2\nz = 3\n"
    start = text.index("\ny")
    at = landing(TextEditCp(start, start + len("\ny = 2"), " # y gone"), text)
    assert at == start and line_of(text, at) == "x = 1"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab}\n ", max_size=40), st.data())
def test_a_deletion_lands_where_deleting_as_much_gives_the_same_text(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    at = landing(TextEditCp(start, end, ""), text)
    width = end - start
    after = text[:start] + text[end:]
    assert start <= at <= end + width
    # the caret is where an equal deletion starts, or just past its leading line break
    same = [p for p in (at, at - 1) if p >= start and text[:p] + text[p + width :] == after]
    assert same, (text, start, end, at)
