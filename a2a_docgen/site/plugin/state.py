"""The plugin's state by lifetime: one ``Build`` from ``on_config`` to the build's end, however it ends, and,
under ``mkdocs serve`` only, one ``ServeCaches`` from ``on_startup`` to ``on_shutdown``. The plugin holds its
configuration and these two; nothing else of a build outlives it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from a2a_docgen.catalog import CardCache
from a2a_docgen.history.cache import HistoryCache
from a2a_docgen.html import HtmlPage, Theme
from a2a_docgen.render.env import TemplateEnvs
from a2a_docgen.render.reuse import RenderReuse
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.site.plugin.cache import HtmlCache, LatePages, TemplateCodeCache
from a2a_docgen.site.plugin.kept import Kept, KeptPages
from a2a_docgen.site.plugin.search import IndexAfterBuild, IndexCopies

__all__ = ["Build", "ServeCaches"]


@dataclass(eq=False, slots=True)
class ServeCaches:
    """What ``mkdocs serve`` keeps from one build to the next, each keyed so that a rebuild equals a fresh build
    and does work in proportion to the change. Made in ``on_startup`` for ``serve`` only (a plain build has no
    next one, and a cache would hold what it keeps to the build's end); gone at ``on_shutdown``."""

    cards: CardCache = field(default_factory=CardCache)
    """The last load of each card file: a rebuild validates only the changed ones."""
    reuse: RenderReuse = field(default_factory=RenderReuse)
    """The last render's agent views and pages: a rebuild renders only the agents whose cards changed."""
    templates: TemplateEnvs = field(default_factory=TemplateEnvs)
    """Our page templates' environments: each template compiled once."""
    history: HistoryCache = field(default_factory=HistoryCache)
    """The history read at each ``HEAD`` and what is known of its steps: a rebuild after a card edit reads no
    history again, one after a new commit classifies the new steps only."""
    html: HtmlCache = field(default_factory=HtmlCache)
    """Each page's HTML by final path: a rebuild converts only the pages whose Markdown changed."""
    template_code: TemplateCodeCache = field(default_factory=TemplateCodeCache)
    """The theme's compiled templates (MkDocs makes a new environment for every build)."""
    kept: KeptPages = field(default_factory=KeptPages)
    """The pages the last build made: a rebuild writes an unchanged page back as it was."""
    index_copies: IndexCopies = field(default_factory=IndexCopies)
    """What Pagefind read of the last build's agent pages, for the pages written back unchanged."""
    search_index: IndexAfterBuild = field(default_factory=IndexAfterBuild)
    """The last build's Pagefind index, made after the build returned."""

    def build_failed(self) -> None:
        """A build failed: nothing it made half is kept for the next (the next one makes every page and copy)."""
        self.search_index.wait()
        self.kept.forget()
        self.index_copies.clear()

    def close(self) -> None:
        """``mkdocs serve`` has ended: the last index is finished, the index copies' directory goes."""
        self.search_index.wait()
        self.index_copies.clear()


@dataclass(eq=False, slots=True)
class Build:
    """One build: made in ``on_config`` once the catalogue is rendered and converted, dropped at the build's end
    (``on_post_build``, ``on_build_error``, or MkDocs' shutdown after an interrupted build) by ``close``."""

    site: RenderedSite
    """The catalogue's pages and files, at their final paths (after the prefix)."""
    prefix: str
    theme: Theme
    only_known: bool
    """Every plugin of the site is one whose page hooks are known (``kept.page_hooks_known``): our content is
    made only when a page is written."""
    pagefind: Path | None
    """The Pagefind program that indexes the catalogue after the build, when it is indexed."""
    index_copies: IndexCopies
    """What Pagefind reads of this build's agent pages (the serve caches' under ``serve``)."""
    html: dict[str, HtmlPage]
    """The pages of the one conversion pass as HTML, by final path, until read by MkDocs."""
    late: LatePages
    """The pages that convert while MkDocs writes the others, until written."""
    late_titled: set[str] = field(default_factory=set)
    """The late pages that take their HTML's title: those with none from the nav when MkDocs read them."""
    made: dict[str, Kept] = field(default_factory=dict)
    """The pages as read by MkDocs (links resolved), by final path, until written."""
    files: Files | None = None
    """The site's files, from ``on_files``."""
    marked: Page | None = None
    """The nav page marked active while one of our pages outside the nav is written."""

    def close(self, *, serving: bool) -> None:
        """The build's end, however it ends: its late pages' workers stop, it holds no page, and, outside
        ``serve``, its index copies go."""
        self.late.close()
        self.html.clear()
        self.made.clear()
        if not serving:
            self.index_copies.clear()
