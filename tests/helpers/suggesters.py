"""Engine tests: a suggester double that proposes what it is given."""

from __future__ import annotations

from nextedit.suggest.model import Candidate, SilenceReason
from nextedit.suggest.suggester import SuggestContext


class Fixed:
    """A suggester that proposes whatever it is given (offsets in the request doc)."""

    def __init__(self, name: str, candidates: list[Candidate] | SilenceReason) -> None:
        self.name = name
        self.candidates = candidates
        self.calls = 0

    def propose(self, context: SuggestContext):
        self.calls += 1
        return self.candidates
