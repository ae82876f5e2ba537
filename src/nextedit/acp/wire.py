"""ACP NES wire types: validating params in, converting to core types, suggestions out.

The one place where ACP field names meet core types: ``from_wire`` turns
validated params into :mod:`nextedit.text` values (positions stay in the
session's negotiated encoding; only ``text/`` converts encodings) and
:func:`suggestion_to_wire` turns a :class:`~nextedit.session.PlacedSuggestion`
into an ACP ``NesSuggestion`` the client advertised it can take.

``initialize`` is not here: :mod:`nextedit.acp.handshake` answers it before
pydantic is imported. Validation is pydantic in strict mode (``"3"`` is not a version, ``true`` is
not a line); the first problem becomes :class:`InvalidParams` naming the
field by its wire path (``position.line``, ``contentChanges.0.range``).
Unknown fields are ignored (``_meta`` and future additions).

Must not know: JSON-RPC framing, sessions' state, the transport.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from nextedit.acp.errors import InvalidParams
from nextedit.provider.defaults import MODEL_SOURCE_PREFIX
from nextedit.suggest.model import SuggestionKinds
from nextedit.text import Position, Range, TextChange

if TYPE_CHECKING:
    from nextedit.session import PlacedSuggestion

__all__ = [
    "AcceptParams",
    "CancelParams",
    "CloseParams",
    "DidChangeParams",
    "DidFocusParams",
    "DidOpenParams",
    "DisableProviderParams",
    "ListProvidersParams",
    "RejectParams",
    "SessionParams",
    "SetProviderParams",
    "StartParams",
    "SuggestParams",
    "kinds_from_wire",
    "parse",
    "suggestion_to_wire",
]

UInt = Annotated[int, Field(ge=0)]


class _Wire(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class WirePosition(_Wire):
    line: UInt
    character: UInt

    def from_wire(self) -> Position:
        return Position(self.line, self.character)


class WireRange(_Wire):
    start: WirePosition
    end: WirePosition

    def from_wire(self) -> Range:
        return Range(self.start.from_wire(), self.end.from_wire())


class WireChange(_Wire):
    range: WireRange | None = None
    text: str

    def from_wire(self) -> TextChange:
        return TextChange(self.range.from_wire() if self.range else None, self.text)


# -- initialize (validated in acp/handshake.py, without pydantic) ----------------


def kinds_from_wire(advertised: frozenset[str]) -> SuggestionKinds:
    """The suggestion kinds for the ACP capability names ``initialize`` advertised."""
    return SuggestionKinds(
        jump="jump" in advertised,
        rename="rename" in advertised,
        search_and_replace="searchAndReplace" in advertised,
    )


# -- sessions and documents ----------------------------------------------------------


class StartParams(_Wire):
    workspace_uri: str | None = Field(None, alias="workspaceUri")


class SessionParams(_Wire):
    session_id: str = Field(alias="sessionId")


class CloseParams(SessionParams):
    pass


class DidOpenParams(SessionParams):
    uri: str
    language_id: str = Field(alias="languageId")
    version: int
    text: str


class DidChangeParams(SessionParams):
    uri: str
    version: int
    content_changes: list[WireChange] = Field(alias="contentChanges")

    def changes(self) -> list[TextChange]:
        return [change.from_wire() for change in self.content_changes]


class DocumentParams(SessionParams):
    uri: str


class DidFocusParams(SessionParams):
    uri: str
    version: int
    position: WirePosition
    visible_range: WireRange = Field(alias="visibleRange")


# -- suggestions -------------------------------------------------------------------


class WireDiagnostic(_Wire):
    uri: str
    range: WireRange
    severity: Literal["error", "warning", "information", "hint"]
    message: str


class SuggestContext(_Wire):
    diagnostics: list[WireDiagnostic] | None = None


class SuggestParams(SessionParams):
    uri: str
    version: int
    position: WirePosition
    selection: WireRange | None = None
    trigger_kind: Literal["automatic", "diagnostic", "manual"] = Field(alias="triggerKind")
    context: SuggestContext | None = None

    def diagnostics(self) -> list[tuple[str, Range, str, str]]:
        if self.context is None or not self.context.diagnostics:
            return []
        return [(d.uri, d.range.from_wire(), d.severity, d.message) for d in self.context.diagnostics]


class AcceptParams(SessionParams):
    """``id`` (v1) or ``suggestionId`` (the v2 spelling) names the suggestion."""

    id: str | None = None
    suggestion_id: str | None = Field(None, alias="suggestionId")

    @model_validator(mode="after")
    def _one_id(self) -> AcceptParams:
        if self.id is None and self.suggestion_id is None:
            raise ValueError("id (or suggestionId) is required")
        return self

    @property
    def target(self) -> str:
        return self.id if self.id is not None else self.suggestion_id  # type: ignore[return-value]


class RejectParams(AcceptParams):
    reason: str | None = None


class CancelParams(_Wire):
    # a JSON-RPC id: a string or an integer (null cancels nothing)
    request_id: str | int | None = Field(alias="requestId")


# -- providers ------------------------------------------------------------------------


class ListProvidersParams(_Wire):
    pass


class SetProviderParams(_Wire):
    """``providers/set``: ``headers`` may hold credentials (never logged, echoed or written)."""

    id: str
    api_type: str = Field(alias="apiType")
    base_url: str = Field(alias="baseUrl")
    headers: dict[str, str] | None = None


class DisableProviderParams(_Wire):
    id: str


M = TypeVar("M", bound=BaseModel)


def parse(model: type[M], params: Any) -> M:
    """Validate ``params`` or raise :class:`InvalidParams` naming the first bad field."""
    if not isinstance(params, dict):
        raise InvalidParams("params", f"expected an object, got {type(params).__name__}")
    try:
        return model.model_validate(params)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "params"
        if first["type"] == "value_error" and field == "params":
            field = "id"
        raise InvalidParams(field, first["msg"]) from None


# -- out ---------------------------------------------------------------------------------


def position_to_wire(position: Position) -> dict[str, int]:
    return {"line": position.line, "character": position.character}


def range_to_wire(range_: Range) -> dict[str, Any]:
    return {"start": position_to_wire(range_.start), "end": position_to_wire(range_.end)}


def _edit_suggestion(suggestion: PlacedSuggestion) -> dict[str, Any]:
    wire: dict[str, Any] = {
        "kind": "edit",
        "id": suggestion.id,
        "uri": suggestion.uri,
        "edits": [{"range": range_to_wire(e.range), "newText": e.new_text} for e in suggestion.edits],
    }
    if suggestion.cursor_position is not None:
        wire["cursorPosition"] = position_to_wire(suggestion.cursor_position)
    return wire


def suggestion_to_wire(suggestion: PlacedSuggestion, kinds: SuggestionKinds) -> dict[str, Any] | None:
    """The ACP form of a suggestion in a kind the client takes; ``None`` when there is none.

    ``rename`` and ``searchAndReplace`` fall back to an ``edit`` carrying the
    concrete edits when the client did not advertise them; a ``jump`` the
    client cannot take is dropped (there is nothing to edit). A suggestion
    from the model carries its source in ``_meta.nextedit.source``
    (``model:next-edit``); the engine's own carry no ``_meta``.
    """
    wire = _suggestion_to_wire(suggestion, kinds)
    if wire is not None and suggestion.suggester.startswith(MODEL_SOURCE_PREFIX):
        wire["_meta"] = {"nextedit": {"source": suggestion.suggester}}
    return wire


def _suggestion_to_wire(suggestion: PlacedSuggestion, kinds: SuggestionKinds) -> dict[str, Any] | None:
    kind = suggestion.kind
    if kind == "rename" and kinds.rename and suggestion.position is not None and suggestion.new_name:
        return {
            "kind": "rename",
            "id": suggestion.id,
            "uri": suggestion.uri,
            "position": position_to_wire(suggestion.position),
            "newName": suggestion.new_name,
        }
    if kind == "searchAndReplace" and kinds.search_and_replace and suggestion.search is not None:
        return {
            "kind": "searchAndReplace",
            "id": suggestion.id,
            "uri": suggestion.uri,
            "search": suggestion.search,
            "replace": suggestion.replace or "",
            "isRegex": suggestion.is_regex,
        }
    if kind == "jump":
        if not kinds.jump or suggestion.position is None:
            return None
        return {
            "kind": "jump",
            "id": suggestion.id,
            "uri": suggestion.uri,
            "position": position_to_wire(suggestion.position),
        }
    if not suggestion.edits:
        return None
    return _edit_suggestion(suggestion)
