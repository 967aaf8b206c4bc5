"""The MkDocs plugin ``a2a-docgen``: the catalogue of Agent Cards as pages of the site, sealed.

The only module of a2a-docgen that imports MkDocs. ``on_config`` loads and renders the catalogue with the
library (``load_catalog``, ``render_catalog``); ``on_files`` adds the pages and files to the site.

**Sealed pages.** Our pages never pass through the site's Markdown pipeline. A page's source, as MkDocs and
every other plugin or hook sees it (``on_page_read_source``, ``on_page_markdown``, the file's content), is
its front matter alone (our words, never card text), and its title is set after ``on_page_markdown``; the plugin converts the real Markdown itself (``a2a_docgen.html``: markdown-it-py with one fixed
profile, never the site's ``markdown_extensions``) and hands MkDocs the HTML, the table of contents, the
title and the page's anchors. So no preprocessor a site enables (snippets, macros with any delimiters,
critic, includes, a hook with a syntax of its own) ever sees card text, and MkDocs still does the rest:
theme, navigation, permalinks, link and anchor validation, sitemap, ``on_page_content`` for other plugins.
Search entries come from the model (``RenderedSite.search``) instead of a search plugin parsing our HTML.

```yaml
plugins:
  - search
  - a2a-docgen:
      cards: examples/cards      # a path or a list of paths, relative to mkdocs.yml
```
"""

from __future__ import annotations

import html
import os
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from a2a_docgen.errors import A2ADocgenError
from a2a_docgen.html import Flavour, Heading, HtmlPage, Theme, front_matter, to_html
from a2a_docgen.model import Catalog
from a2a_docgen.render.gc import collector_paused
from a2a_docgen.render.reuse import RenderReuse
from a2a_docgen.render.search import SearchEntry
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.report_formats import code_summary, format_line, printable, shown
from a2a_docgen.site.writer import check_relative_path, read_manifest

__all__ = ["A2ADocgenPlugin", "A2ADocgenPluginConfig"]

log = get_plugin_logger(__name__)

AUTO_PREFIX = "catalogue/"
"""Where the catalogue goes when the docs directory has a home page of its own and no prefix is set."""


_ENTITY = re.compile(r"&(?!(?:#[0-9]+|#[xX][0-9a-fA-F]+|[0-9a-zA-Z]+);)")


class _SearchIndex(c.Choice[str]):
    """``pagefind`` or ``off``; YAML reads a bare ``off`` as ``false`` (and ``on`` as ``true``), so those count."""

    def __init__(self) -> None:
        super().__init__(("pagefind", "off"))

    def run_validation(self, value: object) -> str:
        if value is False:
            return "off"
        if value is True:
            return "pagefind"
        return super().run_validation(value)


class A2ADocgenPluginConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options under ``plugins: - a2a-docgen:`` in mkdocs.yml."""

    cards = c.Type((str, list))
    """Card file or directory, or a list of them, relative to mkdocs.yml. Required."""
    templates = c.Optional(c.Type(str))
    """Directory of template overrides, relative to mkdocs.yml."""
    strict = c.Type(bool, default=False)
    """Fail the build when any card has a diagnostic (otherwise they are logged at INFO level)."""
    quiet = c.Type(bool, default=False)
    """Log only the errors of the cards (and the line by code), as ``check --quiet`` prints them."""
    nav = c.Type(bool, default=True)
    """Use the catalogue's navigation when mkdocs.yml has no ``nav``."""
    prefix = c.Optional(c.Type(str))
    """Directory of the docs tree the catalogue goes into (``catalogue/``); empty means the docs root. Not set:
    the docs root, or ``catalogue/`` when the docs directory has a home page of its own."""
    jobs = c.Optional(c.Type(int))
    """Processes that render agent pages (default: the CPUs available; 1 renders in the MkDocs process)."""
    search_index = c.Optional(_SearchIndex())
    """The catalogue search's index: ``pagefind`` (the default when Pagefind is installed) or ``off``."""
    jwks = c.Type((str, list), default=[])
    """JWK set file(s) of trusted keys, relative to mkdocs.yml (docs/signing.md)."""
    keys_file = c.Optional(c.Type(str))
    """Keys file pinning keys to agents or providers, relative to mkdocs.yml (``keys`` would shadow the
    ``keys()`` method of MkDocs' config mapping)."""
    require_signature = c.Type(bool, default=False)
    """Fail the build when a card has no signature that verifies with a trusted key."""
    history = c.Type(bool, default=True)
    """The change history from git on the agent pages, "What's new" and the feeds (off outside a git work tree)."""


