"""A rename the binding does not explain is still a repeated edit, once the developer made it twice.

The rename suggester renames the rest of one binding; the same name renamed
the same way in another scope (another function's local, a name defined in
another file) is no occurrence of that binding. When the developer renamed
it twice in the same surroundings, the repeat suggester offers it where
those surroundings stand again; the learned ranker weighs it. A rename seen
once, or of a member (``self.size``: renamed by its receiver in every
scope), stays the rename suggester's alone — unless the new name stood in
the file already: a use re-pointed at another name is no rename.
"""

from __future__ import annotations

from tests.helpers.session import Script

TEXT = "".join(f"def {f}(request):\n    config = load()\n    send(request, config)\n\n\n" for f in "abc")


def test_a_rename_made_twice_in_the_same_surroundings_is_a_repeat_candidate_in_another_function() -> None:
    script = Script(TEXT)
    script.change("config = load()", "settings = load()", 0)
    script.change("config = load()", "settings = load()", 0)  # function b's
    assert any(t.count("settings = load()") == 3 for t in script.applied("repeat"))


def test_a_rename_made_once_is_left_to_the_rename_suggester() -> None:
    script = Script(TEXT)
    script.change("config = load()", "settings = load()", 0)
    assert not any(t.count("settings = load()") == 2 for t in script.applied("repeat"))


def test_a_member_renamed_twice_stays_the_rename_suggesters() -> None:
    text = "".join(f"    def {f}(self):\n        use(self.size)\n\n" for f in "abc")
    script = Script("class Box:\n" + text)
    script.change("self.size", "self.volume", 0)
    script.change("self.size", "self.volume", 0)
    assert not any(t.count("self.volume") == 3 for t in script.applied("repeat"))


def test_a_use_re_pointed_at_a_name_the_file_has_is_a_repeat_candidate() -> None:
    """``Ordering::SeqCst`` -> ``Ordering::Relaxed`` where ``Relaxed`` is
    already defined: no rename (the rename suggester leaves it: NEW was a
    name already), so the same change where the same surroundings stand is
    the repeat suggester's, even once and after a path."""
    text = (
        "enum Ordering { SeqCst, Relaxed }\n\n"
        "fn set(yes: bool) {\n    FLAG.store(yes, Ordering::SeqCst)\n}\n\n"
        "fn get() -> bool {\n    FLAG.load(Ordering::SeqCst)\n}\n"
    )
    script = Script(text, "rust", "file:///w/lib.rs")
    script.change("Ordering::SeqCst)", "Ordering::Relaxed)", 0)
    assert any("FLAG.load(Ordering::Relaxed)" in t for t in script.applied("repeat"))
    assert not any(s == "rename" for s, *_ in script.changes())


def test_a_new_name_is_looked_for_near_the_renamed_site_only() -> None:
    """Whole words only, within reach of the renamed site; a name found
    inside words beyond count stands there already."""
    from nextedit.suggest.repeat.suggester import _NAME_HITS, _NAME_REACH, _stands_more_often

    text = "relaxed Relaxed_x xRelaxed Relaxed"
    assert not _stands_more_often(text, "Relaxed", 1, 30)  # only the developer's own
    assert _stands_more_often(text + " Relaxed", "Relaxed", 1, 30)
    far = "Relaxed" + " " * (2 * _NAME_REACH) + "Relaxed"
    assert not _stands_more_often(far, "Relaxed", 1, len(far) - 1)  # the other one is out of reach
    assert _stands_more_often("ab " * (_NAME_HITS + 1), "a", 5, 0)  # everywhere inside words
