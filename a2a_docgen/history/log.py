"""The commits that changed the card files, read with one ``git log`` for every path.

``git log --raw --no-abbrev -z -M --first-parent`` gives, per commit, each changed file with its old and new
blob ids and its status (renames detected, ``R<score>``), so each step is read from the blobs alone: no
checkout, no process per commit or per file. The first-parent chain is the order the history is told in (a
merge is the change it brought to the branch). The log is bounded to the latest ``max_commits``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timezone

from a2a_docgen.errors import UsageError
from a2a_docgen.git import Repository, run_git
from a2a_docgen.history.entries import UNKNOWN_DATE

__all__ = [
    "MIN_GIT",
    "Commit",
    "FileChange",
    "GitLog",
    "commit_day",
    "first_parent_of",
    "read_log",
    "rfc3339",
    "shallow_boundary",
]

MIN_GIT = (2, 20)
"""The oldest git the history reads with (``rev-parse --is-shallow-repository`` came in 2.15)."""

NEEDED_BY = "the change history"

_FILE_MODES = frozenset({"100644", "100755"})
_SEPARATOR = "\x1e"
_FIELD = "\x1f"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class FileChange:
    """One changed file of a commit; a side is ``None`` where the file did not exist (added, deleted)."""

    status: str
    """``A``, ``M``, ``D``, ``R`` (renamed), ``T`` (type changed)."""
    old_path: str | None
    old_oid: str | None
    new_path: str | None
    new_oid: str | None


@dataclass(frozen=True, slots=True)
class Commit:
    id: str
    date: str
    """Committer date, UTC, RFC 3339; ``UNKNOWN_DATE`` when it cannot be written so."""
    subject: str
    changes: tuple[FileChange, ...]


@dataclass(frozen=True, slots=True)
class GitLog:
    top: str
    """The repository's top directory."""
    head: str
    """The commit id of ``HEAD`` ("" in a repository without commits)."""
    commits: tuple[Commit, ...]
    """Oldest first."""
    shallow: bool
    truncated: bool
    """The bound on commits cut older ones off."""
    head_date: str = "1970-01-01T00:00:00Z"
    """``HEAD``'s committer date (RFC 3339, UTC; ``UNKNOWN_DATE`` when it cannot be written so)."""


def head_commit(repository: Repository) -> str:
    """``HEAD``'s commit id, "" when the repository has no commit yet."""
    try:
        out = run_git(
            repository,
            ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"],
            what="read HEAD",
            needed_by=NEEDED_BY,
        )
    except UsageError:
        return ""
    return out.decode("ascii").strip()


def shallow_boundary(repository: Repository) -> str:
    """The commits a shallow clone starts at (git's ``shallow`` file), "" for a whole clone: a clone deepened
    under the same ``HEAD`` has another boundary, and more history."""
    try:
        with open(os.path.join(repository.common_dir, "shallow"), encoding="ascii", errors="replace") as file:
            return file.read()
    except OSError:
        return ""


def first_parent_of(repository: Repository, old: str, head: str) -> bool:
    """Whether ``old`` is on ``head``'s first-parent chain, before it: the log up to ``head`` is then the log up to
    ``old`` and the commits after it (``read_log(..., since=old)``). False after a force push or a merge that
    took ``old`` in as a second parent."""
    if not old or old == head:
        return False
    try:
        out = run_git(
            repository,
            ["rev-list", "--first-parent", "--parents", f"{old}..{head}"],
            what="compare the commits",
            needed_by=NEEDED_BY,
        )
    except UsageError:
        return False  # an old commit that is gone
    lines = out.split(b"\n")
    last = next((line for line in reversed(lines) if line.strip()), b"").split()
    return len(last) >= 2 and last[1].decode("ascii", "replace") == old


