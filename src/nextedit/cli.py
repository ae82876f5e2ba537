"""The `nextedit` command line: one sub-command per front end or tool.

Each sub-command lives in its own ``command.py`` and registers itself through
``register(subparsers, common)``; heavy imports happen inside the command's
``run`` so that ``nextedit --help`` and ``nextedit acp`` start fast.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from nextedit import __version__

# module path of each sub-command group, in help order
_COMMAND_MODULES = (
    "nextedit.acp.command",
    "nextedit.lsp.command",
    "nextedit.bench.command",
    "nextedit.feedback.command",
)


def _common_options(defaults: bool) -> argparse.ArgumentParser:
    """Logging flags, accepted before and after the sub-command.

    Only the top-level copy has defaults; the sub-command copies use
    ``SUPPRESS`` so ``nextedit --log-level debug acp`` is not reset.
    """
    common = argparse.ArgumentParser(add_help=False)
    default = (lambda value: value) if defaults else (lambda value: argparse.SUPPRESS)
    common.add_argument(
        "--log-level",
        default=default("warning"),
        choices=["debug", "info", "warning", "error"],
        help="log verbosity (logs go to stderr, never stdout)",
    )
    common.add_argument("--log-file", default=default(None), help="also write logs to this file")
    return common


def setup_logging(level: str, log_file: str | None) -> None:
    """Send logs to stderr (stdout carries the protocol) and optionally a file."""
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_file:
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    logging.basicConfig(
        level=getattr(logging, level.upper()),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        handlers=handlers,
        force=True,
    )


class _SubcommandParser(argparse.ArgumentParser):
    """A sub-command's parser: an unknown flag is reported with *its* usage, not the top level's."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def build_parser() -> argparse.ArgumentParser:
    common = _common_options(defaults=False)
    parser = argparse.ArgumentParser(
        prog="nextedit",
        description="Next Edit Suggestions engine",
        parents=[_common_options(defaults=True)],
    )
    parser.add_argument("--version", action="version", version=f"nextedit {__version__}")
    # not `required=True`: argparse would then report a missing command before an unknown flag
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_SubcommandParser)
    for module_name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:  # a front end not built yet
            if exc.name != module_name:
                raise
            continue
        module.register(subparsers, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "command", None) is None:
        parser.error("the following arguments are required: COMMAND")
    setup_logging(args.log_level, args.log_file)
    return int(args.run(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
