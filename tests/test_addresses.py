"""Addresses that last: readable where a name is the only one of its kind, told apart by something a reader
recognises where cards share one, never taken by another card, worked out once, and the ids and badges kept
when a page moves (``render.paths.site_map``, ``slugs.agent_slugs``, ``text.slug.unique_slugs``)."""

from __future__ import annotations

import copy
import json
import os
import posixpath
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen import slugs
from a2a_docgen.catalog import load_catalog
from a2a_docgen.history.read import read_history
from a2a_docgen.model import Catalog
from a2a_docgen.render import paths as paths_module
from a2a_docgen.render import render_catalog
from a2a_docgen.render.exports import sorted_cards
from a2a_docgen.render.paths import Addresses, site_map
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.text.slug import WINDOWS_DEVICES, readable_stem
from tests.support.cards import catalog_of_cards, small_card
from tests.support.engines import Html, engine
from tests.support.history_repo import CardRepo
from tests.support.markdown_tokens import links, table_rows

ATOM = "{http://www.w3.org/2005/Atom}"
HASHED = re.compile(r"-[0-9a-f]{10}$")


def card(
    name: str, *, tags: tuple[str, ...] = ("t",), ids: tuple[str, ...] = ("s",), **more: Any
) -> dict[str, Any]:
    skills = [{"id": i, "name": f"Skill {i}", "description": "d", "tags": list(tags)} for i in ids]
    return {**small_card(name, skills), **more}


def files_catalog(tmp_path: Path, cards: dict[str, dict[str, Any]]) -> Catalog:
    """The catalogue of ``cards`` written as files (path below ``tmp_path/cards`` -> card) and loaded."""
    root = tmp_path / "cards"
    for relpath, data in cards.items():
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        (root / relpath).write_text(json.dumps(data), encoding="utf-8")
    return load_catalog([root])


def addresses_of(catalog: Catalog) -> Addresses:
    return site_map(sorted_cards(catalog))


def agent_dirs(catalog: Catalog) -> dict[str, str]:
    """Each card's page directory by its key."""
    return {key: files.url for key, files in addresses_of(catalog).agents.items()}


def output_paths(site: RenderedSite) -> list[str]:
    return [*site.pages, *site.files]


# -- a name of its own: a readable address --------------------------------------------------------------------


def test_a_unique_name_is_at_its_readable_address_and_so_are_its_tags_types_bindings_and_anchors() -> None:
    site = render_catalog(
        catalog_of_cards([card("Unit Converter", tags=("maps",), ids=("convert", "Round"))])
    )
    page = site.pages["agents/unit-converter/index.md"]
    assert "## Skill convert {#skill-convert}" in page
    assert "## Skill Round {#skill-round}" in page
    assert {"tags/maps.md", "media-types/text-plain.md", "bindings/jsonrpc-1-0.md"} <= set(site.pages)
    assert "agents/unit-converter/card.json" in site.files
    assert not [
        path
        for path in output_paths(site)
        if re.search(r"-[0-9a-f]{10}[./]", path) and not path.startswith("badges/")
    ]


def test_a_long_name_is_cut_and_hashed_and_so_is_a_name_with_nothing_readable() -> None:
    long_name = "The Extraordinarily Thorough Harbour Transit Route Planner"
    catalog = catalog_of_cards([card(long_name), card("東京"), card("Short")])
    dirs = sorted(agent_dirs(catalog).values())
    assert "agents/short/" in dirs
    (long_dir,) = [d for d in dirs if d.startswith("agents/the-")]
    assert re.fullmatch(r"agents/the-extraordinarily-thorough-harbour-tra-[0-9a-f]{10}/", long_dir), long_dir
    assert "agents/x-" in " ".join(dirs)  # no ASCII to read: a hash, never an empty name


# -- a name several cards share: a list at the name, each card at its file --------------------------------------


def shared_cards() -> dict[str, dict[str, Any]]:
    eu = card("Weather", provider={"organization": "EU Weather", "url": "https://eu.example"})
    eu["supportedInterfaces"][0]["url"] = "https://eu.weather.example/a2a"
    us = card("Weather")
    us["supportedInterfaces"][0]["url"] = "https://us.weather.example/a2a"
    return {"eu/weather.json": eu, "us/weather.json": us}


