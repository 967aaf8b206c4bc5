"""The built sites in a real browser: nothing runs, nothing leaves the machine, and the pages work.

Two sites, each served on 127.0.0.1: the hostile corpus built with mkdocs-material and the usual extensions,
and the repository's example site (mkdocs.yml). On every agent page no dialog opens, no script error is
thrown and no request goes to another host. On the example site, search finds a skill by one of its tags,
a skill deep link opens scrolled to the skill, and a JSON example is shown pretty-printed.

The hostile site built with the default theme is opened too (its highlight.js, which the theme loads from a
CDN, is replaced by a local stub): its search shows index text that holds the payloads as plain characters.

Screenshots go to ``tests/_artifacts/``. The README picture ``docs/images/agent-page.png`` is written when
it is missing or with ``--update-golden``.
"""

from __future__ import annotations

import functools
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from a2a_docgen.catalog import load_catalog
from a2a_docgen.render.exports import AgentPaths, agent_paths
from tests.support import browser as browser_support
from tests.support.browser import ARTIFACTS, DEFAULT_THEME_STUBS, SiteBrowser, browse_site, screenshot
from tests.support.browser_fixtures import REQUIRE_ENV, require_browser
from tests.support.hostile_sites import HOSTILE, REPO, Sites

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

README_PICTURE = REPO / "docs" / "images" / "agent-page.png"
EXAMPLE_CARDS = REPO / "examples" / "cards"
CATALOGUE_PAGES = ("", "tags/", "security/", "bindings/", "media-types/", "excluded/")


@pytest.fixture(scope="module")
def hostile(sites: Sites, chromium: Browser) -> Iterator[SiteBrowser]:
    with browse_site(sites.site("material-ext"), browser=chromium) as site:
        yield site


@pytest.fixture(scope="module")
def hostile_default(sites: Sites, chromium: Browser) -> Iterator[SiteBrowser]:
    with browse_site(sites.site("default"), browser=chromium, stubs=DEFAULT_THEME_STUBS) as site:
        yield site


@pytest.fixture(scope="module")
def example_site(sites: Sites) -> Path:
    if "example" not in sites.builds:
        pytest.skip("the repository has no mkdocs.yml (the example site)")
    return sites.site("example")


@pytest.fixture(scope="module")
def example(example_site: Path, chromium: Browser) -> Iterator[SiteBrowser]:
    with browse_site(example_site, browser=chromium) as site:
        yield site


@pytest.fixture(scope="module")
def example_agents() -> list[AgentPaths]:
    if not EXAMPLE_CARDS.is_dir():
        pytest.skip("examples/cards is missing")
    return agent_paths(load_catalog([EXAMPLE_CARDS]))


@functools.cache
def _hostile_agents() -> list[AgentPaths]:
    return agent_paths(load_catalog([HOSTILE]))


def _open_clean(site: SiteBrowser, path: str, shot: str) -> Page:
    page, record = site.open(path)
    screenshot(page, shot)
    assert record.clean, record.summary()
    return page


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("agent", _hostile_agents(), ids=lambda a: a.page_url.split("/")[1])
@pytest.mark.parametrize("theme", ["material", "default"])
def test_hostile_agent_page_runs_nothing(
    request: pytest.FixtureRequest, theme: str, agent: AgentPaths
) -> None:
    site: SiteBrowser = request.getfixturevalue("hostile" if theme == "material" else "hostile_default")
    page = _open_clean(site, agent.page_url, f"{theme}-{agent.page_url.split('/')[1]}")
    page.close()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("path", CATALOGUE_PAGES)
def test_hostile_catalogue_page_runs_nothing(hostile: SiteBrowser, path: str) -> None:
    page = _open_clean(hostile, path, f"hostile-{path.strip('/') or 'index'}")
    page.close()


WAIT_MS = 60_000
"""How long to wait for the search to answer: generous, so a loaded machine is not a failure (budgets belong
in the benchmark, not here)."""


