"""Feedback: the durable accept/reject log and the acceptance figures learnt from it."""

from nextedit.feedback.log import FEEDBACK_FILE, FeedbackLog, default_state_dir, read_records

__all__ = ["FEEDBACK_FILE", "FeedbackLog", "default_state_dir", "read_records"]
