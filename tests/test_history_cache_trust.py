"""A cache only ever saves time: the site is the same with the history's cache, without it, and with any bytes in
its place (``history.cache_files``, the checks of ``history.store`` and ``history.snapshot``).

A pull request can commit any file and any symbolic link to the work tree: a forged ``history-head.cache`` at
the old place (``.cache/a2a-docgen/``, ``git add -f``) or a ``.cache`` link elsewhere gives the site a build
without a cache gives. The trusted side's own places (git's directory, a directory it names) are read without
following a link, and nothing in them is taken unless every value is one a build writes and every commit or blob
it names is in the repository.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen.catalog import load_catalog
from a2a_docgen.history import read as history_read
from a2a_docgen.history.cache_files import CACHE_ENV
from a2a_docgen.history.entries import CatalogHistory
from a2a_docgen.history.read import read_history
from a2a_docgen.history.snapshot import FILE_NAME as SNAPSHOT_FILE
from a2a_docgen.history.store import FILE_NAME as STORE_FILE
from a2a_docgen.render import render_catalog
from tests.support.history_repo import CardRepo, story_repo

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True, check=False).returncode != 0,
    reason="git is not installed",
)

REPO_URL = "https://github.com/team/cards"
PHISH = "../../../attacker/phish/releases#"
NOTICE = "SECURITY NOTICE: rotate your API keys at https://phish.example/rotate"


def read(root: Path) -> CatalogHistory:
    """The history a new process reads (nothing kept in memory), with commit links."""
    history_read.clear_cache()
    found = read_history(["cards"], base=str(root), repo_url=REPO_URL)
    assert found.history is not None, found.message
    return found.history


def site(root: Path, history: CatalogHistory) -> dict[str, bytes]:
    """Every page and file of the site, as ``build`` renders it."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return render_catalog(load_catalog(["cards"]), history=history).all_files()
    finally:
        os.chdir(cwd)


def without_cache(root: Path) -> tuple[CatalogHistory, dict[str, bytes]]:
    previous = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = "off"
    try:
        history = read(root)
    finally:
        if previous is None:
            del os.environ[CACHE_ENV]
        else:
            os.environ[CACHE_ENV] = previous
    return history, site(root, history)


def files_under(directory: Path) -> dict[str, bytes]:
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def genuine_cache(root: Path, directory: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The snapshot a build at ``root``'s ``HEAD`` writes to ``directory`` (with its walk: a whole log)."""
    monkeypatch.setenv(CACHE_ENV, str(directory))
    read(root)
    monkeypatch.delenv(CACHE_ENV)
    document: dict[str, Any] = json.loads((directory / SNAPSHOT_FILE).read_bytes())
    assert "walk" in document
    return document


def forge(document: dict[str, Any], commit: str = PHISH) -> dict[str, Any]:
    """``document`` with a **Breaking** notice on the weather agent (today ``cards/forecast.json``) at its
    latest commit, with ``commit`` as its commit id."""
    forged = copy.deepcopy(document)
    forged["entries"].append(
        [
            commit,
            "2026-02-01T00:00:00Z",
            NOTICE,
            "changed",
            "Weather Agent",
            "cards/forecast.json",
            [["breaking", "skill-removed", "forecast", NOTICE]],
            None,
            None,
            None,
        ]
    )
    number = len(forged["entries"]) - 1
    forged["recent"].insert(0, [number, "cards/forecast.json"])
    forged["agents"]["cards/forecast.json"].insert(0, number)
    forged["walk"]["state"]["cards/forecast.json"][2].append(number)
    return forged


@pytest.fixture
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[CardRepo]:
    monkeypatch.delenv(CACHE_ENV, raising=False)
    repo, _ = story_repo(tmp_path / "repo")
    (repo.root / ".gitignore").write_text(".cache/\n", encoding="utf-8")
    repo.commit("Ignore caches")
    yield repo
    history_read.clear_cache()


@pytest.mark.parametrize("how", ["forced file", "symbolic link"])
def test_a_pull_request_s_forged_cache_is_not_read(
    story: CardRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The attack of the issue: a forged snapshot keyed at main's tip, committed under ``.cache/a2a-docgen/``
    (``git add -f``) or where a committed ``.cache`` link points; the merged build (of a fresh clone: no cache
    of its own) goes on from no walk of the pull request's, shows no notice, links no other repository, and
    writes nothing where the link points."""
    forged = json.dumps(forge(genuine_cache(story.root, tmp_path / "genuine", monkeypatch)))
    elsewhere = tmp_path / "elsewhere"
    if how == "forced file":
        place = story.root / ".cache" / "a2a-docgen"
        place.mkdir(parents=True)
        (place / SNAPSHOT_FILE).write_text(forged, encoding="utf-8")
        story.git("add", "-f", f".cache/a2a-docgen/{SNAPSHOT_FILE}")
    else:
        (elsewhere / "a2a-docgen").mkdir(parents=True)
        (elsewhere / "a2a-docgen" / SNAPSHOT_FILE).write_text(forged, encoding="utf-8")
        os.symlink(elsewhere, story.root / ".cache")
        story.git("add", "-f", ".cache")
    story.commit("Docs: typo")
    outside = files_under(elsewhere) if how == "symbolic link" else {}

    expected_history, expected_site = without_cache(story.root)
    history = read(story.root)
    assert history == expected_history
    assert site(story.root, history) == expected_site
    text = b"".join(expected_site.values())
    assert NOTICE.encode() not in text and b"attacker/phish" not in text
    assert read(story.root) == expected_history  # the build after, with the cache it wrote
    if how == "symbolic link":
        assert files_under(elsewhere) == outside  # nothing written through the link
