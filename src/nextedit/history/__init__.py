"""What the developer did: each document's edit log, coalesced into developer-level edits.

See :mod:`nextedit.history.edit_history` for the coalescing rules.
"""

from nextedit.history.edit_history import (
    DEFAULT_BOUND,
    DeveloperEdit,
    EditHistory,
)

__all__ = [
    "DEFAULT_BOUND",
    "DeveloperEdit",
    "EditHistory",
]
