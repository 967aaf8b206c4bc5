"""The catalogue search's Pagefind index: only the catalogue's agent pages, and a build without Pagefind."""

from __future__ import annotations

import gzip
import json
import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from mkdocs.exceptions import PluginError

from a2a_docgen.errors import A2ADocgenError
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.site import pagefind as pagefind_module
from a2a_docgen.site import plugin
from a2a_docgen.site.pagefind import PAGEFIND_DIR, build_search_index, find_pagefind
from a2a_docgen.site.plugin.search import pagefind_for
from tests.conftest import REPO

AGENT_PAGE = """<!doctype html><html lang="en"><head><title>{name}</title></head><body>
<nav>navigation words zebrafinch</nav>
<article><div class="a2a-page a2a-page-agent" data-pagefind-body>
<h1 id="{slug}">{name}<a class="headerlink" href="#{slug}">¶</a></h1>
<p>Plans journeys across the harbour.</p>
<h2 id="skill-plan">Journey planner</h2><p>Tags: routing, ferries.</p>
<div class="a2a-requests"><div class="tabbed-set"><pre><code>curl -sS requestonlyword</code></pre></div></div>
<div class="a2a-facets" data-pagefind-ignore hidden><span data-pagefind-filter="tag">routing</span></div>
</div></article></body></html>"""

SITE_PAGE = """<!doctype html><html lang="en"><head><title>About</title></head><body>
<main data-pagefind-body><h1>About us</h1><p>Our own page mentions ferries and sitepageword.</p></main>
</body></html>"""


def _site(root: Path) -> Path:
    (root / "agents" / "harbour").mkdir(parents=True)
    (root / "agents" / "harbour" / "index.html").write_text(
        AGENT_PAGE.format(name="Harbour planner", slug="harbour-planner"), encoding="utf-8"
    )
    (root / "agents" / "notes").mkdir()
    (root / "agents" / "notes" / "index.html").write_text(SITE_PAGE, encoding="utf-8")
    (root / "about").mkdir()
    (root / "about" / "index.html").write_text(SITE_PAGE, encoding="utf-8")
    (root / "index.html").write_text(
        "<html><body><p>ferries sitepageword</p></body></html>", encoding="utf-8"
    )
    return root


@pytest.fixture
def pagefind_binary() -> Path:
    binary = find_pagefind()
    if binary is None:
        pytest.skip("Pagefind is not installed (pip install 'a2a-docgen[search]')")
    return binary


def _fragments(bundle: Path) -> list[dict[str, object]]:
    """The indexed pages, as Pagefind stores them (gzip'd JSON after a ``pagefind_dcd`` signature)."""
    out = []
    for path in sorted((bundle / "fragment").iterdir()):
        data = gzip.decompress(path.read_bytes())
        out.append(json.loads(data.removeprefix(b"pagefind_dcd")))
    return out


def test_only_the_catalogue_agent_pages_are_indexed(tmp_path: Path, pagefind_binary: Path) -> None:
    site = _site(tmp_path / "site")
    index = build_search_index(site, executable=pagefind_binary)
    assert index.directory == site / PAGEFIND_DIR
    assert (index.directory / "pagefind.js").is_file()
    # the site's own pages (with their own data-pagefind-body, even under agents/) are left out
    assert index.pages == 1
    [page] = _fragments(index.directory)
    assert page["url"] == "/agents/harbour/"
    assert page["meta"] == {"title": "Harbour planner"}
    assert page["filters"] == {"tag": ["routing"]}
    text = str(page["content"])
    assert "Journey planner" in text
    assert "ferries" in text
    # not the theme's navigation, the requests, the permalink marks or the facets
    for absent in ("zebrafinch", "requestonlyword", "¶", "sitepageword"):
        assert absent not in text


def test_a_site_whose_pages_all_lack_the_marker_indexes_nothing_of_theirs(
    tmp_path: Path, pagefind_binary: Path
) -> None:
    """Pagefind reads only agents/*/index.html; a page there without data-pagefind-body is still skipped when
    an agent page has it."""
    site = _site(tmp_path / "site")
    (site / "agents" / "plain").mkdir()
    (site / "agents" / "plain" / "index.html").write_text("<html><body><p>plain</p></body></html>", "utf-8")
    assert build_search_index(site, executable=pagefind_binary).pages == 1


def test_missing_pagefind_and_failures_are_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pagefind_module, "find_pagefind", lambda: None)
    with pytest.raises(A2ADocgenError, match="not installed"):
        build_search_index(tmp_path)
    failing = tmp_path / "fails.sh"
    failing.write_text("#!/bin/sh\necho broken >&2\nexit 3\n", encoding="utf-8")
    failing.chmod(0o755)
    with pytest.raises(A2ADocgenError, match=r"exit 3\):\nbroken"):
        build_search_index(tmp_path, executable=failing)


def _rendered() -> RenderedSite:
    return RenderedSite(facets={"agents/a/index.md": {"tag": ("x",)}})


