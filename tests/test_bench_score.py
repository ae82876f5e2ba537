"""The scorer, case by case, against FORMAT.md "Scoring"."""

from __future__ import annotations

import random

import pytest

from nextedit.bench.events import ExpectedEdit, GradedEdit, Query
from nextedit.bench.metrics import percentile, summarize
from nextedit.bench.replay import QueryResult, SessionResult
from nextedit.bench.score import (
    ReversalTracker,
    SuggestionError,
    expand_search_and_replace,
    indel_distance,
    judge,
    lcs_length,
    on_shortest_path,
    settle_jump,
)
from nextedit.bench.wire import offset_at, position_at
from nextedit.text import Document

URI = "file:///w/a.py"
TEXT = (
    "def area(w, h):\n"  # line 0
    "    return w * h\n"  # line 1
    "\n"  # line 2
    "print(area(1, 2))\n"  # line 3
    "print(area(3, 4))\n"  # line 4
    "print(area(5, 6))\n"  # line 5
)


def rng(l0: int, c0: int, l1: int, c1: int) -> dict:
    return {"start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}}


def docs(text: str = TEXT) -> dict[str, Document]:
    return {URI: Document(URI, "python", 1, text)}


def query(expected: list[ExpectedEdit], related: list[str] | None = None) -> Query:
    return Query(URI, 1, {"line": 3, "character": 0}, "automatic", expected, related or [])


def edit(*edits: tuple[dict, str]) -> dict:
    return {"kind": "edit", "id": "s-1", "uri": URI, "edits": [{"range": r, "newText": t} for r, t in edits]}


# expected: `area(3, 4)` → `area(3, 4, unit="m")` and the same on line 5
EXP = [
    ExpectedEdit("h1", URI, rng(4, 15, 4, 15), ', unit="m"'),
    ExpectedEdit("h2", URI, rng(5, 15, 5, 15), ', unit="m"'),
]


def J(sug: dict | None, expected=EXP, related=None, tracker=None, text=TEXT):
    return judge(sug, query(expected, related), docs(text), "utf-16", "utf-16", tracker)


# -- distance ------------------------------------------------------------------
def _dp_lcs(a: str, b: str) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def test_lcs_matches_dynamic_programming() -> None:
    r = random.Random(7)
    for _ in range(3000):
        a = "".join(r.choice("abcé😀") for _ in range(r.randint(0, 14)))
        b = "".join(r.choice("abcd😀") for _ in range(r.randint(0, 14)))
        assert lcs_length(a, b) == _dp_lcs(a, b)
        assert indel_distance(a, b) == len(a) + len(b) - 2 * _dp_lcs(a, b)


def test_shortest_path_definition() -> None:
    assert on_shortest_path("f(x)", "f(x, )", "f(x, y)")  # part of the insertion
    assert not on_shortest_path("f(x)", "f(x, ", "f(x, y)")  # loses the ")" the target keeps
    assert on_shortest_path("f(x)", "f(x, y)", "f(x, y)")  # the whole edit
    assert on_shortest_path("abc", "ac", "axc")  # deleting b is on the way to axc
    assert not on_shortest_path("f(x)", "f(x, z)", "f(x, y)")  # z is never in the target
    assert not on_shortest_path("f(x)", "f()", "f(x, y)")  # deletes text the target keeps


# -- edits ---------------------------------------------------------------------
def test_exact_expected_edit_is_correct() -> None:
    v = J(edit((rng(4, 15, 4, 15), ', unit="m"')))
    assert v.answered and v.correct and v.matched == ["h1"] and not v.reversal


def test_both_expected_edits_in_one_suggestion_are_correct() -> None:
    v = J(edit((rng(4, 15, 4, 15), ', unit="m"'), (rng(5, 15, 5, 15), ', unit="m"')))
    assert v.correct and v.matched == ["h1", "h2"]


def test_whole_line_rewrite_is_trimmed_to_the_changed_region() -> None:
    v = J(edit((rng(4, 0, 5, 0), 'print(area(3, 4, unit="m"))\n')))
    assert v.correct and v.matched == ["h1"]


def test_partial_edit_on_the_path_is_correct() -> None:
    v = J(edit((rng(4, 15, 4, 15), ", unit")))
    assert v.correct, v.reason


def test_edit_with_foreign_text_is_wrong() -> None:
    v = J(edit((rng(4, 15, 4, 15), ', unit="km"')))
    assert v.answered and not v.correct


def test_edit_touching_another_place_is_wrong() -> None:
    # line 3 is not expected to change
    v = J(edit((rng(4, 15, 4, 15), ', unit="m"'), (rng(3, 15, 3, 15), ', unit="m"')))
    assert not v.correct and "outside" in v.reason


def test_equivalent_placement_of_an_insertion_is_accepted() -> None:
    # expected: insert "bb" after "a|bb" — inserting it one character later gives the same text
    text = "x = abb\n"
    exp = [ExpectedEdit("h1", URI, rng(0, 5, 0, 5), "bb")]
    v = J(edit((rng(0, 6, 0, 6), "bb")), expected=exp, text=text)
    assert v.correct, v.reason


def test_suggestion_when_nothing_is_expected_is_wrong_and_silence_is_right() -> None:
    v = J(edit((rng(4, 15, 4, 15), ', unit="m"')), expected=[])
    assert v.answered and not v.correct
    s = J(None, expected=[])
    assert not s.answered and s.reason == "silent"


def test_noop_edit_is_wrong() -> None:
    v = J(edit((rng(4, 0, 4, 5), "print")))
    assert v.answered and not v.correct and v.reason == "changes nothing"


# -- reversals -------------------------------------------------------------------
def test_undoing_developer_text_is_a_reversal() -> None:
    # the developer typed `, unit="m"` on line 3; the suggestion deletes it again
    text = TEXT.replace("print(area(1, 2))", 'print(area(1, 2, unit="m"))')
    tracker = ReversalTracker()
    start = text.index(', unit="m"')
    tracker.on_change(URI, start, start, "", ', unit="m"')
    v = J(edit((rng(3, 15, 3, 25), "")), tracker=tracker, text=text)
    assert v.reversal and not v.correct


def test_restoring_deleted_text_is_a_reversal() -> None:
    # the developer deleted the body line; the suggestion puts it back
    text = TEXT.replace("    return w * h\n", "")
    tracker = ReversalTracker()
    tracker.on_change(URI, 16, 33, "    return w * h\n", "")
    v = J(edit((rng(1, 0, 1, 0), "    return w * h\n")), tracker=tracker, text=text)
    assert v.reversal and not v.correct


def test_repeating_the_developer_change_elsewhere_is_not_a_reversal() -> None:
    tracker = ReversalTracker()
    s = TEXT.index("area(1, 2)") + 9
    tracker.on_change(URI, s, s, "", ', unit="m"')
    v = J(edit((rng(4, 15, 4, 15), ', unit="m"')), tracker=tracker)
    assert v.correct and not v.reversal


def test_typed_spans_follow_later_changes() -> None:
    t = ReversalTracker()
    t.on_change(URI, 10, 10, "", "abc")  # typed [10, 13)
    t.on_change(URI, 0, 2, "xy", "")  # deletion before it: now [8, 11)
    assert t.typed[URI] == [(8, 11)]
    t.on_change(URI, 9, 10, "b", "")  # deleting inside it splits it
    assert t.typed[URI] == [(8, 9), (9, 10)]


# -- jumps -----------------------------------------------------------------------
JUMP_TO_5 = {"kind": "jump", "id": "j", "uri": URI, "position": {"line": 5, "character": 0}}
RIGHT_EDIT_ON_5 = edit((rng(5, 15, 5, 15), ', unit="m"'))


def test_a_jump_alone_lands_but_is_not_yet_correct() -> None:
    v = J(JUMP_TO_5)
    assert v.landed and v.landed_on == ["h2"]
    assert not v.correct and "not followed" in v.reason


def test_jump_that_lands_and_whose_follow_up_is_right_is_correct() -> None:
    v = J(JUMP_TO_5)
    settle_jump(v, J(RIGHT_EDIT_ON_5))
    assert v.correct and v.matched == ["h2"] and "follow-up moves toward" in v.reason


def test_jump_whose_follow_up_is_silent_or_a_second_jump_is_wrong() -> None:
    silent = J(JUMP_TO_5)
    settle_jump(silent, J(None))
    assert not silent.correct and silent.landed and "silent" in silent.reason
    again = J(JUMP_TO_5)
    follow = judge(JUMP_TO_5, query(EXP), docs(), "utf-16", "utf-16", follow_up=True)
    assert follow.answered and not follow.correct and follow.landed is None
    settle_jump(again, follow)
    assert not again.correct and "second jump" in again.reason


def test_jump_whose_follow_up_is_wrong_is_wrong() -> None:
    v = J(JUMP_TO_5)
    settle_jump(v, J(edit((rng(5, 15, 5, 15), ", x"))))
    assert not v.correct and "follow-up is wrong" in v.reason


def test_jump_elsewhere_is_wrong_even_with_a_right_follow_up() -> None:
    v = J({"kind": "jump", "id": "j", "uri": URI, "position": {"line": 3, "character": 15}})
    assert v.answered and v.landed is False
    settle_jump(v, J(RIGHT_EDIT_ON_5))
    assert not v.correct and "no expected edit" in v.reason


def test_jump_that_cannot_be_followed_is_wrong() -> None:
    v = J(JUMP_TO_5)
    settle_jump(v, None, "to a document that is not open")
    assert not v.correct and v.reason == "jump to a document that is not open"


def test_a_jump_takes_the_reversal_of_its_follow_up() -> None:
    tracker = ReversalTracker()
    follow = J(RIGHT_EDIT_ON_5, tracker=tracker)
    v = J(JUMP_TO_5)
    settle_jump(v, follow)
    assert v.correct and not v.reversal
    tracker.on_change(URI, 0, 9, "old_value", "")  # the developer deleted `old_value` earlier
    follow = J(edit((rng(5, 15, 5, 15), "old_value")), tracker=tracker)  # …and the follow-up puts it back
    assert follow.reversal
    v = J(JUMP_TO_5)
    settle_jump(v, follow)
    assert v.reversal and not v.correct


def test_jump_line_rules_for_multiline_ranges() -> None:
    exp = [ExpectedEdit("h1", URI, rng(1, 0, 3, 0), "x\n")]  # replaces lines 1 and 2
    on = J({"kind": "jump", "id": "j", "uri": URI, "position": {"line": 2, "character": 0}}, exp)
    off = J({"kind": "jump", "id": "j", "uri": URI, "position": {"line": 3, "character": 0}}, exp)
    assert on.landed and not off.landed


# -- searchAndReplace --------------------------------------------------------------
def test_search_and_replace_expansion() -> None:
    assert expand_search_and_replace("aXbXc", "X", "\\1", False) == [(1, 2, "\\1"), (3, 4, "\\1")]
    assert expand_search_and_replace("f(1) f(22)", r"f\(([0-9]+)\)", "g($1, $$0)", True) == [
        (0, 4, "g(1, $0)"),
        (5, 10, "g(22, $0)"),
    ]


@pytest.mark.parametrize(
    ("search", "replace", "why"),
    [
        (r"f\((\d+)\)", "g($1)", "shorthand"),  # \d: spell the class
        (r"f\(([0-9]+)\)", r"g(\1)", "backslash"),  # Python's group syntax in the replacement
        (r"(?<![a-z])f\(([0-9]+)\)", "g($1)", "lookaround"),
        (r"^f\(([0-9]+)\)", "g($1)", "anchor"),
    ],
)
def test_a_regex_outside_the_portable_subset_is_wrong(search: str, replace: str, why: str) -> None:
    with pytest.raises(SuggestionError, match=why):
        expand_search_and_replace("f(1) f(22)", search, replace, True)


def test_search_and_replace_literal_judged() -> None:
    # replaces `area(3, 4)` only: exactly one expected edit, as text
    sug = {
        "kind": "searchAndReplace",
        "id": "r",
        "uri": URI,
        "search": "area(3, 4)",
        "replace": 'area(3, 4, unit="m")',
        "isRegex": False,
    }
    assert J(sug).correct
    # replaces every `area(` → also the definition and line 3: wrong
    bad = {
        "kind": "searchAndReplace",
        "id": "r",
        "uri": URI,
        "search": "))",
        "replace": ', unit="m"))',
        "isRegex": False,
    }
    v = J(bad)
    assert v.answered and not v.correct


def test_search_and_replace_regex_judged() -> None:
    sug = {
        "kind": "searchAndReplace",
        "id": "r",
        "uri": URI,
        "search": r"area\(([35]), ([0-9])\)",
        "replace": 'area($1, $2, unit="m")',
        "isRegex": True,
    }
    v = J(sug)
    assert v.correct and v.matched == ["h1", "h2"]
    everywhere = dict(sug, search=r"area\(([0-9]), ([0-9])\)")  # line 3 too
    assert not J(everywhere).correct
    broken = dict(sug, search="area(")
    v = J(broken)
    assert v.answered and not v.correct and "unusable" in v.reason
    # the same rule as the engine used to send it: right sites, but not portable, so wrong
    python_style = dict(sug, search=r"area\(([35]), (\d)\)", replace=r'area(\1, \2, unit="m")')
    v = J(python_style)
    assert v.answered and not v.correct and "not a portable regex" in v.reason


def test_rename_kind_is_not_advertised_and_wrong() -> None:
    v = J({"kind": "rename", "id": "n", "uri": URI, "position": {"line": 0, "character": 4}, "newName": "surface"})
    assert v.answered and not v.correct


def test_suggestion_positions_in_another_encoding() -> None:
    text = "s = '😀'\nf(1)\n"
    exp = [ExpectedEdit("h1", URI, rng(1, 3, 1, 3), ", 2")]
    # the agent negotiated utf-8: the emoji is 4 units there, but line 1 is ASCII anyway
    v = judge(edit((rng(1, 3, 1, 3), ", 2")), query(exp), docs(text), "utf-8", "utf-16")
    assert v.correct


def test_vscode_grades() -> None:
    q = query(EXP)
    q.graded = [
        GradedEdit("nextEdit", URI, [(TEXT.index("area(3, 4)") + 9,) * 2 + (', unit="m"',)]),
        GradedEdit("valid", URI, None),
    ]
    v = judge(edit((rng(4, 15, 4, 15), ', unit="m"')), q, docs(), "utf-16", "utf-16")
    assert v.grade == "nextEdit"
    assert judge(None, q, docs(), "utf-16", "utf-16").grade == "silence (valid)"
    other = judge(edit((rng(0, 4, 0, 8), "size")), q, docs(), "utf-16", "utf-16")
    assert other.grade == "ungraded"


# -- metrics -----------------------------------------------------------------------
def _qr(expected, related, verdict, latency=1.0) -> QueryResult:
    return QueryResult("t", 1, "python", "nes-trace", query(expected, related), latency, verdict, None)


def test_metric_definitions() -> None:
    good = J(edit((rng(4, 15, 4, 15), ', unit="m"')))
    wrong = J(edit((rng(4, 15, 4, 15), ", x")))
    silent = J(None)
    silent_empty = J(None, expected=[])
    loud_empty = J(edit((rng(4, 15, 4, 15), ", x")), expected=[])
    s = SessionResult(
        "t",
        "python",
        "nes-trace",
        ["repetitive"],
        [
            _qr(EXP, ["h1"], good, 1.0),
            _qr(EXP, ["h2"], wrong, 2.0),
            _qr(EXP, ["h1"], silent, 3.0),
            _qr([], [], silent_empty, 4.0),
            _qr([], [], loud_empty, 100.0),
        ],
        hash_ok=True,
    )
    m = summarize([s])
    assert m["answered"] == 3 and m["correct"] == 1
    assert m["precision"] == pytest.approx(1 / 3)
    assert m["recall_related"] == pytest.approx(1 / 3)
    assert m["silence"] == pytest.approx(1 / 2)
    assert m["by_kind"]["edit"] == {"answered": 3, "correct": 1, "reversals": 0, "precision": pytest.approx(1 / 3)}
    assert m["latency_ms"]["p50"] == 3.0 and m["latency_ms"]["max"] == 100.0


def test_percentile_nearest_rank() -> None:
    xs = [float(i) for i in range(1, 101)]
    assert percentile(xs, 50) == 50.0 and percentile(xs, 99) == 99.0 and percentile(xs, 100) == 100.0
    assert percentile([], 50) is None


@pytest.mark.parametrize("n", [1000, 2000, 5000, 12000])
def test_percentile_p999_of_thousands_is_not_the_maximum(n: int) -> None:
    # in floats 99.9 / 100 * 1000 is a hair above 999: the rank must not round up past it
    xs = [float(i) for i in range(1, n + 1)]
    assert percentile(xs, 99.9) == n * 999 / 1000
    assert percentile(xs, 99) == n * 99 / 100


def _line_starts(doc: Document) -> list[int]:
    return [doc.line_start(i) for i in range(doc.line_count)]


def test_mirror_line_index_after_replacements_matches_full_scan() -> None:
    """The scorer's line spans come from a mirror changed in place: its line index must hold."""
    r = random.Random(3)
    alphabet = ["a", "\r", "\n", "\r\n", "😀", "é"]
    for _ in range(3000):
        doc = Document(URI, "python", 1, "".join(r.choice(alphabet) for _ in range(r.randint(0, 12))))
        for _ in range(3):
            a = r.randint(0, len(doc.text))
            b = r.randint(a, len(doc.text))
            doc.replace(a, b, "".join(r.choice(alphabet) for _ in range(r.randint(0, 4))))
            assert _line_starts(doc) == _line_starts(Document(URI, "python", 1, doc.text))


def test_wire_positions_clamp_and_snap() -> None:
    doc = Document(URI, "python", 1, "a😀b\r\nxy")
    assert offset_at(doc, {"line": 0, "character": 2}, "utf-16") == 1  # inside the pair → its start
    assert offset_at(doc, {"line": 0, "character": 3}, "utf-16") == 2
    assert position_at(doc, 3, "utf-16") == {"line": 0, "character": 4}
    assert position_at(doc, 3, "utf-8") == {"line": 0, "character": 6}
    assert offset_at(doc, {"line": 0, "character": 99}, "utf-32") == 3  # clamps to the line end
    assert offset_at(doc, {"line": 9, "character": 0}, "utf-16") == len(doc.text)
    assert position_at(doc, 4, "utf-16") == {"line": 0, "character": 4}  # inside \r\n → line end


def test_per_repository_counts_add_up_and_the_worst_is_named() -> None:
    good = J(edit((rng(4, 15, 4, 15), ', unit="m"')))
    wrong = J(edit((rng(4, 15, 4, 15), ", x")))
    landed = J(JUMP_TO_5)
    settle_jump(landed, J(None))  # landed, follow-up silent: wrong
    right_jump = J(JUMP_TO_5)
    settle_jump(right_jump, J(RIGHT_EDIT_ON_5))

    def session(repo: str, queries: list[QueryResult]) -> SessionResult:
        return SessionResult("t-" + repo, "python", "nes-trace", [], queries, hash_ok=True, repository=repo)

    a = session("org/a", [_qr(EXP, ["h1"], good, 1.0), _qr(EXP, ["h1"], wrong, 2.0), _qr(EXP, ["h2"], landed, 3.0)])
    b = session("org/b", [_qr(EXP, ["h2"], right_jump, 4.0), _qr(EXP, [], J(None), 5.0)])
    m = summarize([a, b])
    ra, rb = m["by_repository"]["org/a"], m["by_repository"]["org/b"]
    assert (ra["answered"], ra["correct"], ra["precision"]) == (3, 1, pytest.approx(1 / 3))
    assert (rb["answered"], rb["correct"], rb["precision"]) == (1, 1, 1.0)
    assert (ra["jumps"], ra["jumps_landed"], ra["jumps_correct"]) == (1, 1, 0)
    assert (rb["jumps"], rb["jumps_landed"], rb["jumps_correct"]) == (1, 1, 1)
    assert m["worst_repository"]["by_precision"] == {"repository": "org/a", "precision": pytest.approx(1 / 3)}
    assert m["worst_repository"]["by_recall_related"]["repository"] == "org/a"
    # leave-one-out figures are sums of the per-repository counts
    for key in ("queries", "answered", "correct", "related", "related_correct", "empty", "silent_on_empty"):
        assert ra[key] + rb[key] == m[key if key != "queries" else "scored_queries"], key
    assert ra["latency_ms"]["count"] == 3 and rb["latency_ms"]["p50"] == 4.0
    assert ra["sessions"] == 1 and ra["languages"] == ["python"]
