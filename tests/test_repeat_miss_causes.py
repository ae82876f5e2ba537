"""The repeat-miss diagnosis (``benchmarks/quality/repeat_miss_causes.py``)
replays a trace through ``replay_inprocess`` and stops at the queries it was
given: it must keep working whatever arguments the replay's query step grows."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "quality"))
import repeat_miss_causes  # noqa: E402

from nextedit.bench.events import Change, Open, Query  # noqa: E402
from nextedit.bench.readers import load_sessions  # noqa: E402
from nextedit.bench.wire import text_change  # noqa: E402
from nextedit.text import Document, PositionEncoding  # noqa: E402
from tests.helpers.sample import SAMPLE_TRACE  # noqa: E402


def _case_after_second_edit() -> dict:
    """A case at the first query after two edits of a sample session: the
    newest edit's change, asked for at that edit's own (now changed) span."""
    for session in load_sessions(str(SAMPLE_TRACE)):
        enc = PositionEncoding(session.header.encoding)
        docs: dict[str, Document] = {}
        edits = 0
        last = None
        qn = 0
        for ev in session.events:
            if isinstance(ev, Open):
                docs[ev.uri] = Document(ev.uri, ev.language_id, ev.version, ev.text)
            elif isinstance(ev, Change):
                for change in ev.content_changes:
                    (last,) = docs[ev.uri].apply_changes([text_change(change)], ev.version, enc)
                    edits += 1
                uri = ev.uri
            elif isinstance(ev, Query):
                qn += 1
                if edits >= 2 and last is not None:
                    end = last.start_cp + len(last.new_text)
                    return {
                        "trace": session.trace,
                        "query": qn,
                        "class": "same-as-newest",
                        "uri": uri,
                        "start": last.start_cp,
                        "end": end,
                        "old": docs[uri].text[last.start_cp : end],
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
