"""The catalogue's front end in a real browser: the home filter, the search, phones, both colour schemes,
copyable requests and accessibility.

Four sites are built once for the module: the repository's example site (mkdocs-material with its light and
dark palette), the same cards with the built-in ``mkdocs`` theme, a synthetic catalogue of 250 agents (three
home pages) and the hostile corpus with mkdocs-material. Each is served on 127.0.0.1 by the test itself (the
filter's JSON and Pagefind need HTTP); the file:// fallback is opened from disk.

Screenshots go to ``tests/_artifacts/screenshots/``. ``--update-golden`` also writes the README picture
``docs/images/catalogue.png``; no other run touches it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from a2a_docgen.catalog import load_catalog
from a2a_docgen.render.exports import AgentPaths, agent_paths
from a2a_docgen.site.pagefind import find_pagefind
from tests.support.axe import Exclusion, axe_violations, report, serious
from tests.support.browser import ARTIFACTS, DEFAULT_THEME_STUBS, SiteBrowser, browse_site, screenshot
from tests.support.browser_fixtures import REQUIRE_ENV, require_browser
from tests.support.engine_sites import build_project, engine_missing, init_project, require_engine
from tests.support.hostile_sites import HOSTILE, REPO, make_project
from tests.support.mkdocs_build import build_projects

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

sys.path.insert(0, str(REPO / "benchmarks"))
from synthetic import SITE_CONFIG, write_catalogue

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "screenshots"
README_PICTURE = REPO / "docs" / "images" / "catalogue.png"
EXAMPLE_CARDS = REPO / "examples" / "cards"
SYNTHETIC_AGENTS = 250
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TIMEOUT_MS = 20_000
"""Generous: the machine is shared; nothing here measures speed (benchmarks/search.py does)."""

THEMES = {
    "material": ("material", "light"),
    "slate": ("material", "dark"),
    "default": ("default", "light"),
    "zensical": ("zensical", "light"),
    "zensical-dark": ("zensical", "dark"),
}
"""Theme name -> (site, colour scheme the browser asks for). Material and Zensical follow the reader's
scheme. ``zensical`` is the project ``a2a-docgen init`` writes, built with the commands it prints."""

EXCLUSIONS: dict[str, tuple[Exclusion, ...]] = {
    "material": (
        Exclusion(
            "aria-dialog-name",
            ".md-search",
            "mkdocs-material's search overlay is a role=dialog without a name: theme markup, outside our pages",
        ),
        Exclusion(
            "color-contrast",
            ".md-footer",
            "mkdocs-material's footer line 'Made with Material for MkDocs' (light scheme): theme, outside our pages",
        ),
    ),
    "default": (
        Exclusion(
            "color-contrast",
            ".bs-sidebar",
            "the mkdocs theme's table of contents uses Bootstrap's link blue (#2fa4e7, 2.8:1): outside our pages",
        ),
        Exclusion(
            "color-contrast",
            "footer",
            "the mkdocs theme's footer link 'MkDocs' (same link blue): outside our pages",
        ),
    ),
    "zensical": (
        Exclusion(
            "color-contrast",
            ".md-nav",
            "Zensical's navigation marks the current page in its accent blue on a tint (3.75:1): theme markup, "
            "outside our pages",
        ),
    ),
}
"""Violations that come from the theme and that a stylesheet scoped to our pages cannot fix, by rule and
element. Everything inside ``.a2a-page`` is checked with no exclusion."""


# -- the sites -------------------------------------------------------------------------------------------------

DEFAULT_THEME_CONFIG = f"""site_name: A2A Agent Catalogue (default theme)
docs_dir: docs
theme:
  name: mkdocs
plugins:
  - search
  - a2a-docgen:
      cards: {EXAMPLE_CARDS.as_posix()}
markdown_extensions:
  - toc:
      permalink: true
  - tables
  - fenced_code
"""


BUILD_OUTPUT_CONFIG = """site_name: A2A Agent Catalogue (build output)
docs_dir: docs
theme:
  name: material
  font: false
extra_css:
  - assets/a2a-docgen/catalogue.css
extra_javascript:
  - assets/a2a-docgen/catalogue.js
markdown_extensions:
  - attr_list
  - toc:
      permalink: true
  - tables
  - fenced_code
