"""Search-and-replace: the repeat rule as one find/replace, verified by expanding it."""

from __future__ import annotations

from nextedit.suggest.model import SilenceReason, SuggestionKinds
from nextedit.suggest.repeat.model import _compile
from nextedit.suggest.repeat.search_replace import SearchReplaceSuggester, expand, search_replace_for
from nextedit.text.portable_regex import replace_all, replace_edits, why_not_portable
from tests.helpers.repeat import Editor, suggest_context


def _apply(text: str, edits) -> str:
    for e in sorted(edits, key=lambda e: e.start_cp, reverse=True):
        text = text[: e.start_cp] + e.new_text + text[e.end_cp :]
    return text


RUST = """\
fn a() { MESSAGES.load(Ordering::SeqCst) }
fn b(yes: bool) { MESSAGES.store(yes, Ordering::SeqCst) }
fn c() { ERRORED.load(Ordering::SeqCst) }
fn d() { ERRORED.store(true, Ordering::SeqCst); }
"""


def test_literal_search_and_replace_expands_to_exactly_the_sites() -> None:
    ed = Editor(RUST)
    ed.change("MESSAGES.load(Ordering::SeqCst)", "MESSAGES.load(Ordering::Relaxed)")
    # one example: a single-site edit at most, never a whole-file replacement
    proposals = ed.suggest()
    assert proposals and search_replace_for(ed.text, proposals[0]) is None
    ed.change("MESSAGES.store(yes, Ordering::SeqCst)", "MESSAGES.store(yes, Ordering::Relaxed)")
    proposals = ed.suggest()
    assert proposals and proposals[0].rule.evidence == 2
    asked = _compile.cache_info()
    found = search_replace_for(ed.text, proposals[0])
    assert found is not None
    search, replace, is_regex, edits = found
    assert not is_regex
    now = _compile.cache_info()  # a literal is searched as text: its regex is never built
    assert now.hits + now.misses == asked.hits + asked.misses
    assert "SeqCst" in search and "Relaxed" in replace
    # a client replacing every match gets exactly the sites, nothing else
    assert expand(ed.text, search, replace, is_regex) == edits
    assert sorted((e.start_cp, e.end_cp, e.new_text) for e in edits) == sorted(
        (s.start, s.end, s.new_text) for s in proposals[0].sites
    )
    assert _apply(ed.text, edits) == RUST.replace("SeqCst", "Relaxed")


JAVA = """\
class T {
  void a() { assertEquals(actualA, 1); }
  void b() { assertEquals(actualB, 2); }
  void c() { assertEquals(actualC, 3); }
  void d() { assertEquals(actualD, 4); }
  void e() { assertEqualsIgnoringCase(x, y); }
}
"""


def test_regex_with_groups_when_identifiers_differ() -> None:
    ed = Editor(JAVA)
    ed.change("assertEquals(actualA, 1)", "assertThat(actualA).isEqualTo(1)")
    ed.change("assertEquals(actualB, 2)", "assertThat(actualB).isEqualTo(2)")
    proposals = ed.suggest()
    assert proposals and len(proposals[0].sites) == 2
    found = search_replace_for(ed.text, proposals[0])
    assert found is not None
    search, replace, is_regex, edits = found
    assert is_regex
    # the subset every client's engine reads alike: $1 groups, no lookaround
    assert why_not_portable(search, replace) is None
    assert "$1" in replace and "\\1" not in replace and "(?" not in search
    changed = [(s, e) for s, e, n in replace_edits(ed.text, search, replace) if ed.text[s:e] != n]
    assert len(changed) == len(edits)  # a client's replace-all changes the sites, nothing else
    after = replace_all(ed.text, search, replace)
    assert after == _apply(ed.text, edits)
    assert "assertThat(actualC).isEqualTo(3)" in after
    assert "assertThat(actualD).isEqualTo(4)" in after
    assert "assertEqualsIgnoringCase(x, y)" in after  # similar name untouched


def test_pattern_never_touches_a_similar_longer_name() -> None:
    # `old_api_call(` as a bare literal would also hit `my_old_api_call(`
    text = (
        "a = old_api_call(1)\nb = old_api_call(2)\nc = my_old_api_call(3)\nd = old_api_call(4)\ne = old_api_call(5)\n"
    )
    ed = Editor(text)
    ed.change("a = old_api_call(1)", "a = client.api_call(1)")
    ed.change("b = old_api_call(2)", "b = client.api_call(2)")
    proposals = ed.suggest()
    assert proposals
    assert all("my_old" not in ed.text[s.match_start - 3 : s.match_end] for s in proposals[0].sites)
    found = search_replace_for(ed.text, proposals[0])
    if found is not None:  # offered only when a client's replace-all touches exactly the sites
        search, replace, is_regex, edits = found
        after = replace_all(ed.text, search, replace) if is_regex else ed.text.replace(search, replace)
        assert after == _apply(ed.text, edits)
        assert "my_old_api_call(3)" in after
        assert after.count("client.api_call(") == 4


def test_a_literal_that_would_touch_a_longer_name_is_not_offered() -> None:
    """``SeqCst`` would also replace inside ``SeqCstish``, and no portable
    pattern states a word boundary: the sites stay one-site edits."""
    from nextedit.suggest.repeat.synthesis import Proposal, Rule, find_sites, make_rule

    text = "x = SeqCst\ny = SeqCst\nz = SeqCstish\n"
    rule: Rule = make_rule(["SeqCst"], ["Relaxed"], [], 2, 5.0, ())
    sites = find_sites(text, rule)
    assert len(sites) == 2
    assert search_replace_for(text, Proposal(rule, tuple(sites), 1.0)) is None


def test_one_site_is_not_a_search_and_replace() -> None:
    ed = Editor("x = cmd.cmd().output().unwrap()\ny = cmd.cmd().output().unwrap()\n")
    ed.change("x = cmd.cmd().output().unwrap()", "x = cmd.raw_output()")
    proposals = ed.suggest()
    assert proposals and len(proposals[0].sites) == 1
    assert search_replace_for(ed.text, proposals[0]) is None


def test_suggester_needs_the_client_capability() -> None:
    ed = Editor(RUST)
    ed.change("MESSAGES.load(Ordering::SeqCst)", "MESSAGES.load(Ordering::Relaxed)")
    ed.change("MESSAGES.store(yes, Ordering::SeqCst)", "MESSAGES.store(yes, Ordering::Relaxed)")
    assert SearchReplaceSuggester().propose(suggest_context(ed)) == SilenceReason.FILTERED
    result = SearchReplaceSuggester().propose(suggest_context(ed, SuggestionKinds(search_and_replace=True)))
    assert isinstance(result, list) and len(result) == 1
    cand = result[0]
    assert cand.kind == "searchAndReplace" and cand.search and cand.replace is not None
    assert list(cand.edits) == expand(ed.text, cand.search, cand.replace, cand.is_regex)
