"""Parsing a document ahead of its first reader (:class:`nextedit.session.ParseWork`).

The invariant: whether the parse ran ahead, ran on another thread while the
owner applied edits, or was halted part-way, the session answers exactly as
one that never parsed ahead, and its tree is the tree of its current text.
After the first parse, a parse ahead of edits leaves the stale view as it
was too (it is held for the next reader).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import tree_sitter
from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.session import PARSE_AHEAD_DELAY, PlacedSuggestion, Session
from nextedit.suggest.model import SuggestionKinds
from nextedit.syntax import SyntaxTree, get_language
from nextedit.syntax import tree as tree_module
from nextedit.text import Position, PositionEncoding, Range, TextChange

UTF16 = PositionEncoding.UTF16
URI = "file:///w/a.py"
FUNCTION = "def area{n}(w, h):\n    size = w * h\n    return size + size\n\n\n"
TEXT = "".join(FUNCTION.format(n=n) for n in range(400))  # ~25 KB: a parse with progress checks to halt at


def rename_at(function: int) -> TextChange:
    """The developer renames ``size`` to ``total`` in the ``function``-th function."""
    line = function * 5 + 1
    return TextChange(Range(Position(line, 4), Position(line, 8)), "total")


def answers(placed: list[PlacedSuggestion]) -> list[tuple]:
    return [(s.kind, s.suggester, s.position, [(e.range, e.new_text) for e in s.edits]) for s in placed]


def session() -> Session:
    return Session("s", encoding=UTF16, kinds=SuggestionKinds(jump=True))


def test_a_halted_parse_leaves_the_thread_able_to_parse_another_text() -> None:
    """tree-sitter resumes a halted parse at the parser's next parse unless it is
    reset: the next text parsed on that thread would come out wrong."""
    work = SyntaxTree.parse_later("python", TEXT.encode()).snapshot()
    checks = iter(range(3))
    assert not work.parse_ahead(lambda: next(checks, 3) >= 2)
    assert work.reparse_pending  # nothing of the halted parse was kept
    other = b"x = [1, 2]\n"
    fresh = tree_sitter.Parser(get_language("python")).parse(other)
    assert str(SyntaxTree.parse("python", other).root) == str(fresh.root_node)
    assert not SyntaxTree.parse("python", TEXT.encode()).root.has_error


@settings(max_examples=25, deadline=None)
@given(
    halt_after=st.one_of(st.none(), st.integers(0, 40)),
    renames_meanwhile=st.lists(st.integers(0, 399), max_size=3),
    renames_after=st.lists(st.integers(0, 399), min_size=1, max_size=2),
)
def test_a_parse_ahead_changes_no_answer_whatever_happens_meanwhile(
    halt_after: int | None, renames_meanwhile: list[int], renames_after: list[int]
) -> None:
    ahead, plain = session(), session()
    for s in (ahead, plain):
        s.did_open(URI, "python", 1, TEXT)
    work = ahead.prepare_parse(URI)
    assert work is not None and plain.prepare_parse(URI) is not None
    moved_on = threading.Event()
    checks = iter(range(10_000))

    def halt() -> bool:
        return moved_on.is_set() or (halt_after is not None and next(checks) >= halt_after)

    parser = threading.Thread(target=work.run, args=(halt,))
    parser.start()
    version = 1
    for function in renames_meanwhile:  # the owner applies edits while the parse runs
        version += 1
        moved_on.set()
        for s in (ahead, plain):
            assert s.did_change(URI, version, [rename_at(function)])
    parser.join()
    kept = ahead.finish_parse(work)
    assert kept == (work.parsed and not renames_meanwhile)
    for function in renames_after:
        version += 1
        for s in (ahead, plain):
            assert s.did_change(URI, version, [rename_at(function)])
        cursor = Position(function * 5 + 1, 9)
        assert answers(ahead.suggest(URI, version, cursor)) == answers(plain.suggest(URI, version, cursor))
    live = ahead.documents[URI]
    assert live.syntax is not None
    assert str(live.syntax.root) == str(SyntaxTree.parse("python", live.document.source_bytes).root)


def test_no_parse_is_prepared_for_a_parsed_closed_or_unknown_document() -> None:
    s = session()
    s.did_open(URI, "python", 1, TEXT)
    work = s.prepare_parse(URI)
    assert work is not None and work.run()
    s.did_close(URI)
    assert not s.finish_parse(work)  # closed meanwhile: nothing to give the tree to
    s.did_open(URI, "python", 1, TEXT)
    work = s.prepare_parse(URI)
    assert work is not None and work.run() and s.finish_parse(work)
    assert s.prepare_parse(URI) is None  # parsed already
    assert s.prepare_parse("file:///w/unknown.py") is None
    s.did_open("file:///w/notes.txt", "plaintext", 1, "no grammar")
    assert s.prepare_parse("file:///w/notes.txt") is None


# -- a parse ahead after edits (the editor's debounce before its next suggest) -------------


def add_line_at(function: int) -> TextChange:
    """The developer adds ``    size += 1`` after ``size = w * h`` in the ``function``-th
    function: the syntax changes (no token swap), so the tree awaits a re-parse."""
    line = function * 5 + 1
    return TextChange(Range(Position(line, 16), Position(line, 16)), "\n    size += 1")


def opened_and_read(s: Session) -> None:
    """Open the text and read its tree, as the first suggest that reads syntax does."""
    s.did_open(URI, "python", 1, TEXT)
    syntax = s.documents[URI].syntax
    assert syntax is not None
    syntax.tree  # noqa: B018 - the read is the parse


def stale_view(s: Session) -> str:
    syntax = s.documents[URI].syntax
    assert syntax is not None
    return str(syntax.stale_root)


def test_a_re_parse_ahead_is_held_for_the_next_reader_and_leaves_the_stale_view_as_it_was() -> None:
    """The stale view after a further edit is that of the parse a reader made, not the parse ahead's."""
    ahead, plain = session(), session()
    for s in (ahead, plain):
        opened_and_read(s)
        assert s.did_change(URI, 2, [add_line_at(10)])
    assert ahead.parse_pending(URI)
    work = ahead.prepare_parse(URI)
    assert work is not None and work.run() and ahead.finish_parse(work)
    assert ahead.prepare_parse(URI) is None  # held: nothing left to parse ahead
    for s in (ahead, plain):
        assert s.did_change(URI, 3, [add_line_at(20)])
    assert stale_view(ahead) == stale_view(plain)  # the added line of version 2 is not in either
    cursor = Position(20 * 5 + 1 + 1, 9)
    assert answers(ahead.suggest(URI, 3, cursor)) == answers(plain.suggest(URI, 3, cursor))