def read_log(
    repository: Repository,
    pathspecs: Sequence[str],
    *,
    head: str,
    max_commits: int,
    timeout: float = 120,
    since: str | None = None,
) -> GitLog:
    """The commits up to ``head`` that changed files under ``pathspecs`` (repository paths, "" for all); with
    ``since`` (on ``head``'s first-parent chain, ``first_parent_of``), only those after it."""
    top = repository.top
    shallow = (
        run_git(
            repository,
            ["rev-parse", "--is-shallow-repository"],
            what="ask git about the clone",
            needed_by=NEEDED_BY,
        ).strip()
        == b"true"
    )
    if not head:
        return GitLog(top, head, (), shallow, truncated=False)
    specs = [spec for spec in pathspecs if spec]
    out = run_git(
        repository,
        [
            "log",
            "--first-parent",
            "--raw",
            "--no-abbrev",
            "-z",  # paths as they are, whatever core.quotePath says
            "-M",
            "--root",  # the first commit (or a shallow clone's oldest) adds its files, whatever log.showRoot says
            "--no-relative",
            "--no-color",
            f"--max-count={max_commits + 1}",
            f"--format={_SEPARATOR}%H{_FIELD}%ct{_FIELD}%s",
            f"{since}..{head}" if since else head,
            "--",
            *(specs if len(specs) == len(pathspecs) else []),
        ],
        what="read the history of the cards",
        needed_by=NEEDED_BY,
        timeout=timeout,
    )
    commits = _parse(out)
    truncated = len(commits) > max_commits
    newest_first = commits[:max_commits]
    stamp = run_git(
        repository, ["show", "-s", "--format=%ct", head], what="read HEAD's date", needed_by=NEEDED_BY
    )
    head_date = rfc3339(stamp.decode("ascii", "replace").strip())
    return GitLog(top, head, tuple(reversed(newest_first)), shallow, truncated, head_date)


def rfc3339(stamp: str) -> str:
    """A commit's Unix time (``%ct`` as git printed it) as RFC 3339, UTC; ``UNKNOWN_DATE`` when it is not a whole
    number or falls outside years 1 to 9999."""
    try:
        moment = datetime.fromtimestamp(int(stamp), tz=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return UNKNOWN_DATE
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
        f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}Z"
    )


def commit_day(commit_date: str) -> date:
    """The day of a commit's date (``Commit.date``), as of which a step's acceptances are judged; an unknown date
    is taken as the last day, so no acceptance that expires covers its change."""
    return date.fromisoformat(commit_date[:10]) if commit_date != UNKNOWN_DATE else date.max


def _parse(out: bytes) -> list[Commit]:
    """Commits of ``git log -z --raw`` output, newest first, in the order git wrote them."""
    tokens = out.split(b"\0")
    commits: list[Commit] = []
    header: tuple[str, str, str] | None = None
    changes: list[FileChange] = []
    position = 0

    def finish() -> None:
        if header is not None:
            commits.append(Commit(header[0], header[1], header[2], tuple(changes)))

    while position < len(tokens):
        token = tokens[position].lstrip(b"\n")
        position += 1
        if token.startswith(_SEPARATOR.encode()):
            finish()
            changes = []
            fields = token[1:].decode("utf-8", "replace").split(_FIELD, 2)
            commit, stamp, subject = ([*fields, "", "", ""])[:3]
            header = (commit, rfc3339(stamp), _CONTROL.sub(" ", subject).strip())
        elif token.startswith(b":"):
            old_mode, new_mode, old_oid, new_oid, status = token[1:].decode("ascii").split()
            first = os.fsdecode(tokens[position])
            position += 1
            second: str | None = None
            if status[0] in "RC":
                second = os.fsdecode(tokens[position])
                position += 1
            old_path, new_path = (first, second) if second is not None else (first, first)
            old_side = old_mode in _FILE_MODES and status[0] != "A"
            new_side = new_mode in _FILE_MODES and status[0] != "D"
            if status[0] == "C":  # a copy leaves the old file where it was
                old_side = False
            changes.append(
                FileChange(
                    status=status[0],
                    old_path=old_path if old_side else None,
                    old_oid=old_oid if old_side else None,
                    new_path=new_path if new_side else None,
                    new_oid=new_oid if new_side else None,
                )
            )
    finish()
    return commits
