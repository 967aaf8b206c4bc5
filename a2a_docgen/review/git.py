"""The base side of a review, read from a git revision through the same loader as the working tree.

``a2a-docgen diff --base-ref origin/main cards/`` compares ``cards/`` in the working tree with ``cards/`` at
``origin/main``. The files at the revision are chosen like ``discover`` chooses them on disk (``*.json``
below a directory, minus sidecars and skipped directories; a file argument as it is), and get the same
display paths, so a card is matched to itself and annotations name the path a reviewer knows.

git runs through ``a2a_docgen.git`` (the repository found there, never a program of its configuration, never a
fetch), with literal pathspecs, and blobs are read by object id through one ``git cat-file --batch``, so no path
or revision can be taken for an option or a pattern. Symbolic links at the revision are not followed (their
target may not exist there).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

from a2a_docgen.catalog import assemble_catalog, load_card_bytes
from a2a_docgen.errors import UsageError
from a2a_docgen.git import (
    GitError,
    Repository,
    find_repository,
    missing_object,
    repository_path,
    run_git,
    try_git,
)
from a2a_docgen.limits import DEFAULT_LIMITS, Limits
from a2a_docgen.load import SIDECAR_SUFFIX, SKIPPED_DIRS, file_too_large
from a2a_docgen.model import AgentCard, Catalog, Diagnostic, card_keys
from a2a_docgen.signing import Trust

__all__ = [
    "GitRevision",
    "RevisionFile",
    "is_card_path",
    "load_catalog_at_revision",
    "read_blobs",
]

_SYMLINK_MODE = "120000"


@dataclass(frozen=True, slots=True)
class RevisionFile:
    """A card file at a revision."""

    argument: str
    """The path argument it was found under."""
    display: str
    """The path as ``discover`` would show it in the working tree."""
    relpath: str
    """Path below ``argument`` with ``/`` separators (the file name when the argument is the file)."""
    oid: str
    size: int
    key: str = ""
    """Its identity key at this revision (``CardSource.key``)."""


class GitRevision:
    """One commit of the repository that contains ``cwd``."""

    def __init__(self, revision: str, *, cwd: str | os.PathLike[str] | None = None) -> None:
        if not revision or revision.startswith("-"):
            raise UsageError(f"--base-ref: {revision!r} is not a revision")
        self.cwd = os.path.realpath(cwd if cwd is not None else os.getcwd())
        repository = find_repository(self.cwd)
        if repository is None:
            raise UsageError(f"cannot find the git repository: no .git in {self.cwd} or a directory above it")
        self.repository: Repository = repository
        self.top = repository.top
        self.revision = revision
        self.commit = self._resolve(revision)

    def _git(self, argv: list[str], *, what: str) -> bytes:
        return run_git(self.repository, argv, what=what, needed_by="--base-ref")

    def _resolve(self, revision: str) -> str:
        """``revision``'s commit id; ``UsageError`` with what to do when there is none."""
        try:
            commit = self._git(
                ["rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
                what=f"resolve --base-ref {revision!r}",
            )
        except GitError as exc:
            if not exc.reason:
                reason = "no such revision (fetch it first, e.g. git fetch origin main)"
            elif "no upstream configured" in exc.reason:
                reason = f"{exc.reason} (name the base instead, e.g. --base-ref origin/main, or use --since-default-branch)"
            else:
                raise
            raise UsageError(f"cannot {exc.what}: {reason}") from exc
        return commit.decode("ascii").strip()

    @classmethod
    def default_branch_merge_base(cls, *, cwd: str | os.PathLike[str] | None = None) -> GitRevision:
        """Where the current branch left the default branch: ``git merge-base <default> HEAD``.

        The default branch is ``origin/HEAD`` (what the clone calls the remote's default), else the first
        of ``origin/main``, ``origin/master``, ``main`` and ``master`` that exists. This is the base a
        branch's pull request will be reviewed against, known before the branch has an upstream (its first
        push) and unchanged by pushes of the branch itself.
        """
        probe = cls("HEAD", cwd=cwd)
        candidates = []
        head_ref = try_git(probe.repository, ["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"])
        if head_ref:
            candidates.append(head_ref.removeprefix("refs/remotes/"))
        candidates += ["origin/main", "origin/master", "main", "master"]
        for branch in candidates:
            if (
                try_git(probe.repository, ["rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}"])
                is None
            ):
                continue
            base = try_git(probe.repository, ["merge-base", branch, "HEAD"])
            if base:
                revision = cls(base, cwd=cwd)
                revision.revision = f"the merge base of {branch} and HEAD"
                return revision
        raise UsageError(
            "--since-default-branch: no default branch found (origin/HEAD, origin/main, origin/master, main or "
            "master), or it shares no history with HEAD; name the base with --base-ref"
        )

    def repo_path(self, path: str) -> str:
        """``path`` (relative to ``cwd``) as a path from the repository root, ``""`` for the root."""
        found = repository_path(path, cwd=self.cwd, top=self.top)
        if found is None:
            raise UsageError(f"{path}: outside the git repository {self.top}")
        return found

    def files(self, paths: Sequence[str]) -> list[RevisionFile]:
        """The card files under ``paths`` at this revision, in ``discover`` order (each argument, by path)."""
        found: list[tuple[int, RevisionFile]] = []
        seen: set[str] = set()
        for position, argument in enumerate(paths):
            prefix = self.repo_path(argument)
            listing = self._git(
                [
                    "ls-tree",
                    "-r",
                    "-l",
                    "-z",
                    "--full-tree",
                    self.commit,
                    "--",
                    *([prefix] if prefix else []),
                ],
                what=f"list {argument} at {self.revision}",
            )
            entries = []
            for record in listing.split(b"\0"):
                if not record:
                    continue
                meta, _, raw_path = record.partition(b"\t")
                fields = meta.decode("ascii", "replace").split()
                if len(fields) != 4:
                    raise UsageError(f"cannot list {argument} at {self.revision}: git wrote {record[:80]!r}")
                mode, kind, oid, size = fields
                path = os.fsdecode(raw_path)
                if kind != "blob" or mode == _SYMLINK_MODE or path in seen:
                    continue
                if not size.isdigit():  # "BAD": git could not read the object
                    raise UsageError(f"cannot list {argument} at {self.revision}: {missing_object(oid)}")
                if path == prefix:
                    entries.append((path, os.path.basename(path), oid, size, True))
                elif not prefix or path.startswith(prefix + "/"):
                    entries.append((path, path[len(prefix) + 1 :] if prefix else path, oid, size, False))
            for path, below, oid, size, is_argument in sorted(entries, key=lambda e: e[1]):
                if not is_argument and not is_card_path(below):
                    continue
                seen.add(path)
                display = argument if is_argument else os.path.join(argument, *below.split("/"))
                found.append((position, RevisionFile(argument, display, below, oid, int(size))))
        keys = card_keys([(position, file.relpath) for position, file in found])
        return [replace(file, key=key) for (_, file), key in zip(found, keys, strict=True)]

    def read_file(self, path: str) -> bytes | None:
        """The contents of the file at ``path`` (from the repository root) at this revision, ``None`` when
        there is no such file; a symbolic link there is not followed (a ``UsageError``)."""
        listing = self._git(
            ["ls-tree", "-z", "--full-tree", self.commit, "--", path],
            what=f"look for {path} at {self.revision}",
        )
        for record in listing.split(b"\0"):
            meta, _, raw_path = record.partition(b"\t")
            if not record or os.fsdecode(raw_path) != path:
                continue
            mode, kind, oid = meta.decode("ascii").split()
            if mode == _SYMLINK_MODE:
                raise UsageError(f"{path}: a symbolic link at {self.revision}, which is not followed")
            if kind == "blob":
                what = f"read {path} at {self.revision}"
                return read_blobs(self.repository, [oid], what=what).get(oid)
        return None

    def read(self, files: Sequence[RevisionFile], limits: Limits) -> dict[str, bytes]:
        """The contents of the files no larger than the limit, keyed by object id."""
        wanted = sorted({f.oid for f in files if f.size <= limits.max_file_bytes})
        return read_blobs(self.repository, wanted, what=f"read the cards at {self.revision}")

    def load(
        self, files: Sequence[RevisionFile], *, limits: Limits = DEFAULT_LIMITS, trust: Trust | None = None
    ) -> Catalog:
        """Read ``files`` into a catalogue, exactly as ``load_catalog`` reads files on disk (signatures
        verified against ``trust``)."""
        blobs = self.read(files, limits)

        def load(file: RevisionFile) -> tuple[AgentCard | None, list[Diagnostic], str]:
            if file.oid not in blobs:
                return (
                    None,
                    [file_too_large(file.display, file.size, limits, where=" at the base revision")],
                    file.display,
                )
            card, found = load_card_bytes(
                blobs[file.oid],
                display=file.display,
                root=file.argument,
                relpath=file.relpath,
                key=file.key,
                limits=limits,
            )
            return card, found, file.display

        return assemble_catalog((load(file) for file in files), trust=trust)


def read_blobs(repository: Repository, oids: Sequence[str], *, what: str) -> dict[str, bytes]:
    """The contents of the blobs ``oids`` of ``repository``, read by one ``git cat-file --batch``; ``UsageError``
    when one is missing or not a blob."""
    wanted = sorted(set(oids))
    if not wanted:
        return {}
    output = run_git(
        repository,
        ["cat-file", "--batch"],
        what=what,
        stdin="".join(f"{oid}\n" for oid in wanted).encode("ascii"),
        needed_by="--base-ref",
    )
    blobs: dict[str, bytes] = {}
    position = 0
    for oid in wanted:
        end = output.find(b"\n", position)
        header = output[position:end].decode("ascii", "replace").split() if end >= 0 else []
        if len(header) != 3 or header[0] != oid or header[1] != "blob" or not header[2].isdigit():
            raise UsageError(f"cannot {what}: {missing_object(oid)}")
        size = int(header[2])
        blobs[oid] = output[end + 1 : end + 1 + size]
        position = end + 1 + size + 1
    return blobs


def is_card_path(below: str) -> bool:
    """Whether a file at ``below`` (``/``-separated, below a directory argument) is a card ``discover`` reads."""
    parts = below.split("/")
    return (
        parts[-1].endswith(".json")
        and not parts[-1].endswith(SIDECAR_SUFFIX)
        and not any(part in SKIPPED_DIRS for part in parts[:-1])
    )


def load_catalog_at_revision(
    paths: Sequence[str],
    revision: str,
    *,
    limits: Limits = DEFAULT_LIMITS,
    cwd: str | os.PathLike[str] | None = None,
) -> Catalog:
    """The catalogue ``load_catalog(paths)`` would have read at ``revision`` (paths relative to ``cwd``).

    Paths that do not exist at the revision contribute nothing (every card under them is new). Raises
    ``UsageError`` outside a git repository, for an unknown revision or a path outside the repository.
    """
    revision_at = GitRevision(revision, cwd=cwd)
    return revision_at.load(revision_at.files(paths), limits=limits)
