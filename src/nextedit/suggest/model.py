"""The engine's vocabulary: requests, candidate suggestions and why there are none.

Everything here is in code-point offsets of the request's version of the
document; the session converts to positions in the negotiated encoding. No
wire types (ACP, LSP) appear here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

__all__ = [
    "CandidateKind",
    "Candidate",
    "Diagnostic",
    "SilenceReason",
    "SuggestOutcome",
    "SuggestRequest",
    "SuggestionKinds",
    "TextEditCp",
    "TriggerKind",
]

CandidateKind = Literal["edit", "jump", "rename", "searchAndReplace"]


class TriggerKind(StrEnum):
    AUTOMATIC = "automatic"
    DIAGNOSTIC = "diagnostic"
    MANUAL = "manual"


@dataclass(frozen=True, slots=True)
class SuggestionKinds:
    """Which suggestion kinds beyond ``edit`` the client advertised."""

    jump: bool = False
    rename: bool = False
    search_and_replace: bool = False


@dataclass(frozen=True, slots=True)
class TextEditCp:
    """Replace ``text[start_cp:end_cp]`` by ``new_text``."""

    start_cp: int
    end_cp: int
    new_text: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A diagnostic from the request context, already converted to cp offsets."""

    uri: str
    start_cp: int
    end_cp: int
    severity: str
    message: str


@dataclass(frozen=True, slots=True)
class SuggestRequest:
    uri: str
    version: int
    cursor_cp: int
    selection_cp: tuple[int, int] | None = None
    trigger_kind: TriggerKind = TriggerKind.AUTOMATIC
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True)
class Candidate:
    """One suggestion the engine could make, with the evidence behind it.

    ``edits`` always holds the concrete change (for a rename: every
    occurrence; for a search-and-replace: every match), so that a front end
    or a client without the richer kind can fall back to an ``edit``.
    ``fingerprint`` identifies the change independently of offsets, so a
    rejection survives later edits elsewhere in the file.
    """

    kind: CandidateKind
    uri: str
    edits: tuple[TextEditCp, ...]
    score: float
    suggester: str
    evidence: tuple[str, ...]
    fingerprint: str
    cursor_cp: int | None = None
    # jump target, rename site
    target_cp: int | None = None
    new_name: str | None = None
    search: str | None = None
    replace: str | None = None
    is_regex: bool = False
    extra: dict[str, object] = field(default_factory=dict)


class SilenceReason(StrEnum):
    """Why the engine answered nothing: typed, for ``--explain`` and the debug log."""

    NO_EVIDENCE = "no-evidence"
    NO_CANDIDATES = "no-candidates"
    FILTERED = "filtered"
    BELOW_THRESHOLD = "below-threshold"
    CANCELLED = "cancelled"
    UNKNOWN_DOCUMENT = "unknown-document"
    VERSION_MISMATCH = "version-mismatch"
    LANGUAGE_NOT_WATCHED = "language-not-watched"


@dataclass(frozen=True)
class SuggestOutcome:
    candidates: tuple[Candidate, ...]
    reason: SilenceReason | None = None
    notes: tuple[str, ...] = ()
