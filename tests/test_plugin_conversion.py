"""The plugin converts each page once: one conversion pass over the final (prefixed) pages, one HTML cache.

Counted on real MkDocs builds, with and without a site's own home page (which puts the catalogue under a
prefix), rendered in this process and by forked workers, on a build and on ``mkdocs serve``'s rebuilds (one
plugin instance, a configuration loaded again each time, as serve does). And what a build holds while it writes
the pages: one page's content at a time, and, on a plain build, no page's HTML once the page is written.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin
from mkdocs.structure.pages import Page

from a2a_docgen.history import read as history_read
from a2a_docgen.html import HtmlPage, Theme
from a2a_docgen.site.plugin import A2ADocgenPlugin, cache
from a2a_docgen.site.plugin.kept import KEPT_TEMPLATE
from a2a_docgen.site.plugin.state import Build, ServeCaches
from tests.support.history_repo import story_repo

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from synthetic import write_catalogue

AGENTS = 52
"""Enough agent pages for two conversion workers (``render.parallel.MIN_PAGES_PER_WORKER`` each)."""

Counter = Callable[[], int]


@pytest.fixture
def conversions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Counter:
    """The number of pages converted since the last call, counted in this process and in forked workers (each
    conversion appends one byte to a file)."""
    tally = tmp_path / "conversions"
    tally.write_bytes(b"")
    real = cache.to_html
    seen = 0

    def counted(markdown: str, **options: Any) -> HtmlPage:
        fd = os.open(tally, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, b".")
        finally:
            os.close(fd)
        return real(markdown, **options)

    monkeypatch.setattr(cache, "to_html", counted)

    def since_last() -> int:
        nonlocal seen
        total = tally.stat().st_size
        count, seen = total - seen, total
        return count

    return since_last


def _project(tmp_path: Path, *, own_home: bool, jobs: int) -> Path:
    write_catalogue(tmp_path / "cards", AGENTS, 1)
    docs = tmp_path / "docs"
    docs.mkdir()
    if own_home:
        (docs / "index.md").write_text("# Our site\n", encoding="utf-8")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(
        yaml.safe_dump(
            {
                "site_name": "T",
                "docs_dir": "docs",
                "plugins": [{"a2a-docgen": {"cards": "cards", "search_index": "off", "jobs": jobs}}],
            }
        ),
        encoding="utf-8",
    )
    return config_file


@pytest.fixture(autouse=True)
def fresh_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin instance of this test's own: MkDocs keeps the one it made for every configuration loaded in the
    process after it (a plugin with ``on_startup``), so another test's cache would be reused here."""
    option = dict(MkDocsConfig._schema)["plugins"]
    monkeypatch.setattr(option, "plugin_cache", {})


@pytest.fixture(autouse=True)
def ended(monkeypatch: pytest.MonkeyPatch) -> list[Build]:
    """This test's builds, each as it was when it ended (the plugin lets go of it then)."""
    builds: list[Build] = []
    real = A2ADocgenPlugin._end_build

    def recording(self: A2ADocgenPlugin, *, failed: bool) -> None:
        if self.build is not None:
            builds.append(self.build)
        real(self, failed=failed)

    monkeypatch.setattr(A2ADocgenPlugin, "_end_build", recording)
    return builds


def _caches(plugin: A2ADocgenPlugin) -> ServeCaches:
    assert plugin.serve_caches is not None
    return plugin.serve_caches


def _serve_build(config_file: Path, site: Path) -> A2ADocgenPlugin:
    config = load_config(config_file=str(config_file), site_dir=str(site))
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    plugin = config.plugins["a2a-docgen"]
    assert isinstance(plugin, A2ADocgenPlugin)
    _caches(plugin).search_index.wait()  # made after the build returned
    return plugin