"""
"""`a2a-docgen build` output built by an engine without the plugin (as Zensical builds it): no page wrapper."""


@pytest.fixture(scope="module")
def catalogue_sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``material`` (the repository's mkdocs.yml), ``default``, ``synthetic``, ``hostile`` and ``build-output``
    (``a2a-docgen build`` output, no plugin), built in parallel."""
    require_browser()
    if not (REPO / "mkdocs.yml").is_file() or not EXAMPLE_CARDS.is_dir():
        pytest.skip("the repository's example site (mkdocs.yml, examples/cards) is missing")
    root = tmp_path_factory.mktemp("catalogue-sites")
    default = root / "default"
    (default / "docs").mkdir(parents=True)
    (default / "mkdocs.yml").write_text(DEFAULT_THEME_CONFIG, encoding="utf-8")
    synthetic = root / "synthetic"
    (synthetic / "docs").mkdir(parents=True)
    write_catalogue(synthetic / "cards", SYNTHETIC_AGENTS, 1)
    (synthetic / "mkdocs.yml").write_text(SITE_CONFIG, encoding="utf-8")
    hostile = make_project(root / "hostile", "material-ext")
    build_output = root / "build-output"
    subprocess.run(
        [sys.executable, "-m", "a2a_docgen", "build", str(EXAMPLE_CARDS), "-o", str(build_output / "docs")],
        check=True,
        capture_output=True,
    )
    (build_output / "mkdocs.yml").write_text(BUILD_OUTPUT_CONFIG, encoding="utf-8")
    # a page of the site's own with a heading of the same id, away from the catalogue's home
    (build_output / "docs" / "about.md").write_text("# About\n\n## Agents\n\n- Ours.\n", encoding="utf-8")
    jobs = {
        "material": (REPO / "mkdocs.yml", root / "material-site"),
        "default": (default / "mkdocs.yml", root / "default-site"),
        "synthetic": (synthetic / "mkdocs.yml", root / "synthetic-site"),
        "hostile": (hostile / "mkdocs.yml", root / "hostile-site"),
        "build-output": (build_output / "mkdocs.yml", root / "build-output-site"),
    }
    builds = build_projects(jobs, timeout=600)
    for name, build in builds.items():
        assert build.returncode == 0, f"{name} build failed:\n{build.output[-4000:]}"
    sites = {name: build.site for name, build in builds.items()}
    if engine_missing("zensical") is None:
        for name, cards in (("zensical", EXAMPLE_CARDS), ("zensical-hostile", HOSTILE)):
            project = root / name / "catalogue"
            init_project(project, "zensical", cards)
            built = build_project(project, "zensical", cards=os.path.relpath(cards, project))
            sites[name] = built.site if name == "zensical-hostile" else built.check()
    return sites


@pytest.fixture(scope="module")
def pagefind_required() -> None:
    if find_pagefind() is not None:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail("Pagefind is not installed (the 'test' extra brings pagefind[bin])")
    pytest.skip("Pagefind is not installed (pip install 'a2a-docgen[search]')")


@pytest.fixture(scope="module")
def example_agents() -> list[AgentPaths]:
    return agent_paths(load_catalog([EXAMPLE_CARDS]))


def _browse(
    sites: dict[str, Path], browser: Browser, theme: str, viewport: dict[str, int] = DESKTOP, **options: Any
) -> contextlib.AbstractContextManager[SiteBrowser]:
    site, scheme = THEMES[theme]
    if site not in sites:
        require_engine(site)
    return browse_site(
        sites[site],
        browser=browser,
        stubs=DEFAULT_THEME_STUBS,
        context_options={"viewport": viewport, "color_scheme": scheme, **options},
    )


@pytest.fixture(scope="module")
def material(catalogue_sites: dict[str, Path], chromium: Browser) -> Iterator[SiteBrowser]:
    with _browse(catalogue_sites, chromium, "material") as site:
        yield site


@pytest.fixture(scope="module")
def synthetic(catalogue_sites: dict[str, Path], chromium: Browser) -> Iterator[SiteBrowser]:
    with browse_site(catalogue_sites["synthetic"], browser=chromium) as site:
        yield site


# -- helpers ---------------------------------------------------------------------------------------------------


def _open(site: SiteBrowser, path: str) -> Page:
    page, _ = site.open(path, settle_ms=200, interact=False)
    return page


def _clean(site: SiteBrowser) -> None:
    for record in site.records:
        assert record.clean, record.summary()
        assert not record.console_errors, record.summary()


def _status(page: Page) -> str:
    return page.locator(".a2a-filter__status").inner_text()


def _wait_for_catalogue(page: Page) -> None:
    """The filter has loaded catalogue-filter.json (its facet lists are shown)."""
    page.wait_for_selector(".a2a-filter__more:not([hidden])", timeout=TIMEOUT_MS)


def _search(page: Page, text: str) -> list[dict[str, str]]:
    """Type ``text`` into the catalogue's search box; the search results as title and link."""
    box = page.locator("#a2a-filter-q")
    box.click()
    box.fill("")
    page.keyboard.type(text, delay=15)
    page.wait_for_function(
        "q => { const s = document.querySelector('.a2a-filter__status');"
        " return s && s.textContent.includes('“' + q + '”'); }",
        arg=text,
        timeout=TIMEOUT_MS,
    )
    page.wait_for_selector(".a2a-hits-box[aria-busy='false']", state="attached", timeout=TIMEOUT_MS)
    hits = page.locator(".a2a-hit .a2a-hit__title")
    return [
        {"title": hits.nth(i).inner_text(), "href": hits.nth(i).get_attribute("href") or ""}
        for i in range(hits.count())
    ]


def _no_horizontal_overflow(page: Page) -> dict[str, int]:
    return page.evaluate(
        "() => ({scroll: document.documentElement.scrollWidth, inner: innerWidth,"
        " body: document.body.scrollWidth})"
    )


def _raw(agent: AgentPaths) -> dict[str, Any]:
    return json.loads(agent.card.source.text)


def _skill_anchor(agent: AgentPaths, skill_id: str) -> str:
    ids = [s.id for s in agent.card.skills]
    return agent.skill_anchors[ids.index(skill_id)]


