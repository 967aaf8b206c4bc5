"""Fetch Agent Cards from running agents, within limits, and keep them in a directory.

An agent publishes its card at ``/.well-known/agent-card.json`` (A2A v0.3 and v1.0); agents built on
v0.2 used ``/.well-known/agent.json``, tried when the first answers 404 or 410. Servers are third parties:
every request has a timeout, redirects are followed by hand (counted, loop-checked, http and https only),
a body larger than the cap is refused without being read, and only JSON-ish content types are accepted.

Caller-supplied headers (``Authorization`` ...) are secrets: they are sent only to the origin of the URL
given, never written anywhere and never part of a message.

Nothing here prints: failures are ``FetchError`` subclasses whose ``str()`` is a complete message.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

import httpx

from a2a_docgen import __version__
from a2a_docgen.errors import FetchError, UsageError
from a2a_docgen.limits import DEFAULT_LIMITS, Limits
from a2a_docgen.load import SIDECAR_SUFFIX, load_card_bytes
from a2a_docgen.load.source import SourceError, line_col, parse_bytes
from a2a_docgen.model import Diagnostic, JSONObject
from a2a_docgen.protocol import media_type_essence
from a2a_docgen.text.jsonio import json_document

WELL_KNOWN_PATH = "/.well-known/agent-card.json"
"""Where A2A v0.3 and v1.0 agents publish their card (RFC 8615 well-known URI)."""
LEGACY_WELL_KNOWN_PATH = "/.well-known/agent.json"
"""Where A2A v0.2 agents published it; tried when the current path answers 404 or 410."""

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_REDIRECTS = 5

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_GONE_STATUSES = frozenset({404, 410})
_JSON_TYPES = frozenset({"application/json", "application/a2a+json"})
_TEXT_TYPES = frozenset({"text/plain"})
"""Accepted when the body parses as JSON (static file servers often say text/plain)."""
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP header name (RFC 9110 token)."""
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_SLUG_UNSAFE = re.compile(r"[^a-z0-9.-]+")
_MAX_STEM = 120


# --------------------------------------------------------------------------------------------- errors


class CardFetchError(FetchError):
    """A card could not be fetched from ``url``; the message says why."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{_show(url)}: {reason}")
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
    """Too many redirects, a loop, or a redirect to a scheme other than http and https."""


class ResponseTooLarge(CardFetchError):
    """The body is larger than the cap; it was not read."""


class UnsupportedContentType(CardFetchError):
    """The server answered with something that is not JSON (an HTML page ...)."""


class InvalidCardJSON(CardFetchError):
    """The body is not a usable JSON object; ``line`` and ``column`` are 1-based."""

    def __init__(self, url: str, reason: str, line: int, column: int) -> None:
        super().__init__(url, f"line {line} column {column}: {reason}")
        self.line = line
        self.column = column


class CardWriteError(FetchError):
    """The card was fetched but could not be written to the output directory."""


# ---------------------------------------------------------------------------------------------- URLs


def check_url(url: str) -> httpx.URL:
    """Parse a URL given by the user; raises ``UsageError`` unless it is an absolute http(s) URL."""
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError, ValueError):
        raise UsageError(f"{_show(url)} is not a valid URL") from None
    if not parsed.scheme:
        raise UsageError(f"{_show(url)}: give the whole URL, starting with https:// or http://")
    if parsed.scheme not in ("http", "https"):
        raise UsageError(f"{_show(url)}: only http and https URLs can be fetched")
    if not parsed.host:
        raise UsageError(f"{_show(url)}: the URL has no host")
    if parsed.userinfo:
        # Not echoed: it holds a password. Credentials belong in headers, which are never written out.
        raise UsageError("a URL contains a user name or password; pass credentials with --header instead")
    return parsed.copy_with(path=parsed.path or "/", fragment=None)


def names_a_card(url: httpx.URL) -> bool:
    """True when the URL is a card itself rather than an agent's base URL."""
    return url.path.endswith(".json") or "/.well-known/" in url.path


def card_urls(url: str | httpx.URL) -> list[httpx.URL]:
    """The URLs to try, in order: the URL itself when it names a card, else the two well-known paths."""
    parsed = url if isinstance(url, httpx.URL) else check_url(url)
    if names_a_card(parsed):
        return [parsed]
    base = parsed.path.rstrip("/")
    return [parsed.copy_with(path=base + path) for path in (WELL_KNOWN_PATH, LEGACY_WELL_KNOWN_PATH)]


