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
from dataclasses import dataclass
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

from a2a_docgen.catalog import load_catalog
from a2a_docgen.errors import A2ADocgenError
from a2a_docgen.html import HtmlPage, front_matter
from a2a_docgen.model import Catalog
from a2a_docgen.render.search import SearchEntry
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.report_formats import code_summary, format_line, printable, shown
from a2a_docgen.site.feed_links import ai_catalog_link, feed_link, markdown_link, with_head_links
from a2a_docgen.site.plugin.cache import HtmlCache, LatePages
from a2a_docgen.site.plugin.handover import (
    html_title,
    nav_title,
    resolved_links,
    theme_for,
    wrapped,
)
from a2a_docgen.site.plugin.kept import Kept, page_hooks_known
from a2a_docgen.site.plugin.mkdocs_private import cache_theme_code, seal, title_set, toc
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
from a2a_docgen.site.plugin.state import Build, ServeCaches
from a2a_docgen.site.writer import check_relative_path, read_manifest

__all__ = ["A2ADocgenPlugin"]

log = get_plugin_logger("a2a_docgen.site.plugin")


class A2ADocgenPlugin(BasePlugin[A2ADocgenPluginConfig]):  # type: ignore[no-untyped-call]
    """Loads and renders the cards once per build, adds the pages to the site and converts them itself.

    Its state by lifetime (``state``): the configuration (``config``, MkDocs'); ``build``, one build's, from
    ``on_config`` to the build's end however it ends (``_end_build``, the one clean-up); ``serve_caches``, kept
    across ``mkdocs serve`` rebuilds, under ``serve`` only."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        super().__init__()
        self.build: Build | None = None
        """The build under way, from ``on_config`` to its end."""
        self.serve_caches: ServeCaches | None = None
        """Under ``mkdocs serve`` only, from ``on_startup`` to ``on_shutdown``: what a rebuild takes from the last."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance, and its serve caches, across ``serve`` rebuilds."""
        if command != "serve":
            self.serve_caches = None
        elif self.serve_caches is None:
            self.serve_caches = ServeCaches()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        from a2a_docgen.render.parallel import default_jobs

        self._end_build(failed=True)  # a build MkDocs started and never ended (none: its end came)
        if self.serve_caches is not None:
            self.serve_caches.search_index.wait()  # the last build's, before its copies change
        sources = _Sources.of(self.config, config)
        prefix = self._choose_prefix(config)
        jobs = self.config.jobs
        if jobs is not None and jobs < 1:
            raise PluginError(f"a2a-docgen: jobs: expected a positive whole number, not {jobs}")
        jobs = jobs or default_jobs()
        caches = self.serve_caches

        started = time.perf_counter()
        later: list[Callable[[], None]] = []  # the history's cache files, written while the pages convert
        theme = theme_for(config)
        rendered, described = self._render(config, sources, prefix, jobs=jobs, later=later)
        site = _with_prefix(rendered, prefix)
        only_known = page_hooks_known(config)
        # The one conversion pass, on the pages as the site has them (after the prefix); the pages no other page
        # needs before its turn convert during MkDocs' page loop.
        late = self._late(config, site, jobs=jobs)
        html = (caches.html if caches is not None else HtmlCache()).convert(
            {path: text for path, text in site.pages.items() if path not in late},
            theme,
            jobs=jobs,
            meanwhile=later,
        )
        late_pages = LatePages()
        self.build = Build(
            site=site,
            prefix=prefix,
            theme=theme,
            only_known=only_known,
            pagefind=pagefind_for(self.config.search_index, site),
            index_copies=caches.index_copies if caches is not None else IndexCopies(),
            html=html,
            late=late_pages,
        )
        late_pages.start({path: text for path, text in site.pages.items() if path in late}, theme, jobs=jobs)
        _add_assets(config, prefix)
        if self.config.nav and config.nav is None and not _site_pages(config.docs_dir, prefix):
            config.nav = [{nav_title(entry.title): entry.path} for entry in site.nav]
        log.info(f"{described}, rendered in {time.perf_counter() - started:.1f} s")
        return config

    def _render(
        self,
        config: MkDocsConfig,
        sources: _Sources,
        prefix: str,
        *,
        jobs: int,
        later: list[Callable[[], None]],
    ) -> tuple[RenderedSite, str]:
        """The catalogue loaded and rendered, and a line for the build log saying what it holds. The catalogue
        and its views are let go of on return (unless kept in the serve caches for the next rebuild): the site
        is all the build needs of them from here. ``later`` gets the writes of the history's cache files, to run
        when this process would wait anyway."""
        from a2a_docgen.history.read import history_for_build
        from a2a_docgen.render import render_catalog
        from a2a_docgen.render.discovery import relative_urls_warning
        from a2a_docgen.render.parallel import in_workers
        from a2a_docgen.signing import load_trust, unverified_message

        base_dir, configured = sources.base_dir, sources.configured
        caches = self.serve_caches
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
                configured, base=base_dir, trust=trust, cache=caches.cards if caches is not None else None
            )
            self._report(catalog)
            unverified = unverified_message(catalog.diagnostics)
            if unverified:
                raise PluginError(f"a2a-docgen: {unverified}")
            history = history_for_build(
                configured,
                base=base_dir,
                enabled=self.config.history,
                repo_url=config.repo_url,
                say=log.info,
                parallel=functools.partial(in_workers, jobs=jobs),
                defer=later.append,
                cache=caches.history if caches is not None else None,
            )
            site_url = join_url(config.site_url, prefix)
            site = render_catalog(
                catalog,
                templates_dir=sources.templates_dir,
                site_url=site_url,
                site_name=config.site_name,
                jobs=jobs,
                reuse=caches.reuse if caches is not None else None,
                history=history,
                envs=caches.templates if caches is not None else None,
                publisher=self.config.publisher_domain,
            )
        except A2ADocgenError as exc:
            raise PluginError(f"a2a-docgen: {exc}") from exc
        # INFO, not WARNING: a strict build (init's workflows) must not fail for want of a site URL.
        relative = relative_urls_warning(site_url, "site_url in mkdocs.yml")
        if relative is not None:
            log.info(relative)
        return site, _described(catalog)

    def _late(self, config: MkDocsConfig, site: RenderedSite, *, jobs: int) -> frozenset[str]:
        """The pages whose conversion can wait for MkDocs' page loop: no other page shows their title (they are
        in no navigation: ours, or the site's own), no search reads them, no page hook but the known ones sees
        them (those see our pages without content until written), the build has no next one (``serve``
        keeps every page's HTML for its next rebuild), and a worker is there to convert them beside the loop."""
        if self.serve_caches is not None or not self.config.nav or not page_hooks_known(config):
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
        build = self.build
        if build is None:
            return files
        site, prefix = build.site, build.prefix
        # Files an earlier `a2a-docgen build` wrote into docs_dir are ours: replaced by the fresh render, or left
        # out when the cards no longer produce them. Any other file at one of our paths is the site's own.
        written = {prefix + path for path in read_manifest(os.path.join(config.docs_dir, prefix))}
        ours = set(site.pages) | set(site.files)
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
        in_nav = {entry.path for entry in site.nav}
        for path in site.pages:
            # Agent and tag pages are reached through the catalogue pages, not the nav (no O(N) nav, and
            # no "not included in the nav" message listing every agent).
            hidden = self.config.nav and path not in in_nav
            inclusion = InclusionLevel.NOT_IN_NAV if hidden else InclusionLevel.UNDEFINED
            # The source MkDocs (and every other plugin) sees is the page's front matter alone, our own
            # words (render_macros: false, search: exclude): the page is converted by us.
            stub = front_matter(site.pages[path])
            files.append(File.generated(config, path, content=stub, inclusion=inclusion))
        for path, data in site.files.items():
            files.append(File.generated(config, path, content=data))
        for plugin in config.plugins.values():
            take_over_search(plugin, self._search_entries)
        build.files = files
        return files

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        if self.serve_caches is not None:
            self.serve_caches.kept.begin(config, files, nav)
        return nav

    def on_pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page:
        """Seal one of our pages: MkDocs takes our HTML (from the conversion pass) instead of running its
        Markdown pipeline."""
        build = self.build
        if build is None:
            return page
        if page.file.src_uri in build.late:
            # Decided here, as for the other pages: what a plugin sets between now and the writing is overridden.
            if not title_set(page):
                build.late_titled.add(page.file.src_uri)

            def late(config: MkDocsConfig, files: Files) -> None:
                # Nothing to read yet: its HTML, title and table of contents are given when it is written
                # (``_take_late``); until then other plugins see it without content, as they see our pages.
                page.content = ""

            seal(page, late)
            return page
        converted = build.html.get(page.file.src_uri)
        if converted is None:
            return page
        # A title from the nav is kept. Ours is set in ``render``, as MkDocs sets a title found in the Markdown:
        # after ``on_page_markdown``, where a plugin such as mkdocs-macros evaluates the title it finds.
        title = html_title(converted.title) if converted.title is not None and not title_set(page) else None

        def render(config: MkDocsConfig, files: Files) -> None:
            # The HTML is looked up, not held by this function, which MkDocs keeps with the page to the end.
            build = self.build
            assert build is not None
            converted = build.html.pop(page.file.src_uri)
            if title is not None:
                page.title = title
            kept = self.serve_caches.kept.lookup(page, converted) if self.serve_caches is not None else None
            made = kept or self._made(page, converted, files, config)
            _hand_over(build, page, converted, made)
            # Made when the page is written (``on_page_context``) where every plugin's page hooks are known; else
            # now, for the other plugins' hooks, as MkDocs would.
            page.content = "" if build.only_known else _content(build, page, made)

        seal(page, render)
        return page

    def _take_late(self, build: Build, page: Page, config: MkDocsConfig) -> None:
        """A late page, when MkDocs writes it: what ``on_pre_page``'s ``render`` does for the others."""
        converted = build.late.take(page.file.src_uri)
        if converted.title is not None and page.file.src_uri in build.late_titled:
            page.title = html_title(converted.title)
        assert build.files is not None
        _hand_over(build, page, converted, self._made(page, converted, build.files, config))

    def _made(self, page: Page, converted: HtmlPage, files: Files, config: MkDocsConfig) -> Kept:
        """One page as MkDocs reads it: its links resolved by MkDocs."""
        urls, links_to_anchors = resolved_links(converted, page, files, config)
        made = Kept(converted, urls, links_to_anchors)
        if self.serve_caches is not None:
            self.serve_caches.kept.made(page, made)
        return made

    def _search_entries(self, page: Page) -> tuple[SearchEntry, ...] | None:
        """Our entries for one of our pages (``()`` for a page kept out of search), ``None`` for a site page (the
        search plugin holds this function: the build's site is looked up, not held)."""
        if self.build is None or page.file.src_uri not in self.build.site.pages:
            return None
        return self.build.site.search.get(page.file.src_uri, ())

    def _kept(self, page: Page) -> bool:
        """Whether the page is written back as the last build made it (under ``serve``)."""
        return self.serve_caches is not None and page.file.src_uri in self.serve_caches.kept.used

    @event_priority(-100)  # after the search plugin, and any other, has seen the page
    def on_page_context(self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Any) -> Any:
        """Our page's content, made now for the theme where it was not made in ``render``: the other plugins saw
        the page without it, where every one of them is known (``Build.only_known``), so their page hooks had
        nothing to do with it (the search entries of our pages are ours; mkdocs-material's search takes
        ``data-search-*="..."`` attributes out of the whole content with a regular expression, about a second a
        build here, though our markup writes no such attribute with a value and card text has every quote
        escaped). A kept page's template writes its last output, so it needs none. And where a page of ours
        that is not in the navigation belongs (a tag page: Tags ...; an agent page belongs to none) is
        marked, so the theme shows readers their place; undone after the page."""
        build = self.build
        if build is None:
            return context
        if page.file.src_uri in build.late:
            self._take_late(build, page, config)
        made = build.made.get(page.file.src_uri)
        if made is not None and build.only_known and not self._kept(page):
            page.content = _content(build, page, made)
        owner = _nav_owner(build, page)
        if owner is not None and not owner.active:
            owner.active = True
            build.marked = owner
        return context

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        build = self.build
        if build is None:
            return output
        if build.marked is not None:
            build.marked.active = False
            build.marked = None
        made = build.made.pop(page.file.src_uri, None)
        if made is None:  # a page of the site's own: the catalogue's AI Catalog is found from it too
            return with_head_links(output, page.url, [ai_catalog_link(build.prefix)])
        if build.only_known:
            page.content = ""  # written: let go of it (the next page's may take its memory)
        copy = page.file.dest_uri[len(build.prefix) :]
        # A kept page is written back as the last build made it, head links included.
        kept = self._kept(page)
        if not (kept and build.index_copies.keep(copy)):
            indexed = _indexed(build, page, made)
            if indexed is not None:
                build.index_copies.add(copy, output, indexed)
        if kept:
            return output
        # Its Markdown is published beside it (``on_post_build``).
        links = [markdown_link(page.file.src_uri), ai_catalog_link(build.prefix)]
        feed = build.site.feeds.get(page.file.src_uri)
        if feed is not None:
            links.insert(0, feed_link(feed))
        output = with_head_links(output, page.url, links)
        if self.serve_caches is not None:
            self.serve_caches.kept.written(page, output)
        return output

    def on_env(self, env: jinja2.Environment, /, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        """Under ``serve``: the theme's templates compiled once, not once per rebuild, and kept pages written
        back."""
        caches = self.serve_caches
        if caches is not None:
            if cache_theme_code(env, caches.template_code):
                caches.template_code.serve(env)
            caches.kept.serve(env)
        return env

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Publish each catalogue page's Markdown next to its HTML (``llms.txt`` and the page's head link to it),
        and the index."""
        build = self.build
        if build is None:
            return
        try:
            site_dir = Path(config.site_dir)
            for path, text in build.site.pages.items():
                check_relative_path(path)
                target = site_dir / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8", newline="\n")
            if build.pagefind is not None:
                index = functools.partial(
                    write_search_index,
                    build.pagefind,
                    site_dir / build.prefix,
                    build.index_copies,
                    serving=self.serve_caches is not None,
                )
                if self.serve_caches is not None:
                    self.serve_caches.search_index.start(index)
                else:
                    index()
        except BaseException:
            self._end_build(failed=True)
            raise
        self._end_build(failed=False)

    def on_build_error(self, *, error: Exception) -> None:
        self._end_build(failed=True)

    def on_shutdown(self) -> None:
        """MkDocs is done (``serve`` has ended, or a build was interrupted): a build under way ends, the serve
        caches go."""
        self._end_build(failed=True)
        if self.serve_caches is not None:
            self.serve_caches.close()
            self.serve_caches = None

    def _end_build(self, *, failed: bool) -> None:
        """The one clean-up: the build is let go of (its workers stopped, its pages and, outside ``serve``, its
        index copies dropped); after a failure the serve caches keep nothing it made half."""
        build, self.build = self.build, None
        if build is None:
            return
        build.close(serving=self.serve_caches is not None)
        if failed and self.serve_caches is not None:
            self.serve_caches.build_failed()

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Callable[..., Any]
    ) -> LiveReloadServer:
        sources = _Sources.of(self.config, config)
        for path in [*sources.card_paths, *([sources.templates_dir] if sources.templates_dir else [])]:
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


@dataclass(frozen=True, slots=True)
class _Sources:
    """Where the plugin's options point, from the configuration: read where needed, never kept."""

    base_dir: str
    """The directory of ``mkdocs.yml``, which the options' paths are relative to."""
    configured: list[str]
    """The ``cards`` option's paths, as written."""
    templates_dir: str | None

    @property
    def card_paths(self) -> list[str]:
        return [os.path.join(self.base_dir, path) for path in self.configured]

    @staticmethod
    def of(options: A2ADocgenPluginConfig, config: MkDocsConfig) -> _Sources:
        base_dir = os.path.dirname(config.config_file_path or os.path.join(os.getcwd(), "mkdocs.yml"))
        templates = options.templates
        templates_dir = os.path.join(base_dir, templates) if templates else None
        if templates_dir is not None and not os.path.isdir(templates_dir):
            raise PluginError(f"a2a-docgen: templates: {templates_dir} is not a directory")
        return _Sources(base_dir, as_list(options.cards), templates_dir)


