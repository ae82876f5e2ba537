"""A misspelt word fixed in a comment or a string is offered at the other
comments and strings that spell it the same way (the rename suggester's
``spelling`` family): ``bounaries`` → ``boundaries`` in one doc comment, then
the next one. No binding reaches prose, and the repeat suggester leaves a bare
word swapped to the rename suggester, so before this family nothing did.

Only a change with the shape of a typo counts. A word replaced by another one
(``it`` → ``them``), a change of case, and the same spelling in code are left
alone.
"""

from __future__ import annotations

import pytest

from nextedit.session import Session
from nextedit.suggest.model import Candidate, SuggestionKinds, SuggestRequest
from nextedit.suggest.rename.suggester import _edit_distance, _typo_fixed
from nextedit.text import PositionEncoding, Range, TextChange

RUST = (
    "/// Only allow matches when surrounded by word bounaries.\n"
    "pub fn words(x: &str) -> bool {\n"
    "    x.is_empty()\n"
    "}\n"
    "\n"
    "/// Like `words`, at line bounaries.\n"
    "pub fn lines(x: &str) -> bool {\n"
    '    let msg = "no bounaries found";\n'
    "    x.is_empty()\n"
    "}\n"
)

PYTHON = (
    "# Indicates the extesion has already been registered.\n"
    "def registered(extesion):\n"
    "    return extesion in REGISTRY\n"
    "\n"
    "# Indicates an extesion is being registered.\n"
    "def registering():\n"
    "    pass\n"
)


def _spelling_after(text: str, language: str, uri: str, where: str, old: str, new: str) -> tuple[str, list[Candidate]]:
    """The developer replaces ``old`` by ``new`` at the first ``where``; the
    text then, and the spelling candidates of the rename suggester."""
    after, offered = _rename_after(text, language, uri, where, old, new)
    return after, [c for c in offered if c.features.family == "spelling"]


def _rename_after(text: str, language: str, uri: str, where: str, old: str, new: str) -> tuple[str, list[Candidate]]:
    """As :func:`_spelling_after`, with every candidate of the rename suggester."""
    session = Session("t", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(jump=True))
    session.did_open(uri, language, 1, text)
    doc = session.documents[uri].document
    start = text.index(where) + where.index(old)
    rng = Range(
        doc.position_at(start, PositionEncoding.UTF32), doc.position_at(start + len(old), PositionEncoding.UTF32)
    )
    session.did_change(uri, 2, [TextChange(rng, new)])
    after = session.documents[uri].document.text
    request = SuggestRequest(uri, 2, start + len(new))
    ranking = session.engine.rank(session, request, session.kinds, frozenset())
    return after, [c for c in ranking.candidates if c.suggester == "rename"]


def _lines(text: str, candidates: list[Candidate]) -> list[str]:
    out = []
    for c in candidates:
        (edit,) = c.edits
        start = text.rfind("\n", 0, edit.start_cp) + 1
        out.append(text[start : text.find("\n", edit.start_cp)].strip())
    return out


def test_a_typo_fixed_in_a_doc_comment_is_offered_in_the_other_comments_and_strings() -> None:
    text, candidates = _spelling_after(RUST, "rust", "file:///w/lib.rs", "word bounaries", "bounaries", "boundaries")
    assert _lines(text, candidates) == ["/// Like `words`, at line bounaries.", 'let msg = "no bounaries found";']
    for c in candidates:
        (edit,) = c.edits
        assert text[edit.start_cp : edit.end_cp] == "bounaries" and edit.new_text == "boundaries"
        assert c.features.prose and c.features.identifier_only


def test_the_same_spelling_in_code_is_not_offered() -> None:
    """``extesion`` also names a parameter: fixing the comment says nothing
    of the code, whose name is a binding of its own."""
    text, candidates = _spelling_after(
        PYTHON, "python", "file:///w/ext.py", "the extesion has", "extesion", "extension"
    )
    assert _lines(text, candidates) == ["# Indicates an extesion is being registered."]


def test_a_word_swapped_for_another_is_not_a_typo() -> None:
    text = "# or install it with:\nx = 1\n# then run it again\n"
    _, candidates = _spelling_after(text, "python", "file:///w/a.py", "install it", "it", "them")
    assert candidates == []
    changed = RUST.replace("surrounded by word", "surrounded by the")
    _, candidates = _spelling_after(changed, "rust", "file:///w/lib.rs", "the bounaries", "bounaries", "edges")
    assert candidates == []


def test_a_typo_fixed_in_code_is_left_to_the_binding() -> None:
    """The same fix typed on the parameter renames its binding (the binding
    family), not the comments."""
    text, candidates = _spelling_after(
        PYTHON, "python", "file:///w/ext.py", "def registered(extesion)", "extesion", "extension"
    )
    assert candidates == []


@pytest.mark.parametrize(
    ("old", "new", "typo"),
    [
        ("bounaries", "boundaries", True),  # a letter left out
        ("mulitline", "multiline", True),  # two letters swapped
        ("supress", "suppress", True),
        ("pathes", "paths", True),
        ("Pattern", "pattern", False),  # case alone
        ("it", "them", False),  # too short to be a typo
        ("master", "root", False),  # another word
        ("colour", "flavour", False),  # three letters apart
        ("abc_def", "abc_deg", False),  # not a word of letters
    ],
)
def test_what_reads_as_a_typo(old: str, new: str, typo: bool) -> None:
    assert _typo_fixed(old, new) is typo


def test_edit_distance_counts_a_swap_as_one() -> None:
    assert _edit_distance("mulitline", "multiline", 2) == 1
    assert _edit_distance("bounaries", "boundaries", 2) == 1
    assert _edit_distance("abcdef", "badcfe", 2) == 3  # past the limit: limit + 1
    assert _edit_distance("kitten", "sitting", 5) == 3


def test_a_word_typed_out_letter_by_letter_is_no_typo_fix() -> None:
    """Retyping ``extesion`` as ``extension`` passes through ``extensio``,
    two letters from the old word: offering that elsewhere would be wrong, so
    only a fix made in as many changes as letters it changes counts."""
    uri = "file:///w/ext.py"
    session = Session("t", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(jump=True))
    session.did_open(uri, "python", 1, PYTHON)
    start = PYTHON.index("extesion")
    enc = PositionEncoding.UTF32
    doc = session.documents[uri].document
    session.did_change(uri, 2, [TextChange(Range(doc.position_at(start, enc), doc.position_at(start + 8, enc)), "e")])
    offered = []
    for n, letter in enumerate("xtension", start=1):
        doc = session.documents[uri].document
        at = doc.position_at(start + n, enc)
        session.did_change(uri, 2 + n, [TextChange(Range(at, at), letter)])
        ranking = session.engine.rank(session, SuggestRequest(uri, 2 + n, start + n + 1), session.kinds, frozenset())
        offered += [c for c in ranking.candidates if c.features.family == "spelling"]
    assert session.documents[uri].document.text.startswith("# Indicates the extension has")
    assert offered == []


@pytest.mark.parametrize(
    ("old", "new"), [("true", "false"), ("False", "True"), ("None", "True"), ("null", "undefined")]
)
def test_a_value_spelt_as_a_word_is_never_renamed(old: str, new: str) -> None:
    """``true`` -> ``false`` sets one value: the other ``true``s are no
    occurrences of a name, in code or in prose."""
    text = f"x = {old}\ny = {old}  # keep it {old}\nz = {old}\n"
    _, offered = _rename_after(text, "python", "file:///w/t.py", f"x = {old}", old, new)
    assert offered == []
