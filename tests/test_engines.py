"""The same catalogue from every engine: Zensical, MkDocs + Material and ProperDocs + Material.

Each engine builds the project ``a2a-docgen init --engine ENGINE`` writes for the example catalogue (or the
cards in ``A2A_DOCGEN_ENGINE_CARDS``), strictly. Zensical builds the pages ``a2a-docgen build`` wrote, with
its default Markdown profile; MkDocs and ProperDocs run the plugin. The facts are then read from each site's
HTML and compared with the catalogue's model and with the Markdown the renderer wrote: every page built,
skill headings with their ``#skill-`` ids, every code block of the Markdown (pretty-printed JSON examples,
request bodies, curl and Python) as a code block of the page, the effective media types and the scopes of
every skill, working links to skills, search entries, the assets, both palettes, no web fonts, and a site
the static checker finds inert. (``tests/test_engines_hostile.py``: the hostile corpus through Zensical.)
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.catalog import load_catalog
from a2a_docgen.history.read import history_for_build
from a2a_docgen.model import Catalog
from a2a_docgen.render import NAV, RenderedSite, render_catalog
from a2a_docgen.render.assets import SCRIPTS, STYLESHEETS
from a2a_docgen.render.exports import agent_paths
from a2a_docgen.text.jsonio import pretty_json
from tests.conftest import REPO
from tests.support.engine_sites import (
    ENGINES,
    EngineBuild,
    HtmlPage,
    build_project,
    init_project,
    parse_page,
    require_engine,
)
from tests.support.hostile_sites import html_path
from tests.support.markdown_tokens import fences, headings
from tests.support.site_checker import check_site

pytestmark = pytest.mark.slow

CARDS = Path(os.environ.get("A2A_DOCGEN_ENGINE_CARDS") or REPO / "examples" / "cards").resolve()
PLUGIN_ENGINES = ("mkdocs", "properdocs")


@pytest.fixture(scope="module")
def catalogue() -> tuple[Catalog, RenderedSite]:
    """The catalogue and the pages ``a2a-docgen build`` writes for it, with the history every engine's build
    reads (the example cards are in this repository: an agent page says when it last changed)."""
    catalog = load_catalog([CARDS])
    history = history_for_build([str(CARDS)], say=lambda _: None)
    return catalog, render_catalog(catalog, markdown_sources=False, history=history)


_BUILDS: dict[str, EngineBuild] = {}


def _build(engine: str, tmp_path_factory: pytest.TempPathFactory) -> EngineBuild:
    """The example catalogue's site, built once per engine (per session) from the project ``init`` writes,
    with the commands it prints."""
    require_engine(engine)
    if engine not in _BUILDS:
        project = tmp_path_factory.mktemp(engine) / "catalogue"
        init_project(project, engine, CARDS)
        _BUILDS[engine] = build_project(project, engine, cards=os.path.relpath(CARDS, project))
    return _BUILDS[engine]


@pytest.fixture(scope="module", params=ENGINES)
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> EngineBuild:
    """The example catalogue's site, built once per engine from the project ``init`` writes."""
    return _build(request.param, tmp_path_factory)


def page(built: EngineBuild, markdown_path: str) -> HtmlPage:
    return parse_page((built.check() / html_path(markdown_path)).read_text(encoding="utf-8"))


def test_build_is_strict_and_writes_only_its_own_directories(built: EngineBuild) -> None:
    built.check()
    assert built.changed_outside == [], built.changed_outside
    assert "WARNING" not in built.output, built.output[-3000:]


def test_every_page_and_file_is_published(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite]
) -> None:
    site = built.check()
    _, rendered = catalogue
    # the plugin publishes each page's source as its Markdown copy, where `a2a-docgen build` writes `.md.txt`
    sources = built.engine in PLUGIN_ENGINES
    missing = [p for p in rendered.pages if not (site / html_path(p)).is_file()]
    missing += [
        p
        for p in rendered.files
        if not (site / (p.removesuffix(".txt") if sources and p.endswith(".md.txt") else p)).is_file()
    ]
    assert missing == []


