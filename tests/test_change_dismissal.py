"""A dismissed suggestion's change stays dismissed, whichever rule makes it.

The developer renamed two calls of ``process_as_html`` to
``breakout_to_html`` and dismissed the third. Several rules of the repeat
suggester make that same change (``.process_as_html(`` and the wider
``return self.process_as_html(t, tb)``): dismissing one rule's suggestion
must not bring the change straight back through another, nor the jump's
edit once the jump was dismissed. Making the change again themselves gives
it back. And a dismissal silences its own rule's sites, never another
rule's, whatever the document's path holds.
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from nextedit.session import PlacedSuggestion
from nextedit.suggest.filters import change_key
from nextedit.suggest.model import SuggestionKinds, TextEditCp
from nextedit.suggest.repeat.suggester import repeat_fingerprint, repeat_rule
from tests.helpers.session import Editor

URI = "file:///w/builder.py"
FILLER = "".join(f"    def helper_{i}(self):\n        return {i}\n\n" for i in range(20))


def _source(filler: str) -> str:
    return (
        "import html\n\n\n"
        "class Builder:\n"
        "    def insert(self, t, tb):\n"
        "        if t.is_start():\n"
        "            return self.process_as_html(t, tb)\n"
        "        if t.is_end():\n"
        "            return self.process_as_html(t, tb)\n"
        "        return False\n\n" + filler + "    def insert_more(self, t, tb):\n"
        "        if t.is_comment():\n"
        "            return self.process_as_html(t, tb)\n"
        "        if t.is_doctype():\n"
        "            return self.process_as_html(t, tb)\n"
        "        return False\n\n"
        "    def process_as_html(self, t, tb):\n"
        "        return html.escape(str(t))\n\n"
        "    def breakout_to_html(self, t, tb):\n"
        "        return html.escape(str(tb))\n"
    )


def _rename_next_call(editor: Editor) -> int:
    text = editor.text(URI)
    at = text.index("self.process_as_html(t") + len("self.")
    return editor.replace(URI, at, at + len("process_as_html"), "breakout_to_html")


def _two_calls_renamed(filler: str = "", kinds: SuggestionKinds = SuggestionKinds()) -> tuple[Editor, int]:
    editor = Editor(kinds=kinds)
    editor.open(URI, "python", _source(filler))
    _rename_next_call(editor)
    return editor, _rename_next_call(editor)


def _renames_a_call(suggestion: PlacedSuggestion) -> bool:
    return suggestion.kind == "edit" and [e.new_text for e in suggestion.edits] == ["breakout_to"]


def test_a_dismissed_change_does_not_come_back_through_another_rule() -> None:
    editor, cursor = _two_calls_renamed()
    first = editor.suggest(URI, cursor)
    assert first and _renames_a_call(first[0])
    editor.session.reject(first[0].id, "ignored")
    assert editor.suggest(URI, cursor) == []


def test_a_dismissed_jump_dismisses_the_edit_it_leads_to() -> None:
    editor, cursor = _two_calls_renamed(FILLER, SuggestionKinds(jump=True))
    first = editor.suggest(URI, cursor)
    assert first and first[0].kind == "jump"
    editor.session.reject(first[0].id, "ignored")
    assert editor.suggest(URI, cursor) == []


def test_making_the_change_again_brings_it_back() -> None:
    editor, cursor = _two_calls_renamed()
    first = editor.suggest(URI, cursor)
    editor.session.reject(first[0].id, "ignored")
    cursor = _rename_next_call(editor)  # the third call, by hand
    again = editor.suggest(URI, cursor)
    assert again and _renames_a_call(again[0])
    text = editor.text(URI)
    assert again[0].edits[0].range.start.line == text[: text.index("self.process_as_html(t")].count("\n")


def test_the_change_key_names_the_change_not_the_place() -> None:
    text = "a = old_name(x)\nb = old_name(y)\n"
    here = TextEditCp(4, 12, "new_name")
    there = TextEditCp(20, 28, "new_name")
    assert change_key(URI, (here,), text) == change_key(URI, (there,), text) != ""
    assert change_key(URI, (here,), text) != change_key("file:///w/other.py", (here,), text)
    assert change_key(URI, (TextEditCp(4, 12, "other"),), text) != change_key(URI, (here,), text)
    assert change_key(URI, (TextEditCp(3, 4, "  "),), text) == ""  # blanks only
    assert change_key(URI, (), text) == ""


def test_a_suggestion_replaced_or_cancelled_is_offered_again_one_turned_down_is_not() -> None:
    """ACP's ``replaced`` and ``cancelled`` are no word from the developer: a client
    re-asking on every keystroke replaces each answer with the next, often the
    same change, and the change must stay. ``rejected``, ``ignored`` or no reason
    dismiss it."""
    for reason, offered_again in (
        ("replaced", True),
        ("cancelled", True),
        ("rejected", False),
        ("ignored", False),
        (None, False),
    ):
        editor, cursor = _two_calls_renamed()
        first = editor.suggest(URI, cursor)
        assert first and _renames_a_call(first[0])
        editor.session.reject(first[0].id, reason)
        again = editor.suggest(URI, cursor)
        assert any(_renames_a_call(s) for s in again) is offered_again, reason
        if offered_again:
            assert again[0].edits == first[0].edits and again[0].id != first[0].id


REPORT = (
    "def report(client, log):\n"
    '    log.info("fetching a")\n'
    '    client.get("a", retries=1)\n'
    '    log.info("fetching b")\n'
    '    client.get("b", retries=1)\n'
    '    log.info("fetching c")\n'
    '    client.get("c", retries=1)\n'
)


def _two_rules_made_twice(uri: str) -> tuple[Editor, int]:
    """``retries=1`` → ``retries=3`` in two calls, then ``, extra=ctx`` added
    to two log lines: two rules, each with one site left (``c``)."""
    editor = Editor()
    editor.open(uri, "python", REPORT)
    for _ in range(2):
        at = editor.text(uri).index("retries=1") + len("retries=")
        editor.replace(uri, at, at + 1, "3")
    cursor = 0
    for name in "ab":
        at = editor.text(uri).index(f'"fetching {name}"') + len(f'"fetching {name}"')
        cursor = editor.replace(uri, at, at, ", extra=ctx")
    return editor, cursor


def test_dismissing_one_rule_leaves_the_other_rules_sites_whatever_the_path_holds() -> None:
    """A rule's dismissal silences that rule's other sites, never another
    rule's, also in a document whose path holds an ``@`` (an npm scope in a
    monorepo: ``packages/@scope/…``), where the rule was once read as the
    fingerprint up to its first ``@`` and every rule of the file shared it."""
    for uri in ("file:///w/packages/app/report.py", "file:///w/packages/@scope/app/report.py"):
        editor, cursor = _two_rules_made_twice(uri)
        first = editor.suggest(uri, cursor)
        assert first, uri
        dismissed = [e.new_text for e in first[0].edits]
        editor.session.reject(first[0].id, "ignored")
        again = editor.suggest(uri, cursor)
        assert again, uri
        offered = [e.new_text for e in again[0].edits]
        assert offered != dismissed and offered in (["3"], [", extra=ctx"]), (uri, offered)
        assert again[0].edits[0].range.start.line in (5, 6), uri  # the one site left, ``c``


URI_C = "file:///w/src/list.c"
# short texts made of the characters that join a key's parts
_CODE = st.text(alphabet="pq->@'\"", max_size=4)


@given(_CODE, _CODE, _CODE, _CODE, _CODE, _CODE)
@example("p", "q->r", "s", "p->q", "r", "s")  # the rules C code makes
@example("p", "q", "r@s", "p", "q@r", "s")
def test_two_repeat_changes_never_share_a_rule_or_a_fingerprint(
    before: str, after: str, site: str, other_before: str, other_after: str, other_site: str
) -> None:
    """A dismissal silences what shares its key, so two different changes must
    never share one, whatever ``->``, ``@`` or quotes the code holds (C's
    ``p->q``, decorators): unquoted, the rule ``p`` → ``q->r`` and the rule
    ``p->q`` → ``r`` were one."""
    rule = repeat_rule(URI_C, before, after)
    other = repeat_rule(URI_C, other_before, other_after)
    assert (rule == other) == ((before, after) == (other_before, other_after))
    same_change = (before, after, site) == (other_before, other_after, other_site)
    assert (repeat_fingerprint(rule, site) == repeat_fingerprint(other, other_site)) == same_change
