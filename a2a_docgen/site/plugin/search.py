"""Search in a site with the plugin: our entries handed to the site's search plugin, and the catalogue's
Pagefind index."""

from __future__ import annotations

import html
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.pages import Page

from a2a_docgen.errors import A2ADocgenError
from a2a_docgen.render.search import SearchEntry
from a2a_docgen.render.site import RenderedSite

__all__ = [
    "IndexCopies",
    "SearchEntries",
    "pagefind_for",
    "take_over_search",
    "write_search_index",
]

log = get_plugin_logger("a2a_docgen.site.plugin")

SearchEntries = Callable[[Page], "tuple[SearchEntry, ...] | None"]


def take_over_search(plugin: object, entries_for: SearchEntries) -> None:
    """Give a search plugin our entries for our pages instead of letting it parse their HTML.

    Both MkDocs' ``search`` and mkdocs-material's index a page through ``search_index.add_entry_from_context``
    (a new index each build); for our pages this adds our entries instead: plain text for MkDocs' index,
    escaped text for Material's (it reads titles, text and tags as HTML). Other search plugins are left alone.
    """
    index = getattr(plugin, "search_index", None)
    original = getattr(index, "add_entry_from_context", None)
    if index is None or original is None or getattr(original, "a2a_docgen", False):
        return
    material = isinstance(getattr(index, "entries", None), list)
    if not material and not callable(getattr(index, "_add_entry", None)):
        return

    def add_entry_from_context(page: Page) -> None:
        entries = entries_for(page)
        if entries is None:
            original(page)
            return
        for entry in entries:
            location = page.url + (f"#{entry.anchor}" if entry.anchor else "")
            if material:
                record: dict[str, Any] = {
                    "location": location,
                    "title": html.escape(entry.title, quote=False),
                    "text": html.escape(entry.text, quote=False),
                }
                if entry.tags:  # Material appends every string of a result with innerHTML, tags included
                    record["tags"] = [html.escape(tag, quote=False) for tag in entry.tags]
                index.entries.append(record)
            else:
                index._add_entry(title=entry.title, text=entry.text, loc=location)

    add_entry_from_context.a2a_docgen = True  # type: ignore[attr-defined]
    index.add_entry_from_context = add_entry_from_context


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
