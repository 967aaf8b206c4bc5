"""The MkDocs plugin, and whole MkDocs builds of the example catalogue with both themes.

The plugin tests build small sites in-process with a renderer replaced by a hand-made ``RenderedSite``, so
they check the plugin alone. The ``slow`` tests build the repository's own example site end to end (as
``mkdocs build --strict`` does) and look at the HTML.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from a2a_docgen.render.parallel import default_jobs
from a2a_docgen.render.site import NavEntry, RenderedSite
from a2a_docgen.site.plugin import A2ADocgenPlugin
from a2a_docgen.site.writer import MANIFEST_NAME
from tests.conftest import REPO
from tests.support.site_checker import check_site

CARD = {
    "name": "Tiny Agent",
    "description": "Says hello.",
    "supportedInterfaces": [
        {"url": "https://tiny.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ],
    "version": "1.0.0",
    "capabilities": {},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "hello", "name": "Hello", "description": "Greets.", "tags": ["greeting"]}],
}

FAKE_SITE = RenderedSite(
    pages={
        "index.md": "# Catalogue\n\n[Tiny](agents/tiny/index.md)\n",
        "agents/tiny/index.md": "---\nrender_macros: false\n---\n# Tiny Agent\n\n## __config\n\n## mkdocs search results\n\n[Home](../../index.md)\n",
    },
    files={"cards/tiny.json": b'{"name": "Tiny Agent"}\n'},
    nav=(NavEntry("Catalogue", "index.md"), NavEntry("Agents <b>", "agents/tiny/index.md")),
)


class Project:
    """A throwaway MkDocs project: mkdocs.yml, a docs dir and a cards dir."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.docs = root / "docs"
        self.docs.mkdir()
        (root / "cards").mkdir()
        (root / "cards" / "tiny.json").write_text(json.dumps(CARD))
        self.site = root / "site"

    def configure(self, **overrides: Any) -> Path:
        config: dict[str, Any] = {
            "site_name": "Test",
            "docs_dir": "docs",
            "site_dir": "site",
            "plugins": [{"a2a-docgen": {"cards": "cards"}}],
        }
        config.update(overrides)
        path = self.root / "mkdocs.yml"
        path.write_text(yaml.safe_dump(config))
        return path

    def build(self, *, strict: bool = True, **overrides: Any) -> None:
        config = load_config(config_file=str(self.configure(**overrides)), strict=strict)
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()

    def html(self, page: str) -> str:
        return (self.site / page).read_text(encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    monkeypatch.setattr("a2a_docgen.render.render_catalog", lambda catalog, **kw: FAKE_SITE, raising=False)
    return Project(tmp_path)


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(values["id"] or "")
        if tag == "a" and values.get("href"):
            self.hrefs.append(values["href"] or "")


def parse_html(text: str) -> _Ids:
    parser = _Ids()
    parser.feed(text)
    return parser


def test_rendered_pages_and_files_are_published(project: Project) -> None:
    project.build()
    assert "Tiny Agent" in project.html("agents/tiny/index.html")
    assert (project.site / "cards/tiny.json").read_bytes() == b'{"name": "Tiny Agent"}\n'


def test_page_markdown_is_published_next_to_its_html(project: Project) -> None:
    project.build()
    for path, text in FAKE_SITE.pages.items():
        assert (project.site / path).read_text(encoding="utf-8") == text


def test_pages_an_earlier_build_wrote_are_replaced(project: Project) -> None:
    (project.docs / "index.md").write_text("# An old committed copy\n")
    (project.docs / MANIFEST_NAME).write_text("index.md\n")
    (project.docs / "about.md").write_text("# About us\n")
    project.build(nav=[{"Home": "index.md"}, {"About": "about.md"}])
    assert "An old committed copy" not in project.html("index.html")
    assert "Catalogue" in project.html("index.html")
    assert "About us" in project.html("about/index.html")


def test_the_catalogue_goes_under_a_prefix_when_the_site_has_a_home_page(
    project: Project, caplog: pytest.LogCaptureFixture
) -> None:
    (project.docs / "index.md").write_text("# Our own home page {#ours}\n\n## Section\n")
    with caplog.at_level(logging.INFO):
        project.build(markdown_extensions=["attr_list", {"toc": {"permalink": True}}])
    home = parse_html(project.html("index.html"))
    assert "Our own home page" in project.html("index.html")
    assert {"ours", "section"} <= set(home.ids)  # the site's own heading ids, untouched
    assert "Tiny Agent" in project.html("catalogue/agents/tiny/index.html")
    assert any("goes under catalogue/" in r.getMessage() for r in caplog.records)


def test_a_page_of_the_site_is_never_replaced(project: Project, caplog: pytest.LogCaptureFixture) -> None:
    (project.docs / "agents/tiny").mkdir(parents=True)
    (project.docs / "agents/tiny/index.md").write_text("# A page of ours\n")
    with pytest.raises(Abort):
        project.build()
    message = next(r.getMessage() for r in caplog.records if "would replace" in r.getMessage())
    assert "agents/tiny/index.md" in message
    assert "prefix" in message


def test_stale_pages_of_an_earlier_build_are_not_published(project: Project) -> None:
    (project.docs / "agents/gone").mkdir(parents=True)
    (project.docs / "agents/gone/index.md").write_text("# Gone\n")
    (project.docs / "mine.md").write_text("# Mine\n")
    (project.docs / MANIFEST_NAME).write_text("agents/gone/index.md\nindex.md\n")
    project.build()
    assert not (project.site / "agents/gone").exists()
    assert (project.site / "mine/index.html").exists()


def test_our_heading_ids_cannot_clobber_the_theme_and_follow_the_permalink_option(project: Project) -> None:
    project.build(
        markdown_extensions=[{"toc": {"permalink": "#"}}],
        plugins=["search", {"a2a-docgen": {"cards": "cards"}}],
    )
    page = parse_html(project.html("agents/tiny/index.html"))
    assert "h-__config" in page.ids
    assert "h-mkdocs-search-results" in page.ids
    assert "__config" not in page.ids
    assert page.ids.count("mkdocs-search-results") == 1  # the theme's own element, once
    assert "#h-__config" in page.hrefs  # the permalink option is honoured


def test_our_pages_never_pass_through_the_sites_markdown_pipeline(project: Project) -> None:
    """A hook that rewrites page Markdown (any syntax of its own) sees nothing of our pages: their source is
    their front matter alone, and the title it might evaluate (as mkdocs-macros does) is set after it ran."""
    (project.root / "hook.py").write_text(
        "def on_page_markdown(markdown, page, config, files):\n"
        "    with open(config.config_file_path + '.seen', 'a') as seen:\n"
        "        seen.write(repr(markdown) + ' ' + repr(page.meta) + '\\n')\n"
        "    page.title = 'HOOKED TITLE'\n"
        "    return markdown + '\\n\\nHOOKED'\n"
    )
    (project.docs / "about.md").write_text("# About\n")
    project.build(hooks=["hook.py"], nav=[{"About": "about.md"}, {"Home": "index.md"}])
    seen = (project.root / "mkdocs.yml.seen").read_text().splitlines()
    assert sorted(seen) == sorted(["'' {'render_macros': False}", "'' {}", "'# About\\n' {}"])
    agent = project.html("agents/tiny/index.html")
    assert "<p>HOOKED</p>" in project.html("about/index.html")
    assert "<p>HOOKED</p>" not in agent
    assert "<title>Tiny Agent - Test</title>" in agent  # (the nav's titles are the site's, hooked or not)


def test_nav_comes_from_the_catalogue_when_the_user_has_none(project: Project) -> None:
    project.build()
    home = project.html("index.html")
    assert "Agents &lt;b&gt;" not in home  # the nav title cannot carry markup into the page
    assert "Agents ‹b›" in home


def test_user_nav_is_kept(project: Project) -> None:
    (project.docs / "about.md").write_text("# About us\n")
    project.build(nav=[{"About us": "about.md"}, {"Everything": "index.md"}])
    assert "Everything" in project.html("index.html")
    assert "Agents" not in project.html("about/index.html")


def test_nav_option_false_leaves_the_nav_alone(project: Project) -> None:
    project.build(plugins=[{"a2a-docgen": {"cards": "cards", "nav": False}}])
    assert "Agents ‹b›" not in project.html("index.html")


def test_card_diagnostics_are_info_by_default(project: Project, caplog: pytest.LogCaptureFixture) -> None:
    (project.root / "cards" / "tiny.json").write_text(json.dumps({**CARD, "version": 7}))
    with caplog.at_level(logging.INFO):
        project.build(strict=True)
    messages = [r for r in caplog.records if "tiny.json" in r.getMessage()]
    assert messages
    assert all(r.levelno == logging.INFO for r in messages)


def test_strict_option_fails_on_card_diagnostics(project: Project, caplog: pytest.LogCaptureFixture) -> None:
    (project.root / "cards" / "tiny.json").write_text(json.dumps({**CARD, "version": 7}))
    with pytest.raises(Abort):
        project.build(strict=False, plugins=[{"a2a-docgen": {"cards": "cards", "strict": True}}])
    assert any(r.levelno == logging.WARNING and "tiny.json" in r.getMessage() for r in caplog.records)
    assert any(r.levelno == logging.ERROR and "strict: " in r.getMessage() for r in caplog.records)


def test_cards_may_be_a_list_and_missing_paths_fail_clearly(
    project: Project, caplog: pytest.LogCaptureFixture
) -> None:
    project.build(plugins=[{"a2a-docgen": {"cards": ["cards", "cards/tiny.json"]}}])
    with pytest.raises(Abort):
        project.build(plugins=[{"a2a-docgen": {"cards": ["cards", "nowhere"]}}])
    assert any("nowhere: no such file or directory" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("options", [{}, {"cards": []}])
def test_missing_cards_option_is_a_config_error(
    project: Project, caplog: pytest.LogCaptureFixture, options: dict[str, Any]
) -> None:
    with pytest.raises(Abort):
        project.build(plugins=[{"a2a-docgen": options}])
    assert any("cards" in r.getMessage() and "required" in r.getMessage().lower() for r in caplog.records)


def test_jobs_option_reaches_the_renderer(
    project: Project, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[int] = []

    def render(catalog: object, **options: Any) -> RenderedSite:
        seen.append(options["jobs"])
        return FAKE_SITE

    monkeypatch.setattr("a2a_docgen.render.render_catalog", render)
    project.build(plugins=[{"a2a-docgen": {"cards": "cards", "jobs": 3}}])
    project.build()
    assert seen == [3, default_jobs()]
    with pytest.raises(Abort):
        project.build(plugins=[{"a2a-docgen": {"cards": "cards", "jobs": 0}}])
    assert any("jobs: expected a positive whole number" in r.getMessage() for r in caplog.records)


def test_prefix_puts_the_catalogue_in_a_directory(project: Project) -> None:
    (project.docs / "index.md").write_text("# Our own home page\n")
    (project.docs / "catalogue/agents/gone").mkdir(parents=True)
    (project.docs / "catalogue/agents/gone/index.md").write_text("# Gone\n")
    (project.docs / "catalogue" / MANIFEST_NAME).write_text("agents/gone/index.md\n")
    project.build(plugins=[{"a2a-docgen": {"cards": "cards", "prefix": "catalogue/"}}])
    assert "Our own home page" in project.html("index.html")
    assert "Tiny Agent" in project.html("catalogue/agents/tiny/index.html")
    assert not (project.site / "catalogue/agents/gone").exists()


def test_serve_watches_the_cards(project: Project) -> None:
    config = load_config(config_file=str(project.configure()))
    plugin = config.plugins["a2a-docgen"]
    assert isinstance(plugin, A2ADocgenPlugin)
    plugin.on_config(config)
    watched: list[str] = []

    class Server:
        def watch(self, path: str) -> None:
            watched.append(path)

    plugin.on_serve(Server(), config=config, builder=lambda: None)  # type: ignore[arg-type]
    assert [Path(p).resolve() for p in watched] == [(project.root / "cards").resolve()]


# --- the repository's example site, end to end -------------------------------------------------------


def build_example(tmp_path: Path, *, theme: str, site_url: str | None) -> Path:
    """Build the repository's mkdocs.yml (with ``theme`` and ``site_url``) into a temporary directory."""
    config_text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    config = yaml.safe_load(config_text)
    if theme == "mkdocs":
        config["theme"] = {"name": "mkdocs"}
    if site_url:
        config["site_url"] = site_url
    config["docs_dir"] = str(REPO / "site_src")
    config["site_dir"] = str(tmp_path / "site")
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "a2a-docgen" in plugin:
            plugin["a2a-docgen"]["cards"] = str(REPO / "examples" / "cards")
    path = tmp_path / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config))
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(path)],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return tmp_path / "site"