def parse_header(text: str) -> tuple[str, str]:
    """``"Name: value"`` -> ``("Name", "value")``; raises ``UsageError`` (without echoing the value)."""
    name, colon, value = text.partition(":")
    if not colon:
        raise UsageError("--header must look like 'Name: value'")
    return check_header(name.strip(), value.strip())


def check_header(name: str, value: str) -> tuple[str, str]:
    """Check a header to send; the error never shows the value (it is usually a secret)."""
    if not _TOKEN.fullmatch(name):
        raise UsageError(f"--header name {_show(name, 60)!r} is not a valid HTTP header name")
    if any(c in value for c in "\r\n\x00"):
        raise UsageError(f"--header {name}: the value contains a line break or NUL")
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        raise UsageError(f"--header {name}: the value has characters HTTP headers cannot carry") from None
    return name, value


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return (url.scheme, url.host, url.port)


def _show(text: str | httpx.URL, limit: int = 300) -> str:
    """Server- or user-supplied text made safe for one line of a terminal."""
    shown = _UNPRINTABLE.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


# -------------------------------------------------------------------------------------------- fetching


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
    """The parsed card (members in document order)."""
    content_type: str | None
    etag: str | None
    last_modified: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class _Options:
    headers: Mapping[str, str]
    timeout: float
    max_bytes: int
    max_redirects: int
    etag: str | None = None
    last_modified: str | None = None
    cached_url: str | None = None

    @staticmethod
    def checked(
        headers: Mapping[str, str] | None, timeout: float, max_bytes: int, max_redirects: int
    ) -> _Options:
        """Options from the caller's values; raises ``UsageError`` for impossible ones."""
        if timeout <= 0 or max_bytes <= 0 or max_redirects < 0:
            raise UsageError("--timeout and --max-bytes must be positive, --max-redirects at least 0")
        return _Options(
            headers=dict(check_header(k, v) for k, v in (headers or {}).items()),
            timeout=timeout,
            max_bytes=max_bytes,
            max_redirects=max_redirects,
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
) -> FetchResult:
    """Fetch and parse one card.

    ``url`` is an agent's base URL (both well-known paths are tried) or a card URL (fetched as is).
    ``etag`` / ``last_modified`` make the request conditional; they are sent only on a request to
    ``cached_url`` (the URL they were received from), or on every request when it is ``None``.
    ``timeout`` bounds connecting and each wait for data, and each request as a whole (checked while
    reading). Raises ``UsageError`` for a URL that cannot be fetched at all, else ``CardFetchError``.
    """
    options = replace(
        _Options.checked(headers, timeout, max_bytes, max_redirects),
        etag=etag,
        last_modified=last_modified,
        cached_url=cached_url,
    )
    with _new_client(timeout) as client:
        return _fetch(client, url, options, limits)


