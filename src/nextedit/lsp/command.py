"""``nextedit lsp``: the LSP bridge over stdio (registered by :mod:`nextedit.cli`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from nextedit.settings import Settings, add_flags

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "lsp",
        parents=[common],
        help="run the LSP bridge on stdio (Neovim, Emacs, Helix, ...)",
        description=(
            "Serve next edit suggestions over the Language Server Protocol on stdin/stdout: "
            "textDocument/copilotInlineEdit, textDocument/inlineCompletion and code actions."
        ),
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        help="where feedback.jsonl is kept (default: $XDG_STATE_HOME/nextedit)",
    )
    add_flags(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from nextedit.lsp.server import create_server

    return create_server(args.state_dir, Settings.from_flags(args)).serve_stdio()