def test_plugin_without_pagefind_logs_one_line_unless_asked_for_it(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(pagefind_module, "find_pagefind", lambda: None)
    with caplog.at_level(logging.INFO):
        assert pagefind_for(None, _rendered()) is None
    lines = [r for r in caplog.records if "Pagefind" in r.getMessage()]
    assert len(lines) == 1
    assert lines[0].levelno == logging.INFO
    with pytest.raises(PluginError, match="search_index: Pagefind is not installed"):
        pagefind_for("pagefind", _rendered())


def test_plugin_option_off_and_an_empty_catalogue_write_no_index(monkeypatch: pytest.MonkeyPatch) -> None:
    def never() -> Path:
        raise AssertionError("Pagefind was looked for")

    monkeypatch.setattr(pagefind_module, "find_pagefind", never)
    assert pagefind_for("off", _rendered()) is None
    assert pagefind_for(None, RenderedSite()) is None


def test_plugin_option_accepts_only_pagefind_or_off() -> None:
    config = plugin.A2ADocgenPluginConfig()
    config.load_dict({"cards": "cards", "search_index": "lunr"})
    errors, _ = config.validate()
    assert any(name == "search_index" for name, _ in errors)
    # YAML reads a bare `off` as false and `on` as true
    for written, meant in (("off", "off"), ("on", "pagefind"), ("pagefind", "pagefind"), ("'off'", "off")):
        config = plugin.A2ADocgenPluginConfig()
        config.load_dict(yaml.safe_load(f"cards: cards\nsearch_index: {written}\n"))
        errors, _ = config.validate()
        assert errors == []
        assert config.search_index == meant


def _build_example_site(root: Path, settings: str) -> None:
    """``mkdocs build`` in ``root`` of the example cards with the plugin, after the search plugin."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    shutil.copytree(REPO / "examples" / "cards", root / "cards")
    (root / "mkdocs.yml").write_text(
        settings + "plugins:\n  - search\n  - a2a-docgen:\n      cards: cards\n", encoding="utf-8"
    )
    config = load_config(config_file=str(root / "mkdocs.yml"))
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    finally:
        config.plugins.on_shutdown()


def test_a_real_build_indexes_the_catalogue_where_it_went(tmp_path: Path, pagefind_binary: Path) -> None:
    """A site with a home page of its own: the catalogue goes under catalogue/, and so does its index."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Our site\n\nFerries everywhere.\n", encoding="utf-8")
    _build_example_site(tmp_path, "site_name: Test\n")
    bundle = tmp_path / "site" / "catalogue" / PAGEFIND_DIR
    assert (bundle / "pagefind.js").is_file()
    assert not (tmp_path / "site" / PAGEFIND_DIR).exists()
    urls = sorted(str(fragment["url"]) for fragment in _fragments(bundle))
    agents = sorted(p.name for p in (tmp_path / "site" / "catalogue" / "agents").iterdir())
    assert urls == [f"/agents/{name}/" for name in agents]
    home = (tmp_path / "site" / "catalogue" / "index.html").read_text(encoding="utf-8")
    assert '<div class="a2a-page a2a-page-list" data-a2a-search="pagefind">' in home  # the script may load it


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["material", "mkdocs"])
def test_the_index_from_the_copies_is_the_index_of_the_built_pages(
    tmp_path: Path, pagefind_binary: Path, theme: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pagefind reads small copies of the agent pages (no theme navigation, no request boxes): every page it
    stores (text, word count, filters, anchors, title) is the one it stores when it reads the built pages, and
    the copies are gone after the build."""
    (tmp_path / "docs").mkdir()
    temporary = tmp_path / "tmp"  # this build's own: other builds on the machine make copies too
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    read: list[Path] = []
    real = pagefind_module.build_search_index

    def reading(catalogue_dir: Path, **options: Any) -> Any:
        read.append(catalogue_dir)
        return real(catalogue_dir, **options)

    monkeypatch.setattr(pagefind_module, "build_search_index", reading)
    _build_example_site(tmp_path, f"site_name: Test\ntheme: {theme}\n")
    assert len(read) == 1
    assert read[0].parent == temporary, "Pagefind read the copies"
    assert list(temporary.iterdir()) == [], "and they are gone"
    site = tmp_path / "site"
    pages = sorted(site.glob("agents/*/index.html"))
    assert any('class="a2a-requests"' in page.read_text(encoding="utf-8") for page in pages)
    from_pages = build_search_index(site, executable=pagefind_binary, output=tmp_path / "from-pages")
    assert from_pages.pages == len(pages)
    ours = _fragments(site / PAGEFIND_DIR)
    assert len(ours) == len(pages)
    assert ours == _fragments(tmp_path / "from-pages")
    assert sorted(p.name for p in (site / PAGEFIND_DIR / "fragment").iterdir()) == sorted(
        p.name for p in (tmp_path / "from-pages" / "fragment").iterdir()
    )
