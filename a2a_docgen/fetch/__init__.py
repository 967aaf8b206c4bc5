"""Fetching live Agent Cards from running agents (``a2a-docgen fetch``).

- ``fetch.urls``: the URLs and headers a fetch may use, checked before anything is sent;
- ``fetch.addresses``: which addresses may be connected to (public ones, unless private ones are allowed);
- ``fetch.transport``: connections only to those addresses, every operation within the fetch's deadline;
- ``fetch.client``: one card fetched within limits (``fetch_card``);
- ``fetch.errors``: one exception per reason a fetch fails;
- ``fetch.store``: cards fetched into a directory (``fetch_to_directory``);
- ``fetch.saving``: one card kept there with its sidecar;
- ``fetch.catalogues``: the A2A cards an AI Catalog lists, followed;
- ``fetch.stems``: the file name of each fetched card.
"""

from __future__ import annotations

from a2a_docgen.fetch.catalogues import DEFAULT_MAX_ENTRIES
from a2a_docgen.fetch.client import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_TIMEOUT,
    FetchResult,
    fetch_card,
)
from a2a_docgen.fetch.errors import (
    AddressRefused,
    CardFetchError,
    CardNotFound,
    CardWriteError,
    ConnectionFailed,
    FetchTimeout,
    HTTPStatusError,
    InvalidCardJSON,
    NotACard,
    RedirectRefused,
    ResponseTooLarge,
    UnsupportedContentType,
    UnsupportedEncoding,
)
from a2a_docgen.fetch.stems import assign_stems
from a2a_docgen.fetch.store import FetchOutcome, fetch_to_directory, format_card
from a2a_docgen.fetch.urls import (
    CATALOG_WELL_KNOWN_PATH,
    LEGACY_WELL_KNOWN_PATH,
    WELL_KNOWN_PATH,
    card_urls,
    parse_header,
)

__all__ = [
    "CATALOG_WELL_KNOWN_PATH",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_ENTRIES",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_TIMEOUT",
    "LEGACY_WELL_KNOWN_PATH",
    "WELL_KNOWN_PATH",
    "AddressRefused",
    "CardFetchError",
    "CardNotFound",
    "CardWriteError",
    "ConnectionFailed",
    "FetchOutcome",
    "FetchResult",
    "FetchTimeout",
    "HTTPStatusError",
    "InvalidCardJSON",
    "NotACard",
    "RedirectRefused",
    "ResponseTooLarge",
    "UnsupportedContentType",
    "UnsupportedEncoding",
    "assign_stems",
    "card_urls",
    "fetch_card",
    "fetch_to_directory",
    "format_card",
    "parse_header",
]