def _hand_over(build: Build, page: Page, converted: HtmlPage, made: Kept) -> None:
    """What MkDocs takes of one of our pages besides its content: its table of contents and anchors; and the
    page as read, until written."""
    build.made[page.file.src_uri] = made
    page.toc = toc(converted.toc)
    page.present_anchor_ids = set(converted.ids)
    page.links_to_anchors = made.links_to_anchors


def _content(build: Build, page: Page, made: Kept) -> str:
    """One page's content as the theme takes it: the HTML with its links resolved, in our element."""
    facets, searched = _searched(build, page)
    return wrapped(
        made.html.with_links(made.urls.__getitem__),
        facets,
        search_body=searched,
        search_index=build.pagefind is not None,
    )


def _indexed(build: Build, page: Page, made: Kept) -> str | None:
    """The part of an agent page a search reads (links resolved, in our element), when the catalogue has the
    search index; else ``None``."""
    facets, searched = _searched(build, page)
    if not searched or build.pagefind is None:
        return None
    return wrapped(
        made.html.with_links(made.urls.__getitem__, indexed=True),
        facets,
        search_body=True,
        search_index=True,
    )


def _searched(build: Build, page: Page) -> tuple[Mapping[str, tuple[str, ...]] | None, bool]:
    """An agent page's facet values (``None`` for a list page), and whether a search indexes the page."""
    return build.site.facets.get(page.file.src_uri), build.site.searched(page.file.src_uri)


def _nav_owner(build: Build, page: Page) -> Page | None:
    site = build.site
    if page.file.src_uri not in site.pages or page.file.inclusion.is_in_nav():  # type: ignore[no-untyped-call]
        return None
    owner = site.nav_owner(page.file.src_uri)
    file = build.files.get_file_from_path(owner) if owner and build.files is not None else None
    return file.page if file is not None and file.page is not None and file.page is not page else None


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
