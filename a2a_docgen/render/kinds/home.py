"""The home page: ``index.md`` (and ``index-2.md`` ...), the agents table with counts and notices about
excluded or broken cards."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.paging import paginate
from a2a_docgen.render.site import NavEntry

if TYPE_CHECKING:
    from a2a_docgen.render.kinds.agents import AgentPage
    from a2a_docgen.render.pages import SiteViews

__all__ = ["HOME", "KIND", "HomeViews"]

HOME = "index.md"


@dataclass(frozen=True, slots=True)
class HomeViews:
    skill_count: int
    agents_with_errors: tuple[AgentPage, ...]


def home_views(sources: ViewSources) -> HomeViews:
    return HomeViews(len(sources.refs), tuple(agent for agent in sources.agents if agent.errors))


def home_pages(site: SiteViews, views: HomeViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    yield from list_jobs("index.md.jinja", paginate(site.agents, HOME, size["agents"]), indexed=True)


KIND = PageKind(home_views, home_pages, NavEntry("Home", HOME), addresses={"HOME": HOME})
