"""A page to render (``PageJob``) and the lists cut into pages of bounded size, for every page kind.

One agent page per agent; every list that grows with the catalogue (the agents of the home page, the skills of
a tag or a media type, the schemes of a kind, the interfaces of a binding, the scopes, the excluded files) is
split over pages of a bounded size (``paging``), so no page grows without bound: at 5,000 agents the largest
stays far below 300 KB of HTML. Index pages give counts and link to the lists. Which pages each kind has is
in its module (``render.kinds``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from a2a_docgen.render.paging import Page

__all__ = ["PER_PAGE", "PageJob", "list_jobs"]

PER_PAGE = {
    "agents": 100,
    "facet": 200,
    "tags": 500,
    "schemes": 200,
    "scopes": 300,
    "excluded": 100,
    "changes": 50,
}
"""Items per page of each kind of list: agents on the home page; agents on a tag, media-type, extension or
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


def list_jobs(
    template: str, pages: Sequence[Page[Any]], *, indexed: bool = False, **context: Any
) -> Iterator[PageJob]:
    """The pages of one list; ``indexed``: its first page is for a site search (the rest only list more)."""
    for page in pages:
        yield PageJob(
            page.pager.path, template, {**context, "page": page}, indexed and page.pager.number == 1
        )
