"""The pages of the site: which template renders which path with which part of the views.

One agent page per agent; every list that grows with the catalogue (the agents of the home page, the skills of
a tag or a media type, the schemes of a kind, the interfaces of a binding, the scopes, the excluded files) is
split over pages of a bounded size (``paging``), so no page grows without bound: at 5,000 agents the largest
stays far below 300 KB of HTML. Index pages give counts and link to the lists.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from a2a_docgen.render import paths
from a2a_docgen.render.changes import ChangeView
from a2a_docgen.render.pages import (
    AgentPage,
    AgentSkills,
    BindingGroup,
    BindingRow,
    ExcludedFile,
    MediaTypeView,
    SchemeRow,
    ScopeRow,
    SiteViews,
    TagPage,
)
from a2a_docgen.render.paging import Page, paginate
from a2a_docgen.render.paths import binding_page_paths, security_kind_path

__all__ = ["PER_PAGE", "BindingPages", "KindPages", "MediaTypeLine", "PageJob", "SiteLayout", "site_layout"]

PER_PAGE = {
    "agents": 100,
    "facet": 200,
    "tags": 500,
    "schemes": 200,
    "scopes": 300,
    "excluded": 100,
    "changes": 50,
}
"""Items per page of each kind of list: agents on the home page; agents on a tag, media-type or
no-authentication page; tags on the tag index; schemes of a kind; scope rows; excluded files; entries of a
change history (an agent's, or the catalogue's "What's new")."""


@dataclass(frozen=True, slots=True)
class PageJob:
    """One page to render: its path, its template and what the template gets besides ``site``."""

    path: str
    template: str
    context: dict[str, Any] = field(default_factory=dict)
    indexed: bool = True
    """Whether a site search should index the page (lists that repeat the agent pages are kept out)."""


@dataclass(frozen=True, slots=True)
class MediaTypeLine:
    """One agent on a media type's page: the skills that accept it and those that produce it."""

    agent: AgentPage
    accepts: AgentSkills | None
    produces: AgentSkills | None


@dataclass(frozen=True, slots=True)
class KindPages:
    """The schemes of one kind (``OAuth 2.0``) across the catalogue."""

    label: str
    path: str
    rows: tuple[SchemeRow, ...]
    pages: tuple[Page[SchemeRow], ...]


@dataclass(frozen=True, slots=True)
class BindingPages:
    """The interfaces of one binding and protocol version."""

    group: BindingGroup
    path: str
    pages: tuple[Page[BindingRow], ...]


@dataclass(frozen=True, slots=True)
class SiteLayout:
    home: tuple[Page[AgentPage], ...]
    tag_index: tuple[Page[TagPage], ...]
    tags: tuple[tuple[TagPage, tuple[Page[AgentSkills], ...]], ...]
    media_types: tuple[tuple[MediaTypeView, tuple[Page[MediaTypeLine], ...]], ...]
    kinds: tuple[KindPages, ...]
    scopes: tuple[Page[ScopeRow], ...]
    unauthenticated: tuple[Page[AgentSkills], ...]
    bindings: tuple[BindingPages, ...]
    excluded: tuple[Page[ExcludedFile], ...]
    whats_new: tuple[Page[ChangeView], ...] = ()
    """The catalogue's recent changes (none without a history)."""
    histories: tuple[tuple[AgentPage, tuple[Page[ChangeView], ...]], ...] = ()
    """The history pages of the agents with more entries than their page shows."""

    def jobs(self) -> Iterator[PageJob]:
        """Every page but the agent pages and their history pages (``history_jobs``), in a fixed order."""
        yield from _list("index.md.jinja", self.home, indexed=True, layout=self)
        yield from _list("tags.md.jinja", self.tag_index, indexed=True)
        for tag, pages in self.tags:
            yield from _list("tag.md.jinja", pages, tag=tag)
        yield PageJob(paths.MEDIA_TYPES, "media-types.md.jinja", {"layout": self})
        for media_type, lines in self.media_types:
            yield from _list("media-type.md.jinja", lines, media_type=media_type)
        yield PageJob(paths.SECURITY, "security.md.jinja", {"layout": self})
        for kind in self.kinds:
            yield from _list("security-kind.md.jinja", kind.pages, kind=kind)
        yield from _list("scopes.md.jinja", self.scopes)
        yield from _list("no-authentication.md.jinja", self.unauthenticated)
        yield PageJob(paths.BINDINGS, "bindings.md.jinja", {"layout": self})
        for binding in self.bindings:
            yield from _list("binding.md.jinja", binding.pages, binding=binding)
        yield from _list("excluded.md.jinja", self.excluded, indexed=True)
        yield from _list("whats-new.md.jinja", self.whats_new)

    def history_jobs(self) -> dict[str, tuple[PageJob, ...]]:
        """The history pages of each agent that has them, by the agent's page path: rendered with the agent's
        page, where it is rendered (``render.parallel``)."""
        return {
            agent.path: tuple(_list("history.md.jinja", changes, agent=agent))
            for agent, changes in self.histories
        }


