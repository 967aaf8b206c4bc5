"""Search in a site with the plugin: our entries handed to the site's search plugin, and the catalogue's
Pagefind index."""

from __future__ import annotations

import re
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.pages import Page

from a2a_docgen.errors import A2ADocgenError
from a2a_docgen.render.search import SearchEntry
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.site.plugin.mkdocs_private import SearchRecord, take_over_index

__all__ = [
    "IndexAfterBuild",
    "IndexCopies",
    "SearchEntries",
    "pagefind_for",
    "take_over_search",
    "write_search_index",
]

log = get_plugin_logger("a2a_docgen.site.plugin")

SearchEntries = Callable[[Page], "tuple[SearchEntry, ...] | None"]


def take_over_search(plugin: object, entries_for: SearchEntries) -> None:
    """Give a search plugin (MkDocs' or mkdocs-material's) our entries for our pages instead of letting it parse
    their HTML (``mkdocs_private.take_over_index``)."""

    def records_for(page: Page) -> list[SearchRecord] | None:
        entries = entries_for(page)
        if entries is None:
            return None
        return [
            (page.url + (f"#{entry.anchor}" if entry.anchor else ""), entry.title, entry.text, entry.tags)
            for entry in entries
        ]

    take_over_index(plugin, records_for)


def pagefind_for(option: str | None, site: RenderedSite) -> Path | None:
    """The Pagefind program the build will index the catalogue with (option ``search_index``), or ``None``: the
    option is off, the catalogue has no agent page, or Pagefind is not installed (said once; an error when
    the option asks for it)."""
    if option == "off" or not site.facets:
        return None
    from a2a_docgen.site.pagefind import find_pagefind

    binary = find_pagefind()
    if binary is None:
        if option == "pagefind":
            raise PluginError(
                "a2a-docgen: search_index: Pagefind is not installed (pip install 'a2a-docgen[search]')"
            )
        log.info(
            "Pagefind is not installed: the catalogue has no full-text search (pip install 'a2a-docgen[search]')"
        )
    return binary


class IndexCopies:
    """What Pagefind reads of each agent page: a small HTML file holding the page's language and the part of
    its content a search reads (``HtmlPage.indexed``: no theme navigation, no request boxes), laid out as the
    catalogue is, in a directory of its own. The boxes are skipped by Pagefind anyway (``data-pagefind-ignore``)
    and the theme's navigation is outside the root element it reads, so the index is the one the built pages
    would give; the copies are about a fifth of their bytes, and Pagefind's work is in proportion."""

    def __init__(self) -> None:
        self.directory: Path | None = None
        self._present: set[str] = set()
        """The copies in the directory (kept from the last build under ``mkdocs serve``)."""
        self._current: set[str] = set()
        """The copies this build wrote or kept."""

    def add(self, path: str, output: str, content: str) -> None:
        """The copy of the page at ``path`` (its destination under the catalogue's root), whose built HTML is
        ``output``, with ``content`` as what is indexed."""
        if self.directory is None:
            self.directory = Path(tempfile.mkdtemp(prefix="a2a-docgen-index-"))
        found = _LANG.search(output, 0, 2048)
        lang = f' lang="{found.group(1)}"' if found else ""
        target = self.directory / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            f'<!doctype html>\n<html{lang}><head><meta charset="utf-8"></head><body>\n{content}</body></html>\n',
            encoding="utf-8",
        )
        self._present.add(path)
        self._current.add(path)

    def keep(self, path: str) -> bool:
        """Keep the last build's copy of the page at ``path`` for this build (a page written back as the last
        build made it, ``kept``, has the same copy); ``False`` when there is none."""
        if path not in self._present:
            return False
        self._current.add(path)
        return True

    def prune(self) -> None:
        """Remove the copies of pages this build did not write (before Pagefind reads the directory)."""
        if self.directory is not None:
            for path in self._present - self._current:
                (self.directory / path).unlink(missing_ok=True)
        self._present = set(self._current)

    def end_build(self, *, keep: bool) -> None:
        """After the index is made: the copies stay for the next build (``keep``: under ``mkdocs serve``) or go."""
        if keep:
            self._current = set()
        else:
            self.clear()

    def clear(self) -> None:
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
        self._present, self._current = set(), set()


_LANG = re.compile(r'<html\b[^>]*?\slang="([^"<>]*)"')


def write_search_index(binary: Path, catalogue_dir: Path, copies: IndexCopies, *, serving: bool) -> None:
    """The catalogue search's Pagefind bundle in ``<catalogue>/pagefind/``, made from the index copies of the
    agent pages (kept for the next build when ``serving``)."""
    from a2a_docgen.site.pagefind import PAGEFIND_DIR, build_search_index

    copies.prune()
    source = copies.directory
    try:
        if source is None:  # no agent page was built (nothing to copy): index what is there
            index = build_search_index(catalogue_dir, executable=binary)
        else:
            index = build_search_index(source, executable=binary, output=catalogue_dir / PAGEFIND_DIR)
    except A2ADocgenError as exc:
        copies.clear()
        raise PluginError(f"a2a-docgen: search_index: {exc}") from exc
    copies.end_build(keep=serving)
    log.info(f"Catalogue search: {index.pages} agent pages indexed by Pagefind")


class IndexAfterBuild:
    """Under ``mkdocs serve``, the catalogue's Pagefind index is made after the build has returned, so the
    browser reloads the edited page without waiting for it (about half a rebuild; Pagefind has no incremental
    mode) and the search catches up a moment later. Whatever comes next waits for it first (``wait``: the next
    build, a failed build's clean-up, the server's end), so two never run at once and none outlives the
    server. A failure is logged: the pages are served without the new index."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None

    def start(self, index: Callable[[], None]) -> None:
        self.wait()
        self._thread = threading.Thread(
            target=_logging_failure, args=(index,), name="a2a-docgen-search-index"
        )
        self._thread.start()

    def wait(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()


def _logging_failure(index: Callable[[], None]) -> None:
    try:
        index()
    except PluginError as exc:
        log.error(str(exc))
