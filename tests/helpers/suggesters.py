"""Engine tests: a suggester double that proposes what it is given, and a
repeat candidate built by hand for the ranker's feature readers."""

from __future__ import annotations

from nextedit.suggest.model import Candidate, CandidateFeatures, SilenceReason, TextEditCp
from nextedit.suggest.suggester import SuggestContext


def repeat_candidate(
    context: SuggestContext,
    start: int,
    end: int,
    new: str,
    *,
    example_seq: int | None = None,
    features: CandidateFeatures | None = None,
) -> Candidate:
    """A repeat suggester's candidate replacing ``[start, end)`` of the request
    document by ``new``; its example is the newest edit unless ``example_seq``."""
    return Candidate(
        kind="edit",
        uri=context.uri,
        edits=(TextEditCp(start, end, new),),
        score=0.5,
        suggester="repeat",
        evidence=(),
        fingerprint=f"repeat:{start}",
        example_seq=context.edits[-1].seq if example_seq is None else example_seq,
        features=features if features is not None else CandidateFeatures(),
    )


class Fixed:
    """A suggester that proposes whatever it is given (offsets in the request doc)."""

    def __init__(self, name: str, candidates: list[Candidate] | SilenceReason) -> None:
        self.name = name
        self.candidates = candidates
        self.calls = 0

    def propose(self, context: SuggestContext):
        self.calls += 1
        return self.candidates
