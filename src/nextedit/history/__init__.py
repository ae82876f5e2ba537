"""What the developer did: each document's edit log, coalesced into developer-level edits.

See :mod:`nextedit.history.edit_history` for the coalescing rules.
"""

from nextedit.history.edit_history import (
    DEFAULT_BOUND,
    IDENTIFIER_RE,
    DeveloperEdit,
    EditHistory,
    is_identifier,
)

__all__ = [
    "DEFAULT_BOUND",
    "IDENTIFIER_RE",
    "DeveloperEdit",
    "EditHistory",
    "is_identifier",
]