def _unique_tag(agents: list[AgentPaths]) -> tuple[str, AgentPaths, str, str]:
    """A plain-word tag that only one skill of the catalogue carries: (tag, agent, skill name, anchor)."""
    count = Counter(tag for a in agents for s in a.card.skills for tag in set(s.tags))
    candidates = sorted(
        (
            (tag, agent, skill.name or "", agent.skill_anchors[i])
            for agent in agents
            for i, skill in enumerate(agent.card.skills)
            for tag in skill.tags
            if count[tag] == 1 and re.fullmatch(r"[a-z]{5,}", tag)
        ),
        key=lambda c: (-len(c[0]), c[0]),
    )
    assert candidates, "no example skill has a tag of its own to search for"
    return candidates[0]


def _example_only_word(agents: list[AgentPaths]) -> tuple[str, AgentPaths, str, str]:
    """A word found in one skill's examples and nowhere else in any card: (word, agent, skill name, anchor)."""
    found: list[tuple[str, AgentPaths, str, str]] = []
    elsewhere: Counter[str] = Counter()
    example_words: Counter[str] = Counter()

    def strings(value: Any, into: Counter[str]) -> None:
        if isinstance(value, str):
            into.update(set(re.findall(r"[a-z]+", value.lower())))
        elif isinstance(value, dict):
            for item in value.values():
                strings(item, into)
        elif isinstance(value, list):
            for item in value:
                strings(item, into)

    for agent in agents:
        raw = _raw(agent)
        for skill in raw.get("skills", []):
            strings(skill.get("examples", []), example_words)
        strings({k: v for k, v in raw.items() if k != "skills"}, elsewhere)
        for skill in raw.get("skills", []):
            strings({k: v for k, v in skill.items() if k != "examples"}, elsewhere)
    for agent in agents:
        for i, skill in enumerate(agent.card.skills):
            for example in skill.examples:
                if example.is_json:
                    continue
                for word in re.findall(r"[a-z]+", example.text.lower()):
                    if len(word) >= 5 and example_words[word] == 1 and not elsewhere[word]:
                        found.append((word, agent, skill.name or "", agent.skill_anchors[i]))
    assert found, "no example has a word of its own to search for"
    return sorted(found, key=lambda f: (-len(f[0]), f[0]))[0]


# -- screenshots and phones -------------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("theme", list(THEMES))
def test_pages_fit_the_screen_and_screenshots(
    catalogue_sites: dict[str, Path],
    chromium: Browser,
    example_agents: list[AgentPaths],
    pagefind_required: None,
    theme: str,
    width: int,
) -> None:
    viewport = PHONE if width == 390 else DESKTOP
    agent = max(example_agents, key=lambda a: (len(a.skill_anchors), a.page_url))
    tag, _, _, _ = _unique_tag(example_agents)
    with _browse(catalogue_sites, chromium, theme, viewport) as site:
        views = {
            "home": "",
            "agent": agent.page_url,
            "skill": f"{agent.page_url}#{agent.skill_anchors[-1]}",
            "search": "",
        }
        for view, path in views.items():
            page = _open(site, path)
            if view == "search":
                _wait_for_catalogue(page)
                assert _search(page, tag), f"searching {tag!r} found nothing"
            if view == "skill":  # the built-in theme scrolls smoothly: wait for the heading to arrive
                page.wait_for_function(
                    "id => { const top = document.getElementById(id).getBoundingClientRect().top;"
                    " return top >= 0 && top < innerHeight; }",
                    arg=agent.skill_anchors[-1],
                    timeout=TIMEOUT_MS,
                )
            screenshot(page, f"{theme}-{width}-{view}", directory=SHOTS)
            if width == 390:
                sizes = _no_horizontal_overflow(page)
                assert sizes["scroll"] <= sizes["inner"], f"{view} scrolls sideways at 390 px: {sizes}"
            page.close()
        _clean(site)


@pytest.mark.parametrize(
    ("theme", "expected"), [("slate", "slate"), ("zensical-dark", "slate"), ("zensical", "default")]
)
def test_the_palette_follows_the_system_setting(
    catalogue_sites: dict[str, Path], chromium: Browser, theme: str, expected: str
) -> None:
    """A reader whose system is dark gets the dark palette before choosing (the palettes' media queries)."""
    with _browse(catalogue_sites, chromium, theme) as site:
        page = _open(site, "")
        assert page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == expected
        page.close()
        _clean(site)


@pytest.mark.parametrize("site_name", ["hostile", "zensical-hostile"])
def test_every_agent_page_of_the_hostile_corpus_fits_a_phone(
    catalogue_sites: dict[str, Path], chromium: Browser, site_name: str
) -> None:
    """Problems tables, long ids and URLs of hostile cards: at 390 px the page never scrolls sideways (a
    wide table scrolls in its own box), with the plugin and on Zensical."""
    if site_name not in catalogue_sites:
        require_engine("zensical")
    site_dir = catalogue_sites[site_name]
    pages = sorted(
        p.parent.relative_to(site_dir).as_posix() + "/" for p in site_dir.glob("agents/*/index.html")
    )
    assert pages
    wide = {}
    with browse_site(site_dir, browser=chromium, context_options={"viewport": PHONE}) as site:
        for path in pages:
            page = _open(site, path)
            sizes = _no_horizontal_overflow(page)
            if sizes["scroll"] > sizes["inner"]:
                wide[path] = sizes
            page.close()
    assert wide == {}, wide


