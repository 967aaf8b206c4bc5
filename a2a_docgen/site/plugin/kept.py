"""Under ``mkdocs serve``, the pages of ours a rebuild would make again byte for byte, kept from the last build.

MkDocs makes every page again on every rebuild: links resolved, the theme's template rendered, the file
written. For a catalogue page whose HTML (from the conversion cache) is the same object as last time, in a site
whose every other input is the same (the configuration file, the theme's templates, the files, the
navigation), the result is the same too, so the last one is used: its links, table of contents and anchors, and
its whole output, through a template that writes it back (``KEPT_TEMPLATE``).

Only where the pages' other hooks are known: a plugin of the site that could change a page on its way (in
``on_page_context``, ``on_post_page``...) turns this off, since its hook would not run, or would run twice.
``tests/test_plugin_conversion.py`` checks a rebuild against a fresh build of the same cards, file by file.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from a2a_docgen.html import HtmlPage
from a2a_docgen.site.plugin.mkdocs_private import add_template

__all__ = ["KEPT_TEMPLATE", "Kept", "KeptPages", "page_hooks_known"]

KEPT_TEMPLATE = "a2a-docgen-kept.html"
"""The template a kept page is "rendered" with: its last output, as it was."""

_PAGE_HOOKS = (
    "on_pre_page",
    "on_page_markdown",
    "on_page_content",
    "on_page_context",
    "on_post_page",
    "on_page_read_source",
)
_KNOWN_PLUGINS = frozenset(
    {
        "mkdocs.contrib.search.SearchPlugin",
        "material.plugins.search.plugin.SearchPlugin",
        "a2a_docgen.site.plugin.hooks.A2ADocgenPlugin",
    }
)
"""Plugins whose page hooks do the same for a kept page: the search plugins (our pages' entries come from us)
and this one."""


@dataclass(slots=True)
class Kept:
    """One page of ours as a build made it: its HTML, the URLs MkDocs gave its links and the links to anchors it
    found (the page's content and the part a search reads are made from these when they are wanted), and,
    under ``serve``, its output once written."""

    html: HtmlPage
    urls: dict[str, str]
    links_to_anchors: dict[File, dict[str, str]]
    output: str | None = None


class KeptPages:
    """The pages of the last build, for the next (one of the serve caches): the build that starts takes those
    of the last one that ended, and makes its own for the next."""

    def __init__(self) -> None:
        self._last: dict[str, Kept] = {}
        self._now: dict[str, Kept] = {}
        self._site = ""
        self._enabled = False
        self.used: dict[str, Kept] = {}
        """The kept pages of the build under way, by source path."""

    def begin(self, config: MkDocsConfig, files: Files, nav: Navigation) -> None:
        """A build starts: what it keeps is what the last one made, if the site around the pages is the same and
        every plugin's page hooks are known."""
        self._enabled = page_hooks_known(config)
        site = _site_key(config, files, nav) if self._enabled else ""
        self._last = self._now if self._enabled and site == self._site else {}
        self._site = site
        self._now = {}
        self.used = {}

    def forget(self) -> None:
        """A build failed: the next one keeps nothing (what this one made may be half made)."""
        self._last, self._now, self._site, self.used = {}, {}, "", {}

    def serve(self, env: jinja2.Environment) -> None:
        """Let ``env`` write a kept page back."""
        add_template(env, KEPT_TEMPLATE, "{{ a2a_docgen_kept(page) }}")
        env.globals["a2a_docgen_kept"] = self._output

    def lookup(self, page: Page, html: HtmlPage) -> Kept | None:
        """The page as last built, when its HTML is the same (the cache gives the same object) and so is the
        site; the page is then written from it."""
        last = self._last.get(page.file.src_uri)
        if last is None or last.html is not html or last.output is None:
            return None
        self.used[page.file.src_uri] = last
        self._now[page.file.src_uri] = last
        page.meta["template"] = KEPT_TEMPLATE
        return last

    def made(self, page: Page, kept: Kept) -> None:
        """A page made in full this build (its output follows in ``written``)."""
        if self._enabled:
            self._now[page.file.src_uri] = kept

    def written(self, page: Page, output: str) -> None:
        made = self._now.get(page.file.src_uri)
        if made is not None and page.file.src_uri not in self.used:
            made.output = output

    def _output(self, page: Page) -> Markup:
        return Markup(self.used[page.file.src_uri].output or "")  # noqa: S704 - our own last output, as written


def page_hooks_known(config: MkDocsConfig) -> bool:
    """Every plugin of the site is one whose page hooks are known (``_KNOWN_PLUGINS``) or has none."""
    return all(_known(plugin) for plugin in config.plugins.values())


def _known(plugin: object) -> bool:
    name = f"{type(plugin).__module__}.{type(plugin).__qualname__}"
    return name in _KNOWN_PLUGINS or not any(hasattr(plugin, hook) for hook in _PAGE_HOOKS)


def _site_key(config: MkDocsConfig, files: Files, nav: Navigation) -> str:
    """What every page's output depends on besides its own content."""
    digest = hashlib.sha256()
    config_file = config.config_file_path
    if config_file and os.path.isfile(config_file):
        digest.update(Path(config_file).read_bytes())
        project = os.path.dirname(os.path.abspath(config_file))
    else:
        project = os.getcwd()
    for directory in config.theme.dirs:
        if os.path.abspath(directory).startswith(project + os.sep):
            for root, _, names in sorted(os.walk(directory)):
                for name in sorted(names):
                    stat = os.stat(os.path.join(root, name))
                    digest.update(f"{root}/{name}:{stat.st_mtime_ns}:{stat.st_size}\n".encode())
        elif os.path.isdir(directory):
            digest.update(f"{directory}:{os.stat(directory).st_mtime_ns}\n".encode())
    for file in sorted(files, key=lambda f: f.src_uri):
        digest.update(f"{file.src_uri}\x00{file.dest_uri}\x00{file.url}\n".encode())
    digest.update(repr(_nav_shape(nav.items)).encode())
    return digest.hexdigest()


def _nav_shape(items: Any) -> list[Any]:
    return [
        (
            type(item).__name__,
            item.title,
            getattr(item, "url", None),
            _nav_shape(getattr(item, "children", None) or []),
        )
        for item in items
    ]
