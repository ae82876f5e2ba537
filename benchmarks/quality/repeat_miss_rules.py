"""``repeat_miss_causes.py`` with, for three causes, the rules that rewrite the expected site.

For "context too generic", "too many sites" and "site past the candidates
per rule", each case of ``--cases`` also gets: how many of the document's
edits made the same minimal change (``n_same``), where, the cursor, and
every rule of the source that rewrites the expected site — its before and
after text, examples, site count (all, and in the example's context),
literal specificity, whether it is acceptable, and the expected site's rank
among its sites counted from the newest example downwards (``down``) or
upwards (``up``). Same arguments as ``repeat_miss_causes.py``.
"""

from __future__ import annotations

from typing import Any

import repeat_miss_causes as rmc
from repeat_miss_causes import expected_rewrite, minimal_change

from nextedit.suggest.repeat import suggester as repeat
from nextedit.suggest.repeat import synthesis
from nextedit.suggest.repeat.examples import example_from_edit
from nextedit.suggest.repeat.rules import acceptable, literal_specificity, made_rules
from nextedit.suggest.repeat.sites import find_sites, same_category

orig = rmc.diagnose
WANT = {"not-acceptable: context too generic", "too-many-sites", "site-past-the-candidates-per-rule"}


def detail(case: dict[str, Any], context: Any) -> None:
    text = context.text
    gives = expected_rewrite(case, text)
    edits = list(context.edits)
    same = [e for e in edits if minimal_change(e.old_text, e.new_text) == tuple(case["change"])]
    case["n_same"] = len(same)
    case["same_pos"] = [e.start_cp for e in same][-6:]
    case["cursor"] = context.cursor_cp
    case["last_pos"] = [e.start_cp for e in edits][-4:]
    recent = edits[-repeat._HISTORY :]
    past = [synthesis.PastEdit(e.start_cp, e.old_text, e.new_text, e.seq) for e in recent]
    examples = [ex for ex in (example_from_edit(text, e) for e in past) if ex is not None]
    src = [i for i, ex in enumerate(examples) if minimal_change(ex.edit.old, ex.edit.new) == tuple(case["change"])]
    if not src:
        return
    made = made_rules(examples[: src[-1] + 1])
    if made is None:
        return
    exclude = [(e.start, e.new_end) for e in past]
    category, edited = repeat.categorizer(context), repeat.categorizer(context, edited=True)
    rules = []
    for rule in made.rules:
        allsites = find_sites(text, rule, exclude, limit=100_000)
        hits = [k for k, s in enumerate(allsites) if gives(s.start, s.end, s.new_text)]
        if not hits:
            continue
        incat = same_category(allsites, made.here(rule), category, edited) if category else allsites
        k = [j for j, s in enumerate(incat) if gives(s.start, s.end, s.new_text)]
        ex = made.here(rule).examples
        newest = max(e.start for e in ex)
        after_newest = [s for s in incat if s.start > newest]
        before_newest = [s for s in incat if s.start < newest]
        pos = incat[k[0]].start if k else allsites[hits[0]].start
        down_rank = sum(1 for s in after_newest if s.start < pos) if pos > newest else None
        up_rank = sum(1 for s in before_newest if s.start > pos) if pos < newest else None
        cur = context.cursor_cp
        rules.append(
            dict(
                b=rule.before_text,
                a=rule.after_text,
                ev=rule.evidence,
                n=len(allsites),
                ncat=len(incat),
                incat=bool(k),
                spec=round(literal_specificity(rule), 2),
                acc=acceptable(rule),
                ex=[e.start for e in ex],
                down=down_rank,
                up=up_rank,
                after_cursor=sum(1 for s in incat if cur <= s.start < pos) if pos >= cur else None,
            )
        )
    case["rules"] = rules


def diagnose(case: dict[str, Any], context: Any, proposed: object) -> str:
    cause = orig(case, context, proposed)
    if cause in WANT:
        detail(case, context)
    return cause


rmc.diagnose = diagnose  # type: ignore[assignment]
if __name__ == "__main__":
    rmc.main()
