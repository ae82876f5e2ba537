"""What the synthesis can now propose — each ability with a minimal fixture.

These check that the right change is among the engine's ranked candidates
(``SuggestionEngine.rank``), not whether the learned ranker puts it first:
which candidates reach the developer is the ranker's call, measured on the
traces (``benchmarks/quality/``).
"""

from __future__ import annotations

from nextedit.suggest.repeat.lines import line_rules, line_sites
from nextedit.suggest.repeat.model import PastEdit
from nextedit.suggest.repeat.search_replace import portable_pattern
from nextedit.suggest.repeat.suggester import RepeatEditSuggester
from nextedit.suggest.repeat.synthesis import make_rule
from nextedit.text.portable_regex import why_not_portable
from tests.helpers.repeat import Editor, suggest_context
from tests.helpers.session import Script

URI = "file:///w/t.py"


def test_an_older_edit_is_a_source_when_the_newer_ones_are_not_repeats() -> None:
    text = (
        "def a():\n    return fetch(url, timeout=3)\n\n"
        "def b():\n    x = 1\n    y = 2\n    return fetch(url, timeout=3)\n"
    )
    script = Script(text)
    script.change("fetch(url, timeout=3)", "fetch(url, timeout=TIMEOUT)")
    script.change("x = 1", "x = 10")  # two unrelated edits since
    script.change("y = 2", "y = 20")
    assert any(
        t.endswith("return fetch(url, timeout=TIMEOUT)\n") and t.count("TIMEOUT") == 2 for t in script.applied("repeat")
    )


def test_a_token_inserted_once_in_a_line_that_repeats() -> None:
    text = "    handler = find(e, request.blueprints)\n    x = 1\n    handler = find(e, request.blueprints)\n"
    script = Script(text)
    script.change("request.blueprints", "ctx.request.blueprints")
    assert any(t.count("ctx.request.blueprints") == 2 for t in script.applied("repeat"))


def test_a_line_deleted_once_where_the_same_line_stands_again() -> None:
    text = "def test_a():\n    app = flask.Flask(__name__)\n    run(app)\n\ndef test_b():\n    app = flask.Flask(__name__)\n    run(app)\n"
    script = Script(text)
    script.change("    app = flask.Flask(__name__)\n", "")
    assert "def test_a():\n    run(app)\n\ndef test_b():\n    run(app)\n" in script.applied("repeat", "clone")


def test_prose_fixed_in_a_comment_that_repeats_word_for_word() -> None:
    text = (
        "def a():\n    # immediately quick without searching anything.\n    return 1\n\n"
        "def b():\n    # immediately quick without searching anything.\n    return 2\n"
    )
    script = Script(text)
    script.change("quick", "quit")
    assert any(t.count("immediately quit without") == 2 for t in script.applied("repeat", "clone"))


def test_a_new_value_typed_where_the_whole_line_repeats() -> None:
    text = "def a():\n    return flask.request.method\n\ndef b():\n    return flask.request.method\n"
    script = Script(text)
    script.change("flask.request.method", '"Hello World!"')
    assert any(t.count('"Hello World!"') == 2 for t in script.applied("repeat", "clone"))


def test_lines_inserted_between_the_same_two_lines_elsewhere() -> None:
    text = (
        "def test_a(dir):\n    dir.create('x')\n    dir.run()\n\ndef test_b(dir):\n    dir.create('x')\n    dir.run()\n"
    )
    script = Script(text)
    script.change("    dir.run()\n", "    dir.check()\n    dir.run()\n")
    assert any(t.count("dir.check()") == 2 for t in script.applied("repeat"))


def test_an_identifier_that_differs_per_site_is_a_hole_after_two_examples() -> None:
    text = "class T {\n  void a() { assertEquals(one, 1); }\n  void b() { assertEquals(two, 2); }\n  void c() { assertEquals(three, 3); }\n}\n"
    script = Script(text, "java", "file:///w/T.java")
    script.change("assertEquals(one, 1)", "assertThat(one).isEqualTo(1)")
    script.change("assertEquals(two, 2)", "assertThat(two).isEqualTo(2)")
    assert any("assertThat(three).isEqualTo(3)" in t for t in script.applied("repeat", "anti-unified"))