def _new_client(timeout: float) -> httpx.Client:
    return httpx.Client(
        timeout=httpx.Timeout(timeout),
        follow_redirects=False,
        event_hooks={"response": [_stop_at_redirects]},
        headers={
            "User-Agent": f"a2a-docgen/{__version__}",
            "Accept": "application/json, application/a2a+json, */*;q=0.1",
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


def _fetch(client: httpx.Client, requested: str, options: _Options, limits: Limits) -> FetchResult:
    candidates = card_urls(requested)
    origin = _origin(candidates[0])
    misses: list[tuple[httpx.URL, _Answer]] = []
    for candidate in candidates:
        answer = _get(client, candidate, origin, options)
        if answer.status in _GONE_STATUSES and candidate is not candidates[-1]:
            misses.append((candidate, answer))
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
            raise _status_error(requested, answer, misses)
        return FetchResult(
            requested=requested,
            url=str(answer.url),
            not_modified=False,
            card=_parse(answer, limits),
            content_type=answer.headers.get("content-type"),
            etag=answer.headers.get("etag"),
            last_modified=answer.headers.get("last-modified"),
        )
    raise AssertionError("unreachable: the last candidate always returns or raises")


def _status_error(
    requested: str, answer: _Answer, misses: list[tuple[httpx.URL, _Answer]]
) -> HTTPStatusError:
    status = _status_text(answer)
    if answer.status in _GONE_STATUSES:
        if misses:
            tried = ", ".join(f"at {_show(url)} ({_status_text(a)})" for url, a in misses)
            legacy = f"at the legacy {_show(answer.url)} ({status})"
            return CardNotFound(requested, answer.status, f"no Agent Card {tried} nor {legacy}")
        return CardNotFound(str(answer.url), answer.status, f"{status}: no Agent Card at this URL")
    hint = ""
    if answer.status in (401, 403):
        hint = "; the card needs credentials: send them with --header 'Authorization: ...'"
    elif answer.status in _REDIRECT_STATUSES:
        hint = " without a Location header"
    return HTTPStatusError(str(answer.url), answer.status, f"{status}{hint}")


def _status_text(answer: _Answer) -> str:
    return f"HTTP {answer.status}" + (f" {_show(answer.reason, 80)}" if answer.reason else "")


def _conditional_headers(url: httpx.URL, options: _Options) -> dict[str, str]:
    if options.cached_url is not None and str(url) != options.cached_url:
        return {}
    headers = {}
    if options.etag:
        headers["If-None-Match"] = options.etag
    if options.last_modified:
        headers["If-Modified-Since"] = options.last_modified
    return headers


def _get(
    client: httpx.Client, url: httpx.URL, origin: tuple[str, str, int | None], options: _Options
) -> _Answer:
    """GET with redirects followed by hand; returns the first non-redirect answer (body read for 2xx)."""
    visited = [url]
    while True:
        current = visited[-1]
        headers = _conditional_headers(current, options)
        if _origin(current) == origin:
            headers.update(options.headers)  # secrets stay with the origin the user named
        deadline = time.monotonic() + options.timeout
        try:
            with client.stream("GET", current, headers=headers) as response:
                body = b""
                if 200 <= response.status_code < 300:
                    _check_content_type(current, response.headers.get("content-type"))
                    body = _read_capped(current, response, options.max_bytes, deadline, options.timeout)
                return _Answer(current, response.status_code, response.reason_phrase, response.headers, body)
        except _Redirected as redirect:
            visited.append(_redirect_target(current, redirect.location, visited, options.max_redirects))
        except httpx.TimeoutException:
            raise FetchTimeout(
                str(current), f"timed out: no answer within {options.timeout:g} s (--timeout)"
            ) from None
        except httpx.HTTPError as exc:
            raise ConnectionFailed(str(current), _transport_reason(exc)) from None


def _redirect_target(
    current: httpx.URL, location: str, visited: list[httpx.URL], max_redirects: int
) -> httpx.URL:
    try:
        target = current.join(location.strip())
    except (httpx.InvalidURL, ValueError):
        raise RedirectRefused(str(current), f"redirected to an invalid URL: {_show(location)}") from None
    if target.scheme not in ("http", "https"):
        scheme = _show(target.scheme or location.partition(":")[0], 40)
        raise RedirectRefused(
            str(current), f"refused a redirect to a {scheme}: URL; only http and https are followed"
        )
    target = target.copy_with(fragment=None)
    if target in visited:
        chain = " -> ".join(_show(u) for u in [*visited[visited.index(target) :], target])
        raise RedirectRefused(str(visited[0]), f"redirect loop: {chain}")
    if len(visited) > max_redirects:
        raise RedirectRefused(
            str(visited[0]), f"more than {max_redirects} redirects (--max-redirects); last to {_show(target)}"
        )
    return target


def _transport_reason(exc: httpx.HTTPError) -> str:
    # httpx messages hold the OS error, never request headers.
    detail = str(exc).strip() or type(exc).__name__
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect: {_show(detail, 200)}"
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"the server broke the HTTP protocol: {_show(detail, 200)}"
    return f"{type(exc).__name__}: {_show(detail, 200)}"


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
        str(url), f"the server answered with {_show(media_type, 80)}, not JSON (application/json expected)"
    )


def _read_capped(
    url: httpx.URL, response: httpx.Response, max_bytes: int, deadline: float, timeout: float
) -> bytes:
    too_large = f"the card is larger than {max_bytes} bytes (--max-bytes); it was not read"
    declared = response.headers.get("content-length", "").strip()
    if declared.isdigit() and int(declared) > max_bytes:
        raise ResponseTooLarge(str(url), f"{too_large} (Content-Length: {declared})")
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise ResponseTooLarge(str(url), too_large)
        chunks.append(chunk)
        if time.monotonic() > deadline:  # a server trickling bytes never trips the per-read timeout
            raise FetchTimeout(str(url), f"timed out: the answer took longer than {timeout:g} s (--timeout)")
    return b"".join(chunks)


def _parse(answer: _Answer, limits: Limits) -> JSONObject:
    try:
        parsed = parse_bytes(answer.body, limits)
    except SourceError as exc:
        reason = exc.problem.message
        media_type = answer.headers.get("content-type")
        if media_type and media_type_essence(media_type) in _TEXT_TYPES:
            reason += f" (the server said {_show(media_type, 80)})"
        raise InvalidCardJSON(str(answer.url), reason, *line_col(exc.text, exc.problem.offset)) from None
    return parsed.value


def format_card(card: JSONObject) -> str:
    """The card as written to disk: indent 2, UTF-8 text, members in document order, final newline.

    Raises ``ValueError`` for a value with no JSON spelling (infinite numbers).
    """
    return json_document(card)


# ------------------------------------------------------------------------------------------ directory


Status = Literal["written", "unchanged", "not-modified", "rejected", "failed"]


@dataclass(frozen=True, slots=True, kw_only=True)
class FetchOutcome:
    """What happened to one URL of ``fetch_to_directory``.

    ``written``: the card (and its sidecar) were written. ``unchanged``: the body was the same as the file
    already there, so nothing was rewritten. ``not-modified``: the server answered 304. ``rejected``: the
    card has errors and ``strict`` was set, so it was not written. ``failed``: see ``error``.
    """

    requested: str
    status: Status
    path: Path
    """The card file (written or not)."""
    url: str | None = None
    """The card's final URL, once known."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Validation findings for a fetched card; none for unchanged cards (they are not re-checked)."""
    error: FetchError | None = None

    @property
    def ok(self) -> bool:
        return self.status not in ("rejected", "failed")

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)


