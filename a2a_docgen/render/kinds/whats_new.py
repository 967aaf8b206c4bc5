"""What's new: ``whats-new.md`` (and ``-2.md`` ...), the catalogue's latest changes from its git history, when
the site has one (``render.changes``: its views, ``site.history``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.paging import paginate
from a2a_docgen.render.paths import WHATS_NEW
from a2a_docgen.render.site import NavEntry

if TYPE_CHECKING:
    from a2a_docgen.render.pages import SiteViews

__all__ = ["KIND", "WhatsNewViews"]


@dataclass(frozen=True, slots=True)
class WhatsNewViews:
    """None of its own: the history's views are the site's (``site.history``), which the agent pages read too."""


def whats_new_views(sources: ViewSources) -> WhatsNewViews:
    return WhatsNewViews()


def whats_new_pages(site: SiteViews, views: WhatsNewViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    if site.history is not None:
        yield from list_jobs("whats-new.md.jinja", paginate(site.history.recent, WHATS_NEW, size["changes"]))


def _has_history(site: SiteViews) -> bool:
    return site.history is not None


KIND = PageKind(
    whats_new_views,
    whats_new_pages,
    NavEntry("What's new", WHATS_NEW),
    in_nav=_has_history,
    addresses={"WHATS_NEW": WHATS_NEW},
)
