#!/usr/bin/env python3
"""An independent replay and scorer for nes-trace/1 traces, to check `nextedit bench`.

Written from the trace format's description (FORMAT.md, the shared traces'
spec) alone: it imports nothing from nextedit, only the standard library,
and talks JSON-RPC to an agent (default: ``python -m nextedit acp``) over its
stdin/stdout.  Its own position arithmetic, change application, regex rule
and scoring are deliberately written from the rules, not from the bench's
code, so that agreement between the two means something.

What it does, per trace file (one fresh agent process each, as the bench):
``initialize`` advertising ``utf-16``, ``jump`` and ``searchAndReplace``; per
trace session its own ``nes/start`` … ``nes/close``; ``open``/``change``/
``focus`` forwarded as ``document/didOpen``/``didChange``/``didFocus``; at each
``query`` a ``nes/suggest`` whose first suggestion is scored:

* ``edit`` applies its edits; ``searchAndReplace`` replaces every match (a
  regex only if it avoids lookaround, backreferences, inline flags, named
  groups, ``^``/``$`` and shorthand classes, and its replacement uses only
  ``$1``…``$9`` and ``$$``); a change is correct when every changed region
  (common prefix/suffix stripped) lies inside one expected edit's range and
  the range's text after the change lies on a shortest insert/delete path to
  the expected text;
* a ``jump`` is followed with ``nes/suggest`` at its position; correct when
  it is on a line of an expected edit and the follow-up's first suggestion is
  a correct change;
* a wrong first suggestion gets ``nes/reject`` (``ignored``): for a followed
  jump, the follow-up's first suggestion when it is not a correct change,
  then the jump when the query is wrong.

Figures: precision (correct / answered), related recall (correct / queries
with related edits), silence (silent / queries expecting nothing), reversals,
pooled and per source repository.

Usage::

    python benchmarks/quality/independent_check.py TRACE... [--jobs 2] [--json out.json]
        [--compare bench.json] [--markdown out.md]

``--compare`` reads a ``nextedit bench --json`` file and exits 1 when a pooled
precision, related recall or silence differs by more than ``--tolerance``
(0.02).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gzip
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

TOLERANCE = 0.02

# --------------------------------------------------------------------------
# text: LSP positions (utf-16) over a Python string
# --------------------------------------------------------------------------
_BREAK = re.compile(r"\r\n|\r|\n")


class Text:
    """A document's text with a cached table of line starts."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None
        self._ends: list[int] | None = None

    def _index(self) -> None:
        starts, ends = [0], []
        for m in _BREAK.finditer(self.text):
            ends.append(m.start())
            starts.append(m.end())
        ends.append(len(self.text))
        self._starts, self._ends = starts, ends

    def line_count(self) -> int:
        if self._starts is None:
            self._index()
        assert self._starts is not None
        return len(self._starts)

    def line_of(self, offset: int) -> int:
        if self._starts is None:
            self._index()
        assert self._starts is not None
        lo, hi = 0, len(self._starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def offset(self, pos: dict) -> int:
        """Code point offset of a utf-16 ``{line, character}`` (clamped; snapped out of a pair)."""
        if self._starts is None:
            self._index()
        assert self._starts is not None and self._ends is not None
        line = int(pos["line"])
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        units = max(0, int(pos["character"]))
        i, end = self._starts[line], self._ends[line]
        while i < end and units > 0:
            width = 2 if ord(self.text[i]) > 0xFFFF else 1
            if width > units:  # inside a surrogate pair: the character's start
                break
            units -= width
            i += 1
        return i

    def replace(self, start: int, end: int, new: str) -> None:
        self.text = self.text[:start] + new + self.text[end:]
        self._starts = self._ends = None


# --------------------------------------------------------------------------
# the agent over stdio
# --------------------------------------------------------------------------
class AgentGone(RuntimeError):
    pass


class Agent:
    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0
        )
        self.next_id = 0

    def _send(self, message: dict) -> None:
        data = (json.dumps(message) + "\n").encode("utf-8", "surrogatepass")
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(data)
        except OSError as exc:
            raise AgentGone(str(exc)) from exc

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict) -> tuple[dict | None, dict | None]:
        """``(result, error)``."""
        self.next_id += 1
        rid = self.next_id
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AgentGone(f"the agent closed its output waiting for {method}")
            if not line.strip():
                continue
            msg = json.loads(line)
            if "method" in msg:
                if "id" in msg:
                    self._send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no"}})
                continue
            if msg.get("id") == rid:
                return msg.get("result"), msg.get("error")

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# --------------------------------------------------------------------------
# scoring
# --------------------------------------------------------------------------
def kept_ends(old: str, new: str) -> tuple[int, int]:
    """How many characters ``old`` and ``new`` share at the start, then at the end (not overlapping)."""
    p = 0
    while p < len(old) and p < len(new) and old[p] == new[p]:
        p += 1
    q = 0
    while q < len(old) - p and q < len(new) - p and old[-1 - q] == new[-1 - q]:
        q += 1
    return p, q


