"""Agents and their identity: renames, the card's era, descriptions, provider, links and the version."""

from __future__ import annotations

from a2a_docgen.model import AgentCard, JSONValue
from a2a_docgen.review.codes import (
    AGENT_RENAMED,
    DESCRIPTION_CHANGED,
    DOCUMENTATION_URL_CHANGED,
    ERA_CHANGED,
    ICON_URL_CHANGED,
    PROVIDER_CHANGED,
    VERSION_CHANGED,
)
from a2a_docgen.review.compare.base import AgentPair, q

__all__ = ["compare_identity", "compare_version"]


def compare_identity(pair: AgentPair) -> None:
    old, new = pair.old, pair.new
    if old.name != new.name:
        how = (
            "only the letter case differs"
            if (old.name or "").casefold() == (new.name or "").casefold()
            else "matched by its preferred interface URL; registries that key agents by name see a new agent"
        )
        pair.add(
            AGENT_RENAMED, f"renamed from {q(old.name)} ({how})", "/name", before=old.name, after=new.name
        )
    if old.era != new.era:
        pair.add(
            ERA_CHANGED,
            f"the card is now written in the v{new.era} shape (was v{old.era})",
            "",
            before=old.era,
            after=new.era,
        )
    pair.text_change(DESCRIPTION_CHANGED, "description", old.description, new.description, "/description")
    old_provider, new_provider = _provider(old), _provider(new)
    if old_provider != new_provider:
        pair.add(
            PROVIDER_CHANGED,
            "the provider changed",
            new.provider.pointer if new.provider else "/provider",
            before=old_provider,
            after=new_provider,
        )
    pair.text_change(
        DOCUMENTATION_URL_CHANGED,
        "documentation link",
        old.documentation_url,
        new.documentation_url,
        "/documentationUrl",
    )
    pair.text_change(ICON_URL_CHANGED, "icon link", old.icon_url, new.icon_url, "/iconUrl")


def compare_version(pair: AgentPair) -> None:
    old, new = pair.old.version, pair.new.version
    if (
        new is None
        and isinstance(pair.new.source.raw, dict)
        and pair.new.source.raw.get("version") is not None
    ):
        return  # still there, but not a string (``"version": 1``): card-error-added says so, not "removed"
    if old != new:
        pair.add(
            VERSION_CHANGED,
            f"the version {q(new)} was added"
            if old is None
            else f"the version {q(old)} was removed"
            if new is None
            else f"version {q(old)} is now {q(new)}",
            "/version",
            before=old,
            after=new,
        )


def _provider(card: AgentCard) -> JSONValue:
    if card.provider is None:
        return None
    return {"organization": card.provider.organization, "url": card.provider.url}
