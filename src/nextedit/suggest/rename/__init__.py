"""Rename propagation: an identifier renamed at one site, the rest of its binding follows.

- :mod:`.suggester` — the ``rename`` suggester (evidence in, candidates out);
- :mod:`.evidence` — renames found in the edit history;
- :mod:`.binding` — the binding resolved in the text before the rename;
- :mod:`.occurrences` — the occurrences shaped into edits, here and in other documents.
"""

from nextedit.suggest.rename.evidence import identifier_renames
from nextedit.suggest.rename.suggester import RenameSuggester, rename_fingerprint

__all__ = ["RenameSuggester", "identifier_renames", "rename_fingerprint"]
