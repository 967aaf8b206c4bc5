"""The URLs and headers a fetch may use: checked before anything is sent.

An agent publishes its card at ``/.well-known/agent-card.json`` (A2A v0.3 and v1.0); agents built on v0.2 used
``/.well-known/agent.json``; a host may list its agents in an AI Catalog at ``/.well-known/ai-catalog.json``.
A URL is an agent's base URL (all three are tried, the catalogue first at a bare origin) or the URL of a card
or a catalogue itself.
"""

from __future__ import annotations

import re

import httpx

from a2a_docgen.errors import UsageError
from a2a_docgen.fetch.errors import show
from a2a_docgen.load.aicatalog import WELL_KNOWN_PATH as CATALOG_WELL_KNOWN_PATH
from a2a_docgen.text.urls import valid_host

__all__ = [
    "CATALOG_WELL_KNOWN_PATH",
    "LEGACY_WELL_KNOWN_PATH",
    "WELL_KNOWN_PATH",
    "card_urls",
    "check_header",
    "check_url",
    "names_a_card",
    "origin",
    "parse_header",
]

WELL_KNOWN_PATH = "/.well-known/agent-card.json"
"""Where A2A v0.3 and v1.0 agents publish their card (RFC 8615 well-known URI)."""
LEGACY_WELL_KNOWN_PATH = "/.well-known/agent.json"
"""Where A2A v0.2 agents published it; tried when the current path answers 404 or 410."""

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP header name (RFC 9110 token)."""


def check_url(url: str) -> httpx.URL:
    """Parse a URL given by the user; raises ``UsageError`` unless it is an absolute http(s) URL."""
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError, ValueError):
        raise UsageError(f"{show(url)} is not a valid URL") from None
    if not parsed.scheme:
        raise UsageError(f"{show(url)}: give the whole URL, starting with https:// or http://")
    if parsed.scheme not in ("http", "https"):
        raise UsageError(f"{show(url)}: only http and https URLs can be fetched")
    if not parsed.host:
        raise UsageError(f"{show(url)}: the URL has no host")
    if not valid_host(parsed.host):
        raise UsageError(f"{show(url)}: {show(parsed.host, 80)} is not a valid host name")
    if parsed.userinfo:
        # Not echoed: it holds a password. Credentials belong in headers, which are never written out.
        raise UsageError("a URL contains a user name or password; pass credentials with --header instead")
    return parsed.copy_with(path=parsed.path or "/", fragment=None)


def names_a_card(url: httpx.URL) -> bool:
    """True when the URL is a card itself rather than an agent's base URL."""
    return url.path.endswith(".json") or "/.well-known/" in url.path


def card_urls(url: str | httpx.URL) -> list[httpx.URL]:
    """The URLs to try, in order: the URL itself when it names a card (or a catalogue), else the two well-known
    card paths, after the host's AI Catalog when the URL is a bare origin (``https://host/``: the catalogue's
    well-known path is at the root of a host only)."""
    parsed = url if isinstance(url, httpx.URL) else check_url(url)
    if names_a_card(parsed):
        return [parsed]
    base = parsed.path.rstrip("/")
    paths: tuple[str, ...] = (CATALOG_WELL_KNOWN_PATH,) if not base and not parsed.query else ()
    paths += (WELL_KNOWN_PATH, LEGACY_WELL_KNOWN_PATH)
    return [parsed.copy_with(path=base + path) for path in paths]


def parse_header(text: str) -> tuple[str, str]:
    """``"Name: value"`` -> ``("Name", "value")``; raises ``UsageError`` (without echoing the value)."""
    name, colon, value = text.partition(":")
    if not colon:
        raise UsageError("--header must look like 'Name: value'")
    return check_header(name.strip(), value.strip())


def check_header(name: str, value: str) -> tuple[str, str]:
    """Check a header to send; the error never shows the value (it is usually a secret)."""
    if not _TOKEN.fullmatch(name):
        raise UsageError(f"--header name {show(name, 60)!r} is not a valid HTTP header name")
    if any(c in value for c in "\r\n\x00"):
        raise UsageError(f"--header {name}: the value contains a line break or NUL")
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        raise UsageError(f"--header {name}: the value has characters HTTP headers cannot carry") from None
    return name, value


def origin(url: httpx.URL) -> tuple[str, str, int | None]:
    """Scheme, host and port: caller-supplied headers go only to the origin of the URL the caller gave."""
    return (url.scheme, url.host, url.port)
