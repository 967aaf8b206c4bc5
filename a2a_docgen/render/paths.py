"""Where an agent's pages are in a rendered site: paths from the docs root, ``/``-separated.

``agents/<slug>/index.md`` is the page (published as the directory URL ``agents/<slug>/``) and
``agents/<slug>/card.json`` the card as published, ``agents/<slug>/badge.json`` its grade as a shields.io
endpoint. The exports and the review comment's links use these, so
they never point at a page the renderer does not make.
"""

from __future__ import annotations

__all__ = ["agent_badge_path", "agent_card_path", "agent_dir", "agent_page_path"]


def agent_dir(agent_slug: str) -> str:
    """``agents/<slug>/``: the directory of an agent's files, and the URL of its page."""
    return f"agents/{agent_slug}/"


def agent_page_path(agent_slug: str) -> str:
    """``agents/<slug>/index.md``: the Markdown source of an agent's page."""
    return f"{agent_dir(agent_slug)}index.md"


def agent_card_path(agent_slug: str) -> str:
    """``agents/<slug>/card.json``: the card as published beside its page."""
    return f"{agent_dir(agent_slug)}card.json"


def agent_badge_path(agent_slug: str) -> str:
    """``agents/<slug>/badge.json``: the agent's grade as a shields.io endpoint badge."""
    return f"{agent_dir(agent_slug)}badge.json"
