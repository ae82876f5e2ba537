"""Does a repeat candidate use a name its site cannot see?

A reading measured for issue 9 (precision side), not an engine feature. For
the top-ranked ``repeat`` candidate of each query of a replay, take the
plain names on the line of the rule's newest example (from the candidate's
evidence, ``edit #N at OFFSET``) that bind to a local definition there — a
parameter, a local variable, a lambda's argument — and that the example's
line does not define itself. Of those the site's line uses once the
candidate is applied, count the ones no scope enclosing the site defines
(definitions inside the replaced text do not count: a walrus the edit
removes). ``zod``'s ``def.options`` → ``zod.def.options`` carried out of
the ``(zod) => …`` lambda that binds ``zod`` is one.

    python benchmarks/quality/unbound_names.py TRACES… --explain Q --candidates C

``Q`` and ``C`` come from ``replay_inprocess.py`` (``C`` with ``site``).
Prints the share of right candidates and of right answers with and
without an unbound name, per repository.
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from repeat_miss_causes import queries_of  # noqa: E402

from nextedit.syntax.languages import language_for  # noqa: E402
from nextedit.syntax.name_resolution import Resolver, resolve_binding  # noqa: E402
from nextedit.syntax.scopes import enclosing_node, identifier_at  # noqa: E402
from nextedit.syntax.tree import SyntaxTree  # noqa: E402
from nextedit.text import Document  # noqa: E402
from nextedit.text.lexical import NAME_RE  # noqa: E402
from nextedit.text.lines import lines_back, lines_forward  # noqa: E402

_EXAMPLE_AT = re.compile(r"edit #\d+ at (\d+)")


def unbound_names(doc: Document, language: str, candidate: dict[str, Any]) -> list[str] | None:
    """The names the candidate's site would use unbound in ``doc`` (``None``: not readable)."""
    text = doc.text
    found = _EXAMPLE_AT.search(candidate["evidence"][-1]) if candidate["evidence"] else None
    if found is None or not candidate["edit"]:
        return None
    example, site = int(found.group(1)), candidate["site"]
    old, new = candidate["edit"][0]
    if not text.startswith(old, site):
        return None  # the row's old text was cut short
    source = doc.source_bytes
    tree = SyntaxTree.parse(language, source)
    byte = doc.byte_offset_at

    lo, hi = lines_back(text, example, 0), lines_forward(text, example, 0)
    line_lo, line_hi = byte(lo), byte(hi)
    local: set[str] = set()
    for m in NAME_RE.finditer(text, lo, hi):
        start = byte(m.start())
        at = identifier_at(tree, source, start)
        if at is None or at[0] != start:
            continue
        node = tree.root.named_descendant_for_byte_range(start, at[1])
        resolved = resolve_binding(tree, source, node) if node is not None else None
        if resolved is None:
            continue
        resolver, key, ranges = resolved
        if resolver.is_member(start) or key[0] != "scope" or key[1] == resolver.root_id:
            continue
        if any(
            line_lo <= s < line_hi and (o := resolver.occurrence(s)) is not None and o.definition for s, _ in ranges
        ):
            continue  # the example's line defines it: the edit brings its own binding
        local.add(m.group())
    a, b = lines_back(text, site, 0), lines_forward(text, site, 0)
    used = set(NAME_RE.findall(text[a:site] + new + text[site + len(old) : b]))
    cut_lo, cut_hi = byte(site), byte(site + len(old))
    node = enclosing_node(tree, cut_lo, cut_lo)
    if node is None:
        return None
    missing = []
    for name in sorted(local & used):
        resolver = Resolver(tree, source, name.encode())
        seen = False
        for scope in resolver.chain(node):
            if scope == resolver.root_id:
                break
            s_lo, s_hi = resolver.scope_nodes[scope].start_byte, resolver.scope_nodes[scope].end_byte
            starts = [s for s in resolver.classify_range(s_lo, s_hi) if not cut_lo <= s < cut_hi]
            if resolver.scope_has_defs(scope, starts, cut_lo):
                seen = True
                break
        if not seen:
            missing.append(name)
    return missing


_rows: dict[tuple[str, int], dict[str, Any]] = {}
_top: dict[tuple[str, int], dict[str, Any]] = {}


def _start(rows: dict[tuple[str, int], dict[str, Any]], top: dict[tuple[str, int], dict[str, Any]]) -> None:
    _rows.update(rows)
    _top.update(top)


def _count_file(path: str) -> collections.Counter[tuple[str, str, bool, bool]]:
    """(repository, candidates | answers, an unbound name, right) counts of one trace file."""
    counts: collections.Counter[tuple[str, str, bool, bool]] = collections.Counter()
    for at in queries_of(path):
        c = _top.get((at.trace, at.query))
        doc = at.docs.get(at.event.uri)
        if c is None or doc is None:
            continue
        language = language_for(doc.language_id, doc.uri, doc.text)
        missing = None if language is None else unbound_names(doc, language, c)
        if missing is None:
            continue
        row = _rows[(at.trace, at.query)]
        counts[(row["repo"], "candidates", bool(missing), bool(c["correct"]))] += 1
        if row["answered"]:
            counts[(row["repo"], "answers", bool(missing), bool(row["correct"]))] += 1
    return counts


def _share(counts: collections.Counter[tuple[str, str, bool, bool]], repo: str | None, what: str, flagged: bool) -> str:
    """``right/total`` of one cell (``repo`` None: pooled)."""
    cell = [(k[3], n) for k, n in counts.items() if k[1:3] == (what, flagged) and repo in (None, k[0])]
    return f"{sum(n for right, n in cell if right)}/{sum(n for _, n in cell)}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--explain", required=True)
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    with open(args.explain, encoding="utf-8") as f:
        rows = {(r["trace"], r["query"]): r for r in (json.loads(line) for line in f if line.strip())}
    top = {}
    with open(args.candidates, encoding="utf-8") as f:
        for c in (json.loads(line) for line in f if line.strip()):
            if c["rank"] == 0 and c["suggester"] == "repeat" and c.get("site") is not None:
                top[(c["trace"], c["query"])] = c
    counts: collections.Counter[tuple[str, str, bool, bool]] = collections.Counter()
    with multiprocessing.Pool(args.jobs, _start, (rows, top)) as pool:
        for part in pool.imap_unordered(_count_file, args.traces):
            counts.update(part)
    repos = sorted({k[0] for k in counts})
    print("| repository | top candidates right: unbound name / none | answers right: unbound name / none |")
    print("|---|---|---|")
    for repo in [*repos, None]:
        cells = [_share(counts, repo, what, flagged) for what in ("candidates", "answers") for flagged in (True, False)]
        print(f"| {repo or '**pooled**'} | {cells[0]} / {cells[1]} | {cells[2]} / {cells[3]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
