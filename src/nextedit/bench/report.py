"""Presenting a bench run: rich table, JSON, markdown report and latency histogram."""

from __future__ import annotations

import datetime as _dt
import json
import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _ms(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def headline_rows(m: dict[str, Any]) -> list[tuple[str, str, str]]:
    lat = m["latency_ms"]
    return [
        (
            "sessions",
            str(m["sessions"]),
            f"hash ok {m['sessions_hash_ok']}, bad {m['sessions_hash_bad']}, errors {m['sessions_error']}",
        ),
        ("queries", str(m["queries"]), f"scored {m['queries'] - m['queries_unscored']}, errors {m['query_errors']}"),
        ("answered", str(m["answered"]), f"answer rate {_pct(m['answer_rate'])}"),
        ("precision", _pct(m["precision"]), f"{m['correct']} correct / {m['answered']} answered"),
        (
            "recall (related)",
            _pct(m["recall_related"]),
            f"{m['related_correct']} / {m['related']} queries with related edits "
            f"(strict {_pct(m['recall_related_strict'])})",
        ),
        ("silence", _pct(m["silence"]), f"{m['silent_on_empty']} / {m['empty']} queries with nothing left"),
        ("reversals", str(m["reversals"]), f"rate {_pct(m['reversal_rate'])} of answered"),
        ("latency p50 / p95 (ms)", f"{_ms(lat['p50'])} / {_ms(lat['p95'])}", f"{lat['count']} suggests"),
        ("latency p99 / max (ms)", f"{_ms(lat['p99'])} / {_ms(lat['max'])}", ""),
    ]


def print_table(m: dict[str, Any], console: Any = None) -> None:
    """The results table on stdout (rich)."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    t = Table(title="nextedit bench", show_lines=False)
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_column("detail")
    for row in headline_rows(m):
        t.add_row(*row)
    console.print(t)
    if m["by_kind"]:
        k = Table(title="first suggestion by kind")
        for c in ("kind", "answered", "correct", "precision", "reversals"):
            k.add_column(c, justify="right" if c != "kind" else "left")
        for kind, d in m["by_kind"].items():
            k.add_row(kind, str(d["answered"]), str(d["correct"]), _pct(d["precision"]), str(d["reversals"]))
        console.print(k)
    groups = [("language", m["by_language"]), ("tag", m["by_tag"])]
    for title, data in groups:
        if len(data) <= 1 and title == "tag":
            continue
        g = Table(title=f"by {title}")
        for c in (title, "queries", "answered", "precision", "recall (related)", "silence", "reversals"):
            g.add_column(c, justify="right" if c != title else "left", no_wrap=c == title)
        for key, d in data.items():
            if not d["queries"]:
                continue
            g.add_row(
                key,
                str(d["queries"]),
                str(d["answered"]),
                _pct(d["precision"]),
                _pct(d["recall_related"]),
                _pct(d["silence"]),
                str(d["reversals"]),
            )
        console.print(g)
    if m["vscode_grades"]:
        v = Table(title="VS Code recordings: first suggestion graded")
        for c in ("recording", "kind", "grade", "correct (nextUserEdit)"):
            v.add_column(c, no_wrap=c == "recording")
        for g in m["vscode_grades"]:
            v.add_row(
                g["trace"].removeprefix("vscode:"),
                g["kind"] or "—",
                g["grade"],
                "—" if g["correct"] is None else str(g["correct"]),
            )
        console.print(v)


def write_json(m: dict[str, Any], path: Path, meta: dict[str, Any]) -> None:
    out = dict(meta)
    out["metrics"] = {k: v for k, v in m.items() if k != "latencies_ms"}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


def write_histogram(latencies: list[float], path: Path) -> bool:
    """A latency histogram PNG; ``False`` when matplotlib (extra ``plot``) is absent."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log.info("matplotlib not installed (pip install 'nextedit[plot]'): no histogram")
        return False
    if not latencies:
        return False
    fig, ax = plt.subplots(figsize=(7, 3.5), dpi=110)
    hi = max(latencies)
    bins = 60
    ax.hist(latencies, bins=bins, range=(0, hi * 1.02 if hi > 0 else 1), color="#4477aa")
    ax.set_xlabel("nes/suggest latency (ms, wall clock over the transport)")
    ax.set_ylabel("queries")
    n = len(latencies)
    for p, style in ((50, "-"), (95, "--"), (99, ":")):
        v = latencies[min(n - 1, max(0, -(-p * n // 100) - 1))]
        ax.axvline(v, color="#cc3311", linestyle=style, linewidth=1, label=f"p{p} {v:.2f} ms")
    ax.legend()
    ax.set_title(f"nes/suggest latency ({n} queries)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return True


def write_markdown(m: dict[str, Any], report_dir: Path, meta: dict[str, Any], histogram: str | None) -> Path:
    report_dir.mkdir(parents=True, exist_ok=True)
    lines = [
        "# nextedit bench",
        "",
        f"- date: {meta['date']}",
        f"- command: `{meta['command']}`",
        f"- agent: {meta['agent']}",
        f"- traces: {', '.join(meta['traces'])}",
        "",
        "| metric | value | detail |",
        "|---|---:|---|",
    ]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in headline_rows(m)]
    if m["by_kind"]:
        lines += [
            "",
            "## First suggestion by kind",
            "",
            "| kind | answered | correct | precision | reversals |",
            "|---|---:|---:|---:|---:|",
        ]
        for kind, d in m["by_kind"].items():
            lines.append(f"| {kind} | {d['answered']} | {d['correct']} | {_pct(d['precision'])} | {d['reversals']} |")
    for title, key in (("language", "by_language"), ("tag", "by_tag"), ("trace source", "by_source")):
        data = {k: d for k, d in m[key].items() if d["queries"]}
        if not data:
            continue
        lines += [
            "",
            f"## By {title}",
            "",
            f"| {title} | queries | answered | precision | recall (related) | silence | reversals |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for k, d in data.items():
            lines.append(
                f"| {k} | {d['queries']} | {d['answered']} | {_pct(d['precision'])} | "
                f"{_pct(d['recall_related'])} | {_pct(d['silence'])} | {d['reversals']} |"
            )
    if m["vscode_grades"]:
        lines += [
            "",
            "## VS Code recordings",
            "",
            "The first suggestion compared with the human-graded candidates of "
            "`scoredEdits.w.json` (same resulting text), and judged against `nextUserEdit` "
            "by the FORMAT.md rules.",
            "",
            "| recording | kind | grade | correct (nextUserEdit) |",
            "|---|---|---|---|",
        ]
        for g in m["vscode_grades"]:
            lines.append(
                f"| {g['trace'].removeprefix('vscode:')} | {g['kind'] or '—'} | {g['grade']} | "
                f"{'—' if g['correct'] is None else g['correct']} |"
            )
    if histogram:
        lines += ["", "## Latency", "", f"![nes/suggest latency histogram]({histogram})"]
    lat = m["latency_ms"]
    lines += [
        "",
        f"Latency (ms): p50 {_ms(lat['p50'])}, p95 {_ms(lat['p95'])}, p99 {_ms(lat['p99'])}, "
        f"max {_ms(lat['max'])}, mean {_ms(lat['mean'])} over {lat['count']} `nes/suggest` "
        "requests (wall clock around each request, transport included).",
        "",
        'Definitions: see `src/nextedit/bench/score.py` and `metrics.py` (FORMAT.md "Scoring").',
        "",
    ]
    path = report_dir / "README.md" if meta.get("report_name") is None else report_dir / meta["report_name"]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
