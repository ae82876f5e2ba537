"""Whether a repeated change sits on a comment line is read in the
document's language (:func:`nextedit.text.comments.comment_starts`).

The ranker weighs comment lines apart: in the traces a change repeated
along comments is seldom the developer's next edit. But ``#`` opens a
comment only in some languages: ``#[inline]`` above a Rust function and
``#define`` in C are code, and a repeat of them is read as code, while the
same mark in Python is a comment, and ``//`` is one in Rust.
"""

from __future__ import annotations

import pytest

from nextedit.suggest.model import Candidate, SuggestionKinds, SuggestRequest
from nextedit.suggest.repeat.suggester import RepeatEditSuggester
from nextedit.suggest.suggester import SuggestContext
from nextedit.text.comments import ANY_COMMENT_STARTS, comment_starts
from tests.helpers.session import Editor

RUST = (
    "impl Meter {\n"
    + "".join(f"    fn {name}(&self) -> u8 {{\n        self.{name}\n    }}\n\n" for name in ("low", "mid", "high"))
    + "}\n"
)
PYTHON = "class Meter:\n" + "".join(
    f"    def {name}(self):\n        return self.{name}\n\n" for name in ("low", "mid", "high")
)


def _repeat_candidates(
    language_id: str, uri: str, text: str, line: str, heads: tuple[str, str]
) -> tuple[list[Candidate], str]:
    """The repeat suggester's candidates once ``line`` was inserted above
    the lines starting with ``heads`` (in that order), cursor after the
    second, and the text then."""
    editor = Editor(SuggestionKinds())
    editor.open(uri, language_id, text)
    cursor = 0
    for head in heads:
        at = editor.text(uri).index(head)
        cursor = editor.replace(uri, at, at, line)
    state = editor.session.documents[uri]
    request = SuggestRequest(uri, state.document.version, cursor)
    context = SuggestContext.for_request(editor.session, request, state, SuggestionKinds(), frozenset())
    found = RepeatEditSuggester().propose(context)
    assert isinstance(found, list)
    return found, editor.text(uri)


@pytest.mark.parametrize(
    ("language_id", "uri", "text", "line", "heads", "comment"),
    [
        ("rust", "file:///w/meter.rs", RUST, "    #[inline]\n", ("    fn low", "    fn mid"), False),
        ("rust", "file:///w/meter.rs", RUST, "    // cheap\n", ("    fn low", "    fn mid"), True),
        ("python", "file:///w/meter.py", PYTHON, "    # cheap\n", ("    def low", "    def mid"), True),
    ],
)
def test_a_repeated_line_is_a_comment_in_its_own_language(
    language_id: str, uri: str, text: str, line: str, heads: tuple[str, str], comment: bool
) -> None:
    candidates, now = _repeat_candidates(language_id, uri, text, line, heads)
    third = now.index(heads[1].replace("mid", "high"))
    at_third = [c for c in candidates if c.edits[0].new_text.strip() == line.strip() and c.edits[0].start_cp == third]
    assert at_third, "the third function gets the line too"
    assert all(c.features.comment is comment for c in at_third)


def test_hash_opens_a_comment_only_where_the_language_says_so() -> None:
    assert "#".startswith(comment_starts("python"))
    assert "#".startswith(comment_starts("ruby"))
    for code in ("rust", "c", "cpp", "javascript", "go", "java"):
        assert not "#[inline]".startswith(comment_starts(code))
        assert "// note".startswith(comment_starts(code))
    assert not "--i;".startswith(comment_starts("c"))
    assert "-- note".startswith(comment_starts("lua"))


def test_a_language_not_known_reads_every_common_prefix() -> None:
    assert comment_starts(None) == ANY_COMMENT_STARTS
    assert comment_starts("no-such-language") == ANY_COMMENT_STARTS
