"""Writing files: atomically, and not at all when the bytes are already there.

Readers (``mkdocs serve``, a git checkout, another process) never see half a file: ``write_atomic`` writes
through a temporary file in the same directory and ``os.replace``; the site writer stages a whole site the same
way. A file that already holds the bytes is left untouched (its modification time included), so tools that
watch files or diff them see only real changes.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["same_bytes", "write_atomic"]


def same_bytes(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a symbolic link) that holds exactly ``data``."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same directory and ``os.replace``: readers never see half a file."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would make the file private
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
