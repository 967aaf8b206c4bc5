"""The history's store of what it learnt (``history.store``), its snapshot at a ``HEAD`` (``history.snapshot``)
and its fast paths give the history the full path gives: a warm cache, a cache that knows the versions but not
the steps, a cache of other code, a damaged one, a snapshot of another key; and the differ without positions
finds what it finds with them."""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen.history import read as history_read
from a2a_docgen.history import walk as history_walk
from a2a_docgen.history.cache_files import CACHE_ENV
from a2a_docgen.history.entries import CatalogHistory
from a2a_docgen.history.read import read_history
from a2a_docgen.history.snapshot import FILE_NAME as SNAPSHOT_FILE
from a2a_docgen.history.store import FILE_NAME
from a2a_docgen.load import read_card_bytes
from a2a_docgen.model import Catalog, Diagnostic
from a2a_docgen.review import diff_catalogs
from tests.support.history_repo import CardRepo, maps_card, story_repo, weather_card

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True, check=False).returncode != 0,
    reason="git is not installed",
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(directory))
    return directory / FILE_NAME


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many versions were loaded and steps classified."""
    counts = {"loaded": 0, "classified": 0}
    load, classify = history_walk.load_version, history_walk.classify

    def counting_load(*args: Any) -> object:
        counts["loaded"] += 1
        return load(*args)

    def counting_classify(*args: Any) -> object:
        counts["classified"] += 1
        return classify(*args)

    monkeypatch.setattr(history_walk, "load_version", counting_load)
    monkeypatch.setattr(history_walk, "classify", counting_classify)
    return counts


class InProcessWorkers:
    """A ``Parallel`` for ``read_history`` that does the workers' work here and counts the times it is asked."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def __call__(self, work: Any, count: int) -> list[Any]:
        self.calls.append(count)
        return [work(index) for index in range(count)]


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> InProcessWorkers:
    """In-process workers, started by ``history.prefill`` for however few versions there are to read."""
    from a2a_docgen.history import prefill

    monkeypatch.setattr(prefill, "MIN_VERSIONS", 1)
    return InProcessWorkers()


def fresh(root: Path, *, snapshot: bool = False, **options: Any) -> CatalogHistory:
    """The history read in a new process, as far as this process can tell: nothing kept in memory; without
    ``snapshot``, none kept on disk either (the store alone, what a new ``HEAD`` reads with)."""
    directory = os.environ.get(CACHE_ENV, "off")
    if not snapshot and directory != "off":
        Path(directory, SNAPSHOT_FILE).unlink(missing_ok=True)
    read = read_history(["cards"], base=str(root), **options)
    assert read.history is not None, read.message
    return read.history


def moves_repo(root: Path) -> CardRepo:
    """Agents that change files: a move with an edit, two agents swapping files, a card that stops loading and
    comes back, the same bytes in two files."""
    repo = CardRepo(root)
    weather, maps = weather_card(), maps_card()
    repo.write("a.json", weather)
    repo.write("b.json", maps)
    repo.commit("Two agents")
    repo.write("a.json", maps)
    repo.write("b.json", weather)
    repo.commit("Swap the files")
    repo.git("mv", "cards/a.json", "cards/c.json")
    changed = copy.deepcopy(maps)
    changed["description"] = "Moved and reworded."
    repo.write("c.json", changed)
    repo.commit("Move with an edit")
    repo.write("b.json", "{")
    repo.write("d.json", weather)
    repo.commit("Break b, copy its agent to d")
    repo.write("b.json", weather)
    repo.commit("Repair b")
    one = {"name": "Twin", "description": "One.", "version": "1.0.0", "skills": []}
    two = {**one, "description": "Two."}
    repo.write("twin-1.json", one)  # same name, no URL: paired by name and file
    repo.write("twin-2.json", two)
    repo.commit("Twins")
    repo.write("twin-1.json", two)  # the same bytes as before, each now in the other file
    repo.write("twin-2.json", one)
    repo.commit("Swap the twins")
    return repo


