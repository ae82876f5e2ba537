"""User settings: which suggestion kinds to offer, how sure a suggestion must be, which languages to watch.

Owns :class:`Settings` — its defaults, how it reads from plain JSON values
(the LSP bridge's ``initializationOptions`` and
``workspace/didChangeConfiguration``) and from command-line flags
(``nextedit acp`` / ``nextedit lsp``), and how it applies to a session: the
kinds it may offer and its engine's threshold and languages.

=================  =========================================  ================
JSON key           meaning                                    default
=================  =========================================  ================
``kinds.jump``     offer jumps to the next edit               ``true``
``kinds.searchAndReplace``  offer a repeated edit as one       ``true``
                   search-and-replace (off: its sites still
                   come one at a time)
``minConfidence``  the score (0–1) a suggestion needs          ``0.5``
``languages``      languageIds (or grammar names) that get    every language
                   suggestions; ``null`` for all
``provider``       the model asked when synthesis is silent:  none
                   ``{"url", "model", "budgetMs", "format",
                   "regionTokens", "headers", "apiType"}``,
                   ``null`` for none (see
                   :class:`~nextedit.provider.config.ProviderConfig`)
=================  =========================================  ================

A kind is offered only when the user allows it *and* the client advertised
it. A value that cannot be read is named in a problem message and leaves
that setting as it was; the others still apply.

Knows nothing of the wire: front ends hand it plain values. Imports
nothing of the engine at run time (the engine takes its default threshold
from here), so the command line can register the flags cheaply.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nextedit.provider.defaults import (
    DEFAULT_BUDGET_MS,
    DEFAULT_REGION_TOKENS,
    FORMATS,
    MAX_BUDGET_MS,
    MAX_REGION_TOKENS,
    MIN_REGION_TOKENS,
)

if TYPE_CHECKING:  # the engine imports this module: no import back at run time
    from nextedit.provider.config import ProviderConfig
    from nextedit.suggest.engine import SuggestionEngine
    from nextedit.suggest.model import SuggestionKinds

__all__ = ["DEFAULT_MIN_CONFIDENCE", "SECTION", "Settings", "add_flags", "settings_section"]

#: the score (0-1) a suggestion needs to be offered; the engine's default threshold
DEFAULT_MIN_CONFIDENCE = 0.5

#: the section name under which editors keep our settings (``settings.nextedit``)
SECTION = "nextedit"
_KEYS = ("kinds", "minConfidence", "languages", "provider")
_KIND_KEYS = {"jump": "jump", "searchAndReplace": "search_and_replace"}


@dataclass(frozen=True)
class Settings:
    """What the user asked for; the defaults offer everything the client supports."""

    jump: bool = True
    search_and_replace: bool = True
    min_confidence: float = DEFAULT_MIN_CONFIDENCE
    languages: frozenset[str] | None = None
    # the model behind the engine (None or no url: none); its headers never reach repr
    provider: ProviderConfig | None = None

    def kinds(self, client: SuggestionKinds) -> SuggestionKinds:
        """The kinds to offer: what the client advertised, less what the user turned off."""
        return dataclasses.replace(
            client,
            jump=client.jump and self.jump,
            search_and_replace=client.search_and_replace and self.search_and_replace,
        )

    def provider_config(self) -> ProviderConfig:
        """The provider's configuration (disabled when none was given)."""
        from nextedit.provider.config import ProviderConfig

        return self.provider if self.provider is not None else ProviderConfig()

    def configure(self, engine: SuggestionEngine) -> None:
        engine.threshold = self.min_confidence
        engine.languages = self.languages

    def read(self, values: Any, where: str = "settings") -> tuple[Settings, list[str]]:
        """These settings with ``values`` (a JSON object) laid over them, and the problems found.

        Keys absent from ``values`` keep their current value; ``where``
        prefixes the names in problem messages.
        """
        problems: list[str] = []
        if values is None:
            return self, problems
        if not isinstance(values, Mapping):
            return self, [f"{where} must be an object"]
        changes: dict[str, Any] = {}
        kinds = values.get("kinds")
        if "kinds" in values and not isinstance(kinds, Mapping):
            problems.append(f'{where}.kinds must be an object like {{"jump": false}}')
        elif isinstance(kinds, Mapping):
            for key, value in kinds.items():
                if key not in _KIND_KEYS:
                    problems.append(
                        f"{where}.kinds.{key} is not a kind that can be turned off (jump, searchAndReplace)"
                    )
                elif not isinstance(value, bool):
                    problems.append(f"{where}.kinds.{key} must be true or false")
                else:
                    changes[_KIND_KEYS[key]] = value
        if "minConfidence" in values:
            value = values["minConfidence"]
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                problems.append(f"{where}.minConfidence must be a number from 0 to 1")
            else:
                changes["min_confidence"] = float(value)
        if "languages" in values:
            value = values["languages"]
            if value is None:
                changes["languages"] = None
            elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
                changes["languages"] = frozenset(value)
            else:
                problems.append(f'{where}.languages must be a list of languageIds like ["python", "rust"], or null')
        if "provider" in values:
            base = self.provider_config()
            provider, found = base.read(values["provider"], f"{where}.provider")
            if provider != base:
                changes["provider"] = provider
            problems.extend(found)
        return dataclasses.replace(self, **changes), problems

    @classmethod
    def from_flags(cls, args: argparse.Namespace) -> Settings:
        """The flags of :func:`add_flags` (absent ones: the defaults)."""
        languages = getattr(args, "languages", None)
        confidence = getattr(args, "min_confidence", None)
        provider = None
        flags = ("provider_url", "provider_model", "provider_budget_ms", "provider_format", "provider_region_tokens")
        if any(getattr(args, flag, None) is not None for flag in flags):
            from nextedit.provider.config import ProviderConfig

            provider = ProviderConfig.from_flags(
                getattr(args, "provider_url", None),
                model=getattr(args, "provider_model", None),
                budget_ms=getattr(args, "provider_budget_ms", None),
                prompt_format=getattr(args, "provider_format", None),
                region_tokens=getattr(args, "provider_region_tokens", None),
            )
        return cls(
            jump=not getattr(args, "no_jump", False),
            search_and_replace=not getattr(args, "no_search_and_replace", False),
            min_confidence=DEFAULT_MIN_CONFIDENCE if confidence is None else confidence,
            languages=frozenset(languages) if languages else None,
            provider=provider,
        )


