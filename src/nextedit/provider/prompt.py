"""Prompt formats: how a next-edit model is asked, and how its answer is read back.

Owns the :class:`PromptFormat` interface, the values it trades in
(:class:`PromptInput` in, :class:`Prompt` out, the rewritten editable region
back) and the registry of formats (:func:`prompt_format`). A format writes
one completion prompt from the excerpt around the cursor and the recent
edits, names the stop sequences, and reads the model's reply into the new
text of the editable region — or raises :class:`ReplyError` saying why it
cannot. Adding a model's format is adding a class here with a ``name`` and
registering it in :data:`_FORMATS` (and its name in
:data:`nextedit.provider.defaults.FORMATS`).

Must not know: HTTP, the wire, the engine's candidates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from nextedit.provider.excerpt import EditEvent, Excerpt

__all__ = ["Prompt", "PromptFormat", "PromptInput", "ReplyError", "prompt_format"]


@dataclass(frozen=True)
class PromptInput:
    """Everything a format may show: the excerpt around the cursor and recent edits, oldest first."""

    excerpt: Excerpt
    events: tuple[EditEvent, ...]


@dataclass(frozen=True)
class Prompt:
    """One completion request's prompt, its stop sequences and output limit."""

    text: str
    stop: tuple[str, ...]
    max_tokens: int
    excerpt: Excerpt


class ReplyError(ValueError):
    """The model's reply cannot be read as a rewrite of the editable region."""


class PromptFormat(Protocol):
    """A model's prompt format."""

    name: str

    def build(self, prompt_input: PromptInput, region_tokens: int) -> Prompt:
        """The prompt for ``prompt_input``; ``region_tokens`` bounds the rewrite's length."""
        ...

    def parse(self, reply: str, prompt: Prompt) -> str:
        """The new text of ``prompt.excerpt``'s editable region, or :class:`ReplyError`."""
        ...


def _zeta() -> PromptFormat:
    from nextedit.provider.zeta import ZetaFormat

    return ZetaFormat()


_FORMATS: dict[str, Callable[[], PromptFormat]] = {"zeta": _zeta}


def prompt_format(name: str) -> PromptFormat:
    """The format called ``name`` (``KeyError`` for one we do not have)."""
    return _FORMATS[name]()