@pytest.mark.parametrize("theme", ["material", "zensical"])
def test_palette_toggle_switches_the_colour_scheme(
    catalogue_sites: dict[str, Path], chromium: Browser, theme: str
) -> None:
    with _browse(catalogue_sites, chromium, theme) as site:
        page = _open(site, "")
        scheme = "() => document.body.getAttribute('data-md-color-scheme')"
        assert page.evaluate(scheme) == "default"
        page.locator("label[for='__palette_1']").click()
        page.wait_for_function(f"() => ({scheme})() === 'slate'", timeout=TIMEOUT_MS)
        background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert background != "rgb(255, 255, 255)", "slate did not change the page's colours"
        screenshot(page, f"{theme}-palette-slate", directory=SHOTS)
        page.locator("label[for='__palette_0']").click()
        page.wait_for_function(f"() => ({scheme})() === 'default'", timeout=TIMEOUT_MS)
        page.close()
        _clean(site)


# -- the home filter -------------------------------------------------------------------------------------------


def _filter_index(site: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((site / "catalogue-filter.json").read_text(encoding="utf-8"))
    return data


def test_home_filter_narrows_the_whole_catalogue_by_tag(
    catalogue_sites: dict[str, Path], synthetic: SiteBrowser
) -> None:
    data = _filter_index(catalogue_sites["synthetic"])
    agents, tags = data["agents"], data["facets"]["tag"]
    total = len(agents)
    assert total == SYNTHETIC_AGENTS
    first_page = {row[1] for row in agents[:100]}
    carried = Counter(i for row in agents for i in row[5])
    # a tag most agents lack, carried by agents beyond the first home page too
    index = max(
        (i for i in carried if carried[i] < total and any(i in row[5] for row in agents[100:])),
        key=lambda i: (carried[i], -i),
    )
    tag = tags[index]
    expected = {row[1] for row in agents if index in row[5]}

    page = _open(synthetic, "")
    _wait_for_catalogue(page)
    assert _status(page) == f"{total} agents"
    page.select_option("#a2a-filter-tag", tag)
    page.wait_for_function(
        "n => document.querySelector('.a2a-filter__status').textContent.startsWith(n + ' of ')",
        arg=len(expected),
        timeout=TIMEOUT_MS,
    )
    assert _status(page) == f"{len(expected)} of {total} agents"
    shown = page.eval_on_selector_all(".a2a-agents > li > a", "links => links.map(a => a.href)")
    relative = {href.removeprefix(synthetic.base_url) for href in shown}
    assert len(relative) == min(len(expected), 100)
    assert relative <= expected, f"agents without the tag {tag!r}: {sorted(relative - expected)[:5]}"
    assert relative - first_page, "only agents of the first home page were filtered"
    assert page.locator("h2#agents ~ ul").first.is_hidden(), "the static list is still shown"
    assert "tag=" in page.evaluate("() => location.hash")

    # the state is in the address: a reload (or a shared link) shows the same selection
    url = page.url
    page.close()
    page = _open(synthetic, url.removeprefix(synthetic.base_url))
    _wait_for_catalogue(page)
    assert page.locator("#a2a-filter-tag").input_value() == tag
    assert _status(page) == f"{len(expected)} of {total} agents"
    screenshot(page, "synthetic-filter-tag", directory=SHOTS)

    page.locator(".a2a-filter__clear").click()
    page.wait_for_function(
        "t => document.querySelector('.a2a-filter__status').textContent === t",
        arg=f"{total} agents",
        timeout=TIMEOUT_MS,
    )
    assert page.locator("h2#agents ~ ul").first.is_visible()
    page.close()
    _clean(synthetic)


def test_home_filter_works_on_pages_built_without_the_plugin(
    catalogue_sites: dict[str, Path], chromium: Browser, example_agents: list[AgentPaths]
) -> None:
    """Built from `a2a-docgen build` output by an engine that runs no plugin (as Zensical does), the home page has
    its filter too; a page of the same site with an "Agents" heading of its own, elsewhere, is left alone."""
    site_dir = catalogue_sites["build-output"]
    tags = Counter(t for agent in example_agents for skill in agent.card.skills for t in set(skill.tags))
    tag = min((t for t, n in tags.items() if n == 1), key=str.casefold)
    with browse_site(site_dir, browser=chromium) as site:
        page = _open(site, "")
        _wait_for_catalogue(page)
        assert _status(page) == f"{len(example_agents)} agents"
        page.select_option("#a2a-filter-tag", tag)
        page.wait_for_function(
            "() => document.querySelector('.a2a-filter__status').textContent.startsWith('1 of ')",
            timeout=TIMEOUT_MS,
        )
        assert page.locator(".a2a-agents > li > a").count() == 1
        page.close()
        other = _open(site, "about/")
        assert other.locator("h2#agents").count() == 1
        assert other.locator(".a2a-filter").count() == 0
        other.close()
        _clean(site)


def test_home_filter_shows_more_than_a_hundred_on_request(
    catalogue_sites: dict[str, Path], synthetic: SiteBrowser
) -> None:
    data = _filter_index(catalogue_sites["synthetic"])
    eras = Counter(row[9] for row in data["agents"])
    era, matching = max(eras.items(), key=lambda kv: kv[1])
    assert 100 < matching < len(data["agents"])
    page = _open(synthetic, "#" + f"era={era}")
    _wait_for_catalogue(page)
    page.wait_for_function(
        "() => document.querySelectorAll('.a2a-agents > li').length === 100", timeout=TIMEOUT_MS
    )
    more = page.locator(".a2a-agents-box .a2a-more")
    assert more.is_visible()
    more.click()
    page.wait_for_function(
        "n => document.querySelectorAll('.a2a-agents > li').length === n", arg=matching, timeout=TIMEOUT_MS
    )
    assert more.is_hidden()
    focused = page.evaluate("() => document.activeElement.closest('.a2a-agents > li') !== null")
    assert focused, "focus did not move to the first agent added"
    page.close()
    _clean(synthetic)


def test_home_filter_from_disk_filters_the_page_and_says_how_to_serve(
    catalogue_sites: dict[str, Path], chromium: Browser
) -> None:
    site = catalogue_sites["synthetic"]
    with browse_site(site, browser=chromium) as served:
        page, record = served.new_page()
        page.goto((site / "index.html").as_uri(), wait_until="load")
        note = page.locator(".a2a-filter__note")
        note.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert "python3 -m http.server -d site" in note.inner_text()
        assert page.locator(".a2a-filter__more").is_hidden(), "facets shown without the catalogue's index"
        # An agent of this page ("Agent 0002 ...": its number is in no other agent's text).
        name = page.locator("h2#agents ~ ul > li").nth(2).locator("a").first.inner_text()
        query = " ".join(name.split()[:2]).lower()
        page.locator("#a2a-filter-q").fill(query)
        page.wait_for_function(
            "() => document.querySelector('.a2a-filter__status').textContent.includes('on this page')",
            timeout=TIMEOUT_MS,
        )
        visible = page.locator("h2#agents ~ ul > li:not([hidden])")
        assert visible.count() == 1
        assert visible.locator("a").first.inner_text() == name
        assert _status(page) == "1 of 100 agents on this page"
        screenshot(page, "synthetic-file-fallback", directory=SHOTS)
        assert record.clean, record.summary()
        page.close()


# -- requests ready to copy --------------------------------------------------------------------------------------

_CURL_BLOCKS = """() => {
  const out = [];
  for (const h2 of document.querySelectorAll('.a2a-page h2[id^="skill-"]')) {
    for (let n = h2.nextElementSibling; n && n.tagName !== 'H2'; n = n.nextElementSibling) {
      const tabs = n.classList.contains('a2a-requests') && n.querySelector(':scope > .tabbed-set');
      if (!tabs) continue;
      const labels = [...tabs.querySelectorAll('.tabbed-labels > label')];
      const blocks = [...tabs.querySelectorAll('.tabbed-content > .tabbed-block')];
      labels.forEach((label, i) => {
        if (label.textContent.trim().endsWith(' · curl') && blocks[i]) {
          out.push({skill: h2.id, label: label.getAttribute('for'), index: i,
                    text: blocks[i].querySelector('code').textContent});
        }
      });
    }
  }
  return out;
}"""


def _parse_curl(command: str) -> dict[str, Any]:
    """URL, method, headers and the here-document's JSON of a curl command as the pages show it."""
    lines = command.rstrip("\n").split("\n")
    start = next(i for i, line in enumerate(lines) if "<<'EOF'" in line)
    assert lines[-1] == "EOF", "the here-document is not closed by EOF"
    argv = shlex.split(" ".join(line.removesuffix("\\") for line in lines[: start + 1]))
    assert argv[0] == "curl"
    assert argv[-1] == "<<EOF"
    headers: dict[str, str] = {}
    method, url = "GET", ""
    args = iter(argv[1:-1])
    for arg in args:
        if arg == "-H":
            name, _, value = next(args).partition(":")
            headers[name.strip()] = value.strip()
        elif arg == "-X":
            method = next(args)
        elif arg == "--data-binary":
            assert next(args) == "@-"
        elif arg.startswith("http"):
            url = arg
    body = json.loads("\n".join(lines[start + 1 : -1]))
    return {"url": url, "method": method, "headers": headers, "body": body}


def _first_requirement_kinds(raw: dict[str, Any], skill_id: str) -> list[tuple[str, str]]:
    """(kind, header) of each scheme of the first security alternative a skill needs, read from the card."""
    skill = next(s for s in raw["skills"] if s.get("id") == skill_id)
    requirements = (
        skill.get("securityRequirements")
        or skill.get("security")
        or raw.get("securityRequirements")
        or raw.get("security")
        or []
    )
    if not requirements:
        return []
    first = requirements[0]
    names = first.get("schemes", first) if isinstance(first, dict) else {}
    kinds = []
    for name in names:
        scheme = raw.get("securitySchemes", {}).get(name, {})
        token = ("oauth2SecurityScheme", "openIdConnectSecurityScheme")
        if any(key in scheme for key in token) or scheme.get("type") in ("oauth2", "openIdConnect"):
            kinds.append(("bearer", "Authorization"))
        elif "httpAuthSecurityScheme" in scheme or scheme.get("type") == "http":
            http = scheme.get("httpAuthSecurityScheme", scheme)
            kinds.append(
                ("bearer" if http.get("scheme", "").lower() == "bearer" else "http", "Authorization")
            )
        elif "apiKeySecurityScheme" in scheme or scheme.get("type") == "apiKey":
            key = scheme.get("apiKeySecurityScheme", scheme)
            if (key.get("location") or key.get("in")) == "header":
                kinds.append(("apiKey", key["name"]))
    return kinds


def test_copied_curl_commands_parse_and_carry_the_credentials_they_need(
    material: SiteBrowser, example_agents: list[AgentPaths]
) -> None:
    material.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=material.base_url)
    checked = bearer = 0
    for agent in example_agents:
        raw = _raw(agent)
        ids = {anchor: skill.id for anchor, skill in zip(agent.skill_anchors, agent.card.skills, strict=True)}
        page = _open(material, agent.page_url)
        blocks = page.evaluate(_CURL_BLOCKS)
        for block in blocks:
            parsed = _parse_curl(block["text"])
            assert parsed["url"].startswith("https://"), parsed
            assert parsed["method"] == "POST"
            assert parsed["headers"].get("Content-Type", "").startswith("application/")
            assert isinstance(parsed["body"], dict)
            assert parsed["body"], parsed
            # the shell accepts it as it is (syntax only: nothing is run)
            subprocess.run(["bash", "-n"], input=block["text"], text=True, check=True, timeout=30)
            for kind, header in _first_requirement_kinds(raw, ids[block["skill"]]):
                assert header in parsed["headers"], f"{agent.page_url}#{block['skill']}: no {header} header"
                if kind == "bearer":
                    assert re.fullmatch(r"Bearer <[^>]+>", parsed["headers"][header]), parsed["headers"]
                    bearer += 1
            checked += 1
        page.close()
    assert checked, "no curl command on the example pages"
    assert bearer, "no example skill needs a bearer token: the credential check proved nothing"

    # one of them through Material's copy button and the real clipboard
    agent = next(a for a in example_agents if "ledger" in a.page_url)
    page = _open(material, agent.page_url)
    block = page.evaluate(_CURL_BLOCKS)[0]
    page.locator(f"label[for='{block['label']}']").click()
    tabs = page.locator(f".tabbed-set:has(> #{block['label']}) > .tabbed-content > .tabbed-block")
    tabs.nth(block["index"]).locator(".md-code__button, .md-clipboard").first.click()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.rstrip("\n") == block["text"].rstrip("\n")
    assert _parse_curl(copied)["headers"]["Authorization"] == "Bearer <token>"
    page.close()
    _clean(material)


