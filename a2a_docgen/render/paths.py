"""The site's URL scheme: every page's path, from the docs root, ``/``-separated, and the navigation.

``agents/<slug>/index.md`` is the page (published as the directory URL ``agents/<slug>/``) and
``agents/<slug>/card.json`` the card as published, ``agents/<slug>/badge.json`` its grade as a shields.io
endpoint, ``agents/<slug>/history.md`` and ``changes.xml`` its change history and feed (``whats-new.md`` and
``whats-new.xml`` the catalogue's). The list pages: ``index.md``, ``tags/index.md`` and ``tags/<slug>.md``, ``media-types.md`` and
``media-types/<slug>.md``, ``security.md``, ``security/<kind>.md``, ``security/scopes.md`` and
``security/no-authentication.md``, ``bindings.md`` and ``bindings/<slug>.md``, ``excluded.md`` (a long list
goes on over further pages, ``render.paging``). The views, the page list, the templates (through ``paths`` in
their context), the exports and the review comment's links all ask this module, so they never point at a page
the renderer does not make.
"""

from __future__ import annotations

from collections.abc import Sequence

from a2a_docgen.render.site import NavEntry
from a2a_docgen.text.slug import unique_slugs

__all__ = [
    "BINDINGS",
    "EXCLUDED",
    "HOME",
    "MEDIA_TYPES",
    "NAV",
    "NO_AUTHENTICATION",
    "SCOPES",
    "SECURITY",
    "TAGS",
    "WHATS_NEW",
    "WHATS_NEW_FEED",
    "WHATS_NEW_NAV",
    "agent_badge_path",
    "agent_card_path",
    "agent_dir",
    "agent_feed_path",
    "agent_history_path",
    "agent_page_path",
    "binding_page_paths",
    "media_type_page_paths",
    "security_kind_path",
    "tag_page_paths",
]

HOME = "index.md"
TAGS = "tags/index.md"
MEDIA_TYPES = "media-types.md"
SECURITY = "security.md"
SCOPES = "security/scopes.md"
NO_AUTHENTICATION = "security/no-authentication.md"
BINDINGS = "bindings.md"
EXCLUDED = "excluded.md"
WHATS_NEW = "whats-new.md"
WHATS_NEW_FEED = "whats-new.xml"

NAV: tuple[NavEntry, ...] = (
    NavEntry("Home", HOME),
    NavEntry("Tags", TAGS),
    NavEntry("Media types", MEDIA_TYPES),
    NavEntry("Security", SECURITY),
    NavEntry("Protocol bindings", BINDINGS),
    NavEntry("Excluded cards", EXCLUDED),
)
"""The navigation: the catalogue pages, never one entry per agent or skill."""
WHATS_NEW_NAV = NavEntry("What's new", WHATS_NEW)
"""In the navigation after the home page when the site has a change history."""


def agent_dir(agent_slug: str) -> str:
    """``agents/<slug>/``: the directory of an agent's files, and the URL of its page."""
    return f"agents/{agent_slug}/"


def agent_page_path(agent_slug: str) -> str:
    """``agents/<slug>/index.md``: the Markdown source of an agent's page."""
    return f"{agent_dir(agent_slug)}index.md"


def agent_card_path(agent_slug: str) -> str:
    """``agents/<slug>/card.json``: the card as published beside its page."""
    return f"{agent_dir(agent_slug)}card.json"


def agent_history_path(agent_slug: str) -> str:
    """``agents/<slug>/history.md``: the first page of an agent's change history."""
    return f"{agent_dir(agent_slug)}history.md"


def agent_feed_path(agent_slug: str) -> str:
    """``agents/<slug>/changes.xml``: the Atom feed of an agent's changes."""
    return f"{agent_dir(agent_slug)}changes.xml"


def agent_badge_path(agent_slug: str) -> str:
    """``agents/<slug>/badge.json``: the agent's grade as a shields.io endpoint badge."""
    return f"{agent_dir(agent_slug)}badge.json"


def tag_page_paths(keys: Sequence[str]) -> dict[str, str]:
    """``tags/<slug>.md`` by ``tag_key``: the page of each tag, all distinct (``unique_slugs``)."""
    slugs, _ = unique_slugs([(key, "tag") for key in keys])
    return {key: f"tags/{value}.md" for key, value in zip(keys, slugs, strict=True)}


def media_type_page_paths(keys: Sequence[str]) -> dict[str, str]:
    """``media-types/<slug>.md`` by identity key: the page of each media type, all distinct (``unique_slugs``)."""
    slugs, _ = unique_slugs([(key, "media-type") for key in keys])
    return {key: f"media-types/{value}.md" for key, value in zip(keys, slugs, strict=True)}


def binding_page_paths(groups: Sequence[tuple[str, str | None]]) -> list[str]:
    """``bindings/<slug>.md`` for each ``(binding, protocol version)``: the interfaces of one binding and version,
    all distinct (``unique_slugs``: a clash widens every member, so no binding takes another's page)."""
    slugs, _ = unique_slugs([(f"{binding}|{version or ''}", "binding") for binding, version in groups])
    return [f"bindings/{value}.md" for value in slugs]


def security_kind_path(label: str) -> str:
    """``security/<kind>.md``: the schemes of one kind, by its label (``API key`` -> ``security/api-key.md``)."""
    words = "".join(ch.lower() if ch.isalnum() else "-" for ch in label)
    return "security/" + "-".join(part for part in words.split("-") if part) + ".md"