def sidecar_path(card_path: Path) -> Path:
    """``cards/host.json`` -> ``cards/host.fetch.json``."""
    return card_path.with_name(card_path.name.removesuffix(".json") + SIDECAR_SUFFIX)


def fetch_to_directory(
    urls: Sequence[str],
    out_dir: str | os.PathLike[str],
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_redirects: int = DEFAULT_MAX_REDIRECTS,
    strict: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    on_outcome: Callable[[FetchOutcome], object] | None = None,
) -> list[FetchOutcome]:
    """Fetch each URL into ``out_dir/<slug>.json`` (plus a ``.fetch.json`` sidecar), one outcome per URL.

    Every URL is checked before anything is fetched (``UsageError``); after that one URL's failure never
    stops the others. Each card is validated; an invalid card is still written unless ``strict``. Files
    are replaced atomically and left untouched (mtime included) when the server answers 304 or sends the
    same card again, so a directory under version control stays clean. ``on_outcome`` is called with
    each outcome as soon as it is known.
    """
    options = _Options.checked(headers, timeout, max_bytes, max_redirects)
    parsed: dict[str, tuple[str, httpx.URL]] = {}  # one fetch per distinct URL, kept as first written
    for given in urls:
        checked = check_url(given)
        parsed.setdefault(str(checked), (given.strip(), checked))
    unique = [given for given, _ in parsed.values()]
    stems = assign_stems([url for _, url in parsed.values()])
    directory = Path(out_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the output directory {directory}: {exc.strerror or exc}") from None
    outcomes: list[FetchOutcome] = []
    with _new_client(timeout) as client:
        for given, stem in zip(unique, stems, strict=True):
            outcomes.append(_fetch_one(client, given, directory / f"{stem}.json", options, strict, limits))
            if on_outcome is not None:
                on_outcome(outcomes[-1])
    return outcomes


def _fetch_one(
    client: httpx.Client, url: str, path: Path, options: _Options, strict: bool, limits: Limits
) -> FetchOutcome:
    meta_path = sidecar_path(path)
    previous = _read_sidecar(meta_path) if path.is_file() else None
    if previous is not None and previous.get("requested") == url:
        options = replace(
            options,
            etag=previous.get("etag"),
            last_modified=previous.get("last_modified"),
            cached_url=previous.get("url"),
        )
    try:
        result = _fetch(client, url, options, limits)
    except FetchError as exc:
        return FetchOutcome(requested=url, status="failed", path=path, error=exc)
    if result.not_modified:
        return FetchOutcome(requested=url, status="not-modified", path=path, url=result.url)
    assert result.card is not None
    data = format_card(result.card).encode("utf-8")
    metadata = {
        "url": result.url,
        "requested": url,
        "etag": result.etag,
        "last_modified": result.last_modified,
    }
    try:
        if _read_bytes(path) == data:
            if previous is None or any(previous.get(k) != metadata[k] for k in ("url", "requested")):
                _write_sidecar(meta_path, metadata)
            return FetchOutcome(requested=url, status="unchanged", path=path, url=result.url)
        diagnostics = _validate(data, str(path), limits)
        if strict and any(d.severity == "error" for d in diagnostics):
            located_at_url = tuple(replace(d, file=result.url) for d in diagnostics)
            return FetchOutcome(
                requested=url, status="rejected", path=path, url=result.url, diagnostics=located_at_url
            )
        write_atomic(path, data)
        _write_sidecar(meta_path, metadata)
    except OSError as exc:
        error = CardWriteError(f"cannot write {path}: {exc.strerror or exc}")
        return FetchOutcome(requested=url, status="failed", path=path, url=result.url, error=error)
    return FetchOutcome(requested=url, status="written", path=path, url=result.url, diagnostics=diagnostics)


def _validate(data: bytes, display: str, limits: Limits) -> tuple[Diagnostic, ...]:
    _card, diagnostics = load_card_bytes(data, display=display, limits=limits)
    return tuple(sorted(diagnostics, key=Diagnostic.sort_key))


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _read_sidecar(path: Path) -> dict[str, str] | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(value, dict):
        return None
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def _write_sidecar(path: Path, metadata: Mapping[str, str | None]) -> None:
    fetched_at = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    text = json.dumps({**metadata, "fetched_at": fetched_at}, indent=2, ensure_ascii=False)
    write_atomic(path, (_SURROGATE.sub("\ufffd", text) + "\n").encode("utf-8"))


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same directory and ``os.replace``: readers never see half a file."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would make fetched cards private
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


# ---------------------------------------------------------------------------------------------- names


def host_slug(url: httpx.URL) -> str:
    """``https://Agent.Example.com:8443/x`` -> ``agent.example.com-8443`` (IDNs in their ASCII form)."""
    host = url.raw_host.decode("ascii", "replace")
    return _slug(host + (f"-{url.port}" if url.port is not None else "")) or "agent"


def assign_stems(urls: Sequence[httpx.URL]) -> list[str]:
    """A distinct, safe file stem per URL: the host slug, plus a path suffix where hosts are shared.

    Deterministic and independent of order. A stem never contains ``/`` and never starts with ``.``.
    """
    hosts = [host_slug(u) for u in urls]
    stems = list(hosts)
    for i, url in enumerate(urls):
        if hosts.count(hosts[i]) > 1:
            suffix = _path_suffix(url)
            stems[i] = f"{hosts[i]}-{suffix}" if suffix else hosts[i]
        if stems[i].endswith(".fetch"):  # "x.fetch.json" would be the sidecar of "x.json"
            stems[i] = stems[i][: -len(".fetch")] + "-fetch"
    shared = {stem for stem in stems if stems.count(stem) > 1}
    return [
        _with_hash(stem, url) if stem in shared or len(stem) > _MAX_STEM else stem
        for stem, url in zip(stems, urls, strict=True)
    ]


def _path_suffix(url: httpx.URL) -> str:
    path = url.path
    for tail in (WELL_KNOWN_PATH, LEGACY_WELL_KNOWN_PATH, ".json"):
        path = path.removesuffix(tail)
    return _slug(path.replace("/", "-"))[:40].strip(".-")


def _with_hash(stem: str, url: httpx.URL) -> str:
    digest = hashlib.sha256(str(url).encode()).hexdigest()[:8]
    return f"{stem[: _MAX_STEM - 9].rstrip('.-')}-{digest}"


def _slug(text: str) -> str:
    return _SLUG_UNSAFE.sub("-", text.lower()).strip(".-")
