"""``a2a-docgen check``: validate Agent Cards and report every problem with its place in the file.

Exit status: 0 when no card has an error (warnings allowed unless ``--strict``), 1 otherwise, 2 for usage
errors (a path that does not exist, a bad option). A broken card is a finding, never a crash. With
``--grade`` (or ``--min-grade``) the quality hints and one ``card-grade`` line per card are reported too; a
card below ``--min-grade`` makes that line an error.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from a2a_docgen.catalog import load_files
from a2a_docgen.errors import UsageError
from a2a_docgen.limits import DEFAULT_LIMITS, LIMIT_NAMES, Limits
from a2a_docgen.load import CardFile, discover, read_card_file
from a2a_docgen.model import Catalog, Diagnostic
from a2a_docgen.report_formats import (
    FORMATS,
    code_summary,
    exit_code,
    format_diagnostics,
    printable,
    shown,
    summary,
)
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
A file that is an AI Catalog (ai-catalog.json: specVersion and entries, whatever its name)
is checked against its format, and the A2A cards it holds inline are checked as cards.

With --grade, each card is also graded A to F (docs/grading.md): the quality hints
(skills without examples, no provider, ...) and a card-grade line per card are reported.
--min-grade B fails when a card grades below B.

exit status: 0 no error (warnings allowed unless --strict), 1 errors found (or a card
below --min-grade), 2 usage error"""


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
    add_quiet_option(parser)
    parser.add_argument(
        "--grade",
        action="store_true",
        help="also report the quality hints and each card's grade, A to F (docs/grading.md)",
    )
    parser.add_argument(
        "--min-grade",
        type=_grade_letter,
        metavar="LETTER",
        help="exit 1 when a card grades below LETTER (A, B, C, D or F); implies --grade",
    )
    add_signing_options(parser)
    add_limit_options(parser)
    parser.set_defaults(run=run)


def _grade_letter(text: str) -> str:
    from a2a_docgen.quality import parse_letter

    try:
        return parse_letter(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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
    cards, ai_catalogs, ai_findings = _split(discover(paths), limits)
    catalog = load_files(cards, limits=limits, trust=trust_from_args(args, limits))
    files = len(catalog.cards) + len(catalog.excluded) + ai_catalogs
    if files == 0:
        raise UsageError(f"no card files (*.json) found in {', '.join(paths)}")
    diagnostics = list(catalog.diagnostics) + _verified(catalog) + ai_findings
    grades = ""
    if args.grade or args.min_grade:
        found, grades = _graded(catalog, args.min_grade)
        diagnostics += found
    sys.stdout.write(format_diagnostics(shown(diagnostics, quiet=args.quiet), args.format))
    sys.stdout.flush()
    by_code = code_summary([d for d in diagnostics if d.code != "card-grade"])
    if by_code:
        print(printable(by_code), file=sys.stderr)
    print(summary(files, diagnostics) + grades, file=sys.stderr)  # last: the line scripts read
    return exit_code(diagnostics, strict=args.strict)


def _split(files: list[CardFile], limits: Limits) -> tuple[list[CardFile], int, list[Diagnostic]]:
    """The card files, and the number and findings of the files that are AI Catalogs (``ai-catalog.json``:
    recognised by their shape, whatever their name)."""
    from a2a_docgen.aicatalog_files import check_ai_catalog, read_ai_catalog

    cards: list[CardFile] = []
    found: list[Diagnostic] = []
    ai_catalogs = 0
    for card_file in files:
        data = read_card_file(card_file, limits)
        parsed = read_ai_catalog(data, limits) if isinstance(data, bytes) else None
        if parsed is None:
            cards.append(card_file)
        else:
            ai_catalogs += 1
            found += check_ai_catalog(parsed, card_file.display, limits)
    return cards, ai_catalogs, found


def add_quiet_option(parser: argparse.ArgumentParser) -> None:
    """``--quiet``, as ``check`` and ``build`` take it."""
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print only the errors (warnings and hints are still counted in the summary and the line by code)",
    )


def _verified(catalog: Catalog) -> list[Diagnostic]:
    """A ``signature-verified`` hint for each card whose signature verified with a trusted key: with
    ``--jwks``, silence would not tell a verified card from one whose signatures were never checked."""
    from a2a_docgen.diagnostics import SIGNATURE_VERIFIED, diagnostic
    from a2a_docgen.load.source import PositionIndex

    found = []
    for card in catalog.cards:
        verification = catalog.verification(card)
        check = verification.verified_by if verification and verification.status == "verified" else None
        if check is None:
            continue
        line, column = PositionIndex.build(card.source.text).locate(check.pointer)
        message = f"signature {check.number} verified: {check.reason}"
        found.append(
            diagnostic(
                SIGNATURE_VERIFIED,
                message,
                file=card.source.path,
                line=line,
                column=column,
                pointer=check.pointer,
            )
        )
    return found


def _graded(catalog: Catalog, minimum: str | None) -> tuple[list[Diagnostic], str]:
    """The hints and ``card-grade`` line of every card, and the summary's grade counts
    (``; grades: 2 A, 1 C; 1 below B``)."""
    from a2a_docgen.quality import LETTERS, at_least, grade_catalog, grade_diagnostic, parse_letter

    least = parse_letter(minimum) if minimum else None
    found: list[Diagnostic] = []
    letters: dict[str, int] = {}
    below = 0
    for grade in grade_catalog(catalog).values():
        found += grade.hints
        found.append(grade_diagnostic(grade, least))
        letters[grade.letter] = letters.get(grade.letter, 0) + 1
        below += least is not None and not at_least(grade.letter, least)
    if not letters:
        return found, ""
    text = "; grades: " + ", ".join(f"{letters[x]} {x}" for x in LETTERS if x in letters)
    if least is not None:
        text += f"; {below} below {least}" if below else f"; all {least} or better"
    return found, text
