"""``a2a-docgen build``: render a catalogue of Agent Cards into Markdown pages for a site engine.

Diagnostics go to stdout (in the chosen format), the one-line summary to stderr, so stdout stays
machine-readable.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import textwrap
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from a2a_docgen.commands.check import (
    add_limit_options,
    add_quiet_option,
    add_signing_options,
    default_catalogue,
    limits_from_args,
    positive_int,
    trust_from_args,
)
from a2a_docgen.errors import BuildFailed, UsageError
from a2a_docgen.model import Catalog, Diagnostic
from a2a_docgen.report_formats import (
    FORMATS,
    code_summary,
    counts,
    counts_text,
    format_diagnostics,
    printable,
    shown,
)
from a2a_docgen.text.plural import plural
from a2a_docgen.text.urls import safe_url

if TYPE_CHECKING:
    from a2a_docgen.history.cache import HistoryCache
    from a2a_docgen.history.entries import CatalogHistory
    from a2a_docgen.limits import Limits
    from a2a_docgen.site.watch import WatchCaches

DEFAULT_CARDS = "examples/cards"
DEFAULT_OUT_DIR = "site_src"

HELP = "render Agent Cards into Markdown pages"

EXAMPLES = f"""\
examples:
  a2a-docgen build                            # {DEFAULT_CARDS} -> {DEFAULT_OUT_DIR}/
  a2a-docgen build cards/ -o docs/agents --site-url https://agents.example.com/catalogue/
  a2a-docgen build cards/ --strict --format github   # in CI: any diagnostic fails the build
  a2a-docgen build cards/ -o docs --dialect material --watch   # beside `zensical serve`

Files whose bytes did not change are left untouched; pages of agents that are gone are removed (only
files an earlier build generated, listed in DIR/.a2a-docgen-manifest). Nothing in DIR changes unless the
whole build succeeds. With --watch, a failed build is reported and the last good pages stay until the
next change builds.

exit status: 0 built (with --watch: stopped with Ctrl-C), 1 the build failed (with --strict: any
diagnostic), 2 usage error.
"""

DEFAULT_INTERVAL = 1.0
"""Seconds between two looks at the cards and templates with ``--watch``."""


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
        "--dialect",
        choices=("github", "material"),
        default="github",
        help="the Markdown syntax of the pages' notes and request tabs: github (alerts and labelled code "
        "blocks, readable on GitHub and in pull requests; the default) or material (!!! admonitions and "
        '=== "label" content tabs, which Zensical and Material for MkDocs render; what init\'s Zensical '
        "project builds with)",
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
        "--publisher-domain",
        metavar="DOMAIN",
        help="the domain under which you publish these agents (example.com): ai-catalog.json then identifies "
        "them as urn:air:DOMAIN:a2a:ID, as ARD asks; leave it out for a catalogue of other people's agents",
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
    add_quiet_option(parser)
    add_signing_options(parser)
    parser.add_argument(
        "--no-history",
        dest="history",
        action="store_false",
        help="leave out the change history from git (the agent pages' Changes, What's new, the Atom feeds); "
        "it is left out anyway when CARDS are not in a git work tree",
    )
    parser.add_argument(
        "--repo-url",
        metavar="URL",
        help="the repository's web address (https://github.com/OWNER/REPO): history entries link to "
        "URL/commit/ID",
    )
    parser.add_argument(
        "--history-commits",
        type=positive_int,
        metavar="N",
        help="read at most the latest N commits that changed the cards (default 500)",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="after building, watch CARDS and the templates and build again on every change (only changed "
        "pages are rewritten, so a running `zensical serve` or `mkdocs serve` reloads them); Ctrl-C stops",
    )
    parser.add_argument(
        "--interval",
        type=positive_seconds,
        default=DEFAULT_INTERVAL,
        metavar="SECONDS",
        help=f"with --watch: how often to look for changes (default {DEFAULT_INTERVAL:g})",
    )
    add_limit_options(parser)
    parser.set_defaults(run=run)


def positive_seconds(value: str) -> float:
    """``--interval``: a number of seconds above zero."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not seconds > 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {value!r}")
    return seconds


def run(args: argparse.Namespace) -> int:
    # Without CARDS: the checkout's examples/cards when run from the repository, else the embedded example.
    cards: list[str] = list(args.cards) or [
        DEFAULT_CARDS if os.path.isdir(DEFAULT_CARDS) else str(default_catalogue())
    ]
    if not args.cards and not os.path.isdir(DEFAULT_CARDS):
        # The embedded example is package data: whatever repository an install sits in is not its history.
        args.history = False
    templates = _templates_dir(args.templates)
    site_url = _site_url(args.site_url)
    from a2a_docgen.render.discovery import publisher_domain, relative_urls_warning

    args.publisher_domain = publisher_domain(args.publisher_domain)  # a usage error before anything is read
    relative = relative_urls_warning(site_url, "--site-url")
    if relative is not None:
        print(f"warning: {relative}", file=sys.stderr)
    if not args.watch:
        build_once(args, cards, templates, site_url)
        return 0
    return _watch(args, cards, templates, site_url)


