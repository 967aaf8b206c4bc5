"""What a page kind is: its views, the pages it lists (with their addresses) and its navigation entry.

A kind's module defines one ``PageKind`` (``KIND``) and the registry (``render.kinds``) lists them; the
navigation, the page jobs, the search entries of the top-level pages and the ``paths`` templates read are all
derived from that list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from a2a_docgen.render.site import NavEntry

if TYPE_CHECKING:
    from a2a_docgen.model import Catalog, Diagnostic
    from a2a_docgen.render.kinds.agents import AgentPage
    from a2a_docgen.render.layout import PageJob
    from a2a_docgen.render.pages import SiteViews, SkillRef
    from a2a_docgen.render.paths import Addresses

__all__ = ["PageKind", "ViewSources"]

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class ViewSources:
    """What a kind's views are made from: the catalogue and the views every kind reads."""

    catalog: Catalog
    agents: tuple[AgentPage, ...]
    """In catalogue order."""
    refs: tuple[SkillRef, ...]
    """Every skill of every agent, in agent order, then card order."""
    diagnostics: Mapping[str, Sequence[Diagnostic]]
    """Each file's diagnostics (tainted)."""
    addresses: Addresses
    """Every address of the site (``paths.site_map``): a kind's pages are where this says."""


@dataclass(frozen=True, slots=True)
class PageKind(Generic[V]):
    """One kind of page of the site (the tags, the media types ...)."""

    views: Callable[[ViewSources], V]
    """Its views: a dataclass whose fields templates read as members of ``site`` (``site.tags``)."""
    pages: Callable[[SiteViews, V, Mapping[str, int]], Iterator[PageJob]]
    """Its pages, each with its path, in a fixed order; the mapping is ``layout.PER_PAGE`` (items a page)."""
    nav: NavEntry | None = None
    """Its entry in the navigation, when it is a top-level page."""
    in_nav: Callable[[SiteViews], bool] | None = None
    """Whether a site's navigation has the entry (What's new: only with a history); ``None``: every site's
    has it, and so has ``NAV`` (the navigation ``a2a-docgen init`` writes)."""
    addresses: Mapping[str, str] = field(default_factory=dict)
    """Its fixed pages by the names templates know them by (``rel(paths.TAGS)``)."""
