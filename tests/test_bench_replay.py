"""The replayer over real stdio pipes (a scripted fake agent, and the real agent when present)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from nextedit.bench.events import Change, End, ExpectedEdit, Header, Open, Query, Session
from nextedit.bench.metrics import summarize
from nextedit.bench.readers import load_sample
from nextedit.bench.replay import Replayer
from nextedit.bench.runner import run_sessions
from nextedit.bench.transport import InProcessTransport, SubprocessTransport
from nextedit.bench.wire import sha256_text
from nextedit.cli import main

FAKE_AGENT = Path(__file__).with_name("fake_agent.py")
URI = "file:///w/calc.py"
TEXT = "s = '😀'\nprint(area(1, 2))\nprint(area(3, 4))\nprint(area(5, 6))\n"


def rng(l0: int, c0: int, l1: int, c1: int) -> dict:
    return {"start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}}


def make_session(trace: str = "t1") -> Session:
    """The developer adds `, unit="m"` to three calls, one after the other."""
    after1 = TEXT.replace("area(1, 2)", 'area(1, 2, unit="m")')
    after2 = after1.replace("area(3, 4)", 'area(3, 4, unit="m")')
    final = after2.replace("area(5, 6)", 'area(5, 6, unit="m")')
    ins = ', unit="m"'
    return Session(
        Header(trace=trace, tags=["repetitive"]),
        [
            Open(URI, "python", 1, TEXT),
            Change(URI, 2, [{"range": rng(1, 15, 1, 15), "text": ins}], {"line": 1, "character": 25}),
            Query(
                URI,
                2,
                {"line": 1, "character": 25},
                "automatic",
                [ExpectedEdit("h2", URI, rng(2, 15, 2, 15), ins), ExpectedEdit("h3", URI, rng(3, 15, 3, 15), ins)],
                ["h2", "h3"],
            ),
            Change(URI, 3, [{"range": rng(2, 15, 2, 15), "text": ins}], {"line": 2, "character": 25}),
            Query(
                URI,
                3,
                {"line": 2, "character": 25},
                "automatic",
                [ExpectedEdit("h3", URI, rng(3, 15, 3, 15), ins)],
                ["h3"],
            ),
            Change(URI, 4, [{"range": rng(3, 15, 3, 15), "text": ins}], {"line": 3, "character": 25}),
            Query(URI, 4, {"line": 3, "character": 25}, "automatic", [], []),
            End(sha256_text(final)),
        ],
    )


def fake_cmd(tmp_path: Path, script: list | None = None, *extra: str) -> list[str]:
    cmd = [sys.executable, str(FAKE_AGENT), "--log", str(tmp_path / "agent.log")]
    if script is not None:
        (tmp_path / "script.json").write_text(json.dumps(script), encoding="utf-8")
        cmd += ["--script", str(tmp_path / "script.json")]
    return cmd + list(extra)


def agent_log(tmp_path: Path) -> list[dict]:
    return [json.loads(x) for x in (tmp_path / "agent.log").read_text().splitlines()]


@pytest.mark.e2e
def test_replay_over_stdio_scores_and_rejects(tmp_path: Path) -> None:
    script = [
        # query 1: the right edit at the next call site (utf-16 positions)
        [{"kind": "edit", "id": "$ID", "edits": [{"range": rng(2, 15, 2, 15), "newText": ', unit="m"'}]}],
        # query 2: a wrong edit (foreign text), then a right one that does not count
        [
            {"kind": "edit", "id": "$ID", "edits": [{"range": rng(3, 15, 3, 15), "newText": ", x"}]},
            {"kind": "edit", "id": "$ID", "edits": [{"range": rng(3, 15, 3, 15), "newText": ', unit="m"'}]},
        ],
        # query 3: nothing expected; stays silent
        [],
    ]
    replayer = Replayer(lambda: SubprocessTransport(fake_cmd(tmp_path, script)))
    with replayer:
        res = replayer.replay(make_session())
    assert res.error is None and res.hash_ok is True
    verdicts = [q.verdict for q in res.queries]
    assert [v.correct for v in verdicts] == [True, False, False]
    assert [v.answered for v in verdicts] == [True, True, False]
    assert all(q.latency_ms is not None and q.latency_ms > 0 for q in res.queries)
    m = summarize([res])
    assert m["precision"] == 0.5 and m["recall_related"] == 0.5 and m["silence"] == 1.0

    msgs = agent_log(tmp_path)
    methods = [x["method"] for x in msgs]
    assert methods[:3] == ["initialize", "nes/start", "document/didOpen"]
    assert methods[-1] == "nes/close"
    caps = msgs[0]["params"]["clientCapabilities"]
    assert caps["positionEncodings"] == ["utf-16"]
    assert set(caps["nes"]) == {"jump", "searchAndReplace"}  # not rename
    assert msgs[0]["params"]["protocolVersion"] == 1
    rejects = [x for x in msgs if x["method"] == "nes/reject"]
    assert len(rejects) == 1 and rejects[0]["params"]["reason"] == "ignored"
    assert rejects[0]["params"]["id"] == res.queries[1].suggestion["id"]
    assert not any(x["method"] == "nes/accept" for x in msgs)
    suggests = [x["params"] for x in msgs if x["method"] == "nes/suggest"]
    assert [s["version"] for s in suggests] == [2, 3, 4]
    assert all(s["sessionId"].startswith("fake-") and s["triggerKind"] == "automatic" for s in suggests)


@pytest.mark.e2e
def test_positions_are_converted_to_the_negotiated_encoding(tmp_path: Path) -> None:
    """The client advertises utf-8; the trace is utf-16: every wire position is converted."""
    text = "x = '😀'; f(1)\n"
    s = Session(
        Header(trace="enc"),
        [
            Open(URI, "python", 1, text),
            # utf-16: the emoji is 2 units, so "f(1" ends at character 13
            Change(URI, 2, [{"range": rng(0, 13, 0, 13), "text": ", 2"}], {"line": 0, "character": 16}),
            Query(
                URI,
                2,
                {"line": 0, "character": 16},
                "automatic",
                [ExpectedEdit("h1", URI, rng(0, 0, 0, 0), "y = 1\n")],
                [],
            ),
            End(sha256_text("x = '😀'; f(1, 2)\n")),
        ],
    )
    # the agent answers in utf-8 (emoji = 4 bytes): insert "y = 1\n" at 0:0 → correct
    script = [[{"kind": "edit", "id": "$ID", "edits": [{"range": rng(0, 0, 0, 0), "newText": "y = 1\n"}]}]]
    replayer = Replayer(lambda: SubprocessTransport(fake_cmd(tmp_path, script)), position_encoding="utf-8")
    with replayer:
        assert replayer.agent_encoding == "utf-8"
        res = replayer.replay(s)
    assert res.hash_ok is True and res.queries[0].verdict.correct
    change = next(x for x in agent_log(tmp_path) if x["method"] == "document/didChange")
    assert change["params"]["contentChanges"][0]["range"] == rng(0, 15, 0, 15)  # utf-8 units
    suggest = next(x for x in agent_log(tmp_path) if x["method"] == "nes/suggest")
    assert suggest["params"]["position"] == {"line": 0, "character": 18}


@pytest.mark.e2e
def test_a_dying_agent_fails_its_session_and_is_restarted(tmp_path: Path) -> None:
    replayer = Replayer(lambda: SubprocessTransport(fake_cmd(tmp_path, None, "--crash-after", "2")))
    with replayer:
        first = replayer.replay(make_session("a"))
        second = replayer.replay(make_session("b"))
    assert first.error and "exited" in first.error
    assert second.error and len(second.queries) == 1  # the restarted agent crashes again later


def test_in_process_transport_contract(tmp_path: Path) -> None:
    class Agent:
        def __init__(self) -> None:
            self.seen: list[dict] = []

        def send(self, message: dict) -> list[dict]:
            self.seen.append(message)
            if "id" not in message:
                return []
            result = {
                "initialize": {"protocolVersion": 1, "agentCapabilities": {}},
                "nes/start": {"sessionId": "s1"},
                "nes/close": {},
                "nes/suggest": {"suggestions": []},
            }[message["method"]]
            return [
                {"jsonrpc": "2.0", "method": "log/noise", "params": {}},
                {"jsonrpc": "2.0", "id": message["id"], "result": result},
            ]

    agent = Agent()
    replayer = Replayer(lambda: InProcessTransport(tmp_path, agent=agent))
    with replayer:
        res = replayer.replay(make_session())
    assert res.hash_ok is True and len(res.queries) == 3
    assert summarize([res])["silence"] == 1.0
    assert [m["method"] for m in agent.seen][-1] == "nes/close"


@pytest.mark.e2e
def test_cli_bench_on_the_bundled_sample(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "m.json"
    explain = tmp_path / "explain.jsonl"
    rc = main(
        [
            "bench",
            "--agent-cmd",
            " ".join(fake_cmd(tmp_path)),
            "--json",
            str(out),
            "--report",
            str(tmp_path / "rep"),
            "--explain",
            str(explain),
            "--no-progress",
        ]
    )
    assert rc == 0
    data = json.loads(out.read_text())
    m = data["metrics"]
    n = sum(len(s.queries) for s in load_sample())
    assert m["sessions"] == 12 and m["sessions_hash_ok"] == 12 and m["queries"] == n
    assert m["silence"] == 1.0 and m["answered"] == 0
    assert len(explain.read_text().splitlines()) == n
    first = json.loads(explain.read_text().splitlines()[0])
    assert {"suggestion", "expected", "verdict", "latencyMs"} <= set(first)
    # the bundled sample reports under its own name, never over the recorded quality results
    assert (tmp_path / "rep" / "sample.md").exists() and (tmp_path / "rep" / "sample.json").exists()
    assert not (tmp_path / "rep" / "quality.md").exists()
    assert "precision" in capsys.readouterr().out


def _real_agent_available() -> bool:
    try:
        return importlib.util.find_spec("nextedit.acp.command") is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.e2e
@pytest.mark.skipif(not _real_agent_available(), reason="`nextedit acp` not built yet")
def test_real_agent_replays_the_sample_over_stdio() -> None:
    sessions = load_sample()[:4]
    results, meta = run_sessions(sessions, timeout=60)
    assert all(r.error is None for r in results), [r.error for r in results]
    assert all(r.hash_ok for r in results)
    m = summarize(results)
    assert m["queries"] == sum(len(s.queries) for s in sessions)
    assert m["query_errors"] == 0


# -- jumps are followed --------------------------------------------------------------------------
INS = ', unit="m"'
JUMP_TO_LINE_2 = {"kind": "jump", "id": "$ID", "position": {"line": 2, "character": 3}}
JUMP_TO_LINE_0 = {"kind": "jump", "id": "$ID", "position": {"line": 0, "character": 0}}
EDIT_LINE_2 = {"kind": "edit", "id": "$ID", "edits": [{"range": rng(2, 15, 2, 15), "newText": INS}]}
WRONG_EDIT_LINE_2 = {"kind": "edit", "id": "$ID", "edits": [{"range": rng(2, 15, 2, 15), "newText": ", x"}]}


def one_query_session(trace: str = "j1") -> Session:
    """The first query of :func:`make_session` only (expected: lines 2 and 3)."""
    s = make_session(trace)
    return Session(s.header, s.events[:3])


def replay_script(tmp_path: Path, script: list, session: Session | None = None):
    replayer = Replayer(lambda: SubprocessTransport(fake_cmd(tmp_path, script)))
    with replayer:
        res = replayer.replay(session or one_query_session())
    msgs = agent_log(tmp_path)
    return res, msgs


@pytest.mark.e2e
def test_a_jump_is_followed_at_its_position_and_kept_when_the_follow_up_is_right(tmp_path: Path) -> None:
    res, msgs = replay_script(tmp_path, [[JUMP_TO_LINE_2, EDIT_LINE_2], [EDIT_LINE_2]])
    (q,) = res.queries
    assert q.verdict.kind == "jump" and q.verdict.landed and q.verdict.correct
    assert q.verdict.matched == ["h2"]
    suggests = [x["params"] for x in msgs if x["method"] == "nes/suggest"]
    assert len(suggests) == 2
    follow = suggests[1]
    assert follow["position"] == {"line": 2, "character": 3}
    assert follow["uri"] == URI and follow["version"] == suggests[0]["version"] == 2
    assert follow["triggerKind"] == "automatic" and follow["sessionId"] == suggests[0]["sessionId"]
    assert q.followup is not None and q.followup.verdict.correct and q.followup.suggestion["kind"] == "edit"
    assert q.latency_ms is not None and q.followup.latency_ms is not None  # timed apart
    assert not [x for x in msgs if x["method"] == "nes/reject"]
    m = summarize([res])
    assert (m["jumps"], m["jumps_landed"], m["jumps_correct"], m["correct"]) == (1, 1, 1, 1)
    assert m["followup_latency_ms"]["count"] == 1 and m["latency_ms"]["count"] == 1
    explained = q.explain()
    assert explained["followUp"]["position"] == {"line": 2, "character": 3}
    assert explained["followUp"]["verdict"]["correct"] is True and explained["repository"] == "j1"


def rejected_ids(msgs: list[dict]) -> list[str]:
    rejects = [x["params"] for x in msgs if x["method"] == "nes/reject"]
    assert all(r["reason"] == "ignored" for r in rejects)
    return [r["id"] for r in rejects]


@pytest.mark.e2e
def test_a_jump_whose_follow_up_is_wrong_is_wrong_and_both_are_rejected(tmp_path: Path) -> None:
    res, msgs = replay_script(tmp_path, [[JUMP_TO_LINE_2], [WRONG_EDIT_LINE_2]])
    (q,) = res.queries
    assert q.verdict.landed and not q.verdict.correct and "follow-up is wrong" in q.verdict.reason
    # the follow-up's first suggestion, then the jump; both after the follow-up request
    assert rejected_ids(msgs) == [q.followup.suggestion["id"], q.suggestion["id"]]
    methods = [x["method"] for x in msgs]
    assert methods.index("nes/reject") > max(i for i, m in enumerate(methods) if m == "nes/suggest")
    m = summarize([res])
    assert (m["jumps"], m["jumps_landed"], m["jumps_correct"], m["correct"]) == (1, 1, 0, 0)


@pytest.mark.e2e
def test_a_jump_followed_by_silence_or_a_second_jump_is_wrong(tmp_path: Path) -> None:
    res, msgs = replay_script(tmp_path, [[JUMP_TO_LINE_2], []])
    (q,) = res.queries
    assert q.verdict.landed and not q.verdict.correct and "silent" in q.verdict.reason
    assert rejected_ids(msgs) == [q.suggestion["id"]]  # nothing else was shown

    again = tmp_path / "again"
    again.mkdir()
    res, msgs = replay_script(again, [[JUMP_TO_LINE_2], [JUMP_TO_LINE_2]])
    (q,) = res.queries
    assert q.verdict.landed and not q.verdict.correct and "second jump" in q.verdict.reason
    assert len([x for x in msgs if x["method"] == "nes/suggest"]) == 2  # a second jump is not followed
    assert rejected_ids(msgs) == [q.followup.suggestion["id"], q.suggestion["id"]]


@pytest.mark.e2e
def test_a_jump_off_the_expected_lines_is_wrong_even_if_its_follow_up_is_right(tmp_path: Path) -> None:
    res, msgs = replay_script(tmp_path, [[JUMP_TO_LINE_0], [EDIT_LINE_2]])
    (q,) = res.queries
    assert q.verdict.landed is False and not q.verdict.correct
    assert q.followup is not None and q.followup.verdict.correct
    assert rejected_ids(msgs) == [q.suggestion["id"]]  # the right follow-up is not rejected
    m = summarize([res])
    assert (m["jumps"], m["jumps_landed"], m["jumps_correct"]) == (1, 0, 0)


@pytest.mark.e2e
def test_a_jump_to_a_document_that_is_not_open_is_not_followed(tmp_path: Path) -> None:
    elsewhere = dict(JUMP_TO_LINE_2, uri="file:///w/other.py")
    res, msgs = replay_script(tmp_path, [[elsewhere]])
    (q,) = res.queries
    assert q.followup is None and not q.verdict.correct and "not open" in q.verdict.reason
    assert len([x for x in msgs if x["method"] == "nes/suggest"]) == 1
    assert rejected_ids(msgs) == [q.suggestion["id"]]


# -- sessions -------------------------------------------------------------------------------------
@pytest.mark.e2e
def test_each_trace_session_gets_its_own_nes_start(tmp_path: Path) -> None:
    script = [[WRONG_EDIT_LINE_2]]
    replayer = Replayer(lambda: SubprocessTransport(fake_cmd(tmp_path, script)))
    with replayer:
        first = replayer.replay(make_session("a"))
        second = replayer.replay(make_session("b"))
    assert first.hash_ok and second.hash_ok
    msgs = agent_log(tmp_path)
    assert [x["method"] for x in msgs].count("initialize") == 1
    starts = [i for i, x in enumerate(msgs) if x["method"] == "nes/start"]
    closes = [i for i, x in enumerate(msgs) if x["method"] == "nes/close"]
    assert len(starts) == 2 and len(closes) == 2 and starts[0] < closes[0] < starts[1] < closes[1]
    ids = [msgs[i]["params"]["sessionId"] for i in closes]
    assert ids[0] != ids[1]
    for (lo, hi), sid in zip([(starts[0], closes[0]), (starts[1], closes[1])], ids, strict=True):
        inside = [x for x in msgs[lo + 1 : hi + 1] if x["method"] != "nes/start"]
        assert inside and all(x["params"]["sessionId"] == sid for x in inside)
    # the wrong first suggestion of the first session was rejected there, with its own session id
    (reject,) = [x["params"] for x in msgs if x["method"] == "nes/reject"]
    assert reject == {"sessionId": ids[0], "id": first.queries[0].suggestion["id"], "reason": "ignored"}


@pytest.mark.e2e
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="agent CPU is read from Linux's /proc")
def test_each_query_is_charged_the_agent_cpu_of_the_change_before_it(tmp_path: Path) -> None:
    """The agent spends 60 ms of CPU on the change to version 3: the query
    after that change carries it, the other two do not, and the report
    shows the agent-CPU figures next to the wall clock."""
    cmd = fake_cmd(tmp_path, None, "--busy-on-change", "3:60")
    replayer = Replayer(lambda: SubprocessTransport(cmd))
    with replayer:
        res = replayer.replay(make_session())
    cpu = [q.cpu_ms for q in res.queries]
    assert all(c is not None and c >= 0 for c in cpu)
    assert cpu[1] >= 60 and cpu[0] < 60 and cpu[2] < 60
    assert res.queries[1].explain()["cpuMs"] == pytest.approx(cpu[1], abs=0.001)
    m = summarize([res])
    assert m["cpu_ms"]["count"] == 3 and m["cpu_ms"]["max"] == cpu[1]
    assert m["by_repository"]["t1"]["cpu_ms"]["count"] == 3
    from nextedit.bench.report import headline_rows, repository_rows

    assert any(row[0] == "agent CPU p99 / max (ms)" for row in headline_rows(m))
    assert repository_rows(m)[-1][-1] == f"{m['cpu_ms']['p50']:.2f} / {m['cpu_ms']['p99']:.2f}"


def test_an_agent_in_this_process_has_no_cpu_figure(tmp_path: Path) -> None:
    """In process the agent shares the replayer's thread: no figure rather than a wrong one."""
    replayer = Replayer(lambda: InProcessTransport(tmp_path / "state"))
    with replayer:
        res = replayer.replay(make_session())
    assert res.error is None and [q.cpu_ms for q in res.queries] == [None, None, None]
    m = summarize([res])
    assert m["cpu_ms"]["count"] == 0
    from nextedit.bench.report import headline_rows

    assert not any(row[0].startswith("agent CPU") for row in headline_rows(m))