# -- the catalogue search --------------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", ["material", "default", "zensical"])
def test_search_finds_a_skill_by_tag_and_by_example_words(
    catalogue_sites: dict[str, Path],
    chromium: Browser,
    example_agents: list[AgentPaths],
    pagefind_required: None,
    theme: str,
) -> None:
    by_tag = _unique_tag(example_agents)
    by_example = _example_only_word(example_agents)
    with _browse(catalogue_sites, chromium, theme) as site:
        page = _open(site, "")
        _wait_for_catalogue(page)
        for query, agent, skill, anchor in (by_tag, by_example):
            hits = _search(page, query)
            wanted = f"{agent.card.name} › {skill}"
            assert any(
                h["title"] == wanted and h["href"].endswith(f"{agent.page_url}#{anchor}") for h in hits
            ), f"searching {query!r}: no result {wanted!r} linking to #{anchor}; got {hits}"
        screenshot(page, f"{theme}-search-example-words", directory=SHOTS)
        page.close()
        _clean(site)


def test_search_and_filter_show_hostile_card_text_as_text(
    catalogue_sites: dict[str, Path], chromium: Browser, pagefind_required: None
) -> None:
    with browse_site(catalogue_sites["hostile"], browser=chromium) as site:
        page = _open(site, "")
        _wait_for_catalogue(page)
        for query in ("<img src=x onerror=alert(1)>", "script", "onerror", "javascript", "alert"):
            box = page.locator("#a2a-filter-q")
            box.fill("")
            box.type(query, delay=5)
            page.wait_for_timeout(600)
            assert page.locator(".a2a-results :is(script, img, iframe, svg, object, embed)").count() == 0
        screenshot(page, "hostile-search", directory=SHOTS)
        page.close()
        for record in site.records:
            assert record.clean, record.summary()


