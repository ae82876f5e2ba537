"""A rename the developer made several edits ago is still propagated.

Developers rename a name at its definition, fix something nearby, and only
then come back to the uses (issue 9: "the repeated edit is not the newest
one"). The rename evidence is looked for among the last 20 edits, not the
last 3; at most the 5 newest distinct renames are resolved per request, so
the cost stays that of five resolutions however long the history.
"""

from __future__ import annotations

from nextedit.session import Session
from nextedit.suggest.model import Candidate, SuggestionKinds, SuggestRequest
from nextedit.text import PositionEncoding, Range, TextChange

URI = "file:///w/report.py"

TEXT = (
    "def summary(rows):\n"
    "    count = 0\n"
    "    for row in rows:\n"
    "        count += row.size\n"
    "    log('done', count)\n"
    "    return count\n"
    "\n"
    "def labels():\n"
    "    first = 10\n"
    "    second = 20\n"
    "    third = 30\n"
    "    fourth = 40\n"
    "    fifth = 50\n"
    "    return [first, second, third, fourth, fifth]\n"
)


class _Developer:
    def __init__(self, text: str = TEXT) -> None:
        self.session = Session("t", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(jump=True))
        self.session.did_open(URI, "python", 1, text)
        self.version = 1

    @property
    def text(self) -> str:
        return self.session.documents[URI].document.text

    def replace(self, old: str, new: str) -> int:
        """Replace the first ``old`` by ``new``; the offset after it."""
        start = self.text.index(old)
        doc = self.session.documents[URI].document
        enc = PositionEncoding.UTF32
        rng = Range(doc.position_at(start, enc), doc.position_at(start + len(old), enc))
        self.version += 1
        self.session.did_change(URI, self.version, [TextChange(rng, new)])
        return start + len(new)

    def rename_candidates(self, cursor: int) -> list[Candidate]:
        request = SuggestRequest(URI, self.version, cursor)
        ranking = self.session.engine.rank(self.session, request, self.session.kinds, frozenset())
        return [c for c in ranking.candidates if c.suggester == "rename"]


def _renamed(candidate: Candidate, text: str) -> list[str]:
    return sorted({text[e.start_cp : e.end_cp] + "->" + e.new_text for e in candidate.edits})


def test_a_rename_four_edits_back_still_renames_the_rest_of_its_binding() -> None:
    dev = _Developer()
    dev.replace("count = 0", "total = 0")
    for value in ("10", "20", "30", "40"):  # four unrelated edits in another function
        cursor = dev.replace(f" {value}\n", f" {value}1\n")
    (binding,) = [c for c in dev.rename_candidates(cursor) if c.features.family == "binding"]
    assert len(binding.edits) == 3
    assert _renamed(binding, dev.text) == ["count->total"]


def test_a_rename_with_twenty_newer_edits_is_forgotten() -> None:
    many = "".join(f"    v{i} = {i}\n" for i in range(20))
    dev = _Developer(TEXT + "\ndef values():\n" + many)
    dev.replace("count = 0", "total = 0")
    for i in range(20):  # 20 newer edits, each on its own line
        cursor = dev.replace(f"v{i} = {i}\n", f"v{i} = {i + 100}\n")
    assert dev.rename_candidates(cursor) == []


def test_only_the_five_newest_renames_are_resolved() -> None:
    newer = (("first", "one"), ("second", "two"), ("third", "three"), ("fourth", "four"), ("fifth", "five"))
    dev = _Developer()
    dev.replace("count = 0", "total = 0")
    # five newer renames, each finished at once (every use renamed with it)
    for old, new in newer:
        for _ in range(2):
            cursor = dev.replace(old, new)
    assert dev.rename_candidates(cursor) == []
    # one rename fewer, and the older one is within reach again
    dev = _Developer()
    dev.replace("count = 0", "total = 0")
    for old, new in newer[:-1]:
        for _ in range(2):
            cursor = dev.replace(old, new)
    assert [_renamed(c, dev.text) for c in dev.rename_candidates(cursor) if c.features.family == "binding"] == [
        ["count->total"]
    ]
