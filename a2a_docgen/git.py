"""The one place a2a-docgen runs git, so that reading a history or a base revision never makes git run a program,
fetch, or take for the repository a directory the user did not point at.

The commands are read-only (``rev-parse``, ``log``, ``show``, ``ls-tree``, ``cat-file``, ``merge-base``,
``symbolic-ref``, ``rev-list``), but they run in a repository whose files a pull request may have written, and
with the configuration and environment of whoever runs the build. So:

- **The repository is found here, never by git.** ``find_repository`` walks up from the cards to the first
  directory with a ``.git`` entry (a directory, or a gitfile as in worktrees and submodules), checked; every
  command names it (``--git-dir``, ``--work-tree``). A pull request can commit ``HEAD``, ``objects/``, ``refs/``
  and ``config`` into any directory, which git's own discovery takes for a bare repository (with that ``config``
  in force); it can never commit a ``.git`` path component. ``safe.bareRepository=explicit`` besides.
- **git's environment is built here.** Every inherited ``GIT_*`` is dropped (``GIT_DIR``, ``GIT_WORK_TREE``,
  ``GIT_CONFIG_*``, ``GIT_EXTERNAL_DIFF``, ``GIT_SSH_COMMAND`` ...); the system and global configuration are not
  read; lazy fetching is off and no transport is allowed (a partial clone's missing object is an error, never a
  fetch through the repository's ``core.sshCommand``, ``ext::`` helper or proxy); no prompt, no pager; no
  replace ref or ``info/grafts`` file stands in for a commit or its parents (the history is the commits' own).
- **What the repository's configuration could run is overridden on the command line**, which wins over the
  repository's file and every file it includes: ``core.fsmonitor``, ``core.hooksPath``, ``log.showSignature``
  (``gpg.program``), ``core.sshCommand``, ``protocol.allow``; diff-like commands (``log``, ``show``) get
  ``--no-ext-diff --no-textconv --no-show-signature``. The commands used never apply filters, textconv or a
  pager, never update the index or refs (so run no hook), and never fetch.

``tests/test_git.py`` holds each of these with an attack that leaves a marker file if it ever runs.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

from a2a_docgen.errors import UsageError

__all__ = [
    "GitError",
    "GitProcess",
    "Repository",
    "failure",
    "find_repository",
    "git_command",
    "git_environment",
    "git_version",
    "missing_object",
    "repository_path",
    "run_git",
    "try_git",
]

_OVERRIDES = (
    "safe.bareRepository=explicit",
    "core.fsmonitor=false",
    f"core.hooksPath={os.devnull}",
    "log.showSignature=false",
    "core.sshCommand=",
    "protocol.allow=never",
)
"""``-c`` settings of every command: each turns off a way the repository's configuration could run a program."""

_DIFF_LIKE = frozenset({"log", "show", "diff"})
_DIFF_OPTIONS = ("--no-ext-diff", "--no-textconv", "--no-show-signature")

_MISSING = re.compile(r"could not fetch ([0-9a-f]{40,64}) from promisor remote")
_GITFILE_LIMIT = 4096


class GitError(UsageError):
    """git ran and failed: ``reason`` is what it said (its last line of error output, or the missing object of a
    partial clone), ``""`` when it said nothing."""

    def __init__(self, what: str, reason: str, returncode: int) -> None:
        super().__init__(f"cannot {what}: {reason or f'git exited with {returncode}'}")
        self.what = what
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Repository:
    """A work tree and its git directory, both real paths, as ``find_repository`` found them."""

    top: str
    """The work tree's top directory (the one that holds ``.git``)."""
    git_dir: str
    """Its git directory: ``top/.git``, or where a gitfile there points (a worktree's, a submodule's)."""

    @property
    def common_dir(self) -> str:
        """Where the repository's shared files live (objects, refs, ``shallow``, config): the git directory, or
        for a linked worktree the main one's (its ``commondir`` file)."""
        return _common_dir(self.git_dir)


