"""Feedback: the durable accept/reject log and the acceptance figures learnt from it."""

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