def build_once(
    args: argparse.Namespace,
    cards: list[str],
    templates: str | None,
    site_url: str | None,
    kept: WatchCaches | None = None,
) -> None:
    """Load, render and write the catalogue once; the summary line on stderr. ``kept``: what a watch keeps from
    one build to the next."""
    from a2a_docgen.catalog import load_catalog
    from a2a_docgen.render import render_catalog
    from a2a_docgen.render.parallel import default_jobs
    from a2a_docgen.signing import unverified_message
    from a2a_docgen.site.writer import write_site

    limits = limits_from_args(args)
    catalog = load_catalog(cards, limits=limits, trust=trust_from_args(args, limits))
    if not catalog.cards and not catalog.excluded:
        raise UsageError(f"no card files (*.json) found in {', '.join(cards)}")
    sys.stdout.write(format_diagnostics(shown(catalog.diagnostics, quiet=args.quiet), args.format))
    sys.stdout.flush()
    by_code = code_summary(catalog.diagnostics)
    if by_code:
        print(printable(by_code), file=sys.stderr)
    if args.strict and catalog.diagnostics:
        raise BuildFailed(f"--strict: {_counts(catalog.diagnostics)}; nothing written")
    unverified = unverified_message(catalog.diagnostics)
    if unverified:
        raise BuildFailed(f"{unverified}; nothing written")

    jobs = args.jobs or default_jobs()
    history = _history(args, cards, limits, jobs, kept.history if kept is not None else None)
    # The pages are built by an engine, which converts every .md file: each agent page's Markdown is published
    # beside it as a copy (render.discovery), which llms.txt links to.
    site = render_catalog(
        catalog,
        templates_dir=templates,
        site_url=site_url,
        jobs=jobs,
        markdown_sources=False,
        history=history,
        dialect=args.dialect,
        envs=kept.templates if kept is not None else None,
        publisher=getattr(args, "publisher_domain", None),
    )
    # Watching: files replaced in place, so the engine's own watcher (zensical serve) keeps seeing the directory.
    result = write_site(site, args.out_dir, in_place=args.watch)
    try:  # the output is complete: a late Ctrl-C no longer makes the build fail
        note = "; Ctrl-C came once the output was complete" if result.interrupted else ""
        print(
            f"{summary(catalog)}: {len(result.written)} written, {len(result.unchanged)} unchanged, "
            f"{len(result.removed)} removed -> {args.out_dir}{note}",
            file=sys.stderr,
            flush=True,
        )
    except KeyboardInterrupt:
        pass


def _watch(args: argparse.Namespace, cards: list[str], templates: str | None, site_url: str | None) -> int:
    """Build, then build again whenever the cards or templates change, until Ctrl-C (exit 0). A build that
    fails is reported and the pages stay as the last good build wrote them."""
    from a2a_docgen.render.env import builtin_templates_dir
    from a2a_docgen.site.watch import WatchCaches, snapshot, wait_for_change, watched_paths

    paths = watched_paths(cards, templates, builtin_templates_dir())
    exclude = [args.out_dir]
    shown = ", ".join([*cards, *([templates] if templates else [])])
    kept = WatchCaches()
    try:
        state = snapshot(paths, exclude=exclude)
        _build_reporting_errors(args, cards, templates, site_url, kept)
        print(f"a2a-docgen build: watching {shown} for changes (Ctrl-C to stop)", file=sys.stderr, flush=True)
        while True:
            state = wait_for_change(paths, state, interval=args.interval, exclude=exclude)
            print(f"a2a-docgen build: {time.strftime('%H:%M:%S')} change seen, building", file=sys.stderr)
            _build_reporting_errors(args, cards, templates, site_url, kept)
    except KeyboardInterrupt:
        print("a2a-docgen build: stopped watching", file=sys.stderr)
        return 0


def _history(
    args: argparse.Namespace, cards: list[str], limits: Limits, jobs: int, cache: HistoryCache | None
) -> CatalogHistory | None:
    """The change history of ``cards`` (``--no-history``: none); what there is to say about it on stderr.
    ``jobs``: the worker processes a long history may be read with; ``cache``: what a watch keeps of it."""
    from a2a_docgen.history.read import DEFAULT_MAX_COMMITS, history_for_build
    from a2a_docgen.render.parallel import in_workers

    repo_url = getattr(args, "repo_url", None)
    if repo_url is not None and safe_url(repo_url) is None:
        raise UsageError(f"--repo-url {repo_url}: not an http or https URL")
    return history_for_build(
        cards,
        enabled=getattr(args, "history", True),
        limits=limits,
        max_commits=getattr(args, "history_commits", None) or DEFAULT_MAX_COMMITS,
        repo_url=repo_url,
        say=lambda message: print(f"a2a-docgen build: {message}", file=sys.stderr, flush=True),
        parallel=functools.partial(in_workers, jobs=jobs),
        cache=cache,
    )


def _build_reporting_errors(
    args: argparse.Namespace,
    cards: list[str],
    templates: str | None,
    site_url: str | None,
    kept: WatchCaches,
) -> None:
    """``build_once``; an error is printed (as ``cli.main`` words it) instead of ending the watch."""
    from a2a_docgen.errors import A2ADocgenError

    try:
        build_once(args, cards, templates, site_url, kept)
    except BuildFailed as exc:
        print(f"a2a-docgen build: {exc}", file=sys.stderr, flush=True)
    except A2ADocgenError as exc:
        print(f"a2a-docgen build: error: {exc}", file=sys.stderr, flush=True)


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
