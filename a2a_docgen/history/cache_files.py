"""Where the history's cache files are kept, and their bytes read and written: where no commit can put them, never
through a symbolic link.

A cache only ever saves time: the site is the same with it, without it, and with any bytes in its place. The
files are kept under the repository's git directory (``a2a-docgen/`` in ``Repository.common_dir``, which its
worktrees share and no commit can write), or in the directory ``A2A_DOCGEN_HISTORY_CACHE`` names (the side that runs the
build: ``off`` for none), never inside the work tree, where a pull request can commit a file (``git add -f``).
The cache directory and its files are opened without following a symbolic link: a link in their place is no
cache, and nothing is written through it. Files are written atomically. Their readers (``history.store``,
``history.snapshot``) check every value; a snapshot's commits and blobs must also exist (``objects_exist``).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from a2a_docgen.errors import UsageError
from a2a_docgen.git import Repository, run_git

__all__ = [
    "CACHE_ENV",
    "MAX_FILE_BYTES",
    "cache_directory",
    "objects_exist",
    "read_cache_file",
    "write_cache_file",
]

CACHE_ENV = "A2A_DOCGEN_HISTORY_CACHE"
"""A directory for the cache files, or ``off`` for none (default: ``a2a-docgen/`` in git's directory)."""
DIRECTORY_NAME = "a2a-docgen"
MAX_FILE_BYTES = 1 << 28
"""A larger file is no cache (at 500 agents x 30 commits the snapshot is 4.5 MB, the store 5.7 MB)."""

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_AT = {os.open, os.mkdir, os.rename, os.unlink} <= os.supports_dir_fd
_SAFE = bool(_NOFOLLOW) and _AT
"""The platform opens a file in a directory without following links (not Windows): else no file is kept."""
_DIRECTORY_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


def cache_directory(repository: Repository) -> Path | None:
    """The cache directory of ``repository``; ``None`` when the cache is off, or would be inside the work tree
    (and not in git's directory)."""
    setting = os.environ.get(CACHE_ENV, "").strip()
    if setting.lower() == "off" or not _SAFE:
        return None
    if not setting:
        return Path(repository.common_dir, DIRECTORY_NAME)
    directory = os.path.realpath(setting)
    if _within(directory, repository.top) and not _within(directory, repository.common_dir):
        return None
    return Path(setting)


def _within(path: str, directory: str) -> bool:
    return os.path.commonpath([path, directory]) == directory


def read_cache_file(path: Path) -> bytes | None:
    """The bytes of the cache file at ``path``; ``None`` when it, or its directory, is missing, a link, not a
    regular file or larger than ``MAX_FILE_BYTES``."""
    if not _SAFE:
        return None
    try:
        directory = _open_directory(path.parent, create=False)
        try:
            fd = os.open(path.name, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW, dir_fd=directory)
        finally:
            os.close(directory)
        with os.fdopen(fd, "rb") as file:
            found = os.fstat(file.fileno())
            if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_FILE_BYTES:
                return None
            return file.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None


def write_cache_file(path: Path, document: dict[str, Any]) -> None:
    """A cache file written atomically as compact JSON, its directory made; quietly nothing when it cannot be
    (the directory, or the file, is a link)."""
    if not _SAFE:
        return
    data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    with contextlib.suppress(OSError):
        directory = _open_directory(path.parent, create=True)
        try:
            _write_atomic_at(directory, path.name, data)
        finally:
            os.close(directory)


def _open_directory(path: Path, *, create: bool) -> int:
    """The directory at ``path``, opened without following a link at its last component (its parent is the git
    directory, or the named directory's, followed as named); made first with ``create``."""
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    parent = os.open(path.parent, _DIRECTORY_FLAGS)
    try:
        if create:
            with contextlib.suppress(FileExistsError):
                os.mkdir(path.name, dir_fd=parent)
        return os.open(path.name, _DIRECTORY_FLAGS | _NOFOLLOW, dir_fd=parent)
    finally:
        os.close(parent)


def _write_atomic_at(directory: int, name: str, data: bytes) -> None:
    """``name`` in the open ``directory`` replaced by ``data`` through a new temporary file there: a link at
    ``name`` is replaced, never written through; readers never see half a file."""
    temporary = f".{name}.{secrets.token_hex(8)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(temporary, flags, 0o644, dir_fd=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, name, src_dir_fd=directory, dst_dir_fd=directory)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=directory)
        raise


def objects_exist(repository: Repository, wanted: Mapping[str, str]) -> bool:
    """Whether each object id of ``wanted`` (checked hex) names an object of that type (``commit``, ``blob``) in
    ``repository``: one ``git cat-file --batch-check``."""
    if not wanted:
        return True
    ids = sorted(wanted)
    try:
        out = run_git(
            repository,
            ["cat-file", "--batch-check=%(objectname) %(objecttype)"],
            stdin="".join(f"{i}\n" for i in ids).encode("ascii"),
            what="check the history cache's objects",
            needed_by="the change history",
        )
    except UsageError:
        return False
    return out.decode("ascii", "replace").split() == [part for i in ids for part in (i, wanted[i])]
