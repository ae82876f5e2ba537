"""Repeated edits: bounded cost on huge documents, syntactic context, negative evidence."""

from __future__ import annotations

import time

import pytest

from nextedit.suggest.repeat.search_replace import search_replace_for
from nextedit.suggest.repeat.suggester import categorizer
from nextedit.suggest.repeat.synthesis import PastEdit, node_category, synthesize
from nextedit.syntax import SyntaxTree
from nextedit.text import Document
from tests.helpers.repeat import Editor, suggest_context


def test_one_megabyte_line_is_never_tokenized_whole() -> None:
    text = "s = '" + "é" * (1024 * 1024 // 2) + "'\n"
    text = "t" + text[1:]
    start = time.perf_counter()
    assert synthesize(text, [PastEdit(0, "s", "t", 1)], 1) == []
    assert time.perf_counter() - start < 1.0


def test_huge_file_cost_follows_the_matches_not_the_file() -> None:
    line = "value = compute(value, other)  # " + "x" * 40 + "\n"
    ed = Editor(line * 100_000 + "    self.assertEquals(f(1), 2)\n    self.assertEquals(g(2), 3)\n")
    ed.change("self.assertEquals(f(1), 2)", "self.assertEqual(f(1), 2)")
    start = time.perf_counter()
    proposals = ed.suggest()
    assert time.perf_counter() - start < 1.0
    assert proposals and len(proposals[0].sites) == 1


def test_a_site_on_a_very_long_line_is_skipped_and_no_search_and_replace() -> None:
    long_line = "x = (" + "y = legacy_client_call(0); " * 400 + ")\n"
    ed = Editor(
        "a = legacy_client_call(1)\nb = legacy_client_call(2)\nc = legacy_client_call(3)\n"
        "d = legacy_client_call(4)\n" + long_line
    )
    ed.change("a = legacy_client_call(1)", "a = modern_client_call(1)")
    ed.change("b = legacy_client_call(2)", "b = modern_client_call(2)")
    proposals = ed.suggest()
    assert proposals
    assert all(site.start < len(ed.text) - len(long_line) for site in proposals[0].sites)
    # the client would also replace on the skipped line: not offered
    assert not proposals[0].complete
    assert search_replace_for(ed.text, proposals[0]) is None


def test_synthesis_stops_when_cancelled() -> None:
    ed = Editor("a = old_api(1)\nb = old_api(2)\nc = old_api(3)\n")
    ed.change("a = old_api(1)", "a = new_api(1)")
    assert synthesize(ed.text, ed.edits, 0, cancelled=lambda: True) == []


# -- syntactic context (the repeat suggester's categorizer over a real parse) ---------------


PY_PARAMS = """\
def test_a(client, app_ctx):
    pass


def test_b(client, app_ctx):
    pass


def helper():
    run(client, app_ctx)
"""


def test_parameter_removed_from_definitions_is_not_removed_from_a_call() -> None:
    ed = Editor(PY_PARAMS)
    ed.change("def test_a(client, app_ctx)", "def test_a(client)")
    proposals = synthesize(ed.text, ed.edits, 0, category=categorizer(suggest_context(ed, syntax=True)))
    # the other definition may be suggested, the call never
    for proposal in proposals:
        for site in proposal.sites:
            assert "run(" not in ed.text[ed.text.rfind("\n", 0, site.start) : site.end]


def test_identifier_substitution_crosses_parameters_and_arguments() -> None:
    text = "def f(old_tmpdir, old_tmpdir_prefix):\n    g(old_tmpdir, old_tmpdir_prefix)\n"
    ed = Editor(text)
    ed.change("old_tmpdir, old_tmpdir_prefix)", "new_tmp_path, new_tmp_path_prefix)")
    proposals = synthesize(ed.text, ed.edits, 0, category=categorizer(suggest_context(ed, syntax=True)))
    assert (
        proposals and "g(" in ed.text[ed.text.rfind("\n", 0, proposals[0].sites[0].start) : proposals[0].sites[0].end]
    )


def test_code_change_is_not_repeated_inside_a_string() -> None:
    text = 'x = old_api_call(1)\ny = old_api_call(2)\nmsg = "call old_api_call(3) first"\n'
    ed = Editor(text)
    ed.change("x = old_api_call(1)", "x = client.api_call(1)")
    proposals = synthesize(ed.text, ed.edits, 0, category=categorizer(suggest_context(ed, syntax=True)))
    assert proposals
    assert all("msg" not in ed.text[ed.text.rfind("\n", 0, s.start) : s.end] for p in proposals for s in p.sites)


GO_METHODS = """\
package x

func TestA(t *testing.T) {
	w := PerformRequest(r, "GET", "/")
	check(w)
}

func TestB(t *testing.T) {
	req := httptest.NewRequest("GET", "/b", nil)
	check(req)
}
"""


def test_an_example_edited_as_a_whole_line_keeps_its_context() -> None:
    """The developer replaces a whole line (a hunk) to turn a call argument
    into a constant; the tree of the last parse still holds the old line's
    nodes there, laid out anyhow. The example's context is read from the
    re-parsed tree, so the same argument of another call is a site."""
    text = GO_METHODS
    line = '\tw := PerformRequest(r, "GET", "/")\n'
    start = text.index(line)
    tree = SyntaxTree.parse("go", text.encode())  # the parse before the edit
    doc = Document("file:///t.go", "go", 1, text)
    applied = doc.replace(start, start + len(line), line.replace('"GET"', "http.MethodGet"))
    tree.apply_edits([applied], doc.source_bytes)  # pending: read stale, as the engine does
    ed = Editor(doc.text)
    ed.edits = [PastEdit(start, line, line.replace('"GET"', "http.MethodGet"), 1)]
    context = suggest_context(ed, language="go")
    context.state.syntax = tree
    proposals = synthesize(
        ed.text,
        ed.edits,
        ed.edits[-1].new_end,
        category=categorizer(context),
        example_category=categorizer(context, edited=True),
    )
    sites = [s for p in proposals for s in p.sites]
    assert sites and ed.text[sites[0].start : sites[0].end] == '"GET"'
    assert "NewRequest" in ed.text[ed.text.rfind("\n", 0, sites[0].start) : sites[0].end]


def test_a_large_document_reads_an_edited_example_without_a_re_parse() -> None:
    """Past the size bound the re-parse would cost tens of ms: the example's
    context is read from the last parse, like every other span."""
    text = "package x\n\n" + "// filler line of a large file\n" * 3000 + GO_METHODS.removeprefix("package x\n")
    line = '\tw := PerformRequest(r, "GET", "/")\n'
    start = text.index(line)
    tree = SyntaxTree.parse("go", text.encode())
    doc = Document("file:///t.go", "go", 1, text)
    tree.apply_edits([doc.replace(start, start + len(line), line.replace('"GET"', "http.MethodGet"))], doc.source_bytes)
    ed = Editor(doc.text)
    ed.edits = [PastEdit(start, line, line.replace('"GET"', "http.MethodGet"), 1)]
    context = suggest_context(ed, language="go")
    context.state.syntax = tree
    category, example_category = categorizer(context), categorizer(context, edited=True)
    synthesize(ed.text, ed.edits, ed.edits[-1].new_end, category=category, example_category=example_category)
    assert tree.reparse_pending


GO_ROUTES = """\
package x

var routes = []RouteInfo{
	{
		Method: "GET",
		Path:   "/a",
	},
}

func TestB(t *testing.T) {
	req := httptest.NewRequest("GET", "/b", nil)
	check(req)
}
"""


def test_a_literal_turned_into_a_constant_is_repeated_in_another_kind_of_list() -> None:
    """One literal for one expression keeps the shape of any list it sits in:
    made in a struct field, it is repeated in a call's arguments."""
    ed = Editor(GO_ROUTES)
    ed.change('Method: "GET"', "Method: http.MethodGet")
    proposals = synthesize(
        ed.text, ed.edits, ed.edits[-1].new_end, category=categorizer(suggest_context(ed, language="go", syntax=True))
    )
    sites = [s for p in proposals for s in p.sites]
    assert sites and ed.text[sites[0].start : sites[0].end] == '"GET"'
    assert "NewRequest" in ed.text[ed.text.rfind("\n", 0, sites[0].start) : sites[0].end]


def test_node_category_names_lists_strings_and_comments() -> None:
    assert node_category(["argument_list", "call"]) == ("code", "arguments")
    assert node_category(["parameters", "function_definition"]) == ("code", "parameters")
    assert node_category(["formal_parameters", "method_declaration"]) == ("code", "parameters")
    assert node_category(["string", "expression_statement"])[0] == "string"
    assert node_category(["comment", "block"])[0] == "comment"
    assert node_category(["block", "function_definition"]) == ("code", None)


# -- negative evidence -------------------------------------------------------------------

RS_DERIVE = """\
#[derive(Debug, Eq, PartialEq)]
struct A;

#[derive(Debug, Eq, PartialEq)]
struct B;

#[derive(Debug, Eq, PartialEq)]
struct C;

#[derive(Debug, Eq, PartialEq)]
struct D;
"""


@pytest.mark.parametrize(
    ("order", "passed_over"),
    [
        # B was skipped on the way down: the rule's other sites are guesses
        ("AC", 1),
        # out of order: B may simply not be reached yet
        ("CA", 0),
    ],
)
def test_site_passed_over_on_the_way_down_is_negative_evidence(order: str, passed_over: int) -> None:
    """The synthesis records the site the developer passed over; the ranker
    weighs it (``CandidateFeatures.passed_over``, a negative weight)."""
    ed = Editor(RS_DERIVE)
    for name in order:
        ed.change(f"Debug, Eq, PartialEq)]\nstruct {name}", f"Debug, Default, Eq, PartialEq)]\nstruct {name}")
    proposals = synthesize(ed.text, ed.edits, ed.edits[-1].new_end, max_proposals=4)
    two_examples = [p for p in proposals if p.rule.evidence >= 2]
    assert two_examples and two_examples[0].rule.info["passed_over"] == passed_over


def test_one_new_value_typed_in_is_flagged_as_data() -> None:
    """A new literal typed in is data more often than a pattern: the rule
    still stands where the whole line repeats, flagged for the ranker."""
    text = "def a():\n    return flask.request.method\n\n\ndef b():\n    return flask.request.method\n"
    ed = Editor(text)
    ed.change("return flask.request.method", 'return "Hello World!"')
    proposals = ed.suggest()
    assert proposals and proposals[0].rule.info["new_literal"]


def test_an_extended_string_is_still_a_pattern() -> None:
    text = 'if err:\n    return errors.New("read failed")\nif err:\n    return errors.New("read failed")\n'
    ed = Editor(text)
    ed.change('return errors.New("read failed")', 'return fmt.Errorf("read failed: %w", err)')
    assert ed.suggest()


def test_an_older_one_off_edit_is_reached_after_the_same_edit_made_many_times() -> None:
    # the six newer sources make the same rules again: their verdicts are
    # known from the first search, and must not spend the request's budget
    # before the older edit's own rule is tried
    ed = Editor("retry_limit = 3  # first\n" + "    log.warn(msg)\n" * 6 + "retry_limit = 3  # second\n")
    ed.change("retry_limit = 3  # first", "retry_limit = 5  # first")
    for _ in range(6):
        ed.change("log.warn(msg)", "log.warning(msg)")
    proposals = synthesize(ed.text, ed.edits, 0, max_sources=20, max_examples=24, max_proposals=4)
    (older,) = [p for p in proposals if p.age == 6]
    (site,) = older.sites
    assert site.start > ed.text.index("# first") and (ed.text[site.start : site.end], site.new_text) == ("3", "5")
