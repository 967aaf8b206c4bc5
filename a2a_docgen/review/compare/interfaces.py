"""Interfaces: where and how clients reach the agent (URL, protocol binding, A2A version, tenant).

Interfaces are matched by URL, binding and protocol version; what is left by URL and binding (a version
dropped), URL and version (a binding dropped), then binding and version (the URL changed). URLs compare as
RFC 3986 says: the scheme and host case-insensitively (``comparable_url``).
"""

from __future__ import annotations

from collections.abc import Callable

from a2a_docgen.model import AgentInterface, JSONValue
from a2a_docgen.protocol import short_version
from a2a_docgen.review.codes import (
    INTERFACE_ADDED,
    INTERFACE_REMOVED,
    INTERFACE_URL_CHANGED,
    PREFERRED_INTERFACE_CHANGED,
    PROTOCOL_BINDING_DROPPED,
    PROTOCOL_VERSION_DROPPED,
    TENANT_CHANGED,
    ReviewCode,
)
from a2a_docgen.review.compare.base import AgentPair, q
from a2a_docgen.review.match import pair
from a2a_docgen.text.urls import comparable_url

__all__ = ["compare_interfaces", "interface_key"]


def _version(version: str | None) -> str | None:
    return (short_version(version) if version else None) or version


def _url(interface: AgentInterface) -> str | None:
    return comparable_url(interface.url) if interface.url is not None else None


def interface_key(interface: AgentInterface) -> object:
    """What makes two interfaces the same: URL (as RFC 3986 compares it), binding and A2A version."""
    return (_url(interface), interface.protocol_binding, _version(interface.protocol_version))


def compare_interfaces(pair_: AgentPair) -> None:
    old, new = pair_.old.interfaces, pair_.new.interfaces
    if old == new:
        return  # each pairs with its equal: the same interfaces, nothing changed for clients
    exact, base_left, head_left = pair(list(old), list(new), interface_key)
    # A base interface that states no protocol version (a v0.2 card) is the head's that states one at the
    # same URL and binding: a version written down (a2a-docgen convert writes one) changes nothing served.
    unstated = [i for i in base_left if not i.protocol_version]
    if unstated:
        stated, _, head_left = pair(unstated, head_left, lambda i: (_url(i), i.protocol_binding))
        exact += stated
        base_left = [i for i in base_left if not any(i is before for before, _ in stated)]
    for before, after in exact:
        if before.tenant != after.tenant:
            pair_.add(
                TENANT_CHANGED,
                _tenant_message(after.url, before.tenant, after.tenant),
                after.pointer,
                before=before.tenant,
                after=after.tenant,
            )
    passes: tuple[tuple[ReviewCode, Callable[[AgentInterface], object]], ...] = (
        (PROTOCOL_VERSION_DROPPED, lambda i: (_url(i), i.protocol_binding)),
        (PROTOCOL_BINDING_DROPPED, lambda i: (_url(i), _version(i.protocol_version))),
        (INTERFACE_URL_CHANGED, lambda i: (i.protocol_binding, _version(i.protocol_version))),
    )
    for code, key in passes:
        matched, base_left, head_left = pair(base_left, head_left, key)
        for before, after in matched:
            pair_.add(
                code,
                _interface_message(code, before, after),
                after.pointer,
                before=_interface_json(before),
                after=_interface_json(after),
            )
    for gone in base_left:
        pair_.add(
            INTERFACE_REMOVED,
            f"the {q(gone.protocol_binding)} interface at {q(gone.url)} "
            f"(A2A {_version(gone.protocol_version)}) is no longer served",
            gone.pointer,
            before=_interface_json(gone),
            side="base",
        )
    for added in head_left:
        pair_.add(
            INTERFACE_ADDED,
            f"a {q(added.protocol_binding)} interface is served at {q(added.url)} "
            f"(A2A {_version(added.protocol_version)})",
            added.pointer,
            after=_interface_json(added),
        )
    if old and new and interface_key(old[0]) != interface_key(new[0]):
        still_served = any(interface_key(i) == interface_key(old[0]) for i in new)
        if still_served:
            pair_.add(
                PREFERRED_INTERFACE_CHANGED,
                f"the preferred (first) interface is now {q(new[0].protocol_binding)} at {q(new[0].url)}; "
                "clients that support its binding will switch to it",
                new[0].pointer,
                before=_interface_json(old[0]),
                after=_interface_json(new[0]),
            )


def _interface_json(interface: AgentInterface) -> JSONValue:
    result: dict[str, JSONValue] = {
        "url": interface.url,
        "protocolBinding": interface.protocol_binding,
        "protocolVersion": _version(interface.protocol_version),
    }
    if interface.tenant is not None:
        result["tenant"] = interface.tenant
    return result


def _interface_message(code: ReviewCode, before: AgentInterface, after: AgentInterface) -> str:
    if code is PROTOCOL_VERSION_DROPPED:
        return (
            f"{q(after.url)} ({after.protocol_binding}) no longer serves A2A {_version(before.protocol_version)}; "
            f"it serves {_version(after.protocol_version)}"
        )
    if code is PROTOCOL_BINDING_DROPPED:
        return f"{q(after.url)} no longer serves {q(before.protocol_binding)}; it serves {q(after.protocol_binding)}"
    return f"the {q(after.protocol_binding)} interface moved from {q(before.url)} to {q(after.url)}"


def _tenant_message(url: str | None, before: str | None, after: str | None) -> str:
    if before is None:
        return f"clients must now send tenant {q(after)} to {q(url)} (was none)"
    if after is None:
        return f"{q(url)} no longer takes tenant {q(before)}; clients that send it may be refused"
    return (
        f"the tenant of {q(url)} changed from {q(before)} to {q(after)}; clients copy it into every request"
    )
