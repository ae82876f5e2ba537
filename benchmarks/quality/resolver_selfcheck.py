"""A self-check of the binding resolver on real documents: where it joins what no reader would.

Reads the documents that trace files open (the first version of each) and,
for a sample of identifiers per document, asks
:func:`nextedit.syntax.scopes.binding_occurrences` two questions whose
answers a correct resolver never gets wrong:

- **qualified**: a plain definition's binding (a parameter, a local, a
  top-level function or type, not a member of a class, impl or namespace
  body) holds an occurrence written right after ``.``, ``::`` or ``->``.
  That is most often another item's name (``testing.B`` joined to a
  parameter ``B``; ``Deserializer::deserialize_tuple`` inside ``quote!``
  joined to a free function). Some hits are right (C++'s ``detail::f`` for a
  function of this file's ``namespace detail``): each is listed for a reader
  to judge.
- **asymmetric**: asked at any occurrence of a binding, the resolver must
  answer the same binding.

It found the Rust macro-path, Go qualified-type and TypeScript
nested-type faults of 2026-12-05 (``benchmarks/results/quality-trials-session51.md``).

Usage::

    python benchmarks/quality/resolver_selfcheck.py ../shared/traces/*/*.jsonl.gz \\
        [--docs 25] [--names 40] [--seed 1] [--examples 6]
"""

from __future__ import annotations

import argparse
import collections
import random
from collections.abc import Iterator
from pathlib import Path

from tree_sitter import Node

from nextedit.bench.events import Open
from nextedit.bench.readers import read_nes_trace
from nextedit.suggest.rename.binding import is_definition_name
from nextedit.syntax import SyntaxTree, scopes
from nextedit.syntax.languages import language_for

# languages with scope queries in grammars/
LANGUAGES = frozenset({"python", "javascript", "typescript", "tsx", "rust", "go", "java", "c", "cpp", "ruby"})
# node types a rename may touch, across those grammars
_NAME_TYPES = frozenset({"identifier", "type_identifier", "field_identifier", "property_identifier", "constant"})
# bodies whose definitions are members (their qualified uses are theirs)
_MEMBER_BODIES = frozenset(
    {
        "class_definition",
        "class_declaration",
        "class_body",
        "class",
        "singleton_class",
        "impl_item",
        "trait_item",
        "declaration_list",
        "field_declaration_list",
        "struct_item",
        "enum_item",
        "enum_variant_list",
        "class_specifier",
        "struct_specifier",
        "enum_specifier",
        "enumerator_list",
        "field_declaration",
        "interface_declaration",
        "enum_declaration",
        "method_declaration",
        "type_declaration",
        "namespace_definition",
        "mod_item",
        "object",  # a JavaScript/TypeScript object literal's methods and keys
        "object_type",
        "interface_body",
    }
)
# Ruby's module body holds methods; Python's root is also a ``module``
_RUBY_MEMBER_BODIES = _MEMBER_BODIES | {"module"}
_QUALIFIERS = (b".", b"::", b"->")
_MAX_BYTES = 300_000


def opened_documents(path: str) -> Iterator[tuple[str, str, str]]:
    """``(uri, languageId, text)`` of each document's first ``open`` in a trace file."""
    seen: set[str] = set()
    for session in read_nes_trace(path):
        for event in session.events:
            if isinstance(event, Open) and event.uri not in seen:
                seen.add(event.uri)
                yield event.uri, event.language_id, event.text


def _names(root: Node) -> list[Node]:
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type in _NAME_TYPES:
            out.append(node)
        stack.extend(node.children)
    return out


def _in_member_body(node: Node, language: str) -> bool:
    bodies = _RUBY_MEMBER_BODIES if language == "ruby" else _MEMBER_BODIES
    up = node.parent
    while up is not None:
        if up.type in bodies:
            return True
        up = up.parent
    return False


def _qualified(source: bytes, start: int) -> bool:
    before = source[max(0, start - 2) : start]
    # ``..`` is Rust's range and ``...`` a spread, not a member access
    return before.endswith(_QUALIFIERS) and not before.endswith(b"..")


def _line(source: bytes, at: int) -> str:
    start = source.rfind(b"\n", 0, at) + 1
    end = source.find(b"\n", at)
    return source[start : end if end >= 0 else len(source)].decode(errors="replace").strip()[:100]


def check(paths: list[str], docs: int, names: int, seed: int) -> tuple[collections.Counter, dict]:
    """Counts per (language, finding) and up to a few examples of each."""
    rng = random.Random(seed)
    counts: collections.Counter = collections.Counter()
    examples: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    for path in paths:
        documents = list(opened_documents(path))
        rng.shuffle(documents)
        for uri, language_id, text in documents[:docs]:
            language = language_for(language_id, uri, text)
            source = text.encode()
            if language not in LANGUAGES or len(source) > _MAX_BYTES:
                continue
            tree = SyntaxTree.parse(language, source)
            nodes = _names(tree.root)
            rng.shuffle(nodes)
            for node in nodes[:names]:
                if _qualified(source, node.start_byte):
                    continue
                binding = scopes.binding_occurrences(tree, source, node.start_byte) or []
                counts[(language, "names")] += 1
                name = Path(uri).name
                if is_definition_name(node) and not _in_member_body(node, language):
                    for start, _end in binding:
                        if _qualified(source, start):
                            counts[(language, "qualified")] += 1
                            examples[(language, "qualified")].append(
                                f"{name}: {source[node.start_byte : node.end_byte].decode()} <- {_line(source, start)}"
                            )
                            break
                if len(binding) < 2:
                    continue
                wanted = set(binding)
                for start, _end in binding:
                    if set(scopes.binding_occurrences(tree, source, start) or []) != wanted:
                        counts[(language, "asymmetric")] += 1
                        examples[(language, "asymmetric")].append(
                            f"{name}: {_line(source, node.start_byte)} | asked at: {_line(source, start)}"
                        )
                        break
    return counts, examples


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("traces", nargs="+", help="nes-trace/1 files (.jsonl or .jsonl.gz)")
    ap.add_argument("--docs", type=int, default=25, help="documents sampled per trace file")
    ap.add_argument("--names", type=int, default=40, help="names sampled per document")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--examples", type=int, default=6, help="examples listed per finding")
    args = ap.parse_args(argv)
    counts, examples = check(args.traces, args.docs, args.names, args.seed)
    languages = sorted({language for language, _ in counts})
    print("| language | names asked | qualified use of a plain definition | asymmetric binding |")
    print("|---|---:|---:|---:|")
    for language in languages:
        row = [counts[(language, k)] for k in ("names", "qualified", "asymmetric")]
        print(f"| {language} | {row[0]} | {row[1]} | {row[2]} |")
    for (language, finding), lines in sorted(examples.items()):
        print(f"\n{language}, {finding}:")
        for line in lines[: args.examples]:
            print(f"- {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
