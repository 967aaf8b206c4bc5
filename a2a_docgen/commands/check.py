"""``a2a-docgen check``: validate Agent Cards and report every problem with its place in the file.

Exit status: 0 when no card has an error (warnings allowed unless ``--strict``), 1 otherwise, 2 for usage
errors (a path that does not exist, a bad option). A broken card is a finding, never a crash.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from a2a_docgen.catalog import load_catalog
from a2a_docgen.errors import UsageError
from a2a_docgen.limits import DEFAULT_LIMITS, LIMIT_NAMES, Limits
from a2a_docgen.report_formats import FORMATS, exit_code, format_diagnostics, summary
from a2a_docgen.signing import Trust

__all__ = [
    "add_limit_options",
    "add_signing_options",
    "default_catalogue",
    "limits_from_args",
    "register",
    "run",
    "trust_from_args",
]

HELP = "validate Agent Cards against the A2A specification"
DESCRIPTION = """\
Validate Agent Cards (A2A v1.0, v0.3 and older shapes) and report every problem as
file:line:column with a stable code (see docs/diagnostics.md). PATH is a card file or a
directory, scanned recursively for *.json (including .well-known/agent-card.json and
the legacy .well-known/agent.json). Without PATH, the bundled example catalogue is checked.

exit status: 0 no error (warnings allowed unless --strict), 1 errors found, 2 usage error"""


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text!r}")
    return value


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    """One ``--max-...`` option per field of ``Limits`` (shared by the commands that read cards)."""
    group = parser.add_argument_group("limits", "upper bounds on what one card may contain")
    for name in LIMIT_NAMES:
        default = getattr(DEFAULT_LIMITS, name)
        group.add_argument(
            Limits.option_name(name),
            dest=name,
            type=positive_int,
            metavar="N",
            default=None,
            help=f"(default {default})",
        )


def limits_from_args(args: argparse.Namespace) -> Limits:
    """The limits the ``--max-...`` options set, defaults for the rest."""
    return DEFAULT_LIMITS.with_overrides(**{name: getattr(args, name, None) for name in LIMIT_NAMES})


def add_signing_options(parser: argparse.ArgumentParser) -> None:
    """``--jwks``, ``--keys``, ``--trust-jku``, ``--jku-origin``, ``--require-signature`` (docs/signing.md)."""
    group = parser.add_argument_group("signatures", "verify card signatures (docs/signing.md)")
    group.add_argument(
        "--jwks", action="append", default=[], metavar="FILE", help="a JWK set of trusted keys (repeatable)"
    )
    group.add_argument(
        "--keys", metavar="FILE", help="a keys file (TOML) pinning keys to agents or providers"
    )
    group.add_argument(
        "--trust-jku",
        action="store_true",
        help="fetch and trust the JWK set a signature's jku names (card's origin)",
    )
    group.add_argument(
        "--jku-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="with --trust-jku, also fetch a jku from this origin (https://host[:port]; repeatable)",
    )
    group.add_argument(
        "--require-signature",
        action="store_true",
        help="a card without a signature that verifies is an error",
    )


def trust_from_args(args: argparse.Namespace, limits: Limits) -> Trust:
    """The keys and signature options the command line gives."""
    from a2a_docgen.signing import load_trust

    jku = None
    if args.trust_jku:
        from a2a_docgen.commands.jku import FetchingJkuResolver

        jku = FetchingJkuResolver(args.jku_origin, limits=limits)
    elif args.jku_origin:
        raise UsageError("--jku-origin needs --trust-jku")
    return load_trust(args.jwks, args.keys, jku=jku, require=args.require_signature)


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "check", help=HELP, description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="card files or directories")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: file:line:col lines (default); json: an array of objects; github: workflow annotations",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    add_signing_options(parser)
    add_limit_options(parser)
    parser.set_defaults(run=run)


def default_catalogue() -> Path:
    """The example catalogue shipped with a2a-docgen (package data, or ``examples/cards`` of a checkout)."""
    candidates = [
        Path(str(resources.files("a2a_docgen"))) / "examples" / "cards",
        Path(__file__).resolve().parents[2] / "examples" / "cards",
    ]
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    raise UsageError("no PATH given and the example catalogue (examples/cards) is not installed; give a PATH")


def run(args: argparse.Namespace) -> int:
    paths: list[str] = list(args.paths) or [str(default_catalogue())]
    limits = limits_from_args(args)
    catalog = load_catalog(paths, limits=limits, trust=trust_from_args(args, limits))
    files = len(catalog.cards) + len(catalog.excluded)
    if files == 0:
        raise UsageError(f"no card files (*.json) found in {', '.join(paths)}")
    sys.stdout.write(format_diagnostics(catalog.diagnostics, args.format))
    sys.stdout.flush()
    print(summary(files, catalog.diagnostics), file=sys.stderr)
    return exit_code(catalog.diagnostics, strict=args.strict)
