"""`nextedit acp`: run the ACP NES agent on stdin/stdout.

Owns only the command line; the agent lives in :mod:`nextedit.acp.server`
(imported when the command runs, so ``nextedit --help`` stays fast).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from nextedit.settings import Settings, add_flags

__all__ = ["register", "run", "settings_from_argv"]


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "acp",
        parents=[common],
        help="run the ACP NES agent on stdio (newline-delimited JSON-RPC 2.0)",
        description="Serve ACP Next Edit Suggestions on stdin/stdout. Logs go to stderr "
        "(and --log-file), never stdout.",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        help="where feedback.jsonl lives (default: $XDG_STATE_HOME/nextedit or ~/.local/state/nextedit)",
    )
    add_flags(parser)
    parser.set_defaults(run=run)


def settings_from_argv(argv: list[str]) -> Settings:
    """The settings ``nextedit acp ARGV`` would run with (the suggestion and provider flags);
    :class:`argparse.ArgumentError` for a value it would refuse."""
    parser = argparse.ArgumentParser(prog="nextedit acp", add_help=False, exit_on_error=False)
    add_flags(parser)
    return Settings.from_flags(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    from nextedit.acp.server import main

    return main(args.state_dir, Settings.from_flags(args))
