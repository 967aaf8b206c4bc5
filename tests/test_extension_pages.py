"""The extensions pages: an index of every extension URI the cards declare, and a page per URI with the agents
that declare it, whether each requires it, its descriptions and its parameters. Card text is hostile: URIs,
descriptions and parameters reach the pages through the encoders only, and a URI is linked only when it is a
safe http(s) URL."""

from __future__ import annotations

import json
import posixpath
from typing import Any

from a2a_docgen.render import NAV, RenderedSite, render_catalog
from tests.support.cards import catalog_of_cards, small_card
from tests.support.markdown_tokens import fences, headings, html_tokens, inline_text, links, parse, walk

CARBON = "https://tidewater.example/a2a/ext/carbon-estimate/v1"
TRACE = "urn:example:a2a:trace"


def agent(name: str, *extensions: dict[str, Any]) -> dict[str, Any]:
    card = small_card(name, [{"id": "s", "name": "Skill", "description": "d", "tags": ["t"]}])
    card["capabilities"] = {"extensions": list(extensions)}
    return card


def site_of(*cards: dict[str, Any]) -> RenderedSite:
    return render_catalog(catalog_of_cards(cards))


def resolved(site: RenderedSite, page: str, href: str) -> str:
    """A relative link of ``page`` as a page path; it must name a page of the site."""
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page), href.partition("#")[0]))
    assert target in site.pages, (page, href)
    return target


def bold_labels(md: str) -> set[str]:
    """The text of every bold run of ``md``."""
    tokens = list(walk(parse(md)))
    return {tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "strong_open"}


def extension_pages(site: RenderedSite) -> dict[str, str]:
    return {p: t for p, t in site.pages.items() if p.startswith("extensions/") and p != "extensions/index.md"}


def test_the_index_lists_every_uri_sorted_with_its_agents_and_requirements() -> None:
    site = site_of(
        agent("Beta", {"uri": CARBON, "required": True}, {"uri": TRACE}),
        agent("Alpha", {"uri": CARBON, "description": "Carbon."}),
        agent("Gamma"),
    )
    assert ("Extensions", "extensions/index.md") in [(e.title, e.path) for e in site.nav]
    assert site.nav == NAV
    index = site.pages["extensions/index.md"]
    assert headings(index) == [(1, "Extensions")]
    items = [text for text in inline_text(index) if text.startswith(("https:", "urn:"))]
    assert items == [f"{CARBON}: 2 agents, required by 1", f"{TRACE}: 1 agent"]
    targets = [resolved(site, "extensions/index.md", href) for href in links(index)]
    assert len(targets) == 2
    assert set(targets) == set(extension_pages(site))
    assert CARBON in headings(site.pages[targets[0]])[0][1]
    assert "extensions/index.md" in site.search  # the index is searched, the pages per URI are not
    assert set(extension_pages(site)) <= site.unindexed


def test_an_extension_page_names_each_agent_whether_it_requires_it_and_its_parameters() -> None:
    params = {"unit": "g CO2e", "factors": {"ferry": 120, "train": 35}}
    site = site_of(
        agent("Beta", {"uri": CARBON, "required": True, "params": params}),
        agent("Alpha", {"uri": CARBON, "description": "Adds a carbon figure."}),
    )
    (path,) = extension_pages(site)
    assert path.startswith("extensions/tidewater-example-a2a-ext-carbon-")  # readable, cut and hashed: long
    page = site.pages[path]
    assert headings(page) == [(1, f"Extension: {CARBON}"), (2, "Alpha"), (2, "Beta")]  # catalogue order
    hrefs = links(page)
    assert hrefs[0] == CARBON  # an http(s) URI is linked
    agent_pages = [resolved(site, path, href) for href in hrefs if "agents/" in href]
    assert [headings(site.pages[p])[0] for p in agent_pages] == [(1, "Alpha"), (1, "Beta")]
    text = inline_text(page)
    assert "Required: no" in text
    assert "Required: yes: clients must support it" in text
    assert "Description: Adds a carbon figure." in text
    ((info, content),) = fences(page)
    assert info == "json"
    assert json.loads(content) == params


def test_hostile_extension_text_stays_text() -> None:
    hostile = "javascript:alert(1)//[x](javascript:alert(2))"
    description = "<script>alert(3)</script> [click](javascript:alert(4)) **bold** {{ x }}"
    params = {"html": "<img src=x onerror=alert(5)>", "fence": "```\n# not a heading"}
    site = site_of(agent("Mallory", {"uri": hostile, "description": description, "params": params}))
    (path,) = extension_pages(site)
    page = site.pages[path]
    for where, md in ((path, page), ("extensions/index.md", site.pages["extensions/index.md"])):
        for href in links(md):  # only our own pages: the URI is not a safe link
            resolved(site, where, href)
        assert html_tokens(md) == []
        assert bold_labels(md) <= {"Agent:", "Required:", "Description:"}  # ours, never the card's
    assert [level for level, _ in headings(page)] == [1, 2]
    assert f"Extension: {hostile}" in inline_text(page)
    assert any(description in text for text in inline_text(page))
    ((_, content),) = fences(page)
    assert json.loads(content) == params


def test_every_uri_has_its_own_page_even_where_slugs_would_meet() -> None:
    uris = [f"https://ext.example/{'a' * 80}/{i}" for i in range(30)]
    twins = ["https://twin.example/x", "https://twin.example/x\u200b"]  # one URI once invisible text is gone
    site = site_of(agent("Many", *({"uri": uri} for uri in uris + twins)))
    assert len(extension_pages(site)) == len(uris) + 1


def test_a_catalogue_without_extensions_says_so() -> None:
    site = site_of(agent("Plain"))
    assert extension_pages(site) == {}
    assert "No agent declares an extension." in inline_text(site.pages["extensions/index.md"])
