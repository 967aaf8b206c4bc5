"""``a2a-docgen diff``: what a change to Agent Cards breaks for the clients of those agents.

Exit status: 1 when a change at or above ``--fail-on`` (default: breaking) is found, 0 otherwise, 2 for
usage errors. Cards that do not load on either side are reported on standard error as ``check`` reports
them, and the review runs on everything that loaded.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from a2a_docgen.commands.check import add_limit_options, limits_from_args
from a2a_docgen.errors import UsageError
from a2a_docgen.load import load_catalog
from a2a_docgen.model import Catalog
from a2a_docgen.render.escape import safe_url
from a2a_docgen.report_formats import format_text
from a2a_docgen.review.diff import SEVERITIES, Change, diff_catalogs
from a2a_docgen.review.formats import FORMATS, format_changes, summary
from a2a_docgen.review.git import GitRevision

__all__ = ["FAIL_ON", "exit_code", "register", "run"]

FAIL_ON: tuple[str, ...] = (*SEVERITIES, "never")

HELP = "report what a change to Agent Cards breaks for clients"
USAGE = "a2a-docgen diff [options] BASE HEAD\n       a2a-docgen diff [options] --base-ref REV HEAD [HEAD ...]"
DESCRIPTION = """\
Compare two sets of Agent Cards and classify every change as breaking, non-breaking or
info, each with a stable code (see docs/review.md). BASE and HEAD are card files or
directories. With --base-ref, the cards under HEAD in the working tree are compared
with the same paths at a git revision (files added or removed since then count).

Agents are matched by name, skills by id; effective values are compared (a skill's own
input modes or security requirements, else the card's), so rewriting a v0.3 card in
the v1.0 shape reports only the era change.

exit status: 0 nothing at or above --fail-on, 1 changes at or above --fail-on, 2 usage error"""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "diff",
        help=HELP,
        usage=USAGE,
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="BASE and HEAD, or HEAD with --base-ref")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: one line per change (default); markdown: a pull-request comment; json: an array of "
        "objects; github: workflow annotations on the changed lines",
    )
    parser.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="breaking",
        help="exit 1 when a change of this severity or a more severe one is found (default: breaking)",
    )
    parser.add_argument(
        "--base-ref",
        metavar="REV",
        help="compare HEAD in the working tree with the same paths at this git revision (e.g. origin/main)",
    )
    parser.add_argument(
        "--site-url",
        metavar="URL",
        help="the published documentation site; the Markdown comment links agents and skills to their pages",
    )
    add_limit_options(parser)
    parser.set_defaults(run=run)


def exit_code(changes: Sequence[Change], fail_on: str) -> int:
    """1 when a change is at least as severe as ``fail_on`` (never with ``never``), else 0."""
    if fail_on == "never":
        return 0
    failing = SEVERITIES[: SEVERITIES.index(fail_on) + 1]
    return 1 if any(c.severity in failing for c in changes) else 0


def _catalogs(args: argparse.Namespace) -> tuple[Catalog, Catalog]:
    limits = limits_from_args(args)
    paths: list[str] = list(args.paths)
    if args.base_ref is None:
        if len(paths) != 2:
            raise UsageError("give BASE and HEAD (two card files or directories), or --base-ref REV and HEAD")
        return load_catalog([paths[0]], limits=limits), load_catalog([paths[1]], limits=limits)
    if not paths:
        raise UsageError("--base-ref needs HEAD: the card files or directories to compare, e.g. cards/")
    revision = GitRevision(args.base_ref)
    files = revision.files(paths)
    for path in paths:
        if not os.path.exists(path) and not any(f.argument == path for f in files):
            raise UsageError(f"{path}: no such file or directory, here or at {args.base_ref}")
    base = revision.load(files, limits=limits)
    present = [p for p in paths if os.path.exists(p)]
    head = load_catalog(present, limits=limits) if present else Catalog(cards=(), diagnostics=(), excluded=())
    return base, head


def _report_problems(side: str, catalog: Catalog) -> None:
    errors = [d for d in catalog.diagnostics if d.severity == "error"]
    warnings = len(catalog.diagnostics) - len(errors)
    if not errors:
        return
    skipped = f" ({len(catalog.excluded)} not read)" if catalog.excluded else ""
    print(f"a2a-docgen diff: {side} cards with errors{skipped}:", file=sys.stderr)
    sys.stderr.write(format_text(errors))
    if warnings:
        print(f"(and {warnings} warnings: run a2a-docgen check for them)", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    if args.site_url is not None and safe_url(args.site_url) is None:
        raise UsageError(f"--site-url: {args.site_url!r} is not an http(s) URL")
    base, head = _catalogs(args)
    if not (base.cards or base.excluded or head.cards or head.excluded):
        raise UsageError(f"no card files (*.json) found in {', '.join(args.paths)}")
    _report_problems("base" if args.base_ref is None else f"base ({args.base_ref})", base)
    _report_problems("head", head)
    head_roots = [args.paths[1]] if args.base_ref is None else list(args.paths)
    changes = diff_catalogs(base, head, head_roots=head_roots)
    sys.stdout.write(format_changes(changes, args.format, site_url=args.site_url))
    sys.stdout.flush()
    if args.format != "text":
        print(f"a2a-docgen diff: {summary(changes)}", file=sys.stderr)
    return exit_code(changes, args.fail_on)
