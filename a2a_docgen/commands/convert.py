"""``a2a-docgen convert``: write the v1.0 form of Agent Cards, and report what could not be carried over.

One card without ``-o`` is written to stdout; with ``-o DIR`` every card is written under ``DIR`` (a file by its
name, the cards found in a directory by their path below it), atomically, and a file that already holds the
bytes is left untouched. The report goes to stderr in the format of ``check``, with the errors ``check`` still
finds in a converted card (located in the converted card). Exit status: 0 when every card was converted and
has no error left, 1 when a file is not a card or a converted card still has errors, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from a2a_docgen.commands.check import add_limit_options, limits_from_args
from a2a_docgen.convert import TARGETS, Conversion, convert_card
from a2a_docgen.errors import UsageError
from a2a_docgen.files import same_bytes, write_atomic
from a2a_docgen.load import CardFile, discover, read_card_file
from a2a_docgen.model import Diagnostic
from a2a_docgen.report_formats import FORMATS, format_diagnostics
from a2a_docgen.text.plural import plural

__all__ = ["register", "run"]

HELP = "write Agent Cards in the v1.0 shape"
DESCRIPTION = """\
Write the faithful v1.0 form of Agent Cards of any era (v0.3, v0.2, and v1.0 cards with
leftovers of v0.3): supportedInterfaces from url, preferredTransport and
additionalInterfaces, securityRequirements and the scheme wrappers,
capabilities.extendedAgentCard, members in the order of the spec's sample card, indented
by two spaces. What the v1.0 card cannot carry, or had to guess, is reported on stderr
as file:line:column of the source card (codes convert-dropped, convert-guessed,
convert-signature-stale; see docs/convert.md).

One CARD is written to stdout unless -o DIR is given; several need -o DIR.

The errors check still finds in a converted card (what conversion cannot mend, such as a
missing name) are reported too, located in the converted card.

exit status: 0 every card converted with no error left, 1 a file is not a card or a
converted card still has errors, 2 usage error"""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "convert", help=HELP, description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="+", metavar="CARD", help="card files or directories of cards")
    parser.add_argument(
        "--to", choices=TARGETS, default=TARGETS[-1], help="the A2A version to write (default %(default)s)"
    )
    parser.add_argument(
        "-o", "--output", metavar="DIR", help="write the converted cards under DIR instead of stdout"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="the report on stderr: text (file:line:col lines, default), json or github",
    )
    add_limit_options(parser)
    parser.set_defaults(run=run)


def _targets(files: list[CardFile], out_dir: Path) -> list[Path]:
    """Where each card goes under ``out_dir``: a file given by name by its name, a card found in a directory by
    its path below that directory. Refuses two cards to one path and a card written over itself."""
    targets: list[Path] = []
    seen: dict[str, str] = {}
    for card_file in files:
        given_as_file = card_file.root == card_file.display
        target = out_dir / (card_file.path.name if given_as_file else Path(*card_file.relpath.split("/")))
        key = os.path.realpath(target)
        if key in seen:
            raise UsageError(
                f"{card_file.display} and {seen[key]} would both be written to {target}; convert them apart"
            )
        if key == os.path.realpath(card_file.path):
            raise UsageError(f"{card_file.display} would be overwritten; choose another -o DIR")
        seen[key] = card_file.display
        targets.append(target)
    return targets


def run(args: argparse.Namespace) -> int:
    files = discover(args.paths)
    if not files:
        raise UsageError(f"no card files (*.json) found in {', '.join(args.paths)}")
    if args.output is None and len(files) > 1:
        raise UsageError(f"{plural(len(files), 'card file')} found: give -o DIR to write them")
    targets = _targets(files, Path(args.output)) if args.output is not None else []
    limits = limits_from_args(args)
    report: list[Diagnostic] = []
    failed = written = unchanged = 0
    left: list[int] = []  # the errors left in each converted card that has some
    for index, card_file in enumerate(files):
        data = read_card_file(card_file, limits)
        if isinstance(data, Diagnostic):
            report.append(data)
            failed += 1
            continue
        conversion = convert_card(data, display=card_file.display, target=args.to, limits=limits)
        report += _report(conversion)
        if conversion.text is None:
            failed += 1
            continue
        if conversion.remaining:
            left.append(len(conversion.remaining))
        output = conversion.text.encode("utf-8")
        if not targets:
            sys.stdout.write(conversion.text)
            sys.stdout.flush()
            continue
        target = targets[index]
        if same_bytes(target, output):
            unchanged += 1
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, output)
        except OSError as exc:
            raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
        written += 1
    sys.stderr.write(format_diagnostics(report, args.format))
    print(_summary(len(files) - failed, failed, written, unchanged, args, left), file=sys.stderr)
    return 1 if failed or left else 0


def _report(conversion: Conversion) -> list[Diagnostic]:
    """The notes of a converted card, or the errors that made a file no card."""
    if conversion.card is None:
        return [d for d in conversion.diagnostics if d.severity == "error"]
    return [*conversion.notes, *conversion.remaining]


def _summary(
    converted: int, failed: int, written: int, unchanged: int, args: argparse.Namespace, left: list[int]
) -> str:
    text = f"{plural(converted, 'card')} converted to v{args.to}"
    if args.output is not None:
        text += f" ({written} written, {unchanged} unchanged) -> {args.output}"
    if left:
        text += (
            f"; {plural(len(left), 'converted card')} still {'has' if len(left) == 1 else 'have'} "
            f"{plural(sum(left), 'error')} (listed above): fix them in the source or the output"
        )
    if failed:
        text += f"; {plural(failed, 'file')} not converted (not a card)"
    return text
