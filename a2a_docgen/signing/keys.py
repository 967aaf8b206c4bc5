"""Public keys: JWK sets (``--jwks``), the keys file that pins keys to agents and providers, trust per card.

A key is a public JWK of type ``EC`` (P-256, P-384, P-521), ``OKP`` (Ed25519, Ed448) or ``RSA``. Symmetric
(``oct``) keys are refused, so an HMAC can never be checked with a public key; private members (``d``, ``p``
...) are dropped when a file holds them, and never shown. Keys are told apart by their RFC 7638 thumbprint.

Trust: a card that a pin of the keys file matches trusts the keys of its matching pins only; any other card
trusts the keys of every ``--jwks`` file. A key that is known but not trusted for a card (pinned to another
agent, or carried by the signature itself) can still show that a signature is valid: ``untrusted``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from a2a_docgen.errors import UsageError
from a2a_docgen.model import AgentCard, JSONValue
from a2a_docgen.text.urls import safe_url

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

__all__ = [
    "Key",
    "KeyStore",
    "Pin",
    "UnusableKey",
    "checked_origins",
    "jwk_key",
    "load_jwks",
    "load_keys_file",
    "parse_jwks",
    "thumbprint",
    "url_origin",
]

_PUBLIC_MEMBERS = {
    "EC": ("kty", "crv", "x", "y"),
    "OKP": ("kty", "crv", "x"),
    "RSA": ("kty", "n", "e"),
}
"""RFC 7638 section 3.2: the members a thumbprint hashes, which are also the public key."""
_CURVES = {"EC": ("P-256", "P-384", "P-521"), "OKP": ("Ed25519", "Ed448")}
_KEPT = ("kid", "alg", "use", "key_ops")
_MAX_KEYS = 1000


@dataclass(frozen=True, slots=True, kw_only=True)
class Key:
    """One public key."""

    jwk: Mapping[str, Any] = field(repr=False)
    """Public members, plus ``kid``, ``alg``, ``use`` and ``key_ops`` when given."""
    kid: str | None
    thumbprint: str
    """RFC 7638 SHA-256, base64url."""
    source: str
    """Where it came from, for messages: ``keys/acme.jwks.json``, ``jku https://...``, ``the signature's jwk``."""

    @property
    def kty(self) -> str:
        return str(self.jwk["kty"])

    @property
    def label(self) -> str:
        return self.kid if self.kid is not None else f"thumbprint {self.thumbprint}"


class UnusableKey(ValueError):
    """A JWK that cannot be used; ``str()`` says why."""


def jwk_key(value: object, source: str) -> Key:
    """A ``Key`` from one JWK object; raises ``UnusableKey``."""
    if not isinstance(value, dict):
        raise UnusableKey("a key is not a JSON object")
    kty = value.get("kty")
    if kty == "oct":
        raise UnusableKey("a symmetric (oct) key is never used: signatures are checked with public keys only")
    if kty not in _PUBLIC_MEMBERS:
        raise UnusableKey(f"key type {kty!r} is not supported (EC, OKP or RSA)")
    members = _PUBLIC_MEMBERS[kty]
    for name in members:
        if not isinstance(value.get(name), str) or not value[name]:
            raise UnusableKey(f"a {kty} key lacks {name!r}")
    if kty in _CURVES and value["crv"] not in _CURVES[kty]:
        raise UnusableKey(f"curve {value['crv']!r} is not supported for {kty} keys")
    for name in ("kid", "alg", "use"):
        if name in value and not isinstance(value[name], str):
            raise UnusableKey(f"{name!r} of a key is not a string")
    jwk = {name: value[name] for name in (*members, *_KEPT) if name in value}
    return Key(jwk=jwk, kid=value.get("kid"), thumbprint=thumbprint(jwk), source=source)


