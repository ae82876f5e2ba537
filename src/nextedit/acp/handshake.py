"""``initialize``: its params checked and its answer built, with nothing heavy imported.

An editor waits for ``initialize`` before anything else, so answering it must
not wait for pydantic, the wire models or the engine (together ~250 ms of
imports): this module validates the few fields ``initialize`` reads by hand,
exactly as strictly as :mod:`nextedit.acp.wire` validates everything else
(``"1"`` is not a version, ``true`` is not an integer, unknown fields are
ignored) and names the offending field the same way
(``clientCapabilities.positionEncodings.0``).

Must not know: sessions, the engine, pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nextedit import __version__
from nextedit.acp.errors import InvalidParams

__all__ = ["PROTOCOL_VERSION", "Handshake", "initialize_result", "parse_initialize"]

PROTOCOL_VERSION = 1
_KINDS = ("jump", "rename", "searchAndReplace")


@dataclass(frozen=True)
class Handshake:
    """What ``initialize`` tells the agent: the client's encodings and extra suggestion kinds."""

    protocol_version: int
    position_encodings: list[str] | None
    kinds: frozenset[str]  # of "jump", "rename", "searchAndReplace"


def parse_initialize(params: Any) -> Handshake:
    """Validate ``initialize`` params or raise :class:`InvalidParams` naming the field."""
    _object(params, "params")
    if "protocolVersion" not in params:
        raise InvalidParams("protocolVersion", "Field required")
    version = params["protocolVersion"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise InvalidParams("protocolVersion", "Input should be a valid integer")
    if version < 0:
        raise InvalidParams("protocolVersion", "Input should be greater than or equal to 0")
    caps = params.get("clientCapabilities", {})
    _object(caps, "clientCapabilities")
    kinds: set[str] = set()
    nes = caps.get("nes")
    if nes is not None:
        _object(nes, "clientCapabilities.nes")
        for kind in _KINDS:
            marker = nes.get(kind)
            if marker is not None:
                _object(marker, f"clientCapabilities.nes.{kind}")
                kinds.add(kind)
    encodings = caps.get("positionEncodings")
    if encodings is not None:
        if not isinstance(encodings, list):
            raise InvalidParams("clientCapabilities.positionEncodings", "Input should be a valid list")
        for i, encoding in enumerate(encodings):
            if not isinstance(encoding, str):
                raise InvalidParams(f"clientCapabilities.positionEncodings.{i}", "Input should be a valid string")
    return Handshake(version, encodings, frozenset(kinds))


def _object(value: Any, field: str) -> None:
    if not isinstance(value, dict):
        if field == "params":
            raise InvalidParams("params", f"expected an object, got {type(value).__name__}")
        raise InvalidParams(field, "Input should be an object")


def initialize_result(position_encoding: str) -> dict[str, Any]:
    """The ``initialize`` answer: what this agent does, in ``position_encoding``."""
    return {
        "protocolVersion": PROTOCOL_VERSION,
        "agentInfo": {"name": "nextedit", "version": __version__},
        "agentCapabilities": {
            "nes": {
                "events": {
                    "document": {
                        "didOpen": {},
                        "didChange": {"syncKind": "incremental"},
                        "didClose": {},
                        "didSave": {},
                        "didFocus": {},
                    }
                },
                "context": {"diagnostics": {}},
            },
            "positionEncoding": position_encoding,
            # providers/list, providers/set, providers/disable: the optional model behind the engine
            "providers": {},
        },
    }
