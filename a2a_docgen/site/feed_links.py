"""The ``<link>`` elements the plugin writes into a built HTML page's ``<head>``: the page's Atom feed, its
Markdown, and the catalogue's AI Catalog.

``rel`` carries ``feed`` (``markdown``) beside ``alternate``: feed readers and Markdown readers find the link by
its ``alternate`` token and its type (HTML reads ``rel`` as a set of tokens), while Material for MkDocs, which
takes every ``link[rel=alternate]`` (an exact match) for a language version of the site and fetches a
``sitemap.xml`` beside it, leaves it alone (no request that 404s)."""

from __future__ import annotations

import html
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

from a2a_docgen.load.aicatalog import CATALOG_FILE, CATALOG_MEDIA_TYPE

__all__ = ["HeadLink", "ai_catalog_link", "feed_link", "markdown_link", "with_head_links"]


@dataclass(frozen=True, slots=True)
class HeadLink:
    """One ``<link>``: its ``rel``, ``type``, target (a site path) and, where readers show one, its title."""

    rel: str
    type: str
    path: str
    title: str | None = None


def feed_link(feed_path: str, title: str = "Changes (Atom)") -> HeadLink:
    return HeadLink("alternate feed", "application/atom+xml", feed_path, title)


def markdown_link(markdown_path: str) -> HeadLink:
    """The page's Markdown, published beside it (llms.txt's ``rel="alternate" type="text/markdown"``)."""
    return HeadLink("alternate markdown", "text/markdown", markdown_path)


def ai_catalog_link(directory: str) -> HeadLink:
    """The ``ai-catalog.json`` of the catalogue in ``directory`` (a site path: ``""``, ``catalogue/``), found from
    any page (AI Catalog's ``rel="ai-catalog"``)."""
    return HeadLink("ai-catalog", CATALOG_MEDIA_TYPE, directory + CATALOG_FILE)


def with_head_links(output: str, page_url: str, links: Sequence[HeadLink]) -> str:
    """``output`` (a page's HTML) with ``links`` before ``</head>``, each relative to the page's URL (``agents/x/``
    or ``agents/x/index.html``); unchanged without a ``</head>``."""
    at = output.find("</head>")
    if at < 0 or not links:
        return output
    directory = page_url if page_url.endswith("/") or not page_url else posixpath.dirname(page_url) + "/"
    written = []
    for link in links:
        href = posixpath.relpath(link.path, directory.rstrip("/") or ".")
        title = f' title="{html.escape(link.title)}"' if link.title is not None else ""
        written.append(f'<link rel="{link.rel}" type="{link.type}"{title} href="{html.escape(href)}">\n')
    return output[:at] + "".join(written) + output[at:]
