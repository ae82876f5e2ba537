"""Property tests of the text layer against a naïve reference implementation.

The reference recomputes everything from the full text on every call (line
starts by LSP rules, columns by walking characters, bytes by encoding the
prefix), so it is obviously right and independent of ``Document``'s lazy line
index and fast paths.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from nextedit.text import AppliedEdit, Document, Position, PositionEncoding, Range, TextChange
from nextedit.text.lines import line_around

ENCODINGS = list(PositionEncoding)

# characters that stress every path: ASCII, accents, CJK, astral emoji, line ends
_ALPHABET = st.sampled_from(
    list("ab xyz_(){};") + ["é", "ß", "ñ", "世", "界", "語", "😀", "🎉", "𝔘", "\n", "\r\n", "\r", "\t"]
)
texts = st.lists(_ALPHABET, max_size=40).map("".join)

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


# -- the reference ------------------------------------------------------------------


def ref_lines(text: str) -> list[tuple[int, int]]:
    """``(start_cp, end_cp_without_terminator)`` of every line, LSP rules."""
    out = []
    pos = 0
    for m in _LINE_BREAK.finditer(text):
        out.append((pos, m.start()))
        pos = m.end()
    out.append((pos, len(text)))
    return out


def units(ch: str, enc: PositionEncoding) -> int:
    if enc is PositionEncoding.UTF32:
        return 1
    if enc is PositionEncoding.UTF16:
        return len(ch.encode("utf-16-le")) // 2
    return len(ch.encode("utf-8"))


def ref_offset_at(text: str, pos: Position, enc: PositionEncoding) -> int:
    lines = ref_lines(text)
    if pos.line < 0:
        return 0
    if pos.line >= len(lines):
        return len(text)
    start, end = lines[pos.line]
    col = 0
    cp = start
    while cp < end:
        width = units(text[cp], enc)
        if col + width > pos.character:
            break  # inside (or at the start of) this character: snap to its start
        col += width
        cp += 1
    return cp


def ref_position_at(text: str, cp: int, enc: PositionEncoding) -> Position:
    lines = ref_lines(text)
    for number, (start, end) in enumerate(lines):
        next_start = lines[number + 1][0] if number + 1 < len(lines) else len(text) + 1
        if start <= cp < next_start:
            cp = min(cp, end)
            return Position(number, sum(units(c, enc) for c in text[start:cp]))
    raise AssertionError("offset out of range")


def ref_point(text: str, cp: int) -> tuple[int, int]:
    """tree-sitter point: rows count only ``\\n``, columns in bytes."""
    prefix = text[:cp].encode("utf-8")
    row = prefix.count(b"\n")
    return row, len(prefix) - (prefix.rfind(b"\n") + 1)


def valid_offsets(text: str) -> list[int]:
    """Offsets that are real positions: not between ``\\r`` and ``\\n``."""
    return [i for i in range(len(text) + 1) if not (0 < i < len(text) and text[i - 1] == "\r" and text[i] == "\n")]


# -- conversions ---------------------------------------------------------------------


@given(texts, st.sampled_from(ENCODINGS), st.data())
def test_position_then_offset_round_trips(text, enc, data):
    doc = Document("u", "plaintext", 1, text)
    cp = data.draw(st.sampled_from(valid_offsets(text)))
    position = doc.position_at(cp, enc)
    assert position == ref_position_at(text, cp, enc)
    assert doc.offset_at(position, enc) == cp


@given(texts, st.sampled_from(ENCODINGS), st.integers(-2, 12), st.integers(-2, 60))
def test_offset_at_matches_reference_clamps_and_snaps(text, enc, line, character):
    doc = Document("u", "plaintext", 1, text)
    position = Position(line, character)
    assert doc.offset_at(position, enc) == ref_offset_at(text, position, enc)


@given(st.sampled_from(ENCODINGS))
def test_mid_character_columns_snap_to_the_character_start(enc):
    doc = Document("u", "plaintext", 1, "a😀b\né世")
    for inside in range(1, 1 + units("😀", enc)):
        assert doc.offset_at(Position(0, inside), enc) == 1  # the emoji's start
    assert doc.offset_at(Position(0, 99), enc) == 3  # clamps to the line end, not into the next line
    inside_cjk = units("é", enc) + units("世", enc) - 1
    assert doc.offset_at(Position(1, inside_cjk), enc) == 5
    assert doc.offset_at(Position(7, 0), enc) == len(doc.text)  # a line past the end clamps


@given(st.sampled_from(ENCODINGS))
def test_offset_inside_crlf_reports_the_line_end(enc):
    doc = Document("u", "plaintext", 1, "ab\r\ncd")
    assert doc.position_at(3, enc) == Position(0, 2)
    assert doc.position_at(4, enc) == Position(1, 0)


@given(texts, st.data())
def test_byte_and_point_conversions_match_reference(text, data):
    doc = Document("u", "plaintext", 1, text)
    cp = data.draw(st.integers(0, len(text)))
    assert doc.byte_offset_at(cp) == len(text[:cp].encode("utf-8"))
    assert doc.cp_offset_at_byte(len(text[:cp].encode("utf-8"))) == cp
    assert doc.point_at(cp) == ref_point(text, cp)
    assert doc.source_bytes == text.encode("utf-8")


@given(texts, st.data())
def test_many_byte_offsets_convert_like_one(text, data):
    doc = Document("u", "plaintext", 1, text)
    cps = data.draw(st.lists(st.integers(0, len(text)), max_size=12))
    offsets = [len(text[:cp].encode("utf-8")) for cp in cps] + [-3, len(text.encode("utf-8")) + 5]
    assert doc.cp_offsets_at_bytes(offsets) == [*cps, 0, len(text)]


_SURROGATE_TEXTS = st.lists(st.sampled_from([*"ab_\n", "\r\n", "é", "世", "😀", "\ud800"]), max_size=40).map("".join)


def ref_cp_of_byte(text: str, b: int) -> int:
    """The code points before the character holding byte ``b`` (clamped)."""
    cp = 0
    while cp < len(text) and len(text[: cp + 1].encode("utf-8", "surrogatepass")) <= b:
        cp += 1
    return cp


@given(_SURROGATE_TEXTS, st.data())
def test_byte_offsets_convert_to_the_character_holding_them(text, data):
    """Any byte (inside a character too; lone surrogates, which ``utf8``
    passes through, count as one code point), ascending or not, with a line
    index scanned part of the way."""
    doc = Document("u", "plaintext", 1, text)
    size = len(doc.source_bytes)
    doc.line_of(data.draw(st.integers(0, len(text))))  # index known up to somewhere
    offsets = data.draw(st.lists(st.integers(-2, size + 2), max_size=12))
    if data.draw(st.booleans()):
        offsets.sort()
    expected = [ref_cp_of_byte(text, b) for b in offsets]
    assert doc.cp_offsets_at_bytes(offsets) == expected
    assert [Document("u", "plaintext", 1, text).cp_offset_at_byte(b) for b in offsets] == expected


@given(_SURROGATE_TEXTS, st.data())
def test_many_cp_offsets_convert_like_one_at_a_time(text, data):
    """Ascending or not, with a line index scanned part of the way."""
    doc = Document("u", "plaintext", 1, text)
    doc.line_of(data.draw(st.integers(0, len(text))))
    cps = data.draw(st.lists(st.integers(0, len(text)), max_size=12))
    if data.draw(st.booleans()):
        cps.sort()
    alone = [Document("u", "plaintext", 1, text).byte_offset_at(cp) for cp in cps]
    assert doc.byte_offsets_at(cps) == alone


@given(texts)
def test_line_count_and_line_text(text):
    doc = Document("u", "plaintext", 1, text)
    lines = ref_lines(text)
    assert doc.line_count == len(lines)
    for number, (start, end) in enumerate(lines):
        assert doc.line_text(number) == text[start:end]


# -- changes ------------------------------------------------------------------------------


@st.composite
def change_scripts(draw):
    """A starting text and a list of batches of (line, char, line, char, new_text) changes."""
    text = draw(texts)
    batches = draw(
        st.lists(
            st.lists(
                st.tuples(st.integers(0, 6), st.integers(0, 12), st.integers(0, 6), st.integers(0, 12), texts),
                min_size=1,
                max_size=3,
            ),
            min_size=1,
            max_size=5,
        )
    )
    enc = draw(st.sampled_from(ENCODINGS))
    full = draw(st.booleans())
    return text, batches, enc, full


def ref_apply(text: str, change: tuple, enc: PositionEncoding) -> tuple[str, int, int]:
    l1, c1, l2, c2, new = change
    a = ref_offset_at(text, Position(l1, c1), enc)
    b = ref_offset_at(text, Position(l2, c2), enc)
    start, end = min(a, b), max(a, b)
    return text[:start] + new + text[end:], start, end


@settings(max_examples=300)
@given(change_scripts())
def test_incremental_changes_equal_full_replacement(script):
    text, batches, enc, full = script
    doc = Document("u", "plaintext", 1, text)
    reference = text
    version = 1
    for batch in batches:
        changes = []
        expected_edits = []
        for change in batch:
            l1, c1, l2, c2, new = change
            if full and len(changes) == 0 and l1 == 0 and c1 == 0:
                changes.append(TextChange(None, new))
                old_reference = reference
                reference = new
                expected_edits.append((0, len(old_reference), old_reference, new, old_reference))
                continue
            changes.append(TextChange(Range(Position(l1, c1), Position(l2, c2)), new))
            before = reference
            reference, start, end = ref_apply(reference, change, enc)
            expected_edits.append((start, end, before[start:end], new, before))
        version += 1
        applied = doc.apply_changes(changes, version, enc)
        assert doc.text == reference
        assert doc.version == version
        assert doc.source_bytes == reference.encode("utf-8")
        assert len(applied) == len(expected_edits)
        for edit, (start, end, old_text, new, before) in zip(applied, expected_edits, strict=False):
            check_applied(edit, start, end, old_text, new, before)
        # the lazily rebuilt line index agrees with a fresh document
        fresh = Document("u", "plaintext", version, reference)
        for cp in valid_offsets(reference):
            assert doc.position_at(cp, enc) == fresh.position_at(cp, enc)
        # tree-sitter points (rows count \n only; the lone-\r count is kept per edit)
        for cp in range(len(reference) + 1):
            assert doc.point_at(cp) == ref_point(reference, cp)


def check_applied(edit: AppliedEdit, start: int, end: int, old_text: str, new_text: str, before: str) -> None:
    after = before[:start] + new_text + before[end:]
    assert (edit.start_cp, edit.old_end_cp, edit.new_end_cp) == (start, end, start + len(new_text))
    assert edit.old_text == old_text and edit.new_text == new_text
    assert edit.start_byte == len(before[:start].encode("utf-8"))
    assert edit.old_end_byte == len(before[:end].encode("utf-8"))
    assert edit.new_end_byte == len(after[: start + len(new_text)].encode("utf-8"))
    assert edit.start_point == ref_point(before, start)
    assert edit.old_end_point == ref_point(before, end)
    assert edit.new_end_point == ref_point(after, start + len(new_text))


@given(texts, st.sampled_from(ENCODINGS))
def test_reversed_range_is_ordered(text, enc):
    assume(len(text) >= 2)
    doc = Document("u", "plaintext", 1, text)
    end = doc.position_at(len(text), enc)
    start = Position(0, 0)
    assert doc.range_offsets(Range(end, start), enc) == (0, len(text))


@pytest.mark.parametrize(
    "text, start, end, new",
    [
        ("a\r\nb", 2, 3, ""),  # deleting the \n leaves a lone \r
        ("a\rb", 2, 2, "\n"),  # inserting \n after a lone \r pairs it
        ("a\rb", 1, 2, ""),  # deleting the lone \r
        ("ab", 1, 1, "\r"),  # typing a lone \r
        ("a\r", 2, 2, "\nb"),  # \r at the end of the text, then paired
        ("a\r\r\nb", 1, 3, "x"),
    ],
)
def test_point_at_follows_lone_carriage_returns_through_edits(text, start, end, new):
    doc = Document("u", "plaintext", 1, text)
    doc.replace(start, end, new)
    after = text[:start] + new + text[end:]
    assert doc.text == after
    for cp in range(len(after) + 1):
        assert doc.point_at(cp) == ref_point(after, cp)


# -- pending (unmaterialised) changes interleaved with reads -------------------------------

_OPS = st.one_of(
    st.tuples(st.just("change"), st.integers(0, 6), st.integers(0, 12), st.integers(0, 6), st.integers(0, 12), texts),
    st.tuples(st.just("type"), _ALPHABET),  # at the end of the last change
    st.tuples(st.just("backspace"), st.integers(1, 2)),  # before the end of the last change
    st.tuples(st.just("replace"), st.integers(-1, 60), st.integers(-1, 60), texts),  # by code points
    st.tuples(
        st.just("read"),
        st.sampled_from(
            [
                "text",
                "bytes",
                "len",
                "line_count",
                "offset_at",
                "position_at",
                "point_at",
                "byte_offset_at",
                "cp_offset_at_byte",
                "line_of",
                "line_text",
                "line_end",
            ]
        ),
        st.integers(-1, 60),
        st.integers(-1, 12),
    ),
)


@settings(max_examples=400)
@given(texts, st.lists(_OPS, max_size=25), st.sampled_from(ENCODINGS), st.sampled_from([3, 16, 8192]))
def test_interleaved_changes_and_reads_equal_reference(text, ops, enc, window_max):
    import nextedit.text.document as document_module

    saved, document_module._WINDOW_MAX = document_module._WINDOW_MAX, window_max
    try:
        doc = Document("u", "plaintext", 1, text)
        ref = text
        cursor = 0
        for op in ops:
            kind = op[0]
            before = ref
            if kind in ("change", "type", "backspace", "replace"):
                if kind == "change":
                    _, l1, c1, l2, c2, new = op
                    ref, start, end = ref_apply(ref, (l1, c1, l2, c2, new), enc)
                    [edit] = doc.apply_changes(
                        [TextChange(Range(Position(l1, c1), Position(l2, c2)), new)], doc.version + 1, enc
                    )
                else:
                    if kind == "type":
                        start, end, new = cursor, cursor, op[1]
                    elif kind == "backspace":
                        start, end, new = max(cursor - op[1], 0), cursor, ""
                    else:
                        _, a, b, new = op
                        start = min(max(a, 0), len(ref))
                        end = min(max(b, start), len(ref))
                    edit = doc.replace(start, end, new)
                    ref = ref[:start] + new + ref[end:]
                check_applied(edit, start, end, before[start:end], new, before)
                cursor = start + len(new)
                assert len(doc) == len(ref)
                continue
            _, what, a, b = op
            lines = ref_lines(ref)
            if what == "text":
                assert doc.text == ref
            elif what == "bytes":
                assert doc.source_bytes == ref.encode("utf-8")
            elif what == "len":
                assert len(doc) == len(ref)
            elif what == "line_count":
                assert doc.line_count == len(lines)
            elif what == "offset_at":
                assert doc.offset_at(Position(a, b), enc) == ref_offset_at(ref, Position(a, b), enc)
            elif what == "position_at":
                cp = min(max(a, 0), len(ref))
                if cp in valid_offsets(ref):
                    assert doc.position_at(cp, enc) == ref_position_at(ref, cp, enc)
            elif what == "point_at":
                cp = min(max(a, 0), len(ref))
                assert doc.point_at(cp) == ref_point(ref, cp)
            elif what == "byte_offset_at":
                cp = min(max(a, 0), len(ref))
                assert doc.byte_offset_at(cp) == len(ref[:cp].encode("utf-8"))
            elif what == "cp_offset_at_byte":
                cp = min(max(a, 0), len(ref))
                assert doc.cp_offset_at_byte(len(ref[:cp].encode("utf-8"))) == cp
            elif what == "line_of":
                cp = min(max(a, 0), len(ref))
                if cp in valid_offsets(ref):
                    assert doc.line_of(cp) == ref_position_at(ref, cp, enc).line
            elif what in ("line_text", "line_end"):
                line = min(max(a, 0), len(lines) - 1)
                start, end = lines[line]
                if what == "line_text":
                    assert doc.line_text(line) == ref[start:end]
                else:
                    assert doc.line_end(line) == end
                    assert doc.line_start(line) == start
        assert doc.text == ref
        assert doc.source_bytes == ref.encode("utf-8")
        fresh = Document("u", "plaintext", 1, ref)
        assert doc.line_count == fresh.line_count
        for cp in range(len(ref) + 1):
            assert doc.point_at(cp) == ref_point(ref, cp)
    finally:
        document_module._WINDOW_MAX = saved


def test_pending_changes_keep_lone_surrogates():
    text = "a\ud83d\ude00b\nc\udfffd\n"
    doc = Document("u", "plaintext", 1, text)
    doc.replace(2, 2, "\ud800")
    doc.replace(3, 3, "x")
    ref = "a\ud83d\ud800x\ude00b\nc\udfffd\n"
    assert doc.source_bytes == ref.encode("utf-8", "surrogatepass")
    assert doc.text == ref


@given(st.text(alphabet="ab😀\n", max_size=12), st.text(alphabet="ab😀\n", max_size=12))
def test_common_affixes_are_the_longest_non_overlapping_ones(old: str, new: str) -> None:
    from nextedit.text import common_affixes

    prefix, suffix = common_affixes(old, new)
    assert old[:prefix] == new[:prefix]
    assert prefix + suffix <= min(len(old), len(new))
    assert old[len(old) - suffix :] == new[len(new) - suffix :]
    # neither can grow: the next character differs (or there is none left)
    limit = min(len(old), len(new))
    assert prefix == limit or old[prefix] != new[prefix]
    assert prefix + suffix == limit or old[len(old) - suffix - 1] != new[len(new) - suffix - 1]


@given(
    text=st.text(alphabet="ab\n", max_size=80),
    data=st.data(),
    limit=st.integers(0, 30),
)
def test_the_line_around_an_offset_is_its_whole_line_when_it_fits(text: str, data, limit: int) -> None:
    at = data.draw(st.integers(0, len(text)))
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    assert line_around(text, at, limit) == ((start, end) if end - start <= limit else None)
