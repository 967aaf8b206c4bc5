"""``a2a-docgen diff``: what a change to Agent Cards breaks for the clients of those agents.

Exit status: 1 when a change at or above ``--fail-on`` (default: breaking) is found, 0 otherwise, 2 for
usage errors (a side with no card file at all among them, unless ``--allow-empty-base`` or
``--allow-empty-head`` says that is meant). Cards that do not load on either side are reported on standard
error as ``check`` reports them and in every format (a head file that no longer loads, or a new error, is
itself a breaking finding); the review runs on everything that loaded.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from a2a_docgen.catalog import load_catalog
from a2a_docgen.commands.check import add_limit_options, limits_from_args
from a2a_docgen.errors import UsageError
from a2a_docgen.limits import Limits
from a2a_docgen.model import Catalog
from a2a_docgen.report_formats import format_text
from a2a_docgen.review.config import CONFIG_NAME, ConfigWarning, ReviewConfig
from a2a_docgen.review.config_sources import review_rules
from a2a_docgen.review.diff import SEVERITIES, Change, review_catalogs
from a2a_docgen.review.formats import (
    FORMATS,
    LoadFailure,
    ReviewReport,
    SourceLinks,
    format_codes,
    format_report,
    has_news,
    summary,
)
from a2a_docgen.review.git import GitRevision
from a2a_docgen.review.place import ReviewPlace, review_place
from a2a_docgen.review.settle import utc_today
from a2a_docgen.slugs import site_addresses
from a2a_docgen.text.plural import plural
from a2a_docgen.text.urls import safe_url

if TYPE_CHECKING:
    from a2a_docgen.signing import Trust

__all__ = ["FAIL_ON", "exit_code", "register", "run"]

FAIL_ON: tuple[str, ...] = (*SEVERITIES, "never")

HELP = "report what a change to Agent Cards breaks for clients"
USAGE = """\
a2a-docgen diff [options] BASE HEAD
       a2a-docgen diff [options] --base-ref REV HEAD [HEAD ...]
       a2a-docgen diff --list-codes [--format text|json]"""
DESCRIPTION = f"""\
Compare two sets of Agent Cards and classify every change as breaking, non-breaking or
info, each with a stable code (--list-codes; see docs/review.md). BASE and HEAD are card
files or directories. With --base-ref, the cards under HEAD in the working tree are
compared with the same paths at a git revision (files added or removed since then count).

Agents are matched by name and preferred interface URL, skills by id; effective values
are compared (a skill's own input modes or security requirements, else the card's), so
rewriting a v0.3 card in the v1.0 shape reports only the era change.