# -- accessibility ---------------------------------------------------------------------------------------------

A11Y_PAGES = ("home", "agent", "tag", "security")


@pytest.mark.parametrize("theme", list(THEMES))
def test_no_serious_accessibility_violations(
    catalogue_sites: dict[str, Path],
    chromium: Browser,
    example_agents: list[AgentPaths],
    pagefind_required: None,
    theme: str,
) -> None:
    agent = next(a for a in example_agents if "ledger" in a.page_url)
    tag, _, _, _ = _unique_tag(example_agents)
    site_dir = catalogue_sites[THEMES[theme][0]]
    tag_page = next(p for p in sorted((site_dir / "tags").iterdir()) if p.is_dir())
    paths = {
        "home": "",
        "agent": agent.page_url,
        "tag": f"tags/{tag_page.name}/",
        "security": "security/",
    }
    exclusions = EXCLUSIONS[THEMES[theme][0]]
    failures = []
    with _browse(catalogue_sites, chromium, theme) as site:
        for name in A11Y_PAGES:
            page = _open(site, paths[name])
            if name == "home":  # with the filter in use: the form, the results and the agent list
                _wait_for_catalogue(page)
                _search(page, tag)
            found = serious(axe_violations(page, exclusions=exclusions))
            if found:
                failures.append(f"{name} ({paths[name] or '/'}):\n{report(found)}")
            page.close()
        _clean(site)
    assert not failures, "\n\n".join(failures)


