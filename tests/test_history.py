"""The change history from git: the Changes section, the history and "What's new" pages, the Atom feeds.

Every repository is made in the test (tests/support/history_repo.py) with fixed commit dates.
"""

from __future__ import annotations

import copy
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from a2a_docgen.catalog import load_catalog
from a2a_docgen.cli import main
from a2a_docgen.history import read as history_read
from a2a_docgen.history import walk as history_walk
from a2a_docgen.history.cache import HistoryCache
from a2a_docgen.history.entries import CatalogHistory, HistoryEntry
from a2a_docgen.history.read import read_history
from a2a_docgen.html import to_html
from a2a_docgen.render import render_catalog
from a2a_docgen.render.feeds import xml_text
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.text.unicode import clean_text, invisible_characters
from tests.support.atom import atom_problems, entries
from tests.support.history_repo import CardRepo, maps_card, story_repo, weather_card
from tests.support.markdown_tokens import html_tokens, inline_text, links, parse

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True, check=False).returncode != 0,
    reason="git is not installed",
)


def history_of(repo: CardRepo, **options: object) -> CatalogHistory:
    read = read_history(["cards"], base=str(repo.root), **options)  # type: ignore[arg-type]
    assert read.history is not None, read.message
    return read.history


def render(repo: CardRepo, history: CatalogHistory | None, **options: object) -> RenderedSite:
    cwd = os.getcwd()
    os.chdir(repo.root)
    try:
        return render_catalog(load_catalog(["cards"]), history=history, **options)  # type: ignore[arg-type]
    finally:
        os.chdir(cwd)


def text_of(md: str) -> str:
    return "\n".join(inline_text(md))


def agent_page(site: RenderedSite, name: str) -> str:
    return site.pages[f"agents/{name}/index.md"]


def section(page: str, title: str) -> str:
    start = page.index(f"\n## {title}")
    end = page.find("\n## ", start + 1)
    return page[start : end if end >= 0 else None]


@pytest.fixture
def story(tmp_path: Path) -> tuple[CardRepo, list[str]]:
    return story_repo(tmp_path / "repo")


def codes(entry: HistoryEntry) -> set[str]:
    return {f.code for f in entry.findings}


def test_each_step_of_the_story_is_classified_by_the_differ(story: tuple[CardRepo, list[str]]) -> None:
    repo, commits = story
    history = history_of(repo)
    weather = history.of("forecast.json")
    assert weather is not None  # the history followed the file's rename
    by_commit = {e.commit: e for e in weather.entries}
    assert [e.commit for e in weather.entries] == list(reversed(commits))  # latest first, one per commit
    added, skill, narrowed, scheme, broken, fixed, renamed = (by_commit[c] for c in commits)
    assert added.kind == "added"
    assert added.version_after == "1.0.0"
    assert skill.kind == "changed"
    assert "skill-added" in codes(skill)
    assert (skill.version_before, skill.version_after) == ("1.0.0", "1.1.0")
    assert skill.severity == "non-breaking"
    assert "input-mode-removed" in codes(narrowed)
    assert narrowed.breaking
    assert "scheme-renamed" in codes(scheme)  # the same definition under a new name: the differ says so
    assert scheme.breaking
    assert broken.kind == "unreadable"
    assert broken.breaking
    assert fixed.kind == "changed"  # compared with the last version that loaded, not with the broken one
    assert codes(fixed) == {"version-changed"}
    assert (fixed.version_before, fixed.version_after) == ("1.1.0", "2.0.0")
    assert renamed.kind == "moved"
    assert renamed.moved_from == "weather.json"
    assert renamed.path == "forecast.json"
    assert all(e.subject for e in weather.entries)
    maps = history.of("maps.json")
    assert maps is not None
    assert [e.kind for e in maps.entries] == ["added"]


def test_dates_come_from_the_commits(story: tuple[CardRepo, list[str]]) -> None:
    repo, _commits = story
    weather = history_of(repo).of("forecast.json")
    assert weather is not None
    # Commit n is dated 2026-01-01 + n days (at 00:00 UTC, written with a +0200 offset).
    assert [e.date for e in reversed(weather.entries)] == [f"2026-01-0{n + 1}T00:00:00Z" for n in range(7)]


