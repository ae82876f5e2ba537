"""The repeat-miss diagnosis (``benchmarks/quality/repeat_miss_causes.py``)
replays a trace through ``replay_inprocess`` and stops at the queries it was
given: it must keep working whatever arguments the replay's query step grows."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "quality"))
import repeat_miss_causes  # noqa: E402

from tests.helpers.sample import SAMPLE_TRACE  # noqa: E402


def _case_after_second_edit() -> dict:
    """A case at the first query after two edits of a sample session: the
    newest edit undone, asked for at that edit's own span."""
    for at in repeat_miss_causes.queries_of(str(SAMPLE_TRACE)):
        if len(at.applied) < 2:
            continue
        last = at.applied[-1]
        end = last.start_cp + len(last.new_text)
        return {
            "trace": at.trace,
            "query": at.query,
            "class": "same-as-newest",
            "uri": at.event.uri,
            "start": last.start_cp,
            "end": end,
            "old": at.docs[at.event.uri].text[last.start_cp : end],
            "new": last.old_text,
            "change": list(repeat_miss_causes.minimal_change(last.old_text, last.new_text)),
        }
    raise AssertionError("the sample has no query after two edits")


def test_a_case_is_diagnosed_at_its_own_query_and_document() -> None:
    case = _case_after_second_edit()
    results = repeat_miss_causes.diagnose_file(str(SAMPLE_TRACE), [case])
    assert len(results) == 1
    diagnosed, cause = results[0]
    assert diagnosed is case
    # the request was the one of the case's query, on the case's document
    assert cause != "repeat-not-asked-of-this-document"
    assert cause