class A2ADocgenPlugin(BasePlugin[A2ADocgenPluginConfig]):  # type: ignore[no-untyped-call]
    """Loads and renders the cards once per build, adds the pages to the site and converts them itself."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        super().__init__()
        self.site: RenderedSite | None = None
        self.prefix = ""
        self.files: Files | None = None
        self.marked: Page | None = None
        self.card_paths: list[str] = []
        self.templates_dir: str | None = None
        self.theme = Theme()
        self.pagefind: Path | None = None
        """The Pagefind program that indexes the catalogue after the build, when it is indexed."""
        self.converted: dict[str, tuple[str, Theme, HtmlPage]] = {}
        """Page path -> (its Markdown, the theme settings, its HTML): kept across ``mkdocs serve`` rebuilds, so
        a rebuild converts only the pages whose Markdown changed."""
        self.reuse = RenderReuse()
        """The last render's agent views and pages: a rebuild renders again only the agents whose cards changed."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance, and its converted pages, across ``serve`` rebuilds."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        return self._configure(config)

    def _configure(self, config: MkDocsConfig) -> MkDocsConfig:
        from a2a_docgen.catalog import load_catalog
        from a2a_docgen.render import render_catalog
        from a2a_docgen.render.parallel import default_jobs
        from a2a_docgen.signing import load_trust, unverified_message

        base_dir = os.path.dirname(config.config_file_path or os.path.join(os.getcwd(), "mkdocs.yml"))
        configured = _as_list(self.config.cards)
        self.card_paths = [os.path.join(base_dir, p) for p in configured]
        templates = self.config.templates
        self.templates_dir = os.path.join(base_dir, templates) if templates else None
        if self.templates_dir is not None and not os.path.isdir(self.templates_dir):
            raise PluginError(f"a2a-docgen: templates: {self.templates_dir} is not a directory")
        self.prefix = prefix = self._choose_prefix(config)
        jobs = self.config.jobs
        if jobs is not None and jobs < 1:
            raise PluginError(f"a2a-docgen: jobs: expected a positive whole number, not {jobs}")

        started = time.perf_counter()
        try:
            jwks = self.config.jwks
            trust = load_trust(
                [os.path.join(base_dir, str(p)) for p in ([jwks] if isinstance(jwks, str) else jwks)],
                os.path.join(base_dir, self.config.keys_file) if self.config.keys_file else None,
                require=self.config.require_signature,
            )
            # Read relative to mkdocs.yml and named as configured: no published page names the build machine's
            # directories (an excluded card's path, a card's source file).
            catalog = load_catalog(configured, base=base_dir, trust=trust)
            self._report(catalog)
            unverified = unverified_message(catalog.diagnostics)
            if unverified:
                raise PluginError(f"a2a-docgen: {unverified}")
            self.theme = _theme(config)
            from a2a_docgen.history.read import history_for_build

            history = history_for_build(
                configured, base=base_dir, enabled=self.config.history, repo_url=config.repo_url, say=log.info
            )
            site = render_catalog(
                catalog,
                templates_dir=self.templates_dir,
                site_url=_join_url(config.site_url, prefix),
                site_name=config.site_name,
                jobs=jobs or default_jobs(),
                convert=self._convert,
                reuse=self.reuse,
                history=history,
            )
        except A2ADocgenError as exc:
            raise PluginError(f"a2a-docgen: {exc}") from exc
        self.site = _with_prefix(site, prefix)
        self.pagefind = _pagefind(self.config.search_index, self.site)
        for path, converted in self.site.converted.items():  # workers' conversions, for the next rebuild
            if isinstance(converted, HtmlPage):
                self.converted[path] = (self.site.pages[path], self.theme, converted)
        _add_assets(config, prefix)
        if self.config.nav and config.nav is None and not _site_pages(config.docs_dir, prefix):
            config.nav = [{_nav_title(entry.title): entry.path} for entry in self.site.nav]
        log.info(_summary(catalog, time.perf_counter() - started))
        return config

    def _choose_prefix(self, config: MkDocsConfig) -> str:
        """The ``prefix`` option, or the docs root unless the docs directory has a home page of its own (then
        ``catalogue/``, said once in the log): the catalogue never takes the site's home page."""
        if self.config.prefix is not None:
            return _prefix(self.config.prefix)
        own = _site_pages(config.docs_dir, "")
        if {"index.md", "README.md"} & own:
            log.info(
                "the docs directory has a home page of its own, so the catalogue goes under "
                f"{AUTO_PREFIX} (set the plugin's prefix option to choose another directory, or '' for the root)"
            )
            return AUTO_PREFIX
        return ""

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        if self.site is None:
            return files
        # Files an earlier `a2a-docgen build` wrote into docs_dir are ours: replaced by the fresh render, or left
        # out when the cards no longer produce them. Any other file at one of our paths is the site's own.
        prefix = self.prefix
        written = {prefix + path for path in read_manifest(os.path.join(config.docs_dir, prefix))}
        ours = set(self.site.pages) | set(self.site.files)
        clashes = sorted(
            path
            for path in ours
            if path not in written
            and (existing := files.get_file_from_path(path)) is not None
            and not existing.generated_by
        )
        if clashes:
            shown = ", ".join(clashes[:5]) + (f" and {len(clashes) - 5} more" if len(clashes) > 5 else "")
            raise PluginError(
                f"a2a-docgen: the catalogue would replace pages of the site ({shown} in the docs directory): "
                "set the plugin's prefix option to a directory of its own (for example prefix: catalogue), "
                "or move those pages"
            )
        for path in sorted(ours | (written - ours)):
            existing = files.get_file_from_path(path)
            if existing is not None:
                files.remove(existing)
        in_nav = {entry.path for entry in self.site.nav}
        for path in self.site.pages:
            # Agent and tag pages are reached through the catalogue pages, not the nav (no O(N) nav, and
            # no "not included in the nav" message listing every agent).
            hidden = self.config.nav and path not in in_nav
            inclusion = InclusionLevel.NOT_IN_NAV if hidden else InclusionLevel.UNDEFINED
            # The source MkDocs (and every other plugin) sees is the page's front matter alone, our own
            # words (render_macros: false, search: exclude): the page is converted by us.
            stub = front_matter(self.site.pages[path])
            files.append(File.generated(config, path, content=stub, inclusion=inclusion))
        for path, data in self.site.files.items():
            files.append(File.generated(config, path, content=data))
        for plugin in config.plugins.values():
            _take_over_search(plugin, self._search_entries)
        self.files = files
        return files

    def on_pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page:
        """Seal one of our pages: MkDocs calls our conversion instead of its Markdown pipeline."""
        markdown = self.site.pages.get(page.file.src_uri) if self.site is not None else None
        if markdown is None:
            return page
        done = self.site.converted.get(page.file.src_uri) if self.site is not None else None
        converted = done if isinstance(done, HtmlPage) else self._convert(page.file.src_uri, markdown)
        # A title from the nav is kept. Ours is set in ``render``, as MkDocs sets a title found in the Markdown:
        # after ``on_page_markdown``, where a plugin such as mkdocs-macros evaluates the title it finds.
        title = (
            _html_title(converted.title)
            if converted.title is not None and "title" not in vars(page)
            else None
        )

        facets = self.site.facets.get(page.file.src_uri) if self.site is not None else None
        indexed = self.site is not None and page.file.src_uri not in self.site.unindexed

        def render(config: MkDocsConfig, files: Files) -> None:
            if title is not None:
                page.title = title
            content, links_to_anchors = _with_links(converted, page, files, config)
            page.content = _wrapped(
                content,
                facets,
                search_body=facets is not None and indexed,
                search_index=self.pagefind is not None,
            )
            page.toc = get_toc([_toc_token(h) for h in converted.toc])
            page.present_anchor_ids = set(converted.ids)
            page.links_to_anchors = links_to_anchors

        page.render = render  # type: ignore[method-assign]
        return page

    @event_priority(-100)  # after the search plugin, and any other, has seen the page
    def on_page_context(self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Any) -> Any:
        """Mark where a page of ours that is not in the navigation belongs (an agent page: the home page's
        entry; a tag page: Tags ...), so the theme shows readers their place; undone after the page."""
        owner = self._nav_owner(page)
        if owner is not None and not owner.active:
            owner.active = True
            self.marked = owner
        return context

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        if self.marked is not None:
            self.marked.active = False
            self.marked = None
        feed = self.site.feeds.get(page.file.src_uri) if self.site is not None else None
        if feed is not None:
            from a2a_docgen.site.feed_links import with_feed_link

            output = with_feed_link(output, page.url, feed)
        return output

    def _nav_owner(self, page: Page) -> Page | None:
        if self.site is None or page.file.src_uri not in self.site.pages or page.file.inclusion.is_in_nav():  # type: ignore[no-untyped-call]
            return None
        owner = self.site.nav_owner(page.file.src_uri)
        file = self.files.get_file_from_path(owner) if owner and self.files is not None else None
        return file.page if file is not None and file.page is not None and file.page is not page else None

    def _convert(self, path: str, markdown: str) -> HtmlPage:
        """One page as HTML: from the last build when its Markdown is the same (``mkdocs serve``), else
        converted now (in a render worker, when the catalogue is rendered by several)."""
        cached = self.converted.get(path)
        if cached is not None and cached[0] == markdown and cached[1] == self.theme:
            return cached[2]
        with collector_paused():
            converted = to_html(markdown, theme=self.theme)
        self.converted[path] = (markdown, self.theme, converted)
        return converted

    def _search_entries(self, page: Page) -> tuple[SearchEntry, ...] | None:
        """Our entries for one of our pages (``()`` for a page kept out of search), ``None`` for a site page."""
        if self.site is None or page.file.src_uri not in self.site.pages:
            return None
        return self.site.search.get(page.file.src_uri, ())

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Publish each catalogue page's Markdown next to its HTML (``llms.txt`` links to it)."""
        if self.site is None:
            return
        site_dir = Path(config.site_dir)
        for path, text in self.site.pages.items():
            check_relative_path(path)
            target = site_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")
        if self.pagefind is not None:
            _write_search_index(self.pagefind, site_dir / self.prefix)

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Callable[..., Any]
    ) -> LiveReloadServer:
        for path in [*self.card_paths, *([self.templates_dir] if self.templates_dir else [])]:
            server.watch(path)
        return server

    def _report(self, catalog: Catalog) -> None:
        """Card diagnostics are INFO messages, or WARNINGs that fail the build with ``strict: true``."""
        for d in shown(catalog.diagnostics, quiet=self.config.quiet and not self.config.strict):
            message = format_line(d)  # escaped as check prints it: card text never drives the terminal
            if self.config.strict:
                log.warning(message)
            else:
                log.info(message)
        if catalog.diagnostics:
            log.info(printable(code_summary(catalog.diagnostics)))
        if self.config.strict and catalog.diagnostics:
            errors = sum(1 for d in catalog.diagnostics if d.severity == "error")
            raise PluginError(
                f"a2a-docgen: strict: {errors} errors and {len(catalog.diagnostics) - errors} warnings "
                "in the cards (listed above)"
            )