def test_a_shared_name_is_a_page_listing_its_cards_each_at_its_card_files_address(tmp_path: Path) -> None:
    catalog = files_catalog(tmp_path, shared_cards())
    site = render_catalog(catalog)
    assert agent_dirs(catalog) == {
        "eu/weather.json": "agents/weather--eu-weather/",
        "us/weather.json": "agents/weather--us-weather/",
    }
    listing = site.pages["agents/weather/index.md"]
    rows = table_rows(listing)
    assert rows[0] == ["Agent", "Provider", "Endpoint host", "Card file"]
    assert rows[1:] == [
        ["Weather", "EU Weather", "eu.weather.example", "eu/weather.json"],
        ["Weather", "—", "us.weather.example", "us/weather.json"],
    ]
    assert links(listing) == ["../weather--eu-weather/index.md", "../weather--us-weather/index.md"]
    assert "agents/weather/index.md" in site.unindexed  # a list of pages the search has already
    assert "agents/weather/card.json" not in site.files  # no card keeps the name's address


def test_an_agent_page_of_a_shared_name_links_to_its_list_and_one_of_its_own_does_not(tmp_path: Path) -> None:
    catalog = files_catalog(tmp_path, {**shared_cards(), "maps.json": card("Maps")})
    site = render_catalog(catalog)
    lists = {namesakes.path for namesakes in addresses_of(catalog).namesakes}
    assert lists == {"agents/weather/index.md"}

    def links_to_lists(path: str) -> list[str]:
        here = posixpath.dirname(path)
        return [href for href in links(site.pages[path]) if posixpath.normpath(f"{here}/{href}") in lists]

    for path in ("agents/weather--eu-weather/index.md", "agents/weather--us-weather/index.md"):
        page = site.pages[path]
        assert links_to_lists(path) == ["../weather/index.md"]
        (line,) = [block for block in page.split("\n\n") if "../weather/index.md" in block]
        assert page.index(line) < page.index("- **Version:**")  # near the top, before the facts
        for name in ("ours", "mkdocs", "zensical"):  # the plugin's converter, and engines reading site_src/
            assert ("a", {"href": "../weather/index.md"}) in engine(name, line).tags, name
    assert links_to_lists("agents/maps/index.md") == []
    assert "Other agents" not in site.pages["agents/maps/index.md"]


@pytest.mark.slow
def test_the_plugin_resolves_the_link_to_the_list(tmp_path: Path) -> None:
    from tests.support.mkdocs_build import build_cards_site

    files_catalog(tmp_path, shared_cards())
    built = build_cards_site(tmp_path)
    page = Html((built / "agents" / "weather--eu-weather" / "index.html").read_text(encoding="utf-8"))
    hrefs = [attrs.get("href") for tag, attrs in page.tags if tag == "a"]
    assert "../weather/" in hrefs
    assert (built / "agents" / "weather" / "index.html").is_file()


def test_shared_names_addresses_stay_when_an_unrelated_card_comes(tmp_path: Path) -> None:
    before = agent_dirs(files_catalog(tmp_path / "a", shared_cards()))
    more = {**shared_cards(), "maps.json": card("Maps"), "eu/weather-2.json": card("Weather Two")}
    after = agent_dirs(files_catalog(tmp_path / "b", more))
    assert {key: after[key] for key in before} == before
    assert after["maps.json"] == "agents/maps/"


def test_card_files_that_read_alike_are_told_apart_by_a_hash(tmp_path: Path) -> None:
    cards = {
        "eu/weather.json": card("Weather"),
        "eu-weather.json": card("Weather"),
        "us.json": card("Weather"),
    }
    dirs = agent_dirs(files_catalog(tmp_path, cards))
    assert dirs["us.json"] == "agents/weather--us/"
    for key in ("eu/weather.json", "eu-weather.json"):
        assert re.fullmatch(r"agents/weather--eu-weather-[0-9a-f]{10}/", dirs[key]), dirs
    assert len(set(dirs.values())) == 3


def test_the_review_comment_links_a_shared_name_to_its_list(tmp_path: Path) -> None:
    catalog = files_catalog(tmp_path, {**shared_cards(), "maps.json": card("Maps", ids=("route",))})
    found = slugs.site_addresses(catalog.cards)
    assert found["Weather"] == slugs.AgentAddress("weather", {})
    assert found["Maps"] == slugs.AgentAddress("maps", {"route": "skill-route"})


# -- no card takes another's address ----------------------------------------------------------------------------


def test_names_that_read_alike_are_all_hashed_and_warned_about() -> None:
    catalog = catalog_of_cards([card("Weather Agent"), card("weather_agent"), card("Maps")])
    dirs = sorted(agent_dirs(catalog).values())
    assert dirs[0] == "agents/maps/"
    assert all(re.fullmatch(r"agents/weather-agent-[0-9a-f]{10}/", d) for d in dirs[1:]), dirs
    assert dirs[1] != dirs[2]
    assert len([d for d in catalog.diagnostics if d.code == "slug-clash"]) == 2


