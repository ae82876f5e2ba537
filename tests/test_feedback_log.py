"""The feedback log: record format, counters, torn lines, durability against kill -9, `nextedit feedback`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from nextedit.feedback import FEEDBACK_FILE, FeedbackLog, default_state_dir

if TYPE_CHECKING:
    from tests.conftest import RpcProcess


def record(
    log: FeedbackLog, action: str, *, kind: str | None = "edit", suggester: str | None = "rename", n: int = 1
) -> None:
    for i in range(n):
        log.record(
            session="nes-1",
            action=action,
            suggestion_id=f"s-{i}",
            reason=None if action == "accept" else "rejected",
            kind=kind,
            suggester=suggester,
            uri="file:///a.py",
            suggestion={"id": f"s-{i}", "kind": kind, "uri": "file:///a.py"} if kind else None,
        )


def test_record_is_one_json_line(tmp_path: Path) -> None:
    path = tmp_path / "state" / FEEDBACK_FILE
    with FeedbackLog(path) as log:
        record(log, "reject", kind="rename")
    (line,) = path.read_text().splitlines()
    data = json.loads(line)
    assert data["action"] == "reject"
    assert data["suggestionId"] == "s-0"
    assert data["session"] == "nes-1"
    assert data["kind"] == "rename" and data["suggester"] == "rename"
    assert data["reason"] == "rejected" and data["uri"] == "file:///a.py"
    assert data["suggestion"]["id"] == "s-0"
    assert datetime.fromisoformat(data["time"].replace("Z", "+00:00")).utcoffset().total_seconds() == 0


def test_counters_survive_a_restart_and_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / FEEDBACK_FILE
    with FeedbackLog(path, fsync=True) as log:
        record(log, "accept", n=3)
        record(log, "reject", n=1)
        record(log, "reject", kind="jump", suggester="jump", n=2)
        assert log.acceptance_rate("rename") == 0.75
        assert log.acceptance_rate("jump") == 0.0
        assert log.acceptance_rate("never-heard-of") is None
    with path.open("ab") as f:
        f.write(b'{"time": "2026-01-01T00:00:00Z", "action": "acc')  # the writer died mid-line
    with FeedbackLog(path) as log:
        assert log.acceptance_by_kind() == {"edit": (3, 4), "jump": (0, 2)}
        assert log.acceptance_rate("rename") == 0.75
        record(log, "accept", kind=None, suggester=None)  # feedback on an unknown suggestion
        assert log.acceptance_by_kind()["unknown"] == (1, 1)
    lines = path.read_text().splitlines()
    assert json.loads(lines[-1])["action"] == "accept"  # the torn line did not swallow it
    with FeedbackLog(path) as log:
        assert log.acceptance_by_kind() == {"edit": (3, 4), "jump": (0, 2), "unknown": (1, 1)}


def test_rejects_unknown_actions(tmp_path: Path) -> None:
    with FeedbackLog(tmp_path / FEEDBACK_FILE) as log, pytest.raises(ValueError):
        record(log, "maybe")


def test_default_state_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_state_dir() == tmp_path / "nextedit"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_state_dir() == tmp_path / "home" / ".local" / "state" / "nextedit"


def test_kill_9_after_100_notifications_loses_nothing(acp_factory: Any, state_dir: Path) -> None:
    acp: RpcProcess = acp_factory(check_exit=False)
    acp.initialize(["utf-16"], rename=True)
    sid = acp.start_session()
    notes = []
    for i in range(100):
        if i % 3:
            params = {"sessionId": sid, "id": f"s-{i}"}
            if i % 2:
                params = {"sessionId": sid, "suggestionId": f"s-{i}"}  # the v2 spelling
            notes.append({"jsonrpc": "2.0", "method": "nes/accept", "params": params})
        else:
            params = {"sessionId": sid, "id": f"s-{i}", "reason": "rejected"}
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
    assert [r["suggestionId"] for r in records] == [f"s-{i}" for i in range(100)]
    assert [r["action"] for r in records] == ["accept" if i % 3 else "reject" for i in range(100)]
    assert all(r["session"] == sid for r in records)


def run_feedback(state_dir: Path, *extra: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "nextedit", "feedback", "--state-dir", str(state_dir), *extra],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "120"},
    )
    return done.stdout


def test_feedback_command(state_dir: Path) -> None:
    assert "no feedback" in run_feedback(state_dir)
    with FeedbackLog(state_dir / FEEDBACK_FILE) as log:
        record(log, "accept", kind="rename", n=3)
        record(log, "reject", kind="rename", n=1)
        record(log, "reject", kind="edit", suggester="repeat", n=2)
    table = run_feedback(state_dir)
    rename_row = next(line for line in table.splitlines() if "rename" in line)
    assert "3" in rename_row and "4" in rename_row and "75%" in rename_row
    assert "edit" in table and "0%" in table
    data = json.loads(run_feedback(state_dir, "--json"))
    assert data["byKind"]["rename"] == {"accepted": 3, "total": 4, "rate": 0.75}
    assert data["byKind"]["edit"] == {"accepted": 0, "total": 2, "rate": 0.0}
    assert data["bySuggester"]["repeat"]["total"] == 2
    assert data["total"] == 6 and data["accepted"] == 3
