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
import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen.catalog import load_catalog
from a2a_docgen.history import read as history_read
from a2a_docgen.history.cache_files import CACHE_ENV
from a2a_docgen.history.entries import UNKNOWN_DATE, CatalogHistory, EntryKind
from a2a_docgen.history.read import read_history
from a2a_docgen.history.snapshot import FILE_NAME as SNAPSHOT_FILE
from a2a_docgen.history.store import FILE_NAME as STORE_FILE
from a2a_docgen.history.store import MAX_TEXT
from a2a_docgen.render import render_catalog
from a2a_docgen.render.env import TemplateEnvs
from tests.support.history_repo import CardRepo, maps_card, story_repo

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True, check=False).returncode != 0,
    reason="git is not installed",
)

REPO_URL = "https://github.com/team/cards"
PHISH = "../../../attacker/phish/releases#"
NOTICE = "SECURITY NOTICE: rotate your API keys at https://phish.example/rotate"
KINDS = frozenset(get_args(EntryKind))


def read(root: Path) -> CatalogHistory:
    """The history a new process reads (nothing kept in memory), with commit links."""
    found = read_history(["cards"], base=str(root), repo_url=REPO_URL)
    assert found.history is not None, found.message
    return found.history


def site(root: Path, history: CatalogHistory, envs: TemplateEnvs | None = None) -> dict[str, bytes]:
    """Every page and file of the site, as ``build`` renders it."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return render_catalog(load_catalog(["cards"]), history=history, envs=envs).all_files()
    finally:
        os.chdir(cwd)


def without_cache(root: Path, envs: TemplateEnvs | None = None) -> tuple[CatalogHistory, dict[str, bytes]]:
    previous = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = "off"
    try:
        history = read(root)
    finally:
        if previous is None:
            del os.environ[CACHE_ENV]
        else:
            os.environ[CACHE_ENV] = previous
    return history, site(root, history, envs)


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
            "forecast.json",
            [["breaking", "skill-removed", "forecast", NOTICE]],
            None,
            None,
            None,
        ]
    )
    number = len(forged["entries"]) - 1
    forged["recent"].insert(0, [number, "forecast.json"])
    forged["agents"]["forecast.json"].insert(0, number)
    forged["walk"]["state"]["cards/forecast.json"][2].append(number)
    return forged


@pytest.fixture
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CardRepo:
    monkeypatch.delenv(CACHE_ENV, raising=False)
    repo, _ = story_repo(tmp_path / "repo")
    (repo.root / ".gitignore").write_text(".cache/\n", encoding="utf-8")
    repo.commit("Ignore caches")
    return repo


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
    assert NOTICE.encode() not in text
    assert b"attacker/phish" not in text
    assert read(story.root) == expected_history  # the build after, with the cache it wrote
    if how == "symbolic link":
        assert files_under(elsewhere) == outside  # nothing written through the link


# The trusted side's places: never through a link, never inside the work tree.


def cache_place(repo: CardRepo, tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache directory a build of ``repo`` uses: git's (no setting) or one the environment names."""
    if where == "git":
        monkeypatch.delenv(CACHE_ENV, raising=False)
        return repo.root / ".git" / "a2a-docgen"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "named"))
    return tmp_path / "named"


