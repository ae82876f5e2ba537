"""The trace sample shipped inside the package, as a file for the tools that read paths."""

from __future__ import annotations

from nextedit.bench.readers import SAMPLE_NAME
from tests.helpers.rpc import REPO

SAMPLE_TRACE = REPO / "src" / "nextedit" / "bench" / "sample" / SAMPLE_NAME
