"""The home page: ``index.md`` (and ``index-2.md`` ...), the agents grouped by provider with counts and notices
about excluded or broken cards; and the same agents in other orders, as static pages linked from it
(``sorted/name.md``, ``sorted/grade.md``, ``sorted/changed.md`` with a history), so sorting needs no script."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from a2a_docgen.render.env import CardText
from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.paging import paginate
from a2a_docgen.render.site import NavEntry
from a2a_docgen.text.slug import identity_key

if TYPE_CHECKING:
    from a2a_docgen.render.kinds.agents import AgentPage
    from a2a_docgen.render.pages import SiteViews

__all__ = ["HOME", "KIND", "ORDERS", "HomeViews", "endpoint_host"]

HOME = "index.md"
ORDERS = {
    "name": "sorted/name.md",
    "grade": "sorted/grade.md",
    "changed": "sorted/changed.md",
}
"""The other orders of the home page's list, each a static list: by name, by grade (best first), recently
changed first (with a history only)."""
_GRADES = "ABCDEF"


@dataclass(frozen=True, slots=True)
class HomeViews:
    skill_count: int
    agents_with_errors: tuple[AgentPage, ...]
    by_provider: tuple[AgentPage, ...]
    """The agents grouped by provider (providers by name, agents without one last), by name in a group."""
    orders: Mapping[str, tuple[AgentPage, ...]]
    """The agents in each of ``ORDERS`` the site has (``changed`` only with a history)."""
    hosts: Mapping[str, str]
    """The endpoint host of each agent whose name another agent shares (card text), by agent page path: the
    lists tell them apart by it."""


def provider_of(agent: AgentPage) -> str:
    """The agent's provider as the home page groups it (``""``: none named)."""
    provider = agent.card.provider
    return provider.organization if provider is not None and provider.organization else ""


def endpoint_host(url: str) -> str:
    """The host an interface URL names (``host:port`` for gRPC has no scheme), or the URL itself."""
    try:
        host = urlsplit(url if "://" in url else f"//{url}").hostname
    except ValueError:
        host = None
    return host or url


def _name_key(agent: AgentPage) -> tuple[str, str, str]:
    name = agent.card.name or ""
    return (name.casefold(), name, agent.path)


def home_views(sources: ViewSources) -> HomeViews:
    agents = sources.agents
    by_provider = tuple(
        sorted(agents, key=lambda a: (not provider_of(a), provider_of(a).casefold(), *_name_key(a)))
    )
    orders = {
        "name": tuple(sorted(agents, key=_name_key)),
        "grade": tuple(
            sorted(
                agents,
                key=lambda a: (
                    _GRADES.find(a.grade.letter) if a.grade else len(_GRADES),
                    -(a.grade.score if a.grade else 0),
                    *_name_key(a),
                ),
            )
        ),
    }
    if any(a.changes is not None for a in agents):
        changed = sorted(agents, key=_name_key)
        changed.sort(key=lambda a: a.changes.last_changed if a.changes else "", reverse=True)
        orders["changed"] = tuple(changed)
    names = Counter(identity_key(a.card.name or "").casefold() for a in agents)
    hosts = {
        a.path: CardText(endpoint_host(a.endpoint.interface.url))
        for a in agents
        if names[identity_key(a.card.name or "").casefold()] > 1
        and a.endpoint is not None
        and a.endpoint.interface.url
    }
    return HomeViews(
        len(sources.refs),
        tuple(agent for agent in agents if agent.errors),
        by_provider,
        orders,
        hosts,
    )


def home_pages(site: SiteViews, views: HomeViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    yield from list_jobs(
        "index.md.jinja", paginate(views.by_provider, HOME, size["agents"]), indexed=True, order="provider"
    )
    for order, agents in views.orders.items():
        yield from list_jobs("index.md.jinja", paginate(agents, ORDERS[order], size["agents"]), order=order)


KIND = PageKind(
    home_views,
    home_pages,
    NavEntry("Home", HOME),
    addresses={"HOME": HOME, **{f"SORTED_{order.upper()}": path for order, path in ORDERS.items()}},
)
