"""What the user told us about the optional model: where it is, how to ask it, how long to wait.

Owns :class:`ProviderConfig` — one frozen value per configuration, handed to
the request that uses it, replaced (never changed) by ``providers/set``,
``providers/disable``, a new LSP setting — and the checks that keep a bad
value out of it (:class:`ProviderConfigError` names the field, never the
value: a header's value may be a credential).

``headers`` may carry credentials (``Authorization: Bearer …``). They are
kept out of ``repr`` (so out of every log line that prints a config or the
settings holding one) and :meth:`ProviderConfig.public` — what
``providers/list`` shows — holds only ``apiType`` and ``baseUrl``, the
schema's "non-secret routing configuration".

A config with ``base_url=None`` is a disabled provider that still carries
the tuning (model name, time budget, prompt format, region size) given on
the command line, so that ``providers/set`` over ACP only has to say where.

Standard library only; imported only once a provider is configured (the
command line's flags need only :mod:`nextedit.provider.defaults`). Knows
nothing of HTTP, prompts or the wire.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from nextedit.provider.defaults import (
    API_KEY_ENV,
    API_TYPES,
    DEFAULT_BUDGET_MS,
    DEFAULT_FORMAT,
    DEFAULT_REGION_TOKENS,
    FORMATS,
    MAX_BUDGET_MS,
    MAX_REGION_TOKENS,
    MIN_REGION_TOKENS,
    MODEL_SOURCE_PREFIX,
    PROVIDER_ID,
)

# the names and defaults are nextedit.provider.defaults'
__all__ = [
    "ProviderConfig",
    "ProviderConfigError",
    "check_api_type",
    "check_base_url",
    "check_headers",
]


class ProviderConfigError(ValueError):
    """A provider setting that cannot be used: ``field`` names it, ``problem`` says why (no values)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def check_api_type(api_type: str) -> str:
    if api_type not in API_TYPES:
        raise ProviderConfigError("apiType", f"only {', '.join(repr(a) for a in API_TYPES)} is supported")
    return api_type