def test_the_changes_section_shows_the_latest_and_links_to_every_change(
    story: tuple[CardRepo, list[str]],
) -> None:
    repo, commits = story
    site = render(repo, history_of(repo, repo_url="https://git.example.com/team/cards"))
    page = agent_page(site, "weather-agent")
    changes = section(page, "Changes")
    assert html_tokens(changes) == []
    items = [t for t in parse(changes) if t.type == "list_item_open" and t.level == 1]
    assert len(items) == 5  # the latest five; the page stays bounded
    text = text_of(changes)
    assert "Card file renamed" in text
    assert "Card unreadable in this version" in text
    assert "Breaking:" in text  # the narrowed mode and the renamed scheme
    assert "Agent added" not in text  # older: on the history page
    targets = links(changes)
    assert f"https://git.example.com/team/cards/commit/{commits[-1]}" in targets
    assert "changes.xml" in targets
    assert "history.md" in targets
    directory = "agents/weather-agent"
    every = site.pages[f"{directory}/history.md"]
    assert "Agent added" in text_of(every)
    assert "a new skill" in text_of(every)
    assert f"{directory}/changes.xml" in site.files


def test_the_agent_page_says_when_it_last_changed_and_what_near_the_top(
    story: tuple[CardRepo, list[str]],
) -> None:
    repo, _ = story
    card = weather_card()
    card["version"] = "2.0.0"
    card["defaultInputModes"] = ["text/plain"]
    card["securitySchemes"] = {"key": card["securitySchemes"]["apiKey"]}
    card["securityRequirements"] = [{"schemes": {"key": {"list": []}}}]
    card["skills"] = card["skills"][:1]  # the alerts skill is gone
    repo.write("forecast.json", card)
    repo.commit("Weather: no alerts")
    site = render(repo, history_of(repo))
    page = agent_page(site, "weather-agent")
    top = text_of(page[: page.index("\n## ")])  # the facts, before the first skill
    assert "Last changed: 2026-01-08, " in top
    assert 'Breaking: the skill is gone ("Alerts"); clients that call it fail (skill alerts)' in top
    assert "#changes" in links(page[: page.index("\n## ")])
    maps = text_of(agent_page(site, "maps-agent"))
    assert "Last changed: 2026-01-01, " in maps
    assert "Agent added (changes)" in maps
    assert "Last changed" not in text_of(agent_page(render(repo, None), "maps-agent"))


def test_the_home_page_links_the_agents_recently_changed_first(story: tuple[CardRepo, list[str]]) -> None:
    repo, _ = story
    site = render(repo, history_of(repo))
    assert "sorted/changed.md" in links(site.pages["index.md"])
    items = [i for i in inline_text(site.pages["sorted/changed.md"]) if "changed 2026-" in i]
    assert [i.split(" · changed ")[1][:10] for i in items] == [
        "2026-01-07",
        "2026-01-01",
    ]  # weather, then maps


def test_an_agent_with_few_changes_has_no_history_page(story: tuple[CardRepo, list[str]]) -> None:
    repo, _ = story
    site = render(repo, history_of(repo))
    maps = agent_page(site, "maps-agent")
    assert "history.md" not in links(section(maps, "Changes"))
    assert not any(p.startswith("agents/maps-agent/") and p.endswith("history.md") for p in site.pages)


def test_whats_new_lists_every_agent_latest_first_with_breaking_marked(
    story: tuple[CardRepo, list[str]],
) -> None:
    repo, _ = story
    site = render(repo, history_of(repo))
    assert "whats-new.md" in [entry.path for entry in site.nav]
    page = site.pages["whats-new.md"]
    assert html_tokens(page) == []
    items = [t for t in parse(page) if t.type == "list_item_open" and t.level == 1]
    assert len(items) == 7  # one per commit: the first added both agents
    text = text_of(page)
    assert text.index("Rename weather.json") < text.index("half-saved") < text.index("Add the weather")
    assert text.count("Breaking:") == 3
    assert "2 agents added · Add the weather and maps agents" in text
    agent_links = [href for href in links(page) if href.startswith("agents/")]
    assert len(agent_links) == 8
    assert all(href.endswith("/index.md") for href in agent_links)