@pytest.mark.parametrize("where", ["git", "named"])
@pytest.mark.parametrize("link", ["directory", "files"])
def test_a_link_at_the_cache_directory_or_file_is_neither_read_nor_written_through(
    story: CardRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, link: str
) -> None:
    """Behind the link, a snapshot every check takes (its notice at a real commit, the store's findings of
    another code): read through the link, the pages would show them."""
    head = story.git("rev-parse", "HEAD").strip()
    document = genuine_cache(story.root, tmp_path / "genuine", monkeypatch)
    store = json.loads((tmp_path / "genuine" / STORE_FILE).read_bytes())
    expected_history, expected_site = without_cache(story.root)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / SNAPSHOT_FILE).write_text(json.dumps(forge(document, head)), encoding="utf-8")
    (elsewhere / STORE_FILE).write_text(json.dumps(store), encoding="utf-8")
    place = cache_place(story, tmp_path, where, monkeypatch)
    if link == "directory":
        os.symlink(elsewhere, place)
    else:
        place.mkdir()
        for name in (SNAPSHOT_FILE, STORE_FILE):
            os.symlink(elsewhere / name, place / name)
    before = files_under(elsewhere)

    history = read(story.root)
    assert history == expected_history
    assert site(story.root, history) == expected_site
    assert files_under(elsewhere) == before  # nothing written through a link
    assert read(story.root) == expected_history
    assert files_under(elsewhere) == before
    if link == "directory":
        place.unlink()
    else:
        shutil.rmtree(place)
    # The same files in place of the link are taken: the link was the reason they were not.
    shutil.copytree(elsewhere, place)
    assert NOTICE in {entry.subject for entry in read(story.root).agents["forecast.json"].entries}