THEME_IDS = ("__config", "__search", "__drawer", "__toc", "mkdocs-search-results")


def resolves(site: Path, page: Path, href: str) -> bool:
    """A relative link from ``page`` names a file of ``site`` (directory URLs mean their index.html)."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", href) or href.startswith("#"):
        return True  # external, or an anchor on the same page
    target = (page.parent / href.split("#", maxsplit=1)[0]).resolve()
    if site.resolve() not in (target, *target.parents):
        return False
    return target.is_file() or (target / "index.html").is_file()


def agent_pages(site: Path) -> list[Path]:
    return sorted(p for p in (site / "agents").rglob("index.html"))


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["mkdocs", "material"])
@pytest.mark.parametrize("site_url", [None, "https://docs.example.org/teams/agents/"])
def test_example_site_builds_strictly(tmp_path: Path, theme: str, site_url: str | None) -> None:
    site = build_example(tmp_path, theme=theme, site_url=site_url)
    pages = agent_pages(site)
    assert len(pages) == len(list((REPO / "examples" / "cards").glob("*.json")))
    assert (site / "404.html").is_file()
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    if site_url:
        assert f"<loc>{site_url}agents/" in sitemap
        # 404.html is served at any depth, so MkDocs links it from the host root: under the sub-path here
        assert '"/teams/agents/' in (site / "404.html").read_text(encoding="utf-8")
    else:
        assert "<loc>" not in sitemap

    all_ids: set[str] = set()
    for page in pages:
        parsed = parse_html(page.read_text(encoding="utf-8"))
        all_ids.update(parsed.ids)
        for href in parsed.hrefs:
            # relative links only: nothing that leaves the sub-path by starting at the host root
            assert not href.startswith("/"), f"{page}: absolute href {href}"
            assert resolves(site, page, href), f"{page}: {href} leads to no file of the site"
        for theme_id in THEME_IDS:
            assert parsed.ids.count(theme_id) <= 1, f"{page}: a heading took the theme's id {theme_id}"
    assert any(i.startswith("skill-") for i in all_ids), "no skill anchor on any agent page"
    if theme == "mkdocs":
        # the built-in search shows titles as text: no character references left for readers to see
        index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
        titles = [doc["title"] for doc in index["docs"]]
        assert any(" › " in title for title in titles)  # "Agent › Skill"
        assert not [t for t in titles if re.search(r"&#?\w+;", t)]

    planner = next(p for p in pages if "harbour" in p.parent.name)
    text = planner.read_text(encoding="utf-8")
    code_blocks = re.findall(r"<pre[^>]*>.*?</pre>", text, flags=re.S)
    assert any("arriveBy" in block for block in code_blocks), "the JSON example is not a code block"
    violations = [
        v
        for v in check_site(site, strict=True)
        # the checker resolves root-relative paths against the site directory, not the sub-path
        if not (v.file == "404.html" and "does not name a file of the site" in v.message and site_url)
    ]
    assert violations == []


@pytest.mark.slow
def test_repository_site_builds_from_the_root(tmp_path: Path) -> None:
    """``mkdocs build --strict`` exactly as a contributor runs it (into a temporary site_dir)."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        check=False,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    site = tmp_path / "site"
    assert agent_pages(site)
    # The exports: catalog.json and llms.txt at the root, and every page llms.txt links to is published.
    catalog = json.loads((site / "catalog.json").read_text(encoding="utf-8"))
    assert {a["page"] for a in catalog["agents"]} == {
        f"{p.parent.relative_to(site).as_posix()}/" for p in agent_pages(site)
    }
    llms = (site / "llms.txt").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", llms)
    assert links
    assert all((site / link).is_file() for link in links), links


def test_every_plugin_option_is_documented() -> None:
    from a2a_docgen.site.plugin import A2ADocgenPluginConfig

    table = (REPO / "docs" / "plugin.md").read_text(encoding="utf-8")
    names = [name for name, _ in A2ADocgenPluginConfig._schema]
    assert names
    assert [n for n in names if f"| `{n}` |" not in table] == []


def test_no_published_file_names_the_build_machines_directories(tmp_path: Path) -> None:
    """Card files are named relative to the cards directory, even one that is excluded, in pages and search."""
    project = Project(tmp_path)
    (project.root / "cards" / "broken.json").write_text('{"name": ')
    project.build(strict=False, plugins=["search", {"a2a-docgen": {"cards": "cards"}}])
    root = str(project.root).encode()
    leaks = [p for p in project.site.rglob("*") if p.is_file() and root in p.read_bytes()]
    assert leaks == []
    assert "broken.json" in project.html("excluded/index.html")
