"""git is run by one module (``a2a_docgen/git.py``), and reading a history or a base revision never makes it run a
program, fetch, or take for the repository a directory the user did not point at.

Every attack is built the way a pull request or a checkout would build it: real repositories in ``tmp_path``, a
payload script that leaves a marker file if it ever runs.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import zlib
from pathlib import Path

import pytest

from a2a_docgen.cli import main
from a2a_docgen.errors import UsageError
from a2a_docgen.git import find_repository
from a2a_docgen.history import read as history_read
from a2a_docgen.history.read import read_history
from a2a_docgen.review.git import load_catalog_at_revision
from tests.support.history_repo import CardRepo, maps_card, weather_card

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    history_read.clear_cache()
    monkeypatch.setenv("A2A_DOCGEN_HISTORY_CACHE", "off")


class Payload:
    """A program that, if anything ever runs it, leaves ``marker``."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.marker = directory / "PAYLOAD-RAN"
        self.script = directory / "payload.sh"
        self.script.write_text(f'#!/bin/sh\necho "$0 $*" >> "{self.marker}"\nexit 1\n', encoding="utf-8")
        self.script.chmod(self.script.stat().st_mode | stat.S_IXUSR)

    @property
    def ran(self) -> bool:
        return self.marker.exists()


def git(cwd: Path, *argv: str, env: dict[str, str] | None = None) -> str:
    """git as a user runs it, with a fixed identity and no configuration of the machine's."""
    environment = {
        **os.environ,
        "GIT_AUTHOR_NAME": "A",
        "GIT_AUTHOR_EMAIL": "a@example.com",
        "GIT_COMMITTER_NAME": "A",
        "GIT_COMMITTER_EMAIL": "a@example.com",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        **(env or {}),
    }
    result = subprocess.run(
        ["git", *argv], cwd=cwd, env=environment, capture_output=True, text=True, check=True
    )
    return result.stdout


def card_repo(root: Path) -> CardRepo:
    """Two commits under ``root/cards``: the weather agent, then its next version and the maps agent."""
    repo = CardRepo(root)
    repo.write("weather.json", weather_card())
    repo.commit("Weather")
    repo.write("weather.json", {**weather_card(), "version": "1.1.0"})
    repo.write("maps.json", maps_card())
    repo.commit("Weather 1.1.0, and maps")
    return repo


def loose_object(objects: Path, kind: str, body: bytes) -> str:
    """Write a loose object into ``objects`` (as a pull request can: it is a file), return its id."""
    data = f"{kind} {len(body)}\0".encode("ascii") + body
    oid = hashlib.sha1(data).hexdigest()
    path = objects / oid[:2] / oid[2:]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(zlib.compress(data))
    return oid


def plant_bare_repository(directory: Path, payload: Payload) -> None:
    """The four files of the issue: ``directory`` looks like a bare repository, a partial clone whose one commit's
    tree is missing, fetched lazily over ssh with ``core.sshCommand`` the payload; ``core.worktree = .``."""
    missing_tree = hashlib.sha1(b"a tree that is not here").hexdigest()
    commit = loose_object(
        directory / "objects",
        "commit",
        f"tree {missing_tree}\nauthor A <a@example.com> 0 +0000\ncommitter A <a@example.com> 0 +0000\n\nx\n".encode(),
    )
    (directory / "HEAD").write_text(f"{commit}\n", encoding="ascii")
    (directory / "refs" / "heads").mkdir(parents=True)
    (directory / "refs" / "heads" / ".keep").write_text("", encoding="ascii")
    (directory / "config").write_text(
        "[core]\n\trepositoryformatversion = 1\n\tbare = false\n\tworktree = .\n"
        f"\tsshCommand = {payload.script}\n"
        "[extensions]\n\tpartialClone = origin\n"
        '[remote "origin"]\n\turl = ssh://example.invalid/x\n\tpromisor = true\n',
        encoding="ascii",
    )


