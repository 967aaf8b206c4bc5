"""The hostile corpus, built by MkDocs through the plugin in three configurations, yields an inert site.

Configurations (``tests/support/hostile_sites.py``): the default theme; mkdocs-material with the usual
extensions (snippets among them, with canary files in the project); and the same plus the mkdocs-macros
plugin. For each: no finding from the static site checker, no canary file content, no Jinja evaluated,
exactly the expected pages and nothing written outside the site directory, malformed files listed on the
excluded page. The builds are shared with the browser tests (the session fixture ``sites``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2a_docgen.model import Catalog
from tests.support.hostile_sites import (
    ALL_CONFIGS,
    CONFIGS,
    HOSTILE,
    LEAK_MARKERS,
    PLAIN_CONFIGS,
    Sites,
    generator,
    html_pages,
    html_path,
    template_markers,
)
from tests.support.mkdocs_build import Shape, content_shapes, page_text
from tests.support.site_checker import check_site

pytestmark = pytest.mark.slow

gen = generator()


@pytest.fixture(scope="module")
def expected() -> tuple[set[str], Catalog]:
    """The pages the renderer makes for the corpus (as built HTML paths), and the catalogue."""
    from a2a_docgen.catalog import load_catalog
    from a2a_docgen.render import render_catalog

    catalog = load_catalog([HOSTILE])
    rendered = render_catalog(catalog)
    return {html_path(page) for page in rendered.pages}, catalog


def test_corpus_matches_its_generator() -> None:
    for relpath, data in gen.outputs().items():
        assert (HOSTILE / relpath).read_bytes() == data, f"{relpath}: run tests/data/hostile/make_hostile.py"
    on_disk = {p.relative_to(HOSTILE).as_posix() for p in HOSTILE.rglob("*.json")}
    assert on_disk == set(gen.outputs())


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_build_succeeds(sites: Sites, config: str) -> None:
    site = sites.site(config)
    assert (site / "index.html").is_file()


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_site_checker_finds_nothing(sites: Sites, config: str) -> None:
    violations = check_site(sites.site(config), strict=True)
    assert violations == [], "\n".join(map(str, violations[:40]))


@pytest.mark.parametrize("config", list(PLAIN_CONFIGS))
def test_plain_markdown_heading_ids_do_not_clobber_the_theme(sites: Sites, config: str) -> None:
    """Without the plugin's heading-id prefix, headings of card text (an agent named ``__config``, a media type
    ``__drawer``) are labelled by ``md_heading``, so their toc ids never equal the theme's."""
    clobbered = [str(v) for v in check_site(sites.site(config)) if v.rule == "duplicate-id"]
    assert clobbered == []


def _template_markers(site: Path) -> dict[str, list[str]]:
    """Where the output of an evaluated Jinja payload appears: page text and search-index entries."""
    markers = template_markers()
    texts = {relpath: page_text(text) for relpath, text in html_pages(site).items()}
    index = site / "search" / "search_index.json"
    if index.is_file():
        for n, doc in enumerate(json.loads(index.read_text(encoding="utf-8"))["docs"]):
            texts[f"search index docs[{n}]"] = f"{doc['title']} {doc['text']}"
    return {where: markers.findall(text) for where, text in texts.items() if markers.search(text)}


def _leaks(site: Path) -> list[str]:
    """Files of the site that hold a canary."""
    return sorted(
        f"{path.relative_to(site)}: {marker}"
        for path in site.rglob("*")
        if path.is_file()
        for marker in LEAK_MARKERS
        if marker.encode() in path.read_bytes()
    )


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_no_file_or_environment_content_is_published(sites: Sites, config: str) -> None:
    assert _leaks(sites.site(config)) == []


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_no_template_expression_is_evaluated(sites: Sites, config: str) -> None:
    assert _template_markers(sites.site(config)) == {}


@pytest.mark.parametrize("config", list(PLAIN_CONFIGS))
def test_plain_markdown_is_written_into_docs_only(sites: Sites, config: str) -> None:
    returncode, output, outside = sites.plain[config]
    assert returncode == 0, output[-4000:]
    assert outside == []


def test_the_checks_catch_raw_payloads(sites: Sites) -> None:
    """Control: the same payloads written raw into a page are caught by every check above."""
    site = sites.site("control")
    rules = {v.rule for v in check_site(site, strict=True)}
    assert {"event-handler", "url-scheme"} <= rules
    assert any(gen.CANARY in leak for leak in _leaks(site))
    found = _template_markers(site)
    assert any(
        "raw/index.html" in where and {"7777", "LOOPLOOP"} <= set(words) for where, words in found.items()
    )


