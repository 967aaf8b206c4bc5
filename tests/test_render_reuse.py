"""A render that reuses the last one's agent views and pages (``mkdocs serve``) gives what a render from nothing
gives, and reuses only what did not change."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jinja2
import pytest

from a2a_docgen.catalog import load_catalog
from a2a_docgen.model import AgentCard
from a2a_docgen.render import RenderReuse, render_catalog

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "cards"


def _cards(tmp_path: Path) -> Path:
    cards = tmp_path / "cards"
    shutil.copytree(EXAMPLES, cards)
    return cards


def _edit(card: Path, **changes: object) -> None:
    data = json.loads(card.read_text(encoding="utf-8"))
    data.update(changes)
    card.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def test_a_rebuild_after_one_edit_is_a_fresh_render_and_reuses_the_other_agents(tmp_path: Path) -> None:
    cards = _cards(tmp_path)
    reuse = RenderReuse()
    first = render_catalog(load_catalog([str(cards)]), reuse=reuse)
    before = {path: agent for path, (_, agent) in reuse.views.items()}
    edited = cards / "unit-converter.json"
    data = json.loads(edited.read_text(encoding="utf-8"))
    data["skills"][0]["tags"] = [*data["skills"][0].get("tags", []), "freshly-tagged"]
    _edit(edited, description="Converts units, and now says so twice.", skills=data["skills"])

    again = render_catalog(load_catalog([str(cards)]), reuse=reuse)
    fresh = render_catalog(load_catalog([str(cards)]))

    assert again.pages == fresh.pages
    assert again.files == fresh.files
    assert again.search == fresh.search
    assert again.pages != first.pages
    after = {path: agent for path, (_, agent) in reuse.views.items()}
    assert set(after) == set(before)
    kept = {path for path in after if after[path] is before[path]}
    assert kept == set(before) - {_source(after, edited)}
    assert "freshly-tagged" in again.pages[after[_source(after, edited)].path]


def _source(views: dict[str, object], card: Path) -> str:
    (path,) = [p for p in views if p.endswith(card.name)]
    return path


def test_a_removed_card_leaves_nothing_behind(tmp_path: Path) -> None:
    cards = _cards(tmp_path)
    reuse = RenderReuse()
    render_catalog(load_catalog([str(cards)]), reuse=reuse)
    (cards / "unit-converter.json").unlink()
    again = render_catalog(load_catalog([str(cards)]), reuse=reuse)
    assert again.pages == render_catalog(load_catalog([str(cards)])).pages
    assert not any(path.endswith("unit-converter.json") for path in reuse.views)
    assert len(reuse.pages) == 3


def test_pages_of_the_sites_own_templates_are_rendered_again(tmp_path: Path) -> None:
    """An agent template of the site's own may read anything of ``site``: another card changes its page."""
    cards = _cards(tmp_path)
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "agent.md.jinja").write_text(
        '{% extends "_base/agent.md.jinja" %}\n'
        "{% block description %}{{ super() }}\n\nOne of {{ site.agents | length }} agents.\n{% endblock %}\n",
        encoding="utf-8",
    )
    reuse = RenderReuse()
    render_catalog(load_catalog([str(cards)]), templates_dir=templates, reuse=reuse)
    (cards / "unit-converter.json").unlink()
    again = render_catalog(load_catalog([str(cards)]), templates_dir=templates, reuse=reuse)
    pages = [text for path, text in again.pages.items() if path.startswith("agents/")]
    assert pages
    assert all("One of 3 agents." in text for text in pages)
    assert again.pages == render_catalog(load_catalog([str(cards)]), templates_dir=templates).pages


def test_a_template_changed_on_disk_forgets_the_pages(tmp_path: Path) -> None:
    (tmp_path / "page.jinja").write_text("one", encoding="utf-8")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path), auto_reload=True)
    env.get_template("page.jinja")
    reuse = RenderReuse()
    reuse.start(env, overrides=False)
    reuse.pages["agents/a/index.md"] = (object(), "kept")  # type: ignore[assignment]
    reuse.start(env, overrides=False)
    assert reuse.pages, "nothing changed: the pages stay"
    (tmp_path / "page.jinja").write_text("two", encoding="utf-8")
    later = os.stat(tmp_path / "page.jinja").st_mtime + 10
    os.utime(tmp_path / "page.jinja", (later, later))
    reuse.start(env, overrides=False)
    assert not reuse.pages


def _site_files(site: Path) -> dict[str, bytes]:
    """Every file of a built site; the theme's build date (a comment of MkDocs' home page) left out."""
    return {
        str(p.relative_to(site)): re.sub(rb"Build Date UTC : [^\n]*", b"", p.read_bytes())
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("own_home", [False, True], ids=["root", "prefix"])
def test_a_serve_rebuild_builds_the_site_a_fresh_build_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_home: bool
) -> None:
    """As under ``mkdocs serve``: one plugin instance, a card edited, the site built again with a fresh
    configuration: every file equals what a build from nothing writes (with the catalogue at the root, and
    under a prefix because the site has its own home page)."""
    import yaml
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig

    # a plugin instance of this test's own (MkDocs keeps one for every configuration loaded after it)
    monkeypatch.setattr(dict(MkDocsConfig._schema)["plugins"], "plugin_cache", {})
    cards = _cards(tmp_path)
    (tmp_path / "docs").mkdir()
    if own_home:
        (tmp_path / "docs" / "index.md").write_text("# Our site\n", encoding="utf-8")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(
        yaml.safe_dump(
            {
                "site_name": "T",
                "docs_dir": "docs",
                "plugins": [{"a2a-docgen": {"cards": "cards", "search_index": "off"}}],
            }
        ),
        encoding="utf-8",
    )

    def serve_build(site: Path) -> object:
        config = load_config(config_file=str(config_file), site_dir=str(site))
        config.plugins.on_startup(command="serve", dirty=False)
        build(config)
        return config.plugins["a2a-docgen"]

    first = serve_build(tmp_path / "served")
    _edit(cards / "unit-converter.json", description="Converts units; edited while serving.")
    # MkDocs keeps a plugin that defines on_startup for the configurations loaded after it, as serve does
    assert serve_build(tmp_path / "served") is first
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "-q",
            "-f",
            str(config_file),
            "-d",
            str(tmp_path / "fresh"),
        ],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    served, fresh = _site_files(tmp_path / "served"), _site_files(tmp_path / "fresh")
    assert served.keys() == fresh.keys()
    assert [path for path in served if served[path] != fresh[path]] == []
    assert any(b"edited while serving" in data for data in served.values())


def test_a_reload_validates_only_the_changed_cards_and_gives_a_fresh_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import a2a_docgen.catalog as catalog_module

    validated: list[str] = []
    real = catalog_module.validate_card

    def counting(card: AgentCard, report: Any, limits: Any, deadline: Any = None) -> None:
        validated.append(card.source.relpath)
        real(card, report, limits, deadline)

    monkeypatch.setattr(catalog_module, "validate_card", counting)
    cards = _cards(tmp_path)
    cache = catalog_module.CardCache()
    first = load_catalog([cards], cache=cache)
    assert len(validated) == len(first.cards)
    validated.clear()
    assert load_catalog([cards], cache=cache) == first
    assert validated == [], "nothing changed: nothing is validated again"
    _edit(cards / "unit-converter.json", description="Converts units; edited.")
    (cards / "harbour-transit-route-planner.json").unlink()
    again = load_catalog([cards], cache=cache)
    assert validated == ["unit-converter.json"]
    assert again == load_catalog([cards])
    assert "harbour-transit-route-planner.json" not in {card.source.relpath for card in again.cards}
