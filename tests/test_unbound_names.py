"""The scope reading of ``benchmarks/quality/unbound_names.py``: a repeat
site that would use a name bound only around the example."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "quality"))
import unbound_names  # noqa: E402

from nextedit.text import Document  # noqa: E402

SOURCE = """\
def done(ctx):
    if ctx.has_request:
        pass


def left(app):
    if (ctx := app.get()) is not None and ctx.has_request:
        pass


def bound(app, ctx):
    if (ctx := app.get()) is not None and ctx.has_request:
        pass
"""
WALRUS = "(ctx := app.get()) is not None and "
DOC = Document("file:///flask/ctx.py", "python", 1, SOURCE)


def _row(site: int) -> dict:
    example = SOURCE.index("ctx.has_request")
    return {"evidence": [f"edit #1 at {example}"], "edit": [[WALRUS, ""]], "site": site}


def test_a_name_bound_by_the_text_the_edit_removes_is_unbound_at_the_site() -> None:
    site = SOURCE.index(WALRUS)
    assert unbound_names.unbound_names(DOC, "python", _row(site)) == ["ctx"]


def test_a_name_the_sites_function_binds_is_seen() -> None:
    site = SOURCE.index(WALRUS, SOURCE.index("def bound"))
    assert unbound_names.unbound_names(DOC, "python", _row(site)) == []


def test_a_row_whose_old_text_is_not_at_its_site_is_not_read() -> None:
    assert unbound_names.unbound_names(DOC, "python", _row(0)) is None