def find_repository(start: str) -> Repository | None:
    """The repository that holds ``start`` (a directory, or a path below one, which need not exist): the first
    directory from ``start``'s real path upward that has a ``.git`` entry, ``None`` when there is none or it is not
    a git directory (nor a gitfile naming one). Directories in ``$GIT_CEILING_DIRECTORIES`` are not entered, as git
    does not enter them; nothing else of git's discovery applies (a directory is never taken for a bare
    repository)."""
    ceilings = {
        os.path.realpath(path) for path in os.environ.get("GIT_CEILING_DIRECTORIES", "").split(":") if path
    }
    here = os.path.realpath(start)
    while True:
        entry = os.path.join(here, ".git")
        if os.path.lexists(entry):
            git_dir = _checked_git_dir(entry)
            return Repository(here, git_dir) if git_dir is not None else None
        parent = os.path.dirname(here)
        if parent == here or parent in ceilings:
            return None
        here = parent


def _checked_git_dir(entry: str) -> str | None:
    """The git directory a ``.git`` entry stands for, ``None`` when it is neither a git directory nor a gitfile
    (``gitdir: <path>``, relative to the file's directory) that names one."""
    if os.path.isdir(entry):
        return os.path.realpath(entry) if _is_git_dir(entry) else None
    try:
        with open(entry, "rb") as file:
            text = file.read(_GITFILE_LIMIT).decode("utf-8", "surrogateescape")
    except OSError:
        return None
    if not text.startswith("gitdir: "):
        return None
    target = os.path.realpath(os.path.join(os.path.dirname(entry), text[len("gitdir: ") :].strip()))
    return target if _is_git_dir(target) else None


def _is_git_dir(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(
        os.path.join(_common_dir(path), "objects")
    )


def _common_dir(git_dir: str) -> str:
    try:
        with open(os.path.join(git_dir, "commondir"), "rb") as file:
            named = os.fsdecode(file.read(_GITFILE_LIMIT).strip())
    except OSError:
        return git_dir
    return os.path.realpath(os.path.join(git_dir, named)) if named else git_dir


def repository_path(path: str, *, cwd: str, top: str) -> str | None:
    """``path`` (relative to ``cwd``) as a ``/``-separated path from the repository's top directory ``top``
    (``""`` for the top itself), or ``None`` when it lies outside."""
    relative = os.path.relpath(os.path.realpath(os.path.join(cwd, path)), top)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return None
    return "" if relative == os.curdir else "/".join(relative.split(os.sep))


def git_environment() -> dict[str, str]:
    """The environment of every git this project starts: the process's own without any ``GIT_*``, then git's
    variables set here."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
    environment.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_ATTR_NOSYSTEM="1",
        # Missing objects of a partial clone are never fetched: GIT_NO_LAZY_FETCH (git 2.44, the variable
        # --no-lazy-fetch sets; backported by some distributions), and for any git an allow-list of transports
        # that names none, which stops the fetch whatever the repository's remote, helper or ssh command.
        GIT_NO_LAZY_FETCH="1",
        GIT_ALLOW_PROTOCOL="",
        # The history is the commits' own: no replace ref (refs/replace/) swaps a commit, tree or blob for
        # another, and no info/grafts file gives a commit other parents.
        GIT_NO_REPLACE_OBJECTS="1",
        GIT_GRAFT_FILE=os.devnull,
        GIT_TERMINAL_PROMPT="0",
        GIT_PAGER="cat",
        GIT_OPTIONAL_LOCKS="0",
    )
    return environment


def git_command(repository: Repository | None, argv: Sequence[str]) -> list[str]:
    """The argument list that runs ``git ARGV`` (the subcommand first, no global options) in ``repository``
    (``None``: a command that needs none, ``--version``)."""
    command = ["git", "--no-pager", "--literal-pathspecs"]
    for setting in _OVERRIDES:
        command += ["-c", setting]
    if repository is not None:
        # git skips its ownership check (safe.directory) for a git directory named explicitly; saying so also
        # covers a git that would not: the repository holds the cards the user pointed at, and nothing of its
        # configuration can run a program here, so one another user owns (a CI container's checkout) is read.
        command += [
            "-c",
            f"safe.directory={repository.top}",
            f"--git-dir={repository.git_dir}",
            f"--work-tree={repository.top}",
        ]
    if argv and argv[0] in _DIFF_LIKE:
        return [*command, argv[0], *_DIFF_OPTIONS, *argv[1:]]
    return [*command, *argv]


def run_git(
    repository: Repository | None,
    argv: Sequence[str],
    *,
    what: str,
    needed_by: str,
    stdin: bytes | None = None,
    timeout: float = 300,
) -> bytes:
    """The output of ``git ARGV`` in ``repository`` (never through a shell).

    Raises ``UsageError`` naming ``what`` could not be done: git missing (``needed_by`` says who needs it), a
    timeout, an object missing from a partial clone, or git's own last line of error output."""
    try:
        result = subprocess.run(
            git_command(repository, argv),
            cwd=repository.top if repository is not None else None,
            env=git_environment(),
            input=stdin,
            capture_output=True,
            check=False,
            timeout=timeout,
        )
    except FileNotFoundError as exc:
        raise UsageError(f"{needed_by} needs git, which is not installed or not on PATH") from exc
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"cannot {what}: {exc}") from exc
    if result.returncode != 0:
        raise GitError(what, failure(result.stderr), result.returncode)
    return result.stdout