def _edit_one_card(cards: Path) -> None:
    card = sorted(cards.glob("*.json"))[0]
    data = json.loads(card.read_text(encoding="utf-8"))
    data["description"] = "Edited while serving."
    card.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("own_home", "jobs"), [(False, 1), (True, 2)], ids=["root-one-process", "prefix-workers"]
)
def test_each_page_is_converted_once_on_a_build_and_on_every_serve_rebuild(
    tmp_path: Path, conversions: Counter, ended: list[Build], own_home: bool, jobs: int
) -> None:
    config_file = _project(tmp_path, own_home=own_home, jobs=jobs)
    site = tmp_path / "site"

    plugin = _serve_build(config_file, site)
    assert plugin.build is None, "let go of at its end"
    pages = dict(ended[-1].site.pages)
    assert len(pages) > AGENTS
    assert all(path.startswith("catalogue/") for path in pages) is own_home
    assert _caches(plugin).html.paths == set(pages), "the HTML is keyed by the final paths"
    assert conversions() == len(pages)

    assert _serve_build(config_file, site) is plugin
    assert conversions() == 0, "nothing changed: nothing is converted again"

    _edit_one_card(tmp_path / "cards")
    assert _serve_build(config_file, site) is plugin
    changed = [path for path, text in ended[-1].site.pages.items() if pages.get(path) != text]
    assert 1 <= len(changed) < len(pages) // 2
    assert conversions() == len(changed)
    assert any(b"Edited while serving." in p.read_bytes() for p in site.rglob("agents/*/index.html"))


def test_a_serve_rebuild_compiles_only_the_theme_templates_that_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import jinja2

    compiled: list[str] = []
    real = jinja2.Environment.compile

    def counting(
        self: jinja2.Environment, source: Any, name: str | None = None, *args: Any, **kw: Any
    ) -> Any:
        if name is not None and name.endswith(".html") and name != KEPT_TEMPLATE:  # ours, not the theme's
            compiled.append(name)
        return real(self, source, name, *args, **kw)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    config_file = _project(tmp_path, own_home=False, jobs=1)
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    main = overrides / "main.html"
    main.write_text('{% extends "base.html" %}{% block footer %}marker-one{% endblock %}', encoding="utf-8")
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    config["theme"] = {"name": "mkdocs", "custom_dir": "overrides"}
    config_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    site = tmp_path / "site"

    _serve_build(config_file, site)
    assert "main.html" in compiled
    compiled.clear()
    _serve_build(config_file, site)
    assert compiled == [], "nothing changed: no theme template is compiled again"
    assert b"marker-one" in (site / "index.html").read_bytes()

    main.write_text('{% extends "base.html" %}{% block footer %}marker-two{% endblock %}', encoding="utf-8")
    _serve_build(config_file, site)
    assert compiled == ["main.html"]
    assert b"marker-two" in (site / "index.html").read_bytes()


def _tree(site: Path) -> dict[str, bytes]:
    """Every file of a built site (the gzip'd sitemap aside: its header holds the time it was written)."""
    return {
        str(path.relative_to(site)): path.read_bytes()
        for path in sorted(site.rglob("*"))
        if path.is_file() and path.name != "sitemap.xml.gz"
    }


def _material(config_file: Path, **plugin: Any) -> None:
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    config["theme"] = {"name": "material", "features": ["content.tabs.link"]}
    config["plugins"] = ["search", {"a2a-docgen": {**config["plugins"][0]["a2a-docgen"], **plugin}}]
    config_file.write_text(yaml.safe_dump(config), encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("own_home", [False, True], ids=["root", "prefix"])
def test_a_serve_rebuild_writes_unchanged_pages_back_and_equals_a_fresh_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ended: list[Build], own_home: bool
) -> None:
    """After one card edit under serve, the pages whose HTML is unchanged are written back from the last build
    (not templated again), and the site is byte for byte a fresh build of the edited cards."""
    config_file = _project(tmp_path, own_home=own_home, jobs=1)
    _material(config_file)
    site = tmp_path / "site"
    plugin = _serve_build(config_file, site)
    assert _caches(plugin).kept.used == {}, "a first build makes every page"
    _edit_one_card(tmp_path / "cards")
    plugin = _serve_build(config_file, site)
    pages = ended[-1].site.pages
    kept = set(_caches(plugin).kept.used)
    assert len(kept) > len(pages) // 2
    edited = [p for p in pages if "Edited while serving." in pages[p]]
    assert edited
    assert not kept & set(edited)

    monkeypatch.setattr(dict(MkDocsConfig._schema)["plugins"], "plugin_cache", {})
    fresh = load_config(config_file=str(config_file), site_dir=str(tmp_path / "fresh"))
    fresh.plugins.on_startup(command="build", dirty=False)
    build(fresh)
    fresh_plugin = fresh.plugins["a2a-docgen"]
    assert isinstance(fresh_plugin, A2ADocgenPlugin)
    assert fresh_plugin.serve_caches is None, "a plain build keeps nothing for a next one"
    assert _tree(site) == _tree(tmp_path / "fresh")


