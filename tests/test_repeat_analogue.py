"""Whole-line rewrites repeated with one word swapped (the repeat suggester's ``analogue`` family).

The rules and their sites are checked directly; that the engine offers them
is checked through a session, as the other repeat abilities are
(``test_repeat_abilities.py``): which candidate reaches the developer is the
ranker's call.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from nextedit.suggest.repeat.analogue import analogue_rules, analogue_sites
from nextedit.suggest.repeat.lines import LineRule, line_rules
from nextedit.suggest.repeat.model import PastEdit
from tests.helpers.session import Script

OLD = "static jv f_plus(jq_state *jq, jv input, jv a, jv b) {\n  jv_free(input);\n"
NEW = "jv binop_plus(jv a, jv b) {\n"


def _body(name: str) -> str:
    return OLD.replace("plus", name) + "  return a;\n}\n\n"


def _rule(text: str, start: int, old: str, new: str) -> LineRule:
    (rule,) = line_rules(text, PastEdit(start, old, new, 1))
    return rule


def _applied(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def test_the_rewrite_goes_to_the_same_lines_with_another_word_carrying_that_word() -> None:
    text = NEW + "  return a;\n}\n\n" + _body("minus") + _body("divide")
    rule = _rule(text, 0, OLD, NEW)
    (analogue,) = [a for a in analogue_rules(rule) if a.word == "plus"]
    sites = analogue_sites(text, analogue, [(0, len(NEW))])
    assert sites is not None
    assert [s.word for s in sites] == ["minus", "divide"]
    after = _applied(text, sites[1].site.start, sites[1].site.end, sites[1].site.new_text)
    assert "jv binop_divide(jv a, jv b) {\n  return a;" in after
    assert "f_divide" not in after and "f_minus" in after


def test_a_word_of_another_kind_or_a_longer_one_is_no_site() -> None:
    text = NEW + "\n" + OLD.replace("plus", "Minus") + OLD.replace("plus", "divide_2") + OLD.replace("f_plus", "fplus")
    analogue = next(a for a in analogue_rules(_rule(text, 0, OLD, NEW)) if a.word == "plus")
    assert analogue_sites(text, analogue, [(0, len(NEW))]) == []


def test_the_same_word_stands_at_each_of_its_places() -> None:
    old = "def test_file_args(runner):\n    check('file')\n"
    new = "def test_file_args(runner, tmp_path):\n    check('file', tmp_path)\n"
    text = new + old.replace("file", "path") + old.replace("file", "path", 1).replace("'file'", "'dir'")
    analogue = next(a for a in analogue_rules(_rule(text, 0, old, new)) if a.word == "file")
    sites = analogue_sites(text, analogue, [(0, len(new))])
    assert sites is not None and [s.word for s in sites] == ["path"]  # not where the two places differ


def test_a_word_inside_a_longer_word_is_not_swapped() -> None:
    # ``arg`` stands inside ``args``: swapping it would rewrite part of another word
    old = "def run(args):\n    use(arg, args)\n"
    new = "def run(args):\n    use(arg, args, 1)\n"
    assert all(a.word != "arg" for a in analogue_rules(_rule(old.replace(old, new), 0, old, new)))


def test_too_little_fixed_text_makes_no_rule() -> None:
    old, new = "foo(bar)\n", "foo(bar, 1)\n"
    assert analogue_rules(_rule(new, 0, old, new)) == ()


def test_past_the_limit_a_rule_has_no_site() -> None:
    old = "value = compute_total(alpha, beta)\n"
    new = "value = compute_total(alpha, beta, gamma)\n"
    many = "".join(old.replace("total", f"t{chr(97 + i // 26)}{chr(97 + i % 26)}") for i in range(70))
    text = new + many
    analogue = next(a for a in analogue_rules(_rule(text, 0, old, new)) if a.word == "total")
    assert analogue_sites(text, analogue, [(0, len(new))], limit=60) is None
    assert len(analogue_sites(text, analogue, [(0, len(new))], limit=100) or []) == 70


def test_two_analogous_edits_are_two_examples_of_one_rule_in_the_engine() -> None:
    text = _body("plus") + _body("minus") + _body("divide") + _body("mod")
    script = Script(text, language="c", uri="file:///w/builtin.c")
    script.change(OLD, NEW)
    script.change(OLD.replace("plus", "minus"), NEW.replace("plus", "minus"))
    applied = script.applied("repeat", "analogue")
    assert any("jv binop_divide(jv a, jv b) {\n  return a;" in t and "f_divide" not in t for t in applied)
    assert any("jv binop_mod(jv a, jv b) {\n  return a;" in t and "f_mod" not in t for t in applied)
    analogues = [c for c in script.ranked() if c.features.family == "analogue"]
    assert analogues and all(c.features.examples == 2 for c in analogues)


def test_a_comment_line_rewritten_makes_no_analogue() -> None:
    """A line rewritten with a word kept goes to the analogous line when it
    is code, not when it is a comment (a comment's word swapped for another's
    is seldom what the developer writes next)."""
    cases = (
        ("    check_plus(runner, strict=False)\n", "(runner, strict=False)", "(runner, tmp_path)", True),
        ("    # check the plus of the runner here\n", "of the runner", "of runner and tmp_path", False),
    )
    for old, part, replacement, analogous in cases:
        text = "def test_plus():\n" + old + "\n\ndef test_minus():\n" + old.replace("plus", "minus")
        script = Script(text)
        script.change(old, old.replace(part, replacement))
        wanted = old.replace("plus", "minus").replace(part, replacement)
        assert any(wanted in t for t in script.applied("repeat", "analogue")) is analogous


@given(
    word=st.sampled_from(["plus", "minus", "divide", "mod", "equal"]),
    other=st.sampled_from(["less", "greater", "notequal", "and", "or"]),
)
def test_applying_a_site_gives_the_example_with_the_site_word(word: str, other: str) -> None:
    """Property: at a site whose lines are the example's old lines with
    another word, the rewrite gives the example's new lines with that word."""
    text = NEW.replace("plus", word) + "\n" + OLD.replace("plus", other)
    rule = _rule(text, 0, OLD.replace("plus", word), NEW.replace("plus", word))
    analogue = next(a for a in analogue_rules(rule) if a.word == word)
    sites = analogue_sites(text, analogue, [(0, len(NEW.replace("plus", word)))])
    assert sites is not None and len(sites) == 1
    site = sites[0].site
    assert _applied(text, site.start, site.end, site.new_text) == text.replace(
        OLD.replace("plus", other), NEW.replace("plus", other)
    )


def test_a_block_is_found_whatever_its_line_endings_and_trailing_blanks() -> None:
    text = (
        NEW
        + "\n"
        + OLD.replace("plus", "minus").replace("\n", "\r\n")
        + OLD.replace("plus", "mod").replace("{\n", "{  \n")
    )
    analogue = next(a for a in analogue_rules(_rule(text, 0, OLD, NEW)) if a.word == "plus")
    sites = analogue_sites(text, analogue, [(0, len(NEW))])
    assert sites is not None and [s.word for s in sites] == ["minus", "mod"]
    crlf = sites[0].site
    # the rewrite keeps the document's line breaks where it stands
    assert _applied(text, crlf.start, crlf.end, crlf.new_text).count("jv binop_minus(jv a, jv b) {\r\n") == 1