def lcs(a: str, b: str) -> int:
    """Longest common subsequence length (bit-parallel over the shorter string's complement)."""
    i, j = kept_ends(a, b)
    a, b = a[i : len(a) - j], b[i : len(b) - j]
    if not a or not b:
        return i + j
    masks: dict[str, int] = {}
    for k, ch in enumerate(a):
        masks[ch] = masks.get(ch, 0) | (1 << k)
    row = 0
    for ch in b:
        m = masks.get(ch, 0)
        x = m | row
        y = (row << 1) | 1
        row = x & ~(x - y)
    return i + j + bin(row).count("1")


def dist(a: str, b: str) -> int:
    return len(a) + len(b) - 2 * lcs(a, b)


_FORBIDDEN_PATTERN = [
    (re.compile(r"\(\?[=!]|\(\?<[=!]"), "lookaround"),
    (re.compile(r"\\[1-9]|\\k<|\(\?P="), "backreference"),
    (re.compile(r"\(\?[a-zA-Z]+[):]|\(\?[-a-zA-Z]+\)"), "inline flags"),
    (re.compile(r"\(\?P?<[A-Za-z_]|\(\?'"), "named group"),
    (re.compile(r"\\[wWdDsSbBAzZG]"), "shorthand class or anchor escape"),
]


def portable_problem(search: str, replace: str) -> str | None:
    """FORMAT.md's rule for ``isRegex`` patterns and replacements, read literally."""
    stripped = re.sub(r"\\\\", "", search)  # escaped backslashes cannot start anything
    for rx, what in _FORBIDDEN_PATTERN:
        if rx.search(stripped):
            return what
    unescaped = re.sub(r"\\.", "", stripped)
    outside_classes = re.sub(r"\[(?:\\.|[^\]])*\]", "", unescaped)
    if "^" in outside_classes or "$" in outside_classes:
        return "anchor"
    if "\\" in replace:
        return "backslash in replacement"
    if re.search(r"\$(?![1-9]|\$)", re.sub(r"\$\$", "", replace)):
        return "replacement uses $ other than $1-$9 and $$"
    return None


def expand_replacement(m: re.Match, replace: str) -> str:
    out = []
    i = 0
    while i < len(replace):
        if replace.startswith("$$", i):
            out.append("$")
            i += 2
        elif replace[i] == "$" and i + 1 < len(replace) and replace[i + 1] in "123456789":
            n = int(replace[i + 1])
            out.append((m.group(n) if n <= (m.re.groups or 0) else "") or "")
            i += 2
        else:
            out.append(replace[i])
            i += 1
    return "".join(out)