def test_the_checks_catch_raw_preprocessor_payloads(sites: Sites) -> None:
    """Control: critic, includes, macros with [[ ]] delimiters and the site hook all act on a page of the site
    itself, so the checks below could see them act on ours."""
    site = sites.site("control-preprocessors")
    assert any(gen.CANARY in leak for leak in _leaks(site))  # the hook's @@include@@ and {!.env!}
    raw = (site / "raw" / "index.html").read_text(encoding="utf-8")
    assert "7777" in raw
    assert "LOOPLOOP" in raw
    assert 'class="critic"' in raw


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_no_critic_mark_is_applied(sites: Sites, config: str) -> None:
    """Critic marks in card text ({-- in one field, --} in another) would delete whole parts of a page."""
    marked = [path for path, text in html_pages(sites.site(config)).items() if 'class="critic' in text]
    assert marked == []


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_every_skill_section_survives(sites: Sites, config: str, expected: tuple[set[str], Catalog]) -> None:
    """Each skill of each card has its section, with its heading and description, on its agent's page."""
    from a2a_docgen.render.exports import agent_paths

    pages = html_pages(sites.site(config))
    for paths in agent_paths(expected[1]):
        text = pages[html_path(paths.page_path)]
        for anchor in paths.skill_anchors:
            assert f'id="{anchor}"' in text, f"{paths.page_path}: the section of {anchor} is missing"


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_exactly_the_expected_pages(sites: Sites, config: str, expected: tuple[set[str], Catalog]) -> None:
    pages, catalog = expected
    site = sites.site(config)
    made = set(html_pages(site)) - {"404.html"}
    assert made == pages
    agent_pages = {p for p in made if p.startswith("agents/")}
    assert len(agent_pages) == len(catalog.cards)
    loaded = {card.source.relpath for card in catalog.cards}
    families = {f"{family}.json" for family in gen.FAMILY_PAYLOADS} | {"09-type-confusion.json"}
    assert families <= loaded, "every family card should be documented (with diagnostics)"
    for path in site.rglob("*"):
        assert path.resolve().is_relative_to(site.resolve()), path


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_nothing_is_written_outside_the_site(sites: Sites, config: str) -> None:
    prefix = f"projects/{config}/"
    before = {
        path.removeprefix(prefix): data for path, data in sites.before.items() if path.startswith(prefix)
    }
    assert sites.after[config] == before
    assert sorted(p.name for p in (sites.root / "projects").iterdir()) == sorted(ALL_CONFIGS)
    assert {p.name for p in sites.root.iterdir()} <= {"benign", "control", "example-site", "projects"}
    assert not Path("/tmp/escaped").exists()


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_malformed_files_are_listed_on_the_excluded_page(
    sites: Sites, config: str, expected: tuple[set[str], Catalog]
) -> None:
    _, catalog = expected
    excluded = {Path(p).name for p in catalog.excluded}
    assert set(gen.MUST_BE_EXCLUDED) <= excluded
    site = sites.site(config)
    page = site / "excluded" / "index.html"
    assert page.is_file()
    listed = page_text(page.read_text(encoding="utf-8"), content_only=True)
    for name in sorted(excluded):
        assert name in listed, f"{name} is not listed on excluded/"


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_hostile_text_is_shown_as_text_with_one_title_per_page(
    sites: Sites, config: str, expected: tuple[set[str], Catalog]
) -> None:
    from a2a_docgen.render.exports import agent_paths

    pages = html_pages(sites.site(config))
    for path, text in pages.items():
        if path.startswith("agents/"):
            assert text.count("<h1") == 1, f"{path}: card text made a second <h1>"
    raw_html_card = next(a for a in agent_paths(expected[1]) if a.card.source.relpath == "01-raw-html.json")
    visible = page_text(pages[html_path(raw_html_card.page_path)], content_only=True)
    for payload in ("<script>alert('raw')</script>", "<img src=x onerror=alert('img')>"):
        assert payload in visible


def _catalogue_shapes(site: Path) -> dict[Shape, str]:
    """Each kind of element in the content of agent and tag pages, with one page where it occurs."""
    shapes: dict[Shape, str] = {}
    for relpath, text in html_pages(site).items():
        if relpath.startswith(("agents/", "tags/")):
            for shape in content_shapes(text):
                shapes.setdefault(shape, relpath)
    return shapes


@pytest.mark.parametrize("config", list(CONFIGS))
def test_hostile_cards_make_no_structure_that_ordinary_cards_do_not(sites: Sites, config: str) -> None:
    """No admonition, tab, badge, footnote, list, heading level or attribute that card text asked for."""
    ordinary = _catalogue_shapes(sites.site(f"benign-{config}"))
    assert ("table", "", ()) in ordinary  # the benign twin was rendered
    hostile = _catalogue_shapes(sites.site(config))
    extra = {shape: page for shape, page in hostile.items() if shape not in ordinary}
    assert extra == {}
