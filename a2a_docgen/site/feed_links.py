"""The ``<link rel="alternate feed" type="application/atom+xml">`` of a built HTML page, in its ``<head>``.

``rel`` carries ``feed`` beside ``alternate``: feed readers find the link by its ``alternate`` token and its
type, while Material for MkDocs, which takes every ``link[rel=alternate]`` (an exact match) for a language
version of the site and fetches a ``sitemap.xml`` beside it, leaves it alone (no request that 404s)."""

from __future__ import annotations

import html
import posixpath

__all__ = ["with_feed_link"]


def with_feed_link(output: str, page_url: str, feed_path: str, title: str = "Changes (Atom)") -> str:
    """``output`` (a page's HTML) with a link to the feed at ``feed_path`` (a site path) before ``</head>``,
    relative to the page's URL (``agents/x/`` or ``agents/x/index.html``); unchanged without a ``</head>``."""
    at = output.find("</head>")
    if at < 0:
        return output
    directory = page_url if page_url.endswith("/") or not page_url else posixpath.dirname(page_url) + "/"
    href = posixpath.relpath(feed_path, directory.rstrip("/") or ".")
    link = (
        f'<link rel="alternate feed" type="application/atom+xml" title="{html.escape(title)}" '
        f'href="{html.escape(href)}">\n'
    )
    return output[:at] + link + output[at:]