def test_a_serve_rebuild_after_a_card_edit_reads_no_history_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under serve, the history read at ``HEAD`` is kept in the serve caches: a rebuild after a card edit
    (``HEAD`` unchanged) takes it and reads no git log."""
    repo, _ = story_repo(tmp_path / "repo")
    monkeypatch.setenv("A2A_DOCGEN_HISTORY_CACHE", "off")  # no snapshot file stands in for what is kept
    (repo.root / "docs").mkdir()
    config_file = repo.root / "mkdocs.yml"
    config_file.write_text(
        yaml.safe_dump(
            {
                "site_name": "T",
                "docs_dir": "docs",
                "plugins": [{"a2a-docgen": {"cards": "cards", "search_index": "off", "jobs": 1}}],
            }
        ),
        encoding="utf-8",
    )
    site = tmp_path / "site"
    plugin = _serve_build(config_file, site)
    assert len(_caches(plugin).history.histories) == 1
    _edit_one_card(repo.cards)
    monkeypatch.setattr(history_read, "read_log", lambda *a, **k: pytest.fail("the history was read again"))
    _serve_build(config_file, site)
    assert any(b"Edited while serving." in p.read_bytes() for p in site.rglob("agents/*/index.html"))
    assert list(site.glob("agents/*/history/index.html"))


class _PagePlugin(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
    """A site's plugin with a page hook of its own: a kept page would skip it."""

    def on_post_page(self, output: str, /, **kwargs: Any) -> str:
        return output.replace("</body>", "<!-- seen -->\n</body>")


@pytest.mark.slow
def test_a_site_plugin_with_page_hooks_turns_keeping_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ended: list[Build]
) -> None:
    config_file = _project(tmp_path, own_home=False, jobs=1)
    _material(config_file)
    site = tmp_path / "site"
    config = load_config(config_file=str(config_file), site_dir=str(site))
    config.plugins["page-plugin"] = _PagePlugin()
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    plugin = config.plugins["a2a-docgen"]
    assert isinstance(plugin, A2ADocgenPlugin)
    assert not ended[-1].only_known
    config = load_config(config_file=str(config_file), site_dir=str(site))
    config.plugins["page-plugin"] = _PagePlugin()
    build(config)
    assert _caches(plugin).kept.used == {}
    pages = list(site.rglob("agents/*/index.html"))
    assert pages
    assert all(p.read_text(encoding="utf-8").count("<!-- seen -->") == 1 for p in pages)


def _our_pages(build: Build) -> list[Page]:
    assert build.files is not None
    pages = build.site.pages
    return [f.page for f in build.files.documentation_pages() if f.src_uri in pages and f.page is not None]


def _live_html_pages() -> int:
    """The converted pages that anything in this process still holds (``HtmlPage`` has no reference cycle,
    so one nothing holds is gone)."""
    return sum(1 for o in gc.get_objects() if isinstance(o, HtmlPage))


