"""Why a card could not be fetched: one exception class per reason, each ``str()`` a complete message.

Server- and user-supplied text in messages goes through ``show``, so it cannot break a terminal line.
"""

from __future__ import annotations

import re

import httpx

from a2a_docgen.errors import FetchError

__all__ = [
    "AddressRefused",
    "CardFetchError",
    "CardNotFound",
    "CardWriteError",
    "ConnectionFailed",
    "FetchTimeout",
    "HTTPStatusError",
    "InvalidCardJSON",
    "NotACard",
    "RedirectRefused",
    "ResponseTooLarge",
    "UnsupportedContentType",
    "UnsupportedEncoding",
    "show",
]

_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def show(text: str | httpx.URL, limit: int = 300) -> str:
    """Server- or user-supplied text made safe for one line of a terminal."""
    shown = _UNPRINTABLE.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


class CardFetchError(FetchError):
    """A card could not be fetched from ``url``; the message says why."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{show(url)}: {reason}")
        self.url = url
        self.reason = reason


class FetchTimeout(CardFetchError):
    """The server did not answer (or finish answering) in time."""


class ConnectionFailed(CardFetchError):
    """No connection, TLS failure, or the connection broke mid-answer."""


class HTTPStatusError(CardFetchError):
    """The server answered with a status that is not a card."""

    def __init__(self, url: str, status: int, reason: str) -> None:
        super().__init__(url, reason)
        self.status = status


class CardNotFound(HTTPStatusError):
    """Neither well-known path has a card (404 or 410 on every candidate)."""


class RedirectRefused(CardFetchError):
    """Too many redirects, a loop, a redirect to a scheme other than http and https, or from https to http."""


class AddressRefused(CardFetchError):
    """The URL (or a redirect) leads to a loopback, private, link-local ... address; nothing was sent."""


class ResponseTooLarge(CardFetchError):
    """The body is larger than the cap; it was not read."""


class UnsupportedContentType(CardFetchError):
    """The server answered with something that is not JSON (an HTML page ...)."""


class UnsupportedEncoding(CardFetchError):
    """The server compressed its answer although none was asked for; it was not decoded."""


class NotACard(CardFetchError):
    """The answer is JSON but not an Agent Card (no usable name); nothing was written."""


class InvalidCardJSON(CardFetchError):
    """The body is not a usable JSON object; ``line`` and ``column`` are 1-based."""

    def __init__(self, url: str, reason: str, line: int, column: int) -> None:
        super().__init__(url, f"line {line} column {column}: {reason}")
        self.line = line
        self.column = column


class CardWriteError(FetchError):
    """The card was fetched but could not be written to the output directory."""