def _site_pages(docs_dir: str, prefix: str) -> set[str]:
    """The Markdown pages of the docs directory (below ``prefix``) that ``a2a-docgen build`` did not write."""
    root = os.path.join(docs_dir, prefix)
    generated = set(read_manifest(root))
    found: set[str] = set()
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if name.endswith(".md"):
                path = os.path.relpath(os.path.join(directory, name), root).replace(os.sep, "/")
                if path not in generated:
                    found.add(path)
    return found


def _summary(catalog: Catalog, seconds: float) -> str:
    """One line for the build log: what the catalogue holds and how long it took."""
    from a2a_docgen.text.plural import plural

    skills = sum(len(card.skills) for card in catalog.cards)
    errors = sum(1 for d in catalog.diagnostics if d.severity == "error")
    warnings = len(catalog.diagnostics) - errors
    return (
        f"{plural(len(catalog.cards), 'agent')}, {plural(skills, 'skill')}, "
        f"{len(catalog.excluded)} excluded, {plural(errors, 'error')}, {plural(warnings, 'warning')}, "
        f"rendered in {seconds:.1f} s"
    )


# -- conversion ------------------------------------------------------------------------------------------------


def _theme(config: MkDocsConfig) -> Theme:
    """The HTML the site's theme expects, and its permalink settings (the toc extension's options)."""
    toc = config.mdx_configs.get("toc") or {}
    permalink = toc.get("permalink", False)
    mark = "\u00b6" if permalink is True else (str(permalink) if permalink else None)
    title = str(toc.get("permalink_title", "Permanent link"))
    flavour: Flavour = "material" if config.theme.name == "material" else "plain"
    return Theme(flavour=flavour, permalink=mark, permalink_title=title)