def test_a_named_directory_inside_the_work_tree_is_no_cache(
    story: CardRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``A2A_DOCGEN_HISTORY_CACHE=.cache/a2a-docgen`` (the old place, kept by a team's setting) names a place a
    pull request can write: neither read nor written."""
    head = story.git("rev-parse", "HEAD").strip()
    document = genuine_cache(story.root, tmp_path / "genuine", monkeypatch)
    expected_history, expected_site = without_cache(story.root)
    inside = story.root / ".cache" / "a2a-docgen"
    inside.mkdir(parents=True)
    (inside / SNAPSHOT_FILE).write_text(json.dumps(forge(document, head)), encoding="utf-8")
    before = files_under(inside)
    monkeypatch.setenv(CACHE_ENV, ".cache/a2a-docgen")
    monkeypatch.chdir(story.root)
    history = read(story.root)
    assert history == expected_history
    assert site(story.root, history) == expected_site
    assert files_under(inside) == before


# Any bytes in the cache's place: random, or well formed with values no build writes.


@dataclass(frozen=True)
class Genuine:
    """A repository, the caches a build writes for it, and its history and site without a cache."""

    root: Path
    named: Path
    head: str
    blob: str
    snapshot: dict[str, Any]
    """At ``HEAD``."""
    kept: dict[str, Any]
    """At the commit before, with its walk: the build at ``HEAD`` goes on from it."""
    store: dict[str, Any]
    history: CatalogHistory
    site: dict[str, str]
    """Each file's digest (``digests``)."""


def digests(files: dict[str, bytes]) -> dict[str, str]:
    """A site's files by digest: hypothesis, given the files themselves, cannot replay a failing example."""
    return {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}


@pytest.fixture(scope="module")
def genuine(tmp_path_factory: pytest.TempPathFactory, template_envs: TemplateEnvs) -> Genuine:
    tmp = tmp_path_factory.mktemp("forgeries")
    repo, _ = story_repo(tmp / "repo")
    card = maps_card()
    card["version"] = "2.1.0"
    repo.write("maps.json", card)
    repo.commit("Maps 2.1.0")
    with pytest.MonkeyPatch.context() as patch:
        for at, where in (("HEAD~1", tmp / "before"), ("main", tmp / "at-head")):
            repo.git("checkout", "-q", "--detach", at)
            patch.setenv(CACHE_ENV, str(where))
            read(repo.root)
        repo.git("checkout", "-q", "main")
        history, pages = without_cache(repo.root, template_envs)
    return Genuine(
        root=repo.root,
        named=tmp / "named",
        head=repo.git("rev-parse", "HEAD").strip(),
        blob=repo.git("rev-parse", "HEAD:cards/maps.json").strip(),
        snapshot=json.loads((tmp / "at-head" / SNAPSHOT_FILE).read_bytes()),
        kept=json.loads((tmp / "before" / SNAPSHOT_FILE).read_bytes()),
        store=json.loads((tmp / "at-head" / STORE_FILE).read_bytes()),
        history=history,
        site=digests(pages),
    )


SOMETHING_ELSE = st.one_of(
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
"""Not a string, and not null."""
NOT_TEXT = st.one_of(st.none(), SOMETHING_ELSE)
OVERLONG = st.just("x" * (MAX_TEXT + 1))
BAD_DATES = st.one_of(
    st.sampled_from(
        [
            "2026-13-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-01-01T00:00:00",
            "2026-01-01 00:00:00Z",
            "2026-01-01T00:00:00+00:00",
            "yesterday",
        ]
    ),
    # Not UNKNOWN_DATE (""): a date a build writes for a commit RFC 3339 cannot date.
    st.text(min_size=1, max_size=25).filter(lambda text: not text[:4].isdigit()),
    NOT_TEXT,
)


def bad_id_texts(genuine: Genuine, other_type: str) -> st.SearchStrategy[str]:
    """Object ids no build writes: not 40 or 64 lowercase hex digits, not in the repository, another type's."""
    return st.one_of(
        st.sampled_from(
            [
                PHISH,
                genuine.head.upper(),
                genuine.head[:39],
                genuine.head + "\n",
                " " + genuine.head,
                "g" * 40,
                other_type,
            ]
        ),
        st.from_regex(r"[0-9a-f]{40}|[0-9a-f]{64}", fullmatch=True),  # not in the repository
        st.text(max_size=70),
    )


def bad_ids(genuine: Genuine, other_type: str) -> st.SearchStrategy[Any]:
    return st.one_of(bad_id_texts(genuine, other_type), NOT_TEXT)


def forged_snapshot(genuine: Genuine, data: st.DataObject) -> dict[str, Any]:
    walk = data.draw(st.booleans(), label="a walk to go on from")
    document = copy.deepcopy(genuine.kept if walk else genuine.snapshot)
    entries = document["entries"]
    row = entries[data.draw(st.integers(0, len(entries) - 1), label="entry")]
    lie = data.draw(
        st.sampled_from(
            [
                "commit",
                "date",
                "kind",
                "text",
                "finding",
                "unknown commit",
                *(["commits", "blob"] if walk else ["head date"]),
            ]
        ),
        label="lie",
    )
    if lie == "commit":
        row[0] = data.draw(bad_ids(genuine, genuine.blob))
    elif lie == "date":
        row[1] = data.draw(BAD_DATES)
    elif lie == "kind":
        row[3] = data.draw(st.one_of(st.text(max_size=12).filter(lambda kind: kind not in KINDS), NOT_TEXT))
    elif lie == "text":
        row[data.draw(st.sampled_from([2, 4, 5]))] = data.draw(st.one_of(NOT_TEXT, OVERLONG))
    elif lie == "finding":
        row[6] = [data.draw(bad_finding(genuine))]
    elif lie == "unknown commit":  # well formed, of a commit the repository lacks
        return forge(document, data.draw(st.from_regex(r"[0-9a-f]{40}", fullmatch=True)))
    elif lie == "head date":
        document["head_date"] = data.draw(BAD_DATES)
    elif lie == "commits":
        document["walk"]["commits"] = data.draw(st.sampled_from([-1, True, 1.5, "3", None, 10**9]))
    else:
        lineage = data.draw(st.sampled_from(sorted(document["walk"]["state"])))
        document["walk"]["state"][lineage][0][0] = data.draw(bad_ids(genuine, genuine.head))
    return document


def bad_finding(genuine: Genuine) -> st.SearchStrategy[list[Any]]:
    good = ["breaking", "skill-removed", "forecast", NOTICE]
    return st.one_of(
        st.builds(
            lambda severity: [severity, *good[1:]],
            st.one_of(st.sampled_from(["critical", "Breaking", ""]), NOT_TEXT),
        ),
        st.builds(
            lambda code: [good[0], code, *good[2:]],
            st.one_of(st.sampled_from(["SECURITY-NOTICE", "Skill-Removed", ""]), NOT_TEXT),
        ),
        st.builds(lambda skill: [*good[:2], skill, good[3]], st.one_of(SOMETHING_ELSE, OVERLONG)),
        st.builds(lambda message: [*good[:3], message], st.one_of(NOT_TEXT, OVERLONG)),
        st.just(good[:3]),
    )


def forged_store(genuine: Genuine, data: st.DataObject) -> dict[str, Any]:
    document = copy.deepcopy(genuine.store)
    lie = data.draw(st.sampled_from(["finding", "facts", "findings key", "versions key"]), label="lie")
    if lie == "finding":  # at a step the build takes from the store
        key = data.draw(st.sampled_from(sorted(document["findings"])))
        document["findings"][key] = [data.draw(bad_finding(genuine))]
    elif lie == "facts":
        oid = data.draw(st.sampled_from(sorted(document["versions"])))
        document["versions"][oid] = data.draw(
            st.one_of(
                st.builds(lambda name: [name, None, "1.0.0"], st.one_of(SOMETHING_ELSE, OVERLONG)),
                st.just(["Weather Agent", None]),
                st.just("Weather Agent"),
            )
        )
    else:
        bad = data.draw(bad_id_texts(genuine, genuine.head))
        if lie == "findings key":
            key = data.draw(st.sampled_from(sorted(document["findings"])))
            parts = key.split("\x1f")
            parts[data.draw(st.sampled_from([0, 2]))] = bad
            document["findings"]["\x1f".join(parts)] = [["breaking", "skill-removed", None, NOTICE]]
        else:
            document["versions"][bad] = ["Weather Agent", None, "9.9.9"]
    return document


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), where=st.sampled_from(["git", "named"]))
def test_random_bytes_and_forged_caches_give_the_site_a_build_without_a_cache_gives(
    genuine: Genuine, template_envs: TemplateEnvs, data: st.DataObject, where: str
) -> None:
    what = data.draw(st.sampled_from(["bytes", "snapshot", "store"]), label="in the cache's place")
    if what == "bytes":
        name = data.draw(st.sampled_from([SNAPSHOT_FILE, STORE_FILE]))
        whole = json.dumps(genuine.snapshot if name == SNAPSHOT_FILE else genuine.store).encode()
        content = data.draw(
            st.one_of(st.binary(max_size=4096), st.integers(0, len(whole) - 1).map(lambda n: whole[:n]))
        )
    else:
        name = SNAPSHOT_FILE if what == "snapshot" else STORE_FILE
        forged = forged_snapshot(genuine, data) if what == "snapshot" else forged_store(genuine, data)
        content = json.dumps(forged).encode()
    place = genuine.root / ".git" / "a2a-docgen" if where == "git" else genuine.named
    shutil.rmtree(place, ignore_errors=True)
    place.mkdir()
    (place / name).write_bytes(content)
    with pytest.MonkeyPatch.context() as patch:
        if where == "git":
            patch.delenv(CACHE_ENV, raising=False)
        else:
            patch.setenv(CACHE_ENV, str(place))
        history = read(genuine.root)
    assert history == genuine.history
    assert digests(site(genuine.root, history, template_envs)) == genuine.site


def test_every_value_a_build_writes_is_taken_unknown_dates_too(
    story: CardRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks refuse nothing a build writes: a snapshot whose commits' dates RFC 3339 cannot write
    (``UNKNOWN_DATE``, as the log gives them) is taken without reading git's log."""
    document = genuine_cache(story.root, tmp_path / "genuine", monkeypatch)
    for row in document["entries"]:
        row[1] = UNKNOWN_DATE
    document["head_date"] = UNKNOWN_DATE
    place = story.root / ".git" / "a2a-docgen"
    place.mkdir()
    (place / SNAPSHOT_FILE).write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.setattr(history_read, "read_log", lambda *a, **k: pytest.fail("the snapshot was not taken"))
    history = read(story.root)
    assert {item.entry.date for item in history.recent} == {UNKNOWN_DATE}
    assert history.head_date == UNKNOWN_DATE
