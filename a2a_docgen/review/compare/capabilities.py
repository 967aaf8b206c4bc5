"""Capabilities (streaming, push notifications, the extended card) and extensions."""

from __future__ import annotations

from a2a_docgen.load.source import join_pointer
from a2a_docgen.model import AgentExtension, JSONValue
from a2a_docgen.review.codes import (
    CAPABILITY_DISABLED,
    CAPABILITY_ENABLED,
    EXTENSION_ADDED,
    EXTENSION_ADDED_REQUIRED,
    EXTENSION_CHANGED,
    EXTENSION_MADE_OPTIONAL,
    EXTENSION_MADE_REQUIRED,
    EXTENSION_REMOVED,
)
from a2a_docgen.review.compare.base import AgentPair, q
from a2a_docgen.review.match import pair

__all__ = ["compare_capabilities", "compare_extensions"]

_CAPABILITIES: tuple[tuple[str, str, str, str], ...] = (
    ("streaming", "streaming is", "streaming", "use it"),
    ("push_notifications", "push notifications are", "pushNotifications", "use them"),
    ("extended_agent_card", "the authenticated extended agent card is", "extendedAgentCard", "fetch it"),
)


def compare_capabilities(pair_: AgentPair) -> None:
    for attr, label, key, use in _CAPABILITIES:
        before = getattr(pair_.old.capabilities, attr) is True
        after = getattr(pair_.new.capabilities, attr) is True
        if before == after:
            continue
        pointer = join_pointer(pair_.new.capabilities.pointer, key)
        if attr == "extended_agent_card" and "supportsAuthenticatedExtendedCard" in pair_.new.source.raw:
            pointer = "/supportsAuthenticatedExtendedCard"
        if after:
            pair_.add(CAPABILITY_ENABLED, f"{label} now supported", pointer, before=False, after=True)
        else:
            pair_.add(
                CAPABILITY_DISABLED,
                f"{label} no longer supported (absent counts as false); clients that {use} get an error",
                pointer,
                before=True,
                after=False,
            )


def compare_extensions(pair_: AgentPair) -> None:
    old, new = pair_.old.capabilities.extensions, pair_.new.capabilities.extensions
    pairs, removed, added = pair(list(old), list(new), lambda e: e.uri)
    for before, after in pairs:
        if before.required != after.required:
            state = (
                "is now required: clients that do not declare it are refused"
                if after.required
                else "is no longer required"
            )
            pair_.add(
                EXTENSION_MADE_REQUIRED if after.required else EXTENSION_MADE_OPTIONAL,
                f"extension {q(after.uri)} {state}",
                after.pointer,
                before=before.required,
                after=after.required,
            )
        if before.description != after.description or before.params != after.params:
            pair_.add(
                EXTENSION_CHANGED,
                f"the description or parameters of extension {q(after.uri)} changed",
                after.pointer,
                before=_extension_json(before),
                after=_extension_json(after),
            )
    for gone in removed:
        pair_.add(
            EXTENSION_REMOVED,
            f"extension {q(gone.uri)} is no longer supported: clients that activate it lose what it adds",
            gone.pointer,
            before=_extension_json(gone),
            side="base",
        )
    for ext in added:
        if ext.required:
            pair_.add(
                EXTENSION_ADDED_REQUIRED,
                f"extension {q(ext.uri)} is new and required: clients that do not declare it are refused",
                ext.pointer,
                after=_extension_json(ext),
            )
        else:
            pair_.add(
                EXTENSION_ADDED,
                f"extension {q(ext.uri)} is now supported",
                ext.pointer,
                after=_extension_json(ext),
            )


def _extension_json(extension: AgentExtension) -> JSONValue:
    return {
        "uri": extension.uri,
        "required": extension.required,
        "description": extension.description,
        "params": dict(extension.params) if extension.params is not None else None,
    }
