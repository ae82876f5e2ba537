"""evolve: a frozen value with some fields changed, as dataclasses.replace makes it."""

from __future__ import annotations

import dataclasses

import pytest

from nextedit.frozen import evolve
from nextedit.history.edit_history import DeveloperEdit
from nextedit.suggest.repeat.model import PastEdit, make_rule


def test_changed_fields_are_new_and_the_original_is_untouched() -> None:
    edit = DeveloperEdit("file:///a.py", 3, 7, 10, "foo", "bar", token_start_cp=10, extra={"k": 1})
    moved = evolve(edit, start_cp=14, token_start_cp=14, extra={})
    assert moved == dataclasses.replace(edit, start_cp=14, token_start_cp=14, extra={})
    assert (moved.start_cp, moved.new_end_cp, moved.extra) == (14, 17, {})
    assert (edit.start_cp, edit.extra) == (10, {"k": 1})
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.start_cp = 0  # type: ignore[misc]


def test_a_rule_moved_keeps_its_pattern_and_takes_its_new_examples() -> None:
    rule = make_rule(["f(", 0, ")"], ["g(", 0, ")"], ["ident"], 2, 3.0, (PastEdit(1, "f", "g"),))
    moved = evolve(rule, examples=(PastEdit(9, "f", "g"),), info={"a_span": (9, 10)})
    assert moved.examples == (PastEdit(9, "f", "g"),)
    assert moved.info == {"a_span": (9, 10)} and rule.info == {}
    assert moved.regex.pattern == rule.regex.pattern and moved.replacement == rule.replacement
    assert moved == dataclasses.replace(rule, examples=(PastEdit(9, "f", "g"),))
