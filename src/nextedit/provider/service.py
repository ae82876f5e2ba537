"""The model behind the engine for one front end: its configuration, its health, its last answers.

Owns :class:`ModelProvider`, shared by every session of one ACP connection
(or the LSP server): ``providers/set`` and ``providers/disable`` (or a new
LSP setting) replace its :class:`~nextedit.provider.config.ProviderConfig`,
and each suggestion reads the config once, when it is prepared, so a
request in flight finishes with the config it started with.

**Health.** Every failure (unreachable, HTTP error, not JSON, no answer in
the budget, a reply the prompt format cannot read) costs one log line; after
:data:`FAILURES_BEFORE_BACKOFF` in a row the model is not asked for
:data:`BACKOFF_START_S` seconds, doubling up to :data:`BACKOFF_MAX_S` while
it keeps failing; one good answer, or a new config, clears it. A cancelled
request is nobody's failure.

**Memory.** The last predictions are kept per document text and editable
region (:meth:`recall` / :meth:`remember`): asked again for the same text
with the cursor in the same region — the follow-up at a jump's target, a
code-action menu right after an inline edit — the answer is the one the
model already gave, without a second request.

Thread-safe (a lock around the counters and the memory): the stdio agent asks
from its worker thread while its loop reconfigures. Knows nothing of the
wire or the engine.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from nextedit.provider.client import Completion, ProviderCancelled, ProviderError, complete
from nextedit.provider.config import ProviderConfig
from nextedit.provider.prompt import Prompt, ReplyError
from nextedit.suggest.model import TextEditCp

__all__ = [
    "BACKOFF_MAX_S",
    "BACKOFF_START_S",
    "FAILURES_BEFORE_BACKOFF",
    "ModelProvider",
    "Prediction",
]

log = logging.getLogger(__name__)

FAILURES_BEFORE_BACKOFF = 3
BACKOFF_START_S = 5.0
BACKOFF_MAX_S = 300.0
_MEMORY = 64

T = TypeVar("T")


@dataclass(frozen=True)
class Prediction:
    """What the model made of one editable region: its edits (none: it changed nothing usable)."""

    region: tuple[int, int]
    edits: tuple[TextEditCp, ...]
    evidence: str


class ModelProvider:
    """The configured model (or none), shared by the sessions of one front end."""

    def __init__(
        self,
        config: ProviderConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        transport: Callable[[ProviderConfig, Prompt, Callable[[], bool]], Completion] | None = None,
    ) -> None:
        self._config = config or ProviderConfig()
        self._clock = clock
        self._transport = transport or complete
        self._lock = threading.Lock()
        self._generation = 0
        self._failures = 0
        self._backoff_s = 0.0
        self._resume_at = 0.0
        self._memory: OrderedDict[Hashable, Prediction] = OrderedDict()
        if self._config.enabled:
            self._describe(self._config)

    @property
    def config(self) -> ProviderConfig:
        return self._config

    def configure(self, config: ProviderConfig) -> None:
        """Use ``config`` from the next suggestion on; health and memory start afresh."""
        with self._lock:
            if config == self._config:
                return
            self._config = config
            self._generation += 1
            self._failures = 0
            self._backoff_s = 0.0
            self._resume_at = 0.0
            self._memory.clear()
        self._describe(config)

    @staticmethod
    def _describe(config: ProviderConfig) -> None:
        if config.enabled:
            log.info(
                "provider %s: %s %s (model %s, budget %d ms, format %s)",
                config.id,
                config.api_type,
                config.base_url,
                config.model or "the server's",
                config.budget_ms,
                config.prompt_format,
            )
        else:
            log.info("provider %s: disabled", config.id)

    # -- health ------------------------------------------------------------------------

    def available(self, config: ProviderConfig) -> bool:
        """Whether the model may be asked now (enabled, not backing off)."""
        if not config.enabled:
            return False
        with self._lock:
            return config != self._config or self._clock() >= self._resume_at

    def ask(
        self,
        config: ProviderConfig,
        prompt: Prompt,
        cancelled: Callable[[], bool],
        read: Callable[[Completion], T],
    ) -> T:
        """Ask the model and ``read`` its answer; a failure of either is logged (one line),
        counted towards the backoff, and re-raised (:class:`ProviderError`, :class:`ReplyError`)."""
        with self._lock:
            generation = self._generation if config == self._config else -1
        try:
            value = read(self._transport(config, prompt, cancelled))
        except ProviderCancelled:
            raise
        except (ProviderError, ReplyError) as exc:
            self.failed(generation, str(exc))
            raise
        self.succeeded(generation)
        return value

    def succeeded(self, generation: int) -> None:
        with self._lock:
            if generation == self._generation:
                self._failures = 0
                self._backoff_s = 0.0
                self._resume_at = 0.0

    def failed(self, generation: int, why: str) -> None:
        """Count a failure of the model and log it, with the backoff it starts, in one line."""
        pause = 0.0
        with self._lock:
            if generation == self._generation:
                self._failures += 1
                if self._failures >= FAILURES_BEFORE_BACKOFF:
                    self._backoff_s = min(BACKOFF_MAX_S, self._backoff_s * 2 or BACKOFF_START_S)
                    self._resume_at = self._clock() + self._backoff_s
                    pause = self._backoff_s
            failures = self._failures
        if pause:
            log.warning(
                "model %s: %s; %d failures in a row: not asked for %.0f s", self._config.id, why, failures, pause
            )
        else:
            log.warning("model %s: %s; no suggestion", self._config.id, why)

    # -- memory --------------------------------------------------------------------------

    def recall(self, key: Hashable, cursor_cp: int) -> Prediction | None:
        """A prediction made for the same text (``key``) whose region holds ``cursor_cp``."""
        with self._lock:
            found = self._memory.get(key)
            if found is None or not found.region[0] <= cursor_cp <= found.region[1]:
                return None
            self._memory.move_to_end(key)
            return found

    def remember(self, key: Hashable, prediction: Prediction) -> None:
        with self._lock:
            self._memory[key] = prediction
            self._memory.move_to_end(key)
            while len(self._memory) > _MEMORY:
                self._memory.popitem(last=False)