def try_git(repository: Repository, argv: Sequence[str], *, timeout: float = 60) -> str | None:
    """The output of a git query, stripped, or ``None`` when git says no (or cannot be run)."""
    try:
        out = run_git(repository, argv, what="ask git", needed_by="git", timeout=timeout)
    except UsageError:
        return None
    return out.decode("utf-8", "surrogateescape").strip()


def failure(stderr: bytes) -> str:
    """What a failed git says, for a message: a missing object of a partial clone, else git's last line ("" when
    it said nothing)."""
    text = stderr.decode("utf-8", "replace")
    missing = _MISSING.search(text)
    if missing is not None:
        return missing_object(missing.group(1))
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def missing_object(oid: str) -> str:
    """The reason given for an object that is not in the repository."""
    return (
        f"object {oid} is missing (a partial clone, or a damaged repository): a2a-docgen never fetches; "
        "fetch the history first, e.g. a clone without --filter"
    )


def git_version(needed_by: str) -> tuple[int, ...]:
    """git's version as numbers (``(2, 39, 5)``); ``UsageError`` when git is missing."""
    out = run_git(None, ["--version"], what="ask git its version", needed_by=needed_by, timeout=30)
    found = re.search(rb"(\d+)\.(\d+)(?:\.(\d+))?", out)
    if found is None:
        raise UsageError(f"cannot read git's version from {out[:60]!r}")
    return tuple(int(part) for part in found.groups() if part is not None)


class GitProcess:
    """A long-lived ``git ARGV`` in a repository, fed through ``stdin`` and read from ``stdout`` (``git cat-file
    --batch``); its error output goes to a file, read by ``failure()`` once it has stopped. Use it as a context
    manager, or ``close()`` it."""

    def __init__(self, repository: Repository, argv: Sequence[str], *, what: str) -> None:
        self.what = what
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 - held for git's life, closed by close()
        try:
            self._process = subprocess.Popen(
                git_command(repository, argv),
                cwd=repository.top,
                env=git_environment(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._errors,
            )
        except OSError as exc:
            self._errors.close()
            raise UsageError(f"cannot {what}: {exc}") from exc
        stdin, stdout = self._process.stdin, self._process.stdout
        if stdin is None or stdout is None:  # pragma: no cover - both are pipes
            raise UsageError(f"cannot {what}: no pipe to git")
        self.stdin: IO[bytes] = stdin
        self.stdout: IO[bytes] = stdout

    def failure(self) -> str:
        """Why git stopped answering (waits for it to exit)."""
        try:
            returncode = self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            return "git stopped answering"
        self._errors.seek(0)
        return failure(self._errors.read(1 << 16)) or f"git exited with {returncode}"

    def stop(self) -> None:
        """End git (a thread may still be writing to ``stdin``: its writes fail, and it can be joined)."""
        self._process.kill()
        self._process.wait()

    def close(self) -> None:
        self.stop()
        for pipe in (self.stdin, self.stdout, self._errors):
            with contextlib.suppress(OSError):
                pipe.close()

    def __enter__(self) -> GitProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
