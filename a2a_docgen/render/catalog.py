"""``render_catalog(catalog) -> RenderedSite``: every page and file of the site, rendered (no file I/O)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from a2a_docgen.collector import collector_paused
from a2a_docgen.errors import UsageError
from a2a_docgen.model import Catalog, Example, JSONValue
from a2a_docgen.render.assets import asset_files
from a2a_docgen.render.discovery import discovery_files, publisher_domain
from a2a_docgen.render.env import DIALECTS, Dialect, TemplateEnvs, UnescapedOutputError, template_env
from a2a_docgen.render.exports import DEFAULT_SITE_NAME, export_files
from a2a_docgen.render.feeds import agent_feed, agent_feed_paths, catalogue_feed, feed_links
from a2a_docgen.render.filter_index import FILTER_INDEX, agent_facets, filter_index
from a2a_docgen.render.kinds import NAV, build_views, page_jobs, site_nav
from a2a_docgen.render.kinds.agents import AgentPage, history_jobs
from a2a_docgen.render.layout import PER_PAGE, PageJob
from a2a_docgen.render.pages import SiteViews
from a2a_docgen.render.parallel import PageWorkers
from a2a_docgen.render.reuse import RenderReuse
from a2a_docgen.render.search import SearchEntry, agent_entries, page_entry
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.text.urls import safe_url

if TYPE_CHECKING:
    from a2a_docgen.history.entries import CatalogHistory

__all__ = ["NAV", "RenderReuse", "RenderedSite", "UnescapedOutputError", "render_catalog"]


def render_catalog(
    catalog: Catalog,
    *,
    templates_dir: str | Path | None = None,
    site_url: str | None = None,
    site_name: str = DEFAULT_SITE_NAME,
    jobs: int = 1,
    markdown_sources: bool = True,
    reuse: RenderReuse | None = None,
    history: CatalogHistory | None = None,
    dialect: Dialect = "github",
    envs: TemplateEnvs | None = None,
    publisher: str | None = None,
) -> RenderedSite:
    """Every page and file of the site for ``catalog``.

    ``templates_dir`` holds templates that replace built-in ones of the same name. ``site_url`` (the URL the
    site is published at) only adds each raw card's absolute URL as text on its agent page. ``site_name``
    titles the ``llms.txt`` export; ``catalog.json`` and ``llms.txt`` are part of every site. With ``jobs``
    above 1, agent pages are rendered by up to that many worker processes where that is safe and pays
    (``render.parallel``); the result is the same. The pages are Markdown only: who turns them into HTML (an
    engine, the MkDocs plugin's own pass) does so after, on the final paths. ``markdown_sources`` says whether the site
    publishes each page's Markdown next to its HTML (the MkDocs plugin does): ``llms.txt`` links to the sources
    then, to the HTML pages otherwise (``a2a-docgen build``, whose pages an engine turns into HTML only).
    ``reuse``, kept by the caller from one render to the next (``mkdocs serve``), lets agents whose cards did
    not change keep their views and pages (``render.reuse``); the result is the same. ``history`` (read by
    ``a2a_docgen.history.read``) adds a "Changes" section to each agent page, history pages, the "What's new"
    pages and Atom feeds (``render.feeds``). ``dialect`` is the Markdown syntax of the pages' admonitions and
    request tabs (``render.env.Dialect``): ``github`` for review and the plugin, ``material`` for an engine that
    reads the pages itself (Zensical). ``envs``, kept by a caller that renders again (``mkdocs serve``, ``build
    --watch``), compiles each template once for all its renders; without it, a render makes its own.
    ``publisher`` is the domain under which the site's owner publishes the agents: ``ai-catalog.json``'s
    identifiers are then ``urn:air:`` under it (``render.discovery``; never set it for other people's agents).
    Raises ``UsageError`` for a bad ``site_url`` or ``publisher``, a broken template or a template that prints card text
    without an encoding filter (``UnescapedOutputError``).
    """
    if site_url is not None and safe_url(site_url) is None:
        raise UsageError(f"site URL {site_url!r} is not an absolute http(s) URL")
    publisher = publisher_domain(publisher)
    if dialect not in DIALECTS:
        raise UsageError(f"unknown Markdown dialect {dialect!r} (one of {', '.join(DIALECTS)})")
    if reuse is not None and dialect != "github":
        raise ValueError("kept pages are github-dialect pages: reuse them only for that dialect")
    with collector_paused():
        env = envs.env(templates_dir) if envs is not None else template_env(templates_dir)
        if reuse is not None:
            reuse.start(env, overrides=templates_dir is not None)
        return _render_site(
            env,
            catalog,
            site_url=site_url,
            site_name=site_name,
            jobs=jobs,
            markdown_sources=markdown_sources,
            reuse=reuse,
            history=history,
            dialect=dialect,
            publisher=publisher,
        )


def _render_site(
    env: jinja2.Environment,
    catalog: Catalog,
    *,
    site_url: str | None,
    site_name: str,
    jobs: int,
    markdown_sources: bool,
    reuse: RenderReuse | None,
    history: CatalogHistory | None = None,
    dialect: Dialect = "github",
    publisher: str | None = None,
) -> RenderedSite:
    views = build_views(
        catalog, site_url=site_url, reuse=reuse.views if reuse is not None else None, history=history
    )
    agents = views.agents
    jobs_list = list(page_jobs(views))
    histories_by_agent = history_jobs(views, PER_PAGE)

    def render_job(job: PageJob) -> str:
        return _render(
            env,
            job.template,
            job.path,
            site=views,
            search_exclude=not job.indexed,
            dialect=dialect,
            **job.context,
        )

    def agent_page(index: int) -> tuple[str, str, dict[str, str], dict[str, bytes]]:
        """An agent's page (and, in another dialect, its sealed form: the page as the plugin converts it, which
        every site publishes beside its HTML), its history pages and its feed: rendered together, by a worker
        where there are."""
        agent = agents[index]

        def page(dialect: Dialect) -> str:
            return _render(
                env,
                "agent.md.jinja",
                agent.path,
                site=views,
                agent=agent,
                search_exclude=False,
                dialect=dialect,
            )

        text = reuse.page(agent) if reuse is not None else None
        if text is None:
            text = page(dialect)
        # Rendered again, not translated: a template (a user's too) may read ``dialect`` anywhere.
        sealed = text if dialect == "github" else page("github")
        histories = {job.path: render_job(job) for job in histories_by_agent.get(agent.path, ())}
        return text, sealed, histories, agent_feed(views, agent, site_url=site_url, site_name=site_name)

    pages: dict[str, str] = {}
    indexed: set[str] = set()
    with PageWorkers(agent_page, len(agents), jobs) as workers:
        # While workers render the agent pages, this process renders the rest.
        for job in jobs_list:
            pages[job.path] = render_job(job)
            if job.indexed:
                indexed.add(job.path)
        parts: list[dict[str, bytes]] = [
            {agent.card_json: agent.card.source.text.encode("utf-8") for agent in agents},
            export_files(
                catalog,
                site_name=site_name,
                markdown_sources=markdown_sources,
                grades=views.grades,
                addresses=views.addresses,
            ),
            {FILTER_INDEX: filter_index(views)},
            asset_files(),
            catalogue_feed(views, site_url=site_url, site_name=site_name),
        ]
        rendered = workers.results()
        parts.append(
            discovery_files(
                agents,
                [sealed for _, sealed, _, _ in rendered],
                site_url=site_url,
                site_name=site_name,
                publisher=publisher,
                sources_published=markdown_sources,
            )
        )
        # One check over every source's paths before they are merged (a merge would hide a repeat).
        distinct_paths(
            [
                *(agent.path for agent in agents),
                *(j.path for j in jobs_list),
                *(j.path for own in histories_by_agent.values() for j in own),
                *chain(*parts),
                *agent_feed_paths(views),
            ]
        )
        files = {path: data for part in parts for path, data in part.items()}
        for agent, (text, _, histories, feed) in zip(agents, rendered, strict=True):
            pages[agent.path] = text
            pages.update(histories)
            files.update(feed)
        if reuse is not None:
            reuse.keep(agents, [text for text, _, _, _ in rendered])
    unindexed = frozenset(pages) - indexed - {agent.path for agent in agents}
    nav = site_nav(views)
    search: dict[str, tuple[SearchEntry, ...]] = {
        entry.path: page_entry(entry.title) for entry in nav if entry.path not in unindexed
    }
    search.update((agent.path, _agent_search(agent)) for agent in agents)
    return RenderedSite(
        pages=dict(sorted(pages.items())),
        files=dict(sorted(files.items())),
        nav=nav,
        unindexed=unindexed,
        facets={agent.path: agent_facets(agent) for agent in agents},
        search=dict(sorted(search.items())),
        feeds=feed_links(views, pages) if views.history is not None else {},
    )


def distinct_paths(paths: Iterable[str]) -> None:
    """Every output path once, checked before anything is written: two pages or files at one path would let one
    replace the other. Slugs are made distinct (``text.slug.unique_slugs``), so a repeat is a defect of ours."""
    seen: set[str] = set()
    for path in paths:
        if path in seen:
            raise RuntimeError(f"two outputs of the site have the path {path!r}; nothing is written")
        seen.add(path)


def _example_words(example: Example) -> str:
    """What a reader may search for in an example: its text, or the names and strings of a JSON one."""
    if not example.is_json:
        return example.text
    words: list[str] = []
    stack: list[JSONValue] = [example.value]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in reversed(value.items()):
                stack.append(item)
                stack.append(key)
        elif isinstance(value, list):
            stack.extend(reversed(value))
        elif isinstance(value, str):
            words.append(value)
    return " ".join(words)


def _agent_search(agent: AgentPage) -> tuple[SearchEntry, ...]:
    card = agent.card
    return agent_entries(
        card.name,
        card.description,
        card.provider.organization if card.provider else None,
        (
            (
                s.anchor,
                s.skill.name,
                s.skill.description,
                tuple(t.tag for t in s.tags),
                tuple(_example_words(ex.example) for ex in s.examples),
            )
            for s in agent.skills
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


_FENCE_LINE = re.compile(r"^(?: {4})?(`{3,})")  # at the margin, or in a content tab (material dialect)


def _tidy(text: str) -> str:
    """No trailing spaces, at most one blank line in a row outside code blocks, exactly one newline at the end.

    Template whitespace is collapsed; the blank lines of a code block (a program's) are kept as they are.
    """
    text = "\n".join([line.rstrip() for line in text.split("\n")])
    if "\n\n\n" not in text:
        return text.strip("\n") + "\n"
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        if fence is None:
            opening = _FENCE_LINE.match(line)
            if opening is not None:
                fence = opening.group(1)
            elif not line and out and not out[-1]:
                continue
        elif line.lstrip(" ").startswith(fence) and not line.lstrip(" ")[len(fence) :].strip("`"):
            fence = None
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"
