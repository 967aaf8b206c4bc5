"""Capabilities (streaming, push notifications, the extended card) and extensions."""

from __future__ import annotations

from a2a_docgen.load.source import MISSING, join_pointer, resolve_pointer
from a2a_docgen.model import AgentCard, AgentExtension, JSONValue
from a2a_docgen.review.codes import (
    CAPABILITY_DISABLED,
    CAPABILITY_ENABLED,
    EXTENSION_ADDED,
    EXTENSION_ADDED_REQUIRED,
    EXTENSION_CHANGED,
    EXTENSION_MADE_OPTIONAL,
    EXTENSION_MADE_REQUIRED,
    EXTENSION_PARAMS_ADDED,
    EXTENSION_PARAMS_CHANGED,
    EXTENSION_REMOVED,
)
from a2a_docgen.review.compare.base import AgentPair, q, quoted_list
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
        pointer = _pointer(pair_.new, key)
        # A value that is not a boolean ("True", an SDK's bug) is a card error, reported as one (card-error-added,
        # card-error-fixed): it says nothing of what the server does, so the member counts as unchanged.
        if _erroneous(pair_.old, _pointer(pair_.old, key)) or _erroneous(pair_.new, pointer):
            continue
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


def _pointer(card: AgentCard, key: str) -> str:
    if key == "extendedAgentCard" and "supportsAuthenticatedExtendedCard" in card.source.raw:
        return "/supportsAuthenticatedExtendedCard"
    return join_pointer(card.capabilities.pointer, key)


def _erroneous(card: AgentCard, pointer: str) -> bool:
    """The card holds a value at ``pointer`` that is neither a boolean nor null (null reads as absent)."""
    value = resolve_pointer(card.source.raw, pointer)
    return value is not MISSING and value is not None and not isinstance(value, bool)


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
        if before.description != after.description:
            pair_.add(
                EXTENSION_CHANGED,
                f"the description of extension {q(after.uri)} changed",
                pair_.member(after.pointer, "description"),
                before=before.description,
                after=after.description,
            )
        _compare_params(pair_, before, after)
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


def _compare_params(pair_: AgentPair, before: AgentExtension, after: AgentExtension) -> None:
    """Parameters are configuration that clients activating the extension read: one removed, renamed or given
    another value breaks them (as ``extension-removed`` does); a new one does not. Values are compared whole."""
    old, new = dict(before.params or {}), dict(after.params or {})
    gone = [key for key in old if key not in new]
    changed = [key for key in old if key in new and old[key] != new[key]]
    added = [key for key in new if key not in old]
    pointer = pair_.member(after.pointer, "params")
    if gone or changed:
        parts = [f"{quoted_list(gone)} removed"] if gone else []
        parts += [f"{quoted_list(changed)} changed"] if changed else []
        renamed = f" (new: {quoted_list(added)})" if gone and added else ""
        pair_.add(
            EXTENSION_PARAMS_CHANGED,
            f"the parameters of extension {q(after.uri)} changed: {'; '.join(parts)}{renamed}; clients that "
            "activate it read them",
            pointer,
            before={key: old[key] for key in (*gone, *changed)},
            after={key: new[key] for key in (*changed, *added)},
        )
    if added and not gone:  # with a parameter gone, the new ones are most likely its new name: said above
        pair_.add(
            EXTENSION_PARAMS_ADDED,
            f"extension {q(after.uri)} has new parameters: {quoted_list(added)}",
            pointer,
            after={key: new[key] for key in added},
        )


def _extension_json(extension: AgentExtension) -> JSONValue:
    return {
        "uri": extension.uri,
        "required": extension.required,
        "description": extension.description,
        "params": dict(extension.params) if extension.params is not None else None,
    }