def test_the_next_reader_takes_the_held_parse_instead_of_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    s = session()
    opened_and_read(s)
    assert s.did_change(URI, 2, [add_line_at(10)])
    work = s.prepare_parse(URI)
    assert work is not None and work.run() and s.finish_parse(work)
    parses: list[bytes] = []
    original = tree_module.SyntaxTree._parse

    def counted(self: SyntaxTree, source: bytes, old: tree_sitter.Tree) -> tree_sitter.Tree:
        parses.append(source)
        return original(self, source, old)

    monkeypatch.setattr(tree_module.SyntaxTree, "_parse", counted)
    live = s.documents[URI]
    assert live.syntax is not None
    assert str(live.syntax.root) == str(SyntaxTree.parse("python", live.document.source_bytes).root)
    assert parses == []


def test_a_rename_typed_in_place_or_nothing_pending_wants_no_parse_ahead() -> None:
    s = session()
    opened_and_read(s)
    assert not s.parse_pending(URI) and s.prepare_parse(URI) is None  # parsed by its reader
    assert s.did_change(URI, 2, [rename_at(3)])
    assert s.parse_pending(URI)  # edits await the reader...
    assert s.prepare_parse(URI) is None  # ...which swaps the token: nothing to parse ahead


@settings(max_examples=30, deadline=None)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["rename", "add", "ahead", "suggest"]),
            st.integers(0, 399),
            st.one_of(st.none(), st.integers(0, 30)),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_parses_ahead_between_edits_change_no_answer(steps: list[tuple[str, int, int | None]]) -> None:
    """Edits, parses ahead (halted at any progress check or not) and suggests in any
    order after the first parse: the answers, the stale view and the tree are those
    of a session that never parsed ahead."""
    ahead, plain = session(), session()
    for s in (ahead, plain):
        opened_and_read(s)
    version, added = 1, 0
    for action, function, halt_after in steps:
        if action in ("rename", "add"):
            version += 1
            edit = rename_at(function) if action == "rename" else add_line_at(function)
            if action == "add":
                added += 1
            for s in (ahead, plain):  # a line added shifts the functions below: stay above them
                assert s.did_change(URI, version, [edit if action == "add" or added == 0 else rename_at(0)])
        elif action == "ahead":
            work = ahead.prepare_parse(URI)
            if work is None:
                continue
            checks = iter(range(10_000))

            def halt(limit: int | None = halt_after, checks: Iterator[int] = checks) -> bool:
                return limit is not None and next(checks) >= limit

            work.run(halt)
            ahead.finish_parse(work)
        else:
            cursor = Position(1, 9)
            assert answers(ahead.suggest(URI, version, cursor)) == answers(plain.suggest(URI, version, cursor))
        assert stale_view(ahead) == stale_view(plain)
    live = ahead.documents[URI]
    assert live.syntax is not None
    assert str(live.syntax.root) == str(SyntaxTree.parse("python", live.document.source_bytes).root)


def test_parses_ahead_dropped_unread_lengthen_the_delay_until_a_reader_parses_for_itself() -> None:
    """Keystrokes slower than the delay with no suggest between them: each would pay a
    parse ahead that the next keystroke drops; the delay doubles instead (bounded)."""
    s = session()
    opened_and_read(s)
    delays = []
    for version in range(2, 9):  # typing, a parse ahead in every gap, no reader
        assert s.did_change(URI, version, [add_line_at(version)])
        delays.append(s.parse_ahead_delay(URI))
        work = s.prepare_parse(URI)
        assert work is not None and work.run() and s.finish_parse(work)
    assert delays == [PARSE_AHEAD_DELAY * 2**n for n in (0, 1, 2, 3, 4, 4, 4)]
    s.suggest(URI, 8, Position(1, 9))
    syntax = s.documents[URI].syntax
    assert syntax is not None
    syntax.tree  # noqa: B018 - a reader takes the held parse: the delay that served it stays
    assert s.parse_ahead_delay(URI) == PARSE_AHEAD_DELAY * 2**4
    assert s.did_change(URI, 9, [add_line_at(9)])
    syntax.tree  # noqa: B018 - a reader that had to parse for itself: the delay was too long
    assert s.parse_ahead_delay(URI) == PARSE_AHEAD_DELAY