@pytest.mark.parametrize("tag", ["index", "Index", "con", "NUL", "com1", "index 2"])
def test_a_tag_never_takes_a_directorys_own_page_or_a_windows_device_name(tag: str) -> None:
    site = render_catalog(catalog_of_cards([card("A", tags=(tag, "other"))]))
    (path,) = [p for p in site.pages if p.startswith("tags/") and p not in ("tags/index.md", "tags/other.md")]
    assert HASHED.search(path.removesuffix(".md")), path
    assert "Tags" in site.pages["tags/index.md"]


def test_no_media_type_or_binding_takes_its_lists_address() -> None:
    """``media-types.md`` is ``media-types/`` on a site of directory URLs (MkDocs, Zensical), as a media type's
    ``media-types/index.md`` would be: Zensical refused the hostile corpus's build for two owners of one page."""
    interfaces = [{"url": "https://a.example/a2a", "protocolBinding": "index", "protocolVersion": ""}]
    addresses = addresses_of(
        catalog_of_cards([card("A", defaultInputModes=["index"], supportedInterfaces=interfaces)])
    )
    assert "media-types/index.md" not in addresses.media_types.values(), addresses.media_types
    assert "bindings/index.md" not in addresses.bindings.values(), addresses.bindings


def test_a_tag_never_takes_a_further_page_of_another_tags_list() -> None:
    """``tags/maps-2.md`` is the second page of the ``maps`` list: a tag ``maps 2`` is hashed instead."""
    site = render_catalog(catalog_of_cards([card("A", tags=("maps", "maps 2", "maps 02"))]))
    tag_pages = sorted(p for p in site.pages if p.startswith("tags/") and p != "tags/index.md")
    assert "tags/maps.md" in tag_pages
    assert "tags/maps-02.md" in tag_pages  # not a page number: readable
    (other,) = [p for p in tag_pages if p not in ("tags/maps.md", "tags/maps-02.md")]
    assert re.fullmatch(r"tags/maps-2-[0-9a-f]{10}\.md", other)


def test_an_agent_named_like_a_windows_device_is_hashed() -> None:
    dirs = agent_dirs(catalog_of_cards([card("CON"), card("aux")]))
    assert all(HASHED.search(d.rstrip("/")) for d in dirs.values()), dirs


def test_skill_ids_that_read_alike_are_hashed_the_others_stay_readable() -> None:
    found = addresses_of(catalog_of_cards([card("A", ids=("a b", "a-b", "search"))]))
    (files,) = found.agents.values()
    first, second, third = files.anchors
    assert third == "skill-search"
    assert re.fullmatch(r"skill-a-b-[0-9a-f]{10}", first)
    assert re.fullmatch(r"skill-a-b-[0-9a-f]{10}", second)
    assert first != second


# -- ids and badges outlive addresses ---------------------------------------------------------------------------


def test_badge_and_catalog_ids_stay_when_the_page_moves(tmp_path: Path) -> None:
    alone = files_catalog(tmp_path / "a", {"eu/weather.json": shared_cards()["eu/weather.json"]})
    together = files_catalog(tmp_path / "b", shared_cards())
    assert agent_dirs(alone)["eu/weather.json"] != agent_dirs(together)["eu/weather.json"]  # the page moved

    def stable(catalog: Catalog) -> dict[str, Any]:
        data = json.loads(render_catalog(catalog).files["catalog.json"])
        (agent,) = [a for a in data["agents"] if a["provider"]]
        return {"id": agent["id"], "badge": agent["grade"]["badge"]}

    assert stable(alone) == stable(together)
    assert stable(alone)["badge"] in render_catalog(together).files


def feed_ids(site: RenderedSite, path: str) -> list[str]:
    root = ET.fromstring(site.files[path])
    return [
        root.findtext(ATOM + "id") or "",
        *(e.findtext(ATOM + "id") or "" for e in root.iter(ATOM + "entry")),
    ]


