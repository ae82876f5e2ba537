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
    "CandidateFeatures",
    "Diagnostic",
    "NO_VERDICTS",
    "SPECIFICITY_CAP",
    "SilenceReason",
    "SuggestOutcome",
    "SuggestRequest",
    "SuggestionKinds",
    "TextEditCp",
    "TriggerKind",
    "Verdicts",
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
    trigger_kind: TriggerKind = TriggerKind.AUTOMATIC
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=True)
class Verdicts:
    """What the developer said of the engine's answers, as one request reads it.

    ``last_declined``: the first suggestion of the session's newest answer was
    declined (rejected, or ignored and typed on). ``taken`` and ``declined``
    count, over every session of this agent process, the answers whose first
    suggestion the developer took (accepted, or made by hand as their very
    next change) and those they declined: how well the engine reads *this*
    developer's code, which the ranker weighs against what it learnt
    elsewhere (``benchmarks/results/quality-verdicts.md``)."""

    last_declined: bool = False
    taken: int = 0
    declined: int = 0


# nothing said yet (a request without a session, a fresh agent)
NO_VERDICTS = Verdicts()


Shape = Literal["insert", "delete", "replace", "none"]


# The most ``CandidateFeatures.specificity`` the ranker reads: a candidate
# more specific than this reads as this (so a suggester may stop counting here).
SPECIFICITY_CAP = 20.0


@dataclass(frozen=True, slots=True)
class CandidateFeatures:
    """What the ranker learns from: the evidence behind one candidate, typed.

    Suggesters fill what they know; the ranker (:mod:`nextedit.suggest.ranker`)
    adds what depends on the request (distance from the cursor, the document)
    and turns both into one probability of being the right next edit.
    """

    family: str = ""  # the rule family within the suggester (e.g. "line", "tokens", "binding")
    examples: int = 1  # developer edits that show this change
    source_age: int = 0  # developer edits made since the newest example (0: it is the last one)
    sites: int = 1  # sites left where the change applies, this one included
    site_rank: int = 0  # this site's place among them (0: the nearest after the cursor)
    done: int = 0  # sites already changed this way (by the developer)
    passed_over: int = 0  # matching sites between examples the developer left unchanged
    specificity: float = 0.0  # weight of the fixed identifier/string text of the pattern
    context_tokens: int = 0  # tokens of fixed context around the change
    changed_tokens: int = 0  # tokens removed + inserted by the change
    changed_chars: int = 0  # characters removed + inserted
    changed_lines: int = 0  # line breaks removed + inserted
    shape: Shape = "replace"  # the change: an insertion, a deletion or a replacement
    whole_line: bool = False  # the pattern is whole lines (indentation free)
    prose: bool = False  # the change reads as prose (comments, docs)
    comment: bool = False  # the change lies in a comment
    same_line_text: bool = False  # the site's line reads exactly like the example's before
    same_line_shape: bool = False  # ... with numbers and strings set aside
    above_source: bool = False  # the site lies above the newest example
    new_literal: bool = False  # the change types a new string/number value
    identifier_only: bool = False  # identifiers replaced one for one
    defined_here: bool = False  # (rename) the binding has a definition in this file
    occurrences: int = 0  # (rename) occurrences of the binding left
    at_definition: bool = False  # (rename) the developer renamed it where it is defined
    imported: bool = False  # (rename) the binding comes from an import
    member: bool = False  # (rename) a member name (``obj.name``)
    partial: bool = False  # (rename) occurrences between renamed sites were skipped
    file_level: bool = False  # (rename) a top-level definition of the file
    support: int = 1  # candidates of other rules that propose the very same edit
    rivals: int = 1  # different changes proposed for this request
    lines_from_examples: int = 0  # lines between the site and the nearest example
    between_examples: bool = False  # the site lies between two of the examples
    neighbour_similarity: float = 0.0  # names shared by the lines around the site and around the newest example
    line_similarity: float = 0.0  # names shared by the site's own line and the newest example's, outside the change


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
    features: CandidateFeatures = field(default_factory=lambda: CandidateFeatures())
    # a rename's bounded group for clients without ``rename`` (see suggest/rename)
    fallback_edits: tuple[TextEditCp, ...] | None = None
    # seq of the newest developer edit that is an example of this candidate's rule
    example_seq: int = 0
    # a jump's: the change of the edit it leads to (``filters.change_key``), so
    # that dismissing the jump dismisses that change; other kinds derive it from ``edits``
    change: str = ""
    # what this candidate's sites share (a repeat rule, a rename's same-name
    # family): dismissing one suggestion of it dismisses its other sites until
    # the rule has a newer example (``filters.rule_key``); empty: the
    # fingerprint, a suggestion that shares its rule with no other site
    rule: str = ""


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
