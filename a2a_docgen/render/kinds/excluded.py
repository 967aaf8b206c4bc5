"""The excluded cards: ``excluded.md`` lists the files that could not be read as a card, with their
diagnostics (always there, empty or not)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_docgen.model import Diagnostic
from a2a_docgen.render.env import CardText
from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.paging import paginate
from a2a_docgen.render.site import NavEntry

if TYPE_CHECKING:
    from a2a_docgen.render.pages import SiteViews

__all__ = ["EXCLUDED", "KIND", "ExcludedFile", "ExcludedViews"]

EXCLUDED = "excluded.md"


@dataclass(frozen=True, slots=True)
class ExcludedFile:
    path: str
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True, slots=True)
class ExcludedViews:
    excluded: tuple[ExcludedFile, ...]
    """By name (the path below the cards directory), then path."""


def excluded_views(sources: ViewSources) -> ExcludedViews:
    catalog = sources.catalog
    named = sorted(
        (catalog.excluded_names.get(path) or os.path.basename(path), path) for path in catalog.excluded
    )
    return ExcludedViews(
        tuple(ExcludedFile(CardText(name), tuple(sources.diagnostics.get(path, ()))) for name, path in named)
    )


def excluded_pages(site: SiteViews, views: ExcludedViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    yield from list_jobs(
        "excluded.md.jinja", paginate(views.excluded, EXCLUDED, size["excluded"]), indexed=True
    )


KIND = PageKind(
    excluded_views, excluded_pages, NavEntry("Excluded cards", EXCLUDED), addresses={"EXCLUDED": EXCLUDED}
)