def change_of(sug: dict, docs: dict[str, Text]) -> tuple[str, list[tuple[int, int, str]]] | None:
    """``(uri, edits)`` of an edit or searchAndReplace suggestion; ``None`` when it cannot be applied."""
    uri = sug.get("uri")
    doc = docs.get(uri) if isinstance(uri, str) else None
    if doc is None:
        return None
    kind = sug.get("kind")
    edits: list[tuple[int, int, str]] = []
    if kind == "edit":
        for e in sug.get("edits") or []:
            a, b = doc.offset(e["range"]["start"]), doc.offset(e["range"]["end"])
            edits.append((min(a, b), max(a, b), e["newText"]))
    elif kind == "searchAndReplace":
        search, replace = sug.get("search") or "", sug.get("replace") or ""
        if not search:
            return None
        if sug.get("isRegex"):
            if portable_problem(search, replace):
                return None
            try:
                rx = re.compile(search)
            except re.error:
                return None
            edits = [(m.start(), m.end(), expand_replacement(m, replace)) for m in rx.finditer(doc.text)]
        else:
            i = doc.text.find(search)
            while i >= 0:
                edits.append((i, i + len(search), replace))
                i = doc.text.find(search, i + len(search))
    else:
        return None
    edits.sort()
    for (_, e1, _), (s2, _, _) in zip(edits, edits[1:], strict=False):
        if s2 < e1:
            return None
    return uri, edits


def correct_change(uri: str, edits: list[tuple[int, int, str]], docs: dict[str, Text], expected: list[dict]) -> bool:
    doc = docs[uri]
    targets = []
    for x in expected:
        if x["uri"] == uri:
            a, b = doc.offset(x["range"]["start"]), doc.offset(x["range"]["end"])
            targets.append((min(a, b), max(a, b), x["newText"]))
    regions = []
    for s, e, new in edits:
        old = doc.text[s:e]
        p, q = kept_ends(old, new)
        if p == len(old) - q and p == len(new) - q:
            continue  # changes nothing
        regions.append((s + p, e - q, new[p : len(new) - q]))
    if not regions:
        return False
    touched: dict[int, list[tuple[int, int, str]]] = {}
    for r in regions:
        homes = [i for i, (a, b, _) in enumerate(targets) if a <= r[0] and r[1] <= b]
        if not homes:
            return False
        touched.setdefault(homes[0], []).append(r)
    for i, rs in touched.items():
        a, b, target = targets[i]
        old = doc.text[a:b]
        pieces, pos = [], a
        for s, e, new in sorted(rs):
            pieces.append(doc.text[pos:s])
            pieces.append(new)
            pos = e
        pieces.append(doc.text[pos:b])
        sug = "".join(pieces)
        if sug == old or dist(old, sug) + dist(sug, target) != dist(old, target):
            return False
    return True


def on_expected_line(jump: dict, docs: dict[str, Text], expected: list[dict]) -> bool:
    line = (jump.get("position") or {}).get("line")
    for x in expected:
        if x["uri"] != jump.get("uri"):
            continue
        first, last = x["range"]["start"]["line"], x["range"]["end"]["line"]
        if last > first and x["range"]["end"]["character"] == 0:
            last -= 1
        if isinstance(line, int) and first <= line <= last:
            return True
    return False


class Reversals:
    """Text the developer typed (spans kept through later changes) and deleted, per document."""

    def __init__(self) -> None:
        self.typed: dict[str, list[list[int]]] = {}
        self.deleted: set[str] = set()

    def record(self, uri: str, start: int, end: int, old: str, new: str) -> None:
        # what was really typed and deleted: the change without what it kept at either end
        p, q = kept_ends(old, new)
        start, end, old, new = start + p, end - q, old[p : len(old) - q], new[p : len(new) - q]
        spans = []
        delta = len(new) - (end - start)
        for a, b in self.typed.get(uri, []):
            if b <= start:
                spans.append([a, b])
            elif a >= end:
                spans.append([a + delta, b + delta])
            else:
                if a < start:
                    spans.append([a, start])
                if b > end:
                    spans.append([start + len(new), b + delta])
        if new:
            spans.append([start, start + len(new)])
        self.typed[uri] = spans
        if old.strip():
            self.deleted.add(old.strip())

    def undoes(self, uri: str, edits: list[tuple[int, int, str]], text: str) -> bool:
        for s, e, new in edits:
            # what the edit really deletes and inserts: without what it keeps at either end
            p, q = kept_ends(text[s:e], new)
            s, e, new = s + p, e - q, new[p : len(new) - q]
            if e > s and any(a < e and s < b for a, b in self.typed.get(uri, [])):
                return True
            if new.strip() and new.strip() in self.deleted:
                return True
        return False