def test_a_renamed_fixture_parameter_in_another_test_is_a_candidate() -> None:
    text = "def test_a(tmpdir):\n    use(tmpdir)\n\n\ndef test_b(tmpdir):\n    use(tmpdir)\n"
    script = Script(text)
    script.change("tmpdir", "tmp_path", 0)
    script.change("tmpdir", "tmp_path", 0)  # its use: the binding is done
    assert any(
        t.startswith("def test_a(tmp_path):") and "def test_b(tmp_path)" in t for t in script.applied("rename", "text")
    )


def test_another_local_of_the_same_name_and_comments_are_never_renamed_as_text() -> None:
    text = "def a():\n    count = 0\n    return count  # count\n\n\ndef b():\n    count = 5\n    return count\n"
    script = Script(text)
    script.change("count", "tally", 0)
    script.change("count", "tally", 0)  # its use: the binding is done
    assert not script.applied("rename", "text")


def test_line_rules_keep_relative_indentation_and_reindent_at_the_site() -> None:
    text = "if a:\n    x = f(\n        1)\n\nwhile b:\n        x = f(\n            1)\n"
    new = "    x = g(\n        1)\n"
    old = "    x = f(\n        1)\n"
    start = text.index(old)
    text = text[:start] + new + text[start + len(old) :]
    (rule,) = line_rules(text, PastEdit(start, old, new, 1))
    (site,) = line_sites(text, rule)
    site = site.site
    assert text[: site.start] + site.new_text + text[site.end :] == text.replace("        x = f(", "        x = g(")


def test_a_search_and_replace_pattern_is_portable_or_not_offered() -> None:
    rule = make_rule(["assertEquals(", 0, ", "], ["assertThat(", 0, ").isEqualTo("], ["ident"], 2, 5.0, ())
    found = portable_pattern(rule)
    assert found is not None and why_not_portable(*found) is None
    assert found == ("assertEquals\\(([A-Za-z_][A-Za-z0-9_]*), ", "assertThat($1).isEqualTo(")
    # a repeated hole needs a back-reference, a string hole a negated class: no portable form
    assert portable_pattern(make_rule([0, " == ", 0], ["eq(", 0, ")"], ["ident"], 2, 5.0, ())) is None
    assert portable_pattern(make_rule(["f(", 0, ")"], ["g(", 0, ")"], ["string"], 2, 5.0, ())) is None
    # a dollar in the replacement is written $$
    rule = make_rule(["cost(", 0, ")"], ["price(", 0, ", '$')"], ["ident"], 2, 5.0, ())
    assert portable_pattern(rule) == ("cost\\(([A-Za-z_][A-Za-z0-9_]*)\\)", "price($1, '$$')")


def test_a_parameter_deleted_elsewhere_stays_where_the_function_still_reads_it() -> None:
    """The same deletion is no repeat where the body uses the parameter: the
    developer kept it there because the function needs it."""
    text = "".join(
        f"def test_{name}(client, app_ctx):\n    {body}\n\n\n"
        for name, body in [
            ("a", "assert client.get('/a')"),
            ("b", "assert client.get('/b')"),
            ("c", "assert app_ctx.app.name"),
            ("d", "assert client.get('/d')"),
        ]
    )
    ed = Editor(text)
    ed.change(", app_ctx", "", 0)
    ed.change(", app_ctx", "", 0)
    proposed = RepeatEditSuggester().propose(suggest_context(ed, syntax=True))
    assert isinstance(proposed, list)
    sites = {ed.text[: c.edits[0].start_cp].count("def ") for c in proposed if c.edits[0].new_text == ""}
    assert 4 in sites  # test_d drops it too
    assert 3 not in sites  # test_c reads app_ctx