@pytest.fixture
def planted(tmp_path: Path) -> tuple[CardRepo, Path, Payload]:
    """A repository whose site lives in ``site/`` (its cards in ``site/cards``), and a pull request that committed
    a bare repository into ``site/``."""
    payload = Payload(tmp_path / "outside")
    repo = CardRepo(tmp_path / "repo")
    site = repo.root / "site"
    (site / "cards").mkdir(parents=True)
    repo.cards = site / "cards"
    repo.write("weather.json", weather_card())
    repo.commit("Weather")
    plant_bare_repository(site, payload)
    repo.write("maps.json", maps_card())
    repo.commit("Maps, and a few files")
    assert "site/HEAD" in repo.git("ls-files")
    # git itself takes site/ for a repository: the attack is real on this machine's git.
    found = subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"], cwd=site, capture_output=True, text=True, check=False
    )
    assert found.stdout.strip() == str(site)
    return repo, site, payload


def test_a_planted_bare_repository_is_never_taken_for_the_repository(
    planted: tuple[CardRepo, Path, Payload],
) -> None:
    repo, site, payload = planted
    found = find_repository(str(site / "cards"))
    assert found is not None
    assert found.top == str(repo.root.resolve())
    read = read_history(["cards"], base=str(site))
    assert not payload.ran
    assert read.history is not None, read.message
    assert [r.entry.subject for r in read.history.recent] == ["Maps, and a few files", "Weather"]


def test_a_planted_bare_repository_runs_nothing_in_build_or_diff(
    planted: tuple[CardRepo, Path, Payload],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _repo, site, payload = planted
    monkeypatch.chdir(site)
    assert main(["build", "cards", "-o", "out"]) == 0
    assert (site / "out" / "whats-new.md").is_file()  # the real history was read
    assert main(["diff", "--base-ref", "HEAD", "cards", "--format", "json"]) == 0
    assert main(["diff", "--since-default-branch", "cards", "--format", "json", "--no-config"]) == 0
    capsys.readouterr()
    assert not payload.ran


@pytest.mark.slow
def test_a_planted_bare_repository_runs_nothing_in_the_plugin(
    planted: tuple[CardRepo, Path, Payload],
) -> None:
    from tests.support.mkdocs_build import build_projects

    _repo, site, payload = planted
    (site / "docs").mkdir()
    (site / "mkdocs.yml").write_text(
        "site_name: Cards\ndocs_dir: docs\n"
        "plugins:\n  - a2a-docgen:\n      cards: cards\n      search_index: off\n",
        encoding="utf-8",
    )
    built = build_projects({"site": (site / "mkdocs.yml", site / "built")})["site"]
    assert built.returncode == 0, built.output
    assert (site / "built" / "whats-new.xml").is_file()
    assert not payload.ran


def partial_clone(tmp_path: Path, payload: Payload) -> Path:
    """A blobless clone (``--filter=blob:none``) of a repository of cards, its remote then moved to ssh with
    ``core.sshCommand`` the payload: every blob but HEAD's is missing and would be fetched lazily."""
    source = card_repo(tmp_path / "source").root
    git(source, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--filter=blob:none", f"file://{source}", str(clone))
    git(clone, "remote", "set-url", "origin", "ssh://example.invalid/x")
    git(clone, "config", "core.sshCommand", str(payload.script))
    return clone


def test_a_partial_clone_is_never_fetched_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = Payload(tmp_path / "outside")
    clone = partial_clone(tmp_path, payload)
    read = read_history(["cards"], base=str(clone))
    assert not payload.ran
    assert read.history is None
    assert read.message is not None
    assert "partial clone" in read.message
    monkeypatch.chdir(clone)
    assert main(["build", "cards", "-o", "out"]) == 0  # built without the history
    (clone / "cards" / "weather.json").unlink()
    code = main(["diff", "--base-ref", "HEAD~1", "cards", "--format", "json"])
    err = capsys.readouterr().err
    assert code == 2
    assert "partial clone" in err
    assert "Traceback" not in err
    assert not payload.ran


def test_a_missing_object_is_a_message_never_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ordinary repository that lost a blob: ``ls-tree -l`` prints ``BAD`` for its size."""
    repo = card_repo(tmp_path / "repo")
    blob = repo.git("rev-parse", "HEAD:cards/weather.json").strip()
    (repo.root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    monkeypatch.chdir(repo.root)
    code = main(["diff", "--base-ref", "HEAD", "cards", "--format", "json"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{blob} is missing" in err
    with pytest.raises(UsageError, match="is missing"):
        load_catalog_at_revision(["cards"], "HEAD")
