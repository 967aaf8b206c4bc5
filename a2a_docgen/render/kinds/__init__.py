"""The page kinds of the site, one module each (its views, its pages with their addresses, its navigation
entry), and the registry: ``KINDS``. The navigation (``NAV``, ``site_nav``), the page jobs, the search entries
of the top-level pages and the ``paths`` templates read are derived from it.

A new kind is its module (a ``PageKind`` named ``KIND``), its template and a line in ``KINDS`` (where it
stands there is where its entry stands in the navigation). The agent pages (``kinds.agents``) are made apart:
by workers, each with its history pages and feed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from a2a_docgen.model import Catalog, Diagnostic, card_order
from a2a_docgen.render.changes import history_views
from a2a_docgen.render.kinds import (
    bindings,
    excluded,
    extensions,
    home,
    media_types,
    namesakes,
    security,
    tags,
    whats_new,
)
from a2a_docgen.render.kinds.agents import ViewReuse, agent_views
from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PER_PAGE, PageJob
from a2a_docgen.render.pages import Memo, SiteViews, SkillRef, summary, taint_into
from a2a_docgen.render.paths import site_map
from a2a_docgen.render.site import NavEntry

if TYPE_CHECKING:
    from a2a_docgen.history.entries import CatalogHistory

__all__ = ["KINDS", "NAV", "build_views", "page_jobs", "site_nav", "template_paths"]

KINDS: tuple[PageKind[Any], ...] = (
    home.KIND,
    whats_new.KIND,
    tags.KIND,
    media_types.KIND,
    security.KIND,
    bindings.KIND,
    extensions.KIND,
    excluded.KIND,
    namesakes.KIND,
)
"""Every page kind but the agent pages, in the navigation's order."""

NAV: tuple[NavEntry, ...] = tuple(kind.nav for kind in KINDS if kind.nav is not None and kind.in_nav is None)
"""The navigation of every site: the catalogue pages, never one entry per agent or skill (What's new, only
with a history, is in ``site_nav``)."""


def site_nav(site: SiteViews) -> tuple[NavEntry, ...]:
    """The navigation of ``site``: the entries of its top-level pages, in the registry's order."""
    return tuple(
        kind.nav for kind in KINDS if kind.nav is not None and (kind.in_nav is None or kind.in_nav(site))
    )


def template_paths() -> SimpleNamespace:
    """``paths`` in the templates: every kind's fixed pages by name (``rel(paths.TAGS)``)."""
    return SimpleNamespace(**{name: path for kind in KINDS for name, path in kind.addresses.items()})


def build_views(
    catalog: Catalog,
    *,
    site_url: str | None = None,
    reuse: ViewReuse | None = None,
    history: CatalogHistory | None = None,
) -> SiteViews:
    """Every view the site needs, from a catalogue (tainted here, so callers pass the model as loaded), with the
    change history of its cards when there is one: the site's addresses, worked out once (``paths.site_map``),
    the agents' views (``kinds.agents.agent_views``, which may keep the last build's from ``reuse``), then each
    kind's."""
    memo: Memo = {}  # one for the whole catalogue: media types, tags and scheme names repeat
    cards = sorted(catalog.cards, key=card_order)
    ordered = tuple(sorted(catalog.diagnostics, key=Diagnostic.sort_key))
    diagnostics: tuple[Diagnostic, ...] = taint_into(ordered, memo)
    raw_by_file: dict[str, list[Diagnostic]] = {}  # as loaded: what a reused view is compared on
    by_file: dict[str, list[Diagnostic]] = {}
    for raw, diagnostic in zip(ordered, diagnostics, strict=True):
        raw_by_file.setdefault(raw.file, []).append(raw)
        by_file.setdefault(raw.file, []).append(diagnostic)
    addresses = site_map(cards)
    agents, grades = agent_views(
        catalog,
        cards,
        by_file,
        raw_by_file,
        memo,
        addresses=addresses,
        site_url=site_url,
        reuse=reuse,
        history=history,
    )
    refs = tuple(
        SkillRef(agent, skill, summary(skill.skill.description)) for agent in agents for skill in agent.skills
    )
    sources = ViewSources(catalog, agents, refs, by_file, addresses)
    views = tuple(kind.views(sources) for kind in KINDS)
    members: dict[str, object] = {}
    for view in views:
        for name in getattr(view, "__dataclass_fields__", ()):
            if name in members or hasattr(SiteViews, name):
                raise RuntimeError(f"two page kinds' views have a member {name!r}")
            members[name] = getattr(view, name)
    return SiteViews(
        agents=agents,
        kinds=views,
        history=history_views(history, {agent.card.source.key: agent.path for agent in agents}, taint_into)
        if history is not None
        else None,
        grades=grades,
        addresses=addresses,
        members=members,
    )


def page_jobs(site: SiteViews, per_page: Mapping[str, int] | None = None) -> Iterator[PageJob]:
    """Every page but the agent pages and their history pages (``kinds.agents.history_jobs``): each kind's,
    in the registry's order. ``per_page`` overrides ``layout.PER_PAGE``."""
    size = {**PER_PAGE, **(per_page or {})}
    for kind, views in zip(KINDS, site.kinds, strict=True):
        yield from kind.pages(site, views, size)
