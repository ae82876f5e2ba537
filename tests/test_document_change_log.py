"""A document's change log says what two of its versions share at their ends, without reading them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.changes import apply, change, document, letters


@settings(max_examples=300, deadline=None)
@given(text=letters, changes=st.lists(change, max_size=80), whole=letters)
def test_what_the_log_says_two_versions_share_they_share(text: str, changes: list, whole: str) -> None:
    doc = document(text)
    versions = [(doc.serial, doc.text)]
    for c in changes:
        apply(doc, c, whole)
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
