"""Long lists split over pages, so that no page of the catalogue grows without bound.

A list page (the agents of the home page, the skills of a tag, the interfaces of a binding) shows at most a
fixed number of items; the first page keeps the list's own path (``tags/maps.md``) and the others add ``-2``,
``-3`` (``tags/maps-2.md``). No other list's slug is one of those (``text.slug.unique_slugs`` with ``paged``:
a tag ``maps 2`` is hashed), so the names never collide with another page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["Page", "Pager", "page_path", "paginate"]

T = TypeVar("T")


def page_path(first: str, number: int) -> str:
    """The path of page ``number`` (1-based) of the list whose first page is ``first`` (``x.md``)."""
    return first if number == 1 else f"{first.removesuffix('.md')}-{number}.md"


@dataclass(frozen=True, slots=True)
class Pager:
    """Where a page is in its list."""

    number: int
    """1-based."""
    paths: tuple[str, ...]
    """Every page of the list, in order."""
    first_item: int
    """1-based number of the page's first item in the whole list."""
    last_item: int
    total: int
    """Items in the whole list."""

    @property
    def path(self) -> str:
        return self.paths[self.number - 1]

    @property
    def count(self) -> int:
        return len(self.paths)

    @property
    def previous(self) -> str | None:
        return self.paths[self.number - 2] if self.number > 1 else None

    @property
    def next(self) -> str | None:
        return self.paths[self.number] if self.number < len(self.paths) else None


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list: its items and its place."""

    items: Sequence[T]
    """A tuple, or a slice of a sequence made when read (``changes.ChangeViews``)."""
    pager: Pager


def paginate(items: Sequence[T], first: str, per_page: int) -> tuple[Page[T], ...]:
    """``items`` over pages of at most ``per_page``; one (empty) page for an empty list."""
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    count = max(1, -(-len(items) // per_page))
    paths = tuple(page_path(first, n) for n in range(1, count + 1))
    pages = []
    for n in range(count):
        part = items[n * per_page : (n + 1) * per_page]
        chunk = tuple(part) if isinstance(part, list) else part  # a deferred sequence's slice stays deferred
        start = n * per_page + 1 if chunk else 0
        pages.append(Page(chunk, Pager(n + 1, paths, start, n * per_page + len(chunk), len(items))))
    return tuple(pages)
