"""Format checks for card strings: URLs, media types, protocol versions and bindings.

Each check returns ``None`` when the value is fine, or a ``Problem`` (severity, code, message) that the
rules attach to the value's pointer. Messages say what to write instead.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from a2a_docgen.diagnostics import (
    BINDING_UNKNOWN,
    MEDIA_TYPE_INVALID,
    PROTOCOL_VERSION_FORMAT,
    URL_INVALID,
    URL_NOT_HTTPS,
    URL_NOT_WEB,
    URL_PLACEHOLDER,
    Code,
)
from a2a_docgen.load.reader import quote
from a2a_docgen.model import Severity
from a2a_docgen.protocol import CORE_BINDINGS, TRANSPORT_NAMES, canonical_binding, version_format
from a2a_docgen.text.urls import is_local_host, valid_host
from a2a_docgen.validate.text import invisible_characters

__all__ = [
    "Problem",
    "bare_word_media_type",
    "check_binding",
    "check_media_type",
    "check_protocol_version",
    "check_uri",
    "check_url",
]


@dataclass(frozen=True, slots=True, init=False)
class Problem:
    """A format problem: its code, the message, and the severity (from the registry unless the code has several)."""

    code: Code
    message: str
    severity: Severity

    def __init__(self, code: Code, message: str, severity: Severity | None = None) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "severity", code.resolve(severity))


# -- URLs ---------------------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(
    r"<[^<>]*>|\{[^{}]*\}|\$\{|%[A-Z_]+%|\bYOUR[_-][A-Z_]+\b|\[[A-Za-z][A-Za-z0-9_-]*\]"
)
"""``<host>``, ``{BASE_URL}``, ``${X}``, ``%X%``, ``YOUR_X``, ``[PROJECT_ID]`` (brackets hold only an IPv6 address,
and one never starts with a letter other than a-f followed by no colon)."""
_URI_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_WHITESPACE_OR_CONTROL = re.compile(r"[\x00-\x20\x7f-\x9f]")
_HOST_PORT = re.compile(r"^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):(\d{1,5})$")


_NOT_IN_URLS = re.compile(r'[<>{}"`|\\^]|%(?![0-9A-Fa-f]{2})')
"""Characters no URL holds as they are (RFC 3986), and a ``%`` that starts no escape."""


def _placeholder(value: str, *, uri: bool = False) -> Problem | None:
    """A placeholder never filled in: an error when it makes the value no URL (``https://<host>/``,
    ``{BASE_URL}/a2a``), a warning when the URL is valid as written (``https://YOUR-SERVICE.onrender.com/``)."""
    match = _PLACEHOLDER.search(value)
    if match is None:
        return None
    if _valid_as_written(value, uri=uri) and not match.group().startswith(
        "["
    ):  # a bracketed name: never valid
        return Problem(
            URL_PLACEHOLDER,
            f"{quote(value)} looks like a template placeholder ({match.group()}) that was never filled in; it is "
            f"a valid {'URI' if uri else 'URL'} as written, but probably not the real one: write the real one",
        )
    return Problem(
        URL_INVALID,
        f"{quote(value)} looks like a template placeholder ({match.group()}) that was never filled in; "
        "write the real URL",
    )


def _valid_as_written(value: str, *, uri: bool) -> bool:
    """An absolute http(s) URL with a valid host (or, for a URI, any absolute URI) with nothing a URL cannot
    hold: no space, control or invisible character, bracket, brace or stray ``%``."""
    if _NOT_IN_URLS.search(value) or _WHITESPACE_OR_CONTROL.search(value) or invisible_characters(value):
        return False
    if uri and _URI_SCHEME.match(value) and value.split(":", 1)[0].lower() not in ("http", "https"):
        return value.split(":", 1)[0].lower() not in _ACTIVE_SCHEMES
    parts = _split(value)
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return False
    return valid_host(parts.hostname or "")


WEB_SCHEMES = frozenset({"http", "https"})
"""What most URL fields of a card may use: a page, an OAuth endpoint, a provider's site."""
ICON_SCHEMES = frozenset({"http", "https", "data"})
"""``iconUrl``: the spec types it as a URL with no scheme restriction, and an inline ``data:`` image is common."""
CUSTOM_BINDING_SCHEMES = frozenset({"http", "https", "ws", "wss"})
"""An interface with a custom binding named by a URI (spec section 5.8) may be served over WebSockets."""
_ENCRYPTED = {"http": "https", "ws": "wss"}
_DATA_IMAGE = re.compile(r"data:image/[A-Za-z0-9.+-]+[;,]", re.IGNORECASE)


def check_url(
    value: str, *, what: str = "URL", grpc: bool = False, schemes: frozenset[str] = WEB_SCHEMES
) -> Problem | None:
    """An absolute URL of one of ``schemes`` (or, when ``grpc``, also ``host:port``); plain http (or ws) only
    for local hosts. A ``data:`` URL (where ``schemes`` allows it) must hold an image."""
    if "data" in schemes and value[:5].lower() == "data:":  # an inline SVG's "<svg" is no placeholder
        if _DATA_IMAGE.match(value):
            return _hidden_characters(value, what)
        return Problem(
            URL_INVALID, f"the {what} {quote(value)} is a data: URL that holds no image (data:image/...)"
        )
    problem = _placeholder(value) or _hidden_characters(value, what)
    if problem is not None:
        return problem
    host_port = _HOST_PORT.match(value) if grpc else None
    if host_port is not None and 0 < int(host_port.group(1)) < 65536:
        return None
    parts = _split(value)
    if parts is None:
        return Problem(URL_INVALID, f"the {what} {quote(value)} is not a valid URL (bad host or port)")
    scheme = parts.scheme.lower()
    expected = 'an absolute URL such as "https://agent.example.com/a2a"'
    if grpc:
        expected += ' or, for gRPC, "host:port" such as "grpc.example.com:443"'
    if schemes - WEB_SCHEMES:
        expected += f" (schemes: {', '.join(sorted(schemes))})"
    if scheme not in schemes or not parts.netloc:
        hint = ""
        if not _URI_SCHEME.match(value) and not grpc:
            hint = ' (it has no scheme: add "https://")' if "." in value.split("/", maxsplit=1)[0] else ""
        return Problem(URL_INVALID, f"the {what} {quote(value)} must be {expected}{hint}")
    host = parts.hostname or ""
    if not valid_host(host):
        return Problem(URL_INVALID, f"the {what} {quote(value)} has no valid host name")
    if scheme in _ENCRYPTED and not is_local_host(host):
        return Problem(
            URL_NOT_HTTPS,
            f"the {what} {quote(value)} uses plain {scheme}; use {_ENCRYPTED[scheme]} so the traffic is encrypted "
            "and the server authenticated",
        )
    return None


def _split(value: str) -> SplitResult | None:
    """``urlsplit`` with the port parsed (it raises for a bad port or IPv6 literal), or None."""
    try:
        parts = urlsplit(value)
        _ = parts.port
    except ValueError:
        return None
    return parts


def _hidden_characters(value: str, what: str) -> Problem | None:
    """Spaces, control characters and invisible ones (zero-width, bidi) have no place in a URL."""
    invisible = invisible_characters(value)
    if invisible:
        return Problem(
            URL_INVALID,
            f"the {what} {quote(value)} contains an invisible character ({invisible[0][1]}) that can make it "
            "look like another address; remove it",
        )
    if _WHITESPACE_OR_CONTROL.search(value):
        return Problem(
            URL_INVALID,
            f"the {what} {quote(value)} contains spaces or control characters; remove them "
            "(percent-encode a space inside a path as %20)",
        )
    return None


_ACTIVE_SCHEMES = frozenset({"javascript", "vbscript", "data", "file", "blob", "about"})


def check_custom_binding_url(value: str) -> Problem | None:
    """The URL of an interface whose binding is a custom one named by a URI (spec section 5.8): a web URL as
    ``check_url`` wants it (``ws``/``wss`` too), else any absolute URI that runs nothing is a warning, since the
    spec puts no scheme constraint on it (``mailto:`` for a binding over e-mail)."""
    problem = check_url(value, what="interface URL", schemes=CUSTOM_BINDING_SCHEMES)
    if problem is None or problem.code is not URL_INVALID or _split(value) is None:
        return problem
    if (
        check_uri(value, what="interface URL") is not None
        or value.split(":", 1)[0].lower() in CUSTOM_BINDING_SCHEMES
    ):
        return problem
    return Problem(
        URL_NOT_WEB,
        f"the interface URL {quote(value)} is no web URL ({', '.join(sorted(CUSTOM_BINDING_SCHEMES))}); the "
        "specification puts no scheme constraint on the URL of a custom binding, so it may be right, but web "
        "clients cannot use it",
    )


def check_uri(value: str, *, what: str = "URI") -> Problem | None:
    """An absolute URI of any scheme (``https:``, ``urn:`` ...), as identifiers such as extension URIs are."""
    problem = _placeholder(value, uri=True) or _hidden_characters(value, what)
    if problem is not None:
        return problem
    if not _URI_SCHEME.match(value):
        return Problem(
            URL_INVALID,
            f'the {what} {quote(value)} must be an absolute URI such as "https://example.com/ext/v1" or '
            '"urn:example:ext"',
        )
    scheme = value.split(":", 1)[0].lower()
    if scheme in _ACTIVE_SCHEMES:
        return Problem(
            URL_INVALID,
            f'the {what} {quote(value)} uses the "{scheme}:" scheme, which runs or embeds content; an identifier '
            'is an "https:" or "urn:" URI',
        )
    if scheme in ("http", "https"):
        parts = _split(value)
        if parts is None:
            return Problem(URL_INVALID, f"the {what} {quote(value)} has an invalid host or port")
        if not parts.hostname:
            return Problem(URL_INVALID, f"the {what} {quote(value)} has no host name")
    return None


# -- media types (RFC 6838 section 4.2, parameters per RFC 9110 section 8.3.1) ------------------------------------

_NAME = r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
_PARAM_CHARS = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_QUOTED = r'"(?:[^"\\\x00-\x1f\x7f]|\\.)*"'
_MEDIA_TYPE = re.compile(
    rf"^(?:{_NAME}/{_NAME}|{_NAME}/\*|\*/\*)(?:[ \t]*;[ \t]*{_PARAM_CHARS}=(?:{_PARAM_CHARS}|{_QUOTED}))*$"
)
_BARE_HINTS = {
    "text": "text/plain",
    "txt": "text/plain",
    "string": "text/plain",
    "plain": "text/plain",
    "json": "application/json",
    "data": "application/json",
    "html": "text/html",
    "markdown": "text/markdown",
    "md": "text/markdown",
    "csv": "text/csv",
    "pdf": "application/pdf",
    "file": "application/octet-stream",
    "binary": "application/octet-stream",
    "image": "image/png",
    "png": "image/png",
    "jpeg": "image/jpeg",
    "jpg": "image/jpeg",
    "audio": "audio/mpeg",
    "video": "video/mp4",
}


@functools.lru_cache(maxsize=1024)  # a catalogue names a few media types many times
def check_media_type(value: str) -> Problem | None:
    """``type/subtype`` with optional parameters (``text/plain; charset=utf-8``); ``*/*`` ranges allowed."""
    if _MEDIA_TYPE.match(value):
        return None
    hint = bare_word_media_type(value)
    suggestion = f' (did you mean "{hint}"?)' if hint else ' such as "text/plain" or "application/json"'
    if value != value.strip() and _MEDIA_TYPE.match(value.strip()):
        suggestion = f": remove the surrounding spaces ({quote(value.strip())})"
    # One rule for every string that is no media type, a bare word ("text") or not ("task-status"): the spec
    # types modes as plain strings and the SDKs read any, so the card still loads; a client that matches media
    # types matches none of them (docs/diagnostics.md).
    return Problem(MEDIA_TYPE_INVALID, f"{quote(value)} is not a media type; write type/subtype{suggestion}")


def bare_word_media_type(value: str) -> str | None:
    """The media type a bare word written as a mode stands for (``"text"`` -> ``"text/plain"``), or None."""
    return _BARE_HINTS.get(value.strip().lower())


# -- protocol versions and bindings -------------------------------------------------------------------------


def check_protocol_version(value: str, *, allow_patch: bool) -> Problem | None:
    """v1.0 interfaces: ``Major.Minor`` (a patch is tolerated with a warning). v0.3 cards: patch allowed."""
    parts = version_format(value)
    if parts is not None and (not parts[1] or allow_patch):
        return None
    if parts is not None:
        return Problem(
            PROTOCOL_VERSION_FORMAT,
            f"protocol version {quote(value)} has a patch number, which cards SHOULD NOT carry (A2A section 3.6): "
            f'write "{parts[0]}"',
            "warning",
        )
    expected = (
        '"Major.Minor" or "Major.Minor.Patch", e.g. "0.3.0"' if allow_patch else '"Major.Minor", e.g. "1.0"'
    )
    return Problem(PROTOCOL_VERSION_FORMAT, f"protocol version {quote(value)} must be {expected}", "error")


def check_binding(value: str) -> Problem | None:
    """One of the core bindings, or a URI naming a custom one (A2A section 5.8)."""
    if value in CORE_BINDINGS:
        return None
    hint = canonical_binding(value)
    written = value.strip()
    if hint is not None and written.upper() == hint:
        return Problem(
            BINDING_UNKNOWN,
            f'unknown protocol binding {quote(value)}: the core bindings are case-sensitive; write "{hint}"',
        )
    if hint is not None and written.upper() == "REST":
        return Problem(
            BINDING_UNKNOWN,
            f"unknown protocol binding {quote(value)}: REST is not a binding name, but the specification calls "
            f'its HTTP+JSON binding "HTTP+JSON/REST", so it most likely means that one; write "{hint}"',
        )
    if hint is not None:
        return Problem(
            BINDING_UNKNOWN,
            f"unknown protocol binding {quote(value)}: not a binding name, but most likely a spelling of "
            f'"{hint}"; write "{hint}"',
        )
    if written.upper() in TRANSPORT_NAMES:
        return Problem(
            BINDING_UNKNOWN,
            f"unknown protocol binding {quote(value)}: HTTP(S) is what JSON-RPC and HTTP+JSON both run over, not "
            'a binding, so clients cannot tell which one the agent serves; write "JSONRPC" or "HTTP+JSON"',
        )
    custom_uri = _URI_SCHEME.match(value) and value.split(":", 1)[0].lower() not in _ACTIVE_SCHEMES
    if custom_uri and not _WHITESPACE_OR_CONTROL.search(value):
        return None
    return Problem(
        BINDING_UNKNOWN,
        f'unknown protocol binding {quote(value)}: use "JSONRPC", "GRPC" or "HTTP+JSON", or a URI for a custom '
        "binding (A2A section 5.8)",
    )
