"""The extensions: ``extensions/index.md`` (every extension URI the cards declare, with how many agents declare
it and how many require it) and a page per URI, ``extensions/<slug>.md``: the agents that declare it, whether
each requires it, its descriptions and its parameters."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_docgen.model import JSONValue
from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.paging import paginate
from a2a_docgen.render.site import NavEntry
from a2a_docgen.text.slug import identity_key
from a2a_docgen.text.urls import safe_url

if TYPE_CHECKING:
    from a2a_docgen.render.kinds.agents import AgentPage
    from a2a_docgen.render.pages import SiteViews

__all__ = ["EXTENSIONS", "KIND", "ExtensionUse", "ExtensionView", "ExtensionViews"]

EXTENSIONS = "extensions/index.md"


@dataclass(frozen=True, slots=True)
class ExtensionUse:
    """One declaration of the extension, by one agent (an agent that declares it twice has two)."""

    agent: AgentPage
    required: bool
    description: str | None
    params: Mapping[str, JSONValue] | None


@dataclass(frozen=True, slots=True)
class ExtensionView:
    uri: str
    """As first spelled (URIs that differ only in invisible characters or normalisation are one)."""
    path: str
    """``extensions/<slug>.md``."""
    linked: bool
    """The URI is an http(s) URL that may be linked (``text.urls.safe_url``); otherwise it is shown as code."""
    uses: tuple[ExtensionUse, ...]
    """In catalogue order, then the card's order."""
    agents: int
    """Agents that declare it."""
    required: int
    """Agents that require it."""


@dataclass(frozen=True, slots=True)
class ExtensionViews:
    extensions: tuple[ExtensionView, ...]
    """Sorted by URI."""


def extension_views(sources: ViewSources) -> ExtensionViews:
    spelling: dict[str, str] = {}
    uses: dict[str, list[ExtensionUse]] = {}
    for agent in sources.agents:
        for extension in agent.card.capabilities.extensions:
            if not extension.uri:
                continue
            key = identity_key(extension.uri)
            spelling.setdefault(key, extension.uri)
            use = ExtensionUse(agent, extension.required, extension.description, extension.params)
            uses.setdefault(key, []).append(use)
    page_paths = sources.addresses.extensions
    return ExtensionViews(
        tuple(
            ExtensionView(
                uri=spelling[key],
                path=page_paths[key],
                linked=safe_url(spelling[key]) is not None,
                uses=tuple(uses[key]),
                agents=len({id(use.agent) for use in uses[key]}),
                required=len({id(use.agent) for use in uses[key] if use.required}),
            )
            for key in sorted(spelling, key=lambda k: (spelling[k].casefold(), spelling[k]))
        )
    )


def extension_pages(site: SiteViews, views: ExtensionViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    index = paginate(views.extensions, EXTENSIONS, size["tags"])
    yield from list_jobs("extensions.md.jinja", index, indexed=True, extension=None)
    for view in views.extensions:
        yield from list_jobs(
            "extensions.md.jinja", paginate(view.uses, view.path, size["facet"]), extension=view
        )


KIND = PageKind(
    extension_views, extension_pages, NavEntry("Extensions", EXTENSIONS), addresses={"EXTENSIONS": EXTENSIONS}
)