def _with_links(
    converted: HtmlPage, page: Page, files: Files, config: MkDocsConfig
) -> tuple[str, dict[File, dict[str, str]]]:
    """The page's HTML with its links to other pages made URLs by MkDocs itself, which validates them (missing
    pages, anchors) as it does for any page; and the links to anchors it found."""
    from mkdocs.structure.pages import _RelativePathTreeprocessor  # MkDocs' own link rewriting

    resolver = _RelativePathTreeprocessor(page.file, files, config)
    return converted.with_links(resolver.path_to_url), resolver.links_to_anchors


def _wrapped(
    content: str, facets: Mapping[str, tuple[str, ...]] | None, *, search_body: bool, search_index: bool
) -> str:
    """Our page's HTML in the element our stylesheet and scripts know (``a2a-page``). An agent page is marked as
    the body a site search indexes (Pagefind's ``data-pagefind-body``) and carries its facet values as filters
    (in an element whose text is not indexed); a list page says whether the site has the search index (so the
    script never asks for one that is not there)."""
    kind = "agent" if facets is not None else "list"
    body = " data-pagefind-body" if search_body else ""
    search = ' data-a2a-search="pagefind"' if search_index and facets is None else ""
    out = [f'<div class="a2a-page a2a-page-{kind}"{body}{search}>\n', content]
    if facets:
        spans = "".join(
            f'<span data-pagefind-filter="{name}">{html.escape(value, quote=False)}</span>'
            for name, values in facets.items()
            for value in values
        )
        out.append(f'<div class="a2a-facets" data-pagefind-ignore hidden>{spans}</div>\n')
    out.append("</div>\n")
    return "".join(out)