# --------------------------------------------------------------------------
# replaying one trace file
# --------------------------------------------------------------------------
def read_sessions(path: str) -> list[tuple[dict, list[dict]]]:
    opener = gzip.open if path.endswith(".gz") else open
    sessions: dict[str, tuple[dict, list[dict]]] = {}
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            ev = json.loads(line)
            if ev.get("kind") == "header":
                sessions[ev["trace"]] = (ev, [])
            elif ev.get("trace") in sessions:
                sessions[ev["trace"]][1].append(ev)
    return list(sessions.values())


def repository_of(header: dict, path: str) -> str:
    repo = str((header.get("source") or {}).get("repo") or "")
    if not repo:
        name = os.path.basename(path)
        return name.split(".")[0]
    repo = re.sub(r"^[a-z+]+://[^/]+/|^[^@/]+@[^:]+:", "", repo)
    return repo.removesuffix(".git")


def new_counts() -> dict[str, int]:
    keys = ("queries", "answered", "correct", "related", "related_correct", "empty", "silent_on_empty", "reversals")
    return dict.fromkeys(keys, 0)


def replay_file(path: str, agent_argv: list[str], limit: int | None = None, verdicts: bool = False) -> dict:
    state = tempfile.mkdtemp(prefix="independent-check-")
    argv = [a.replace("{state}", state) for a in agent_argv]
    agent = Agent(argv)
    counts: dict[str, dict[str, int]] = {}
    hash_bad = 0
    lines: list[dict] | None = [] if verdicts else None
    started = time.perf_counter()
    try:
        result, error = agent.request(
            "initialize",
            {
                "protocolVersion": 1,
                "clientCapabilities": {"positionEncodings": ["utf-16"], "nes": {"jump": {}, "searchAndReplace": {}}},
            },
        )
        chosen = ((result or {}).get("agentCapabilities") or {}).get("positionEncoding", "utf-16")
        if error or chosen != "utf-16":
            raise SystemExit(f"initialize failed or chose {chosen}: {error}")
        sessions = read_sessions(path)[:limit]
        for header, events in sessions:
            if header.get("positionEncoding", "utf-16") != "utf-16":
                raise SystemExit(f"{path}: only utf-16 traces are supported here")
            repo = repository_of(header, path)
            c = counts.setdefault(repo, new_counts())
            hash_bad += replay_session(agent, events, c, lines, header["trace"])
    finally:
        agent.close()
        shutil.rmtree(state, ignore_errors=True)
    return {
        "path": path,
        "counts": counts,
        "hash_bad": hash_bad,
        "seconds": time.perf_counter() - started,
        "verdicts": lines,
    }


def replay_session(agent: Agent, events: list[dict], c: dict[str, int], lines: list | None, trace: str) -> int:
    import hashlib

    started, error = agent.request("nes/start", {})
    if error or not started:
        raise SystemExit(f"nes/start failed: {error}")
    sid = started["sessionId"]
    docs: dict[str, Text] = {}
    first_uri = None
    rev = Reversals()
    bad_hash = 0
    for ev in events:
        kind = ev["kind"]
        if kind == "open":
            docs[ev["uri"]] = Text(ev["text"])
            first_uri = first_uri or ev["uri"]
            agent.notify(
                "document/didOpen",
                {
                    "sessionId": sid,
                    "uri": ev["uri"],
                    "languageId": ev.get("languageId", "plaintext"),
                    "version": ev["version"],
                    "text": ev["text"],
                },
            )
        elif kind == "change":
            doc = docs[ev["uri"]]
            for ch in ev["contentChanges"]:
                if "range" in ch and ch["range"] is not None:
                    a, b = doc.offset(ch["range"]["start"]), doc.offset(ch["range"]["end"])
                    a, b = min(a, b), max(a, b)
                else:
                    a, b = 0, len(doc.text)
                rev.record(ev["uri"], a, b, doc.text[a:b], ch["text"])
                doc.replace(a, b, ch["text"])
            agent.notify(
                "document/didChange",
                {"sessionId": sid, "uri": ev["uri"], "version": ev["version"], "contentChanges": ev["contentChanges"]},
            )
        elif kind == "focus":
            agent.notify(
                "document/didFocus",
                {
                    "sessionId": sid,
                    "uri": ev["uri"],
                    "version": ev["version"],
                    "position": ev["position"],
                    "visibleRange": ev["visibleRange"],
                },
            )
        elif kind == "query":
            verdict = score_query(agent, sid, ev, docs, rev, c)
            if lines is not None:
                lines.append({"trace": trace, "query": sum(1 for x in lines if x["trace"] == trace) + 1, **verdict})
        elif kind == "end":
            doc = docs.get(ev.get("uri") or first_uri or "")
            if doc is None or hashlib.sha256(doc.text.encode("utf-8")).hexdigest() != ev["sha256"]:
                bad_hash += 1
    agent.request("nes/close", {"sessionId": sid})
    return bad_hash


