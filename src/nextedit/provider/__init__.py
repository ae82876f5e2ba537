"""The optional model behind the engine: asked only when synthesis has nothing to say.

A user who runs a next-edit model behind an OpenAI-compatible server
(llama.cpp's ``llama-server``, vLLM, Ollama…) configures it with
``providers/set`` (ACP), ``--provider-url`` or the LSP ``provider`` setting;
nextedit then asks it, within a time budget, whenever its own synthesis is
silent, and offers the edits of the model's rewrite as suggestions from
``model:next-edit``. With no provider configured nothing here runs.

Modules: :mod:`~nextedit.provider.defaults` (names and defaults, imported by
the command line), :mod:`~nextedit.provider.config` (what the user configured), :mod:`~nextedit.provider.excerpt` (the region
and recent edits shown), :mod:`~nextedit.provider.prompt` and
:mod:`~nextedit.provider.zeta` (prompt formats), :mod:`~nextedit.provider.client`
(the HTTP request), :mod:`~nextedit.provider.region_diff` (rewrite → edits),
:mod:`~nextedit.provider.service` (health and memory of one configured
model), :mod:`~nextedit.provider.predict` (one request, end to end).

Part of the core: imports no front end (ACP, LSP, bench). Nothing is
imported here, so ``import nextedit.provider.defaults`` stays free.
"""
