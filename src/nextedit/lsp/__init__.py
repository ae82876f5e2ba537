"""The LSP bridge: next edit suggestions for editors that speak only LSP.

A pygls server (``nextedit lsp``) that feeds document events into one
:class:`~nextedit.session.Session` and serves its suggestions as
``textDocument/copilotInlineEdit``, ``textDocument/inlineCompletion`` and
code actions. It converts at the edge (:mod:`.convert`) and owns no text:
positions go through :mod:`nextedit.text`. The core never imports this
package.
"""
