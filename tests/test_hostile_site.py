"""The hostile corpus, built by MkDocs through the plugin in three configurations, yields an inert site.

Configurations: the default theme; mkdocs-material with the usual extensions (snippets among them, with
canary files in the project); and the same plus the mkdocs-macros plugin. For each:
no finding from the static site checker, no canary file content, no Jinja evaluated, exactly the expected
pages and nothing written outside the site directory, malformed files listed on the excluded page.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.mkdocs_build import Build, build_projects, page_text, snapshot
from tests.support.site_checker import check_site

pytestmark = pytest.mark.slow

HOSTILE = Path(__file__).parent / "data" / "hostile"
ENV_CANARY = "ENV-CANARY-5b1e0c2a"
CONFIG_CANARY = "CONFIG-CANARY-90d4e7aa"


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_hostile", HOSTILE / "make_hostile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_hostile", module)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()

MATERIAL_EXTENSIONS = f"""
markdown_extensions:
  - abbr
  - admonition
  - attr_list
  - def_list
  - footnotes
  - md_in_html
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.highlight
  - pymdownx.inlinehilite
  - pymdownx.snippets
  - pymdownx.tabbed
  - pymdownx.tasklist
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
  - pymdownx.magiclink
  - pymdownx.mark
  - pymdownx.tilde
  - pymdownx.caret
  - pymdownx.keys
  - pymdownx.smartsymbols
  - pymdownx.arithmatex
extra:
  canary: {CONFIG_CANARY}
"""

MATERIAL_THEME = """
theme:
  name: material
  font: false
