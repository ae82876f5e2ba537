"""JSON-RPC errors of the ACP agent: every code the agent answers with, in one place.

Handlers raise these; the dispatcher turns them into error responses. An
exception that is not an :class:`RpcError` becomes :class:`InternalError`
(-32603) after its traceback is logged, and the agent lives on.

Must not know: sessions, documents, the transport.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "InternalError",
    "InvalidParams",
    "InvalidRequest",
    "MethodNotFound",
    "ParseError",
    "RequestCancelled",
    "RpcError",
    "UnknownSession",
    "error_response",
]


class RpcError(Exception):
    """A JSON-RPC error answer; ``code`` is the class's, ``data`` optional."""

    code: int = -32603

    def __init__(self, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class ParseError(RpcError):
    code = -32700


class InvalidRequest(RpcError):
    code = -32600


class MethodNotFound(RpcError):
    code = -32601

    def __init__(self, method: str) -> None:
        super().__init__(f"method not found: {method}", {"method": method})


class InvalidParams(RpcError):
    """Malformed params; ``field`` names the offending one (dotted path)."""

    code = -32602

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"invalid params: {field}: {problem}", {"field": field})
        self.field = field


class InternalError(RpcError):
    """A bug while handling ``method``: its traceback is in the agent's log, not in the answer."""

    code = -32603

    def __init__(self, method: str) -> None:
        super().__init__(f"internal error in {method} (see the agent's log)")


class UnknownSession(RpcError):
    code = -32002

    def __init__(self, session_id: str) -> None:
        super().__init__(f"unknown session: {session_id}", {"sessionId": session_id})


class RequestCancelled(RpcError):
    code = -32800

    def __init__(self, message: str = "request cancelled") -> None:
        super().__init__(message)


def error_response(request_id: Any, error: RpcError) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_json()}
