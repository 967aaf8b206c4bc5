"""The tags: ``tags/index.md`` (every tag with how many skills carry it) and a page per tag,
``tags/<slug>.md``, listing its skills one line per agent (a card's own tags beyond its first 200 have no page,
``slugs.paged_tags``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.pages import AgentSkills, SkillRef, by_agent
from a2a_docgen.render.paging import paginate
from a2a_docgen.render.site import NavEntry
from a2a_docgen.text.slug import tag_key

if TYPE_CHECKING:
    from a2a_docgen.render.pages import SiteViews

__all__ = ["KIND", "TAGS", "TagPage", "TagViews"]

TAGS = "tags/index.md"


@dataclass(frozen=True, slots=True)
class TagPage:
    tag: str
    """The tag as first spelled (agents in catalogue order, skills in card order)."""
    key: str
    path: str | None
    """``tags/<slug>.md``, or ``None``: the tag is listed on the Tags index only (``slugs.paged_tags``)."""
    skills: tuple[SkillRef, ...]
    agents: tuple[AgentSkills, ...]
    """``skills`` grouped by agent."""


@dataclass(frozen=True, slots=True)
class TagViews:
    tags: tuple[TagPage, ...]
    """Every tag of the catalogue, by tag key."""


def tag_views(sources: ViewSources) -> TagViews:
    """Each tag's page, at the path its skills link to (``TagLink.path``, from ``Addresses.tags``)."""
    by_key: dict[str, list[SkillRef]] = {}
    spelling: dict[str, str] = {}
    tag_paths: dict[str, str | None] = {}
    for ref in sources.refs:
        for tag in ref.skill.tags:
            key = tag_key(tag.tag)
            spelling.setdefault(key, tag.tag)
            tag_paths.setdefault(key, tag.path)
            by_key.setdefault(key, []).append(ref)
    return TagViews(
        tuple(
            TagPage(
                spelling[key],
                key,
                tag_paths[key],
                tuple(by_key[key]),
                by_agent(by_key[key]),
            )
            for key in sorted(by_key)
        )
    )


def tag_pages(site: SiteViews, views: TagViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    yield from list_jobs("tags.md.jinja", paginate(views.tags, TAGS, size["tags"]), indexed=True)
    for tag in views.tags:
        if tag.path is not None:
            yield from list_jobs("tag.md.jinja", paginate(tag.agents, tag.path, size["facet"]), tag=tag)


KIND = PageKind(tag_views, tag_pages, NavEntry("Tags", TAGS), addresses={"TAGS": TAGS})
