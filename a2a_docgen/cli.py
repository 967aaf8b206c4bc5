"""The ``a2a-docgen`` command line: a thin shell over the library.

Every subcommand lives in ``a2a_docgen/commands/<name>.py`` with two functions: ``register(subparsers)``
adds its parser, and ``run(args) -> int`` does the work. This module is the one place that turns errors
into messages and exit codes: 0 success, 1 findings (errors, breaking changes), 2 usage errors.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from a2a_docgen import __version__
from a2a_docgen.errors import A2ADocgenError, BuildFailed, UsageError

COMMANDS: tuple[str, ...] = ("check", "build", "diff", "fetch")
"""Subcommands, in the order ``--help`` lists them (modules in ``a2a_docgen.commands``)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="a2a-docgen",
        description="Check, document and review A2A Agent Cards.",
        epilog="Run 'a2a-docgen COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"a2a_docgen.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code instead of exiting (so tests can call it)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors and 0 after --help
        return int(exc.code or 0)
    try:
        result: int = args.run(args)
    except UsageError as exc:
        print(f"a2a-docgen {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BuildFailed as exc:
        print(f"a2a-docgen {args.command}: {exc}", file=sys.stderr)
        return 1
    except A2ADocgenError as exc:
        print(f"a2a-docgen {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"a2a-docgen {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `a2a-docgen check . | head`
        return 0
    return result
