"""The media types: ``media-types.md`` (every media type with how many skills accept and produce it) and a page
per media type, ``media-types/<slug>.md``: the agents and skills that accept or produce it, one line per agent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_docgen.model import Origin
from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.pages import AgentSkills, SkillRef, by_agent
from a2a_docgen.render.paging import paginate
from a2a_docgen.render.site import NavEntry
from a2a_docgen.text.slug import identity_key

if TYPE_CHECKING:
    from a2a_docgen.render.kinds.agents import AgentPage
    from a2a_docgen.render.pages import SiteViews

__all__ = ["KIND", "MEDIA_TYPES", "MediaTypeLine", "MediaTypeView", "MediaTypeViews"]

MEDIA_TYPES = "media-types.md"


@dataclass(frozen=True, slots=True)
class MediaTypeView:
    media_type: str
    """As first spelled (media types that differ only in invisible characters or normalisation are one)."""
    path: str
    """``media-types/<slug>.md``."""
    accepted_by: tuple[AgentSkills, ...]
    produced_by: tuple[AgentSkills, ...]
    accepts: int
    """Number of skills that accept the type (``accepted_by`` flattened)."""
    produces: int


@dataclass(frozen=True, slots=True)
class MediaTypeViews:
    media_types: tuple[MediaTypeView, ...]


@dataclass(frozen=True, slots=True)
class MediaTypeLine:
    """One agent on a media type's page: the skills that accept it and those that produce it."""

    agent: AgentPage
    accepts: AgentSkills | None
    produces: AgentSkills | None


def _media_groups(uses: Sequence[tuple[SkillRef, Origin]]) -> tuple[AgentSkills, ...]:
    """``by_agent`` for a media type: the skills that declare it, and a count of those that take the card's."""
    own = by_agent([ref for ref, origin in uses if origin == "skill"])
    own_by_agent = {id(group.agent): group.skills for group in own}
    defaults: dict[int, int] = {}
    agents: dict[int, AgentPage] = {}
    for ref, origin in uses:
        agents.setdefault(id(ref.agent), ref.agent)
        if origin == "card":
            defaults[id(ref.agent)] = defaults.get(id(ref.agent), 0) + 1
    return tuple(
        AgentSkills(agent, own_by_agent.get(key, ()), defaults.get(key, 0)) for key, agent in agents.items()
    )


def media_type_views(sources: ViewSources) -> MediaTypeViews:
    """Media types by ``identity_key`` (so two spellings never share a page's slug), first spelling shown."""
    spelling: dict[str, str] = {}
    accepted: dict[str, list[tuple[SkillRef, Origin]]] = {}
    produced: dict[str, list[tuple[SkillRef, Origin]]] = {}
    for ref in sources.refs:
        for modes, uses in ((ref.skill.input_modes, accepted), (ref.skill.output_modes, produced)):
            seen: set[str] = set()
            for mode in modes.modes:
                key = identity_key(mode)
                spelling.setdefault(key, mode)
                if key not in seen:
                    seen.add(key)
                    uses.setdefault(key, []).append((ref, modes.origin))
    page_paths = sources.addresses.media_types
    return MediaTypeViews(
        tuple(
            MediaTypeView(
                media_type=spelling[key],
                path=page_paths[key],
                accepted_by=_media_groups(accepted.get(key, [])),
                produced_by=_media_groups(produced.get(key, [])),
                accepts=len(accepted.get(key, ())),
                produces=len(produced.get(key, ())),
            )
            for key in sorted(spelling, key=lambda k: (spelling[k].casefold(), spelling[k]))
        )
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


def media_type_pages(site: SiteViews, views: MediaTypeViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    yield PageJob(MEDIA_TYPES, "media-types.md.jinja")
    order = {id(agent): n for n, agent in enumerate(site.agents)}
    for view in views.media_types:
        lines = paginate(_media_lines(view, order), view.path, size["facet"])
        yield from list_jobs("media-type.md.jinja", lines, media_type=view)


KIND = PageKind(
    media_type_views,
    media_type_pages,
    NavEntry("Media types", MEDIA_TYPES),
    addresses={"MEDIA_TYPES": MEDIA_TYPES},
)
