"""The security pages: ``security.md`` (the schemes by kind, the scopes, the skills without authentication), a
page per kind of scheme (``security/<kind>.md``), ``security/scopes.md`` and ``security/no-authentication.md``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.pages import KIND_LABELS, AgentSkills, SkillRef, by_agent
from a2a_docgen.render.paging import Page, paginate
from a2a_docgen.render.site import NavEntry

if TYPE_CHECKING:
    from a2a_docgen.render.kinds.agents import AgentPage, SchemeView
    from a2a_docgen.render.pages import SiteViews

__all__ = [
    "KIND",
    "NO_AUTHENTICATION",
    "SCOPES",
    "SECURITY",
    "KindPages",
    "SchemeRow",
    "ScopeRow",
    "SecurityViews",
    "security_kind_path",
]

SECURITY = "security.md"
SCOPES = "security/scopes.md"
NO_AUTHENTICATION = "security/no-authentication.md"


def security_kind_path(label: str) -> str:
    """``security/<kind>.md``: the schemes of one kind, by its label (``API key`` -> ``security/api-key.md``)."""
    words = "".join(ch.lower() if ch.isalnum() else "-" for ch in label)
    return "security/" + "-".join(part for part in words.split("-") if part) + ".md"


@dataclass(frozen=True, slots=True)
class SchemeRow:
    agent: AgentPage
    scheme: SchemeView


@dataclass(frozen=True, slots=True)
class ScopeRow:
    scope: str
    agent: AgentPage
    scheme: str
    description: str | None
    skills: tuple[SkillRef, ...]
    every_skill: bool
    """Every skill of the agent (more than one) needs the scope: the page says so instead of listing them."""


@dataclass(frozen=True, slots=True)
class SecurityViews:
    schemes_by_kind: tuple[tuple[str, tuple[SchemeRow, ...]], ...]
    """The schemes of every agent by kind (our label), kinds in ``KIND_LABELS`` order."""
    scopes: tuple[ScopeRow, ...]
    unauthenticated: tuple[AgentSkills, ...]
    """The skills that declare no security requirement, by agent."""
    scheme_count: int


@dataclass(frozen=True, slots=True)
class KindPages:
    """The schemes of one kind (``OAuth 2.0``) across the catalogue."""

    label: str
    path: str
    rows: tuple[SchemeRow, ...]
    pages: tuple[Page[SchemeRow], ...]


@dataclass(frozen=True, slots=True)
class SecurityLayout:
    """What ``security.md`` lists (``layout`` in its template): the pages of each kind."""

    kinds: tuple[KindPages, ...]


def _scope_rows(agents: Sequence[AgentPage], refs: Sequence[SkillRef]) -> tuple[ScopeRow, ...]:
    """One row per (agent, scheme, scope) declared by a flow or required by a skill, sorted by scope."""
    refs_by_agent: dict[str, list[SkillRef]] = {}
    for ref in refs:
        refs_by_agent.setdefault(ref.agent.path, []).append(ref)
    rows: list[ScopeRow] = []
    for agent in agents:
        declared: dict[tuple[str, str], str | None] = {}
        for view in agent.schemes:
            for flow in view.flows:
                for scope in flow.scopes:
                    declared.setdefault((view.name, scope.name), scope.description)
        needed: dict[tuple[str, str], list[SkillRef]] = {}
        for ref in refs_by_agent.get(agent.path, ()):
            for requirement in ref.skill.security.requirements:
                for use in requirement.uses:
                    for scope in use.scopes:
                        skills = needed.setdefault((use.name, scope.name), [])
                        if not skills or skills[-1] is not ref:
                            skills.append(ref)
                        declared.setdefault((use.name, scope.name), scope.description)
        for scheme_name, scope_name in sorted(declared):
            key = (scheme_name, scope_name)
            users = tuple(needed.get(key, ()))
            every = len(users) > 1 and len(users) == len(agent.skills)
            rows.append(ScopeRow(scope_name, agent, scheme_name, declared[key], users, every))
    return tuple(sorted(rows, key=lambda r: (r.scope.casefold(), r.scope)))


def security_views(sources: ViewSources) -> SecurityViews:
    by_kind: dict[str, list[SchemeRow]] = {}
    for agent in sources.agents:
        for scheme in agent.schemes:
            by_kind.setdefault(scheme.kind_label, []).append(SchemeRow(agent, scheme))
    return SecurityViews(
        schemes_by_kind=tuple(
            (label, tuple(by_kind[label])) for label in KIND_LABELS.values() if label in by_kind
        ),
        scopes=_scope_rows(sources.agents, sources.refs),
        unauthenticated=by_agent([ref for ref in sources.refs if not ref.skill.security.requirements]),
        scheme_count=sum(len(agent.schemes) for agent in sources.agents),
    )


def security_pages(site: SiteViews, views: SecurityViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    kinds = []
    for label, rows in views.schemes_by_kind:
        path = security_kind_path(label)
        kinds.append(KindPages(label, path, rows, paginate(rows, path, size["schemes"])))
    yield PageJob(SECURITY, "security.md.jinja", {"layout": SecurityLayout(tuple(kinds))})
    for kind in kinds:
        yield from list_jobs("security-kind.md.jinja", kind.pages, kind=kind)
    yield from list_jobs("scopes.md.jinja", paginate(views.scopes, SCOPES, size["scopes"]))
    yield from list_jobs(
        "no-authentication.md.jinja", paginate(views.unauthenticated, NO_AUTHENTICATION, size["facet"])
    )


KIND = PageKind(
    security_views,
    security_pages,
    NavEntry("Security", SECURITY),
    addresses={"SECURITY": SECURITY, "SCOPES": SCOPES, "NO_AUTHENTICATION": NO_AUTHENTICATION},
)
