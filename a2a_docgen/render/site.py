"""The result of rendering a catalogue: plain data, no file I/O."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from a2a_docgen.render.search import SearchEntry


@dataclass(frozen=True, slots=True)
class NavEntry:
    """One entry of the generated navigation: a title and a page path (relative to the docs root)."""

    title: str
    path: str


@dataclass(frozen=True, slots=True)
class RenderedSite:
    """Every file of a catalogue, keyed by POSIX path relative to the docs root (``agents/x/index.md``).

    ``pages`` are Markdown (text, ``\\n`` line ends, one trailing newline); ``files`` are other files copied
    as they are (raw card JSON, exports). ``nav`` is the navigation a site engine should show: the catalogue
    pages, never one entry per agent or skill (that would make every page O(N)). ``unindexed`` lists the pages
    to keep out of a search index.
    """

    pages: dict[str, str] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    nav: tuple[NavEntry, ...] = ()
    unindexed: frozenset[str] = frozenset()
    """Pages a site search need not index: facet pages (one per tag, the media-type index and one page per media
    type) that only repeat, as lists, what the agent pages say. Keeping them out keeps the search index small."""
    facets: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    """Each agent page's facet values (``tag``, ``media``, ``auth``, ``binding``, ``provider``, ``era``: plain
    text), for a site search that filters (Pagefind)."""
    search: Mapping[str, tuple[SearchEntry, ...]] = field(default_factory=dict)
    """A site search's entries for each page that has any (agent pages: the agent and each skill), from the
    model: an engine indexes these instead of the page's HTML."""
    feeds: Mapping[str, str] = field(default_factory=dict)
    """The Atom feed of each page that has one (an agent's changes; the catalogue's for the other pages), by
    page path: for a ``<link rel="alternate">`` in the page's head, where the engine lets us write one."""

    def searched(self, path: str) -> bool:
        """Whether a site search indexes the page at ``path``: an agent page (it has facets) not kept out."""
        return path in self.facets and path not in self.unindexed

    def nav_owner(self, path: str) -> str | None:
        """The navigation entry a page that is not in the navigation belongs to: the entry whose path is the
        longest directory prefix of ``path`` (``tags/x.md`` -> ``tags/index.md``, ``index-2.md`` ->
        ``index.md``), else none: an agent page is no part of Home, which would read as where the reader is."""
        best: str | None = None
        for entry in self.nav:
            directory = entry.path.rpartition("/")[0]
            stem = entry.path.removesuffix(".md")
            inside = path.startswith((f"{stem}/", f"{stem}-")) or (
                directory and path.startswith(f"{directory}/")
            )
            if inside and (best is None or len(entry.path) > len(best)):
                best = entry.path
        return best

    def all_files(self) -> dict[str, bytes]:
        """Pages and files together, encoded, sorted by path."""
        merged = {path: text.encode("utf-8") for path, text in self.pages.items()}
        merged.update(self.files)
        return dict(sorted(merged.items()))
