"""The same cards give the same site from anywhere: every published identity is a function of the cards alone.

A card file is known by its identity key (``CardSource.key``): its path below the configured cards path it was
found under, and which path. Page addresses of agents that share a name, ``catalog.json`` ids, the history (its
keys, the renamed-file text, the Atom entry ids), the order of cards and the cross-card diagnostics come from it,
never from the working directory, the spelling of the path, a symbolic link on the way or the engine. Built
here the way users build: ``a2a-docgen build`` from several directories and spellings of one catalogue kept in a
real git repository (a rename in its history), and the MkDocs plugin (slow).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen.catalog import load_catalog
from a2a_docgen.cli import main
from a2a_docgen.history.read import read_history
from a2a_docgen.model import Catalog, card_key, card_keys
from a2a_docgen.render import render_catalog
from a2a_docgen.render.exports import catalog_json, sorted_cards
from tests.support.history_repo import CardRepo, maps_card, weather_card

NAMES = ("Weather Agent", "Weather Agent", "Weather Agent", "Maps Agent")
"""Three cards share a name, in nested directories: their addresses are told apart by key."""


def _write(repo: CardRepo, relpath: str, card: dict[str, Any]) -> None:
    path = repo.cards / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")


def _weather(url: str) -> dict[str, Any]:
    card = weather_card()
    card["supportedInterfaces"][0]["url"] = url
    return card


def catalogue(root: Path) -> CardRepo:
    """A repository at ``root/repo`` whose cards (three agents named alike, in nested directories) had a card
    file renamed and a skill added, with ``root/elsewhere`` beside it and ``root/link`` a link to the cards."""
    repo = CardRepo(root / "repo")
    _write(repo, "weather.json", _weather("https://weather.example.com/a2a"))
    _write(repo, "nested/weather.json", _weather("https://nested.example.com/a2a"))
    _write(repo, "nested/deeper/maps.json", maps_card())
    repo.commit("Cards")
    (repo.cards / "nested" / "deeper" / "maps.json").rename(repo.cards / "nested" / "deeper" / "atlas.json")
    repo.commit("Maps: the file is the atlas")
    changed = _weather("https://nested.example.com/a2a")
    changed["skills"].append({"id": "radar", "name": "Radar", "description": "Rain maps.", "tags": ["maps"]})
    _write(repo, "nested/weather.json", changed)
    _write(repo, "other/weather.json", _weather("https://other.example.com/a2a"))
    repo.commit("Radar; another weather agent")
    (root / "elsewhere").mkdir()
    (root / "link").symlink_to(repo.cards, target_is_directory=True)
    return repo


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@contextmanager
def working_directory(path: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def cli_build(cwd: Path, cards: str, out: Path, *options: str) -> dict[str, bytes]:
    """``a2a-docgen build CARDS -o OUT`` run from ``cwd``: the tree it wrote (each build reads the history as a
    fresh process would: a plain build keeps nothing)."""
    with working_directory(cwd):
        code = main(["build", cards, "-o", str(out), "--quiet", *options])
    assert code == 0
    return tree(out)


def spellings(root: Path) -> dict[str, tuple[Path, str]]:
    """(working directory, cards argument) for each way a user names the one cards directory."""
    cards = root / "repo" / "cards"
    return {
        "relative from the repository": (root / "repo", "cards"),
        "relative from its parent": (root, "repo/cards"),
        "dot and trailing slash": (root / "repo", "./cards/"),
        "trailing slash": (root / "repo", "cards/"),
        "from inside": (cards / "nested", ".."),
        "absolute": (root / "elsewhere", str(cards)),
        "absolute through a link": (root / "elsewhere", str(root / "link")),
        "relative through a link": (root, "link/"),
    }


def differing(one: dict[str, bytes], other: dict[str, bytes]) -> list[str]:
    return sorted(path for path in one.keys() | other.keys() if one.get(path) != other.get(path))


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    root = tmp_path_factory.mktemp("catalogue")
    catalogue(root)
    return root, cli_build(root / "repo", "cards", root / "reference")


def test_every_spelling_and_working_directory_gives_the_same_tree(
    reference: tuple[Path, dict[str, bytes]],
) -> None:
    root, expected = reference
    assert any(path.endswith("/changes.xml") for path in expected)  # with the history
    for name, (cwd, cards) in spellings(root).items():
        built = cli_build(cwd, cards, root / "out" / name.replace(" ", "-"))
        assert not differing(expected, built), (name, differing(expected, built)[:5])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    cwd=st.sampled_from(["", "repo", "elsewhere", "repo/cards/nested/deeper"]),
    through_link=st.booleans(),
    absolute=st.booleans(),
    dot=st.booleans(),
    detour=st.booleans(),
    slash=st.booleans(),
)
def test_any_spelling_from_any_directory_gives_the_same_tree(
    reference: tuple[Path, dict[str, bytes]],
    cwd: str,
    through_link: bool,
    absolute: bool,
    dot: bool,
    detour: bool,
    slash: bool,
) -> None:
    root, expected = reference
    target = root / "link" if through_link else root / "repo" / "cards"
    if detour:  # a way round through a directory below: cards/nested/..
        target = target / "nested" / ".."
    here = root / cwd
    cards = str(target) if absolute else os.path.relpath(target, here)
    if dot and not absolute and not cards.startswith(".."):
        cards = os.path.join(".", cards)
    if slash:
        cards += "/"
    out = root / "out" / f"drawn-{abs(hash((cwd, through_link, absolute, dot, detour, slash)))}"
    shutil.rmtree(out, ignore_errors=True)
    assert not differing(expected, cli_build(here, cards, out)), cards


def test_the_history_shows_and_identifies_files_by_their_key(
    reference: tuple[Path, dict[str, bytes]],
) -> None:
    root, expected = reference
    pages = b"\n".join(data for path, data in expected.items() if path.endswith((".md", ".xml")))
    assert b"nested/deeper/maps.json" in pages  # the rename's text
    assert b"nested/deeper/atlas.json" in pages
    assert b"cards/nested" not in pages  # never the path as typed
    assert os.fsencode(str(root)) not in b"".join(expected.values())  # nor a path of the build machine


def data_of(catalog: Catalog) -> dict[str, Any]:
    """``catalog.json`` of ``catalog``, read back."""
    data: dict[str, Any] = json.loads(catalog_json(catalog))
    return data


def history_and_catalog(repo: CardRepo, cwd: Path, cards: str) -> tuple[dict[str, Any], dict[str, set[str]]]:
    """The ``catalog.json`` data and each agent's Atom entry ids (by its catalog id) of the cards at ``cards``
    read from ``cwd``."""
    with working_directory(cwd):
        catalog = load_catalog([cards])
        read = read_history([cards])
    assert read.history is not None, read.message
    data = data_of(catalog)
    ids = {
        card.source.key: agent["id"]
        for card, agent in zip(sorted_cards(catalog), data["agents"], strict=True)
    }
    entries = {
        ids[key]: {entry.id for entry in agent.entries}
        for key, agent in read.history.agents.items()
        if key in ids
    }
    return data, entries


def test_ids_of_the_catalogue_and_the_feeds_are_the_same_from_any_spelling(tmp_path: Path) -> None:
    repo = catalogue(tmp_path)
    data, entries = history_and_catalog(repo, repo.root, "cards")
    for cwd, cards in ((tmp_path, str(tmp_path / "link")), (repo.cards / "nested", "../")):
        assert history_and_catalog(repo, cwd, cards) == (data, entries)


def test_ids_stay_when_a_page_moves(tmp_path: Path) -> None:
    """A second card takes the first's name: the first's page moves, its catalog id and entry ids do not."""
    repo = CardRepo(tmp_path / "repo")
    _write(repo, "weather.json", _weather("https://weather.example.com/a2a"))
    repo.commit("Weather")
    before, before_entries = history_and_catalog(repo, repo.root, "cards")
    _write(repo, "more/weather.json", _weather("https://more.example.com/a2a"))
    repo.commit("Another weather agent")
    after, after_entries = history_and_catalog(repo, repo.root, "cards")
    (first,) = before["agents"]
    moved = next(agent for agent in after["agents"] if agent["id"] == first["id"])
    assert moved["page"] != first["page"]  # told apart from its namesake now
    assert before_entries[first["id"]] <= after_entries[first["id"]]
    site = render_catalog(load_catalog([repo.cards]), history=read_history([str(repo.cards)]).history)
    feed = site.files[moved["page"] + "changes.xml"]
    assert all(entry_id.encode() in feed for entry_id in before_entries[first["id"]])


def test_the_key_is_the_path_below_the_cards_path() -> None:
    assert card_key(0, "nested/weather.json") == "nested/weather.json"
    assert card_key(1, "weather.json") == "weather.json"  # given as a file, or below a second path alone
    assert card_key(1, "weather.json", [0, 1]) == "2:weather.json"  # the first path holds one too
    assert card_key(0, "weather.json", [0, 1]) == "weather.json"
    assert card_key(0, "2:weather.json") == "1:2:weather.json"  # never taken for the second path's


@given(
    st.lists(
        st.tuples(
            st.integers(0, 3), st.sampled_from(["a.json", "1:a.json", "2:a.json", "n/a.json", "10:a.json"])
        ),
        unique=True,
    )
)
def test_no_two_files_of_a_catalogue_share_a_key(found: list[tuple[int, str]]) -> None:
    keys = card_keys(found)
    assert len(set(keys)) == len(found)
    first = [item for item in found if item[0] == 0]
    assert card_keys(first) == [key for item, key in zip(found, keys, strict=True) if item[0] == 0]


def test_a_second_cards_path_moves_nothing_of_the_first_and_clashes_with_nothing(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for directory in (first, second):
        directory.mkdir()
        (directory / "weather.json").write_text(json.dumps(_weather(f"https://{directory.name}.example/a2a")))
    (first / "2:weather.json").write_text(json.dumps(_weather("https://colon.example/a2a")))
    alone = data_of(load_catalog([first]))
    both = data_of(load_catalog([first, second]))
    pages = [agent["page"] for agent in both["agents"]]
    assert len(set(pages)) == 3  # one name, three files, three pages
    assert {(a["id"], a["page"]) for a in alone["agents"]} <= {(a["id"], a["page"]) for a in both["agents"]}
    # Files given one by one are keyed by name, as below their directory, as long as no two share one.
    files = data_of(load_catalog(sorted(str(path) for path in first.iterdir())))
    assert files["agents"] == alone["agents"]


def test_the_cross_card_diagnostics_name_the_other_file_by_its_key(tmp_path: Path) -> None:
    repo = catalogue(tmp_path)
    for cwd, cards in ((repo.root, "cards"), (tmp_path / "elsewhere", str(tmp_path / "link"))):
        with working_directory(cwd):
            catalog = load_catalog([cards])
        named = {d.file: d.message for d in catalog.diagnostics if d.code == "duplicate-agent-name"}
        assert {os.path.basename(os.path.dirname(file)) for file in named} == {
            "other",
            os.path.basename(cards),
        }
        assert all("also used by nested/weather.json;" in message for message in named.values())


@pytest.mark.slow
def test_the_plugin_gives_one_site_from_any_spelling_at_the_addresses_of_the_cli(tmp_path: Path) -> None:
    from tests.support.mkdocs_build import build_projects, snapshot

    repo = catalogue(tmp_path)
    projects = {
        "relative": (repo.root / "site-a", "../cards"),
        "absolute": (repo.root / "site-b", f"{repo.cards}/"),
        "through a link": (tmp_path / "elsewhere" / "site-c", str(tmp_path / "link")),
    }
    jobs = {}
    for name, (project, cards) in projects.items():
        (project / "docs").mkdir(parents=True)
        (project / "mkdocs.yml").write_text(
            f"site_name: Cards\ndocs_dir: docs\nplugins:\n  - a2a-docgen:\n      cards: {json.dumps(cards)}\n"
            "      search_index: off\n",
            encoding="utf-8",
        )
        jobs[name] = (project / "mkdocs.yml", tmp_path / "built" / name.replace(" ", "-"))
    builds = build_projects(jobs, env={"SOURCE_DATE_EPOCH": "1767225600"})  # MkDocs' build date, fixed
    sites = {}
    for name, built in builds.items():
        assert built.returncode == 0, built.output
        sites[name] = snapshot(built.site)
    first = sites["relative"]
    assert any(path.endswith("/changes.xml") for path in first)  # with the history
    for name, site in sites.items():
        assert not differing(first, site), (name, differing(first, site)[:5])
    cli = cli_build(repo.root, "cards", tmp_path / "cli")
    assert first["catalog.json"] == cli["catalog.json"]  # the same ids and addresses
    assert {
        p.removesuffix("index.html") for p in first if p.startswith("agents/") and p.endswith("/index.html")
    } == {p.removesuffix("index.md") for p in cli if p.startswith("agents/") and p.endswith("/index.md")}


def test_the_real_cards_give_one_tree_from_two_spellings(shared_dir: Path, tmp_path: Path) -> None:
    """The issue measured 172 files that differed between spellings of the real cards' directory."""
    cards = tmp_path / "project" / "cards"
    shutil.copytree(shared_dir / "cards" / "real", cards)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "link").symlink_to(cards, target_is_directory=True)
    relative = cli_build(cards.parent, "./cards/", tmp_path / "relative", "--no-history")
    linked = cli_build(tmp_path / "elsewhere", str(tmp_path / "link"), tmp_path / "linked", "--no-history")
    assert len(relative) > 100
    assert not differing(relative, linked)


def test_the_history_of_two_cards_paths_holding_one_relative_path_is_keyed_as_the_catalogue(
    tmp_path: Path,
) -> None:
    repo = CardRepo(tmp_path / "repo")
    _write(repo, "weather.json", _weather("https://weather.example.com/a2a"))
    more = repo.root / "more"
    more.mkdir()
    (more / "weather.json").write_text(json.dumps(_weather("https://more.example.com/a2a")), encoding="utf-8")
    repo.commit("Two weather agents")
    with working_directory(repo.root):
        catalog = load_catalog(["cards", "more"])
        read = read_history(["cards", "more"])
    assert read.history is not None, read.message
    assert sorted(card.source.key for card in catalog.cards) == ["2:weather.json", "weather.json"]
    assert set(read.history.agents) == {card.source.key for card in catalog.cards}