def _pagefind(option: str | None, site: RenderedSite) -> Path | None:
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


def _write_search_index(binary: Path, catalogue_dir: Path) -> None:
    """The catalogue search's Pagefind bundle in ``<catalogue>/pagefind/``."""
    from a2a_docgen.site.pagefind import build_search_index

    try:
        index = build_search_index(catalogue_dir, executable=binary)
    except A2ADocgenError as exc:
        raise PluginError(f"a2a-docgen: search_index: {exc}") from exc
    log.info(f"Catalogue search: {index.pages} agent pages indexed by Pagefind")


def _add_assets(config: MkDocsConfig, prefix: str) -> None:
    """The catalogue's stylesheet and script on every page of the site (the theme loads them)."""
    from a2a_docgen.render.assets import SCRIPTS, STYLESHEETS

    for path in STYLESHEETS:
        if prefix + path not in config.extra_css:
            config.extra_css.append(prefix + path)
    scripts = [str(script) for script in config.extra_javascript]
    for path in SCRIPTS:
        if prefix + path not in scripts:
            config.extra_javascript.append(prefix + path)


def _toc_token(heading: Heading) -> Any:  # MkDocs' _TocToken, a TypedDict private to mkdocs.structure.toc
    return {
        "level": heading.level,
        "id": heading.id,
        "name": html.escape(heading.text, quote=False),
        "children": [_toc_token(child) for child in heading.children],
    }


def _html_title(text: str) -> str:
    """A page title for the theme, which writes it unescaped (mkdocs-material even decodes it with
    ``striptags`` inside ``<title>``): escaped, with ``<`` and ``>`` as look-alike characters."""
    return html.escape(text.replace("<", "\u2039").replace(">", "\u203a"), quote=True)


# -- search ----------------------------------------------------------------------------------------------------

SearchEntries = Callable[[Page], "tuple[SearchEntry, ...] | None"]


def _take_over_search(plugin: object, entries_for: SearchEntries) -> None:
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


# -- options and paths -----------------------------------------------------------------------------------------


def _nav_title(title: str) -> str:
    """Nav titles reach the HTML unescaped and Material's ``striptags`` decodes entities: no ``<`` at all."""
    return html.escape(title.replace("<", "‹").replace(">", "›"), quote=True)


def _as_list(value: object) -> list[str]:
    if value is None or value == []:
        raise PluginError("a2a-docgen: the 'cards' option is required (a path or a list of paths)")
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(item, str) and item for item in items):
        raise PluginError("a2a-docgen: 'cards' must be a path or a list of paths")
    return [str(item) for item in items]


def _prefix(value: str) -> str:
    value = value.strip("/")
    if not value:
        return ""
    try:
        return check_relative_path(value) + "/"
    except A2ADocgenError as exc:
        raise PluginError(f"a2a-docgen: prefix: {exc}") from exc


def _join_url(site_url: str | None, prefix: str) -> str | None:
    if not site_url:
        return None
    return site_url.rstrip("/") + "/" + prefix if prefix else site_url


def _with_prefix(site: RenderedSite, prefix: str) -> RenderedSite:
    if not prefix:
        return site
    return RenderedSite(
        pages={prefix + path: text for path, text in site.pages.items()},
        files={prefix + path: data for path, data in site.files.items()},
        nav=tuple(type(entry)(entry.title, prefix + entry.path) for entry in site.nav),
        unindexed=frozenset(prefix + path for path in site.unindexed),
        facets={prefix + path: values for path, values in site.facets.items()},
        search={prefix + path: entries for path, entries in site.search.items()},
        feeds={prefix + path: prefix + feed for path, feed in site.feeds.items()},
    )