def settings_section(values: Any) -> Any:
    """Our settings inside what an editor sends: its ``nextedit`` section, or the object itself
    when it holds our keys at the top (Helix's ``config``); ``None`` when neither."""
    if not isinstance(values, Mapping):
        return None
    if SECTION in values:
        return values[SECTION]
    if any(key in values for key in _KEYS):
        return values
    return None


def _confidence(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1")
    return value


def _url(text: str) -> str:
    from nextedit.provider.config import ProviderConfigError, check_base_url

    try:
        return check_base_url(text)
    except ProviderConfigError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} {exc.problem}") from None


def _whole_number(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not from {low} to {high}")
        return value

    return parse


def _languages(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def add_flags(parser: argparse.ArgumentParser) -> None:
    """``--no-jump``, ``--no-search-and-replace``, ``--min-confidence``, ``--languages``, ``--provider-*``."""
    group = parser.add_argument_group("suggestions")
    group.add_argument("--no-jump", action="store_true", help="never offer jumps to the next edit")
    group.add_argument(
        "--no-search-and-replace",
        action="store_true",
        help="never offer a repeated edit as one search-and-replace (its sites still come one at a time)",
    )
    group.add_argument(
        "--min-confidence",
        type=_confidence,
        metavar="0..1",
        help=f"the score a suggestion needs to be offered (default {DEFAULT_MIN_CONFIDENCE})",
    )
    group.add_argument(
        "--languages",
        type=_languages,
        metavar="ID,ID",
        help="only these languageIds get suggestions, e.g. python,rust (default: every language)",
    )
    model = parser.add_argument_group(
        "model provider",
        "an OpenAI-compatible server running a next-edit model, asked when synthesis is silent "
        "($NEXTEDIT_PROVIDER_API_KEY, if set, is sent as a bearer token)",
    )
    model.add_argument(
        "--provider-url",
        type=_url,
        metavar="URL",
        help="its base URL, e.g. http://127.0.0.1:8080/v1 (completions go to URL/completions; default: no model)",
    )
    model.add_argument("--provider-model", metavar="NAME", help="the model name to send (default: the server's)")
    model.add_argument(
        "--provider-budget-ms",
        type=_whole_number(1, MAX_BUDGET_MS),
        metavar="MS",
        help=f"how long a suggestion may wait for the model (default {DEFAULT_BUDGET_MS})",
    )
    model.add_argument(
        "--provider-region-tokens",
        type=_whole_number(MIN_REGION_TOKENS, MAX_REGION_TOKENS),
        metavar="N",
        help=f"size of the region around the cursor the model rewrites, in tokens (default {DEFAULT_REGION_TOKENS})",
    )
    model.add_argument("--provider-format", choices=FORMATS, help=f"the model's prompt format (default {FORMATS[0]})")
