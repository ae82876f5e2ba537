"""Asking the model when synthesis is silent: prompt, answer, edits, the engine's filters.

Owns :func:`ask_model`, the model's counterpart of
:meth:`~nextedit.suggest.engine.SuggestionEngine.suggest` for one request:

1. recall a prediction made for the same text with the cursor in the same
   region (:meth:`~nextedit.provider.service.ModelProvider.recall`), else
2. write the prompt (the excerpt around the cursor, the recent edits of every
   open document) in the configured format and ask the model within the
   budget, polling ``cancelled()``;
3. read its rewrite of the editable region; refuse a rewrite that keeps
   less than :data:`MIN_SIMILARITY` of the region's lines (an answer about
   some other text); turn the rest into edits (whitespace-only changes left
   out);
4. one ``edit`` candidate from ``model:<id>``, through the engine's own
   filters (rejected fingerprints, reversals of what the developer typed,
   no-ops) and, when it lies out of view and the client takes jumps, led by
   a ``jump`` (:func:`nextedit.suggest.jump.plan`).

Every way to silence is a :class:`ModelOutcome` with a ``note``; failures of
the model itself are logged by the provider, the rest here (one line each).

Must not know: the wire, positions in an encoding, threads.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from nextedit.provider.client import Completion, ProviderCancelled, ProviderError
from nextedit.provider.config import ProviderConfig
from nextedit.provider.excerpt import Excerpt, edit_events, excerpt_around, path_of
from nextedit.provider.prompt import Prompt, PromptInput, ReplyError, prompt_format
from nextedit.provider.region_diff import region_edits, similarity
from nextedit.provider.service import ModelProvider, Prediction
from nextedit.suggest import filters, jump
from nextedit.suggest.model import Candidate, SuggestionKinds, SuggestRequest
from nextedit.suggest.suggester import SuggestContext, WorkspaceView
from nextedit.text import Document

__all__ = ["MIN_SIMILARITY", "ModelOutcome", "ask_model"]

log = logging.getLogger(__name__)

#: a rewrite must keep this share of the region's lines to count as a rewrite of it
MIN_SIMILARITY = 0.5


@dataclass(frozen=True)
class ModelOutcome:
    """The model's candidates (best first), or why there are none."""

    candidates: tuple[Candidate, ...]
    note: str
    cancelled: bool = False


def _silent(note: str, *, cancelled: bool = False) -> ModelOutcome:
    return ModelOutcome((), note, cancelled)


def _line_endings(region: str, old: str) -> str:
    """The model's ``\\n`` as the document's ``\\r\\n`` when the region used those."""
    if "\r\n" in old and "\r" not in region:
        return region.replace("\n", "\r\n")
    return region


def _predict(
    provider: ModelProvider,
    config: ProviderConfig,
    workspace: WorkspaceView,
    request: SuggestRequest,
    document: Document,
    workspace_uri: str | None,
    cancelled: Callable[[], bool],
) -> Prediction:
    """Ask the model about the region of ``document`` (the request's) around the cursor
    (raises what the provider raises)."""
    excerpt = excerpt_around(document, request.cursor_cp, path_of(request.uri, workspace_uri), config.region_tokens)
    events = edit_events(
        (path_of(other.uri, workspace_uri), edit, other.document)
        for other in workspace.states()
        for edit in other.history.edits()
    )
    fmt = prompt_format(config.prompt_format)
    prompt = fmt.build(PromptInput(excerpt, tuple(events)), config.region_tokens)

    def read(completion: Completion) -> str:
        if completion.finish_reason == "length":
            raise ReplyError(f"the reply was cut off at max_tokens ({prompt.max_tokens})")
        return fmt.parse(completion.text, prompt)

    region = _line_endings(provider.ask(config, prompt, cancelled, read), excerpt.editable)
    return _prediction(excerpt, region, prompt)


def _prediction(excerpt: Excerpt, region: str, prompt: Prompt) -> Prediction:
    old = excerpt.editable
    span = (excerpt.editable_start, excerpt.editable_end)
    lines = f"lines {excerpt.text.count(chr(10), 0, excerpt.editable_start) + 1}–"
    lines += f"{excerpt.text.count(chr(10), 0, excerpt.editable_end) + 1} of {excerpt.path}"
    if similarity(old, region) < MIN_SIMILARITY:
        log.info(
            "model: its rewrite of %s does not match the region (kept < %.0f%% of it)", lines, MIN_SIMILARITY * 100
        )
        return Prediction(span, (), f"rewrite of {lines} does not match")
    edits = tuple(region_edits(old, region, excerpt.editable_start))
    return Prediction(span, edits, f"the model rewrote {lines}")


def _fingerprint(source: str, uri: str, candidate_text: str, edits: tuple) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for edit in edits:
        digest.update(f"{candidate_text[edit.start_cp : edit.end_cp]}\0{edit.new_text}\0".encode("utf-8", "replace"))
    return f"{source}:{uri}:{digest.hexdigest()}"


def ask_model(
    provider: ModelProvider,
    config: ProviderConfig,
    workspace: WorkspaceView,
    request: SuggestRequest,
    kinds: SuggestionKinds,
    rejected: frozenset[str],
    cancelled: Callable[[], bool] = lambda: False,
    *,
    memory_key: tuple = (),
    workspace_uri: str | None = None,
) -> ModelOutcome:
    """What the model suggests for ``request`` (see the module docstring)."""
    state = workspace.get(request.uri)
    if state is None:
        return _silent("model: unknown document")
    if cancelled():
        return _silent("model: cancelled", cancelled=True)
    document = state.document
    text = document.text
    key = (*memory_key, request.uri, document.version, len(text), hash(text))
    prediction = provider.recall(key, request.cursor_cp)
    if prediction is None:
        if not provider.available(config):
            log.debug("model %s: backing off after failures; not asked", config.id)
            return _silent("model: backing off")
        try:
            prediction = _predict(provider, config, workspace, request, document, workspace_uri, cancelled)
        except ProviderCancelled as exc:
            log.debug("model %s: %s", config.id, exc)
            return _silent("model: cancelled", cancelled=True)
        except (ProviderError, ReplyError) as exc:  # logged by the provider
            return _silent(f"model: {exc}")
        provider.remember(key, prediction)
    if not prediction.edits:
        return _silent(f"model: no edit ({prediction.evidence})")
    candidate = Candidate(
        kind="edit",
        uri=request.uri,
        edits=prediction.edits,
        score=0.0,
        suggester=config.source,
        evidence=(prediction.evidence,),
        fingerprint=_fingerprint(config.source, request.uri, text, prediction.edits),
    )
    context = SuggestContext.for_request(workspace, request, state, kinds, rejected, cancelled)
    screened = filters.screen(candidate, context, rejected)
    if isinstance(screened, str):
        if screened == filters.REVERSAL:
            log.info("model %s: its edit would undo what the developer typed; not offered", config.id)
        return _silent(f"model: {candidate.fingerprint} filtered ({screened})")
    planned = [c for c in jump.plan([screened], context) if c.fingerprint not in rejected]
    return ModelOutcome(tuple(planned), f"model: {prediction.evidence}")
