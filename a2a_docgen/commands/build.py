"""``a2a-docgen build``: render a catalogue of Agent Cards into Markdown pages for a site engine.

Diagnostics go to stdout (in the chosen format), the one-line summary to stderr, so stdout stays
machine-readable.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from a2a_docgen.commands.check import (
    add_limit_options,
    add_signing_options,
    default_catalogue,
    limits_from_args,
    positive_int,
    trust_from_args,
)
from a2a_docgen.errors import BuildFailed, UsageError
from a2a_docgen.model import Catalog, Diagnostic
from a2a_docgen.report_formats import FORMATS, counts, counts_text, format_diagnostics
from a2a_docgen.text.plural import plural
from a2a_docgen.text.urls import safe_url

DEFAULT_CARDS = "examples/cards"
DEFAULT_OUT_DIR = "site_src"

HELP = "render Agent Cards into Markdown pages"

EXAMPLES = f"""\
examples:
  a2a-docgen build                            # {DEFAULT_CARDS} -> {DEFAULT_OUT_DIR}/
  a2a-docgen build cards/ -o docs/agents --site-url https://agents.example.com/catalogue/
  a2a-docgen build cards/ --strict --format github   # in CI: any diagnostic fails the build

Files whose bytes did not change are left untouched; pages of agents that are gone are removed (only
files an earlier build generated, listed in DIR/.a2a-docgen-manifest). Nothing in DIR changes unless the
whole build succeeds.

exit status: 0 built, 1 the build failed (with --strict: any diagnostic), 2 usage error.
"""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "build",
        help=HELP,
        description=textwrap.dedent(
            f"""\
            Load the Agent Cards under CARDS (files or directories; default {DEFAULT_CARDS}), report
            their diagnostics, and write the catalogue pages (Markdown, raw cards) into DIR. Cards with
            errors that still load are documented with a warning; files that are not cards at all are
            listed on the catalogue's excluded page."""
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "cards", nargs="*", metavar="CARDS", help=f"card files or directories (default {DEFAULT_CARDS})"
    )
    parser.add_argument(
        "-o",
        "--output",
        dest="out_dir",
        default=DEFAULT_OUT_DIR,
        metavar="DIR",
        help=f"directory for the pages (default {DEFAULT_OUT_DIR})",
    )
    parser.add_argument(
        "--templates",
        metavar="DIR",
        help="directory of template overrides, searched before the built-in templates",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 1, write nothing) when any card has a diagnostic, warning or error",
    )
    parser.add_argument(
        "--site-url",
        metavar="URL",
        help="the URL the site is published at (http or https); each agent page then shows the absolute "
        "URL of its raw card",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="how diagnostics are printed: text (file:line:col: severity code message), json, or github "
        "(workflow commands that annotate pull requests); default text",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        metavar="N",
        help="render agent pages in up to N processes (default: the CPUs available; 1 renders in this "
        "process); the pages are the same either way",
    )
    add_signing_options(parser)
    add_limit_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from a2a_docgen.catalog import load_catalog
    from a2a_docgen.render import render_catalog
    from a2a_docgen.render.parallel import default_jobs
    from a2a_docgen.signing import unverified_message
    from a2a_docgen.site.writer import write_site

    # Without CARDS: the checkout's examples/cards when run from the repository, else the embedded example.
    cards: list[str] = list(args.cards) or [
        DEFAULT_CARDS if os.path.isdir(DEFAULT_CARDS) else str(default_catalogue())
    ]
    templates = _templates_dir(args.templates)
    site_url = _site_url(args.site_url)

    limits = limits_from_args(args)
    catalog = load_catalog(cards, limits=limits, trust=trust_from_args(args, limits))
    if not catalog.cards and not catalog.excluded:
        raise UsageError(f"no card files (*.json) found in {', '.join(cards)}")
    sys.stdout.write(format_diagnostics(catalog.diagnostics, args.format))
    if args.strict and catalog.diagnostics:
        raise BuildFailed(f"--strict: {_counts(catalog.diagnostics)}; nothing written")
    unverified = unverified_message(catalog.diagnostics)
    if unverified:
        raise BuildFailed(f"{unverified}; nothing written")

    jobs = args.jobs or default_jobs()
    site = render_catalog(catalog, templates_dir=templates, site_url=site_url, jobs=jobs)
    result = write_site(site, args.out_dir)
    try:  # the output is complete: a late Ctrl-C no longer makes the build fail
        note = "; Ctrl-C came once the output was complete" if result.interrupted else ""
        print(
            f"{summary(catalog)}: {len(result.written)} written, {len(result.unchanged)} unchanged, "
            f"{len(result.removed)} removed -> {args.out_dir}{note}",
            file=sys.stderr,
        )
    except KeyboardInterrupt:
        pass
    return 0


def summary(catalog: Catalog) -> str:
    """``3 agents, 9 skills`` (plus excluded files and diagnostics when there are any)."""
    skills = sum(len(card.skills) for card in catalog.cards)
    text = f"{plural(len(catalog.cards), 'agent')}, {plural(skills, 'skill')}"
    if catalog.excluded:
        text += f" ({plural(len(catalog.excluded), 'file')} excluded)"
    if catalog.diagnostics:
        text += f", {_counts(catalog.diagnostics)}"
    return text


def _templates_dir(value: str | None) -> str | None:
    if value is not None and not os.path.isdir(value):
        raise UsageError(f"--templates {value}: not a directory")
    return value


def _site_url(value: str | None) -> str | None:
    """``--site-url`` as given, when pages may link to it (``text.urls.safe_url``, as the renderer requires)."""
    if value is not None and safe_url(value) is None:
        raise UsageError(f"--site-url {value}: not an http or https URL")
    return value


def _counts(diagnostics: Sequence[Diagnostic]) -> str:
    return counts_text(*counts(diagnostics))
