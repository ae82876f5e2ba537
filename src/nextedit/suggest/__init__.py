"""The suggestion engine: suggesters, ranking, filters and jumps.

- :mod:`nextedit.suggest.model` — the vocabulary (requests, candidates, silence reasons);
- :mod:`nextedit.suggest.suggester` — the :class:`Suggester` interface and its :class:`SuggestContext`;
- :mod:`nextedit.suggest.engine` — :class:`SuggestionEngine` and the registry ``SUGGESTERS``;
- :mod:`nextedit.suggest.rename.suggester` — rename propagation;
- :mod:`nextedit.suggest.rank`, :mod:`~nextedit.suggest.filters`, :mod:`~nextedit.suggest.jump`.
"""

from nextedit.suggest.engine import SUGGESTERS, SuggestionEngine, default_suggesters
from nextedit.suggest.model import (
    Candidate,
    SilenceReason,
    SuggestionKinds,
    SuggestOutcome,
    SuggestRequest,
    TextEditCp,
)
from nextedit.suggest.rename import RenameSuggester
from nextedit.suggest.suggester import SuggestContext, Suggester

__all__ = [
    "SUGGESTERS",
    "Candidate",
    "RenameSuggester",
    "SilenceReason",
    "SuggestContext",
    "SuggestOutcome",
    "SuggestRequest",
    "Suggester",
    "SuggestionEngine",
    "SuggestionKinds",
    "TextEditCp",
    "default_suggesters",
]