def test_whats_new_is_paged(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    card = weather_card()
    for n in range(60):
        card = copy.deepcopy(card)
        card["description"] = f"Forecasts the weather, take {n}."
        repo.write("weather.json", card)
        repo.commit(f"Take {n}")
    site = render(repo, history_of(repo))
    assert {"whats-new.md", "whats-new-2.md"} <= set(site.pages)
    assert "whats-new-3.md" not in site.pages
    assert "page 1 of 2" in text_of(site.pages["whats-new.md"])
    history_pages = [p for p in site.pages if "/history" in p]
    assert len(history_pages) == 2  # 60 entries, 50 a page


def test_feeds_are_valid_atom_with_stable_ids(story: tuple[CardRepo, list[str]], tmp_path: Path) -> None:
    repo, _commits = story
    site = render(repo, history_of(repo), site_url="https://agents.example.com/")
    feeds = {path: data for path, data in site.files.items() if path.endswith(".xml")}
    assert "whats-new.xml" in feeds
    assert len(feeds) == 3  # the catalogue's and one per agent
    for path, data in feeds.items():
        assert atom_problems(data) == [], path
    catalogue = entries(feeds["whats-new.xml"])
    assert len(catalogue) == 7  # one per commit
    assert [e["updated"] for e in catalogue] == sorted((e["updated"] for e in catalogue), reverse=True)
    assert sum("(breaking)" in e["title"] for e in catalogue) == 3
    assert all(e["link"].startswith("https://agents.example.com/agents/") for e in catalogue[:-1])
    assert catalogue[-1]["link"] == "https://agents.example.com/whats-new/"  # the commit of two agents
    assert catalogue[-1]["title"] == "2 agents added: Maps Agent, Weather Agent"
    weather_feed = next(data for path, data in feeds.items() if path.startswith("agents/weather"))
    weather_ids = {e["id"] for e in entries(weather_feed)}
    # The same entry has the same id in both feeds (the first commit is one entry for two agents there).
    assert len(weather_ids - {e["id"] for e in catalogue}) == 1
    # A new commit adds an entry and keeps every id the feed had.
    card = weather_card()
    card["version"] = "3.0.0"
    repo.write("forecast.json", card)
    repo.commit("Weather: version 3")
    again = render(repo, history_of(repo), site_url="https://agents.example.com/")
    newer = entries(again.files["whats-new.xml"])
    assert len(newer) == 8
    assert {e["id"] for e in catalogue} < {e["id"] for e in newer}


def test_pages_link_their_feed(story: tuple[CardRepo, list[str]]) -> None:
    repo, _ = story
    site = render(repo, history_of(repo))
    agent = "agents/weather-agent/index.md"
    directory = agent.rsplit("/", 1)[0]
    assert site.feeds[agent] == f"{directory}/changes.xml"
    assert site.feeds[f"{directory}/history.md"] == f"{directory}/changes.xml"
    assert site.feeds["index.md"] == "whats-new.xml"
    assert site.feeds["whats-new.md"] == "whats-new.xml"


def test_the_same_repository_state_gives_the_same_bytes(
    story: tuple[CardRepo, list[str]], tmp_path: Path
) -> None:
    repo, _ = story
    first = render(repo, history_of(repo)).all_files()
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo.root), str(clone)], check=True)
    cloned = CardRepo.__new__(CardRepo)
    cloned.root = clone
    second = render(cloned, history_of(cloned)).all_files()
    assert first == second


def test_a_shallow_clone_says_so_and_shows_what_it_has(
    story: tuple[CardRepo, list[str]], tmp_path: Path
) -> None:
    repo, commits = story
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{repo.root}", str(clone)],
        check=True,
        capture_output=True,
    )
    read = read_history(["cards"], base=str(clone))
    assert read.history is not None
    assert read.message is not None
    assert "shallow clone" in read.message
    assert "fetch-depth: 0" in read.message
    weather = read.history.of("forecast.json")
    assert weather is not None
    assert [e.kind for e in weather.entries] == ["moved", "first-seen"]
    assert weather.entries[1].commit == commits[-2]
    cloned = CardRepo.__new__(CardRepo)
    cloned.root = clone
    page = agent_page(render(cloned, read.history), "weather-agent")
    assert "shallow clone" in text_of(section(page, "Changes"))


