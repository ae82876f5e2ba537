"""The ACP NES agent: newline-delimited JSON-RPC 2.0 over stdio, translated to :class:`nextedit.session.Session` calls.

Modules: ``transport`` (bytes ⇄ lines), ``errors`` (JSON-RPC codes),
``wire`` (ACP params ⇄ core types), ``dispatch`` (one handler per method),
``agent`` (connection state), ``server`` (the asyncio loop), ``compute_slot``
(the queue of computations and their worker thread), ``inprocess``
(the same dispatch, synchronous), ``command`` (``nextedit acp``).
"""
