"""The provider's names and defaults, alone: constants the command line needs at start-up.

Importing this costs nothing (no dataclasses, no URL parsing), so
``nextedit --help`` and ``initialize`` do not pay for the provider's
configuration class (:mod:`nextedit.provider.config`) until a provider is
actually configured.
"""

from __future__ import annotations

__all__ = [
    "API_KEY_ENV",
    "API_TYPES",
    "DEFAULT_BUDGET_MS",
    "DEFAULT_FORMAT",
    "DEFAULT_REGION_TOKENS",
    "FORMATS",
    "MAX_BUDGET_MS",
    "MAX_REGION_TOKENS",
    "MIN_REGION_TOKENS",
    "MODEL_SOURCE_PREFIX",
    "PROVIDER_ID",
    "SYNTHESIS_SOURCE",
    "source_of",
]

#: the one provider nextedit has: the model it asks when synthesis is silent
PROVIDER_ID = "next-edit"
#: suggesters named so are a model's (``model:next-edit``): their name is their source
MODEL_SOURCE_PREFIX = "model:"
#: the source of every other suggestion: the engine's own synthesis
SYNTHESIS_SOURCE = "synthesis"


def source_of(suggester: str) -> str:
    """Where a suggester's suggestions come from: a model (its own name) or the engine's synthesis."""
    return suggester if suggester.startswith(MODEL_SOURCE_PREFIX) else SYNTHESIS_SOURCE


#: the ``apiType``\ s (ACP ``LlmProtocol``) it can speak
API_TYPES = ("openai",)
#: the prompt formats it can write (see :mod:`nextedit.provider.prompt`)
FORMATS = ("zeta",)
DEFAULT_FORMAT = "zeta"
#: how long a suggestion may wait for the model, in milliseconds
DEFAULT_BUDGET_MS = 300
MAX_BUDGET_MS = 60_000
#: the size of the editable region around the cursor, in estimated tokens (Zed's zeta1: 350)
DEFAULT_REGION_TOKENS = 350
MIN_REGION_TOKENS = 16
MAX_REGION_TOKENS = 4_000
#: an environment variable whose value is sent as ``Authorization: Bearer …`` for a provider set by flags
API_KEY_ENV = "NEXTEDIT_PROVIDER_API_KEY"
