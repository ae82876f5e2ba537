"""Add interaction features to a candidates file, for an offline ranker trial.

The ranker is a logistic model over one-hot categories (suggester, family,
shape) and numeric features; it cannot say "many sites count against a
one-example `tokens` rule more than against a rename". This script copies
``replay_inprocess.py --candidates`` output and adds, to each row's
``vector``, the product of its suggester's or family's indicator with each of
:data:`NUMERIC` (``--by suggester|family``), so ``train_ranker.py --curve``
can fit and score the wider model leave one repository out::

    python benchmarks/quality/interaction_features.py C.jsonl C-family.jsonl --by family
    python benchmarks/quality/train_ranker.py --queries Q.jsonl --candidates C-family.jsonl --curve
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

# the numeric features crossed with the category
NUMERIC = (
    "log_examples",
    "log_sites",
    "single_site",
    "new_literal",
    "log_changed_tokens",
    "log_context_tokens",
    "specificity",
    "log_done",
    "done_ratio",
    "log_line_distance",
    "neighbour_similarity",
    "whole_line",
    "log_rivals",
    "log_support",
)


def with_interactions(vector: dict[str, float], by: str) -> dict[str, float]:
    """``vector`` plus ``"<by>=<value>*<feature>"`` for each nonzero feature of :data:`NUMERIC`."""
    prefix = f"{by}="
    category = next((k for k in vector if k.startswith(prefix)), f"{prefix}none")
    out = dict(vector)
    for name in NUMERIC:
        value = vector.get(name, 0.0)
        if value:
            out[f"{category}*{name}"] = value
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("candidates")
    ap.add_argument("out")
    ap.add_argument("--by", choices=("suggester", "family"), default="family")
    args = ap.parse_args(argv)
    with open(args.candidates) as src, open(args.out, "w") as dst:
        for line in src:
            row = json.loads(line)
            row["vector"] = with_interactions(row["vector"], args.by)
            dst.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
