"""The HTML hand-over: our converted page given to MkDocs as the content, table of contents, title and anchors
it would have made itself, with links resolved by MkDocs' own code."""

from __future__ import annotations

import html
from collections.abc import Mapping

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from a2a_docgen.html import Flavour, HtmlPage, Theme
from a2a_docgen.site.plugin.mkdocs_private import resolve_links

__all__ = ["html_title", "nav_title", "resolved_links", "theme_for", "wrapped"]


def theme_for(config: MkDocsConfig) -> Theme:
    """The HTML the site's theme expects, and its permalink settings (the toc extension's options)."""
    toc = config.mdx_configs.get("toc") or {}
    permalink = toc.get("permalink", False)
    mark = "\u00b6" if permalink is True else (str(permalink) if permalink else None)
    title = str(toc.get("permalink_title", "Permanent link"))
    flavour: Flavour = "material" if config.theme.name == "material" else "plain"
    return Theme(flavour=flavour, permalink=mark, permalink_title=title)


def resolved_links(
    converted: HtmlPage, page: Page, files: Files, config: MkDocsConfig
) -> tuple[dict[str, str], dict[File, dict[str, str]]]:
    """The URL of each link of the page to another page of the site (``HtmlPage.links``), made by MkDocs itself,
    which validates them (missing pages, anchors) as it does for any page; and the links to anchors it found.
    ``HtmlPage.with_links`` puts the URLs in, when the page's HTML is wanted."""
    # Each link resolved once (MkDocs logs a broken one as it resolves it), for every text made of the page.
    return resolve_links(converted.links, page, files, config)


def wrapped(
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


def html_title(text: str) -> str:
    """A page title for the theme, which writes it unescaped (mkdocs-material even decodes it with
    ``striptags`` inside ``<title>``): escaped, with ``<`` and ``>`` as look-alike characters."""
    return html.escape(text.replace("<", "\u2039").replace(">", "\u203a"), quote=True)


def nav_title(title: str) -> str:
    """Nav titles reach the HTML unescaped and Material's ``striptags`` decodes entities: no ``<`` at all."""
    return html.escape(title.replace("<", "‹").replace(">", "›"), quote=True)
