"""Any date git prints is shown, or marked unknown: one commit's date never breaks a build.

RFC 3339 (and so an Atom feed) writes years 0001 to 9999. A commit dated in year 10000 (``GIT_COMMITTER_DATE=
@253402300800``, which newer git writes), one with a malformed or negative stamp (which git prints as nothing),
or with a stamp too large for any clock, is read with its date unknown.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from a2a_docgen.cli import main
from a2a_docgen.history.entries import UNKNOWN_DATE
from a2a_docgen.history.log import rfc3339
from a2a_docgen.history.read import read_history
from tests.support.atom import atom_problems, entries
from tests.support.history_repo import CardRepo, maps_card, weather_card

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

YEAR_10000 = "253402300800 +0000"
RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\Z")


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("A2A_DOCGEN_HISTORY_CACHE", "off")


def commit_dated(repo: CardRepo, message: str, committer: str) -> str:
    """Commit the cards with the committer's date field written as ``committer`` (``<seconds> <zone>`` or
    anything else): the object is written directly, as any git or tool may have written it."""
    repo.git("add", "-A")
    tree = repo.git("write-tree").strip()
    parent = repo.git("rev-parse", "--verify", "--quiet", "HEAD").strip()
    body = (
        f"tree {tree}\n"
        + (f"parent {parent}\n" if parent else "")
        + f"author A <a@example.com> {committer}\ncommitter A <a@example.com> {committer}\n\n{message}\n"
    )
    oid = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--literally", "--stdin"],
        cwd=repo.root,
        input=body,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    repo.git("update-ref", "refs/heads/main", oid)
    return oid


@pytest.fixture
def odd_dates(tmp_path: Path) -> CardRepo:
    """An ordinary first commit, then commits dated in year 10000, before 1970, malformed, and beyond any clock;
    ``HEAD`` is the one in year 10000."""
    repo = CardRepo(tmp_path / "repo")
    repo.write("weather.json", weather_card())
    repo.commit("Weather")
    for n, stamp in enumerate(["-100 +0000", "a long time ago", "99999999999999999999999 +0000", YEAR_10000]):
        card = weather_card()
        card["version"] = f"1.{n + 1}.0"
        repo.write("weather.json", card)
        if n == 3:
            repo.write("maps.json", maps_card())
        commit_dated(repo, f"Step {n + 1}", stamp)
    return repo


def test_a_date_rfc_3339_cannot_write_is_unknown(odd_dates: CardRepo) -> None:
    read = read_history(["cards"], base=str(odd_dates.root))
    assert read.history is not None, read.message
    recent = [r.entry for r in read.history.recent]
    assert [e.subject for e in recent] == ["Step 4", "Step 4", "Step 3", "Step 2", "Step 1", "Weather"]
    assert [e.date for e in recent[:-1]] == [UNKNOWN_DATE] * 5
    assert recent[-1].date == "2026-01-01T00:00:00Z"
    assert {e.day for e in recent[:-1]} == {"date unknown"}
    assert read.history.head_date == UNKNOWN_DATE


def test_every_build_writes_its_pages_and_valid_feeds(
    odd_dates: CardRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(odd_dates.root)
    assert main(["build", "cards", "-o", "out", "--site-url", "https://cards.example.com/"]) == 0
    out = odd_dates.root / "out"
    whats_new = (out / "whats-new.md").read_text(encoding="utf-8")
    assert "**date unknown**" in whats_new
    assert "**2026-01-01**" in whats_new
    feeds = [out / "whats-new.xml", *out.glob("agents/*/changes.xml")]
    assert len(feeds) == 3
    for feed in feeds:
        assert atom_problems(feed.read_bytes()) == [], feed
    dates = [entry["updated"] for entry in entries((out / "whats-new.xml").read_bytes())]
    assert dates == ["1970-01-01T00:00:00Z"] * 4 + [
        "2026-01-01T00:00:00Z"
    ]  # unknown: the epoch; one a commit
    capsys.readouterr()


@pytest.mark.slow
def test_the_plugin_builds_with_a_commit_of_year_10000(odd_dates: CardRepo) -> None:
    from tests.support.mkdocs_build import build_cards_site

    built = build_cards_site(odd_dates.root, site_url="https://cards.example.com/")
    assert "date unknown" in (built / "whats-new" / "index.html").read_text(encoding="utf-8")
    assert atom_problems((built / "whats-new.xml").read_bytes()) == []


@given(st.one_of(st.integers().map(str), st.text(max_size=40)))
def test_a_stamp_is_a_date_rfc_3339_can_write_or_unknown(stamp: str) -> None:
    date = rfc3339(stamp)
    assert date == UNKNOWN_DATE or RFC3339.match(date)


@pytest.mark.parametrize(
    ("stamp", "date"),
    [
        ("0", "1970-01-01T00:00:00Z"),
        ("-100", "1969-12-31T23:58:20Z"),
        ("-62135596800", "0001-01-01T00:00:00Z"),
        ("-62135596801", UNKNOWN_DATE),
        ("253402300799", "9999-12-31T23:59:59Z"),
        ("253402300800", UNKNOWN_DATE),
        ("", UNKNOWN_DATE),
        ("BAD", UNKNOWN_DATE),
    ],
)
def test_the_edges_of_rfc_3339(stamp: str, date: str) -> None:
    assert rfc3339(stamp) == date


def test_the_commit_of_year_10000_is_what_git_prints(odd_dates: CardRepo) -> None:
    """The stamp of the issue, read back as git printed it: ``%ct`` says 253402300800."""
    printed = odd_dates.git("log", "-1", "--format=%ct").strip()
    assert printed == "253402300800"
    assert rfc3339(printed) == UNKNOWN_DATE
