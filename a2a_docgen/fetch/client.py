"""Fetch one Agent Card from a running agent, within limits.

Servers are third parties: the whole fetch of a URL has one deadline (connecting, headers and body of every
request), connections go only to public addresses unless private ones are allowed (``fetch.transport``),
redirects are followed by hand (counted, loop-checked, http and https only, never from https to http), a
compressed answer is refused (none is asked for), a body larger than the cap is refused without being read, and
only JSON-ish content types are accepted. At a bare origin the host's AI Catalog is tried first (any failure
there, or an answer that is not a catalogue, moves on to the card); when the current well-known card path
answers 404 or 410, the legacy one is tried.

Caller-supplied headers (``Authorization`` ...) are secrets: they are sent only to the origin of the URL
given, never written anywhere and never part of a message.

Nothing here prints: failures are ``FetchError`` subclasses whose ``str()`` is a complete message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import httpx

from a2a_docgen.errors import UsageError
from a2a_docgen.fetch.errors import (
    AddressRefused,
    CardNotFound,
    ConnectionFailed,
    FetchTimeout,
    HTTPStatusError,
    InvalidCardJSON,
    RedirectRefused,
    ResponseTooLarge,
    UnsupportedContentType,
    UnsupportedEncoding,
    show,
)
from a2a_docgen.fetch.transport import Refused, Router, deadline
from a2a_docgen.fetch.urls import CATALOG_WELL_KNOWN_PATH, card_urls, check_header, check_url, origin
from a2a_docgen.limits import DEFAULT_LIMITS, Limits
from a2a_docgen.load.aicatalog import is_catalog
from a2a_docgen.load.source import ParsedSource, SourceError, line_col, parse_bytes
from a2a_docgen.model import JSONObject
from a2a_docgen.protocol import media_type_essence
from a2a_docgen.version import __version__

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_TIMEOUT",
    "FetchResult",
    "Options",
    "fetch_card",
    "fetch_with",
    "new_client",
    "post_json",
]

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_REDIRECTS = 5

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_GONE_STATUSES = frozenset({404, 410})
_JSON_TYPES = frozenset({"application/json", "application/a2a+json"})
_TEXT_TYPES = frozenset({"text/plain"})
"""Accepted when the body parses as JSON (static file servers often say text/plain)."""
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


@dataclass(frozen=True, slots=True, kw_only=True)
class FetchResult:
    """What one fetch brought back."""

    requested: str
    """The URL as given."""
    url: str
    """The card's URL after the legacy fallback and redirects."""
    not_modified: bool
    """The server answered 304 to a conditional request: ``card`` is ``None``, keep the copy you have."""
    card: JSONObject | None
    """The parsed card (members in document order), or the AI Catalog found instead."""
    content_type: str | None
    etag: str | None
    last_modified: str | None
    text: str = field(default="", repr=False)
    """The answer's text, for locating findings in it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """How to fetch: headers to send, the bounds of each request, and what a conditional request sends."""

    headers: Mapping[str, str]
    timeout: float
    max_bytes: int
    max_redirects: int
    allow_private: bool = False
    """Connect to loopback, private, link-local ... addresses too (``--allow-private``)."""
    etag: str | None = None
    last_modified: str | None = None
    cached_url: str | None = None
    exact: bool = False
    """Fetch the URL as it is, never the well-known paths below it (a catalogue entry's ``url``)."""
    secrets_origin: tuple[str, str, int | None] | None = None
    """The origin ``headers`` go to; ``None``: the URL fetched's own. An entry of a catalogue is fetched with
    the origin of the URL the user gave, so a catalogue cannot send the user's headers elsewhere."""

    @staticmethod
    def checked(
        headers: Mapping[str, str] | None,
        timeout: float,
        max_bytes: int,
        max_redirects: int,
        *,
        allow_private: bool = False,
    ) -> Options:
        """Options from the caller's values; raises ``UsageError`` for impossible ones."""
        if timeout <= 0 or max_bytes <= 0 or max_redirects < 0:
            raise UsageError("--timeout and --max-bytes must be positive, --max-redirects at least 0")
        return Options(
            headers=dict(check_header(k, v) for k, v in (headers or {}).items()),
            timeout=timeout,
            max_bytes=max_bytes,
            max_redirects=max_redirects,
            allow_private=allow_private,
        )


@dataclass(frozen=True, slots=True)
class _Answer:
    url: httpx.URL
    status: int
    reason: str
    headers: httpx.Headers
    body: bytes


def fetch_card(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_redirects: int = DEFAULT_MAX_REDIRECTS,
    etag: str | None = None,
    last_modified: str | None = None,
    cached_url: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    allow_private: bool = False,
) -> FetchResult:
    """Fetch and parse one card.

    ``url`` is an agent's base URL (both well-known paths are tried) or a card URL (fetched as is).
    ``etag`` / ``last_modified`` make the request conditional; they are sent only on a request to
    ``cached_url`` (the URL they were received from), or on every request when it is ``None``.
    ``timeout`` bounds the whole fetch: resolving, connecting, headers and body of every request (redirects and
    the legacy fallback included). Loopback, private, link-local, unique-local, shared, multicast, reserved and
    unspecified addresses are refused unless ``allow_private``. Raises ``UsageError`` for a URL that cannot be
    fetched at all, else ``CardFetchError``.
    """
    options = replace(
        Options.checked(headers, timeout, max_bytes, max_redirects, allow_private=allow_private),
        etag=etag,
        last_modified=last_modified,
        cached_url=cached_url,
    )
    with new_client(timeout, allow_private=allow_private) as client:
        return fetch_with(client, url, options, limits)


def new_client(timeout: float, *, allow_private: bool = False) -> httpx.Client:
    return httpx.Client(
        transport=Router(allow_private=allow_private),
        timeout=httpx.Timeout(timeout),
        follow_redirects=False,
        event_hooks={"response": [_stop_at_redirects]},
        headers={
            "User-Agent": f"a2a-docgen/{__version__}",
            "Accept": "application/json, application/a2a+json, application/ai-catalog+json, */*;q=0.1",
            "Accept-Encoding": "identity",
        },
    )


class _Redirected(Exception):
    def __init__(self, location: str) -> None:
        super().__init__(location)
        self.location = location


def _stop_at_redirects(response: httpx.Response) -> None:
    """Hand redirects to ``_get`` before httpx prepares the next request itself.

    Even when not following redirects, httpx builds that request, and fails on a ``Location`` such as
    ``javascript:...`` before the caller can see it.
    """
    if response.has_redirect_location:
        raise _Redirected(response.headers["location"])


def fetch_with(client: httpx.Client, requested: str, options: Options, limits: Limits) -> FetchResult:
    """Fetch ``requested`` (``fetch_card``) with ``client`` (from ``new_client``), all within ``options.timeout``."""
    with deadline(options.timeout):
        return _fetch(client, requested, options, limits)


def _fetch(client: httpx.Client, requested: str, options: Options, limits: Limits) -> FetchResult:
    candidates = [check_url(requested)] if options.exact else card_urls(requested)
    named = options.secrets_origin or origin(candidates[0])
    misses: list[tuple[httpx.URL, str]] = []
    for candidate in candidates:
        optional = candidate.path.endswith(CATALOG_WELL_KNOWN_PATH) and candidate is not candidates[-1]
        try:
            answer = _get(client, candidate, named, options)
        except UnsupportedContentType:
            if not optional:
                raise
            misses.append((candidate, "not JSON"))  # a site's own page for unknown paths
            continue
        if answer.status in _GONE_STATUSES and candidate is not candidates[-1]:
            misses.append((candidate, _status_text(answer)))
            continue
        if answer.status == 304 and _conditional_headers(answer.url, options):
            return FetchResult(
                requested=requested,
                url=str(answer.url),
                not_modified=True,
                card=None,
                content_type=None,
                etag=answer.headers.get("etag", options.etag),
                last_modified=answer.headers.get("last-modified", options.last_modified),
            )
        if not 200 <= answer.status < 300:
            if optional:  # the host serves no catalogue (the card paths have their own errors)
                misses.append((candidate, _status_text(answer)))
                continue
            raise _status_error(requested, answer, misses)
        content_type = answer.headers.get("content-type")
        try:
            parsed = _parse(answer, limits)
        except InvalidCardJSON:
            if not optional:
                raise
            misses.append((candidate, "not JSON"))
            continue
        card = parsed.value
        if optional and not is_catalog(card, content_type):
            misses.append((candidate, "not an AI Catalog"))
            continue
        return FetchResult(
            requested=requested,
            url=str(answer.url),
            not_modified=False,
            card=card,
            content_type=content_type,
            etag=answer.headers.get("etag"),
            last_modified=answer.headers.get("last-modified"),
            text=parsed.text,
        )
    raise AssertionError("unreachable: the last candidate always returns or raises")


def _status_error(requested: str, answer: _Answer, misses: list[tuple[httpx.URL, str]]) -> HTTPStatusError:
    status = _status_text(answer)
    if answer.status in _GONE_STATUSES:
        if misses:
            catalogue = [(u, why) for u, why in misses if u.path.endswith(CATALOG_WELL_KNOWN_PATH)]
            cards = [(u, why) for u, why in misses if u.path.endswith(CATALOG_WELL_KNOWN_PATH) is False]
            tried = ", ".join(f"at {show(url)} ({why})" for url, why in cards)
            legacy = f"at the legacy {show(answer.url)} ({status})"
            found = "".join(f"no AI Catalog at {show(u)} ({why}), " for u, why in catalogue)
            return CardNotFound(requested, answer.status, f"{found}no Agent Card {tried} nor {legacy}")
        return CardNotFound(str(answer.url), answer.status, f"{status}: no Agent Card at this URL")
    hint = ""
    if answer.status in (401, 403):
        hint = "; the card needs credentials: send them with --header 'Authorization: ...'"
    elif answer.status in _REDIRECT_STATUSES:
        hint = " without a Location header"
    return HTTPStatusError(str(answer.url), answer.status, f"{status}{hint}")


def _status_text(answer: _Answer) -> str:
    return f"HTTP {answer.status}" + (f" {show(answer.reason, 80)}" if answer.reason else "")


def _conditional_headers(url: httpx.URL, options: Options) -> dict[str, str]:
    if options.cached_url is not None and str(url) != options.cached_url:
        return {}
    headers = {}
    if options.etag:
        headers["If-None-Match"] = options.etag
    if options.last_modified:
        headers["If-Modified-Since"] = options.last_modified
    return headers


def post_json(
    client: httpx.Client, url: str, body: JSONObject, options: Options, limits: Limits
) -> FetchResult:
    """POST ``body`` as JSON to ``url`` (a JSON-RPC call) and parse the answer, within ``options.timeout``,
    under the rules of a GET; a redirect is not followed (it would carry the request's credential)."""
    with deadline(options.timeout):
        target = check_url(url)
        named = options.secrets_origin or origin(target)
        content = json.dumps(body, ensure_ascii=False).encode("utf-8")
        answer = _get(client, target, named, options, content)
        if not 200 <= answer.status < 300:
            raise _status_error(url, answer, [])
        parsed = _parse(answer, limits)
        return FetchResult(
            requested=url,
            url=str(answer.url),
            not_modified=False,
            card=parsed.value,
            content_type=answer.headers.get("content-type"),
            etag=None,
            last_modified=None,
            text=parsed.text,
        )


def _get(
    client: httpx.Client,
    url: httpx.URL,
    named: tuple[str, str, int | None],
    options: Options,
    content: bytes | None = None,
) -> _Answer:
    """GET (or POST ``content`` as JSON) with redirects followed by hand (a GET's only); returns the first
    non-redirect answer (body read for 2xx)."""
    visited = [url]
    method = "GET" if content is None else "POST"
    while True:
        current = visited[-1]
        headers = _conditional_headers(current, options)
        if origin(current) == named:
            headers.update(options.headers)  # secrets stay with the origin the user named
        if content is not None:
            headers["Content-Type"] = "application/json"
        try:
            with client.stream(method, current, headers=headers, content=content) as response:
                body = b""
                if 200 <= response.status_code < 300:
                    _check_content_type(current, response.headers.get("content-type"))
                    _check_encoding(current, response.headers)
                    body = _read_capped(current, response, options.max_bytes)
                return _Answer(current, response.status_code, response.reason_phrase, response.headers, body)
        except _Redirected as redirect:
            if content is not None:
                raise RedirectRefused(
                    str(current), "the agent redirected a POST; it is not followed"
                ) from None
            visited.append(_redirect_target(current, redirect.location, visited, options.max_redirects))
        except Refused as refused:
            raise AddressRefused(str(current), str(refused)) from None
        except httpx.TimeoutException:
            raise FetchTimeout(
                str(current),
                f"timed out: the fetch took longer than {options.timeout:g} s (--timeout)",
            ) from None
        except httpx.HTTPError as exc:
            raise ConnectionFailed(str(current), _transport_reason(exc)) from None


def _redirect_target(
    current: httpx.URL, location: str, visited: list[httpx.URL], max_redirects: int
) -> httpx.URL:
    try:
        target = current.join(location.strip())
    except (httpx.InvalidURL, ValueError):
        raise RedirectRefused(str(current), f"redirected to an invalid URL: {show(location)}") from None
    if target.scheme not in ("http", "https"):
        scheme = show(target.scheme or location.partition(":")[0], 40)
        raise RedirectRefused(
            str(current), f"refused a redirect to a {scheme}: URL; only http and https are followed"
        )
    if current.scheme == "https" and target.scheme == "http":
        raise RedirectRefused(
            str(current), f"refused a redirect from https to http ({show(target)}): it would drop encryption"
        )
    target = target.copy_with(fragment=None)
    if target in visited:
        chain = " -> ".join(show(u) for u in [*visited[visited.index(target) :], target])
        raise RedirectRefused(str(visited[0]), f"redirect loop: {chain}")
    if len(visited) > max_redirects:
        raise RedirectRefused(
            str(visited[0]), f"more than {max_redirects} redirects (--max-redirects); last to {show(target)}"
        )
    return target


def _transport_reason(exc: httpx.HTTPError) -> str:
    # httpx messages hold the OS error, never request headers.
    detail = str(exc).strip() or type(exc).__name__
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect: {show(detail, 200)}"
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"the server broke the HTTP protocol: {show(detail, 200)}"
    return f"{type(exc).__name__}: {show(detail, 200)}"


def _check_content_type(url: httpx.URL, value: str | None) -> None:
    media_type = media_type_essence(value or "")
    if (
        not media_type
        or media_type in _JSON_TYPES
        or media_type in _TEXT_TYPES
        or media_type.endswith("+json")
    ):
        return
    if media_type in _HTML_TYPES:
        raise UnsupportedContentType(
            str(url), f"the server answered with {media_type}; is this the agent's base URL?"
        )
    raise UnsupportedContentType(
        str(url), f"the server answered with {show(media_type, 80)}, not JSON (application/json expected)"
    )


_IDENTITY = frozenset({"", "identity"})


def _check_encoding(url: httpx.URL, headers: httpx.Headers) -> None:
    """Only ``identity`` was asked for; a compressed answer is refused, never decoded (a few kilobytes of
    ``gzip, gzip`` decode to gigabytes)."""
    codings = [c.strip().lower() for value in headers.get_list("content-encoding") for c in value.split(",")]
    unasked = [c for c in codings if c not in _IDENTITY]
    if unasked:
        raise UnsupportedEncoding(
            str(url),
            f"the server compressed its answer ({show(', '.join(unasked), 80)}) although none was asked for "
            "(Accept-Encoding: identity); it was not decoded",
        )


def _read_capped(url: httpx.URL, response: httpx.Response, max_bytes: int) -> bytes:
    too_large = f"the card is larger than {max_bytes} bytes (--max-bytes); it was not read"
    declared = response.headers.get("content-length", "").strip()
    if declared.isdigit() and int(declared) > max_bytes:
        raise ResponseTooLarge(str(url), f"{too_large} (Content-Length: {declared})")
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_raw():  # the bytes as sent: nothing is decoded
        size += len(chunk)
        if size > max_bytes:
            raise ResponseTooLarge(str(url), too_large)
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(answer: _Answer, limits: Limits) -> ParsedSource:
    try:
        parsed = parse_bytes(answer.body, limits)
    except SourceError as exc:
        reason = exc.problem.message
        media_type = answer.headers.get("content-type")
        if media_type and media_type_essence(media_type) in _TEXT_TYPES:
            reason += f" (the server said {show(media_type, 80)})"
        raise InvalidCardJSON(str(answer.url), reason, *line_col(exc.text, exc.problem.offset)) from None
    return parsed
