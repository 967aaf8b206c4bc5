"""No card takes another's page: every output path is distinct, a clash widens both slugs and warns.

Slugs end in a hash prefix; a birthday search finds two names with one slug in seconds. The hash width is
narrowed here to one hex digit so that clashes are certain; the production check compares final slugs and does
not depend on the width.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest

import a2a_docgen.text.slug as slug_module
from a2a_docgen.render import render_catalog
from a2a_docgen.text.slug import slug, unique_slugs
from tests.support.cards import catalog_of_cards, small_card


@pytest.fixture
def narrow_hash(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    slug.cache_clear()
    monkeypatch.setattr(slug_module, "_HASH_CHARS", 1)
    yield
    slug.cache_clear()


def card(
    name: str, skills: list[dict[str, Any]] | None = None, tags: list[str] | None = None
) -> dict[str, Any]:
    return small_card(name, skills or [{"id": "s", "name": "s", "description": "d", "tags": tags or ["t"]}])


def catalog(cards: list[dict[str, Any]]) -> Any:
    return catalog_of_cards(cards)


NAMES = [f"Agent{mark}" for mark in "!?#$%&*+,.:;<=>@^_~|"]
"""One stem ("agent"), twenty distinct names: with a one-digit hash, some must share a slug."""


def test_unique_slugs_widens_every_member_of_a_clash(narrow_hash: None) -> None:
    items = [(name, "agent") for name in NAMES]
    short = [slug(*item) for item in items]
    assert len(set(short)) < len(short)  # the narrowed hash clashes
    final, clashes = unique_slugs(items)
    assert len(set(final)) == len(final)
    clashing = {i for group in clashes for i in group}
    assert clashing
    for index, value in enumerate(final):
        if index in clashing:
            assert value != short[index]
            assert len(value) > len(short[index])
        else:
            assert value == short[index]
    assert unique_slugs(list(reversed(items)))[0] == list(reversed(final))  # deterministic, order-free


def test_clashing_agents_all_get_pages_and_a_warning(narrow_hash: None) -> None:
    built = catalog([card(name) for name in NAMES])
    site = render_catalog(built)
    pages = [p for p in site.pages if p.startswith("agents/") and p.endswith("/index.md")]
    assert len(pages) == len(NAMES)
    titles = {next(line for line in site.pages[p].splitlines() if line.startswith("# ")) for p in pages}
    assert len(titles) == len(NAMES)
    warned = {d.file for d in built.diagnostics if d.code == "slug-clash"}
    assert warned
    assert all(d.pointer == "/name" for d in built.diagnostics if d.code == "slug-clash")
    home = site.pages["index.md"]
    for page in pages:
        assert page.removesuffix("index.md") in home  # every agent linked, each to its own page


def test_clashing_skill_ids_and_tags_keep_their_own_anchors_and_pages(narrow_hash: None) -> None:
    skills = [
        {"id": f"s{mark}", "name": f"S{n}", "description": "d", "tags": [f"t{mark}"]}
        for n, mark in enumerate("!?#$%&*+,.:;<=>@^_~|")
    ]
    built = catalog([card("Solo", skills)])
    site = render_catalog(built)
    page = next(text for path, text in site.pages.items() if path.startswith("agents/"))
    anchors = [line for line in page.splitlines() if 'id="skill-' in line or "{#skill-" in line]
    ids = {a.split("skill-", 1)[1].split('"', 1)[0].split("}", 1)[0] for a in anchors}
    assert len(ids) == len(skills)
    tag_pages = [p for p in site.pages if p.startswith("tags/") and p != "tags/index.md"]
    assert len(tag_pages) == len(skills)
    assert any(d.code == "slug-clash" and d.pointer.endswith("/id") for d in built.diagnostics)


def test_the_review_comment_links_each_clashing_agent_to_its_own_page(narrow_hash: None) -> None:
    """The comment of ``diff --site-url`` links the pages the site built from the base cards has: for agents
    whose slugs clashed, the widened slugs (and their skills' anchors), never the short ones."""
    from a2a_docgen.render.kinds import build_views
    from a2a_docgen.review.comment import format_comment
    from a2a_docgen.review.diff import review_catalogs
    from a2a_docgen.review.report import ReviewReport
    from a2a_docgen.slugs import site_addresses

    def skills(**more: Any) -> list[dict[str, Any]]:
        return [{"id": "lookup", "name": "Lookup", "description": "Finds things.", "tags": ["t"], **more}]

    base = catalog([card(name, skills()) for name in NAMES])
    head = catalog([card(name, skills(inputModes=["application/json"])) for name in NAMES])
    clashing = {d.file for d in base.diagnostics if d.code == "slug-clash" and d.pointer == "/name"}
    assert clashing  # the narrowed hash makes some agents' short slugs clash
    site = render_catalog(base)
    pages = {str(agent.card.name): agent.path.removesuffix("index.md") for agent in build_views(base).agents}
    review = review_catalogs(base, head)
    assert review.changes
    comment = format_comment(
        ReviewReport(
            changes=review.changes,
            site_url="https://docs.example/",
            addresses=site_addresses(base.cards),
            budget=0,
        )
    )
    linked = re.findall(r"\[([^\]]+)\]\(https://docs\.example/(agents/[^)#]+/)(?:#([^)]+))?\)", comment)

    def plain(markdown: str) -> str:
        return html.unescape(re.sub(r"\\(.)", r"\1", markdown))

    agents_linked = {plain(text) for text, _, fragment in linked if not fragment}
    assert agents_linked == set(NAMES)
    for text, page, fragment in linked:
        assert page + "index.md" in site.pages, page  # a page the site has
        if fragment:
            assert "{#" + fragment + "}" in site.pages[page + "index.md"]  # an anchor it has
        else:
            assert pages[plain(text)] == page  # the agent's own page
