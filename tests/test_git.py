"""git is run by one module (``a2a_docgen/git.py``), and reading a history or a base revision never makes it run a
program, fetch, or take for the repository a directory the user did not point at.

Every attack is built the way a pull request or a checkout would build it: real repositories in ``tmp_path``, a
payload script that leaves a marker file if it ever runs.
"""

from __future__ import annotations

import ast
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
from a2a_docgen.history.read import read_history
from a2a_docgen.review.git import GitRevision, load_catalog_at_revision
from tests.support.history_repo import CardRepo, maps_card, weather_card

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
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


def card_repo(root: Path, attributes: str | None = None) -> CardRepo:
    """Two commits under ``root/cards``: the weather agent, then its next version and the maps agent; the first
    commits ``attributes`` as the ``.gitattributes`` file, if given."""
    repo = CardRepo(root)
    if attributes is not None:
        (root / ".gitattributes").write_text(attributes, encoding="utf-8")
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
    from tests.support.mkdocs_build import build_cards_site

    _repo, site, payload = planted
    assert (build_cards_site(site) / "whats-new.xml").is_file()
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


def _tree(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


def test_replace_refs_and_grafts_never_change_the_history_or_the_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The history is the commits' own: a replace ref (``refs/replace/``) that swaps a commit for a forged one
    and an ``info/grafts`` file that cuts HEAD from its parents change neither the site nor the review."""
    repo = card_repo(tmp_path / "repo")
    monkeypatch.chdir(repo.root)

    def published() -> tuple[dict[str, bytes], str]:
        out = tmp_path / "out"
        shutil.rmtree(out, ignore_errors=True)
        assert main(["build", "cards", "-o", str(out)]) == 0
        capsys.readouterr()
        main(["diff", "--base-ref", "HEAD~1", "cards", "--format", "json"])
        return _tree(out), capsys.readouterr().out

    clean = published()
    first = repo.git("rev-parse", "HEAD~1").strip()
    forged = repo.git("commit-tree", repo.git("rev-parse", "HEAD^{tree}").strip(), "-m", "Forged").strip()
    repo.git("replace", first, forged)
    assert "Forged" in repo.git("log", "--format=%s"), "git itself now shows the forged commit"
    assert published() == clean
    repo.git("replace", "-d", first)
    (repo.root / ".git" / "info").mkdir(exist_ok=True)
    (repo.root / ".git" / "info" / "grafts").write_text(repo.git("rev-parse", "HEAD"), encoding="utf-8")
    assert len(repo.git("log", "--format=%s").splitlines()) == 1, "git itself now sees one commit"
    assert published() == clean


# -- each way a repository's configuration or the environment could make git run a program --------------------


def sign_head(root: Path) -> None:
    """Give ``HEAD`` a (made-up) signature, which ``log.showSignature`` would have ``gpg.program`` verify."""
    raw = git(root, "cat-file", "commit", "HEAD")
    header, _, message = raw.partition("\n\n")
    signature = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----"
    signed = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
        cwd=root,
        input=f"{header}\n{signature}\n\n{message}",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    git(root, "update-ref", "refs/heads/main", signed)


def signature_settings(payload: Payload) -> dict[str, str]:
    return {
        "log.showSignature": "true",
        "gpg.program": str(payload.script),
        "gpg.ssh.program": str(payload.script),
        "gpg.x509.program": str(payload.script),
    }


def configure(root: Path, settings: dict[str, str]) -> None:
    for key, value in settings.items():
        git(root, "config", key, value)


def fsmonitor(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = card_repo(tmp_path / "repo").root
    configure(root, {"core.fsmonitor": str(payload.script)})
    return root


def signature(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = card_repo(tmp_path / "repo").root
    sign_head(root)
    configure(root, signature_settings(payload))
    return root


def external_diff_and_pager(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = card_repo(tmp_path / "repo").root
    configure(
        root,
        {
            "diff.external": str(payload.script),
            "core.pager": str(payload.script),
            "pager.log": str(payload.script),
            "pager.show": str(payload.script),
        },
    )
    return root


def attributes(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Drivers a committed ``.gitattributes`` names: textconv, and a filter's clean, smudge and process."""
    repo = card_repo(tmp_path / "repo", attributes="*.json diff=card filter=card\n")
    configure(
        repo.root,
        {
            "diff.card.textconv": str(payload.script),
            "filter.card.clean": str(payload.script),
            "filter.card.smudge": str(payload.script),
            "filter.card.process": str(payload.script),
        },
    )
    return repo.root


def hooks(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = card_repo(tmp_path / "repo").root
    hooks_dir = tmp_path / "hooks"
    hooks_dir.mkdir()
    for name in (
        "post-index-change",
        "reference-transaction",
        "post-checkout",
        "pre-auto-gc",
        "fsmonitor-watchman",
    ):
        shutil.copy(payload.script, hooks_dir / name)
    configure(root, {"core.hooksPath": str(hooks_dir)})
    return root


def included(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The settings in a file the repository's configuration includes."""
    root = card_repo(tmp_path / "repo").root
    sign_head(root)
    extra = tmp_path / "extra.config"
    lines = [f"[core]\n\tfsmonitor = {payload.script}\n", "[log]\n\tshowSignature = true\n"]
    lines.append(f"[gpg]\n\tprogram = {payload.script}\n")
    extra.write_text("".join(lines), encoding="utf-8")
    configure(root, {"include.path": str(extra)})
    return root


def environment_config(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings passed in the environment (``GIT_CONFIG_COUNT``, ``GIT_CONFIG_PARAMETERS``, a global file)."""
    root = card_repo(tmp_path / "repo").root
    sign_head(root)
    settings = {**signature_settings(payload), "core.fsmonitor": str(payload.script)}
    monkeypatch.setenv("GIT_CONFIG_COUNT", str(len(settings)))
    for n, (key, value) in enumerate(settings.items()):
        monkeypatch.setenv(f"GIT_CONFIG_KEY_{n}", key)
        monkeypatch.setenv(f"GIT_CONFIG_VALUE_{n}", value)
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", " ".join(f"'{k}={v}'" for k, v in settings.items()))
    global_file = tmp_path / "global.config"
    global_file.write_text(
        f"[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {payload.script}\n", encoding="utf-8"
    )
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(global_file))
    monkeypatch.setenv("GIT_CONFIG_SYSTEM", str(global_file))
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(payload.script))
    monkeypatch.setenv("GIT_PAGER", str(payload.script))
    return root


def environment_git_dir(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``GIT_DIR`` and ``GIT_WORK_TREE`` inherited from the caller (a git hook sets them) naming another repository."""
    root = card_repo(tmp_path / "repo").root
    elsewhere = tmp_path / "elsewhere"
    plant_bare_repository(elsewhere, payload)
    monkeypatch.setenv("GIT_DIR", str(elsewhere))
    monkeypatch.setenv("GIT_WORK_TREE", str(elsewhere))
    return root


def ssh_command(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    clone = partial_clone(tmp_path, payload)
    monkeypatch.setenv("GIT_SSH_COMMAND", str(payload.script))
    monkeypatch.setenv("GIT_SSH", str(payload.script))
    return clone


def ext_helper(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The promisor remote is an ``ext::`` command, which the repository's configuration allows."""
    clone = partial_clone(tmp_path, payload)
    configure(clone, {"remote.origin.url": f"ext::{payload.script} %S", "protocol.ext.allow": "always"})
    return clone


def git_proxy(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    clone = partial_clone(tmp_path, payload)
    configure(
        clone,
        {
            "remote.origin.url": "git://example.invalid/x",
            "core.gitProxy": str(payload.script),
            "protocol.allow": "always",
        },
    )
    return clone


def included_remote(tmp_path: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch) -> Path:
    clone = partial_clone(tmp_path, payload)
    extra = tmp_path / "remote.config"
    extra.write_text(
        f'[protocol]\n\tallow = always\n[remote "origin"]\n\turl = ext::{payload.script} %S\n',
        encoding="utf-8",
    )
    git(clone, "config", "--unset", "remote.origin.url")
    configure(clone, {"include.path": str(extra)})
    return clone


VECTORS = [
    fsmonitor,
    signature,
    external_diff_and_pager,
    attributes,
    hooks,
    included,
    environment_config,
    environment_git_dir,
    ssh_command,
    ext_helper,
    git_proxy,
    included_remote,
]
PARTIAL = {ssh_command, ext_helper, git_proxy, included_remote}


@pytest.mark.parametrize("vector", VECTORS, ids=lambda vector: vector.__name__)
def test_no_setting_makes_reading_git_run_a_program(
    vector: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = Payload(tmp_path / "outside")
    root = vector(tmp_path, payload, monkeypatch)  # type: ignore[operator]
    read = read_history(["cards"], base=str(root))
    assert not payload.ran, payload.marker.read_text(encoding="utf-8")
    if vector in PARTIAL:
        assert read.history is None
        assert read.message is not None
        assert "partial clone" in read.message
    else:
        assert read.history is not None, read.message
        assert len(read.history.recent) >= 3  # the repository's own history: both agents, the new version
    if vector in PARTIAL:
        with pytest.raises(UsageError, match="partial clone"):
            load_catalog_at_revision(["cards"], "HEAD~1", cwd=root)
    else:
        assert [c.name for c in load_catalog_at_revision(["cards"], "HEAD~1", cwd=root).cards] == [
            "Weather Agent"
        ]
    assert GitRevision.default_branch_merge_base(cwd=root).commit
    assert not payload.ran, payload.marker.read_text(encoding="utf-8")


# -- where the repository is --------------------------------------------------------------------------------


def test_a_linked_worktree_is_found_through_its_gitfile(tmp_path: Path) -> None:
    repo = card_repo(tmp_path / "repo")
    linked = tmp_path / "linked"
    git(repo.root, "worktree", "add", "-q", str(linked))
    found = find_repository(str(linked / "cards" / "weather.json"))
    assert found is not None
    assert found.top == str(linked.resolve())
    assert found.git_dir == str((repo.root / ".git" / "worktrees" / "linked").resolve())
    assert found.common_dir == str((repo.root / ".git").resolve())
    read = read_history(["cards"], base=str(linked))
    assert read.history is not None, read.message
    assert len(read.history.recent) == 3
    # a submodule's gitfile names its git directory relative to itself
    (linked / ".git").write_text(f"gitdir: {os.path.relpath(found.git_dir, linked)}\n", encoding="utf-8")
    assert find_repository(str(linked)) == found


def test_a_dot_git_that_is_not_a_repository_ends_the_search(tmp_path: Path) -> None:
    repo = card_repo(tmp_path / "repo")
    inner = repo.root / "inner"
    inner.mkdir()
    (inner / ".git").write_text("gitdir: nowhere\n", encoding="utf-8")
    assert find_repository(str(inner)) is None
    (inner / ".git").unlink()
    (inner / ".git").mkdir()
    assert find_repository(str(inner)) is None
    (inner / ".git").rmdir()
    found = find_repository(str(inner / "not" / "there"))  # a path that does not exist yet
    assert found is not None
    assert found.top == str(repo.root.resolve())


def test_the_search_stops_at_the_ceiling_directories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = card_repo(tmp_path / "repo")
    assert find_repository(str(repo.cards)) is not None
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(repo.root))
    assert find_repository(str(repo.cards)) is None
    assert find_repository(str(repo.root)) is not None  # the start itself is always looked at


def test_a_repository_another_user_owns_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git refuses a repository it finds that another user owns unless ``safe.directory`` names it (global
    configuration, which is not read here): the one that holds the cards is named, nothing of its configuration
    can run a program."""
    repo = card_repo(tmp_path / "repo")
    from a2a_docgen import git as git_module

    def as_another_user() -> dict[str, str]:
        return {**environment(), "GIT_TEST_ASSUME_DIFFERENT_OWNER": "1"}

    environment = git_module.git_environment
    monkeypatch.setattr(git_module, "git_environment", as_another_user)
    refused = subprocess.run(
        ["git", "rev-parse", "HEAD"],
        cwd=repo.root,
        env=as_another_user(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert "dubious ownership" in refused.stderr  # git's own discovery refuses it
    read = read_history(["cards"], base=str(repo.root))
    assert read.history is not None, read.message
    assert [c.name for c in load_catalog_at_revision(["cards"], "HEAD~1", cwd=repo.root).cards] == [
        "Weather Agent"
    ]


def test_git_is_started_by_one_module() -> None:
    """No module but ``a2a_docgen/git.py`` names the ``git`` program or starts a process for it."""
    offenders = []
    for path in sorted((REPO / "a2a_docgen").rglob("*.py")):
        if path == REPO / "a2a_docgen" / "git.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value == "git":
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert offenders == []