def test_skill_headings_carry_their_ids_and_names(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite]
) -> None:
    catalog, rendered = catalogue
    for paths in agent_paths(catalog):
        built_page = page(built, paths.page_path)
        h2 = {h.id: h.text for h in built_page.headings if h.level == 2 and h.id}
        # the Markdown's own headings: `## Name {#skill-...}`, as any CommonMark reader sees the text
        expected = {}
        for level, text in headings(rendered.pages[paths.page_path]):
            match = re.fullmatch(r"(.*) \{#(skill-[^}\s]+)\}", text)
            if level == 2 and match:
                expected[match.group(2)] = " ".join(match.group(1).split())
        assert set(expected) == set(paths.skill_anchors)
        for anchor, name in expected.items():
            assert h2.get(anchor) == name, (paths.page_path, anchor, h2.get(anchor), name)


def test_links_to_skills_lead_to_their_headings(built: EngineBuild) -> None:
    site = built.check()
    ids: dict[Path, set[str]] = {}
    checked = 0
    for html_file in sorted(site.rglob("*.html")):
        for href in parse_page(html_file.read_text(encoding="utf-8")).links:
            target, _, anchor = href.partition("#")
            if not anchor.startswith("skill-") or re.match(r"^[a-z][a-z0-9+.-]*:", href):
                continue
            resolved = (html_file.parent / target).resolve()
            if resolved.is_dir() or not target:
                resolved = resolved / "index.html" if target else html_file
            if resolved not in ids:
                ids[resolved] = set(parse_page(resolved.read_text(encoding="utf-8")).ids)
            assert anchor in ids[resolved], f"{html_file.relative_to(site)}: {href}"
            checked += 1
    assert checked


def _block(text: str) -> str:
    return text.rstrip("\n")


def test_every_code_block_of_the_markdown_is_a_code_block_of_the_page(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite]
) -> None:
    """Pretty-printed JSON examples, request bodies, curl and Python: the same text, in the same order."""
    _, rendered = catalogue
    for path, markdown in rendered.pages.items():
        expected = [_block(content) for _, content in fences(markdown)]
        assert [_block(b) for b in page(built, path).code_blocks] == expected, path


def test_json_examples_are_pretty_printed(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite]
) -> None:
    catalog, _ = catalogue
    seen = 0
    for paths in agent_paths(catalog):
        blocks = {_block(b) for b in page(built, paths.page_path).code_blocks}
        for skill in paths.card.skills:
            for example in skill.examples:
                if example.is_json:
                    assert pretty_json(example.value, 2) in blocks, (paths.page_path, example.text)
                    seen += 1
    if (REPO / "examples" / "cards").resolve() == CARDS:
        assert seen


def test_effective_modes_and_scopes_of_every_skill(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite]
) -> None:
    """A skill's own media types and security are on its section; inherited ones on the agent's summary."""
    catalog, _ = catalogue
    for paths in agent_paths(catalog):
        built_page = page(built, paths.page_path)
        head = built_page.head
        for skill, anchor in zip(paths.card.skills, paths.skill_anchors, strict=True):
            section = built_page.sections[anchor]
            for modes in (skill.effective_input_modes, skill.effective_output_modes):
                where = section if modes.origin == "skill" else head
                for mode in modes.modes:
                    assert mode.strip() in where, (paths.page_path, anchor, mode, modes.origin)
            security = skill.effective_security
            where = section if security.origin == "skill" else head
            for requirement in security.requirements:
                for scheme, scopes in requirement.schemes.items():
                    assert scheme in where, (paths.page_path, anchor, scheme)
                    for scope in scopes:
                        assert scope in where, (paths.page_path, anchor, scope)


def test_requests_are_shown_for_every_example(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite]
) -> None:
    """With the plugin and Material, the variants of a request are content tabs; from ``a2a-docgen build``
    they are labelled code blocks one after another (Zensical's default profile has no tab syntax of ours)."""
    catalog, _ = catalogue
    for paths in agent_paths(catalog):
        html_text = (built.check() / html_path(paths.page_path)).read_text(encoding="utf-8")
        blocks = page(built, paths.page_path).code_blocks
        examples = sum(len(skill.examples) for skill in paths.card.skills)
        if not examples:
            continue
        requests = [b for b in blocks if '"jsonrpc": "2.0"' in b or b.startswith("curl ")]
        assert requests, paths.page_path
        if built.engine in PLUGIN_ENGINES:
            assert 'class="tabbed-set' in html_text, paths.page_path


def test_navigation_is_the_catalogues(built: EngineBuild) -> None:
    home = (built.check() / "index.html").read_text(encoding="utf-8")
    for entry in NAV:
        assert f">{entry.title}<" in home or f"> {entry.title} <" in re.sub(r"\s+", " ", home), entry.title
    # agent pages are not in the navigation: it stays this size whatever the catalogue holds
    nav = re.search(r'<nav class="md-nav md-nav--primary".*?</nav>', home, re.S)
    assert nav is not None
    assert "agents/" not in nav.group(0)


