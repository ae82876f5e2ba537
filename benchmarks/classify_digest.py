"""Digest of how every identifier of a corpus classifies: a before/after check.

Classifies every identifier node of every file the given traces open (the
``open`` events' text, each distinct text once per language) with
:class:`nextedit.syntax.name_resolution.Resolver` — reference, member,
keyword, or definition with its kind and ``#set! scope`` setting — and prints
one SHA-256 digest per language and a pooled one. A change to how
classification runs (which patterns compile, what matches in Python) must
leave every digest identical.

C and C++ files are parsed as both ``c`` and ``cpp`` (trace sets label C++
headers ``c``); ``--generated`` adds the ~5k-line generated files of
``benchmarks/perf/languages.py`` for the languages asked for.

Usage::

    python benchmarks/classify_digest.py --languages c,cpp --generated \\
        /work/shared/traces/train/fmt.jsonl.gz /work/shared/traces/train/jq.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import tree_sitter

from nextedit.syntax import SyntaxTree
from nextedit.syntax.name_resolution import Occurrence, Resolver
from nextedit.syntax.query_analysis import identifier_node_types

sys.path.insert(0, str(Path(__file__).resolve().parent / "perf"))
from languages import source as generated_source  # noqa: E402

# languageId of a trace -> languages its text is parsed as
_PARSE_AS = {
    "c": ("c", "cpp"),
    "cpp": ("c", "cpp"),
    "python": ("python",),
    "rust": ("rust",),
    "go": ("go",),
    "java": ("java",),
    "ruby": ("ruby",),
    "javascript": ("javascript",),
    "typescript": ("typescript",),
    "typescriptreact": ("tsx",),
}


def _trace_texts(paths: list[str]) -> Iterator[tuple[str, str]]:
    """``(languageId, text)`` of every ``open`` event."""
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8") as f:
            for line in f:
                event = json.loads(line)
                if event.get("kind") == "open":
                    yield event["languageId"], event["text"]


def _identifier_nodes(root: tree_sitter.Node, types: frozenset[str]) -> Iterator[tree_sitter.Node]:
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None and node.type in types and node.end_byte > node.start_byte:
            yield node
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


def _describe(value: int | Occurrence | None) -> str:
    if value is None or isinstance(value, int):
        return repr(value)
    return f"m{int(value.member)}k{int(value.keyword)}d{int(value.definition)}:{value.def_kind}:{value.setting}"


def classify_all(language: str, text: str) -> tuple[int, list[str]]:
    """``(identifiers, lines)``: one line per identifier node of ``text``."""
    source = text.encode("utf-8")
    tree = SyntaxTree.parse(language, source)
    types = identifier_node_types(language)
    resolvers: dict[bytes, Resolver] = {}
    lines = []
    for node in _identifier_nodes(tree.root, types):
        name = source[node.start_byte : node.end_byte]
        resolver = resolvers.get(name)
        if resolver is None:
            resolver = resolvers[name] = Resolver(tree, source, name)
        lines.append(f"{node.start_byte}:{node.type}:{_describe(resolver.classify(node.start_byte))}")
    return len(lines), lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("traces", nargs="*", help="trace files (.jsonl or .jsonl.gz)")
    parser.add_argument("--languages", default="", help="comma-separated: only these parse languages")
    parser.add_argument("--generated", action="store_true", help="add the ~5k-line generated file of each language")
    args = parser.parse_args(argv)
    wanted = {s for s in args.languages.split(",") if s}
    jobs: list[tuple[str, str, str]] = []  # (language, label, text)
    seen: set[tuple[str, str]] = set()
    for language_id, text in _trace_texts(args.traces):
        for language in _PARSE_AS.get(language_id, ()):
            key = (language, hashlib.sha256(text.encode("utf-8")).hexdigest())
            if (wanted and language not in wanted) or key in seen:
                continue
            seen.add(key)
            jobs.append((language, key[1][:12], text))
    if args.generated:
        for language in sorted(wanted):
            try:
                jobs.append((language, "generated-5000", generated_source(language, 5000).text))
            except KeyError:
                print(f"no generated file for {language}", file=sys.stderr)
    pooled = hashlib.sha256()
    per_language: dict[str, tuple[int, int, hashlib._Hash]] = {}
    started = time.perf_counter()
    for language, label, text in sorted(jobs):
        count, lines = classify_all(language, text)
        files, total, digest = per_language.get(language, (0, 0, hashlib.sha256()))
        blob = (f"{language} {label}\n" + "\n".join(lines) + "\n").encode()
        digest.update(blob)
        pooled.update(blob)
        per_language[language] = (files + 1, total + count, digest)
    for language, (files, total, digest) in sorted(per_language.items()):
        print(f"{language:<11} files={files:<4} identifiers={total:<8} digest={digest.hexdigest()[:16]}")
    all_ids = sum(t for _f, t, _d in per_language.values())
    print(f"{'pooled':<11} files={len(jobs):<4} identifiers={all_ids:<8} digest={pooled.hexdigest()[:16]}")
    print(f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