def test_feed_and_entry_ids_stay_when_the_page_moves(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    weather = shared_cards()["eu/weather.json"]
    (repo.cards / "eu").mkdir()
    repo.write("eu/weather.json", weather)
    repo.commit("Add the weather agent")
    changed = copy.deepcopy(weather)
    changed["version"] = "2"
    repo.write("eu/weather.json", changed)
    repo.commit("A new version")

    def build() -> RenderedSite:
        history = read_history(["cards"], base=str(repo.root)).history
        cwd = os.getcwd()
        os.chdir(repo.root)
        try:
            return render_catalog(load_catalog(["cards"]), history=history)
        finally:
            os.chdir(cwd)

    alone = build()
    (repo.cards / "us").mkdir()
    repo.write("us/weather.json", shared_cards()["us/weather.json"])
    repo.commit("Another weather agent")
    together = build()
    before = feed_ids(alone, "agents/weather/changes.xml")
    after = feed_ids(together, "agents/weather--eu-weather/changes.xml")
    assert len(before) == 3  # the feed's id and its two entries'
    assert after == before


# -- worked out once ----------------------------------------------------------------------------------------------


def test_every_output_reads_the_one_map_of_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = load_catalog([Path(__file__).parent / "data" / "cards"])
    made: list[int] = []
    real = slugs.agent_slugs

    def counted(cards: Any) -> Any:
        made.append(len(cards))
        return real(cards)

    monkeypatch.setattr(paths_module, "agent_slugs", counted)
    monkeypatch.setattr(slugs, "agent_slugs", counted)
    site = render_catalog(catalog)
    assert made == [len(catalog.cards)]  # the agents' addresses, once for pages, exports, feeds and links
    # each card graded once, the exports included: tests/test_render.py::test_each_card_is_graded_once_per_render
    data = json.loads(site.files["catalog.json"])
    pages = {a["page"] + "index.md" for a in data["agents"]}
    assert pages <= set(site.pages)
    assert {a["grade"]["badge"] for a in data["agents"]} <= set(site.files)


# -- hostile names: unique, path-safe addresses --------------------------------------------------------------------

HOSTILE_PARTS = [
    "../",
    "..",
    "/abs",
    "a/b",
    "CON",
    "nul",
    "com1",
    "index",
    "Index",
    "maps",
    "maps 2",
    "Maps",
    "card.json",
    "badge",
    "\u202e",
    "\u200b",
    "e\u0301",
    "\u00e9",
    "東京",
    "",
    " ",
    "-",
    "--",
    "x",
    "page-2",
    "a" * 45,
    "Weather Agent",
    "weather_agent",
    "\\",
    ":",
    "?",
    "*",
]
names = st.lists(st.sampled_from(HOSTILE_PARTS), min_size=1, max_size=3).map("".join)
SAFE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*(?:--[a-z0-9]+(?:-[a-z0-9]+)*)?")


def safe_component(component: str) -> bool:
    stem = component.split(".", 1)[0]
    return bool(SAFE.fullmatch(stem)) and stem not in WINDOWS_DEVICES and len(component) < 120


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    agents=st.lists(st.tuples(names, st.lists(names, min_size=1, max_size=4)), min_size=1, max_size=5),
)
def test_hostile_names_get_unique_path_safe_addresses(agents: list[tuple[str, list[str]]]) -> None:
    catalog = catalog_of_cards(
        [
            card(name, tags=tuple(t for t in tags if t.strip()) or ("t",), ids=tuple(tags))
            for name, tags in agents
        ]
    )
    site = render_catalog(catalog)  # checks every output path once (``distinct_paths``)
    paths = output_paths(site)
    assert len(paths) == len(set(paths))
    assert len({p.casefold() for p in paths}) == len(paths)  # case-insensitive file systems too
    for path in paths:
        if path.startswith("assets/"):
            continue
        assert all(safe_component(part) for part in path.split("/")), path
    for files in addresses_of(catalog).agents.values():
        assert len(set(files.anchors)) == len(files.anchors)


# -- the real cards ------------------------------------------------------------------------------------------------


def test_the_real_cards_have_unique_paths_and_no_hash_where_a_name_is_its_own(shared_dir: Path) -> None:
    catalog = load_catalog([shared_dir / "cards" / "real"])
    site = render_catalog(catalog)
    paths = output_paths(site)
    assert len({p.casefold() for p in paths}) == len(paths)
    cards = sorted_cards(catalog)
    found = addresses_of(catalog)
    stems: dict[str, set[str]] = {}
    for c in cards:
        stem = readable_stem(c.name or "")
        if stem is not None:
            stems.setdefault(stem, set()).add(c.name or "")
    names = [c.name for c in cards]
    for c in cards:
        stem = readable_stem(c.name or "")
        if stem is not None and len(stems[stem]) == 1 and names.count(c.name) == 1:
            assert found.agent(c).slug == stem, c.name
