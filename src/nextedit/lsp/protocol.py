"""pygls's protocol, made lenient and stripped of its own document mirror.

Three changes to :class:`pygls.protocol.LanguageServerProtocol`:

- **No second mirror.** pygls keeps a workspace copy of every open document
  and updates it *before* our handlers run; a change pygls cannot apply would
  then never reach the :class:`~nextedit.session.Session`. Here ``didOpen``,
  ``didChange`` and ``didClose`` go straight to our handlers: the session's
  :class:`~nextedit.text.Document` is the only mirror.
- **Every request is answered.** pygls parses typed params while reading the
  message; when that fails it logs and drops the request, and the client
  waits forever. Here a request whose params do not parse is answered
  ``-32602`` (invalid params) naming the method, and the server reads on.
- **Cancellations are told.** ``on_cancel`` hears every ``$/cancelRequest``
  (pygls can only cancel a request that has not started; the server uses it
  to abandon work a started request is waiting for).

This module knows nothing of suggestions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

__all__ = ["LenientProtocol"]

log = logging.getLogger(__name__)


class _Answered:
    """Stands in for a request already answered with an error while parsing."""

    jsonrpc = "2.0"


class LenientProtocol(LanguageServerProtocol):
    # told of every ``$/cancelRequest`` (its request id) before pygls cancels what it can
    on_cancel: Callable[[Any], None] | None = None

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        if self.on_cancel is not None:
            self.on_cancel(msg_id)
        super()._handle_cancel_notification(msg_id)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except Exception:
            if "id" in data and "method" in data:
                method = data.get("method")
                log.warning("request %r: params do not parse; answered -32602", method)
                error = JsonRpcInvalidParams(f"invalid params for {method}")
                self._send_response(data["id"], None, error.to_response_error())
                return _Answered()
            raise

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Answered):
            return
        super().handle_message(message)

    # -- document sync: straight to the user handlers, no pygls workspace copy --

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None