def test_a_trailing_comment_deleted_where_no_context_repeats() -> None:
    """The deleted text is the anchor: the code before each
    ``# type: ignore[…]`` differs (``_basic_auth_str``, ``._cookies)``), so
    no rule with context reaches the next one. The blanks before it go too."""
    text = (
        "from .auth import _basic_auth_str  # type: ignore[reportPrivateUsage]\n"
        "\n"
        "def f(prepared_request):\n"
        '    jar = cast("CookieJar", prepared_request._cookies)  # type: ignore[reportPrivateUsage]\n'
        "    return jar\n"
    )
    script = Script(text)
    script.change("  # type: ignore[reportPrivateUsage]", "")
    assert (
        "from .auth import _basic_auth_str\n\n"
        'def f(prepared_request):\n    jar = cast("CookieJar", prepared_request._cookies)\n    return jar\n'
    ) in script.applied("repeat")


def test_a_short_deletion_without_context_is_no_rule() -> None:
    """``.to_i`` carries too little fixed text to stand for the change
    without a context token: the other ``.to_i`` (another receiver) stays."""
    text = "a = status.to_i\nb = 1\nc = count.to_i\n"
    script = Script(text, "ruby", "file:///w/t.rb")
    script.change("status.to_i", "status")
    assert "a = status\nb = 1\nc = count\n" not in script.applied("repeat")


def test_a_name_the_change_carries_is_a_hole_after_one_example() -> None:
    """``onStack(stack, `` -> ``stack.contains(``: the change is about its
    fixed text, so the name it moves may be any name at the next site."""
    text = (
        "class T {\n  boolean a() { return onStack(stack, el); }\n"
        "  boolean b() { return onStack(formattingElements, el); }\n}\n"
    )
    script = Script(text, "java", "file:///w/T.java")
    script.change("onStack(stack, ", "stack.contains(")
    assert any("return formattingElements.contains(el);" in t for t in script.applied("repeat", "carried"))


def test_a_carried_name_is_a_hole_after_another_edit_too() -> None:
    """The change stays a source when the developer fixed something else next."""
    text = (
        "class T {\n  int n = 1;\n  boolean a() { return onStack(stack, el); }\n"
        "  boolean b() { return onStack(formattingElements, el); }\n}\n"
    )
    script = Script(text, "java", "file:///w/T.java")
    script.change("onStack(stack, ", "stack.contains(")
    script.change("int n = 1;", "int n = 2;")
    assert any("return formattingElements.contains(el);" in t for t in script.applied("repeat", "carried"))


def test_a_literal_rule_of_the_example_goes_before_its_carried_names() -> None:
    """Where the example's own text stands again, that is the site: the
    rule with the carried name as a hole is not tried."""
    text = "x = wrap(first)\ny = wrap(first)\nz = wrap(second)\n"
    script = Script(text)
    script.change("wrap(first)", "first.wrapped()")
    results = script.applied("repeat")
    assert "x = first.wrapped()\ny = first.wrapped()\nz = wrap(second)\n" in results
    assert not script.applied("repeat", "carried")


def test_a_keyword_the_change_carries_stays_fixed_text() -> None:
    """``self.stop()`` -> ``halt(self)`` says nothing about ``job.stop()``."""
    text = "def a(self):\n    self.stop()\n\ndef b(self, job):\n    job.stop()\n"
    script = Script(text)
    script.change("self.stop()", "halt(self)")
    assert not any("halt(job)" in t for t in script.applied("repeat"))


def test_a_line_typed_above_a_line_is_no_change_of_its_names() -> None:
    """Every name of the old text reappears after a new line typed above
    it: none is a hole, or ``x = f(42)`` would match any call of 42."""
    text = "def a():\n    store = make(42)\n\ndef b():\n    other = build(42)\n"
    script = Script(text)
    script.change("store = make(42)", "n = 42\n    store = make(n)")
    assert not any("other = build(n)" in t for t in script.applied("repeat"))


def test_a_whole_line_rewrite_keeps_a_crlf_documents_line_breaks() -> None:
    old, new = "    total = compute(items)\r\n", "    total = compute(items, strict=True)\r\n"
    text = new + "x = 1\r\n" + old
    (rule,) = line_rules(text, PastEdit(0, old, new, 1))
    (site,) = [s.site for s in line_sites(text, rule, [(0, len(new))]) or []]
    after = text[: site.start] + site.new_text + text[site.end :]
    assert after == new + "x = 1\r\n" + new