The {CONFIG_NAME} nearest to the HEAD cards (their directory or a parent, up to the
repository root; never the current directory's) can accept changes, change severities and
set the version policy; see docs/review.md. With --base-ref or --since-default-branch it
is read at the base revision, as the base cards are:
the rules a change is judged by are not the change's to set, and what the working tree's
file would change is reported (config-loosened, config-tightened, config-invalid).

exit status: 0 nothing at or above --fail-on (accepted changes never count),
1 findings at or above --fail-on, 2 usage error (including a bad configuration file)"""

_SHA = re.compile(r"[0-9a-fA-F]{7,64}")


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
        help="text: one line per change (default); markdown: a pull-request comment; json: an object with "
        "the findings, load errors and a summary (docs/diff.schema.json); github: workflow annotations on the "
        "changed lines; changelog: Markdown grouped by agent and kind of change",
    )
    parser.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="breaking",
        help="exit 1 when a change of this severity or a more severe one is found (default: breaking); "
        "accepted changes never count",
    )
    parser.add_argument(
        "--base-ref",
        metavar="REV",
        help="compare HEAD in the working tree with the same paths at this git revision (e.g. origin/main)",
    )
    parser.add_argument(
        "--since-default-branch",
        action="store_true",
        help="compare HEAD in the working tree with where the branch left the default branch (git merge-base "
        "of origin/HEAD, else origin/main ..., and HEAD): what its pull request will be reviewed against. "
        "--base-ref wins when both are given (the pre-commit hook uses this)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help=f"the configuration file (default: the {CONFIG_NAME} nearest to the HEAD cards, up to the "
        "repository root); with --base-ref, a file inside the repository is read at the base revision",
    )
    parser.add_argument(
        "--no-config",
        action="store_true",
        help=f"use no configuration file, even if a {CONFIG_NAME} is found",
    )
    parser.add_argument(
        "--list-codes",
        action="store_true",
        help="list every code with its severity (as the configuration sets it), meaning and an example",
    )
    parser.add_argument(
        "--site-url",
        metavar="URL",
        help="the published documentation site; the Markdown comment links agents and skills to their pages",
    )
    parser.add_argument(
        "--repo-url",
        metavar="URL",
        help="the repository on GitHub (default: $GITHUB_SERVER_URL/$GITHUB_REPOSITORY); the Markdown "
        "comment links each finding to its file and line",
    )
    parser.add_argument(
        "--head-sha",
        metavar="SHA",
        help="the commit those links point at (default: $GITHUB_SHA, the commit the workflow checked out)",
    )
    parser.add_argument(
        "--skip-empty",
        action="store_true",
        help="with --format markdown: write nothing when there is nothing to say (no finding, no card "
        "that fails to load, no configuration warning)",
    )
    parser.add_argument(
        "--allow-empty-base",
        action="store_true",
        help="accept a BASE (or --base-ref side) without card files: every head agent is new (default: a "
        "usage error, as for a mistyped directory)",
    )
    parser.add_argument(
        "--allow-empty-head",
        action="store_true",
        help="accept a HEAD without card files: every base agent is removed (default: a usage error)",
    )
    parser.add_argument(
        "--full-report-url",
        metavar="URL",
        help="with --format markdown: where the full review is (default in GitHub Actions: the run's page, "
        "whose job summary the documented workflow writes); the comment's notes of what did not fit link there",
    )
    parser.add_argument(
        "--comment-limit",
        type=int,
        metavar="CHARS",
        help="with --format markdown: at most this many characters (default 60000, under GitHub's comment "
        "limit); 0 for no limit, as for the job summary",
    )
    signatures = parser.add_argument_group(
        "signatures", "with keys, a signature that verified and no longer does is breaking (docs/signing.md)"
    )
    signatures.add_argument(
        "--jwks", action="append", default=[], metavar="FILE", help="a JWK set of trusted keys (repeatable)"
    )
    signatures.add_argument("--keys", metavar="FILE", help="a keys file pinning keys to agents or providers")
    add_limit_options(parser)
    parser.set_defaults(run=run)


def exit_code(changes: Sequence[Change], fail_on: str) -> int:
    """1 when a change that is not accepted is at least as severe as ``fail_on`` (never with ``never``)."""
    if fail_on == "never":
        return 0
    failing = SEVERITIES[: SEVERITIES.index(fail_on) + 1]
    return 1 if any(c.severity in failing and c.accepted is None for c in changes) else 0


@dataclass(frozen=True, slots=True, kw_only=True)
class _Sides:
    """The two catalogues and what is known about where they came from."""

    base: Catalog
    head: Catalog
    base_label: str
    base_roots: list[str]
    head_roots: list[str]
    revision: GitRevision | None
    place: ReviewPlace


def _sides(args: argparse.Namespace) -> _Sides:
    from a2a_docgen.signing import load_trust

    limits = limits_from_args(args)
    trust = load_trust(args.jwks, args.keys)
    paths: list[str] = list(args.paths)
    if args.base_ref is None and args.since_default_branch:
        if not paths:
            raise UsageError("--since-default-branch needs HEAD: the card files or directories to compare")
        place = review_place(paths)
        revision = GitRevision.default_branch_merge_base(cwd=place.top or place.start)
        return _revision_sides(args, revision, place, limits, trust)
    if args.base_ref is None:
        if len(paths) != 2:
            raise UsageError("give BASE and HEAD (two card files or directories), or --base-ref REV and HEAD")
        place = review_place(paths[1:])
        base_path, head_path = (place.spelling(path) for path in paths)
        return _Sides(
            base=load_catalog([base_path], limits=limits, trust=trust, base=place.top),
            head=load_catalog([head_path], limits=limits, trust=trust, base=place.top),
            base_label="base",
            base_roots=[base_path],
            head_roots=[head_path],
            revision=None,
            place=place,
        )
    if not paths:
        raise UsageError("--base-ref needs HEAD: the card files or directories to compare, e.g. cards/")
    place = review_place(paths)
    return _revision_sides(
        args, GitRevision(args.base_ref, cwd=place.top or place.start), place, limits, trust
    )


def _revision_sides(
    args: argparse.Namespace, revision: GitRevision, place: ReviewPlace, limits: Limits, trust: Trust | None
) -> _Sides:
    """The base read at ``revision``, the head from the working tree, both under the same paths (as
    ``place`` spells them: from the repository's top)."""
    typed: list[str] = list(args.paths)
    paths = [place.spelling(path) for path in typed]
    files = revision.files(paths)
    for path, spelt in zip(typed, paths, strict=True):
        if not os.path.exists(path) and not any(f.argument == spelt for f in files):
            raise UsageError(f"{path}: no such file or directory, here or at {revision.revision}")
    base = revision.load(files, limits=limits, trust=trust)
    present = [p for p in paths if os.path.exists(place.path(p))]
    head = (
        load_catalog(present, limits=limits, trust=trust, base=place.top)
        if present
        else Catalog(cards=(), diagnostics=(), excluded=())
    )
    return _Sides(
        base=base,
        head=head,
        base_label=f"base ({revision.revision})",
        base_roots=paths,
        head_roots=paths,
        revision=revision,
        place=place,
    )


def _links(args: argparse.Namespace, sides: _Sides) -> SourceLinks | None:
    """Where the Markdown comment links findings to, from the options or GitHub's environment."""
    repo_url, repo_from = args.repo_url, "--repo-url"
    if repo_url is None and os.environ.get("GITHUB_SERVER_URL") and os.environ.get("GITHUB_REPOSITORY"):
        repo_url = f"{os.environ['GITHUB_SERVER_URL'].rstrip('/')}/{os.environ['GITHUB_REPOSITORY']}"
        repo_from = "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY"
    head_sha, sha_from = args.head_sha, "--head-sha"
    if head_sha is None and os.environ.get("GITHUB_SHA"):
        head_sha, sha_from = os.environ["GITHUB_SHA"], "$GITHUB_SHA"
    if repo_url is None:
        if args.head_sha is not None:
            raise UsageError("--head-sha needs --repo-url (or $GITHUB_SERVER_URL and $GITHUB_REPOSITORY)")
        return None
    if safe_url(repo_url) is None:
        raise UsageError(f"{repo_from}: {repo_url!r} is not an http(s) URL")
    if head_sha is None:
        raise UsageError("--repo-url needs --head-sha (or $GITHUB_SHA): the commit to link to")
    if not _SHA.fullmatch(head_sha):
        raise UsageError(f"{sha_from}: {head_sha!r} is not a commit id (7 to 64 hexadecimal digits)")
    # The cards' repository; cards in none are shown as typed, from the current directory.
    root = sides.place.top or os.environ.get("GITHUB_WORKSPACE") or os.getcwd()
    return SourceLinks(
        repo_url=repo_url.rstrip("/"),
        head_sha=head_sha,
        base_sha=sides.revision.commit if sides.revision is not None else None,
        root=root,
        paths_from=sides.place.top,
    )


def _require_cards(sides: _Sides, args: argparse.Namespace) -> None:
    """A side without a single card file is a mistyped path (as ``check`` says), unless it is meant."""
    if not (sides.base.cards or sides.base.excluded) and not args.allow_empty_base:
        where = f"at {sides.revision.revision}" if sides.revision is not None else f"in {args.paths[0]}"
        raise UsageError(
            f"no card files (*.json) {where}: is the path right? (--allow-empty-base if every agent is new)"
        )
    if not (sides.head.cards or sides.head.excluded) and not args.allow_empty_head:
        where = ", ".join(args.paths) if sides.revision is not None else args.paths[1]
        raise UsageError(
            f"no card files (*.json) in {where}: is the path right? (--allow-empty-head if every agent is removed)"
        )


def _full_report_url(args: argparse.Namespace) -> str | None:
    """``--full-report-url``, or in GitHub Actions the page of the run (its job summary has the report)."""
    if args.full_report_url is not None:
        return str(args.full_report_url)
    server, repository, run = (
        os.environ.get("GITHUB_SERVER_URL"),
        os.environ.get("GITHUB_REPOSITORY"),
        os.environ.get("GITHUB_RUN_ID"),
    )
    if server and repository and run and run.isdigit():
        url = f"{server.rstrip('/')}/{repository}/actions/runs/{run}"
        return url if safe_url(url) is not None else None
    return None


def _failures(side: str, catalog: Catalog) -> list[LoadFailure]:
    return [
        LoadFailure(side=side, file=path, diagnostics=catalog.diagnostics_for(path))
        for path in catalog.excluded
    ]


def _report_problems(side: str, catalog: Catalog) -> None:
    errors = [d for d in catalog.diagnostics if d.severity == "error"]
    warnings = len(catalog.diagnostics) - len(errors)
    if not errors:
        return
    skipped = f" ({len(catalog.excluded)} not read)" if catalog.excluded else ""
    print(f"a2a-docgen diff: {side} cards with errors{skipped}:", file=sys.stderr)
    sys.stderr.write(format_text(errors))
    if warnings:
        print(f"(and {plural(warnings, 'warning')}: run a2a-docgen check for them)", file=sys.stderr)


def _report_warnings(warnings: Sequence[ConfigWarning]) -> None:
    for warning in warnings:
        print(f"a2a-docgen diff: warning: {warning}", file=sys.stderr)


def _list_codes(args: argparse.Namespace, config: ReviewConfig | None) -> int:
    if args.paths:
        raise UsageError("--list-codes takes no paths")
    if args.format not in ("text", "json"):
        raise UsageError(f"--list-codes writes text or json, not {args.format}")
    sys.stdout.write(format_codes(config, args.format))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.list_codes:
        return _list_codes(
            args,
            review_rules(
                config=args.config, no_config=args.no_config, revision=None, place=review_place([os.curdir])
            ).config,
        )
    if args.site_url is not None and safe_url(args.site_url) is None:
        raise UsageError(f"--site-url: {args.site_url!r} is not an http(s) URL")
    if args.comment_limit is not None and args.comment_limit < 0:
        raise UsageError("--comment-limit: give a number of characters (0 for no limit)")
    if (args.comment_limit is not None or args.full_report_url is not None) and args.format != "markdown":
        raise UsageError("--comment-limit and --full-report-url apply to --format markdown")
    if args.full_report_url is not None and safe_url(args.full_report_url) is None:
        raise UsageError(f"--full-report-url: {args.full_report_url!r} is not an http(s) URL")
    if args.skip_empty and args.format != "markdown":
        raise UsageError("--skip-empty applies to --format markdown (the pull-request comment)")
    sides = _sides(args)
    rules = review_rules(
        config=args.config, no_config=args.no_config, revision=sides.revision, place=sides.place
    )
    base, head = sides.base, sides.head
    if not (base.cards or base.excluded or head.cards or head.excluded):
        raise UsageError(f"no card files (*.json) found in {', '.join(args.paths)}")
    _require_cards(sides, args)
    links = _links(args, sides) if args.format == "markdown" else None
    _report_problems(sides.base_label, base)
    _report_problems("head", head)
    review = review_catalogs(
        base,
        head,
        config=rules.config,
        head_roots=sides.head_roots,
        base_roots=sides.base_roots,
        today=utc_today(),
        head_config=rules.head,
    )
    _report_warnings(review.warnings)
    report = ReviewReport(
        changes=review.changes,
        warnings=review.warnings,
        failures=[*_failures(sides.base_label, base), *_failures("head", head)],
        site_url=args.site_url,
        addresses=site_addresses(base.cards) if args.site_url is not None else None,
        links=links,
        full_report_url=_full_report_url(args) if args.format == "markdown" else None,
        budget=args.comment_limit,
        anchor_removals=sides.revision is not None,
    )
    if args.skip_empty and not has_news(report):
        print("a2a-docgen diff: nothing to report (--skip-empty): no comment written", file=sys.stderr)
    else:
        sys.stdout.write(format_report(report, args.format))
        sys.stdout.flush()
    if args.format != "text":
        print(f"a2a-docgen diff: {summary(review.changes)}", file=sys.stderr)
    return exit_code(review.changes, args.fail_on)
