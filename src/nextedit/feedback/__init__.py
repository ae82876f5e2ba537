"""Feedback: the durable accept/reject log and the acceptance figures learnt from it.

The names below load on first use (PEP 562), so that importing
``nextedit.feedback.command`` to register ``nextedit feedback`` costs nothing
at start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nextedit.feedback.log import (
        FEEDBACK_FILE,
        FeedbackLog,
        FeedbackSubject,
        default_state_dir,
        open_feedback_log,
        read_records,
    )
    from nextedit.feedback.stats import FeedbackStats

__all__ = [
    "FEEDBACK_FILE",
    "FeedbackLog",
    "FeedbackStats",
    "FeedbackSubject",
    "default_state_dir",
    "open_feedback_log",
    "read_records",
]

_HOMES = {name: "nextedit.feedback.log" for name in __all__} | {"FeedbackStats": "nextedit.feedback.stats"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
