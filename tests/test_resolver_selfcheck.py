"""The resolver self-check (``benchmarks/quality/resolver_selfcheck.py``): what it counts as a
plain definition reached through a qualifier, on documents a trace opens."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "quality"))
import resolver_selfcheck  # noqa: E402


def _trace(path: Path, documents: dict[str, tuple[str, str]]) -> str:
    events = [{"kind": "header", "trace": "t", "format": "nes-trace/1"}]
    for uri, (language_id, text) in documents.items():
        events.append({"kind": "open", "trace": "t", "uri": uri, "languageId": language_id, "version": 1, "text": text})
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return str(path)


def test_a_file_function_reached_through_a_qualifier_is_reported_and_a_local_is_not(tmp_path: Path):
    # ``::format()`` is the file's function reached through the global
    # qualifier (listed for a reader to judge); ``fmt::pipe`` never reaches
    # the local ``pipe`` (name_resolution's qualified names), nor
    # ``testing.B`` the parameter ``B``
    cpp = (
        "int format();\nint twice() { return ::format() * 2; }\nnamespace fmt { int pipe(); }\n"
        "void f() {\n  auto pipe = fmt::pipe();\n  (void)pipe;\n}\n"
    )
    go = 'package p\n\nimport "testing"\n\nfunc BenchmarkX(B *testing.B) {\n\tB.ReportAllocs()\n}\n'
    trace = _trace(tmp_path / "t.jsonl", {"file:///w/a.cc": ("cpp", cpp), "file:///w/b_test.go": ("go", go)})
    counts, examples = resolver_selfcheck.check([trace], docs=10, names=100, seed=1)
    assert counts[("cpp", "qualified")] == 1
    assert any("format <- int twice() { return ::format() * 2; }" in line for line in examples[("cpp", "qualified")])
    assert not any("pipe" in line for line in examples[("cpp", "qualified")])
    assert counts[("go", "names")] > 0 and counts[("go", "qualified")] == 0
    assert counts[("cpp", "asymmetric")] == counts[("go", "asymmetric")] == 0