@pytest.mark.parametrize("jobs", [1, 2], ids=["one-process", "workers"])
def test_a_build_holds_one_page_content_at_a_time_and_lets_go_of_each_page_once_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ended: list[Build], jobs: int
) -> None:
    """MkDocs reads every page before it writes any: a page's content is made only while it is written and let
    go of after, and a plain build lets go of the page's HTML too, so the memory a build needs does not hold
    every page's HTML twice (or at all, for the pages written)."""
    config_file = _project(tmp_path, own_home=False, jobs=jobs)
    _material(config_file)  # Material and its search: plugins whose page hooks are known
    real = A2ADocgenPlugin.on_post_page
    seen: list[tuple[int, int | None, int]] = []
    written: set[str] = set()

    def observed(self: A2ADocgenPlugin, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        assert self.build is not None
        ours = _our_pages(self.build)
        held = sum(1 for p in ours if p.content)
        output = real(self, output, page=page, config=config)
        written.add(page.file.src_uri)
        left = len(ours) - len(written)
        # Counting live pages walks every object of the process: at every 8th page and the last two.
        live = _live_html_pages() if len(written) % 8 == 1 or left < 2 else None
        seen.append((held, live, left))
        return output

    monkeypatch.setattr(A2ADocgenPlugin, "on_post_page", observed)
    config = load_config(config_file=str(config_file), site_dir=str(tmp_path / "site"))
    config.plugins.on_startup(command="build", dirty=False)
    gc.collect()
    before = _live_html_pages()  # another test's plugin may still hold its pages
    build(config)
    plugin = config.plugins["a2a-docgen"]
    assert isinstance(plugin, A2ADocgenPlugin)
    (ours,) = ended
    assert len(seen) == len(ours.site.pages) > AGENTS
    assert {held for held, _, _ in seen} == {1}, "only the page being written has its content"
    counted = [(live, left) for _, live, left in seen if live is not None]
    assert len(counted) >= 8
    # Held: the pages not written yet, less the late ones not converted (or not received) yet.
    assert all(live - before <= left for live, left in counted), "a written page's HTML is let go of"
    assert counted[-1][0] - before <= 1
    assert plugin.build is None
    assert plugin.serve_caches is None, "a plain build keeps no cache: no HTML, views or Markdown"
    assert ours.html == {}
    assert ours.made == {}
    assert all(not p.content for p in _our_pages(ours))


class _ContentPlugin(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
    """A site's plugin that reads every page's content as MkDocs reads the pages."""

    def __init__(self) -> None:
        super().__init__()
        self.lengths: dict[str, int] = {}

    def on_page_content(self, html: str, /, *, page: Page, **kwargs: Any) -> str:
        self.lengths[page.file.src_uri] = len(html)
        return html


def test_a_site_plugin_with_page_hooks_sees_our_content_as_mkdocs_reads_the_pages(
    tmp_path: Path, ended: list[Build]
) -> None:
    config_file = _project(tmp_path, own_home=False, jobs=1)
    config = load_config(config_file=str(config_file), site_dir=str(tmp_path / "site"))
    reader = _ContentPlugin()
    config.plugins["content-plugin"] = reader
    build(config)
    pages = ended[-1].site.pages
    assert set(reader.lengths) >= set(pages)
    assert all(reader.lengths[path] > 0 for path in pages)


@pytest.mark.slow
def test_a_serve_rebuild_keeps_the_index_copies_of_unchanged_pages_and_pagefind_reads_a_fresh_builds(
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    ended: list[Build],
) -> None:
    """Under serve, the copies Pagefind reads are kept between builds for the pages written back unchanged;
    what Pagefind reads after an edit and a removed card is what a fresh build gives it, file for file."""
    from a2a_docgen.site import pagefind
    from a2a_docgen.site.plugin.search import IndexCopies

    if pagefind.find_pagefind() is None:
        pytest.skip("Pagefind is not installed (pip install 'a2a-docgen[search]')")
    read: list[dict[str, bytes]] = []
    written: list[str] = []

    def reading(source: Path, **options: Any) -> pagefind.SearchIndex:
        read.append(_tree(source))
        return pagefind.SearchIndex(source, len(read[-1]), "")

    real_add = IndexCopies.add

    def counted(self: IndexCopies, path: str, output: str, content: str) -> None:
        written.append(path)
        real_add(self, path, output, content)

    monkeypatch.setattr(pagefind, "build_search_index", reading)
    monkeypatch.setattr(IndexCopies, "add", counted)
    config_file = _project(tmp_path, own_home=True, jobs=1)
    _material(config_file, search_index="pagefind")
    site = tmp_path / "site"
    plugin = _serve_build(config_file, site)
    first = len(written)
    assert first > AGENTS // 2
    _edit_one_card(tmp_path / "cards")
    written.clear()
    plugin = _serve_build(config_file, site)
    assert 1 <= len(written) < first // 2, "only the edited agent's copy is written again"
    edited = read[-1]
    assert edited != read[-2]
    edited_project = tmp_path_factory.mktemp("edited")
    shutil.copytree(tmp_path, edited_project, ignore=shutil.ignore_patterns("site"), dirs_exist_ok=True)
    sorted((tmp_path / "cards").glob("*.json"))[-1].unlink()  # the file list changes: no page is kept
    plugin = _serve_build(config_file, site)
    removed = read[-1]
    assert len(removed) == first - 1, "the removed agent's copy is gone"
    copies = _caches(plugin).index_copies.directory
    assert copies is not None
    plugin.on_shutdown()
    assert not copies.exists()

    for project, expected in ((edited_project, edited), (tmp_path, removed)):
        monkeypatch.setattr(dict(MkDocsConfig._schema)["plugins"], "plugin_cache", {})
        fresh = load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(project / "fresh"))
        fresh.plugins.on_startup(command="build", dirty=False)
        build(fresh)
        assert read[-1] == expected, "Pagefind reads what a fresh build gives it"
        assert ended[-1].index_copies.directory is None, "a plain build leaves no copies"


def test_under_serve_the_search_index_is_made_after_the_build_returns_and_waited_for_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Under serve the browser reloads without waiting for Pagefind: the build returns while the index is being
    made; the next build starts its work only once it is done (two never run at once, and the copies it reads
    do not change under it); the server's end waits for it; a failure is logged, the build stands."""
    from a2a_docgen.errors import A2ADocgenError
    from a2a_docgen.site import pagefind

    if pagefind.find_pagefind() is None:
        pytest.skip("Pagefind is not installed (pip install 'a2a-docgen[search]')")
    events: list[str] = []
    release = threading.Event()

    def indexing(source: Path, **options: Any) -> pagefind.SearchIndex:
        events.append("index started")
        release.wait(timeout=60)
        events.append("index done")
        if len(events) > 4:
            raise A2ADocgenError("Pagefind failed (exit 1)")
        return pagefind.SearchIndex(source, 0, "")

    real_render = A2ADocgenPlugin._render

    def rendering(self: A2ADocgenPlugin, *args: Any, **kwargs: Any) -> Any:
        events.append("render")
        return real_render(self, *args, **kwargs)

    monkeypatch.setattr(pagefind, "build_search_index", indexing)
    monkeypatch.setattr(A2ADocgenPlugin, "_render", rendering)
    config_file = _project(tmp_path, own_home=False, jobs=1)
    _material(config_file, search_index="pagefind")
    config = load_config(config_file=str(config_file), site_dir=str(tmp_path / "site"))
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    assert "index done" not in events, "the build returned before its index was made"
    plugin = config.plugins["a2a-docgen"]
    assert isinstance(plugin, A2ADocgenPlugin)

    _edit_one_card(tmp_path / "cards")
    threading.Timer(0.3, release.set).start()
    build(load_config(config_file=str(config_file), site_dir=str(tmp_path / "site")))
    assert events[:4] == ["render", "index started", "index done", "render"]
    plugin.on_shutdown()  # waits for the second index, which fails
    assert events[4:] == ["index started", "index done"]
    assert "a2a-docgen: search_index: Pagefind failed (exit 1)" in caplog.text


@pytest.mark.parametrize("jobs", [1, 2])
def test_work_given_to_the_conversion_pass_runs_while_the_workers_convert(jobs: int) -> None:
    """The history's cache files are written while the pages convert (``meanwhile``): with workers, while they
    are alive; without, in this process; once each, and the HTML is the same as without the work."""
    import multiprocessing

    pages = {f"agents/a{n}/index.md": f"# Agent {n}\n\n- **Id:** `a{n}`\n" for n in range(60)}
    seen: list[int] = []

    def work() -> None:
        seen.append(len(multiprocessing.active_children()))

    html = cache.HtmlCache().convert(pages, Theme(), jobs=jobs, meanwhile=[work, work])
    alone = cache.HtmlCache().convert(pages, Theme(), jobs=1)
    assert html == alone
    assert list(html) == list(pages)
    assert seen == ([0, 0] if jobs == 1 else [2, 2])


@pytest.mark.parametrize("own_home", [False, True], ids=["root", "prefix"])
def test_pages_no_other_page_needs_convert_during_the_page_loop_and_the_site_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, conversions: Counter, ended: list[Build], own_home: bool
) -> None:
    """A plain build converts the pages that are in no navigation and no search (tag, list and history pages)
    while MkDocs writes the others, each once; the site is the one a build that converts every page first
    writes."""
    config_file = _project(tmp_path, own_home=own_home, jobs=2)
    _material(config_file)
    real = cache.HtmlCache.convert
    before_loop: list[int] = []

    def one_pass(self: cache.HtmlCache, *args: Any, **options: Any) -> dict[str, HtmlPage]:
        result = real(self, *args, **options)
        before_loop.append(conversions())  # the late pages' workers start after this
        return result

    monkeypatch.setattr(cache.HtmlCache, "convert", one_pass)
    sites = {}
    for late in (True, False):
        if not late:
            monkeypatch.setattr(A2ADocgenPlugin, "_late", lambda self, config, site, *, jobs: frozenset())
        site = tmp_path / f"site-{late}"
        config = load_config(config_file=str(config_file), site_dir=str(site))
        config.plugins.on_startup(command="build", dirty=False)
        build(config)
        plugin = config.plugins["a2a-docgen"]
        assert isinstance(plugin, A2ADocgenPlugin)
        pages = len(ended[-1].site.pages)
        assert before_loop[-1] + conversions() == pages, "each page converted once"
        if late:
            waited = pages - before_loop[-1]
            assert waited > 0
            assert waited == len(plugin._late(config, ended[-1].site, jobs=2))
        sites[late] = _tree(site)
    assert sites[True] == sites[False]