def test_assets_palettes_and_no_web_fonts(built: EngineBuild) -> None:
    site = built.check()
    home = (site / "index.html").read_text(encoding="utf-8")
    for asset in (*STYLESHEETS, *SCRIPTS):
        assert (site / asset).is_file(), asset
        assert asset in home, asset
    assert home.count('name="__palette"') == 2  # light and dark, with a toggle
    config = re.search(r'<script id="__config" type="application/json">(.*?)</script>', home, re.S)
    assert config is not None
    assert "content.code.copy" in json.loads(config.group(1))["features"]
    assert not [p for p in site.rglob("*.html") if "fonts.googleapis.com" in p.read_text(encoding="utf-8")]


def test_search_has_every_agent_and_skill(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite]
) -> None:
    catalog, _ = catalogue
    site = built.check()
    if built.engine == "zensical":
        entries = json.loads((site / "search.json").read_text(encoding="utf-8"))["items"]
    else:
        entries = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    locations = {entry["location"] for entry in entries}
    for paths in agent_paths(catalog):
        assert paths.page_url in locations, paths.page_url
        for anchor in paths.skill_anchors:
            assert f"{paths.page_url}#{anchor}" in locations, anchor
    # list pages (one per tag) keep out of the index: it grows with the agents, not with their facets
    assert not [loc for loc in locations if loc.startswith("tags/") and loc != "tags/"]


def test_llms_txt_links_to_published_pages(built: EngineBuild) -> None:
    site = built.check()
    llms = (site / "llms.txt").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", llms)
    assert links
    unpublished = [
        link for link in links if not ((site / link).is_file() or (site / link / "index.html").is_file())
    ]
    assert unpublished == []


# -- one catalogue on every engine: what an agent page shows, and what it weighs ----------------------------

_ARTICLE = re.compile(r'<article class="md-content__inner[^"]*">(.*?)</article>', re.S)
_LITERAL_SYNTAX = re.compile(r"\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]|^!!! |^=== \"|\*\*[A-Z]", re.M)
_HIGHLIGHTED = re.compile(r'<div class="language-(json|sh|python) highlight">\s*<pre[^>]*>(.*?)</pre>', re.S)


def _shows(html_text: str) -> dict[str, object]:
    """What an agent page shows, as the reader sees it: the facts (the summary's text), the admonitions and
    their kinds, each set of tabs with its labels, the highlighted blocks by language, and any Markdown syntax
    left as text."""
    article = _ARTICLE.search(html_text)
    assert article is not None
    content = article.group(1)
    parsed = parse_page(html_text)
    tab_sets = re.split(r'<div class="tabbed-set', content)[1:]
    return {
        "head": parsed.head,
        "admonitions": re.findall(r'<div class="admonition (\w+)">', content),
        "tabs": [re.findall(r'<label for="__tabbed_[0-9_]+">([^<]*)</label>', chunk) for chunk in tab_sets],
        "highlighted": sorted(
            language for language, body in _HIGHLIGHTED.findall(content) if '<span class="' in body
        ),
        "literal": _LITERAL_SYNTAX.findall(parsed.text.replace(" ", "\n")),
    }


def _plugin_shows(markdown: str) -> dict[str, object]:
    """The same facts of the plugin's page for ``markdown``: its converter is the reference."""
    from a2a_docgen.html import Theme, to_html

    converted = to_html(markdown, theme=Theme("material", permalink="¶")).with_links(str)
    return _shows(f'<article class="md-content__inner md-typeset">{converted}</article>')


def test_agent_pages_show_the_same_on_every_engine(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite]
) -> None:
    """Admonitions, request tabs with their labels, highlighted JSON, curl and Python, the facts, and no
    Markdown syntax shown as text: as the plugin's converter makes of the same page."""
    catalog, rendered = catalogue
    site = built.check()
    for paths in agent_paths(catalog):
        expected = _plugin_shows(rendered.pages[paths.page_path])
        shown = _shows((site / html_path(paths.page_path)).read_text(encoding="utf-8"))
        assert shown["literal"] == [], (paths.page_path, shown["literal"])
        for fact in ("admonitions", "tabs", "highlighted"):
            assert shown[fact] == expected[fact], (paths.page_path, fact, shown[fact], expected[fact])
        assert all(len(labels) >= 2 for labels in shown["tabs"])  # type: ignore[attr-defined]
        assert {"sh", "python"} <= set(shown["highlighted"])  # type: ignore[call-overload]
        assert shown["head"] == expected["head"].replace(" ¶", ""), paths.page_path  # type: ignore[attr-defined]


