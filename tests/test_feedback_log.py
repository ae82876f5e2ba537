"""The feedback log: bounded records, counts kept in a summary, rotation, several writers,
a log too big to read, durability against kill -9, a state directory that cannot be
created, and `nextedit feedback`."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tracemalloc
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.feedback import FEEDBACK_FILE, FeedbackLog, FeedbackSubject, default_state_dir, open_feedback_log
from nextedit.feedback.log import SUMMARY_FILE, read_records, read_stats, rotated
from nextedit.feedback.stats import TAIL_BYTES
from nextedit.session import Session
from nextedit.suggest.engine import SuggestionEngine
from nextedit.suggest.model import SuggestionKinds
from nextedit.suggest.rank import Ranker
from nextedit.text import Position, Range, TextChange

if TYPE_CHECKING:
    from tests.helpers.rpc import RpcProcess

URI = "file:///a.py"


def subject(kind: str = "edit", suggester: str = "rename", edits: int = 1) -> FeedbackSubject:
    return FeedbackSubject(
        kind=kind,
        suggester=suggester,
        uri=URI,
        fingerprint=f"{suggester}:{URI}:old->new",
        edit_count=edits,
        inserted_chars=3 * edits,
        first_range=Range(Position(1, 4), Position(1, 7)),
    )


def record(
    log: FeedbackLog,
    action: str,
    *,
    kind: str | None = "edit",
    suggester: str = "rename",
    reason: str | None = "rejected",
    n: int = 1,
) -> None:
    for i in range(n):
        log.record(
            session="nes-1",
            action=action,
            suggestion_id=f"s-{i}",
            reason=None if action == "accept" else reason,
            subject=subject(kind, suggester) if kind else None,
        )


def test_record_is_one_bounded_json_line(tmp_path: Path) -> None:
    path = tmp_path / "state" / FEEDBACK_FILE
    with FeedbackLog(path) as log:
        record(log, "reject", kind="rename")
    (line,) = path.read_text().splitlines()
    data = json.loads(line)
    assert data["action"] == "reject"
    assert data["suggestionId"] == "s-0"
    assert data["session"] == "nes-1"
    assert data["kind"] == "rename" and data["suggester"] == "rename"
    assert data["reason"] == "rejected" and data["uri"] == URI
    assert data["edits"] == 1 and data["insertedChars"] == 3
    assert data["firstRange"] == [1, 4, 1, 7]
    assert len(data["fingerprint"]) == 16 and "old" not in data["fingerprint"]  # a digest, not the code
    assert "suggestion" not in data
    assert datetime.fromisoformat(data["time"].replace("Z", "+00:00")).utcoffset().total_seconds() == 0


def test_a_3000_edit_rename_writes_a_small_record(tmp_path: Path) -> None:
    """The record names the suggestion; it does not carry its 3,000 edits."""
    lines = [f"total_{i} = value + {i}" for i in range(3000)]
    text = "value = 1\n" + "\n".join(lines) + "\n"
    path = tmp_path / FEEDBACK_FILE
    with FeedbackLog(path) as log:
        # the record's size is the point, not the ranking: the suggester's own confidence decides
        engine = SuggestionEngine(ranker=Ranker.untrained())
        session = Session("nes-1", kinds=SuggestionKinds(rename=True), feedback=log, engine=engine)
        session.did_open(URI, "python", 1, text)
        rng = Range(Position(0, 0), Position(0, 5))
        assert session.did_change(URI, 2, [TextChange(rng, "amount")])
        suggestions = session.suggest(URI, 2, Position(0, 6))
        assert suggestions and len(suggestions[0].edits) >= 1000, suggestions[:1]
        session.accept(suggestions[0].id)
    (line,) = path.read_bytes().splitlines()
    assert len(line) < 1024, len(line)
    data = json.loads(line)
    assert data["edits"] == len(suggestions[0].edits)
    assert data["suggester"] == "rename" and data["action"] == "accept"
    assert b"amount" not in line  # the suggestion's text stays out


def test_client_strings_are_cut(tmp_path: Path) -> None:
    path = tmp_path / FEEDBACK_FILE
    with FeedbackLog(path) as log:
        log.record(session="s" * 10_000, action="reject", suggestion_id="x" * 100_000, reason="r" * 5000, subject=None)
    (line,) = path.read_bytes().splitlines()
    assert len(line) < 1024


def test_counters_survive_a_restart_and_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / FEEDBACK_FILE
    with FeedbackLog(path, fsync=True) as log:
        record(log, "accept", n=3)
        record(log, "reject", n=1)
        record(log, "reject", kind="jump", suggester="jump", n=2)
        assert log.acceptance_rate("rename") == 0.75
        assert log.acceptance_rate("jump") == 0.0
        assert log.acceptance_rate("never-heard-of") is None
        assert log.acceptance_rates() == {"rename": 0.75, "jump": 0.0}
    with path.open("ab") as f:
        f.write(b'{"time": "2026-01-01T00:00:00Z", "action": "acc')  # the writer died mid-line
    with FeedbackLog(path) as log:
        assert log.acceptance_by_kind() == {"edit": (3, 4), "jump": (0, 2)}
        assert log.acceptance_rate("rename") == 0.75
        record(log, "accept", kind=None)  # feedback on an unknown suggestion
        assert log.acceptance_by_kind()["unknown"] == (1, 1)
    lines = path.read_text().splitlines()
    assert json.loads(lines[-1])["action"] == "accept"  # the torn line did not swallow it
    with FeedbackLog(path) as log:
        assert log.acceptance_by_kind() == {"edit": (3, 4), "jump": (0, 2), "unknown": (1, 1)}


def test_counts_come_from_the_summary_and_the_lines_after_it(tmp_path: Path) -> None:
    """A summary that lags (the writer was killed between the line and the summary)
    is caught up from the lines past its offset."""
    path = tmp_path / FEEDBACK_FILE
    with FeedbackLog(path) as log:
        record(log, "accept", n=2)
    summary = (tmp_path / SUMMARY_FILE).read_bytes()
    with FeedbackLog(path) as log:
        record(log, "reject", n=3)
    (tmp_path / SUMMARY_FILE).write_bytes(summary)  # as if the last three summary saves were lost
    with FeedbackLog(path) as log:
        assert log.acceptance_by_suggester() == {"rename": (2, 5)}


def test_a_damaged_summary_falls_back_to_the_log(tmp_path: Path) -> None:
    path = tmp_path / FEEDBACK_FILE
    with FeedbackLog(path) as log:
        record(log, "accept", n=2)
        record(log, "reject", n=2)
    (tmp_path / SUMMARY_FILE).write_text("{not json")
    with FeedbackLog(path) as log:
        assert log.acceptance_by_suggester() == {"rename": (2, 4)}


def test_the_log_rotates_and_keeps_two_old_files(tmp_path: Path) -> None:
    path = tmp_path / FEEDBACK_FILE
    with FeedbackLog(path, max_bytes=4000) as log:
        record(log, "accept", n=60)
        record(log, "reject", n=40)
        assert log.acceptance_by_suggester() == {"rename": (60, 100)}
    assert rotated(path, 1).exists() and rotated(path, 2).exists()
    assert not rotated(path, 3).exists()
    for file in (path, rotated(path, 1), rotated(path, 2)):
        assert file.stat().st_size <= 4000 + 1024
    kept = sum(1 for n in (2, 1) for _ in read_records(rotated(path, n))) + sum(1 for _ in read_records(path))
    assert kept < 100  # the oldest records were rotated away …
    with FeedbackLog(path, max_bytes=4000) as log:
        assert log.acceptance_by_suggester() == {"rename": (60, 100)}  # … their counts were not
    assert read_stats(path).by_suggester == {"rename": [60, 100]}


def test_two_writers_share_counts_and_rotation(tmp_path: Path) -> None:
    """Two front ends on one state directory (here two logs in one process, each
    with its own descriptors and lock): neither loses or double-counts the other's
    records, which each counts as of its own latest record."""
    path = tmp_path / FEEDBACK_FILE
    first = FeedbackLog(path, max_bytes=3000)
    second = FeedbackLog(path, max_bytes=3000)
    try:
        for i in range(40):
            record(first if i % 2 else second, "accept" if i % 3 else "reject", suggester=f"s{i % 2}")
        record(first, "accept", suggester="s1")
        record(second, "accept", suggester="s0")
        expected = {"s0": (14, 21), "s1": (14, 21)}
        assert second.acceptance_by_suggester() == expected
        assert first.acceptance_by_suggester() == {"s0": (13, 20), "s1": (14, 21)}  # before second's last
    finally:
        first.close()
        second.close()
    with FeedbackLog(path, max_bytes=3000) as log:
        assert log.acceptance_by_suggester() == expected


def test_opening_a_huge_log_reads_only_its_tail(tmp_path: Path) -> None:
    """A log written by an older nextedit (whole suggestions, no summary, never
    rotated) is not read whole: its tail seeds the counts and it is rotated away."""
    path = tmp_path / FEEDBACK_FILE
    bulky = {"id": "s-1", "kind": "edit", "edits": [{"newText": "x" * 200}] * 200}
    old = {"action": "accept", "kind": "edit", "suggester": "old", "suggestion": bulky}
    recent = {"action": "reject", "kind": "edit", "suggester": "recent", "reason": "ignored"}
    with path.open("wb") as f:
        line = json.dumps(old).encode() + b"\n"
        for _ in range(40 * 1024 * 1024 // len(line)):  # 40 MB of old records
            f.write(line)
        f.write((json.dumps(recent) + "\n").encode() * 100)
    size = path.stat().st_size
    tracemalloc.start()
    try:
        with FeedbackLog(path) as log:
            _, peak = tracemalloc.get_traced_memory()
            rates = log.acceptance_by_suggester()
    finally:
        tracemalloc.stop()
    assert peak < 8 * TAIL_BYTES, peak  # not the 40 MB
    assert rates["recent"] == (0, 100)
    assert rates["old"][1] < 40  # only what lies in the tail
    assert rotated(path, 1).stat().st_size == size and path.stat().st_size == 0


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["accept", "reject"]), st.sampled_from(["a", "b"]), st.booleans())))
def test_counts_equal_the_records_whatever_the_restarts(tmp_path_factory: Any, steps: list) -> None:
    """However records and restarts interleave, the counts are those of the records."""
    path = tmp_path_factory.mktemp("fb") / FEEDBACK_FILE
    expected: dict[str, list[int]] = {}
    log = FeedbackLog(path, max_bytes=2000)
    try:
        for action, suggester, restart in steps:
            record(log, action, suggester=suggester)
            tally = expected.setdefault(suggester, [0, 0])
            tally[0] += action == "accept"
            tally[1] += 1
            if restart:
                log.close()
                log = FeedbackLog(path, max_bytes=2000)
        assert log.acceptance_by_suggester() == {k: tuple(v) for k, v in sorted(expected.items())}
    finally:
        log.close()


def test_rejects_unknown_actions(tmp_path: Path) -> None:
    with FeedbackLog(tmp_path / FEEDBACK_FILE) as log, pytest.raises(ValueError):
        record(log, "maybe")


def test_default_state_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_state_dir() == tmp_path / "nextedit"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_state_dir() == tmp_path / "home" / ".local" / "state" / "nextedit"


def test_a_state_dir_that_cannot_be_created_costs_one_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with caplog.at_level(logging.DEBUG, logger="nextedit"):
        assert open_feedback_log(blocker / "state") is None
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(problems) == 1 and "not be recorded" in problems[0].getMessage()
    assert problems[0].exc_info is None  # one line, no traceback


def test_kill_9_after_100_notifications_loses_nothing(acp_factory: Any, state_dir: Path) -> None:
    acp: RpcProcess = acp_factory(check_exit=False)
    acp.initialize(["utf-16"], rename=True)
    sid = acp.start_session()
    # one real suggestion, so that records carry a subject
    text = "def area(w, h):\n    size = w * h\n    return size + size\n"
    acp.notify("document/didOpen", {"sessionId": sid, "uri": URI, "languageId": "python", "version": 1, "text": text})
    change = {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 8}}, "text": "total"}
    acp.notify("document/didChange", {"sessionId": sid, "uri": URI, "version": 2, "contentChanges": [change]})
    position = {"line": 1, "character": 9}
    answer = acp.call(
        "nes/suggest", {"sessionId": sid, "uri": URI, "version": 2, "position": position, "triggerKind": "automatic"}
    )
    (suggestion,) = answer["result"]["suggestions"][:1]
    notes = []
    ids = [suggestion["id"]] + [f"s-unknown-{i}" for i in range(1, 100)]
    for i, suggestion_id in enumerate(ids):
        if i % 3:
            params = {"sessionId": sid, "id": suggestion_id}
            if i % 2:
                params = {"sessionId": sid, "suggestionId": suggestion_id}  # the v2 spelling
            notes.append({"jsonrpc": "2.0", "method": "nes/accept", "params": params})
        else:
            params = {"sessionId": sid, "id": suggestion_id, "reason": "rejected"}
            notes.append({"jsonrpc": "2.0", "method": "nes/reject", "params": params})
    final = acp.request_message(
        "nes/suggest",
        {
            "sessionId": sid,
            "uri": "file:///x.py",
            "version": 1,
            "position": {"line": 0, "character": 0},
            "triggerKind": "manual",
        },
    )
    acp.send(*notes, final)
    assert acp.wait_for(final["id"])["result"] == {"suggestions": []}
    acp.kill9()
    lines = (state_dir / FEEDBACK_FILE).read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["suggestionId"] for r in records] == ids
    assert [r["action"] for r in records] == ["accept" if i % 3 else "reject" for i in range(100)]
    assert all(r["session"] == sid for r in records)
    assert records[0]["suggester"] == "rename" and records[0]["edits"] >= 1
    # a new process counts every one of them
    with FeedbackLog(state_dir / FEEDBACK_FILE) as log:
        assert log.acceptance_by_kind()["unknown"] == (66, 99)
        assert log.acceptance_by_suggester() == {"rename": (0, 1)}


def run_feedback(state_dir: Path, *extra: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "nextedit", "feedback", "--state-dir", str(state_dir), *extra],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "160"},
    )
    return done.stdout


@pytest.mark.e2e
def test_feedback_command(state_dir: Path) -> None:
    assert "no feedback" in run_feedback(state_dir)
    with FeedbackLog(state_dir / FEEDBACK_FILE) as log:
        record(log, "accept", kind="rename", n=3)
        record(log, "reject", kind="rename", n=1)
        record(log, "reject", kind="edit", suggester="repeat", reason="ignored", n=2)
        record(log, "reject", kind="edit", suggester="repeat", reason="replaced", n=1)
        record(log, "reject", kind=None, reason="cancelled", n=1)
        record(log, "accept", kind="edit", suggester="model:next-edit", n=1)
        record(log, "reject", kind="edit", suggester="model:next-edit", reason="ignored", n=1)
    table = run_feedback(state_dir)
    rename_row = next(line for line in table.splitlines() if line.strip("│ ").startswith("rename"))
    assert "3" in rename_row and "4" in rename_row and "75%" in rename_row
    repeat_row = next(line for line in table.splitlines() if line.strip("│ ").startswith("repeat"))
    assert "ignored 2" in repeat_row and "replaced 1" in repeat_row and "0%" in repeat_row
    assert "cancelled 1" in table  # feedback on a suggestion the session did not know
    data = json.loads(run_feedback(state_dir, "--json"))
    assert data["byKind"]["rename"] == {"accepted": 3, "total": 4, "rate": 0.75}
    assert data["byKind"]["edit"] == {"accepted": 1, "total": 5, "rate": 0.2}
    # per source: the engine's suggesters together, the model on its own
    assert data["bySource"] == {
        "model:next-edit": {"accepted": 1, "total": 2, "rate": 0.5},
        "synthesis": {"accepted": 3, "total": 7, "rate": round(3 / 7, 4)},
    }
    model_row = next(line for line in table.splitlines() if line.strip("│ ").startswith("model:next-edit"))
    assert "50%" in model_row
    assert data["bySuggester"]["repeat"] == {
        "accepted": 0,
        "total": 3,
        "rate": 0.0,
        "reasons": {"ignored": 2, "replaced": 1},
    }
    assert data["bySuggester"]["rename"]["reasons"] == {"rejected": 1}
    assert data["unknownSuggestionReasons"] == {"cancelled": 1}
    assert data["total"] == 10 and data["accepted"] == 4
