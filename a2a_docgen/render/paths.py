"""The site's URL scheme: how an address is made, and the addresses of the agents' files and the history.

Every page kind declares its own pages' addresses in its module (``render.kinds``: ``tags/index.md``,
``tags/<slug>.md`` ...), made here: ``slugged_paths`` is the one place a key becomes a page's path, distinct from
every other (``unique_slugs``). ``agents/<slug>/index.md`` is an agent's page (published as the directory URL
``agents/<slug>/``) and ``agents/<slug>/card.json`` the card as published, ``agents/<slug>/badge.json`` its
grade as a shields.io endpoint, ``agents/<slug>/history.md`` and ``changes.xml`` its change history and feed
(``whats-new.md`` and ``whats-new.xml`` the catalogue's): the exports, the history's views and the review
comment's links ask this module for those, so they never point at a page the renderer does not make. A long list
goes on over further pages (``render.paging``).
"""

from __future__ import annotations

from collections.abc import Sequence

from a2a_docgen.text.slug import unique_slugs

__all__ = [
    "WHATS_NEW",
    "WHATS_NEW_FEED",
    "agent_badge_path",
    "agent_card_path",
    "agent_dir",
    "agent_feed_path",
    "agent_history_path",
    "agent_page_path",
    "markdown_copy_path",
    "slugged_paths",
]

WHATS_NEW = "whats-new.md"
WHATS_NEW_FEED = "whats-new.xml"


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


def slugged_paths(directory: str, keys: Sequence[str], kind: str) -> dict[str, str]:
    """``<directory>/<slug>.md`` by key for ``keys`` (distinct identity keys of one ``kind``: ``tag``,
    ``media-type``), all distinct (``unique_slugs``: a clash widens every member, so no key takes another's
    page)."""
    slugs, _ = unique_slugs([(key, kind) for key in keys])
    return {key: f"{directory}/{value}.md" for key, value in zip(keys, slugs, strict=True)}


def markdown_copy_path(page_path: str, *, sources_published: bool) -> str:
    """Where a page's Markdown is published beside its HTML: its own source path on a site that publishes the
    pages' sources (the plugin: ``agents/<slug>/index.md``), else ``<page>.md.txt`` (an engine that reads the
    pages converts every ``.md`` file, and copies other files as they are)."""
    return page_path if sources_published else f"{page_path}.txt"