def first_suggestion(agent: Agent, params: dict) -> dict | None:
    result, error = agent.request("nes/suggest", params)
    if error or not result:
        return None
    suggestions = result.get("suggestions") or []
    return suggestions[0] if suggestions else None


def score_query(agent: Agent, sid: str, q: dict, docs: dict[str, Text], rev: Reversals, c: dict[str, int]) -> dict:
    expected = q.get("expected") or []
    related = bool(q.get("related"))
    first = first_suggestion(
        agent,
        {
            "sessionId": sid,
            "uri": q["uri"],
            "version": q["version"],
            "position": q["position"],
            "triggerKind": q.get("triggerKind", "automatic"),
        },
    )
    correct = False
    reversal = False
    rejects = []
    if first is not None and first.get("kind") == "jump":
        follow = None
        if first.get("uri") in docs and isinstance(first.get("position"), dict):
            follow = first_suggestion(
                agent,
                {
                    "sessionId": sid,
                    "uri": first["uri"],
                    "version": q["version"],
                    "position": first["position"],
                    "triggerKind": "automatic",
                },
            )
        follow_right = False
        if follow is not None and follow.get("kind") != "jump":
            change = change_of(follow, docs)
            if change is not None:
                follow_right = bool(expected) and correct_change(*change, docs, expected)
                reversal = rev.undoes(change[0], change[1], docs[change[0]].text)
        if follow is not None and not follow_right:
            rejects.append(follow)
        correct = follow_right and on_expected_line(first, docs, expected)
    elif first is not None:
        change = change_of(first, docs)
        if change is not None:
            correct = bool(expected) and correct_change(*change, docs, expected)
            reversal = rev.undoes(change[0], change[1], docs[change[0]].text)
    if first is not None and not correct:
        rejects.append(first)
    for s in rejects:
        if s.get("id") is not None:
            agent.notify("nes/reject", {"sessionId": sid, "id": s["id"], "reason": "ignored"})
    c["queries"] += 1
    if first is not None:
        c["answered"] += 1
        c["correct"] += correct
        c["reversals"] += reversal
    if related:
        c["related"] += 1
        c["related_correct"] += correct
    if not expected:
        c["empty"] += 1
        c["silent_on_empty"] += first is None
    return {"answered": first is not None, "correct": correct, "reversal": reversal, "suggestion": first}


# --------------------------------------------------------------------------
# figures and the comparison
# --------------------------------------------------------------------------
def figures(c: dict[str, int]) -> dict[str, float | int | None]:
    def r(a: int, b: int) -> float | None:
        return a / b if b else None

    return {
        **c,
        "precision": r(c["correct"], c["answered"]),
        "recall_related": r(c["related_correct"], c["related"]),
        "silence": r(c["silent_on_empty"], c["empty"]),
    }


