"""A card buys at most ``MAX_OWN_TAG_PAGES`` tag pages with tags no other card has: the rest are listed on the
Tags index with their skills, and a located warning says so. Shared tags always have a page, so no card can
take another's. Counted in pages, never timed (benchmarks/card_size.py times the ``tags`` shape)."""

from __future__ import annotations

from typing import Any

from a2a_docgen.model import Catalog
from a2a_docgen.render import render_catalog
from a2a_docgen.slugs import MAX_OWN_TAG_PAGES
from tests.support.cards import catalog_of_cards, small_card
from tests.support.markdown_tokens import links


def card(name: str, tags_per_skill: list[list[str]]) -> dict[str, Any]:
    return small_card(
        name,
        [
            {"id": f"s{i}", "name": f"Skill {i}", "description": "d", "tags": tags}
            for i, tags in enumerate(tags_per_skill)
        ],
    )


def catalog(*cards: dict[str, Any]) -> Catalog:
    return catalog_of_cards(cards)


def own_tags(prefix: str, count: int, per_skill: int = 50) -> list[list[str]]:
    tags = [f"{prefix}{i}" for i in range(count)]
    return [tags[i : i + per_skill] for i in range(0, count, per_skill)]


def tag_pages(site: Any) -> set[str]:
    return {p for p in site.pages if p.startswith("tags/") and not p.startswith("tags/index")}


def test_own_tags_beyond_the_limit_have_no_page_and_are_listed_on_the_index() -> None:
    many = MAX_OWN_TAG_PAGES + 50
    built = catalog(card("Tagger", own_tags("x", many)))
    site = render_catalog(built)
    assert len(tag_pages(site)) == MAX_OWN_TAG_PAGES
    index = "".join(text for path, text in site.pages.items() if path.startswith("tags/index"))
    for i in range(many):
        assert f"- x{i} " in index or f"- [x{i}](" in index  # every tag listed, with or without its page
    # the first tags in card order keep their pages; the last one is listed with a link to its skill
    assert f"tags/x{MAX_OWN_TAG_PAGES - 1}.md" in tag_pages(site)
    assert not any(p.startswith(f"tags/x{many - 1}") for p in tag_pages(site))
    line = next(line for line in index.splitlines() if line.startswith(f"- x{many - 1} "))
    targets = links(line)
    assert len(targets) == 2
    assert "#skill-s" in targets[0]
    agent_page = next(text for path, text in site.pages.items() if path.startswith("agents/"))
    tags_line = next(line for line in agent_page.splitlines() if f"x{many - 1}" in line)
    assert f"x{many - 1}](" not in tags_line  # shown, not linked to a page that does not exist
    (warning,) = [d for d in built.diagnostics if d.code == "tag-pages-limited"]
    assert warning.severity == "warning"
    assert warning.pointer == f"/skills/{MAX_OWN_TAG_PAGES // 50}/tags"
    assert warning.line > 1
    assert f"the other {many - MAX_OWN_TAG_PAGES}" in warning.message


def test_the_pages_a_card_makes_do_not_grow_with_its_tags() -> None:
    small = render_catalog(catalog(card("Tagger", own_tags("x", 2 * MAX_OWN_TAG_PAGES))))
    large = render_catalog(catalog(card("Tagger", own_tags("x", 4 * MAX_OWN_TAG_PAGES))))
    assert len(tag_pages(small)) == len(tag_pages(large)) == MAX_OWN_TAG_PAGES
    assert len(large.pages) - len(small.pages) <= 2 * MAX_OWN_TAG_PAGES // 500 + 1  # tag index pages only


def test_shared_tags_always_have_a_page_and_no_card_takes_anothers() -> None:
    alone = render_catalog(catalog(card("First", own_tags("a", 10))))
    # a second card with many tags of its own, one of them the first card's: the first keeps every page, and
    # the shared tag has one whatever the second card's count
    crowd = [["a3"], *own_tags("b", 2 * MAX_OWN_TAG_PAGES)]
    together = render_catalog(catalog(card("First", own_tags("a", 10)), card("Second", crowd)))
    assert tag_pages(alone) <= tag_pages(together)
    assert len(tag_pages(together)) == 10 + MAX_OWN_TAG_PAGES
    shared = "tags/a3.md"
    assert "First" in together.pages[shared]
    assert "Second" in together.pages[shared]
