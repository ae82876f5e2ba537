"""Presenting a bench run: rich tables, JSON, markdown report and latency histogram.

Every form shows each source repository, the pooled figure and the worst
repository (by precision, and by related recall).
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

PLOT_HINT = "pip install 'nextedit[plot]'"


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _ms(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def _worst_text(m: dict[str, Any], key: str, metric: str) -> tuple[str, str]:  # (value, detail)
    w = (m.get("worst_repository") or {}).get(key)
    if not w:
        return "—", ""
    d = m["by_repository"][w["repository"]]
    detail = (
        f"{d['correct']} correct / {d['answered']} answered"
        if metric == "precision"
        else f"{d['related_correct']} / {d['related']} queries with related edits"
    )
    return f"{w['repository']}: {_pct(w[metric])}", detail


def headline_rows(m: dict[str, Any]) -> list[tuple[str, ...]]:
    lat = m["latency_ms"]
    flat = m["followup_latency_ms"]
    cpu = m.get("cpu_ms") or {"count": 0}
    rows: list[tuple[str, ...]] = [
        (
            "sessions",
            str(m["sessions"]),
            f"hash ok {m['sessions_hash_ok']}, bad {m['sessions_hash_bad']}, errors {m['sessions_error']}",
        ),
        ("queries", str(m["queries"]), f"scored {m['queries'] - m['queries_unscored']}, errors {m['query_errors']}"),
        ("answered", str(m["answered"]), f"answer rate {_pct(m['answer_rate'])}"),
        ("precision (pooled)", _pct(m["precision"]), f"{m['correct']} correct / {m['answered']} answered"),
        (
            "recall (related, pooled)",
            _pct(m["recall_related"]),
            f"{m['related_correct']} / {m['related']} queries with related edits "
            f"(strict {_pct(m['recall_related_strict'])})",
        ),
        ("silence (pooled)", _pct(m["silence"]), f"{m['silent_on_empty']} / {m['empty']} queries with nothing left"),
        ("reversals", str(m["reversals"]), f"rate {_pct(m['reversal_rate'])} of answered"),
        (
            "jumps followed",
            str(m["jumps"]),
            f"{m['jumps_landed']} landed on an expected line, {m['jumps_correct']} correct with their follow-up",
        ),
    ]
    if len(m["by_repository"]) > 1:
        rows.append(("worst repository (precision)", *_worst_text(m, "by_precision", "precision")))
        rows.append(("worst repository (recall)", *_worst_text(m, "by_recall_related", "recall_related")))
    rows += [
        ("latency p50 / p95 (ms)", f"{_ms(lat['p50'])} / {_ms(lat['p95'])}", f"{lat['count']} suggests"),
        ("latency p99 / max (ms)", f"{_ms(lat['p99'])} / {_ms(lat['max'])}", ""),
    ]
    if cpu["count"]:
        rows += [
            (
                "agent CPU p50 / p95 (ms)",
                f"{_ms(cpu['p50'])} / {_ms(cpu['p95'])}",
                f"{cpu['count']} suggests, each with the changes sent before it",
            ),
            ("agent CPU p99 / max (ms)", f"{_ms(cpu['p99'])} / {_ms(cpu['max'])}", ""),
        ]
    rows += [
        (
            "jump follow-up p50 / p99 (ms)",
            f"{_ms(flat['p50'])} / {_ms(flat['p99'])}",
            f"{flat['count']} follow-up suggests, timed apart",
        ),
    ]
    return rows


REPO_COLUMNS = (
    "repository",
    "language",
    "queries",
    "answered",
    "precision",
    "recall (related)",
    "silence",
    "reversals",
    "jumps landed / correct",
    "p50 / p99 ms",
    "CPU p50 / p99 ms",
)


# the same columns, short enough for an 80-column terminal
REPO_COLUMNS_COMPACT = (
    "repository",
    "queries",
    "answ.",
    "prec.",
    "recall",
    "silence",
    "rev.",
    "jumps",
    "p50/p99",
    "CPU",
)


def repository_rows(m: dict[str, Any], compact: bool = False) -> list[tuple[str, ...]]:
    """One row per source repository, then the pooled row.

    ``compact``: jumps as ``landed/correct/all``, latency without spaces.
    """

    def row(name: str, lang: str, d: dict[str, Any]) -> tuple[str, ...]:
        lat, cpu = d["latency_ms"], d.get("cpu_ms") or {"p50": None, "p99": None}
        sep = "/" if compact else " / "
        if compact:
            jumps = f"{d['jumps_landed']}/{d['jumps_correct']}/{d['jumps']}"
        else:
            jumps = f"{d['jumps_landed']} / {d['jumps_correct']} of {d['jumps']}"
        latency = f"{_ms(lat['p50'])}{sep}{_ms(lat['p99'])}"
        cpu_time = f"{_ms(cpu['p50'])}{sep}{_ms(cpu['p99'])}"
        cells = (
            str(d["queries"]),
            str(d["answered"]),
            _pct(d["precision"]),
            _pct(d["recall_related"]),
            _pct(d["silence"]),
            str(d["reversals"]),
            jumps,
            latency,
            cpu_time,
        )
        return (name, *cells) if compact else (name, lang, *cells)

    rows = [row(k, ", ".join(d["languages"]), d) for k, d in m["by_repository"].items()]
    pooled = {**m, "queries": m["scored_queries"]}
    rows.append(row("pooled", "", pooled))
    return rows


SOURCE_COLUMNS = ("source", "answered", "correct", "precision", "recall (related)", "reversals", "p50 / p99 ms")


def source_rows(m: dict[str, Any]) -> list[tuple[str, ...]]:
    """One row per source of first suggestions (synthesis, model:…, silent)."""
    rows: list[tuple[str, ...]] = []
    for name, d in (m.get("by_source") or {}).items():
        lat = d["latency_ms"]
        rows.append(
            (
                name,
                str(d["answered"]),
                str(d["correct"]),
                _pct(d["precision"]),
                _pct(d["recall_related"]),
                str(d["reversals"]),
                f"{_ms(lat['p50'])} / {_ms(lat['p99'])}",
            )
        )
    return rows


def has_model(m: dict[str, Any]) -> bool:
    """Whether any first suggestion came from a model (the by-source table is shown then)."""
    return any(name.startswith("model:") for name in (m.get("by_source") or {}))


def worst_sentence(m: dict[str, Any]) -> str:
    """``worst repository: X (precision …); by related recall: Y (…)``."""
    w = m.get("worst_repository") or {}
    parts = []
    if w.get("by_precision"):
        parts.append(
            f"worst repository by precision: {w['by_precision']['repository']} ({_pct(w['by_precision']['precision'])})"
        )
    if w.get("by_recall_related"):
        parts.append(
            f"by related recall: {w['by_recall_related']['repository']} "
            f"({_pct(w['by_recall_related']['recall_related'])})"
        )
    return "; ".join(parts)


def print_table(m: dict[str, Any], console: Any = None, *, sources: bool = False) -> None:
    """The results tables on stdout (rich); the by-source table when a model answered or ``sources``."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    if console is None:
        console = Console()
        if not console.is_terminal:  # piped or captured: no terminal to fit, so do not squeeze the tables
            console = Console(width=max(console.width, 110))
    t = Table(title="nextedit bench", show_lines=False)
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_column("detail")
    for row in headline_rows(m):
        t.add_row(*row)
    console.print(t)
    r = Table(
        title="by source repository (pooled last)",
        caption="jumps: landed on an expected line / correct with their follow-up / all; "
        "latency (wall) and agent CPU in ms",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for c in REPO_COLUMNS_COMPACT:
        r.add_column(c, justify="left" if c == "repository" else "right", overflow="fold")
    rows = repository_rows(m, compact=True)
    for i, row in enumerate(rows):
        r.add_row(*row, end_section=i == len(rows) - 2)
    console.print(r)
    sentence = worst_sentence(m)
    if sentence and len(m["by_repository"]) > 1:
        console.print(sentence)
    if has_model(m) or sources:
        src = Table(
            title="first suggestion by source",
            caption="recall: of all queries with related edits; latency of the queries each source answered",
        )
        for c in SOURCE_COLUMNS:
            src.add_column(c, justify="left" if c == "source" else "right")
        for row in source_rows(m):
            src.add_row(*row)
        console.print(src)
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


def matplotlib_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def write_histogram(latencies: list[float], path: Path) -> bool:
    """A latency histogram PNG; ``False`` when matplotlib (extra ``plot``) is absent or nothing was timed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log.info("matplotlib not installed (%s): no histogram", PLOT_HINT)
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


def _md_table(
    columns: tuple[str, ...] | list[str], rows: list[tuple[str, ...]], right: set[int] | None = None
) -> list[str]:
    """A markdown table; ``right``: indexes of right-aligned columns (default: all but the first)."""
    right = set(range(1, len(columns))) if right is None else right
    rule = "|" + "|".join("---:" if i in right else "---" for i in range(len(columns))) + "|"
    return ["| " + " | ".join(columns) + " |", rule] + ["| " + " | ".join(r) + " |" for r in rows]


def write_markdown(m: dict[str, Any], report_dir: Path, meta: dict[str, Any], histogram: str | None) -> Path:
    report_dir.mkdir(parents=True, exist_ok=True)
    lines = [
        "# nextedit bench",
        "",
        f"- date: {meta['date']}",
        f"- command: `{meta['command']}`",
        f"- agent: {meta['agent']}",
        f"- jobs: {meta.get('jobs', 1)} (each trace file replays in its own fresh agent process)",
        f"- traces: {', '.join(meta['traces'])}",
        "- scoring: docs/trace-format.md (jumps followed, portable regex only, one `nes/start` per session, "
        "wrong first suggestions rejected as `ignored`)",
        "",
    ]
    lines += _md_table(["metric", "value", "detail"], headline_rows(m), right={1})
    lines += ["", "## By source repository", ""]
    lines += _md_table(list(REPO_COLUMNS), repository_rows(m), right=set(range(2, len(REPO_COLUMNS))))
    sentence = worst_sentence(m)
    if sentence:
        lines += ["", sentence[0].upper() + sentence[1:] + "."]
    if has_model(m) or meta.get("provider"):
        lines += ["", "## First suggestion by source", ""]
        lines += _md_table(list(SOURCE_COLUMNS), source_rows(m))
        lines += [
            "",
            "Recall: of all queries with related edits. Latency: of the queries each source answered "
            "(`silent`: answered with nothing).",
        ]
    if m["by_kind"]:
        lines += ["", "## First suggestion by kind", ""]
        lines += _md_table(
            ["kind", "answered", "correct", "precision", "reversals"],
            [
                (kind, str(d["answered"]), str(d["correct"]), _pct(d["precision"]), str(d["reversals"]))
                for kind, d in m["by_kind"].items()
            ],
        )
    for title, key in (("language", "by_language"), ("tag", "by_tag"), ("trace reader", "by_reader")):
        data = {k: d for k, d in m[key].items() if d["queries"]}
        if not data:
            continue
        lines += ["", f"## By {title}", ""]
        lines += _md_table(
            [title, "queries", "answered", "precision", "recall (related)", "silence", "reversals"],
            [
                (
                    k,
                    str(d["queries"]),
                    str(d["answered"]),
                    _pct(d["precision"]),
                    _pct(d["recall_related"]),
                    _pct(d["silence"]),
                    str(d["reversals"]),
                )
                for k, d in data.items()
            ],
        )
    if m["vscode_grades"]:
        lines += [
            "",
            "## VS Code recordings",
            "",
            "The first suggestion compared with the human-graded candidates of "
            "`scoredEdits.w.json` (same resulting text), and judged against `nextUserEdit` "
            "by the docs/trace-format.md rules.",
            "",
        ]
        lines += _md_table(
            ["recording", "kind", "grade", "correct (nextUserEdit)"],
            [
                (
                    g["trace"].removeprefix("vscode:"),
                    g["kind"] or "—",
                    g["grade"],
                    "—" if g["correct"] is None else str(g["correct"]),
                )
                for g in m["vscode_grades"]
            ],
            right=set(),
        )
    lat = m["latency_ms"]
    flat = m["followup_latency_ms"]
    lines += ["", "## Latency", ""]
    if histogram:
        lines += [f"![nes/suggest latency histogram]({histogram})", ""]
    elif meta.get("histogram_skipped"):
        lines += [f"(No histogram: {meta['histogram_skipped']}.)", ""]
    lines += [
        f"Latency (ms): p50 {_ms(lat['p50'])}, p95 {_ms(lat['p95'])}, p99 {_ms(lat['p99'])}, "
        f"max {_ms(lat['max'])}, mean {_ms(lat['mean'])} over {lat['count']} `nes/suggest` "
        "requests of queries (wall clock around each request, transport included). "
        f"Follow-up requests at a jump's position, timed apart: p50 {_ms(flat['p50'])}, "
        f"p99 {_ms(flat['p99'])} over {flat['count']}.",
        "",
    ]
    cpu, fcpu = m.get("cpu_ms") or {"count": 0}, m.get("followup_cpu_ms") or {"count": 0}
    if cpu["count"]:
        lines += [
            f"Agent CPU (ms): p50 {_ms(cpu['p50'])}, p95 {_ms(cpu['p95'])}, p99 {_ms(cpu['p99'])}, "
            f"max {_ms(cpu['max'])}, mean {_ms(cpu['mean'])} over {cpu['count']} of those requests: the "
            "agent process's CPU time (every thread, `/proc/PID/task/*/schedstat`) since its previous answer, "
            "so each request carries the changes sent before it and a session's first one its `didOpen`. "
            "Unlike the wall clock it hardly moves when the machine is busy. "
            f"Follow-ups: p50 {_ms(fcpu['p50'])}, p99 {_ms(fcpu['p99'])} over {fcpu['count']}.",
            "",
        ]
    lines += [
        "Definitions: docs/trace-format.md; `src/nextedit/bench/score.py` and `metrics.py` implement them. "
        "The JSON beside this file carries the raw counts per repository (`metrics.by_repository`).",
        "",
    ]
    path = report_dir / "README.md" if meta.get("report_name") is None else report_dir / meta["report_name"]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