@pytest.mark.parametrize("engine", [e for e in ENGINES if e != "mkdocs"])
def test_agent_pages_weigh_at_most_a_quarter_more_than_the_plugins(
    engine: str, catalogue: tuple[Catalog, RenderedSite], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """An agent page's HTML on any engine is at most 1.25 times what MkDocs with the plugin writes for it."""
    catalog, _ = catalogue
    plugin = _build("mkdocs", tmp_path_factory).check()
    other = _build(engine, tmp_path_factory).check()
    ratios = {}
    for paths in agent_paths(catalog):
        path = html_path(paths.page_path)
        ratios[paths.page_path] = (other / path).stat().st_size / (plugin / path).stat().st_size
    assert max(ratios.values()) <= 1.25, ratios


def test_zensical_site_has_the_catalogue_search_index(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite]
) -> None:
    """The step init prints after the engine's build: Pagefind's bundle of the agent pages, announced in the
    filter index (the plugin engines write theirs themselves and mark the home page)."""
    site = built.check()
    catalog, _ = catalogue
    assert (site / "pagefind" / "pagefind.js").is_file()
    if built.engine == "zensical":
        assert (
            json.loads((site / "catalogue-filter.json").read_text(encoding="utf-8"))["search"] == "pagefind"
        )
        assert f"search-index: {len(catalog.cards)} agent pages indexed" in built.output
    else:
        assert 'data-a2a-search="pagefind"' in (site / "index.html").read_text(encoding="utf-8")


def test_site_checker_finds_nothing(built: EngineBuild) -> None:
    violations = check_site(built.check(), strict=True)
    assert violations == [], "\n".join(map(str, violations[:40]))


# -- in a browser: the home filter and the engine's own search ------------------------------------------------

BROWSER_TIMEOUT_MS = 20_000


def _searchable_skill(catalog: Catalog) -> tuple[str, str]:
    """The name of a skill (plain words, unique in the catalogue) and its URL from the site root."""
    names = [skill.name for card in catalog.cards for skill in card.skills]
    for paths in agent_paths(catalog):
        for skill, anchor in zip(paths.card.skills, paths.skill_anchors, strict=True):
            if (
                skill.name
                and re.fullmatch(r"[A-Za-z]+(?: [A-Za-z]+)+", skill.name)
                and names.count(skill.name) == 1
            ):
                return skill.name, f"{paths.page_url}#{anchor}"
    pytest.skip("no skill with a plain-word name to search for")


@pytest.mark.browser
def test_home_filter_and_search_work_in_a_browser(
    built: EngineBuild, catalogue: tuple[Catalog, RenderedSite], chromium: Any
) -> None:
    """The catalogue's filter on the home page counts every agent; the engine's search finds a skill by its
    name and leads to its section. No script error, no request off the machine."""
    from tests.support.browser import browse_site

    catalog, _ = catalogue
    name, target = _searchable_skill(catalog)
    with browse_site(built.check(), browser=chromium) as site:
        page, record = site.open("", settle_ms=300, interact=False)
        page.wait_for_selector(".a2a-filter__status", timeout=BROWSER_TIMEOUT_MS)
        page.wait_for_function(
            "() => /^[0-9,]+ agents?$/.test(document.querySelector('.a2a-filter__status').textContent)",
            timeout=BROWSER_TIMEOUT_MS,
        )
        count = page.locator(".a2a-filter__status").inner_text().split()[0].replace(",", "")
        assert int(count) == len(catalog.cards)
        if (
            built.engine == "zensical"
        ):  # Zensical's search dialog lives in a shadow root (Playwright pierces it)
            page.click(".md-search__button")
            page.locator('dialog input[aria-label="Search"]').fill(name)
            results = '[id$="-results"] a'
        else:
            page.keyboard.press("/")
            page.keyboard.type(name)
            results = ".md-search-result__link"
        page.wait_for_selector(results, timeout=BROWSER_TIMEOUT_MS)
        hrefs = page.locator(results).evaluate_all("links => links.map(a => a.href)")
        base, anchor = target.split("#")
        assert any(site.url(base) in href and href.endswith(f"#{anchor}") for href in hrefs), (name, hrefs)
        assert record.clean, record.summary()
        assert not record.console_errors, record.summary()
