"""``a2a-docgen fetch``: download Agent Cards from running agents into a directory, and check them.

Output: each diagnostic as ``file:line:col: severity code message`` on stdout (the same form as
``check``), and one summary line per URL on stderr, so stdout stays machine-readable.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

from a2a_docgen.errors import UsageError
from a2a_docgen.fetch import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_TIMEOUT,
    CardFetchError,
    FetchOutcome,
    fetch_to_directory,
    parse_header,
)
from a2a_docgen.fetch.extended import credential_from_environment
from a2a_docgen.report_formats import counts_text, format_text, printable

HELP = "download Agent Cards from running agents"

EXAMPLES = """\
examples:
  a2a-docgen fetch https://agent.example.com -o cards/
  a2a-docgen fetch https://a.example.com https://b.example.com/.well-known/agent-card.json -o cards/
  a2a-docgen fetch https://example.com/catalog/ai-catalog.json -o cards/
  a2a-docgen fetch https://private.example.com -o cards/ --header "Authorization: Bearer $AGENT_TOKEN"
  A2A_AUTH="Bearer ..." a2a-docgen fetch https://agent.example.com -o private-cards/ --extended --credential-env A2A_AUTH

Each card is saved as DIR/<host>.json (pretty JSON), with DIR/<host>.fetch.json recording where it came
from and its ETag. A second run asks the server whether the card changed, and leaves both files untouched
when it did not. Diagnostics go to stdout, one summary line per URL to stderr.

exit status: 0 every card fetched, 1 a URL failed (or, with --strict, a card has errors), 2 usage error.
"""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "fetch",
        help=HELP,
        description=textwrap.dedent(
            """\
            Download the Agent Card of each agent into DIR and check it. URL is an agent's base URL
            (its /.well-known/agent-card.json is fetched, or the legacy /.well-known/agent.json when
            that is missing; at a bare origin, the host's /.well-known/ai-catalog.json first), the URL
            of a card itself, or the URL of an AI Catalog, whose A2A cards are all fetched."""
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("urls", nargs="+", metavar="URL", help="agent base URL or card URL (http or https)")
    parser.add_argument(
        "-o", "--output", dest="out_dir", required=True, metavar="DIR", help="directory for the cards"
    )
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="send this header (repeatable), e.g. for authentication; sent only to the URL's own origin, "
        "never written or printed",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds allowed for each URL as a whole: connecting, headers, body, redirects and checking the "
        f"card (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=DEFAULT_MAX_BYTES,
        metavar="N",
        help=f"refuse cards larger than this (default {DEFAULT_MAX_BYTES})",
    )
    parser.add_argument(
        "--max-redirects",
        type=int,
        default=DEFAULT_MAX_REDIRECTS,
        metavar="N",
        help=f"redirects to follow per request (default {DEFAULT_MAX_REDIRECTS})",
    )
    parser.add_argument(
        "--max-entries",
        type=int,
        default=DEFAULT_MAX_ENTRIES,
        metavar="N",
        help=f"read at most this many AI Catalog entries in all, nested catalogues included (default "
        f"{DEFAULT_MAX_ENTRIES})",
    )
    parser.add_argument(
        "--extended",
        action="store_true",
        help="ask each agent whose card offers one for its extended card, with the credential of "
        "--credential-env, and save that instead (marked as extended: never publish it)",
    )
    parser.add_argument(
        "--credential-env",
        metavar="VAR",
        help="with --extended: the environment variable that holds the credential (sent as the "
        "--credential-header value, never written or printed)",
    )
    parser.add_argument(
        "--credential-header",
        default="Authorization",
        metavar="NAME",
        help="with --extended: the header the credential is sent in (default Authorization; the variable "
        "holds its whole value, e.g. 'Bearer ...')",
    )
    parser.add_argument(
        "--strict", action="store_true", help="do not save a card that has errors (and exit 1)"
    )
    parser.add_argument(
        "--allow-private",
        action="store_true",
        help="also fetch from loopback, private, link-local and other non-public addresses (refused by "
        "default, redirects included)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    headers = dict(parse_header(h) for h in args.header)
    extended = None
    if args.extended:
        if not args.credential_env:
            raise UsageError(
                "--extended needs --credential-env VAR: the environment variable with the credential"
            )
        extended = credential_from_environment(args.credential_env, args.credential_header)
    elif args.credential_env:
        raise UsageError("--credential-env is read only with --extended")
    outcomes = fetch_to_directory(
        args.urls,
        args.out_dir,
        headers=headers,
        timeout=args.timeout,
        max_bytes=args.max_bytes,
        max_redirects=args.max_redirects,
        strict=args.strict,
        on_outcome=report,
        allow_private=args.allow_private,
        max_entries=args.max_entries,
        extended=extended,
    )
    return 0 if all(outcome.ok for outcome in outcomes) else 1


def report(outcome: FetchOutcome) -> None:
    """Print one URL's findings (stdout, as ``check`` prints them) and summary line (stderr)."""
    sys.stdout.write(format_text(outcome.diagnostics))
    sys.stdout.flush()
    print(printable(summary(outcome)), file=sys.stderr)


def summary(outcome: FetchOutcome) -> str:
    """One line about one URL."""
    if isinstance(outcome.error, CardFetchError):  # names the URL that failed (after fallback, redirects)
        return f"failed {outcome.error}"
    if outcome.status == "failed":
        return f"failed {outcome.requested}: {outcome.error}"
    counts = counts_text(outcome.errors, outcome.warnings)
    if outcome.status == "catalogue":
        checked = f"; {counts}" if outcome.diagnostics else ""
        return f"catalogue {outcome.url}: {outcome.note}{checked}"
    if outcome.status == "rejected":
        return f"rejected {outcome.url}: {counts}; not written (--strict)"
    if outcome.status in ("unchanged", "not-modified"):
        state = "unchanged"
    else:
        state = counts if outcome.diagnostics else "valid"
    kind = "extended card " if outcome.extended else ""
    return f"fetched {kind}{outcome.url} -> {outcome.path} ({state})"
