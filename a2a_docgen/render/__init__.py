"""Render a catalogue into Markdown pages (no file I/O): ``render_catalog(catalog) -> RenderedSite``.

Site layout (paths relative to the docs root; every link between pages is relative and ends in ``.md``):

- ``index.md``: the agents table, counts, links to the index pages, notices about excluded or broken cards;
- ``agents/<slug>/index.md`` and ``agents/<slug>/card.json`` (the card's source, byte for byte as decoded):
  one page per agent, skills as sections anchored ``#skill-<slug(id)>``;
- ``tags/index.md`` and ``tags/<slug>.md``; ``media-types.md`` and ``media-types/<slug>.md``; ``security.md``;
  ``bindings.md``; ``excluded.md`` (always present). Tag and media-type pages list skills one line per agent.

The navigation lists the catalogue pages only, never one entry per agent, so it stays small at any scale.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2

from a2a_docgen.errors import UsageError
from a2a_docgen.model import Catalog
from a2a_docgen.render.env import UnescapedOutputError, shared_env
from a2a_docgen.render.exports import DEFAULT_SITE_NAME, export_files
from a2a_docgen.render.pages import SiteViews, build_views
from a2a_docgen.render.parallel import PageWorkers
from a2a_docgen.render.site import NavEntry, RenderedSite
from a2a_docgen.text.urls import safe_url

__all__ = ["NAV", "RenderedSite", "UnescapedOutputError", "render_catalog"]

NAV: tuple[NavEntry, ...] = (
    NavEntry("Home", "index.md"),
    NavEntry("Tags", "tags/index.md"),
    NavEntry("Media types", "media-types.md"),
    NavEntry("Security", "security.md"),
    NavEntry("Protocol bindings", "bindings.md"),
    NavEntry("Excluded cards", "excluded.md"),
)

# Catalogue pages rendered from the whole site view: path -> template.
_SITE_PAGES = {
    "index.md": "index.md.jinja",
    "tags/index.md": "tags.md.jinja",
    "media-types.md": "media-types.md.jinja",
    "security.md": "security.md.jinja",
    "bindings.md": "bindings.md.jinja",
    "excluded.md": "excluded.md.jinja",
}


def render_catalog(
    catalog: Catalog,
    *,
    templates_dir: str | Path | None = None,
    site_url: str | None = None,
    site_name: str = DEFAULT_SITE_NAME,
    jobs: int = 1,
) -> RenderedSite:
    """Every page and file of the site for ``catalog``.

    ``templates_dir`` holds templates that replace built-in ones of the same name. ``site_url`` (the URL the
    site is published at) only adds each raw card's absolute URL as text on its agent page. ``site_name``
    titles the ``llms.txt`` export; ``catalog.json`` and ``llms.txt`` are part of every site. With ``jobs``
    above 1, agent pages are rendered by up to that many worker processes where that is safe and pays
    (``render.parallel``); the result is the same.
    Raises ``UsageError`` for a bad ``site_url``, a broken template or a template that prints card text
    without an encoding filter (``UnescapedOutputError``).
    """
    if site_url is not None and safe_url(site_url) is None:
        raise UsageError(f"site URL {site_url!r} is not an absolute http(s) URL")
    with _collector_paused():
        return _render_site(
            shared_env(templates_dir), catalog, site_url=site_url, site_name=site_name, jobs=jobs
        )


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a site renders (and back on after, if it was on).

    Rendering allocates hundreds of thousands of objects that live until the end (the views) or are freed by
    reference counting; the full collections their allocation triggers walk the whole heap, catalogue included,
    and find little: what dies in cycles during a render (each page's Jinja context and imported macros) is
    collected once, after it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _render_site(
    env: jinja2.Environment, catalog: Catalog, *, site_url: str | None, site_name: str, jobs: int
) -> RenderedSite:
    views = build_views(catalog, site_url=site_url)
    agents = views.agents

    def agent_page(index: int) -> str:
        agent = agents[index]
        return _render(env, "agent.md.jinja", agent.path, site=views, agent=agent)

    pages: dict[str, str] = {}
    with PageWorkers(agent_page, len(agents), jobs) as workers:
        # While workers render the agent pages, this process renders the rest.
        for path, template in _SITE_PAGES.items():
            pages[path] = _render(env, template, path, site=views)
        for tag in views.tags:
            pages[tag.path] = _render(env, "tag.md.jinja", tag.path, site=views, tag=tag)
        for media_type in views.media_types:
            pages[media_type.path] = _render(
                env, "media-type.md.jinja", media_type.path, site=views, media_type=media_type
            )
        files = {agent.card_json: agent.card.source.text.encode("utf-8") for agent in agents}
        files.update(export_files(catalog, site_name=site_name))
        pages.update(zip([agent.path for agent in agents], workers.results(), strict=True))
    return RenderedSite(
        pages=dict(sorted(pages.items())),
        files=dict(sorted(files.items())),
        nav=NAV,
        unindexed=frozenset(
            ["media-types.md", *(tag.path for tag in views.tags), *(mt.path for mt in views.media_types)]
        ),
    )


def _render(env: jinja2.Environment, template: str, path: str, *, site: SiteViews, **context: Any) -> str:
    """One page. A template error becomes a ``UsageError`` here, in the process that renders the page: a
    worker's exception must survive pickling, and Jinja's syntax error does not."""
    try:
        text = env.get_template(template).render(page_path=path, site=site, **context)
    except jinja2.TemplateError as exc:
        where = f" ({exc.filename}, line {exc.lineno})" if isinstance(exc, jinja2.TemplateSyntaxError) else ""
        raise UsageError(f"template error{where}: {exc.message or exc}") from exc
    return _tidy(text)


def _tidy(text: str) -> str:
    """No trailing spaces, at most one blank line in a row, exactly one newline at the end.

    Safe for the fences we emit: pretty-printed JSON has no blank lines and no trailing spaces.
    """
    text = "\n".join([line.rstrip() for line in text.split("\n")])
    while "\n\n\n" in text:  # each pass shortens every run of 3 or more newlines; runs of 2 stay
        text = text.replace("\n\n\n", "\n\n")
    return text.strip("\n") + "\n"
