"""The plugin's MkDocs hooks: the catalogue loaded and rendered in ``on_config``, its pages and files added in
``on_files``, each page sealed in ``on_pre_page``, the Markdown sources and the search index written after the
build.

A build holds every page's converted HTML (compact: ``HtmlPage``) from ``on_config`` until the page is written,
since MkDocs reads every page before it writes any; the page's content (the HTML with its links resolved, in our
element, as a ``str``) is made only while the page is written, where every plugin's page hooks are known
(``KeptPages.only_known``), and let go of after: so at most one page's content exists at a time. A plain build
lets go of each page's HTML too once the page is written; ``mkdocs serve`` keeps it for the next rebuild."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from a2a_docgen.catalog import CardCache, load_catalog
from a2a_docgen.errors import A2ADocgenError
from a2a_docgen.html import HtmlPage, Theme, front_matter
from a2a_docgen.model import Catalog
from a2a_docgen.render.reuse import RenderReuse
from a2a_docgen.render.search import SearchEntry
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.report_formats import code_summary, format_line, printable, shown
from a2a_docgen.site.plugin.cache import HtmlCache, LatePages, TemplateCodeCache
from a2a_docgen.site.plugin.handover import (
    html_title,
    nav_title,
    resolved_links,
    theme_for,
    toc_token,
    wrapped,
)
from a2a_docgen.site.plugin.kept import Kept, KeptPages, page_hooks_known
from a2a_docgen.site.plugin.options import (
    AUTO_PREFIX,
    A2ADocgenPluginConfig,
    as_list,
    join_url,
    prefix_option,
)
from a2a_docgen.site.plugin.search import (
    IndexCopies,
    pagefind_for,
    take_over_search,
    write_search_index,
)
from a2a_docgen.site.writer import check_relative_path, read_manifest

__all__ = ["A2ADocgenPlugin"]

log = get_plugin_logger("a2a_docgen.site.plugin")


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
        self.index_copies = IndexCopies()
        """What Pagefind reads of this build's agent pages."""
        self.cache = HtmlCache()
        """Each page's HTML by final path, kept across ``mkdocs serve`` rebuilds: a rebuild converts only the
        pages whose Markdown changed."""
        self.html: dict[str, HtmlPage] = {}
        """This build's pages as HTML, by final path, until read by MkDocs."""
        self.late = LatePages()
        """This build's pages that convert while MkDocs writes the others (``_late``), until written."""
        self.late_titled: set[str] = set()
        """The late pages that take their HTML's title: those with none from the nav when MkDocs read them."""
        self.made: dict[str, Kept] = {}
        """This build's pages as read by MkDocs (links resolved), by final path, until written."""
        self.template_code = TemplateCodeCache()
        """The theme's compiled templates, kept across ``mkdocs serve`` rebuilds."""
        self.cards = CardCache()
        """The last load of each card file: a rebuild reads every file but validates only the changed ones.
        Like the other caches of rebuilds, used only under ``serve``: a build has no next one, and what a cache
        keeps would be held to the build's end."""
        self.reuse = RenderReuse()
        """The last render's agent views and pages: a rebuild renders again only the agents whose cards changed."""
        self.kept = KeptPages()
        """Under ``serve``, the pages the last build made: a rebuild writes an unchanged page back as it was."""
        self.serving = False

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance, and its converted pages, across ``serve`` rebuilds."""
        self.serving = command == "serve"

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        self.kept.begin(config, files, nav, serving=self.serving)
        return nav

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        return self._configure(config)

    def _configure(self, config: MkDocsConfig) -> MkDocsConfig:
        from a2a_docgen.render.parallel import default_jobs

        base_dir = os.path.dirname(config.config_file_path or os.path.join(os.getcwd(), "mkdocs.yml"))
        configured = as_list(self.config.cards)
        self.card_paths = [os.path.join(base_dir, p) for p in configured]
        templates = self.config.templates
        self.templates_dir = os.path.join(base_dir, templates) if templates else None
        if self.templates_dir is not None and not os.path.isdir(self.templates_dir):
            raise PluginError(f"a2a-docgen: templates: {self.templates_dir} is not a directory")
        self.prefix = prefix = self._choose_prefix(config)
        jobs = self.config.jobs
        if jobs is not None and jobs < 1:
            raise PluginError(f"a2a-docgen: jobs: expected a positive whole number, not {jobs}")
        jobs = jobs or default_jobs()

        started = time.perf_counter()
        later: list[Callable[[], None]] = []  # the history's cache files, written while the pages convert
        site, described = self._render(config, base_dir, configured, jobs=jobs, later=later)
        self.site = _with_prefix(site, prefix)
        # The one conversion pass, on the pages as the site has them (after the prefix); the pages no other page
        # needs before its turn convert during MkDocs' page loop.
        late = self._late(config, self.site, jobs=jobs)
        self.html = self.cache.convert(
            {path: text for path, text in self.site.pages.items() if path not in late},
            self.theme,
            jobs=jobs,
            keep=self.serving,
            meanwhile=later,
        )
        self.late_titled.clear()
        self.late.start(
            {path: text for path, text in self.site.pages.items() if path in late},
            self.theme,
            jobs=jobs,
        )
        self.pagefind = pagefind_for(self.config.search_index, self.site)
        _add_assets(config, prefix)
        if self.config.nav and config.nav is None and not _site_pages(config.docs_dir, prefix):
            config.nav = [{nav_title(entry.title): entry.path} for entry in self.site.nav]
        log.info(f"{described}, rendered in {time.perf_counter() - started:.1f} s")
        return config

    def _render(
        self,
        config: MkDocsConfig,
        base_dir: str,
        configured: list[str],
        *,
        jobs: int,
        later: list[Callable[[], None]],
    ) -> tuple[RenderedSite, str]:
        """The catalogue loaded and rendered, and a line for the build log saying what it holds. The catalogue
        and its views are let go of on return (unless kept for ``serve``'s next rebuild): the site is all the
        build needs of them from here. ``later`` gets the writes of the history's cache files, to run when this
        process would wait anyway."""
        from a2a_docgen.history.read import history_for_build
        from a2a_docgen.render import render_catalog
        from a2a_docgen.render.parallel import in_workers
        from a2a_docgen.signing import load_trust, unverified_message

        try:
            jwks = self.config.jwks
            trust = load_trust(
                [os.path.join(base_dir, str(p)) for p in ([jwks] if isinstance(jwks, str) else jwks)],
                os.path.join(base_dir, self.config.keys_file) if self.config.keys_file else None,
                require=self.config.require_signature,
            )
            # Read relative to mkdocs.yml and named as configured: no published page names the build machine's
            # directories (an excluded card's path, a card's source file).
            catalog = load_catalog(
                configured, base=base_dir, trust=trust, cache=self.cards if self.serving else None
            )
            self._report(catalog)
            unverified = unverified_message(catalog.diagnostics)
            if unverified:
                raise PluginError(f"a2a-docgen: {unverified}")
            self.theme = theme_for(config)
            history = history_for_build(
                configured,
                base=base_dir,
                enabled=self.config.history,
                repo_url=config.repo_url,
                say=log.info,
                parallel=functools.partial(in_workers, jobs=jobs),
                defer=later.append,
            )
            site = render_catalog(
                catalog,
                templates_dir=self.templates_dir,
                site_url=join_url(config.site_url, self.prefix),
                site_name=config.site_name,
                jobs=jobs,
                reuse=self.reuse if self.serving else None,
                history=history,
            )
        except A2ADocgenError as exc:
            raise PluginError(f"a2a-docgen: {exc}") from exc
        return site, _described(catalog)

    def _late(self, config: MkDocsConfig, site: RenderedSite, *, jobs: int) -> frozenset[str]:
        """The pages whose conversion can wait for MkDocs' page loop: no other page shows their title (they are
        in no navigation: ours, or the site's own), no search reads them, no page hook but the known ones sees
        them (those see our pages without content until written), the build has no next one (``serve``
        keeps every page's HTML for its next rebuild), and a worker is there to convert them beside the loop."""
        if self.serving or not self.config.nav or not page_hooks_known(config):
            return frozenset()
        in_nav = {entry.path for entry in site.nav} | set(_nav_paths(config.nav))
        late = frozenset(path for path in site.pages if path not in in_nav and not site.searched(path))
        return late if LatePages.pay(len(late), jobs) else frozenset()

    def _choose_prefix(self, config: MkDocsConfig) -> str:
        """The ``prefix`` option, or the docs root unless the docs directory has a home page of its own (then
        ``catalogue/``, said once in the log): the catalogue never takes the site's home page."""
        if self.config.prefix is not None:
            return prefix_option(self.config.prefix)
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
            take_over_search(plugin, self._search_entries)
        self.files = files
        return files

    def on_pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page:
        """Seal one of our pages: MkDocs takes our HTML (from the conversion pass) instead of running its
        Markdown pipeline."""
        if page.file.src_uri in self.late:
            # Decided here, as for the other pages: what a plugin sets between now and the writing is overridden.
            if "title" not in vars(page):
                self.late_titled.add(page.file.src_uri)

            def late(config: MkDocsConfig, files: Files) -> None:
                # Nothing to read yet: its HTML, title and table of contents are given when it is written
                # (``_take_late``); until then other plugins see it without content, as they see our pages.
                page.content = ""

            page.render = late  # type: ignore[method-assign]
            return page
        converted = self.html.get(page.file.src_uri)
        if converted is None:
            return page
        # A title from the nav is kept. Ours is set in ``render``, as MkDocs sets a title found in the Markdown:
        # after ``on_page_markdown``, where a plugin such as mkdocs-macros evaluates the title it finds.
        title = (
            html_title(converted.title) if converted.title is not None and "title" not in vars(page) else None
        )

        def render(config: MkDocsConfig, files: Files) -> None:
            # The HTML is looked up, not held by this function, which MkDocs keeps with the page to the end.
            converted = self.html.pop(page.file.src_uri)
            if title is not None:
                page.title = title
            made = self.kept.lookup(page, converted) or self._made(page, converted, files, config)
            self._hand_over(page, converted, made)
            # Made when the page is written (``on_page_context``) where every plugin's page hooks are known; else
            # now, for the other plugins' hooks, as MkDocs would.
            page.content = "" if self.kept.only_known else self._content(page, made)

        page.render = render  # type: ignore[method-assign]
        return page

    def _take_late(self, page: Page, config: MkDocsConfig) -> None:
        """A late page, when MkDocs writes it: what ``on_pre_page``'s ``render`` does for the others."""
        converted = self.late.take(page.file.src_uri)
        if converted.title is not None and page.file.src_uri in self.late_titled:
            page.title = html_title(converted.title)
        assert self.files is not None
        self._hand_over(page, converted, self._made(page, converted, self.files, config))

    def _hand_over(self, page: Page, converted: HtmlPage, made: Kept) -> None:
        """What MkDocs takes of one of our pages besides its content: its table of contents and anchors; and the
        page as read, until written."""
        self.made[page.file.src_uri] = made
        page.toc = get_toc([toc_token(h) for h in converted.toc])
        page.present_anchor_ids = set(converted.ids)
        page.links_to_anchors = made.links_to_anchors

    def _made(self, page: Page, converted: HtmlPage, files: Files, config: MkDocsConfig) -> Kept:
        """One page as MkDocs reads it: its links resolved by MkDocs."""
        urls, links_to_anchors = resolved_links(converted, page, files, config)
        made = Kept(converted, urls, links_to_anchors)
        self.kept.made(page, made)
        return made

    def _content(self, page: Page, made: Kept) -> str:
        """One page's content as the theme takes it: the HTML with its links resolved, in our element."""
        facets, searched = self._searched(page)
        return wrapped(
            made.html.with_links(made.urls.__getitem__),
            facets,
            search_body=searched,
            search_index=self.pagefind is not None,
        )

    def _indexed(self, page: Page, made: Kept) -> str | None:
        """The part of an agent page a search reads (links resolved, in our element), when the catalogue has the
        search index; else ``None``."""
        facets, searched = self._searched(page)
        if not searched or self.pagefind is None:
            return None
        return wrapped(
            made.html.with_links(made.urls.__getitem__, indexed=True),
            facets,
            search_body=True,
            search_index=True,
        )

    def _searched(self, page: Page) -> tuple[Mapping[str, tuple[str, ...]] | None, bool]:
        """An agent page's facet values (``None`` for a list page), and whether a search indexes the page."""
        if self.site is None:
            return None, False
        return self.site.facets.get(page.file.src_uri), self.site.searched(page.file.src_uri)

    @event_priority(-100)  # after the search plugin, and any other, has seen the page
    def on_page_context(self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Any) -> Any:
        """Our page's content, made now for the theme where it was not made in ``render``: the other plugins saw
        the page without it, where every one of them is known (``kept.only_known``), so their page hooks had
        nothing to do with it (the search entries of our pages are ours; mkdocs-material's search takes
        ``data-search-*="..."`` attributes out of the whole content with a regular expression, about a second a
        build here, though our markup writes no such attribute with a value and card text has every quote
        escaped). A kept page's template writes its last output, so it needs none. And where a page of ours
        that is not in the navigation belongs (an agent page: the home page's entry; a tag page: Tags ...) is
        marked, so the theme shows readers their place; undone after the page."""
        if page.file.src_uri in self.late:
            self._take_late(page, config)
        made = self.made.get(page.file.src_uri)
        if made is not None and self.kept.only_known and page.file.src_uri not in self.kept.used:
            page.content = self._content(page, made)
        owner = self._nav_owner(page)
        if owner is not None and not owner.active:
            owner.active = True
            self.marked = owner
        return context

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        if self.marked is not None:
            self.marked.active = False
            self.marked = None
        made = self.made.pop(page.file.src_uri, None)
        if made is None:
            return output
        if self.kept.only_known:
            page.content = ""  # written: let go of it (the next page's may take its memory)
        copy = page.file.dest_uri[len(self.prefix) :]
        # A kept page is written back as the last build made it, feed link included.
        kept = page.file.src_uri in self.kept.used
        if not (kept and self.index_copies.keep(copy)):
            indexed = self._indexed(page, made)
            if indexed is not None:
                self.index_copies.add(copy, output, indexed)
        if kept:
            return output
        feed = self.site.feeds.get(page.file.src_uri) if self.site is not None else None
        if feed is not None:
            from a2a_docgen.site.feed_links import with_feed_link

            output = with_feed_link(output, page.url, feed)
        self.kept.written(page, output)
        return output

    def _nav_owner(self, page: Page) -> Page | None:
        if self.site is None or page.file.src_uri not in self.site.pages or page.file.inclusion.is_in_nav():  # type: ignore[no-untyped-call]
            return None
        owner = self.site.nav_owner(page.file.src_uri)
        file = self.files.get_file_from_path(owner) if owner and self.files is not None else None
        return file.page if file is not None and file.page is not None and file.page is not page else None

    def _search_entries(self, page: Page) -> tuple[SearchEntry, ...] | None:
        """Our entries for one of our pages (``()`` for a page kept out of search), ``None`` for a site page."""
        if self.site is None or page.file.src_uri not in self.site.pages:
            return None
        return self.site.search.get(page.file.src_uri, ())

    def on_env(self, env: jinja2.Environment, /, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        """The theme's templates compiled once per plugin instance, not once per ``serve`` rebuild."""
        if env.bytecode_cache is None:
            self.template_code.serve(env)
        self.kept.serve(env)
        return env

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
            write_search_index(
                self.pagefind,
                site_dir / self.prefix,
                self.index_copies,
                serving=self.serving,
            )
        self.made.clear()
        self.late.close()

    def on_shutdown(self) -> None:
        """``mkdocs serve`` has ended: the index copies kept between its builds go."""
        self.index_copies.clear()

    def on_build_error(self, *, error: Exception) -> None:
        """A failed build leaves no index copies behind and holds no page."""
        self.html.clear()
        self.late.close()
        self.made.clear()
        self.index_copies.clear()

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


def _nav_paths(nav: object) -> Iterator[str]:
    """Every page path in a ``nav`` setting (nested lists of strings and one-entry mappings)."""
    if isinstance(nav, str):
        yield nav
    elif isinstance(nav, list):
        for item in nav:
            yield from _nav_paths(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            yield from _nav_paths(value)


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


def _described(catalog: Catalog) -> str:
    """What the catalogue holds, for the build log."""
    from a2a_docgen.text.plural import plural

    skills = sum(len(card.skills) for card in catalog.cards)
    errors = sum(1 for d in catalog.diagnostics if d.severity == "error")
    warnings = len(catalog.diagnostics) - errors
    return (
        f"{plural(len(catalog.cards), 'agent')}, {plural(skills, 'skill')}, "
        f"{len(catalog.excluded)} excluded, {plural(errors, 'error')}, {plural(warnings, 'warning')}"
    )


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