def check_base_url(url: str) -> str:
    """An ``http``/``https`` URL with a host, e.g. ``http://127.0.0.1:8080/v1``, without a trailing slash."""
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError for a bad port
    except ValueError:
        raise ProviderConfigError("baseUrl", "is not a URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ProviderConfigError("baseUrl", "must be an http:// or https:// URL with a host")
    if port == 0:
        raise ProviderConfigError("baseUrl", "has port 0")
    if parts.username is not None or parts.password is not None:
        raise ProviderConfigError("baseUrl", "must not hold credentials (send them in headers)")
    if parts.fragment or any(c in url for c in "\r\n \t"):
        raise ProviderConfigError("baseUrl", "must not hold a fragment or whitespace")
    return url.rstrip("/")


def check_headers(headers: Any, where: str = "headers") -> tuple[tuple[str, str], ...]:
    """Header names and values as pairs; a problem names the header, never its value."""
    if not isinstance(headers, Mapping):
        raise ProviderConfigError(where, "must be an object of header names to strings")
    pairs: list[tuple[str, str]] = []
    for name, value in headers.items():
        if not isinstance(name, str) or not name or not name.isascii() or any(c in name for c in ":\r\n \t"):
            raise ProviderConfigError(where, "a header name is empty, not ASCII, or holds ':' or whitespace")
        if not isinstance(value, str):
            raise ProviderConfigError(f"{where}.{name}", "must be a string")
        if "\r" in value or "\n" in value:
            raise ProviderConfigError(f"{where}.{name}", "must not hold a line break")
        try:
            value.encode("latin-1")
        except UnicodeEncodeError:
            raise ProviderConfigError(f"{where}.{name}", "must be Latin-1 text") from None
        pairs.append((name, value))
    return tuple(pairs)


@dataclass(frozen=True)
class ProviderConfig:
    """One configuration of the model provider; ``base_url=None``: disabled.

    ``headers`` never appear in ``repr`` or :meth:`public`.
    """

    base_url: str | None = None
    api_type: str = "openai"
    headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    model: str | None = None
    budget_ms: int = DEFAULT_BUDGET_MS
    prompt_format: str = DEFAULT_FORMAT
    region_tokens: int = DEFAULT_REGION_TOKENS
    id: str = PROVIDER_ID

    @property
    def enabled(self) -> bool:
        return self.base_url is not None

    @property
    def source(self) -> str:
        """The name suggestions from this provider carry (``model:next-edit``)."""
        return f"{MODEL_SOURCE_PREFIX}{self.id}"

    def public(self) -> dict[str, str] | None:
        """ACP ``ProviderCurrentConfig``: ``apiType`` and ``baseUrl`` only; ``None`` when disabled."""
        if self.base_url is None:
            return None
        return {"apiType": self.api_type, "baseUrl": self.base_url}

    def with_endpoint(self, api_type: str, base_url: str, headers: Mapping[str, str] | None) -> ProviderConfig:
        """This tuning, sent to another endpoint (``providers/set``); checked."""
        return dataclasses.replace(
            self,
            api_type=check_api_type(api_type),
            base_url=check_base_url(base_url),
            headers=check_headers(headers or {}),
        )

    def disabled(self) -> ProviderConfig:
        """This tuning with no endpoint and no credentials (``providers/disable``)."""
        return dataclasses.replace(self, base_url=None, headers=())

    def read(self, values: Any, where: str) -> tuple[ProviderConfig, list[str]]:
        """This config with a JSON object of settings laid over it, and the problems found.

        Keys: ``url`` (``null``: disabled), ``apiType``, ``headers``, ``model``,
        ``budgetMs``, ``format``, ``regionTokens``. A key that cannot be read
        is named in a problem and keeps its value.
        """
        if values is None:
            return self.disabled(), []
        if not isinstance(values, Mapping):
            return self, [f'{where} must be an object like {{"url": "http://127.0.0.1:8080/v1"}}, or null']
        changes: dict[str, Any] = {}
        problems: list[str] = []

        def url(value: Any) -> None:
            if value is None:
                changes["base_url"] = None
            elif isinstance(value, str):
                try:
                    changes["base_url"] = check_base_url(value)
                except ProviderConfigError as exc:
                    raise ProviderConfigError("url", exc.problem) from None
            else:
                raise ProviderConfigError("url", "must be a URL string or null")

        def api_type(value: Any) -> None:
            if not isinstance(value, str):
                raise ProviderConfigError("apiType", "must be a string")
            changes["api_type"] = check_api_type(value)

        def headers(value: Any) -> None:
            changes["headers"] = check_headers(value, "headers")

        def model(value: Any) -> None:
            if value is not None and not isinstance(value, str):
                raise ProviderConfigError("model", "must be a model name or null")
            changes["model"] = value or None

        def budget(value: Any) -> None:
            changes["budget_ms"] = _whole(value, "budgetMs", 1, MAX_BUDGET_MS)

        def prompt_format(value: Any) -> None:
            if value not in FORMATS:
                raise ProviderConfigError("format", f"must be one of {', '.join(FORMATS)}")
            changes["prompt_format"] = value

        def region(value: Any) -> None:
            changes["region_tokens"] = _whole(value, "regionTokens", MIN_REGION_TOKENS, MAX_REGION_TOKENS)

        checks = {
            "url": url,
            "apiType": api_type,
            "headers": headers,
            "model": model,
            "budgetMs": budget,
            "format": prompt_format,
            "regionTokens": region,
        }
        for key, check in checks.items():
            if key not in values:
                continue
            try:
                check(values[key])
            except ProviderConfigError as exc:
                problems.append(f"{where}.{exc.field}: {exc.problem}")
        for key in values:
            if key not in checks:
                problems.append(f"{where}.{key} is not a provider setting")
        config = dataclasses.replace(self, **changes)
        if config.base_url != self.base_url and "headers" not in changes:
            # credentials were given for the old endpoint: never send them to another
            config = dataclasses.replace(config, headers=())
        if config.base_url is None and config.headers:
            config = dataclasses.replace(config, headers=())
        return config, problems

    @classmethod
    def from_flags(
        cls,
        url: str | None,
        *,
        model: str | None = None,
        budget_ms: int | None = None,
        prompt_format: str | None = None,
        region_tokens: int | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> ProviderConfig:
        """The command line's provider (``--provider-url`` …); with ``$NEXTEDIT_PROVIDER_API_KEY``
        set, it is sent as ``Authorization: Bearer …``."""
        env = os.environ if environ is None else environ
        key = env.get(API_KEY_ENV, "")
        headers: tuple[tuple[str, str], ...] = ()
        if url is not None and key:
            headers = check_headers({"Authorization": f"Bearer {key}"})
        return cls(
            base_url=check_base_url(url) if url is not None else None,
            headers=headers,
            model=model or None,
            budget_ms=DEFAULT_BUDGET_MS if budget_ms is None else budget_ms,
            prompt_format=prompt_format or DEFAULT_FORMAT,
            region_tokens=DEFAULT_REGION_TOKENS if region_tokens is None else region_tokens,
        )


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise ProviderConfigError(name, "must be a whole number")
    if not low <= value <= high:
        raise ProviderConfigError(name, f"must be from {low} to {high}")
    return int(value)
