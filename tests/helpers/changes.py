"""Generated changes to a :class:`Document`, for the tests of what its change log and the occurrence index say."""

from __future__ import annotations

from hypothesis import strategies as st

from nextedit.text import Document

# a small alphabet, so that literals occur, overlap themselves and straddle edits
letters = st.text(alphabet="ab\nxé", max_size=40)
# (at, removed, inserted) a change; None: the whole text replaced (a didOpen again)
change = st.one_of(st.tuples(st.integers(0, 60), st.integers(0, 8), letters), st.none())


def document(text: str) -> Document:
    return Document("file:///a.txt", "plaintext", 1, text)


def apply(doc: Document, c: tuple[int, int, str] | None, whole: str) -> None:
    """One generated change: ``(at, removed, inserted)``, or None for ``whole`` set as the text."""
    if c is None:
        doc.set_text(whole, doc.version + 1)
    else:
        at, removed, inserted = c
        doc.replace(at, at + removed, inserted)