def test_the_bound_on_commits_keeps_the_latest(story: tuple[CardRepo, list[str]]) -> None:
    repo, commits = story
    read = read_history(["cards"], base=str(repo.root), max_commits=3)
    assert read.history is not None
    assert read.message is not None
    assert "latest 3 commits" in read.message
    weather = read.history.of("forecast.json")
    assert weather is not None
    assert [e.commit for e in weather.entries] == list(reversed(commits[-3:]))
    # The oldest of the three broke the card: the version before it, outside the bound, is still read (from the
    # blob id the log gives), so the break is told as such and the repair is compared with that version.
    assert [e.kind for e in weather.entries] == ["moved", "changed", "unreadable"]
    assert codes(weather.entries[1]) == {"version-changed"}


def test_an_agent_renamed_or_moved_to_another_file_keeps_its_history(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    card = maps_card()
    repo.write("maps.json", card)
    repo.commit("Maps")
    card = copy.deepcopy(card)
    card["name"] = "Atlas Agent"  # renamed: matched by its URL
    repo.write("maps.json", card)
    repo.commit("Rename the agent")
    (repo.cards / "maps.json").unlink()
    card = copy.deepcopy(card)
    card["description"] = "Finds places, and more."
    repo.write("atlas-v2.json", card)  # another file, content changed: no git rename, the differ pairs it
    repo.commit("Move the agent to atlas-v2.json")
    history = history_of(repo)
    atlas = history.of("atlas-v2.json")
    assert atlas is not None
    assert [e.kind for e in atlas.entries] == ["changed", "changed", "added"]
    assert "agent-renamed" in codes(atlas.entries[1])
    assert atlas.entries[0].moved_from == "maps.json"
    assert "description-changed" in codes(atlas.entries[0])


def test_a_removed_agent_is_in_whats_new(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    repo.write("maps.json", maps_card())
    repo.write("weather.json", weather_card())
    repo.commit("Two agents")
    (repo.cards / "maps.json").unlink()
    repo.commit("Retire maps")
    site = render(repo, history_of(repo))
    page = site.pages["whats-new.md"]
    assert "Maps Agent (gone)" in text_of(page)
    assert "Agent removed" in text_of(page)
    assert atom_problems(site.files["whats-new.xml"]) == []


def test_a_file_that_never_loaded_is_reported_not_raised(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    repo.write("maps.json", maps_card())
    repo.write("junk.json", "not json at all {")
    repo.commit("A card and junk")
    repo.write("junk.json", '{"name": "Junk Agent", "skills": []}')  # loads (with errors) now
    repo.commit("Junk is a card now")
    history = history_of(repo)
    junk = history.of("junk.json")
    assert junk is not None
    assert [e.kind for e in junk.entries] == ["added", "unreadable"]


def test_commit_and_card_text_is_escaped_on_pages_and_in_feeds(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    card = maps_card()
    repo.write("maps.json", card)
    repo.commit("Start")
    card = copy.deepcopy(card)
    card["skills"].append(
        {"id": "x</a>", "name": "<script>alert(1)</script> ]]> &amp;", "description": "d", "tags": []}
    )
    repo.write("maps.json", card)
    repo.commit("<img src=x onerror=alert(1)> [link](javascript:alert(1)) ]]> \x01 &lt;")
    site = render(repo, history_of(repo))
    for path in ("whats-new.md", agent_page_path(site, "maps-agent")):
        page = site.pages[path]
        assert html_tokens(page) == [], path
        assert not any(href.startswith("javascript") for href in links(page))
    for path, data in site.files.items():
        if path.endswith(".xml"):
            assert atom_problems(data) == [], path
            content = " ".join(e["content"] + e["title"] for e in entries(data))
            assert "<script>" not in content  # HTML-escaped inside the html content, then XML-escaped
            assert "&lt;script&gt;" in content or "Start" in content


HIDDEN = "\u202e\u200b\u2066\u2067\u2068\u2069\ufeff\U000e0041\u200e\u061c"
"""Direction overrides and isolates, zero-width characters, a byte order mark, a tag character, marks."""


def feed_texts(data: bytes) -> list[str]:
    """Every text and attribute value of a feed, as a feed reader reads them (after XML unescaping), and the
    text of each entry's HTML content."""
    texts: list[str] = []
    for element in ET.fromstring(data).iter():
        texts += [element.text or "", *element.attrib.values()]
        if element.get("type") == "html":
            texts += list(ET.fromstring(f"<div>{element.text}</div>").itertext())
    return texts


def test_feeds_show_invisible_and_direction_characters_as_the_pages_mark_them(tmp_path: Path) -> None:
    """A card name, a commit subject and a file name with invisible or direction characters: the feeds carry
    none of them raw, and show the markers the pages show."""
    repo = CardRepo(tmp_path / "repo")
    card = maps_card()
    card["name"] = "Invoice Viewer \u202eFDP.exe"
    repo.write("invoice.json", card)
    repo.commit("Add the invoice viewer")
    card = copy.deepcopy(card)
    card["version"] = "2.1.0"
    (repo.cards / "invoice.json").unlink()
    repo.write(f"in{HIDDEN}voice.json", card)
    repo.commit(f"Harmless{HIDDEN} fix")
    site = render(repo, history_of(repo))
    feeds = {path: data for path, data in site.files.items() if path.endswith(".xml")}
    assert len(feeds) == 2
    for path, data in feeds.items():
        assert atom_problems(data) == [], path
        raw = [(text, invisible_characters(text)) for text in feed_texts(data)]
        assert [found for found in raw if found[1]] == [], path
        text = " ".join(text for text, _ in raw)
        page = text_of(
            site.pages["whats-new.md"]
            if path == "whats-new.xml"
            else agent_page(site, "invoice-viewer-fdp-exe")
        )
        name = clean_text(card["name"])
        assert name == "Invoice Viewer \u27e8U+202E\u27e9FDP.exe"
        assert name in text, path
        assert name in page, path
        assert clean_text(f"Harmless{HIDDEN} fix") in text, path
        assert clean_text(f"in{HIDDEN}voice.json") in text, path


@given(st.text())
def test_feed_text_is_xml_with_nothing_invisible(value: str) -> None:
    text = xml_text(value)
    element = ET.fromstring(f'<a b="{text}">{text}</a>')
    assert (element.text or "") == element.get("b") == clean_text(value)
    assert invisible_characters(element.get("b", "")) == []


def agent_page_path(site: RenderedSite, name: str) -> str:
    return f"agents/{name}/index.md"


def test_cards_outside_a_repository_have_no_history(tmp_path: Path) -> None:
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "maps.json").write_text(str(maps_card()).replace("'", '"'), encoding="utf-8")
    read = read_history(["cards"], base=str(tmp_path))
    assert read.history is None
    assert read.message is None


def test_a_missing_git_is_said_and_the_site_builds_without_history(
    story: tuple[CardRepo, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, _ = story
    monkeypatch.setenv("PATH", str(repo.root / "no-such-directory"))
    read = read_history(["cards"], base=str(repo.root))
    assert read.history is None
    assert read.message is not None
    assert "needs git" in read.message


def test_an_old_git_is_said(story: tuple[CardRepo, list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    repo, _ = story
    monkeypatch.setattr(history_read, "git_version", lambda cwd: (2, 9, 0))
    read = read_history(["cards"], base=str(repo.root))
    assert read.history is None
    assert read.message is not None
    assert "git 2.20 or newer (found 2.9.0)" in read.message


def test_a_rebuild_with_the_same_head_reads_no_history_again(
    story: tuple[CardRepo, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, _ = story
    kept = HistoryCache()  # what mkdocs serve and build --watch keep from one build to the next
    first = read_history(["cards"], base=str(repo.root), cache=kept)
    (repo.cards / "maps.json").write_text("{}", encoding="utf-8")  # an edit in the work tree, not committed

    def no_log(*args: object, **kwargs: object) -> None:
        raise AssertionError("the history was read again")

    monkeypatch.setattr(history_read, "read_log", no_log)
    again = read_history(["cards"], base=str(repo.root), cache=kept)
    assert again.cached
    assert again.history is first.history
    plain = read_history(["cards"], base=str(repo.root))  # a plain build keeps nothing: a fresh read
    assert not plain.cached
    assert plain.history is not first.history
    assert plain.history == first.history


def test_the_findings_of_earlier_steps_are_kept_after_a_new_commit(
    story: tuple[CardRepo, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, _ = story
    monkeypatch.setenv("A2A_DOCGEN_HISTORY_CACHE", "off")  # kept in this process only, by the caller's cache
    kept = HistoryCache()
    first = history_of(repo, cache=kept)
    card = weather_card()
    card["version"] = "9.0.0"
    repo.write("forecast.json", card)
    repo.commit("Version 9")
    classified: list[object] = []
    original = history_walk.classify

    def counting(old: object, new: object, day: object) -> object:
        classified.append(new)
        return original(old, new, day)  # type: ignore[arg-type]

    monkeypatch.setattr(history_walk, "classify", counting)
    second = history_of(repo, cache=kept)
    assert second is not first
    assert len(second.recent) == len(first.recent) + 1
    assert len(classified) == 1  # the earlier steps' findings are kept, keyed by blob ids: only the new step
    classified.clear()
    assert history_of(repo) == second  # a plain build keeps nothing: every step classified again
    assert len(classified) > 1


def test_build_writes_the_history_and_no_history_leaves_it_out(
    story: tuple[CardRepo, list[str]], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = story
    monkeypatch.chdir(repo.root)
    assert main(["build", "cards", "-o", "with", "--repo-url", "https://git.example.com/team/cards"]) == 0
    assert (repo.root / "with" / "whats-new.md").is_file()
    assert (repo.root / "with" / "whats-new.xml").is_file()
    assert "/commit/" in (repo.root / "with" / "whats-new.md").read_text(encoding="utf-8")
    assert main(["build", "cards", "-o", "without", "--no-history"]) == 0
    assert not (repo.root / "without" / "whats-new.md").exists()
    page = (repo.root / "without" / "agents" / "weather-agent" / "index.md").read_text(encoding="utf-8")
    assert "## Changes" not in page
    capsys.readouterr()
    assert main(["build", "cards", "-o", "bad", "--repo-url", "javascript:alert(1)"]) == 2


def test_a_repository_without_commits_has_an_empty_history(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    repo.write("maps.json", maps_card())
    history = history_of(repo)
    assert history.agents == {}
    site = render(repo, history)
    assert "No change to any card" in text_of(site.pages["whats-new.md"])
    assert atom_problems(site.files["whats-new.xml"]) == []
    assert "No recorded change" in text_of(section(agent_page(site, "maps-agent"), "Changes"))


def test_merges_are_told_along_the_first_parent(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    repo.write("maps.json", maps_card())
    repo.commit("Maps")
    repo.git("checkout", "-q", "-b", "topic")
    card = maps_card()
    card["skills"].append({"id": "route", "name": "Route", "description": "Routes.", "tags": ["maps"]})
    repo.write("maps.json", card)
    repo.commit("Topic: a route skill")
    repo.git("checkout", "-q", "main")
    repo.write("weather.json", weather_card())
    repo.commit("Weather")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge topic", "topic")
    repo.count += 1
    maps = history_of(repo).of("maps.json")
    assert maps is not None
    assert [e.subject for e in maps.entries] == ["Merge topic", "Maps"]
    assert "skill-added" in codes(maps.entries[0])


def test_cards_at_the_top_a_file_argument_and_odd_names(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    repo.write("söme card.json", maps_card())
    (repo.root / "top.json").write_text(
        str(weather_card()).replace("'", '"').replace("True", "true"), "utf-8"
    )
    repo.commit("Cards")
    card = maps_card()
    card["version"] = "2.1.0"
    repo.write("söme card.json", card)
    repo.commit("Bump")
    read = read_history(["."], base=str(repo.root))
    assert read.history is not None
    assert set(read.history.agents) == {"cards/söme card.json", "top.json"}  # keyed below "."
    single = read_history([os.path.join("cards", "söme card.json")], base=str(repo.root))
    assert single.history is not None
    assert list(single.history.agents) == ["söme card.json"]  # a file given directly: its name
    (entry, _) = single.history.agents["söme card.json"].entries
    assert (entry.version_before, entry.version_after) == ("2.0.0", "2.1.0")


@pytest.mark.slow
def test_the_plugin_builds_the_history_and_links_the_feeds(story: tuple[CardRepo, list[str]]) -> None:
    from tests.support.mkdocs_build import build_projects

    repo, commits = story
    (repo.root / "docs").mkdir()
    for name, option in (("with", "true"), ("without", "false")):
        (repo.root / f"{name}.yml").write_text(
            "site_name: Cards\nrepo_url: https://git.example.com/team/cards\ndocs_dir: docs\n"
            "theme:\n  name: material\n  font: false\n"
            f"plugins:\n  - search\n  - a2a-docgen:\n      cards: cards\n      search_index: off\n      history: {option}\n",
            encoding="utf-8",
        )
    built = build_projects(
        {name: (repo.root / f"{name}.yml", repo.root / f"site-{name}") for name in ("with", "without")}
    )
    for build in built.values():
        assert build.returncode == 0, build.output
    site = repo.root / "site-with"
    agent = (site / "agents/weather-agent/index.html").read_text(encoding="utf-8")
    assert (
        '<link rel="alternate feed" type="application/atom+xml" title="Changes (Atom)" href="changes.xml">'
        in agent
    )
    assert f"https://git.example.com/team/cards/commit/{commits[-1]}" in agent
    history_page = (site / "agents/weather-agent/history/index.html").read_text(encoding="utf-8")
    assert 'href="../changes.xml"' in history_page
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="whats-new.xml"' in home
    assert "whats-new/" in home  # in the navigation
    for feed in [site / "whats-new.xml", *site.glob("agents/*/changes.xml")]:
        assert atom_problems(feed.read_bytes()) == [], feed
    cached = repo.root / ".git" / "a2a-docgen"  # written by the build (while its pages converted)
    assert {path.name for path in cached.iterdir()} >= {"history.cache", "history-head.cache"}
    bare = repo.root / "site-without"
    assert not (bare / "whats-new.xml").exists()
    assert "application/atom+xml" not in (bare / "index.html").read_text(encoding="utf-8")


def test_an_entry_shows_a_bounded_number_of_findings(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    card = maps_card()
    repo.write("maps.json", card)
    repo.commit("Maps")
    card = copy.deepcopy(card)
    card["skills"] += [
        {"id": f"s{n}", "name": f"Skill {n}", "description": "More.", "tags": ["maps"]} for n in range(40)
    ]
    repo.write("maps.json", card)
    repo.commit("Forty skills")
    site = render(repo, history_of(repo))
    changes = text_of(section(agent_page(site, "maps-agent"), "Changes"))
    assert changes.count("a new skill") == 10
    assert "and 30 more findings" in changes
    whats_new = text_of(site.pages["whats-new.md"])
    assert whats_new.count("a new skill") == 25
    assert "and 15 more findings" in whats_new
    feed = entries(site.files["whats-new.xml"])[0]
    assert feed["content"].count("a new skill") == 40  # a feed entry is complete


def test_a_commit_that_removes_many_agents_is_one_entry_with_its_agents_folded(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    repo.write("weather.json", weather_card())
    for n in range(53):
        card = maps_card()
        card["name"] = f"Maps Agent {n:02}"
        card["supportedInterfaces"][0]["url"] = f"https://maps{n}.example.com/a2a"
        repo.write(f"maps-{n:02}.json", card)
    repo.commit("Initial catalogue")
    for n in range(53):
        (repo.cards / f"maps-{n:02}.json").unlink()
    repo.commit("Remove the maps agents")
    site = render(repo, history_of(repo))
    assert "whats-new-2.md" not in site.pages
    page = site.pages["whats-new.md"]
    assert html_tokens(page) == []
    assert len([t for t in parse(page) if t.type == "list_item_open" and t.level == 1]) == 2
    text = text_of(page)
    assert "Breaking: 53 agents removed · Remove the maps agents" in text
    assert "54 agents added · Initial catalogue" in text
    assert text.count("Agent removed") == 50  # COMMIT_AGENTS_SHOWN
    assert text.index("Maps Agent 00") < text.index("Maps Agent 49") < text.index("and 3 more agents")
    assert "and 3 more agents" in text
    assert to_html(page).html.count('<details class="a2a-fold">') == 2
    feed = entries(site.files["whats-new.xml"])
    assert atom_problems(site.files["whats-new.xml"]) == []
    assert [e["title"] for e in feed] == [
        "53 agents removed: Maps Agent 00, Maps Agent 01, Maps Agent 02 and 50 more (breaking)",
        "54 agents added: Maps Agent 00, Maps Agent 01, Maps Agent 02 and 51 more",
    ]
    assert feed[0]["content"].count("Agent removed") == 53


def test_a_version_policy_finding_is_counted_apart_from_the_changes(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    card = weather_card()
    repo.write("weather.json", card)
    repo.commit("Weather")
    card = copy.deepcopy(card)
    card["defaultInputModes"] = ["text/plain"]  # breaking, and the version stays 1.0.0
    repo.write("weather.json", card)
    repo.commit("Weather: text input only")
    entry = history_of(repo).agents["weather.json"].entries[0]
    assert {f.code for f in entry.findings} == {"input-mode-removed", "version-not-bumped"}
    assert entry.counts()["breaking"] == 1
    assert entry.policy_count == 1
    site = render(repo, history_of(repo))
    assert "Card changed: 1 breaking, 1 policy finding" in text_of(site.pages["whats-new.md"])
    assert "policy finding (breaking): breaking changes ship" in text_of(site.pages["whats-new.md"])
    title = entries(site.files["whats-new.xml"])[0]["title"]
    assert title == (
        'Weather Agent: the card defaults no longer accept "application/json"; this applies to the skills that '
        'inherit these defaults: "forecast"; 1 policy finding (breaking)'
    )


def test_the_history_knows_the_differ_s_policy_codes() -> None:
    from a2a_docgen.history.entries import POLICY_CODES
    from a2a_docgen.review.codes import POLICY_CODES as REVIEW_POLICY_CODES

    assert POLICY_CODES == REVIEW_POLICY_CODES


def test_the_real_cards_through_a_history_never_raise(shared_dir: Path, tmp_path: Path) -> None:
    """The real cards (many invalid), committed, then each truncated to half its bytes, then restored."""
    real = sorted((shared_dir / "cards" / "real").glob("*.json"))
    assert real
    repo = CardRepo(tmp_path / "repo")
    for path in real:
        (repo.cards / path.name).write_bytes(path.read_bytes())
    repo.commit("The real cards")
    for path in real:
        data = path.read_bytes()
        (repo.cards / path.name).write_bytes(data[: len(data) // 2])
    repo.commit("Every card cut in half")
    for path in real:
        (repo.cards / path.name).write_bytes(path.read_bytes())
    repo.commit("Restored")
    history = history_of(repo)
    site = render(repo, history)
    for path, data in site.files.items():
        if path.endswith(".xml"):
            assert atom_problems(data) == [], path
    loaded = [agent for agent in history.agents.values() if agent.entries[-1].kind == "added"]
    assert len(loaded) >= 10
    for agent in loaded:
        # Half a JSON document never loads; the restored card equals the last version that did: no entry.
        assert [e.kind for e in agent.entries] == ["unreadable", "added"]


def test_the_repository_s_own_git_settings_do_not_change_the_history(
    story: tuple[CardRepo, list[str]],
) -> None:
    repo, _ = story
    plain = history_of(repo)
    for key, value in (("log.showRoot", "false"), ("log.showSignature", "true"), ("diff.renames", "false")):
        repo.git("config", key, value)
    assert history_of(repo) == plain


def test_the_home_page_links_whats_new_only_with_a_history(story: tuple[CardRepo, list[str]]) -> None:
    repo, _ = story
    assert {"whats-new.md", "whats-new.xml"} <= set(links(render(repo, history_of(repo)).pages["index.md"]))
    bare = render(repo, None)
    assert not {"whats-new.md", "whats-new.xml"} & set(links(bare.pages["index.md"]))
    assert "whats-new.md" not in bare.pages
    assert not any(path.endswith(".xml") for path in bare.files)
    assert bare.feeds == {}


def test_a_serve_rebuild_with_history_is_a_fresh_render(story: tuple[CardRepo, list[str]]) -> None:
    """``mkdocs serve``: the same HEAD after a card edit, a new commit after that; each rebuild reusing the last
    render's views gives what a render from nothing gives."""
    from a2a_docgen.render import RenderReuse

    repo, _ = story
    reuse = RenderReuse()
    render(repo, history_of(repo), reuse=reuse)
    card = maps_card()
    card["description"] = "Finds places, edited in the work tree."
    repo.write("maps.json", card)
    again = render(repo, history_of(repo), reuse=reuse)
    assert again.all_files() == render(repo, history_of(repo)).all_files()
    repo.commit("Maps: a new description")
    newer = render(repo, history_of(repo), reuse=reuse)
    fresh = render(repo, history_of(repo))
    assert newer.all_files() == fresh.all_files()
    assert "description" in text_of(section(agent_page(newer, "maps-agent"), "Changes"))
