"""The agents that share a name: the name's own address (``agents/<name>/``) is a short page listing them (name,
provider, endpoint host, card file), each linked to its page (``agents/<name>--<card file>/``), so no card keeps
the address alone (``slugs.agent_slugs``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from a2a_docgen.render.env import CardText
from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob

if TYPE_CHECKING:
    from a2a_docgen.render.kinds.agents import AgentPage
    from a2a_docgen.render.pages import SiteViews

__all__ = ["KIND", "Namesake", "NamesakeList", "NamesakeViews"]


@dataclass(frozen=True, slots=True)
class Namesake:
    agent: AgentPage
    host: str | None
    """The host of the interface requests go to (card text), ``None`` without one."""
    card_file: str
    """The card file's identity key (``CardSource.key``), as published (card text)."""


@dataclass(frozen=True, slots=True)
class NamesakeList:
    name: str
    """As the first of them spells it (card text)."""
    path: str
    """``agents/<slug>/index.md``."""
    agents: tuple[Namesake, ...]
    """In catalogue order."""


@dataclass(frozen=True, slots=True)
class NamesakeViews:
    namesakes: tuple[NamesakeList, ...]


def _host(agent: AgentPage) -> str | None:
    if agent.endpoint is None or not agent.endpoint.interface.url:
        return None
    try:
        host = urlsplit(agent.endpoint.interface.url).hostname
    except ValueError:
        return None
    return CardText(host) if host else None


def namesake_views(sources: ViewSources) -> NamesakeViews:
    by_key = {agent.card.source.key: agent for agent in sources.agents}
    lists = []
    for namesakes in sources.addresses.namesakes:
        agents = tuple(Namesake(by_key[key], _host(by_key[key]), CardText(key)) for key in namesakes.keys)
        lists.append(NamesakeList(agents[0].agent.card.name or CardText(""), namesakes.path, agents))
    return NamesakeViews(tuple(lists))


def namesake_pages(site: SiteViews, views: NamesakeViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    for namesakes in views.namesakes:
        yield PageJob(namesakes.path, "namesakes.md.jinja", {"namesakes": namesakes}, indexed=False)


KIND = PageKind(namesake_views, namesake_pages)
