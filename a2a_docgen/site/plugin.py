"""The MkDocs plugin ``a2a-docgen``: render a catalogue of Agent Cards into the site at build time.

The only module of a2a-docgen that imports MkDocs. It reuses the library: ``load_catalog`` and
``render_catalog`` in ``on_config``, then the rendered pages become generated files in ``on_files``
(replacing same-path files from ``docs_dir``, so a committed copy can never disagree with the cards).

```yaml
plugins:
  - search
  - a2a-docgen:
      cards: examples/cards      # a path or a list of paths, relative to mkdocs.yml
```
"""

from __future__ import annotations

import gc
import html
import importlib
import json
import os
import re
from collections.abc import Callable
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

from a2a_docgen.errors import A2ADocgenError
from a2a_docgen.model import Catalog, Diagnostic
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.site.writer import check_relative_path, read_manifest

__all__ = ["HEADING_ID_PREFIX", "A2ADocgenPlugin", "A2ADocgenPluginConfig", "prefixed_slugify"]

log = get_plugin_logger(__name__)

HEADING_ID_PREFIX = "h"
"""Every heading id starts with this and the separator, so none can equal a theme's element id."""

Slugify = Callable[[str, str], str]

_FULL_COLLECTION_THRESHOLD = 100
"""gc threshold 2 during a build: gen-1 collections between two full ones (Python's default is 10)."""

# What agent.md.jinja writes about requests, as Python-Markdown renders it: the "Requests" section (our
# paragraph, then our list of method, target and headers) and, under each example, our paragraph followed by
# the JSON fence. Card text cannot write either sequence: it never makes a list (list markers are encoded) or
# a tag (``<`` is encoded, fence content is escaped), and no card text paragraph is followed by a JSON fence.
_REQUEST_BLOCK = re.compile(
    r"<p>Request to [^<]*, for every example on this page:</p>\n<ul>\n.*?</ul>"
    r"|<p>Request to [^<]* \(see Requests above\), this example as a [^<]*</p>\n"
    r'<pre><code class="language-json">.*?</code></pre>',
    re.DOTALL,
)

default_slugify: Slugify = importlib.import_module("markdown.extensions.toc").slugify
"""The slugify MkDocs uses when mkdocs.yml names none (Python-Markdown's)."""


class A2ADocgenPluginConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options under ``plugins: - a2a-docgen:`` in mkdocs.yml."""

    cards = c.Type((str, list))
    """Card file or directory, or a list of them, relative to mkdocs.yml. Required."""
    templates = c.Optional(c.Type(str))
    """Directory of template overrides, relative to mkdocs.yml."""
    strict = c.Type(bool, default=False)
    """Fail the build when any card has a diagnostic (otherwise they are logged at INFO level)."""
    nav = c.Type(bool, default=True)
    """Use the catalogue's navigation when mkdocs.yml has no ``nav``."""
    prefix = c.Type(str, default="")
    """Directory of the docs tree the catalogue goes into (``agents/``); empty means the docs root."""
    jobs = c.Optional(c.Type(int))
    """Processes that render agent pages (default: the CPUs available; 1 renders in the MkDocs process)."""
    jwks = c.Type((str, list), default=[])
    """JWK set file(s) of trusted keys, relative to mkdocs.yml (docs/signing.md)."""
    keys_file = c.Optional(c.Type(str))
    """Keys file pinning keys to agents or providers, relative to mkdocs.yml (``keys`` would shadow the
    ``keys()`` method of MkDocs' config mapping)."""
    require_signature = c.Type(bool, default=False)
    """Fail the build when a card has no signature that verifies with a trusted key."""


