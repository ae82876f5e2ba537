"""Leave-one-repository-out, with the engine in the loop.

For each trace file (one repository each): fit the ranker on the candidates
of every *other* repository (``train_ranker.fit`` on the rows that
``replay_inprocess.py --candidates`` wrote), then replay the held-out file
through the engine with those weights (``NEXTEDIT_RANKER_WEIGHTS``) and the
bench's client behaviour. The pooled and per-repository figures are the
out-of-repository figures: no weight ever saw the repository it is scored on.

Needs numpy (``pip install -e ".[train]"``)::

    python benchmarks/quality/loro.py --queries Q --candidates C TRACE... [--jobs 2] [--target 0.9] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import replay_inprocess  # noqa: E402
import train_ranker  # noqa: E402

from nextedit.suggest.rank import WEIGHTS_ENV  # noqa: E402


def _replay(args: tuple[str, str, list[str], bool]) -> replay_inprocess.FileResult:
    path, weights_path, overrides, collect = args
    os.environ[WEIGHTS_ENV] = weights_path
    replay_inprocess.apply_overrides(overrides)
    return replay_inprocess.replay_file(path, collect)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--queries", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--target", type=float, default=0.9, help="the pooled precision thresholds are chosen for")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--model", choices=["logistic", "trees"], default="logistic")
    ap.add_argument("--balance", choices=train_ranker.BALANCES, default="repository")
    ap.add_argument("--first-weight", type=float, default=1.0, help="as train_ranker.py's")
    ap.add_argument("--fit-extra", action="append", default=[], metavar="CANDIDATES", help="more rows to fit on")
    ap.add_argument("--json", help="write the per-repository table as JSON")
    ap.add_argument("--explain", help="write one JSON line per query")
    ap.add_argument(
        "--collect",
        metavar="FILE",
        help="write the candidates seen with the held-out models in the loop (on-policy data)",
    )
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    ap.add_argument(
        "--drop",
        default="",
        metavar="PREFIXES",
        help="fit without the features whose names start with any of these (comma-separated), as train_ranker.py's",
    )
    args = ap.parse_args(argv)

    drop = train_ranker.drop_prefixes(args.drop)
    rec = train_ranker.load_recorded(args.queries, args.candidates, args.fit_extra, drop)
    weighting = train_ranker.Weighting(args.balance, args.first_weight)
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for path in args.traces:
            repo = replay_inprocess.file_repo(path)
            model, threshold = train_ranker.heldout_model(rec, repo, args.l2, args.target, args.model, weighting)
            print(f"{repo}: threshold {threshold:.2f} chosen without it", file=sys.stderr)
            wpath = Path(tmp) / f"{repo}.json"
            wpath.write_text(json.dumps(model.to_json(threshold)))
            jobs.append((path, str(wpath), args.set, args.collect is not None))
        queries: list[dict[str, Any]] = []
        collected = open(args.collect, "w") if args.collect else None  # noqa: SIM115
        with multiprocessing.Pool(args.jobs) as pool:
            for result in pool.imap(_replay, jobs):
                queries.extend(result.queries)
                if collected is not None:
                    for c in result.candidates:
                        collected.write(json.dumps(c) + "\n")
        if collected is not None:
            collected.close()
    replay_inprocess.write_report(queries, args.json, args.explain)
    return 0


if __name__ == "__main__":
    sys.exit(main())
