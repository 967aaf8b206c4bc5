"""Facts of the A2A protocol that several stages need: binding names, versions, media types.

One table or parser per fact, in the bottom layer, so the validator, the renderer, the differ and the fetcher
agree: a binding spelling the validator accepts with a hint is the binding the renderer builds a request for,
and a protocol version means the same ``Major.Minor`` everywhere.
"""

from __future__ import annotations

import functools
import re
from typing import Literal

__all__ = [
    "BINDING_ALIASES",
    "CORE_BINDINGS",
    "TRANSPORT_NAMES",
    "Binding",
    "assumed_protocol_version",
    "canonical_binding",
    "major_minor",
    "major_version",
    "media_type_essence",
    "semantic_version",
    "short_version",
    "version_format",
]

# -- protocol bindings (A2A section 5.8) ---------------------------------------------------------------------

Binding = Literal["JSONRPC", "GRPC", "HTTP+JSON"]

CORE_BINDINGS: tuple[Binding, ...] = ("JSONRPC", "GRPC", "HTTP+JSON")
"""The core bindings, exactly as a card must spell them (they are case-sensitive)."""

BINDING_ALIASES: dict[str, Binding] = {
    "JSON-RPC": "JSONRPC",
    "JSON_RPC": "JSONRPC",
    "JSONRPC2": "JSONRPC",
    "JSON-RPC2": "JSONRPC",
    "JSON-RPC-2.0": "JSONRPC",
    "REST": "HTTP+JSON",
    "HTTP_JSON": "HTTP+JSON",
    "HTTP-JSON": "HTTP+JSON",
    "HTTPJSON": "HTTP+JSON",
    "HTTP/JSON": "HTTP+JSON",
    "G-RPC": "GRPC",
}
"""Spellings cards use for a core binding (upper case), other than its name in another case: the validator warns
with the core name to write, and the renderer treats them as that binding, saying it assumed so. ``"HTTP"`` and
``"HTTPS"`` are not here: every core binding but gRPC runs over HTTP(S), so they name none of them."""

TRANSPORT_NAMES = frozenset({"HTTP", "HTTPS"})
"""Names of what every HTTP binding runs over, written where a binding belongs (upper case): no binding."""

_BINDINGS: dict[str, Binding] = {**{name: name for name in CORE_BINDINGS}, **BINDING_ALIASES}


@functools.lru_cache(maxsize=1024)
def canonical_binding(binding: str | None) -> Binding | None:
    """The core binding a card's spelling means, in any case and with surrounding spaces (``"jsonrpc"``,
    ``" REST "``); ``None`` for a custom binding (a URI), a transport (``"https"``) or anything else."""
    if binding is None:
        return None
    return _BINDINGS.get(binding.strip().upper())


# -- protocol versions (A2A section 3.6) ---------------------------------------------------------------------

_MAJOR_MINOR_PREFIX = re.compile(r"^(\d+)\.(\d+)(?:\.\d+)?")
_VERSION_FORMAT = re.compile(r"^(\d+\.\d+)(\.\d+)?$")


def major_minor(version: str) -> tuple[int, int] | None:
    """``(major, minor)`` of a protocol version that starts ``Major.Minor`` (``"0.3.0"``, ``" 1.0"``), else None."""
    match = _MAJOR_MINOR_PREFIX.match(version.strip())
    return (int(match.group(1)), int(match.group(2))) if match else None


def short_version(version: str) -> str | None:
    """A protocol version as ``Major.Minor`` (``"0.3.0"`` -> ``"0.3"``, as v1.0 interfaces carry it), else None."""
    parsed = major_minor(version)
    return f"{parsed[0]}.{parsed[1]}" if parsed else None


def assumed_protocol_version(declared: object, era: str) -> str:
    """The protocol version of an interface that states none, as ``Major.Minor``: the card's top-level
    ``protocolVersion`` (a v0.3 member, which mixed cards carry beside v1.0 interfaces) when it is a version,
    else that of the shape the card is written in: ``"1.0"`` for v1.0, ``"0.3"`` for earlier (the v0.3 schema's
    default, which the official SDK assumes). ``convert`` and the requests both follow it."""
    if isinstance(declared, str) and (version := short_version(declared)) is not None:
        return version
    return "1.0" if era == "1.0" else "0.3"


def major_version(version: str) -> int | None:
    """The number before the first dot (``"0.3"`` -> 0, ``"1"`` -> 1), or None when it is not a number."""
    major = version.strip().split(".", 1)[0]
    return int(major) if major.isdecimal() else None


def version_format(version: str) -> tuple[str, bool] | None:
    """For a version written ``Major.Minor`` or ``Major.Minor.Patch``: the ``Major.Minor`` part as written and
    whether a patch follows; None for any other spelling."""
    match = _VERSION_FORMAT.match(version)
    return (match.group(1), match.group(2) is not None) if match else None


_SEMVER = re.compile(
    r"^[vV]?(0|[1-9]\d*)(?:\.(0|[1-9]\d*)(?:\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)?)?$"
)


def semantic_version(version: str | None) -> tuple[int, int, int] | None:
    """An agent's own version: ``"1.2.3"``, ``"v1.2"``, ``"2.0.0-rc.1"`` -> (major, minor, patch); ``None`` when
    not semantic.

    Missing minor and patch parts count as 0; pre-release and build suffixes need all three parts (so a date
    such as ``2024-05`` is not taken for version 2024).
    """
    match = _SEMVER.match(version.strip()) if version else None
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 0)


# -- media types ---------------------------------------------------------------------------------------------


def media_type_essence(media_type: str) -> str:
    """``type/subtype`` in lower case, without parameters: ``"Text/Plain; charset=utf-8"`` -> ``"text/plain"``."""
    return media_type.split(";", 1)[0].strip().lower()


EXTENDED_CARD_OPERATIONS: dict[tuple[Binding, str], str] = {
    ("JSONRPC", "1.0"): "GetExtendedAgentCard",
    ("JSONRPC", "0.3"): "agent/getAuthenticatedExtendedCard",
    ("HTTP+JSON", "1.0"): "/extendedAgentCard",
    ("HTTP+JSON", "0.3"): "/v1/card",
    ("GRPC", "1.0"): "lf.a2a.v1.A2AService/GetExtendedAgentCard",
    ("GRPC", "0.3"): "a2a.v1.A2AService/GetAgentCard",
}
"""How an authenticated client asks for the extended Agent Card, by binding and message shape (``"1.0"`` or
``"0.3"``): the JSON-RPC method, the HTTP+JSON path below the interface URL (v1.0: after the tenant, if any;
always ``GET``), the gRPC method. v1.0.1 section 3.1.11 and 9-11; v0.3.0 ``agent/getAuthenticatedExtendedCard``
(agent-card-reference.md, discovery.md 3.2)."""
