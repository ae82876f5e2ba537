"""What the editor was offered and shown, and when a shown suggestion was ignored.

LSP has no ``nes/reject``. The bridge infers it, conservatively, because a
rejection is permanent (the engine never offers that change again for the
same text) while a missed rejection only costs a learning signal:

- A suggestion counts as **shown** only when the client says so
  (``textDocument/didShowInlineEdit``). Suggestions merely returned from a
  request (inline edits, inline completions, code actions) are never judged:
  clients ask for them on every cursor move without displaying them.
- A shown suggestion is judged by the **next change to its document**. If no
  change in that ``didChange`` touches any of the suggestion's edit ranges,
  the developer typed elsewhere: it is rejected as ``"ignored"``. If a change
  touches one, the suggestion is being applied (or edited by hand); it is
  dropped without a verdict and the accept command, when the client sends
  it, records the accept.
- Cursor moves and new requests never judge anything; closing the document
  forgets what was shown in it.
- An accept is recorded once per suggestion, however many of its inline
  edits the client executes the command for.

This module holds no text and converts no positions: it compares positions
of the same version in the same encoding.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence

from nextedit.session import PlacedSuggestion
from nextedit.text import Range, TextChange

__all__ = ["OfferBook"]

_LIMIT = 512


def _touches(a: Range, b: Range) -> bool:
    """Ranges overlap or meet (an insertion at an edit's edge touches it)."""
    a_start = (a.start.line, a.start.character)
    a_end = (a.end.line, a.end.character)
    b_start = (b.start.line, b.start.character)
    b_end = (b.end.line, b.end.character)
    return not (a_end < b_start or b_end < a_start)


class OfferBook:
    def __init__(self) -> None:
        self._offered: OrderedDict[str, PlacedSuggestion] = OrderedDict()
        self._shown: dict[str, dict[str, PlacedSuggestion]] = {}
        self._accepted: OrderedDict[str, None] = OrderedDict()

    def offer(self, suggestions: Iterable[PlacedSuggestion]) -> None:
        """Remember suggestions sent to the client, so a later ``didShow`` can find them."""
        for suggestion in suggestions:
            self._offered[suggestion.id] = suggestion
            self._offered.move_to_end(suggestion.id)
        while len(self._offered) > _LIMIT:
            self._offered.popitem(last=False)

    def show(self, suggestion_id: str) -> PlacedSuggestion | None:
        """The client displayed this suggestion; it will be judged by the next change."""
        suggestion = self._offered.get(suggestion_id)
        if suggestion is None or suggestion_id in self._accepted:
            return None
        self._shown.setdefault(suggestion.uri, {})[suggestion_id] = suggestion
        return suggestion

    def accept(self, suggestion_id: str) -> bool:
        """Mark accepted; False when it already was (record it only once)."""
        if suggestion_id in self._accepted:
            return False
        self._accepted[suggestion_id] = None
        while len(self._accepted) > _LIMIT:
            self._accepted.popitem(last=False)
        for shown in self._shown.values():
            shown.pop(suggestion_id, None)
        return True

    def settle(self, suggestion_id: str) -> None:
        """An explicit verdict arrived (e.g. ``nextedit.reject``): stop judging it."""
        for shown in self._shown.values():
            shown.pop(suggestion_id, None)

    def judge_change(self, uri: str, version: int, changes: Sequence[TextChange]) -> list[str]:
        """Ids of suggestions shown for ``uri`` at ``version`` that these changes ignored.

        ``version`` is the document's version *before* the changes, the one
        their ranges refer to. Everything shown for ``uri`` is settled here.
        """
        shown = self._shown.pop(uri, {})
        ignored = []
        for suggestion in shown.values():
            if suggestion.version != version or not suggestion.edits:
                continue
            if any(
                change.range is None or _touches(change.range, edit.range)
                for change in changes
                for edit in suggestion.edits
            ):
                continue
            ignored.append(suggestion.id)
        return ignored

    def forget(self, uri: str) -> None:
        self._shown.pop(uri, None)