"""

CONFIGS = {
    "default": "plugins:\n  - search\n  - a2a-docgen:\n      cards: cards\n",
    "material-ext": MATERIAL_THEME
    + "plugins:\n  - search\n  - a2a-docgen:\n      cards: cards\n"
    + MATERIAL_EXTENSIONS,
    "material-macros": MATERIAL_THEME
    + "plugins:\n  - search\n  - macros\n  - a2a-docgen:\n      cards: cards\n"
    + MATERIAL_EXTENSIONS,
}

LEAK_MARKERS = (gen.CANARY, ENV_CANARY, CONFIG_CANARY, "root:x:0:0")


def make_project(root: Path, name: str) -> Path:
    """A project with the corpus in ``cards/``, an empty docs_dir and canary files beside mkdocs.yml."""
    project = root / name
    shutil.copytree(HOSTILE, project / "cards", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (project / "docs").mkdir()
    (project / "secret.txt").write_text(f"{gen.CANARY} secret.txt\n", encoding="utf-8")
    (project / ".env").write_text(f"API_TOKEN={gen.CANARY}-env\n", encoding="utf-8")
    (project / "mkdocs.yml").write_text(
        f"# {CONFIG_CANARY}\nsite_name: Hostile catalogue\ndocs_dir: docs\n{CONFIGS[name]}", encoding="utf-8"
    )
    return project


class Built:
    """The three builds, with the tree of the whole work area before and after."""

    def __init__(self, root: Path) -> None:
        self.root = root
        projects = {name: make_project(root, name) for name in CONFIGS}
        self.before = snapshot(root)
        self.builds: dict[str, Build] = build_projects(projects, env={"A2A_ENV_CANARY": ENV_CANARY})
        self.after = {
            name: snapshot(build.project, exclude=build.site) for name, build in self.builds.items()
        }

    def site(self, name: str) -> Path:
        build = self.builds[name]
        assert build.returncode == 0, f"{name} build failed:\n{build.output[-4000:]}"
        return build.site


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return Built(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="module")
def expected() -> tuple[set[str], object]:
    """The pages the renderer makes for the corpus (as built HTML paths), and the catalogue."""
    from a2a_docgen.load import load_catalog
    from a2a_docgen.render import render_catalog

    catalog = load_catalog([HOSTILE])
    rendered = render_catalog(catalog)
    return {html_path(page) for page in rendered.pages}, catalog


def html_path(markdown_path: str) -> str:
    """Where MkDocs (use_directory_urls) writes a page."""
    stem = markdown_path.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return stem + ".html"
    return stem + "/index.html"


def html_pages(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))
    }


def test_corpus_matches_its_generator() -> None:
    for relpath, data in gen.outputs().items():
        assert (HOSTILE / relpath).read_bytes() == data, f"{relpath}: run tests/data/hostile/make_hostile.py"
    on_disk = {p.relative_to(HOSTILE).as_posix() for p in HOSTILE.rglob("*.json")}
    assert on_disk == set(gen.outputs())


@pytest.mark.parametrize("config", list(CONFIGS))
def test_build_succeeds_within_budget(built: Built, config: str) -> None:
    site = built.site(config)
    assert (site / "index.html").is_file()
    assert built.builds[config].seconds < 60


@pytest.mark.parametrize("config", list(CONFIGS))
def test_site_checker_finds_nothing(built: Built, config: str) -> None:
    violations = check_site(built.site(config), strict=True)
    assert violations == [], "\n".join(map(str, violations[:40]))


@pytest.mark.parametrize("config", list(CONFIGS))
def test_no_file_or_environment_content_is_published(built: Built, config: str) -> None:
    site = built.site(config)
    for path in sorted(site.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            for marker in LEAK_MARKERS:
                assert marker.encode() not in data, f"{marker} in {path.relative_to(site)}"


@pytest.mark.parametrize("config", list(CONFIGS))
def test_no_template_expression_is_evaluated(built: Built, config: str) -> None:
    site = built.site(config)
    for relpath, text in html_pages(site).items():
        visible = page_text(text)
        for marker in gen.JINJA_MARKERS:
            assert marker not in visible, f"{marker} on {relpath}"
    index = site / "search" / "search_index.json"
    if index.is_file():
        for marker in gen.JINJA_MARKERS:
            assert marker not in index.read_text(encoding="utf-8"), f"{marker} in the search index"


@pytest.mark.parametrize("config", list(CONFIGS))
def test_exactly_the_expected_pages(built: Built, config: str, expected: tuple[set[str], object]) -> None:
    pages, catalog = expected
    site = built.site(config)
    made = set(html_pages(site)) - {"404.html"}
    assert made == pages
    agent_pages = {p for p in made if p.startswith("agents/")}
    assert len(agent_pages) == len(catalog.cards)  # type: ignore[attr-defined]
    loaded = {card.source.relpath for card in catalog.cards}  # type: ignore[attr-defined]
    families = {f"{family}.json" for family in gen.FAMILY_PAYLOADS} | {"09-type-confusion.json"}
    assert families <= loaded, "every family card should be documented (with diagnostics)"
    for path in site.rglob("*"):
        assert path.resolve().is_relative_to(site.resolve()), path


@pytest.mark.parametrize("config", list(CONFIGS))
def test_nothing_is_written_outside_the_site(built: Built, config: str) -> None:
    project = built.builds[config].project
    before = {
        path.removeprefix(f"{config}/"): data
        for path, data in built.before.items()
        if path.startswith(f"{config}/")
    }
    assert built.after[config] == before
    stray = [p for p in built.root.iterdir() if p.name not in CONFIGS]
    assert stray == []
    assert not Path("/tmp/escaped").exists()
    assert project.parent == built.root


@pytest.mark.parametrize("config", list(CONFIGS))
def test_malformed_files_are_listed_on_the_excluded_page(
    built: Built, config: str, expected: tuple[set[str], object]
) -> None:
    _, catalog = expected
    excluded = {Path(p).name for p in catalog.excluded}  # type: ignore[attr-defined]
    assert set(gen.MUST_BE_EXCLUDED) <= excluded
    site = built.site(config)
    page = site / "excluded" / "index.html"
    assert page.is_file()
    listed = page_text(page.read_text(encoding="utf-8"), content_only=True)
    for name in sorted(excluded):
        assert name in listed, f"{name} is not listed on excluded/"


@pytest.mark.parametrize("config", list(CONFIGS))
def test_hostile_text_is_shown_as_text_with_one_title_per_page(built: Built, config: str) -> None:
    site = built.site(config)
    for relpath, text in html_pages(site).items():
        if relpath.startswith("agents/"):
            content = text.split("<h1", 2)
            assert len(content) <= 3, f"{relpath}: more than one <h1> besides the theme's"
    raw_html_pages = [
        text
        for relpath, text in html_pages(site).items()
        if relpath.startswith("agents/") and "onerror=alert" in page_text(text)
    ]
    assert raw_html_pages, "the raw-HTML payloads should be on an agent page, as visible text"
    visible = page_text(raw_html_pages[0], content_only=True)
    assert "<script>alert('raw')</script>" in visible
