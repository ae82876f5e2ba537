"""Repeated edits: the developer's change at one or two sites, generalised and offered at the others.

- :mod:`.suggester` — the ``repeat`` suggester (one site per candidate);
- :mod:`.search_replace` — the same rule as one ``searchAndReplace``;
- :mod:`.synthesis` — which edits are examples, which rules are tried, negative evidence;
- :mod:`.examples`, :mod:`.rules`, :mod:`.sites`, :mod:`.lines`, :mod:`.replay`, :mod:`.model`,
  :mod:`.text`, :mod:`.tokens` — its parts (pure functions over text and code-point offsets);
- :mod:`.scan_memory` — a document's verdicts "too many sites", kept across requests while they hold.
"""

from nextedit.suggest.repeat.search_replace import SearchReplaceSuggester
from nextedit.suggest.repeat.suggester import RepeatEditSuggester, repeat_fingerprint, repeat_proposals
from nextedit.suggest.repeat.synthesis import PastEdit, synthesize

__all__ = [
    "PastEdit",
    "RepeatEditSuggester",
    "SearchReplaceSuggester",
    "repeat_fingerprint",
    "repeat_proposals",
    "synthesize",
]
