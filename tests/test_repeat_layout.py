"""A repeated change keeps the site's own line breaks (``repeat/layout.py``).

The developer's formatter re-wraps the line they changed; at the next site
the developer's own edit has that site's wrapping, not the example's (fmt's
``, DYNAMIC_NAMES>(`` carried with a break indented for another nesting was
judged wrong there). Each case is a minimal fixture of what was seen.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nextedit.suggest.repeat.layout import keep_site_layout
from nextedit.suggest.repeat.tokens import tokenize
from tests.helpers.session import Script


def _apply(text: str, change: tuple[int, int, str]) -> str:
    start, end, new = change
    return text[:start] + new + text[end:]


def test_a_break_the_example_added_inside_a_call_is_not_carried() -> None:
    text = "    return parse_tail<Args, POS + 2, ID>(make_text(str, POS, 1), fmt);\n"
    at = text.index(">(")
    change = keep_site_layout(text, at, at + 2, ", DYNAMIC_NAMES>(\n          ", "cpp")
    assert (
        _apply(text, change)
        == "    return parse_tail<Args, POS + 2, ID, DYNAMIC_NAMES>(make_text(str, POS, 1), fmt);\n"
    )
    assert change == (at, at, ", DYNAMIC_NAMES")


def test_a_break_before_a_trailing_return_type_is_not_carried() -> None:
    text = "auto range_end(T&& rng) -> decltype(rng.end()) {\n"
    end = text.index("->")
    change = keep_site_layout(text, 0, end, "FMT_CONSTEXPR auto range_end(T&& rng)\n    ", "cpp")
    assert _apply(text, change) == "FMT_CONSTEXPR auto range_end(T&& rng) -> decltype(rng.end()) {\n"


def test_a_break_the_example_removed_stays_at_the_site() -> None:
    text = "x = call(alpha,\n         beta)\n"
    start, end = text.index("call"), len(text) - 1
    change = keep_site_layout(text, start, end, "invoke(alpha, beta)", "python")
    assert _apply(text, change) == "x = invoke(alpha,\n         beta)\n"


def test_a_reformatting_is_the_change_and_is_left_whole() -> None:
    text = "    sppi = (INFO *) \\\n        malloc(ncpus * sizeof(INFO));\n"
    start, end = text.index(" \\"), len(text) - 1
    new = "malloc(\n        ncpus * sizeof(INFO)\n    );"
    # punctuation and blanks only: no name, number or string written or removed
    assert keep_site_layout(text, start, end, new, "c") == (start, end, new)


def test_a_change_of_indentation_alone_is_part_of_the_change() -> None:
    text = "if (a) {\n    run(x);\n}\n"
    start, end = text.index("{"), text.index("}")
    new = "{\n        run(y);\n"
    assert keep_site_layout(text, start, end, new, "c") == (start, end, new)


def test_a_python_break_outside_brackets_is_kept() -> None:
    text = "if ready: return old\n"
    start = text.index(" return")
    change = keep_site_layout(text, start, len(text) - 1, "\n    return new", "python")
    assert _apply(text, change) == "if ready:\n    return new\n"


def test_a_python_break_inside_brackets_is_not_carried() -> None:
    text = "result = convert(pipe(first, second))\n"
    start, end = text.index("pipe("), len(text) - 1
    change = keep_site_layout(text, start, end, "pipe(\n    first, second\n).converter)", "python")
    assert _apply(text, change) == "result = convert(pipe(first, second).converter)\n"


def test_a_site_on_a_minified_line_is_left_as_the_rule_has_it() -> None:
    # one line of 300,000 characters: the site's line is past the window, not read whole
    text = "var a=f(x);" * 30_000
    at = text.index("f(x)", 150_000)
    change = (at, at + 4, "g(\n  x)")
    assert keep_site_layout(text, *change, "javascript") == change


def test_a_change_with_no_line_break_is_untouched() -> None:
    text = "f(a, b)\n"
    assert keep_site_layout(text, 4, 5, "c", "c") == (4, 5, "c")


def test_the_engine_offers_the_change_without_the_examples_wrapping() -> None:
    text = (
        "void a() {\n  return parse_tail<Args, POS + 2, ID>(make_text(str, POS, 1), fmt);\n}\n\n"
        "namespace deep {\nnamespace deeper {\nvoid b() {\n"
        "          return parse_tail<Args, POS + 1, ID>(make_text(str, POS, 2), fmt);\n}\n}\n}\n"
    )
    script = Script(text, "cpp", "file:///w/compile.h")
    script.change(
        "  return parse_tail<Args, POS + 2, ID>(make_text(str, POS, 1), fmt);",
        "  return parse_tail<Args, POS + 2, ID, DYNAMIC_NAMES>(\n      make_text(str, POS, 1), fmt);",
    )
    applied = script.applied("repeat")
    site = "          return parse_tail<Args, POS + 1, ID, DYNAMIC_NAMES>(make_text(str, POS, 2), fmt);\n"
    assert any(site in t for t in applied), applied
    # nowhere is the example's break carried to the site
    assert not any("ID, DYNAMIC_NAMES>(\n" in t.split("namespace deep", 1)[1] for t in applied)


_CODE = st.text(alphabet=st.sampled_from(list("ab1_(),.;: \n\t\\\"'#")), max_size=60)


@settings(max_examples=1000, deadline=None)
@given(
    text=_CODE,
    new=_CODE,
    span=st.tuples(st.integers(0, 60), st.integers(0, 60)),
    language=st.sampled_from(["python", "ruby", "c", "javascript", None]),
)
def test_the_site_gets_the_changes_tokens_whatever_its_blanks(
    text: str, new: str, span: tuple[int, int], language: str | None
) -> None:
    start, end = sorted(min(x, len(text)) for x in span)
    got = keep_site_layout(text, start, end, new, language)
    s, e, n = got
    assert 0 <= s <= e <= len(text)
    wanted = _apply(text, (start, end, new))
    # the same tokens as the developer's change; only blanks between them may differ
    assert [t.text for t in tokenize(_apply(text, got))] == [t.text for t in tokenize(wanted)]
    if got != (start, end, new):
        assert _apply(text, got) != text