def test_a_failed_serve_build_leaves_nothing_half_made_for_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ended: list[Build]
) -> None:
    """A rebuild that fails after its pages were made (here: writing their Markdown) ends the build, and the
    next rebuild keeps none of what it made: every page is made again."""
    from mkdocs.exceptions import Abort, PluginError

    from a2a_docgen.site.plugin import hooks

    config_file = _project(tmp_path, own_home=False, jobs=1)
    _material(config_file)
    site = tmp_path / "site"
    plugin = _serve_build(config_file, site)
    _edit_one_card(tmp_path / "cards")

    def failing(path: str) -> None:
        raise PluginError("a2a-docgen: the disk is full")

    with monkeypatch.context() as patch:
        patch.setattr(hooks, "check_relative_path", failing)
        with pytest.raises(Abort):
            _serve_build(config_file, site)
    assert plugin.build is None
    assert len(ended) == 2
    assert ended[-1].html == {}
    assert ended[-1].made == {}
    _serve_build(config_file, site)
    assert _caches(plugin).kept.used == {}, "nothing of the failed build is written back"


def test_an_interrupted_build_ends_when_mkdocs_shuts_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ended: list[Build]
) -> None:
    """Ctrl-C while MkDocs writes the pages (no ``on_build_error`` for it): ``on_shutdown`` ends the build, its
    late pages' workers included."""
    import multiprocessing

    config_file = _project(tmp_path, own_home=False, jobs=2)
    _material(config_file)

    def interrupted(self: A2ADocgenPlugin, output: str, /, **kwargs: Any) -> str:
        assert self.build is not None
        assert self.build.late.running
        raise KeyboardInterrupt

    monkeypatch.setattr(A2ADocgenPlugin, "on_post_page", interrupted)
    config = load_config(config_file=str(config_file), site_dir=str(tmp_path / "site"))
    config.plugins.on_startup(command="build", dirty=False)
    with pytest.raises(KeyboardInterrupt):
        build(config)
    assert multiprocessing.active_children()
    config.plugins.on_shutdown()
    plugin = config.plugins["a2a-docgen"]
    assert isinstance(plugin, A2ADocgenPlugin)
    assert plugin.build is None
    assert len(ended) == 1
    assert multiprocessing.active_children() == []
