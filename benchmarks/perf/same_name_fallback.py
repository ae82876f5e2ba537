"""The same-name lookup of a language without a grammar on a large file (thread CPU).

The rename suggester falls back to plain tokens (:mod:`nextedit.syntax.tokens`)
when a language has no grammar: every suggest that checks a rename asks for
the occurrences of one name. This times :func:`same_name_occurrences` against
the lookup it replaced (cut the whole text into token objects, then pick the
word at the offset and its equals, :func:`tokenize` + :func:`word_at`), on a
generated C-like file with comments, strings and numbers, or on a file of a
trace. Figures: ``benchmarks/results/same-name-fallback.md``.

    python benchmarks/perf/same_name_fallback.py [--lines 5000] [--runs 7]
    python benchmarks/perf/same_name_fallback.py --trace ../shared/traces/train/fmt.jsonl.gz --file format.h
"""

from __future__ import annotations

import argparse
import gc
import re
import statistics
import time
from collections.abc import Callable

from nextedit.bench.events import Open
from nextedit.bench.readers import load_sessions
from nextedit.syntax.tokens import same_name_occurrences, tokenize, word_at

_NAME = re.compile(r"(?<![\w$.])[A-Za-z_]\w*")


def _by_tokens(text: str, cp_offset: int) -> list[tuple[int, int]] | None:
    """The lookup before: every token of the text an object, then the word at the offset and its equals."""
    tokens = tokenize(text)
    word = word_at(tokens, cp_offset)
    return None if word is None else [t[1:3] for t in tokens if t.kind == "word" and t.text == word.text]


def _generated(lines: int) -> str:
    out = []
    for i in range(lines // 5):
        out.append(f"/* block {i}: reads cfg_{i % 7} and value */")
        out.append(f"static int step_{i}(struct cfg *cfg, int value) {{")
        out.append(f'    log("step {i}: %d", value + {i}.5); // value')
        out.append(f"    return cfg->scale * value + step_{max(0, i - 1)}(cfg, {i});")
        out.append("}")
    return "\n".join(out) + "\n"


def _first_open(trace: str, name: str) -> str:
    for session in load_sessions(trace):
        for event in session.events:
            if isinstance(event, Open) and event.uri.endswith("/" + name):
                return event.text
    raise SystemExit(f"{name}: not opened in {trace}")


def _time(lookup: Callable[[str, int], object], text: str, offsets: list[int], runs: int) -> tuple[float, float]:
    """Median and max thread CPU (ms) of one lookup, garbage collection included."""
    times = []
    for _ in range(runs):
        for offset in offsets:
            gc.collect()
            start = time.thread_time()
            lookup(text, offset)
            times.append((time.thread_time() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--trace")
    ap.add_argument("--file")
    args = ap.parse_args()
    text = _first_open(args.trace, args.file) if args.trace else _generated(args.lines)
    # the first name at a tenth, half and nine tenths of the text
    offsets = []
    for frac in (0.1, 0.5, 0.9):
        found = _NAME.search(text, int(len(text) * frac))
        offsets.append(found.start() if found is not None else 0)
    for offset in offsets:
        assert same_name_occurrences(text, offset) == _by_tokens(text, offset)
    what = f"{args.file} from {args.trace}" if args.trace else f"generated, {args.lines} lines"
    print(f"{what}: {len(text)} chars, names {[text[o : o + 12].split()[0] for o in offsets]}")
    for label, lookup in (("whole token list", _by_tokens), ("one scan", same_name_occurrences)):
        median, worst = _time(lookup, text, offsets, args.runs)
        print(f"  {label:16s} median {median:6.2f} ms, max {worst:6.2f} ms")


if __name__ == "__main__":
    main()