def _list(
    template: str, pages: Sequence[Page[Any]], *, indexed: bool = False, **context: Any
) -> Iterator[PageJob]:
    """The pages of one list; ``indexed``: its first page is for a site search (the rest only list more)."""
    for page in pages:
        yield PageJob(
            page.pager.path, template, {**context, "page": page}, indexed and page.pager.number == 1
        )


def _media_lines(view: MediaTypeView, order: dict[int, int]) -> list[MediaTypeLine]:
    """One line per agent that accepts or produces the type, in catalogue order (``order``: id -> place)."""
    accepts = {id(group.agent): group for group in view.accepted_by}
    produces = {id(group.agent): group for group in view.produced_by}
    agents: dict[int, AgentPage] = {}
    for group in (*view.accepted_by, *view.produced_by):
        agents.setdefault(id(group.agent), group.agent)
    ordered = sorted(agents.items(), key=lambda item: order[item[0]])
    return [MediaTypeLine(agent, accepts.get(key), produces.get(key)) for key, agent in ordered]


def site_layout(views: SiteViews, per_page: dict[str, int] | None = None) -> SiteLayout:
    """The paginated page set of ``views``."""
    size = {**PER_PAGE, **(per_page or {})}
    order = {id(agent): n for n, agent in enumerate(views.agents)}
    kinds = []
    for label, rows in views.schemes_by_kind:
        path = security_kind_path(label)
        kinds.append(KindPages(label, path, rows, paginate(rows, path, size["schemes"])))
    bindings = []
    binding_paths = binding_page_paths([(group.binding, group.version) for group in views.bindings])
    for group, path in zip(views.bindings, binding_paths, strict=True):
        bindings.append(BindingPages(group, path, paginate(group.rows, path, size["schemes"])))
    return SiteLayout(
        home=paginate(views.agents, paths.HOME, size["agents"]),
        tag_index=paginate(views.tags, paths.TAGS, size["tags"]),
        tags=tuple(
            (tag, paginate(tag.agents, tag.path, size["facet"])) for tag in views.tags if tag.path is not None
        ),
        media_types=tuple(
            (view, paginate(_media_lines(view, order), view.path, size["facet"]))
            for view in views.media_types
        ),
        kinds=tuple(kinds),
        scopes=paginate(views.scopes, paths.SCOPES, size["scopes"]),
        unauthenticated=paginate(views.unauthenticated, paths.NO_AUTHENTICATION, size["facet"]),
        bindings=tuple(bindings),
        excluded=paginate(views.excluded, paths.EXCLUDED, size["excluded"]),
        whats_new=paginate(views.history.recent, paths.WHATS_NEW, size["changes"]) if views.history else (),
        histories=tuple(
            (agent, paginate(agent.changes.entries, agent.changes.history_path, size["changes"]))
            for agent in views.agents
            if agent.changes is not None and agent.changes.history_path is not None
        ),
    )