@pytest.fixture(params=["story", "moves", "benchmark"])
def repository(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    if request.param == "story":
        story_repo(root)
    elif request.param == "moves":
        moves_repo(root)
    else:
        from history import make_repository

        root.mkdir()
        make_repository(root, 6, 3, 6)
    return root


def test_a_warm_cache_gives_the_history_the_full_path_gives(
    repository: Path, cache: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, "off")
    full = fresh(repository)
    assert counted["classified"] > 0
    monkeypatch.setenv(CACHE_ENV, str(cache.parent))
    first = fresh(repository)  # writes the cache
    assert cache.is_file()
    counted.update(loaded=0, classified=0)
    warm = fresh(repository)
    assert warm == first == full
    assert counted == {"loaded": 0, "classified": 0}  # nothing read from git, parsed or compared again


def test_a_cache_that_knows_the_versions_but_not_the_steps_reads_the_blobs_it_needs(
    repository: Path, cache: Path, counted: dict[str, int]
) -> None:
    full = fresh(repository)
    classified = counted["classified"]
    document = json.loads(cache.read_bytes())
    document["findings"] = {}
    cache.write_text(json.dumps(document), encoding="utf-8")
    counted.update(loaded=0, classified=0)
    assert fresh(repository) == full
    assert counted["classified"] == classified  # every step compared again, from blobs fetched out of order
    assert counted["loaded"] > 0


def test_a_cache_that_knows_the_versions_but_not_the_steps_gives_the_steps_to_the_workers(
    repository: Path, cache: Path, counted: dict[str, int], workers: InProcessWorkers
) -> None:
    """Every version is known, no step is: the steps are classified by the workers, not left to the walk
    alone."""
    full = fresh(repository)
    document = json.loads(cache.read_bytes())
    assert document["versions"]
    document["findings"] = {}
    cache.write_text(json.dumps(document), encoding="utf-8")
    assert fresh(repository, parallel=workers) == full
    assert workers.calls  # the workers ran (they did not while the versions alone were counted)


def test_a_snapshot_at_the_same_head_is_the_history_without_reading_git_s_log(
    repository: Path, cache: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    full = fresh(repository)
    snapshot = cache.with_name(SNAPSHOT_FILE)
    assert snapshot.is_file()
    logs: list[object] = []
    monkeypatch.setattr(history_read, "read_log", lambda *a, **k: logs.append(a))
    counted.update(loaded=0, classified=0)
    kept = fresh(repository, snapshot=True, repo_url="https://git.example/team/cards")
    assert logs == []
    assert counted == {"loaded": 0, "classified": 0}
    assert kept == dataclasses.replace(full, commit_url="https://git.example/team/cards")


def test_deferred_cache_writes_wait_for_the_caller_and_write_what_a_read_writes(
    repository: Path, cache: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plugin hands the cache files' writes to its conversion pass: nothing is written until it runs them,
    and then the store and the snapshot are the ones a read writes itself."""
    full = fresh(repository)
    written = {path.name: path.read_bytes() for path in cache.parent.iterdir()}
    assert set(written) == {FILE_NAME, SNAPSHOT_FILE}
    for path in cache.parent.iterdir():
        path.unlink()
    later: list[Any] = []
    read = read_history(["cards"], base=str(repository), defer=later.append)
    assert read.history == full
    assert len(later) == 2
    assert list(cache.parent.iterdir()) == []
    for write in later:
        write()
    assert {path.name: path.read_bytes() for path in cache.parent.iterdir()} == written
    counted.update(loaded=0, classified=0)
    monkeypatch.setattr(history_read, "read_log", lambda *a, **k: pytest.fail("the snapshot was not taken"))
    assert fresh(repository, snapshot=True) == full
    assert counted == {"loaded": 0, "classified": 0}


@pytest.mark.parametrize(
    "damage",
    [b"", b"{", b'{"key": 3}', b"\xff\xfe", b"[]", "damaged rows", "other key"],
)
def test_a_damaged_snapshot_or_one_of_another_key_is_not_taken(
    tmp_path: Path, cache: Path, damage: bytes | str
) -> None:
    repo, _ = story_repo(tmp_path / "repo")
    full = fresh(repo.root)
    snapshot = cache.with_name(SNAPSHOT_FILE)
    good = json.loads(snapshot.read_bytes())
    if damage == "damaged rows":
        document = copy.deepcopy(good)
        document["entries"][0][3] = "no such kind"
        document["agents"] = {"cards/x.json": [10**6]}
        snapshot.write_text(json.dumps(document), encoding="utf-8")
    elif damage == "other key":
        document = copy.deepcopy(good)
        document["key"]["max_commits"] = 1
        document["entries"] = []  # a lie that a snapshot of another key would show
        snapshot.write_text(json.dumps(document), encoding="utf-8")
    else:
        assert isinstance(damage, bytes)
        snapshot.write_bytes(damage)
    assert fresh(repo.root, snapshot=True) == full
    assert json.loads(snapshot.read_bytes()) == good  # written again


def test_a_shallow_clone_deepened_under_the_same_head_reads_its_longer_history(
    tmp_path: Path, cache: Path
) -> None:
    repo, _ = story_repo(tmp_path / "repo")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{repo.root}", str(clone)],
        check=True,
        capture_output=True,
    )
    shallow = fresh(clone, snapshot=True)
    subprocess.run(["git", "fetch", "-q", "--deepen", "3"], cwd=clone, check=True, capture_output=True)
    deeper = fresh(clone, snapshot=True)
    assert len(deeper.recent) > len(shallow.recent)
    assert deeper.head == shallow.head


@pytest.mark.parametrize(
    "damage", [b"", b"{", b'{"stamp": 3}', b"\xff\xfe", b'{"stamp": "x", "versions": []}']
)
def test_a_damaged_cache_is_ignored_and_written_again(tmp_path: Path, cache: Path, damage: bytes) -> None:
    repo, _ = story_repo(tmp_path / "repo")
    full = fresh(repo.root)
    good = cache.read_bytes()
    cache.write_bytes(damage)
    assert fresh(repo.root) == full
    assert cache.read_bytes() == good


def test_a_cache_of_other_code_or_limits_is_not_read(
    tmp_path: Path, cache: Path, counted: dict[str, int]
) -> None:
    repo, _ = story_repo(tmp_path / "repo")
    full = fresh(repo.root)
    document = json.loads(cache.read_bytes())
    document["stamp"] = "0" * 32 + document["stamp"][32:]
    for key in document["findings"]:  # a lie that a stale cache would show
        document["findings"][key] = [["info", "description-changed", None, "stale"]]
    cache.write_text(json.dumps(document), encoding="utf-8")
    counted.update(loaded=0, classified=0)
    assert fresh(repo.root) == full
    assert counted["classified"] > 0


def test_the_cache_file_holds_what_the_latest_build_used(tmp_path: Path, cache: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    card = weather_card()
    repo.write("weather.json", card)
    repo.commit("Add")
    for n in range(3):
        card["version"] = f"1.{n + 1}.0"
        repo.write("weather.json", card)
        repo.commit(f"Version 1.{n + 1}")
    fresh(repo.root)
    assert len(json.loads(cache.read_bytes())["findings"]) == 3
    repo.git("reset", "-q", "--hard", "HEAD~2")  # two steps leave the history
    fresh(repo.root)
    assert len(json.loads(cache.read_bytes())["findings"]) == 1
    assert (repo.root / ".cache").exists() is False  # the cache went where it was told


def test_without_a_setting_the_cache_is_in_git_s_directory_its_worktrees_share_and_off_means_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, _ = story_repo(tmp_path / "repo")
    monkeypatch.delenv(CACHE_ENV, raising=False)
    full = fresh(repo.root)
    kept = repo.root / ".git" / "a2a-docgen"
    assert {path.name for path in kept.iterdir()} == {FILE_NAME, SNAPSHOT_FILE}
    assert not (repo.root / ".cache").exists()  # never in the work tree, where a commit can put a file
    worktree = tmp_path / "worktree"
    repo.git("worktree", "add", "-q", "--detach", str(worktree))
    monkeypatch.setattr(history_read, "read_log", lambda *a, **k: pytest.fail("the snapshot was not taken"))
    # A worktree at the same HEAD takes the repository's snapshot.
    assert fresh(worktree, snapshot=True) == full
    monkeypatch.undo()
    other, _ = story_repo(tmp_path / "other")
    monkeypatch.setenv(CACHE_ENV, "off")
    fresh(other.root)
    assert not (other.root / ".git" / "a2a-docgen").exists()
    assert not (other.root / ".cache").exists()


# The differ without positions: the same findings, only every change at line 1, column 1.


def _catalog(card: dict[str, Any], name: str) -> Catalog:
    read = read_card_bytes(json.dumps(card, indent=2).encode(), display=name, root=name, relpath=name)
    assert not isinstance(read, Diagnostic)
    loaded, _ = read.finish()
    assert loaded is not None
    return Catalog(cards=(loaded,), diagnostics=(), excluded=(), verifications={})


def _same_findings(old: dict[str, Any], new: dict[str, Any]) -> None:
    base, head = _catalog(old, "a.json"), _catalog(new, "a.json")
    located = diff_catalogs(base, head)
    unlocated = diff_catalogs(base, head, positions=False)

    def seen(changes: list[Any]) -> list[tuple[object, ...]]:
        return [
            (c.agent, c.skill, c.severity, c.code, c.message, c.pointer, c.before, c.after) for c in changes
        ]

    assert seen(unlocated) == seen(located)
    assert all((c.line, c.column) == (1, 1) for c in unlocated)


EDITS = st.lists(
    st.sampled_from(["skill-added", "skill-removed", "modes", "scheme", "url", "version", "description"]),
    max_size=4,
)


def _edit(card: dict[str, Any], edit: str) -> None:
    if edit == "skill-added":
        card["skills"].append({"id": "new", "name": "New", "description": "Added.", "tags": ["new"]})
    elif edit == "skill-removed" and card["skills"]:
        card["skills"].pop(0)
    elif edit == "modes":
        card["defaultInputModes"] = card["defaultInputModes"][:1]
    elif edit == "scheme" and card.get("securitySchemes"):
        name = next(iter(card["securitySchemes"]))
        card["securitySchemes"] = {"renamed": card["securitySchemes"][name]}
    elif edit == "url":
        card["supportedInterfaces"][0]["url"] = "https://moved.example.com/a2a"
    elif edit == "version":
        card["version"] = "9.0.0"
    else:
        card["description"] = "Reworded."


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=EDITS, which=st.sampled_from(["weather", "maps"]))
def test_the_differ_without_positions_finds_what_it_finds_with_them(edits: list[str], which: str) -> None:
    old = weather_card() if which == "weather" else maps_card()
    new = copy.deepcopy(old)
    for edit in edits:
        _edit(new, edit)
    _same_findings(old, new)


def test_the_differ_without_positions_on_the_real_cards(shared_dir: Path) -> None:
    cards = []
    for path in sorted((shared_dir / "cards" / "real").glob("*.json")):
        read = read_card_bytes(path.read_bytes(), display=path.name)
        if not isinstance(read, Diagnostic) and read.finish()[0] is not None:
            cards.append(json.loads(path.read_bytes()))
    assert cards
    for card in cards:
        changed = copy.deepcopy(card)
        if isinstance(changed.get("skills"), list) and changed["skills"]:
            changed["skills"] = changed["skills"][1:]
        changed["defaultInputModes"] = ["text/plain"]
        changed["version"] = "99.0.0"
        _same_findings(card, changed)


def test_versions_with_findings_are_loaded_without_scanning_their_text(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The history shows no diagnostics, so a version's findings are not located (a scan of its whole text)."""
    from a2a_docgen.load.source import PositionIndex

    repo = CardRepo(tmp_path / "repo")
    card = weather_card()
    card["capabilities"] = {"streaming": "yes"}  # a wrong type in every version
    repo.write("weather.json", card)
    repo.commit("Add")
    card["version"] = "1.1.0"
    repo.write("weather.json", card)
    repo.commit("Bump")
    scanned: list[str] = []
    build = PositionIndex.build.__func__  # type: ignore[attr-defined]

    def counting(cls: type[PositionIndex], text: str, *args: Any) -> PositionIndex:
        if text:
            scanned.append(text)
        return build(cls, text, *args)  # type: ignore[no-any-return]

    monkeypatch.setattr(PositionIndex, "build", classmethod(counting))
    history = fresh(repo.root)
    assert [e.kind for e in history.agents["weather.json"].entries] == ["changed", "added"]
    assert scanned == []


@pytest.mark.parametrize("workers", ["in-process", "forked"])
def test_workers_filling_the_store_give_the_history_the_walk_gives(
    repository: Path, cache: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    from a2a_docgen.history import prefill
    from a2a_docgen.render.parallel import in_workers

    monkeypatch.setenv(CACHE_ENV, "off")
    full = fresh(repository)
    monkeypatch.setattr(prefill, "MIN_VERSIONS", 1)
    calls: list[int] = []

    def parallel(work: Any, count: int) -> list[Any]:
        calls.append(count)
        if workers == "forked":
            monkeypatch.setattr("a2a_docgen.render.parallel.MIN_PAGES_PER_WORKER", 1)
            return in_workers(work, count, jobs=2)
        return [work(index) for index in range(count)]

    counted.update(loaded=0, classified=0)
    read = read_history(["cards"], base=str(repository), parallel=parallel)
    assert read.history == full
    assert calls  # the workers ran (the repositories are small: each group is a few chains)


def test_after_a_push_the_workers_read_the_new_versions_and_the_ones_before_them(
    tmp_path: Path,
    cache: Path,
    counted: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
    workers: InProcessWorkers,
) -> None:
    """CI restores the last build's cache and builds a new commit that changed every card: the workers read
    each new version and the version before it, not the whole chains; a version that does not load and the
    one that repairs it too. The history is the one read from nothing."""
    repo = CardRepo(tmp_path / "repo")
    names = [f"agent-{n}.json" for n in range(6)]

    def change_all(step: int, broken: str | None = None) -> None:
        for n, name in enumerate(names):
            card = {**weather_card(), "name": f"Agent {n}", "version": f"1.{step}.0"}
            repo.write(name, "{ not json" if name == broken else card)
        repo.commit(f"Step {step}")

    for step in range(4):
        change_all(step)
    fresh(repo.root)  # the last build's cache
    for step, broken in ((4, names[2]), (5, None)):
        change_all(step, broken)
        counted.update(loaded=0, classified=0)
        history = fresh(repo.root, parallel=workers)
        assert workers.calls, "the workers ran"
        assert counted["loaded"] == 2 * len(names)  # each new version and the one before it (that loads)
        monkeypatch.setenv(CACHE_ENV, "off")
        assert fresh(repo.root) == history
        monkeypatch.setenv(CACHE_ENV, str(cache.parent))
        workers.calls.clear()
    entries = history.agents["agent-2.json"].entries
    assert [entry.kind for entry in entries[:2]] == ["changed", "unreadable"]


def _chain(root: Path) -> list[str]:
    """The first-parent chain of ``HEAD``, oldest first."""
    out = subprocess.run(
        ["git", "rev-list", "--first-parent", "--reverse", "HEAD"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.split()


def _at(root: Path, commit: str) -> None:
    subprocess.run(["git", "checkout", "-q", "--detach", commit], cwd=root, check=True, capture_output=True)


def _whole(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[CatalogHistory, bytes]:
    """The history read from the first commit (no cache to start from), and the snapshot that read writes."""
    directory = os.environ[CACHE_ENV]
    whole = Path(directory).with_name("whole-read")
    monkeypatch.setenv(CACHE_ENV, str(whole))
    for path in whole.glob("*"):
        path.unlink()
    history = fresh(root)
    monkeypatch.setenv(CACHE_ENV, directory)
    return history, (whole / SNAPSHOT_FILE).read_bytes()


@pytest.fixture
def since(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The ``since`` of every log read (``None``: the whole log)."""
    from a2a_docgen.history import log

    calls: list[str | None] = []

    def recording(*args: Any, **options: Any) -> Any:
        calls.append(options.get("since"))
        return log.read_log(*args, **options)

    monkeypatch.setattr(history_read, "read_log", recording)
    return calls


@pytest.mark.parametrize("push", [1, 2])
def test_after_a_push_the_walk_goes_on_from_the_snapshot_and_gives_the_whole_read_s_history(
    repository: Path,
    cache: Path,
    counted: dict[str, int],
    since: list[str | None],
    monkeypatch: pytest.MonkeyPatch,
    push: int,
) -> None:
    """From every commit of the chain, ``push`` commits at a time: the walk goes on from the last build's
    snapshot over the new commits alone (the log read from the snapshot's ``HEAD``, only the new versions
    loaded), and both the history and the snapshot it leaves are those of a read from the first commit."""
    chain = _chain(repository)
    _at(repository, chain[0])
    fresh(repository, snapshot=True)
    for n in range(push, len(chain), push):
        _at(repository, chain[n])
        new_versions = int(
            subprocess.run(
                [
                    "git",
                    "log",
                    "--first-parent",
                    "--format=",
                    "--raw",
                    f"{chain[n - push]}..HEAD",
                    "--",
                    "cards",
                ],
                cwd=repository,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.count("\n:")
            + 1
        )
        since.clear()
        counted.update(loaded=0, classified=0)
        history = fresh(repository, snapshot=True)
        assert since == [chain[n - push]]
        assert counted["loaded"] <= new_versions + counted["classified"]  # new blobs, and old ones compared
        whole, snapshot = _whole(repository, monkeypatch)
        assert history == whole
        assert cache.with_name(SNAPSHOT_FILE).read_bytes() == snapshot


def test_the_walk_starts_again_from_the_first_commit_where_it_cannot_go_on(
    tmp_path: Path, cache: Path, since: list[str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A force push (the snapshot's ``HEAD`` left the chain), a merge that took it in as a second parent, the
    bound on commits reached, and commits that change no card (the walk goes on, with nothing to walk)."""
    repo, commits = story_repo(tmp_path / "repo")
    fresh(repo.root, snapshot=True)
    repo.git("checkout", "-q", "-b", "side", commits[3])
    card = {**maps_card(), "name": "Side Agent", "description": "Made on a side branch."}
    repo.write("side.json", card)
    side = repo.commit("Side: another agent")
    repo.git("checkout", "-q", "main")
    (repo.root / "README.md").write_text("Cards.\n", encoding="utf-8")
    repo.commit("No card changed")
    since.clear()
    history = fresh(repo.root, snapshot=True)
    assert since == [commits[-1]]
    assert history == _whole(repo.root, monkeypatch)[0]

    _at(repo.root, side)  # a force push to the side branch's commit
    since.clear()
    forced = fresh(repo.root, snapshot=True)
    assert since == [None]
    assert forced == _whole(repo.root, monkeypatch)[0]

    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge the side branch", "side")
    _at(repo.root, side)
    fresh(repo.root, snapshot=True)  # the snapshot at the merge's second parent
    repo.git("checkout", "-q", "main")
    since.clear()
    merged = fresh(repo.root, snapshot=True)
    assert since == [None]
    assert merged == _whole(repo.root, monkeypatch)[0]

    cards = int(repo.git("rev-list", "--first-parent", "--count", "HEAD", "--", "cards").strip())
    _at(repo.root, "HEAD~1")  # the bound reached exactly: a whole log, its walk kept
    before = repo.git("rev-parse", "HEAD").strip()
    fresh(repo.root, snapshot=True, max_commits=cards - 1)
    repo.git("checkout", "-q", "main")
    since.clear()
    bounded = fresh(repo.root, snapshot=True, max_commits=cards - 1)
    assert since == [before, None]  # one commit more than the bound: the window moves, the walk starts again
    assert bounded.notices
    monkeypatch.setenv(CACHE_ENV, "off")
    assert read_history(["cards"], base=str(repo.root), max_commits=cards - 1).history == bounded


def test_the_chains_follow_a_file_through_renames(tmp_path: Path) -> None:
    from a2a_docgen.git import find_repository
    from a2a_docgen.history.log import read_log
    from a2a_docgen.history.prefill import chains
    from a2a_docgen.history.walk import place

    repo, _ = story_repo(tmp_path / "repo")
    repository = find_repository(str(repo.root))
    assert repository is not None
    log = read_log(repository, ["cards"], head=repo.git("rev-parse", "HEAD").strip(), max_commits=100)
    found = chains(log.commits, place([("cards", "cards", False, 0)]))
    paths = sorted([link[1][0] for link in chain] for chain in found)
    assert paths == [
        ["maps.json"],
        ["weather.json"] * 6 + ["forecast.json"],
    ]


def test_a_reformatted_card_is_not_compared(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = CardRepo(tmp_path / "repo")
    card = weather_card()
    repo.write("weather.json", card)
    repo.commit("Add")
    repo.write("weather.json", json.dumps(dict(reversed(list(card.items()))), indent=4) + "\n")
    repo.commit("Reformat")
    card["version"] = "1.1.0"
    repo.write("weather.json", card)
    repo.commit("Bump")
    compared: list[object] = []
    original = history_walk.diff_catalogs

    def counting(*args: Any, **options: Any) -> Any:
        compared.append(args)
        return original(*args, **options)

    monkeypatch.setattr(history_walk, "diff_catalogs", counting)
    history = fresh(repo.root)
    assert [e.kind for e in history.agents["weather.json"].entries] == ["changed", "added"]
    assert len(compared) == 1  # the bump; the reformat is the same JSON


def test_workers_stop_at_the_time_budget_and_the_site_has_no_history(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, counted: dict[str, int]
) -> None:
    from a2a_docgen.history import prefill

    repo, _ = story_repo(tmp_path / "repo")
    monkeypatch.setattr(prefill, "MIN_VERSIONS", 1)

    def late(work: Any, count: int) -> list[Any]:
        time.sleep(1.2)  # the workers start after the budget of one second is spent
        return [work(index) for index in range(count)]

    read = read_history(["cards"], base=str(repo.root), seconds=1.0, parallel=late)
    assert read.history is None
    assert read.message is not None
    assert "time budget" in read.message
    assert counted["loaded"] == 0  # the workers did not start on a chain past the deadline
