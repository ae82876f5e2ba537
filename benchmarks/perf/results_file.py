"""What every perf benchmark records beside its figures, and how it writes them.

Each script writes ``NAME.json`` (all figures, the command, machine and date)
and ``NAME.md`` (the same as tables) under ``benchmarks/results/``.
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def run_metadata(argv: Sequence[str] | None) -> dict[str, str]:
    """The command as typed, the machine and the date."""
    command = [str(Path(sys.argv[0])), *(argv if argv is not None else sys.argv[1:])]
    return {
        "command": "python " + " ".join(shlex.quote(a) for a in command),
        "machine": f"{platform.machine()} {platform.system()} {platform.release()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }


def metadata_lines(results: dict[str, Any], *, more: bool = False) -> list[str]:
    """The record's command, machine and date as markdown lines (a hard
    break after each; after the date too when ``more`` text follows it)."""
    return [
        f"Command: `{results['command']}`  ",
        f"Machine: {results['machine']}  ",
        f"Date: {results['date']}" + ("  " if more else ""),
    ]


def write_results(
    out: Path, results: dict[str, Any], notes: Path | None, markdown: Callable[[dict[str, Any]], str]
) -> None:
    """Add the notes file's text, write ``out.json`` and ``out.md``, print the markdown."""
    if notes:
        results["notes"] = notes.read_text().strip()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    out.with_suffix(".md").write_text(markdown(results))
    print(markdown(results))
