"""The protocol bindings: ``bindings.md`` and a page per binding and protocol version, ``bindings/<slug>.md``,
listing the interfaces of the agents."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_docgen.render.env import CardText
from a2a_docgen.render.kinds.kind import PageKind, ViewSources
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.paging import Page, paginate
from a2a_docgen.render.site import NavEntry

if TYPE_CHECKING:
    from a2a_docgen.render.kinds.agents import AgentPage, InterfaceView
    from a2a_docgen.render.pages import SiteViews

__all__ = [
    "BINDINGS",
    "KIND",
    "BindingGroup",
    "BindingPages",
    "BindingRow",
    "BindingViews",
]

BINDINGS = "bindings.md"


@dataclass(frozen=True, slots=True)
class BindingRow:
    agent: AgentPage
    interface: InterfaceView


@dataclass(frozen=True, slots=True)
class BindingGroup:
    binding: str
    version: str | None
    rows: tuple[BindingRow, ...]


@dataclass(frozen=True, slots=True)
class BindingViews:
    bindings: tuple[BindingGroup, ...]


@dataclass(frozen=True, slots=True)
class BindingPages:
    """The interfaces of one binding and protocol version."""

    group: BindingGroup
    path: str
    pages: tuple[Page[BindingRow], ...]


@dataclass(frozen=True, slots=True)
class BindingsLayout:
    """What ``bindings.md`` lists (``layout`` in its template): the pages of each binding and version."""

    bindings: tuple[BindingPages, ...]


def binding_views(sources: ViewSources) -> BindingViews:
    groups: dict[tuple[str, str], list[BindingRow]] = {}
    for agent in sources.agents:
        for view in agent.interfaces:
            binding = view.interface.protocol_binding or ""
            version = view.interface.protocol_version or ""
            groups.setdefault((binding, version), []).append(BindingRow(agent, view))
    return BindingViews(
        tuple(
            BindingGroup(
                binding=CardText(binding),
                version=CardText(version) if version else None,
                rows=tuple(rows),
            )
            for (binding, version), rows in sorted(groups.items())
        )
    )


def binding_pages(site: SiteViews, views: BindingViews, size: Mapping[str, int]) -> Iterator[PageJob]:
    paths = [site.addresses.bindings[(group.binding, group.version or "")] for group in views.bindings]
    bindings = tuple(
        BindingPages(group, path, paginate(group.rows, path, size["schemes"]))
        for group, path in zip(views.bindings, paths, strict=True)
    )
    yield PageJob(BINDINGS, "bindings.md.jinja", {"layout": BindingsLayout(bindings)})
    for binding in bindings:
        yield from list_jobs("binding.md.jinja", binding.pages, binding=binding)


KIND = PageKind(
    binding_views, binding_pages, NavEntry("Protocol bindings", BINDINGS), addresses={"BINDINGS": BINDINGS}
)