def _search(page: Page, query: str) -> list[str]:
    """Type ``query`` into mkdocs-material's search box; the hrefs of the results."""
    search_box = page.locator("input.md-search__input")
    search_box.click()
    page.keyboard.type(query, delay=10)
    # the meta line reads "Type to start searching" until the worker has the index and has answered
    page.wait_for_function(
        "() => { const m = document.querySelector('.md-search-result__meta');"
        " return m && /match|no matching/i.test(m.textContent); }",
        timeout=WAIT_MS,
    )
    links = page.locator(".md-search-result__item a")
    return [links.nth(i).get_attribute("href") or "" for i in range(links.count())]


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("query", ["<img src=x onerror=alert(1)>", "script alert", "javascript", "__config"])
def test_hostile_search_results_run_nothing(hostile: SiteBrowser, query: str) -> None:
    page, record = hostile.open("")
    _search(page, query)
    page.wait_for_timeout(200)
    assert record.clean, record.summary()
    page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_example_agent_pages_run_nothing(example: SiteBrowser, example_agents: list[AgentPaths]) -> None:
    for agent in example_agents:
        page = _open_clean(example, agent.page_url, f"example-{agent.page_url.split('/')[1]}")
        page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_search_finds_a_skill_by_tag(example: SiteBrowser, example_agents: list[AgentPaths]) -> None:
    candidates = sorted(
        (
            (tag, agent)
            for agent in example_agents
            for skill in agent.card.skills
            for tag in skill.tags
            if re.fullmatch(r"[a-z]{5,}", tag)
        ),
        key=lambda pair: (-len(pair[0]), pair[0]),
    )
    assert candidates, "no example card has a plain-word tag to search for"
    tag, agent = candidates[0]
    page, record = example.open("")
    hrefs = _search(page, tag)
    screenshot(page, "example-search")
    assert any(agent.page_url in href for href in hrefs), f"searching {tag!r} gave {hrefs}"
    assert record.clean, record.summary()
    page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_skill_deep_link_scrolls_to_the_skill(example: SiteBrowser, example_agents: list[AgentPaths]) -> None:
    agent = max(example_agents, key=lambda a: (len(a.skill_anchors), a.page_url))
    anchor = agent.skill_anchors[-1]  # the last skill: the page has to scroll to show it
    page, record = example.open(f"{agent.page_url}#{anchor}", interact=False)
    page.wait_for_timeout(300)
    box = page.evaluate(
        "id => { const r = document.getElementById(id).getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, height: innerHeight, scrolled: scrollY}; }",
        anchor,
    )
    screenshot(page, "example-deep-link")
    assert 0 <= box["top"] < box["height"], box
    if len(agent.skill_anchors) > 1:
        assert box["scrolled"] > 0, box
    assert record.clean, record.summary()
    page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_json_example_is_pretty_printed_and_the_readme_picture(
    example: SiteBrowser, example_agents: list[AgentPaths], update_golden: bool
) -> None:
    indented_key = re.compile(r'\n[ ]{2,}"[^"\n]+":')
    for agent in example_agents:
        page, record = example.open(agent.page_url)
        blocks = page.locator("pre code")
        for i in range(blocks.count()):
            block = blocks.nth(i)
            if indented_key.search(block.text_content() or ""):
                block.scroll_into_view_if_needed()
                assert block.is_visible()
                screenshot(page, "example-json-example")
                _readme_picture(example, agent, update_golden)
                assert record.clean, record.summary()
                return
        page.close()
    pytest.fail(f"no agent page shows a pretty-printed JSON example; screenshots in {ARTIFACTS}")


def _readme_picture(example: SiteBrowser, agent: AgentPaths, update: bool) -> None:
    """The top of an agent page, untouched (no scrolling: the header would be mid-transition)."""
    page, _ = example.open(agent.page_url, settle_ms=800, interact=False)
    shot = screenshot(page, "agent-page")
    page.close()
    if update or not README_PICTURE.exists():
        README_PICTURE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, README_PICTURE)
    assert README_PICTURE.stat().st_size < 300_000


@pytest.mark.browser
@pytest.mark.slow
def test_default_theme_search_shows_payloads_as_text(hostile_default: SiteBrowser) -> None:
    page, record = hostile_default.open("", interact=False)
    page.click("a[data-bs-target='#mkdocs_search_modal']")
    box = page.locator("#mkdocs-search-query")
    box.wait_for(state="visible")
    shown = []
    for query in ("confusion", "script", "onerror", "javascript", "title"):
        box.fill("")
        box.type(query, delay=10)
        page.wait_for_function(
            "() => document.querySelectorAll('#mkdocs-search-results > *').length > 0", timeout=WAIT_MS
        )
        page.wait_for_timeout(200)
        shown.append(page.locator("#mkdocs-search-results article").count())
    screenshot(page, "default-search")
    assert shown[0] > 0, "the search found nothing: the test would prove nothing"
    assert page.locator("#mkdocs-search-results script, #mkdocs-search-results img").count() == 0
    assert record.clean, record.summary()
    page.close()


def test_missing_browser_skips_or_fails_as_configured(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(browser_support, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        require_browser()
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match=REQUIRE_ENV):
        require_browser()