def compare(mine: dict, bench_json: str, tolerance: float) -> tuple[list[tuple], bool]:
    with open(bench_json, encoding="utf-8") as f:
        bench = json.load(f)["metrics"]
    rows = []
    ok = True
    for key in ("precision", "recall_related", "silence"):
        a, b = mine["pooled"][key], bench[key]
        diff = None if a is None or b is None else abs(a - b)
        good = diff is not None and diff <= tolerance
        ok &= good
        rows.append(("pooled", key, a, b, diff, good))
    for repo, d in sorted(mine["by_repository"].items()):
        other = (bench.get("by_repository") or {}).get(repo)
        for key in ("precision", "recall_related", "silence"):
            a = d[key]
            b = None if other is None else other[key]
            diff = None if a is None or b is None else abs(a - b)
            rows.append((repo, key, a, b, diff, None))
    return rows, ok


def fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--agent", default=f"{shlex.quote(sys.executable)} -m nextedit acp --state-dir {{state}}")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--limit", type=int, help="sessions per file")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--compare", metavar="BENCH_JSON", help="a `nextedit bench --json` file to compare with")
    ap.add_argument("--markdown", help="write the comparison as markdown here")
    ap.add_argument("--tolerance", type=float, default=TOLERANCE)
    ap.add_argument("--verdicts", metavar="FILE", help="write one JSON line per query (trace, query, verdict)")
    args = ap.parse_args(argv)
    agent_argv = shlex.split(args.agent)
    started = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        n = len(args.traces)
        outs = list(pool.map(replay_file, args.traces, [agent_argv] * n, [args.limit] * n, [bool(args.verdicts)] * n))
    if args.verdicts:
        with open(args.verdicts, "w", encoding="utf-8") as f:
            for out in outs:
                for line in out["verdicts"]:
                    f.write(json.dumps(line) + "\n")
    by_repo: dict[str, dict[str, int]] = {}
    for out in outs:
        for repo, c in out["counts"].items():
            acc = by_repo.setdefault(repo, new_counts())
            for k, v in c.items():
                acc[k] += v
    pooled = new_counts()
    for c in by_repo.values():
        for k, v in c.items():
            pooled[k] += v
    mine = {
        "traces": args.traces,
        "agent": args.agent,
        "seconds": round(time.perf_counter() - started, 1),
        "sessions_hash_bad": sum(o["hash_bad"] for o in outs),
        "pooled": figures(pooled),
        "by_repository": {k: figures(v) for k, v in sorted(by_repo.items())},
    }
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(mine, f, indent=2)
            f.write("\n")
    p = mine["pooled"]
    print(
        f"independent: precision {fmt(p['precision'])}  related recall {fmt(p['recall_related'])}  "
        f"silence {fmt(p['silence'])}  reversals {p['reversals']}  ({p['answered']} answered of {p['queries']}; "
        f"{mine['sessions_hash_bad']} sessions with a wrong final hash)"
    )
    if not args.compare:
        return 0
    rows, ok = compare(mine, args.compare, args.tolerance)
    lines = [
        "| scope | figure | independent | nextedit bench | difference |",
        "|---|---|---:|---:|---:|",
    ]
    for scope, key, a, b, diff, _good in rows:
        lines.append(f"| {scope} | {key} | {fmt(a)} | {fmt(b)} | {fmt(diff)} |")
    table = "\n".join(lines)
    print(table)
    verdict = (
        f"pooled figures agree within {args.tolerance}"
        if ok
        else f"pooled figures differ by more than {args.tolerance}"
    )
    print(verdict)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(
                "# Independent check of `nextedit bench`\n\n"
                f"- command: `python benchmarks/quality/independent_check.py {' '.join(args.traces)} "
                f"--jobs {args.jobs} --compare {args.compare}`\n"
                f"- agent: `{args.agent}`\n"
                f"- wall time: {mine['seconds']} s\n"
                f"- result: {verdict} (precision, related recall, silence)\n\n"
                f"{table}\n\n"
                "The checker (stdlib only, imports nothing from nextedit) was written from the trace format's "
                "description; per-repository differences are shown for reading, only the pooled ones are "
                "checked.\n"
            )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