def thumbprint(jwk: Mapping[str, Any]) -> str:
    """RFC 7638 JWK thumbprint with SHA-256."""
    members = {name: jwk[name] for name in _PUBLIC_MEMBERS[str(jwk["kty"])]}
    digest = hashlib.sha256(json.dumps(members, separators=(",", ":"), sort_keys=True).encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def parse_jwks(value: JSONValue, source: str) -> tuple[list[Key], list[str]]:
    """Keys of a JWK set (``{"keys": [...]}``) or of a single JWK; also the problems of keys left out."""
    if isinstance(value, dict) and "keys" in value:
        items = value["keys"]
        if not isinstance(items, list):
            raise UnusableKey('"keys" is not a list')
    elif isinstance(value, dict) and "kty" in value:
        items = [value]
    else:
        raise UnusableKey('not a JWK set: expected {"keys": [...]} or one JWK')
    if len(items) > _MAX_KEYS:
        raise UnusableKey(f"more than {_MAX_KEYS} keys")
    keys: list[Key] = []
    problems: list[str] = []
    for number, item in enumerate(items, start=1):
        if isinstance(item, dict) and item.get("use") not in (None, "sig"):
            continue  # an encryption key: not for signatures
        try:
            keys.append(jwk_key(item, source))
        except UnusableKey as exc:
            problems.append(f"key {number}: {exc}")
    return keys, problems


def published_path(path: str | os.PathLike[str]) -> str:
    """``path`` as pages may name it (a key's source is shown on every agent page it verifies): its file name
    alone, so the pages are the same whatever the working directory and however the path is spelt, and never
    name the machine's directories."""
    return Path(path).name


def load_jwks(path: str | os.PathLike[str]) -> list[Key]:
    """The signature keys of a JWK set file (others are left out); raises ``UsageError`` for a file that
    cannot be read, or that has none."""
    shown = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"cannot read the JWK set {shown}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"the JWK set {shown} is not JSON: {exc}") from None
    try:
        keys, problems = parse_jwks(value, published_path(path))
    except UnusableKey as exc:
        raise UsageError(f"the JWK set {shown}: {exc}") from None
    if not keys:
        why = f": {'; '.join(problems)}" if problems else ""
        raise UsageError(f"the JWK set {shown} has no key that can check signatures{why}")
    return keys  # keys that cannot check signatures (X25519, secp256k1 ...) are left out


def url_origin(url: object) -> str | None:
    """``scheme://host[:port]`` of an http(s) URL (lower case, default port dropped), else ``None``."""
    safe = safe_url(url)
    if safe is None:
        return None
    parts = urlsplit(safe)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    try:
        port = parts.port
    except ValueError:
        return None
    if port is None or port == {"https": 443, "http": 80}[parts.scheme]:
        return f"{parts.scheme}://{host}"
    return f"{parts.scheme}://{host}:{port}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Pin:
    """One ``[[pin]]`` of the keys file: the keys some agents or providers are trusted with."""

    name: str
    agents: tuple[str, ...] = ()
    """Card names (exact)."""
    urls: tuple[str, ...] = ()
    """Origins: a card matches when one of its interface URLs has one of them."""
    providers: tuple[str, ...] = ()
    """``provider.organization`` values (exact)."""
    provider_urls: tuple[str, ...] = ()
    """Origins of ``provider.url``."""
    keys: tuple[Key, ...]

    def matches(self, card: AgentCard) -> bool:
        """Every selector the pin gives matches the card."""
        checks: list[bool] = []
        if self.agents:
            checks.append(card.name in self.agents)
        if self.urls:
            origins = {url_origin(i.url) for i in card.interfaces if i.url}
            checks.append(bool(origins & set(self.urls)))
        if self.providers:
            checks.append(card.provider is not None and card.provider.organization in self.providers)
        if self.provider_urls:
            url = card.provider.url if card.provider is not None else None
            checks.append(url is not None and url_origin(url) in self.provider_urls)
        return bool(checks) and all(checks)


@dataclass(frozen=True, slots=True, kw_only=True)
class KeyStore:
    """Every key given, and which card trusts which."""

    keys: tuple[Key, ...] = ()
    """From ``--jwks`` (and the plugin's ``jwks``): trusted for every card no pin matches."""
    pins: tuple[Pin, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.keys and not self.pins

    def pins_for(self, card: AgentCard) -> tuple[Pin, ...]:
        return tuple(pin for pin in self.pins if pin.matches(card))

    def trusted_for(self, card: AgentCard) -> tuple[Key, ...]:
        """The keys the card trusts."""
        pins = self.pins_for(card)
        if pins:
            return _unique(key for pin in pins for key in pin.keys)
        return self.keys

    def known(self) -> tuple[Key, ...]:
        """Every key given, trusted for some card or not."""
        return _unique([*self.keys, *(key for pin in self.pins for key in pin.keys)])


def _unique(keys: Iterable[Key]) -> tuple[Key, ...]:
    seen: set[str] = set()
    out: list[Key] = []
    for key in keys:
        if key.thumbprint not in seen:
            seen.add(key.thumbprint)
            out.append(key)
    return tuple(out)


_PIN_MEMBERS = {"name", "agent", "url", "provider", "provider_url", "jwks", "kids", "thumbprints"}


def load_keys_file(path: str | os.PathLike[str], global_keys: Sequence[Key] = ()) -> tuple[Pin, ...]:
    """The pins of a keys file (TOML, docs/signing.md); raises ``UsageError`` naming the problem.

    A pin's ``jwks`` files are relative to the keys file. A pin with ``kids`` or ``thumbprints`` keeps only
    those keys, picked from its own ``jwks`` or, when it has none, from ``global_keys`` (``--jwks``).
    """
    shown = os.fspath(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"cannot read the keys file {shown}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"the keys file {shown} is not TOML: {exc}") from None
    unknown = sorted(set(data) - {"pin"})
    if unknown:
        raise UsageError(f"the keys file {shown}: unknown table or key {unknown[0]!r} (expected [[pin]])")
    entries = data.get("pin", [])
    if not isinstance(entries, list):
        raise UsageError(f"the keys file {shown}: pin must be an array of tables ([[pin]])")
    base = Path(path).parent
    return tuple(
        _pin(entry, number, shown, base, global_keys) for number, entry in enumerate(entries, start=1)
    )


def _strings(entry: Mapping[str, object], name: str, where: str) -> tuple[str, ...]:
    value = entry.get(name, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise UsageError(f"{where}: {name} must be a string or a list of strings")
    return tuple(value)


def checked_origins(values: Sequence[str], what: str) -> tuple[str, ...]:
    """The origins of ``values`` (``url_origin``); raises ``UsageError`` naming ``what`` for one that is not
    an http(s) URL."""
    origins = []
    for value in values:
        origin = url_origin(value)
        if origin is None:
            raise UsageError(f"{what} {value!r} is not an http(s) URL (https://host[:port])")
        origins.append(origin)
    return tuple(origins)


def _pin(entry: object, number: int, shown: str, base: Path, global_keys: Sequence[Key]) -> Pin:
    where = f"the keys file {shown}, pin {number}"
    if not isinstance(entry, dict):
        raise UsageError(f"{where}: not a table")
    unknown = sorted(set(entry) - _PIN_MEMBERS)
    if unknown:
        raise UsageError(f"{where}: unknown key {unknown[0]!r}")
    name = entry.get("name", f"pin {number}")
    if not isinstance(name, str):
        raise UsageError(f"{where}: name must be a string")
    where = f"the keys file {shown}, pin {name!r}"
    agents = _strings(entry, "agent", where)
    urls = checked_origins(_strings(entry, "url", where), f"{where}: url")
    providers = _strings(entry, "provider", where)
    provider_urls = checked_origins(_strings(entry, "provider_url", where), f"{where}: provider_url")
    if not (agents or urls or providers or provider_urls):
        raise UsageError(f"{where}: give agent, url, provider or provider_url, to say which cards it pins")
    files = _strings(entry, "jwks", where)
    kids = set(_strings(entry, "kids", where))
    thumbprints = set(_strings(entry, "thumbprints", where))
    if not (files or kids or thumbprints):
        raise UsageError(f"{where}: give jwks, kids or thumbprints, to say which keys it trusts")
    pool = [key for file in files for key in load_jwks(base / file)] if files else list(global_keys)
    keys = [
        key
        for key in pool
        if (not kids or key.kid in kids) and (not thumbprints or key.thumbprint in thumbprints)
    ]
    if not keys:
        raise UsageError(f"{where}: none of its keys is given (check jwks, kids and thumbprints)")
    source = f"pin {name!r} of {shown}"
    keys = [Key(jwk=k.jwk, kid=k.kid, thumbprint=k.thumbprint, source=f"{k.source} ({source})") for k in keys]
    return Pin(
        name=name,
        agents=agents,
        urls=urls,
        providers=providers,
        provider_urls=provider_urls,
        keys=tuple(keys),
    )