# -- the README picture ------------------------------------------------------------------------------------------


def test_readme_picture(
    catalogue_sites: dict[str, Path],
    chromium: Browser,
    example_agents: list[AgentPaths],
    pagefind_required: None,
    update_golden: bool,
) -> None:
    """The home page searching, at desktop width: written to docs/images/ only with --update-golden."""
    tag, _, _, _ = _unique_tag(example_agents)
    with _browse(catalogue_sites, chromium, "material", {"width": 1280, "height": 860}) as site:
        page = _open(site, "")
        _wait_for_catalogue(page)
        _search(page, tag)
        page.locator("#agents").scroll_into_view_if_needed()
        page.evaluate("() => scrollBy(0, -16)")
        page.wait_for_timeout(300)
        shot = screenshot(page, "catalogue", directory=SHOTS)
        page.close()
        _clean(site)
    assert shot.stat().st_size < 300_000
    if update_golden:
        README_PICTURE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, README_PICTURE)


# -- a catalogue that reads at a glance (issue 41): home page, search answer, agent page, What's new ---------

GLANCE_SIZES = {"desktop": DESKTOP, "phone": PHONE}


def _axe_clean(page: Page, theme: str) -> None:
    found = serious(axe_violations(page, exclusions=EXCLUSIONS[THEMES[theme][0]]))
    assert not found, report(found)


@pytest.mark.parametrize("size", GLANCE_SIZES)
@pytest.mark.parametrize("theme", ["material", "zensical"])
def test_the_home_page_groups_by_provider_shows_grades_and_links_other_orders(
    catalogue_sites: dict[str, Path], chromium: Browser, theme: str, size: str
) -> None:
    with _browse(catalogue_sites, chromium, theme, GLANCE_SIZES[size]) as site:
        page = _open(site, "")
        _wait_for_catalogue(page)
        groups = page.locator("h2#agents ~ h3")
        assert groups.count() >= 2, "the agents are not grouped by provider"
        assert groups.first.is_visible()
        grades = page.locator("h2#agents ~ ul > li > strong:first-child")
        assert grades.count() == page.locator("h2#agents ~ ul > li").count()
        assert all(re.fullmatch(r"[A-F]", t) for t in grades.all_inner_texts())
        if theme == "material":  # the plugin's pages: a badge, coloured by grade
            badge = page.locator("h2#agents ~ ul > li > strong.a2a-grade").first
            assert badge.evaluate("b => getComputedStyle(b).backgroundColor") != "rgba(0, 0, 0, 0)"
        sizes = _no_horizontal_overflow(page)
        assert sizes["scroll"] <= sizes["inner"], sizes
        _axe_clean(page, theme)
        screenshot(page, f"{theme}-{size}-home-grouped", directory=SHOTS)
        page.get_by_role("link", name="by card quality").click()
        page.wait_for_selector("h1:has-text('Agents by card quality')", timeout=TIMEOUT_MS)
        letters = page.locator("h2#agents ~ ul > li > strong:first-child").all_inner_texts()
        assert letters == sorted(letters), "not best grade first"
        page.close()
        _clean(site)


@pytest.mark.parametrize("size", GLANCE_SIZES)
def test_a_word_only_skill_text_holds_gets_one_answer(
    catalogue_sites: dict[str, Path], chromium: Browser, pagefind_required: None, size: str
) -> None:
    """A word no agent's name, description, tag or skill name holds, only a skill's text: the status says the
    pages hold it, the skills are listed, and nothing says "No agent matches" or "0 of"."""
    site_dir = catalogue_sites["material"]
    rows = _filter_index(site_dir)["agents"]
    filtered = " ".join(json.dumps(row).lower() for row in rows)
    words = set()
    for card in load_catalog([EXAMPLE_CARDS]).cards:
        for skill in card.skills:
            words |= set(re.findall(r"[a-z]{9,}", (skill.description or "").lower()))
    word = min(w for w in words if w not in filtered)
    with _browse(catalogue_sites, chromium, "material", GLANCE_SIZES[size]) as site:
        page = _open(site, "")
        _wait_for_catalogue(page)
        scope = page.locator(".a2a-filter__scope").inner_text()
        assert "full text of their pages" in scope
        assert "site's own search box" in scope
        hits = _search(page, word)
        assert hits, f"no skill found for {word!r}"
        status = _status(page)
        assert status.startswith("1 agent page hold") or re.match(r"\d+ agent pages hold", status), status
        assert "0 of" not in status
        assert "No agent matches" not in page.locator(".a2a-results").inner_text()
        assert page.locator(".a2a-agents-box").is_hidden()
        _axe_clean(page, "material")
        screenshot(page, f"material-{size}-search-one-answer", directory=SHOTS)
        page.close()
        _clean(site)


