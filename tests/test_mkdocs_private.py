"""Each touch of MkDocs' and mkdocs-material's private names and internals (``site/plugin/mkdocs_private.py``),
checked against the versions the project pins: a release that changes one fails here, by name, before a build
goes subtly wrong."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import jinja2
import pytest
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files, get_files
from mkdocs.structure.pages import Page

from a2a_docgen.html import Heading
from a2a_docgen.site.plugin import mkdocs_private
from a2a_docgen.site.plugin.cache import TemplateCodeCache


@pytest.fixture
def site(tmp_path: Path) -> tuple[MkDocsConfig, Files]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (docs / "other.md").write_text("# Other\n\n## Part {#part}\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: T\ntheme: mkdocs\n", encoding="utf-8")
    config = load_config(config_file=str(tmp_path / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    return config, get_files(config)


def _page(files: Files, config: MkDocsConfig, path: str = "index.md", title: str | None = None) -> Page:
    file = files.get_file_from_path(path)
    assert file is not None
    return Page(title, file, config)


def test_seal_mkdocs_renders_a_page_by_calling_its_render(site: tuple[MkDocsConfig, Files]) -> None:
    from mkdocs.commands import build

    config, files = site
    assert "page.render(config, files)" in inspect.getsource(build._populate_page)
    page = _page(files, config)

    def render(config: MkDocsConfig, files: Files) -> None:
        page.content = "<p>ours</p>"

    mkdocs_private.seal(page, render)
    build._populate_page(page, config, files)
    assert page.content == "<p>ours</p>"


def test_title_set_is_a_title_given_before_the_markdown_is_read(site: tuple[MkDocsConfig, Files]) -> None:
    config, files = site
    assert not mkdocs_private.title_set(_page(files, config))
    assert mkdocs_private.title_set(_page(files, config, title="From the nav"))
    page = _page(files, config)
    page.title = "Set by a plugin"
    assert mkdocs_private.title_set(page)


def test_resolve_links_is_mkdocs_own_link_rewriting(
    site: tuple[MkDocsConfig, Files], caplog: pytest.LogCaptureFixture
) -> None:
    config, files = site
    urls, anchors = mkdocs_private.resolve_links(
        ["other.md#part", "other.md", "missing.md"], _page(files, config), files, config
    )
    assert urls["other.md#part"] == "other/#part"
    assert urls["other.md"] == "other/"
    assert urls["missing.md"] == "missing.md"
    assert "missing.md" in caplog.text, "MkDocs says a link is broken as it resolves it"
    other = files.get_file_from_path("other.md")
    assert anchors == {other: {"part": "other.md#part"}}


def test_toc_is_mkdocs_table_of_contents() -> None:
    contents = mkdocs_private.toc(
        [Heading(1, "top", "A <b>", (Heading(2, "sub", "Sub"),)), Heading(1, "second", "Second")]
    )
    first, second = contents.items
    assert (first.title, first.id, first.level, first.url) == ("A &lt;b&gt;", "top", 1, "#top")
    assert [(child.title, child.id, child.level) for child in first.children] == [("Sub", "sub", 2)]
    assert (second.title, second.children) == ("Second", [])


def _records(page: Page) -> list[mkdocs_private.SearchRecord] | None:
    if page.file.src_uri != "index.md":
        return None
    return [("", "Agent <x>", "A & B", ("tag <t>",)), ("#skill", "Skill", "text", ())]


def test_take_over_index_gives_mkdocs_search_our_entries(site: tuple[MkDocsConfig, Files]) -> None:
    from mkdocs.contrib.search import SearchPlugin

    config, files = site
    plugin = SearchPlugin()
    plugin.load_config({})
    plugin.on_pre_build(config)
    mkdocs_private.take_over_index(plugin, _records)
    mkdocs_private.take_over_index(plugin, _records)  # once per index
    index = plugin.search_index
    index.add_entry_from_context(_page(files, config))
    docs = json.loads(index.generate_search_index())["docs"]
    assert docs == [
        {"location": "", "title": "Agent <x>", "text": "A & B"},
        {"location": "#skill", "title": "Skill", "text": "text"},
    ]
    other = _page(files, config, "other.md")
    other.toc = mkdocs_private.toc([Heading(1, "other", "Other")])
    other.content = "<h1 id='other'>Other</h1>"
    index.add_entry_from_context(other)  # a page of the site's own: MkDocs reads it as usual
    assert len(json.loads(index.generate_search_index())["docs"]) > len(docs)


def test_take_over_index_gives_material_search_our_entries_escaped(site: tuple[MkDocsConfig, Files]) -> None:
    from material.plugins.search.plugin import SearchIndex  # type: ignore[import-untyped]

    config, files = site

    class Plugin:
        search_index = SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={}, jieba_dict=None)

    mkdocs_private.take_over_index(Plugin, _records)
    Plugin.search_index.add_entry_from_context(_page(files, config))
    assert Plugin.search_index.entries == [
        {"location": "", "title": "Agent &lt;x&gt;", "text": "A &amp; B", "tags": ["tag &lt;t&gt;"]},
        {"location": "#skill", "title": "Skill", "text": "text"},
    ]


def test_add_template_comes_before_the_theme_templates(site: tuple[MkDocsConfig, Files]) -> None:
    config, _ = site
    env = config.theme.get_env()
    assert env.loader is not None
    mkdocs_private.add_template(env, "ours.html", "{{ 1 + 1 }}")
    mkdocs_private.add_template(env, "ours.html", "{{ 1 + 1 }}")
    assert isinstance(env.loader, jinja2.ChoiceLoader)
    assert len(env.loader.loaders) == 2, "put in front once"
    assert env.get_template("ours.html").render() == "2"
    assert env.get_template("main.html") is not None, "the theme's templates are still found"


def test_cache_theme_code_keeps_the_theme_templates_compiled(site: tuple[MkDocsConfig, Files]) -> None:
    config, _ = site
    cache = TemplateCodeCache()
    env = config.theme.get_env()
    assert env.bytecode_cache is None, "MkDocs gives the theme's environment no cache of its own"
    cache.serve(env)
    assert mkdocs_private.cache_theme_code(env, cache)
    env.get_template("main.html")
    again = config.theme.get_env()
    cache.serve(again)
    assert mkdocs_private.cache_theme_code(again, cache)
    compiled: list[Any] = []
    again.compile = lambda *args, **kw: compiled.append(args)  # type: ignore[method-assign,assignment]
    again.get_template("main.html")
    assert compiled == [], "the second environment takes the first one's code"
    assert not mkdocs_private.cache_theme_code(again, TemplateCodeCache()), "a cache already there stays"
