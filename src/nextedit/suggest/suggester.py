"""The one small interface every suggester implements, and what it is handed.

A suggester looks at what the developer did (the edit history) and the
current text, and proposes :class:`~nextedit.suggest.model.Candidate`\\ s
with their evidence — or says why it is silent with a
:class:`~nextedit.suggest.model.SilenceReason`. It does not rank against
other suggesters, apply the client's kinds, or filter rejected suggestions:
the engine does that (:mod:`nextedit.suggest.engine`).

Rules for suggesters:

- Candidates are in code-point offsets of the *current* text of their
  ``uri`` (the request's version for the request document). ``edits`` always
  holds the concrete change, even for ``rename`` / ``searchAndReplace``.
- ``score`` is the suggester's own confidence in ``[0, 1]``; the ranker
  combines it with distance, evidence count and past acceptance.
- ``fingerprint`` names the change independently of offsets
  (``"rename:{uri}:{old}->{new}"``, ``"repeat:{uri}:{before!r}->{after!r}"``…),
  so a rejection survives unrelated edits elsewhere. Quote any part that
  is code: code holds ``->`` and ``@``, and two changes must never share
  a name.
- ``evidence`` says, in words, which developer edits back the candidate
  (shown by ``--explain`` and the debug log).
- Check ``context.cancelled()`` in long loops and return
  ``SilenceReason.CANCELLED`` when it is set.
- Never raise for ordinary input: the engine logs an exception and carries
  on with the other suggesters, but it costs the suggestion.

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from nextedit.history import DeveloperEdit, EditHistory
from nextedit.suggest.model import NO_VERDICTS, Candidate, SilenceReason, SuggestionKinds, SuggestRequest, Verdicts
from nextedit.text.affixes import changed_part

if TYPE_CHECKING:  # pragma: no cover - typing only
    from nextedit.text import Document

__all__ = [
    "DocumentStateView",
    "FocusView",
    "Proposal",
    "SuggestContext",
    "Suggester",
    "WorkspaceView",
]


class FocusView(Protocol):
    """What ``didFocus`` told us: cursor and visible range (cp offsets)."""

    @property
    def version(self) -> int: ...
    @property
    def cursor_cp(self) -> int: ...
    @property
    def visible_cp(self) -> tuple[int, int]: ...


class DocumentStateView(Protocol):
    """One open document as the engine sees it (``session.DocumentState``)."""

    @property
    def document(self) -> Document: ...
    @property
    def language(self) -> str | None: ...  # grammar name, None = plain tokens
    @property
    def syntax(self) -> Any: ...  # nextedit.syntax.SyntaxTree | None
    @property
    def history(self) -> EditHistory: ...
    @property
    def focus(self) -> FocusView | None: ...

    @property
    def uri(self) -> str: ...


class WorkspaceView(Protocol):
    """The open documents of one session (``session.Session`` implements it)."""

    def get(self, uri: str) -> DocumentStateView | None: ...

    def states(self) -> Sequence[DocumentStateView]: ...


Proposal = list[Candidate] | SilenceReason


@dataclass(frozen=True)
class SuggestContext:
    """Everything a suggester may look at for one ``suggest`` request.

    ``edits`` is the request document's history (oldest first, current-text
    offsets); :meth:`edits_of` gives another document's, :meth:`recent_edits`
    all documents' merged by recency.
    """

    workspace: WorkspaceView
    request: SuggestRequest
    state: DocumentStateView
    kinds: SuggestionKinds
    edits: tuple[DeveloperEdit, ...]
    rejected: frozenset[str] = frozenset()
    # rule key (``filters.rule_key``: a candidate's rule) -> the newest developer edit's seq when
    # one of the rule's suggestions was dismissed: its other sites wait for a new example
    rejected_rules: Mapping[str, int] = field(default_factory=dict, compare=False)
    cancelled: Callable[[], bool] = field(default=lambda: False, compare=False)
    # suggester name -> (accepted, accepted + explicitly rejected) in this installation's feedback log
    feedback: Mapping[str, tuple[int, int]] = field(default_factory=dict, compare=False)
    # what the developer said of the engine's answers (the session's newest; this agent's)
    verdicts: Verdicts = NO_VERDICTS

    @classmethod
    def for_request(
        cls,
        workspace: WorkspaceView,
        request: SuggestRequest,
        state: DocumentStateView,
        kinds: SuggestionKinds,
        rejected: frozenset[str],
        cancelled: Callable[[], bool] = lambda: False,
        rejected_rules: Mapping[str, int] | None = None,
        feedback: Mapping[str, tuple[int, int]] | None = None,
        verdicts: Verdicts = NO_VERDICTS,
    ) -> SuggestContext:
        """The context of ``request`` on ``state`` (its document in
        ``workspace``), with that document's developer edits."""
        return cls(
            workspace=workspace,
            request=request,
            state=state,
            kinds=kinds,
            edits=tuple(state.history.edits()),
            rejected=rejected,
            rejected_rules=rejected_rules or {},
            cancelled=cancelled,
            feedback=feedback or {},
            verdicts=verdicts,
        )

    # -- conveniences ------------------------------------------------------

    @property
    def uri(self) -> str:
        return self.request.uri

    @property
    def document(self) -> Document:
        return self.state.document

    @property
    def text(self) -> str:
        return self.state.document.text

    @property
    def language(self) -> str | None:
        return self.state.language

    @property
    def syntax(self) -> Any:
        return self.state.syntax

    @property
    def cursor_cp(self) -> int:
        return self.request.cursor_cp

    @property
    def last_edit(self) -> DeveloperEdit | None:
        """The most recent developer edit of the request document."""
        return self.edits[-1] if self.edits else None

    @functools.cached_property
    def repeated_share(self) -> float:
        """Share of the developer's edits in this document that repeat an
        earlier one (the same text replaced by the same text): how repetitive
        the work is. Worked out once per request."""
        edits = self.edits
        if len(edits) < 2:
            return 0.0
        seen: set[tuple[str, str]] = set()
        repeats = 0
        for e in edits:
            key = (e.old_text.strip(), e.new_text.strip())
            repeats += key in seen
            seen.add(key)
        return repeats / (len(edits) - 1)

    @functools.cached_property
    def edit_lines(self) -> tuple[int, ...]:
        """The line each of ``edits`` starts on (worked out once per request)."""
        document = self.document
        end = len(document.text)
        return tuple(document.line_of(min(e.start_cp, end)) for e in self.edits)

    @functools.cached_property
    def edit_lines_sorted(self) -> tuple[tuple[int, int], ...]:
        """``(line, index in edits)`` of each of ``edits``, by line (once per request)."""
        return tuple(sorted((line, i) for i, line in enumerate(self.edit_lines)))

    @functools.cached_property
    def edits_by_change(self) -> Mapping[tuple[str, str], tuple[int, ...]]:
        """The indices in ``edits`` of the edits making each change
        (:func:`~nextedit.text.affixes.changed_part`; worked out once per request)."""
        by: dict[tuple[str, str], list[int]] = {}
        for i, e in enumerate(self.edits):
            by.setdefault(changed_part(e.old_text, e.new_text), []).append(i)
        return {change: tuple(indices) for change, indices in by.items()}

    def edits_of(self, uri: str) -> list[DeveloperEdit]:
        """The history of another open document (empty when not open)."""
        if uri == self.uri:
            return list(self.edits)
        state = self.workspace.get(uri)
        return state.history.edits() if state is not None else []

    def text_of(self, uri: str) -> str:
        """The text of another open document (empty when not open)."""
        if uri == self.uri:
            return self.text
        state = self.workspace.get(uri)
        return state.document.text if state is not None else ""

    def recent_edits(self, limit: int = 16) -> list[DeveloperEdit]:
        """The newest ``limit`` edits of all open documents, newest first."""
        merged: list[DeveloperEdit] = list(self.edits)
        for state in self.workspace.states():
            if state.uri != self.uri:
                merged.extend(state.history.edits())
        merged.sort(key=lambda e: e.seq, reverse=True)
        return merged[:limit]

    def other_states(self) -> Iterable[DocumentStateView]:
        """The open documents other than the request's."""
        return (s for s in self.workspace.states() if s.uri != self.uri)


@runtime_checkable
class Suggester(Protocol):
    """A source of candidates. ``name`` is stable: it keys feedback and ranking."""

    name: str

    def propose(self, context: SuggestContext) -> Proposal:
        """Candidates with evidence, or why there are none."""
        ...
