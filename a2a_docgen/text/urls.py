"""URL safety: which URLs a page may link to, in what form, and what counts as a valid host.

One implementation for every stage: the renderer links only what ``safe_url`` returns, the validator judges
hosts with ``valid_host`` and ``is_local_host``, and ``fetch`` refuses a URL whose host ``valid_host`` refuses.
"""

from __future__ import annotations

import functools
import ipaddress
import re
import unicodedata
from urllib.parse import SplitResult, urlsplit

from a2a_docgen.limits import DEFAULT_LIMITS

__all__ = ["comparable_url", "is_ip_address", "is_local_host", "normal_host", "safe_url", "valid_host"]

# Kept as they are in a URL; everything else is percent-encoded (``%`` itself only before two hex digits).
_URL_KEEP = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@!$&+,;=")
_HEX = frozenset("0123456789abcdefABCDEF")
# ``&lt;`` or ``&#106;`` in a URL: both Markdown engines decode them in a link destination, so the ``&`` is
# encoded there and the href stays what the card says.
_ENTITY_LIKE = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);")
_HOST_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_MAIL_LOCAL = re.compile(r"[A-Za-z0-9._+-]{1,64}")
_URL_REJECTED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"})


def _percent_encode(s: str) -> str:
    entity_amps = {m.start() for m in _ENTITY_LIKE.finditer(s)}
    out: list[str] = []
    for i, ch in enumerate(s):
        if ch == "%":
            out.append("%" if s[i + 1 : i + 2] in _HEX and s[i + 2 : i + 3] in _HEX else "%25")
        elif ch in _URL_KEEP and i not in entity_amps:
            out.append(ch)
        else:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
    return "".join(out)


def normal_host(host: str) -> str | None:
    """A lower-case ASCII DNS name (IDNA hosts punycoded), an IPv4 address, or None."""
    if not host:
        return None
    try:
        ascii_host = host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError:
        return None
    ascii_host = ascii_host.lower()
    name = ascii_host[:-1] if ascii_host.endswith(".") else ascii_host
    if not name or len(name) > 253 or not all(_HOST_LABEL.fullmatch(label) for label in name.split(".")):
        return None
    return ascii_host


def _netloc(netloc: str) -> str | None:
    """The validated ``host[:port]`` part of an http(s) URL, or None (userinfo is always refused)."""
    if "@" in netloc:
        return None
    if netloc.startswith("["):
        inner, bracket, rest = netloc[1:].partition("]")
        try:
            address = ipaddress.IPv6Address(inner)
        except ValueError:
            return None
        if not bracket or address.scope_id is not None or (rest and not rest.startswith(":")):
            return None
        host, port = f"[{address.compressed}]", rest[1:]
    else:
        name, _, port = netloc.partition(":")
        normal = normal_host(name)
        if normal is None:
            return None
        host = normal
    if port and not (port.isascii() and port.isdigit() and int(port) <= 65535):
        return None
    return f"{host}:{int(port)}" if port else host


def _safe_http(url: str, parts: SplitResult) -> str | None:
    prefix = f"{parts.scheme}://"
    if url[: len(prefix)].lower() != prefix or not parts.netloc:
        return None
    netloc = _netloc(parts.netloc)
    if netloc is None:
        return None
    rest = url[len(prefix) + len(parts.netloc) :]
    return prefix + netloc + _percent_encode(rest)


def _safe_mailto(parts: SplitResult) -> str | None:
    if parts.netloc or parts.query or parts.fragment or "?" in parts.path:
        return None
    local, at, domain = parts.path.partition("@")
    if not at or not _MAIL_LOCAL.fullmatch(local) or local.startswith(".") or ".." in local:
        return None
    host = normal_host(domain)
    if host is None or "." not in host.strip("."):
        return None
    return f"mailto:{local}@{host}"


def safe_url(
    url: object, *, allow_mailto: bool = False, max_len: int = DEFAULT_LIMITS.max_url_chars
) -> str | None:
    """The URL in a form safe for a Markdown link destination or an href, or None when it is refused.

    Refused: anything that is not a ``str``; longer than ``max_len`` (``Limits.max_url_chars``); any whitespace,
    control, bidi or
    zero-width character; unparsable or a bad port; a scheme other than http/https (``mailto`` only with
    ``allow_mailto``, for one plain address and nothing else); no host; userinfo (``https://trusted@evil/``).
    The result has a lower-case scheme and host (IDNA hosts punycoded) and percent-encodes everything outside
    ``A-Za-z0-9-._~:/?#@!$&+,;=%``, so it holds no quote, space, bracket, brace, backtick or ``<``/``>``.
    """
    if not isinstance(url, str) or not url or len(url) > max_len:
        return None
    return _safe_url(str(url), allow_mailto)


@functools.lru_cache(maxsize=4096)
def _safe_url(url: str, allow_mailto: bool) -> str | None:
    """``safe_url`` of a string; cached, as a card repeats its URLs (an interface URL for every example)."""
    if any(unicodedata.category(ch) in _URL_REJECTED_CATEGORIES for ch in url):
        return None
    try:
        parts = urlsplit(url)
        _ = parts.port
    except ValueError:
        return None
    if parts.scheme in ("http", "https"):
        return _safe_http(url, parts)
    if parts.scheme == "mailto" and allow_mailto:
        return _safe_mailto(parts)
    return None


_IPV4_CHARACTERS = re.compile(r"[0-9.]*\Z")


def is_ip_address(host: str) -> bool:
    """An IPv4 or IPv6 address (without brackets), as ``urlsplit(url).hostname`` gives it."""
    if ":" not in host and not _IPV4_CHARACTERS.match(host):
        return False  # neither IPv6 (colons) nor IPv4 (digits and dots): skip the two failing parses
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def valid_host(host: str) -> bool:
    """An IP address, or a DNS name ``normal_host`` accepts (internationalised names included: ``bücher.example``)."""
    return is_ip_address(host) or normal_host(host) is not None


def is_local_host(host: str) -> bool:
    """``localhost``, ``*.localhost`` and loopback addresses: plain http is normal there."""
    host = host.lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def comparable_url(url: str) -> str:
    """``url`` as RFC 3986 (6.2.2.1) compares it: the scheme and the host in lower case, the rest as written.

    A URL without a scheme (``grpc.example.com:443``, as gRPC interfaces are written) is an authority and
    a path. User information keeps its case; so do the path, query and fragment, which are case-sensitive.
    """
    scheme, separator, rest = url.partition("://")
    if not separator:
        scheme, rest = "", url
    end = len(rest)
    for delimiter in "/?#":
        found = rest.find(delimiter)
        if found != -1:
            end = min(end, found)
    authority, tail = rest[:end], rest[end:]
    userinfo, at, host = authority.rpartition("@")
    return f"{scheme.lower()}{separator}{userinfo}{at}{host.lower()}{tail}"
