"""Helpers shared by the test modules (test modules never import each other).

- :mod:`tests.helpers.rpc` — a real `nextedit` subprocess over its pipes, the ACP schema checker;
- :mod:`tests.helpers.session` — a scripted editor over one real ``Session``;
- :mod:`tests.helpers.rename` — rename fixtures (``⟦old⟧`` site, ``‹old›`` occurrences) and ``check``;
- :mod:`tests.helpers.repeat` — a plain-text editor for the repeat synthesis and the engine's context over it;
- :mod:`tests.helpers.suggesters` — a suggester that proposes what it is given.
- :mod:`tests.helpers.sample` — the package's bundled trace sample as a file path.
"""
