"""The ``a2a-docgen`` command line: a thin shell over the library.

Every subcommand lives in ``a2a_docgen/commands/<name>.py`` with two functions: ``register(subparsers)``
adds its parser, and ``run(args) -> int`` does the work. Only the chosen command's module is imported (so
``check`` never loads the renderer or the HTTP client); ``--help`` lists every command from ``COMMANDS``.
This module is the one place that turns errors into messages and exit codes: 0 success, 1 findings (errors,
breaking changes), 2 usage errors.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from a2a_docgen.errors import A2ADocgenError, BuildFailed, UsageError
from a2a_docgen.version import __version__

COMMANDS: dict[str, str] = {
    "init": "write a new site project for MkDocs, ProperDocs or Zensical",
    "check": "validate Agent Cards against the A2A specification",
    "build": "render Agent Cards into Markdown pages",
    "search-index": "index a built site's agent pages for the catalogue search (Pagefind)",
    "diff": "report what a change to Agent Cards breaks for clients",
    "fetch": "download Agent Cards from running agents",
    "sign": "add a JWS signature to an Agent Card",
    "convert": "write Agent Cards in the v1.0 shape",
}
"""Subcommands and their one-line help (each module's ``HELP``), in the order ``--help`` lists them."""


def command_module(name: str) -> str:
    """The module of command ``name`` (``search-index``: ``a2a_docgen.commands.search_index``)."""
    return f"a2a_docgen.commands.{name.replace('-', '_')}"


def chosen_command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first argument that is not an option (the top-level options take no
    value), when that is a command."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    return first if first in COMMANDS else None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with the options of ``command`` (its module is imported to register them); every other
    command is listed by name and help only."""
    parser = argparse.ArgumentParser(
        prog="a2a-docgen",
        description="Check, document and review A2A Agent Cards.",
        epilog="Run 'a2a-docgen COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, summary in COMMANDS.items():
        if name == command:
            importlib.import_module(command_module(name)).register(subparsers)
        else:
            subparsers.add_parser(name, help=summary, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code instead of exiting (so tests can call it)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(chosen_command(arguments))
    try:
        args = parser.parse_args(arguments)
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
