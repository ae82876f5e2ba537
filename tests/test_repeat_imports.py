"""A deleted import is repeated only where the file no longer needs it.

The developer deletes an import once nothing uses it; the same deletion at
another import applies only if that one is unused too (else the code breaks,
and the developer left it on purpose): :func:`deletes_a_used_import`, the
repeat suggester's guard.
"""

from __future__ import annotations

import pytest

from nextedit.suggest.imports import deletes_a_used_import
from tests.helpers.repeat import Editor, suggest_context

JAVA = """package a;

import java.util.Deque;
import java.util.List;
import java.util.Set;

class A {
    Set<String> names;
}
"""

PYTHON = """from os import path
from os import getcwd as cwd
import json

def here():
    return cwd()
"""

JAVASCRIPT = """import {a, b as c} from './m';
import d from './d';

export const e = c(1);
"""

RUST = """use std::fmt;
use std::io::{Read, Write as W};

fn f(x: &mut dyn W) {}
"""

GO = """package p

import (
\t"net/http"
\tal "x/yaml"
)

var _ = http.Get
"""


TS_LIST = """import {
    isSpyEnabled,
    spyReportEnd,
    IAtom,
} from "../internal"

export const atom: IAtom = make(spyReportEnd)
"""

PY_LIST = """from os import (
    getcwd,
    path as p,
    sep,
)

print(p.join(getcwd()))
"""

RUST_LIST = """use std::io::{
    Read,
    Write,
};

fn f(x: &mut dyn Write) {}
"""


@pytest.mark.parametrize(
    ("language", "text", "used", "unused"),
    [
        ("java", JAVA, "import java.util.Set;\n", "import java.util.List;\n"),
        ("python", PYTHON, "from os import getcwd as cwd\n", "from os import path\n"),
        ("python", PYTHON, "from os import getcwd as cwd\n", "import json\n"),
        ("javascript", JAVASCRIPT, "import {a, b as c} from './m';\n", "import d from './d';\n"),
        ("rust", RUST, "use std::io::{Read, Write as W};\n", "use std::fmt;\n"),
        ("go", GO, '\t"net/http"\n', '\tal "x/yaml"\n'),
        # mobx deleted the names its files stopped using, one line of a list
        # at a time: a name of the list still read is refused as a whole import is
        ("typescript", TS_LIST, "    spyReportEnd,\n", "    isSpyEnabled,\n"),
        ("typescript", TS_LIST, "    spyReportEnd,\n    IAtom,\n", "    isSpyEnabled,\n"),
        ("python", PY_LIST, "    path as p,\n", "    sep,\n"),
        ("rust", RUST_LIST, "    Write,\n", "    Read,\n"),
    ],
)
def test_deleting_an_import_the_file_still_reads_is_refused(language: str, text: str, used: str, unused: str) -> None:
    ctx = suggest_context(Editor(text), syntax=True, language=language)
    start = text.index(used)
    assert deletes_a_used_import(ctx, start, start + len(used), "")
    start = text.index(unused)
    assert not deletes_a_used_import(ctx, start, start + len(unused), "")


def test_a_name_list_outside_an_import_is_not_judged() -> None:
    text = "def f(a, b):\n    return g(a,\n        b,\n    )\n"
    ctx = suggest_context(Editor(text), syntax=True, language="python")
    start = text.index("        b,\n")
    assert not deletes_a_used_import(ctx, start, start + len("        b,\n"), "")


def test_a_deletion_written_with_kept_context_is_read_as_the_deletion() -> None:
    """A repeat rule may rewrite ``;\\nimport X;\\nimport`` as ``;\\nimport``:
    the text kept on both sides is not part of what it deletes."""
    ctx = suggest_context(Editor(JAVA), syntax=True, language="java")
    start = JAVA.index(";\nimport java.util.Set;")
    end = start + len(";\nimport java.util.Set;\n\nclass")
    assert deletes_a_used_import(ctx, start, end, ";\n\nclass")
    start = JAVA.index(";\nimport java.util.List;")
    end = start + len(";\nimport java.util.List;\nimport")
    assert not deletes_a_used_import(ctx, start, end, ";\nimport")


def test_anything_but_a_deletion_is_not_judged() -> None:
    ctx = suggest_context(Editor(JAVA), syntax=True, language="java")
    start = JAVA.index("import java.util.Set;")
    assert not deletes_a_used_import(ctx, start, start + len("import java.util.Set;"), "import java.util.Map;")