@pytest.mark.parametrize("size", GLANCE_SIZES)
@pytest.mark.parametrize("theme", ["material", "zensical"])
def test_the_agent_page_reads_at_a_glance(
    catalogue_sites: dict[str, Path],
    chromium: Browser,
    example_agents: list[AgentPaths],
    theme: str,
    size: str,
) -> None:
    agent = next(a for a in example_agents if "route-planner" in a.page_url)
    has_history = (catalogue_sites[THEMES[theme][0]] / "whats-new.xml").is_file()
    with _browse(catalogue_sites, chromium, theme, GLANCE_SIZES[size]) as site:
        page = _open(site, agent.page_url)
        # when it last changed, in the facts before the first skill
        if has_history:
            fact = page.locator("li:has(> strong:text-is('Last changed:'))")
            assert fact.count() == 1
            first_skill = page.locator("h2[id^='skill-']").first
            assert fact.evaluate(
                "(f, s) => !!(f.compareDocumentPosition(s) & 4)", first_skill.element_handle()
            )
        # each example's text once: headed by its number, its text below
        example_headings = page.locator("h3").filter(has_text=re.compile(r"^Example \d+"))
        assert example_headings.count() >= 1
        for quote in page.locator("blockquote").all_inner_texts():
            assert quote.strip() not in " ".join(page.locator("h3").all_inner_texts())
        # the Interfaces table fits the screen
        table = page.locator("h3:has-text('Interfaces') ~ * table, h3:has-text('Interfaces') ~ table").first
        fit = table.evaluate("t => ({scroll: t.scrollWidth, client: t.clientWidth})")
        assert fit["scroll"] <= fit["client"] + 1, fit
        sizes = _no_horizontal_overflow(page)
        assert sizes["scroll"] <= sizes["inner"], sizes
        # the navigation does not say the reader is on Home
        active = page.evaluate(
            "() => [...document.querySelectorAll('.md-nav__item--active > .md-nav__link, "
            ".md-nav__link--active, .md-tabs__item--active')].map(a => a.textContent.trim())"
        )
        assert not any(text.startswith("Home") for text in active), active
        _axe_clean(page, theme)
        screenshot(page, f"{theme}-{size}-agent-page", directory=SHOTS)
        page.close()
        _clean(site)


@pytest.mark.parametrize("size", GLANCE_SIZES)
def test_whats_new_has_one_entry_per_commit(
    catalogue_sites: dict[str, Path], chromium: Browser, size: str
) -> None:
    site_dir = catalogue_sites["material"]
    if not (site_dir / "whats-new" / "index.html").is_file():
        pytest.skip("the example site was built without a history (no git checkout)")
    with _browse(catalogue_sites, chromium, "material", GLANCE_SIZES[size]) as site:
        page = _open(site, "whats-new/")
        entries = page.locator(".a2a-page > ul > li")
        assert entries.count() >= 1
        commits = [
            entries.nth(i).locator(":scope > a, :scope > code").first.inner_text()
            for i in range(entries.count())
        ]
        assert len(commits) == len(set(commits)), "a commit has more than one entry"
        folds = page.locator("details.a2a-fold")
        for i in range(folds.count()):
            fold = folds.nth(i)
            assert fold.locator("summary").inner_text().endswith("agents")
            assert fold.locator("ul").first.is_hidden()  # folded until opened
            fold.locator("summary").click()
            assert fold.locator("ul").first.is_visible()
        sizes = _no_horizontal_overflow(page)
        assert sizes["scroll"] <= sizes["inner"], sizes
        _axe_clean(page, "material")
        page.close()
        _clean(site)


def test_pictures_of_the_home_page_and_an_agent_page(
    catalogue_sites: dict[str, Path],
    chromium: Browser,
    example_agents: list[AgentPaths],
    update_golden: bool,
) -> None:
    """The home page's agents (grouped, graded, other orders linked) and the top of an agent page, at desktop
    width: written to docs/images/ (home.png, agent-page.png) only with --update-golden."""
    agent = next(a for a in example_agents if "route-planner" in a.page_url)
    shots = {}
    with _browse(catalogue_sites, chromium, "material", {"width": 1280, "height": 860}) as site:
        page = _open(site, "")
        _wait_for_catalogue(page)
        page.locator("h2#agents ~ p").first.scroll_into_view_if_needed()
        page.evaluate("() => { document.querySelector('h2#agents ~ p').scrollIntoView(); scrollBy(0, -80); }")
        page.wait_for_timeout(300)
        shots["home"] = screenshot(page, "home", directory=SHOTS)
        page.close()
        page = _open(site, agent.page_url)
        page.wait_for_timeout(300)
        shots["agent-page"] = screenshot(page, "agent-page", directory=SHOTS)
        page.close()
        _clean(site)
    for name, shot in shots.items():
        assert shot.stat().st_size < 300_000
        if update_golden:
            shutil.copyfile(shot, README_PICTURE.parent / f"{name}.png")
