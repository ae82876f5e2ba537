"""A document's change log says what two of its versions share at their ends, without reading them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.text import Document


def document(text: str) -> Document:
    return Document("file:///a.txt", "plaintext", 1, text)


letters = st.text(alphabet="ab\nxé", max_size=40)
# (at, removed, inserted) a change; None: the whole text replaced (a didOpen again)
change = st.one_of(st.tuples(st.integers(0, 60), st.integers(0, 8), letters), st.none())


@settings(max_examples=300, deadline=None)
@given(text=letters, changes=st.lists(change, max_size=80), whole=letters)
def test_what_the_log_says_two_versions_share_they_share(text: str, changes: list, whole: str) -> None:
    doc = document(text)
    versions = [(doc.serial, doc.text)]
    for c in changes:
        if c is None:
            doc.set_text(whole, doc.version + 1)
        else:
            doc.replace(c[0], c[0] + c[1], c[2])
        versions.append((doc.serial, doc.text))
    now = doc.text
    for serial, old in versions:
        shared = doc.shared_since(doc.lineage, serial)
        if shared is None:
            assert serial < doc.serial - 60  # only what the log no longer reaches
            continue
        prefix, suffix = shared
        assert prefix + suffix <= min(len(old), len(now))
        assert old[:prefix] == now[:prefix]
        assert old[len(old) - suffix :] == now[len(now) - suffix :]
    assert doc.shared_since(document(now).lineage, doc.serial) is None  # another document


def test_a_snapshot_reads_its_own_version_off_the_log() -> None:
    doc = document("one two three")
    serial = doc.serial
    doc.replace(4, 7, "2")
    snap = doc.snapshot()
    doc.replace(0, 0, "zero ")  # after the snapshot: not in its log
    assert snap.shared_since(doc.lineage, serial) == (4, 6)  # "one " and " three"
    assert doc.shared_since(doc.lineage, serial) == (0, 6)
    assert doc.shared_since(doc.lineage, doc.serial) == (len(doc.text), 0)
    assert doc.shared_since(doc.lineage, doc.serial + 1) is None  # a version it never had