class A2ADocgenPlugin(BasePlugin[A2ADocgenPluginConfig]):  # type: ignore[no-untyped-call]
    """Loads and renders the cards once per build and adds the pages to the site."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        super().__init__()
        self.site: RenderedSite | None = None
        self.card_paths: list[str] = []
        self.templates_dir: str | None = None
        self.gc_threshold: tuple[int, int, int] | None = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self._relax_full_collections()
        try:
            return self._configure(config)
        except BaseException:
            self._restore_full_collections()
            raise

    def _relax_full_collections(self) -> None:
        """Let Python's cyclic collector do fewer full collections while the site builds.

        A build keeps every page in memory, and each full collection walks the whole heap: at 1,000 agents
        the default thresholds ran about 24 of them, 8 % of the build. With ten times fewer gen-1 runs
        between them, 5 run, for some 10 % more peak memory. Young collections are unchanged, so cyclic
        garbage is still freed; the thresholds are restored after the build.
        """
        if self.gc_threshold is None:
            self.gc_threshold = gc.get_threshold()
            young, middle, old = self.gc_threshold
            gc.set_threshold(young, middle, max(old, _FULL_COLLECTION_THRESHOLD))

    def _restore_full_collections(self) -> None:
        if self.gc_threshold is not None:
            gc.set_threshold(*self.gc_threshold)
            self.gc_threshold = None

    def on_build_error(self, *, error: Exception) -> None:
        self._restore_full_collections()

    def _configure(self, config: MkDocsConfig) -> MkDocsConfig:
        from a2a_docgen.catalog import load_catalog
        from a2a_docgen.render import render_catalog
        from a2a_docgen.render.parallel import default_jobs
        from a2a_docgen.signing import load_trust, unverified_message

        base_dir = os.path.dirname(config.config_file_path or os.path.join(os.getcwd(), "mkdocs.yml"))
        self.card_paths = [os.path.join(base_dir, p) for p in _as_list(self.config.cards)]
        templates = self.config.templates
        self.templates_dir = os.path.join(base_dir, templates) if templates else None
        if self.templates_dir is not None and not os.path.isdir(self.templates_dir):
            raise PluginError(f"a2a-docgen: templates: {self.templates_dir} is not a directory")
        prefix = _prefix(self.config.prefix)
        jobs = self.config.jobs
        if jobs is not None and jobs < 1:
            raise PluginError(f"a2a-docgen: jobs: expected a positive whole number, not {jobs}")

        try:
            jwks = self.config.jwks
            trust = load_trust(
                [os.path.join(base_dir, str(p)) for p in ([jwks] if isinstance(jwks, str) else jwks)],
                os.path.join(base_dir, self.config.keys_file) if self.config.keys_file else None,
                require=self.config.require_signature,
            )
            catalog = load_catalog(self.card_paths, trust=trust)
            self._report(catalog)
            unverified = unverified_message(catalog.diagnostics)
            if unverified:
                raise PluginError(f"a2a-docgen: {unverified}")
            site = render_catalog(
                catalog,
                templates_dir=self.templates_dir,
                site_url=_join_url(config.site_url, prefix),
                site_name=config.site_name,
                jobs=jobs or default_jobs(),
            )
        except A2ADocgenError as exc:
            raise PluginError(f"a2a-docgen: {exc}") from exc
        self.site = _with_prefix(site, prefix)

        _prefix_heading_ids(config)
        _warn_about_unsafe_processors(config)
        if self.config.nav and config.nav is None:
            config.nav = [{_nav_title(entry.title): entry.path} for entry in self.site.nav]
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        if self.site is None:
            return files
        rendered = self.site.all_files()
        # Pages an earlier `a2a-docgen build` wrote into docs_dir and that are gone now must not be published.
        prefix = _prefix(self.config.prefix)
        written = {prefix + path for path in read_manifest(os.path.join(config.docs_dir, prefix))}
        stale = written - set(rendered)
        for path in sorted(set(rendered) | stale):
            existing = files.get_file_from_path(path)
            if existing is not None:
                files.remove(existing)
        in_nav = {entry.path for entry in self.site.nav}
        for path, content in rendered.items():
            # Agent and tag pages are reached through the catalogue pages, not the nav (no O(N) nav, and
            # no "not included in the nav" message listing every agent).
            hidden = self.config.nav and path.endswith(".md") and path not in in_nav
            inclusion = InclusionLevel.NOT_IN_NAV if hidden else InclusionLevel.UNDEFINED
            files.append(File.generated(config, path, content=content, inclusion=inclusion))
        return files

    def on_page_markdown(self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        if self.site is not None and page.file.src_uri in self.site.unindexed:
            # Material's search reads this (our constant, never card text: card text is not front matter).
            page.meta["search"] = {"exclude": True}
        return markdown

    def on_page_content(self, content: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Keep the request shown under each example out of the search index (``data-search-exclude``, read
        by Material's search): ready-to-send JSON is most of an agent page's text and nothing one searches for.
        """
        if self.site is None or page.file.src_uri not in self.site.pages:
            return content
        return _REQUEST_BLOCK.sub(r"<div data-search-exclude>\g<0></div>", content)

    @event_priority(-100)  # after the search plugin has written its index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Publish each catalogue page's Markdown next to its HTML (``llms.txt`` links to it), and give the
        built-in search plain-text titles."""
        self._restore_full_collections()
        if self.site is None:
            return
        site_dir = Path(config.site_dir)
        if config.theme.name != "material":
            _unescape_search_titles(site_dir / "search" / "search_index.json")
        for path, text in self.site.pages.items():
            check_relative_path(path)
            target = site_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Callable[..., Any]
    ) -> LiveReloadServer:
        for path in [*self.card_paths, *([self.templates_dir] if self.templates_dir else [])]:
            server.watch(path)
        return server

    def _report(self, catalog: Catalog) -> None:
        """Card diagnostics are INFO messages, or WARNINGs that fail the build with ``strict: true``."""
        for d in catalog.diagnostics:
            message = _format(d)
            if self.config.strict:
                log.warning(message)
            else:
                log.info(message)
        if self.config.strict and catalog.diagnostics:
            errors = sum(1 for d in catalog.diagnostics if d.severity == "error")
            raise PluginError(
                f"a2a-docgen: strict: {errors} errors and {len(catalog.diagnostics) - errors} warnings "
                "in the cards (listed above)"
            )


def _unescape_search_titles(index_path: Path) -> None:
    """MkDocs' own search stores section titles as HTML (``real&#45;time``), and its theme script escapes
    them again on display, so readers would see the character references. Store them as the text they
    encode: the script escapes on display, so this is the intended text, never markup."""
    if not index_path.is_file():
        return
    index = json.loads(index_path.read_text(encoding="utf-8"))
    docs = index.get("docs") if isinstance(index, dict) else None
    if not isinstance(docs, list):
        return
    for doc in docs:
        if isinstance(doc, dict) and isinstance(doc.get("title"), str) and "&" in doc["title"]:
            doc["title"] = html.unescape(doc["title"])
    index_path.write_text(json.dumps(index, sort_keys=True, separators=(",", ":")), encoding="utf-8")


def prefixed_slugify(inner: Slugify = default_slugify) -> Slugify:
    """A toc ``slugify`` that puts ``h<separator>`` before what ``inner`` returns."""

    def slugify(value: str, separator: str) -> str:
        return f"{HEADING_ID_PREFIX}{separator}{inner(value, separator)}"

    slugify.a2a_docgen_prefixed = True  # type: ignore[attr-defined]
    return slugify


def _prefix_heading_ids(config: MkDocsConfig) -> None:
    """Wrap the toc slugify (the user's own or the default), keeping every other toc option."""
    toc = config.mdx_configs.setdefault("toc", {})
    current = toc.get("slugify", default_slugify)
    if not getattr(current, "a2a_docgen_prefixed", False):
        toc["slugify"] = prefixed_slugify(current)


def _warn_about_unsafe_processors(config: MkDocsConfig) -> None:
    """Snippets and macros run on the catalogue pages too; say so when they could act on card text."""
    if "pymdownx.snippets" in config.markdown_extensions:
        options = config.mdx_configs.get("pymdownx.snippets", {})
        if not _snippets_contained(options):
            log.warning(
                "pymdownx.snippets is enabled and can include files into the catalogue pages. The pages "
                "encode card text so that no snippet marker survives, but as a second line of defence set "
                "base_path to an empty directory, restrict_base_path: true and url_download: false, or "
                "build the catalogue without snippets (see docs/plugin.md)."
            )
    for name, plugin in config.plugins.items():
        is_macros = type(plugin).__module__.split(".")[0] == "mkdocs_macros"
        if is_macros and plugin.config.get("render_by_default", True):
            log.warning(
                f"the '{name}' plugin evaluates Jinja in every page, the catalogue pages included. The "
                "pages encode braces so that no expression survives, but as a second line of defence "
                "set render_by_default: false (see docs/plugin.md)."
            )


def _snippets_contained(options: dict[str, Any]) -> bool:
    if options.get("url_download") or options.get("restrict_base_path") is False:
        return False
    base_paths = options.get("base_path", ["."])
    if isinstance(base_paths, str):
        base_paths = [base_paths]
    return all(os.path.isdir(p) and not os.listdir(p) for p in base_paths)


def _nav_title(title: str) -> str:
    """Nav titles reach the HTML unescaped and Material's ``striptags`` decodes entities: no ``<`` at all."""
    return html.escape(title.replace("<", "‹").replace(">", "›"), quote=True)


def _format(d: Diagnostic) -> str:
    return f"{d.file}:{d.line}:{d.column}: {d.severity} {d.code} {d.message}"


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
    )
