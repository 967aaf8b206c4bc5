"""Blob contents through one ``git cat-file --batch`` process for a whole history.

The walk knows, from the log alone, every blob it will read and in which order (``history.walk.read_order``):
a thread writes all the requests while the walk reads the answers in that order, so git never waits for a
round trip (one request, one answer, one flush per blob took a third of the time). A blob the walk needs
out of that order (a version known from the cache whose model is wanted after all) is asked for on its own.
Both processes are started by ``a2a_docgen.git`` (``GitProcess``), as every git of the project is.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from types import TracebackType
from typing import IO

from a2a_docgen.errors import UsageError
from a2a_docgen.git import GitProcess, Repository, missing_object

__all__ = ["BlobReader", "read_answer"]


class BlobReader:
    """``read(oid)`` -> the blob's bytes, ``None`` when it is missing or larger than ``max_bytes`` (then it is
    skipped unread). ``order``: every blob that will be read, in the order of the reads. Use it as a context
    manager."""

    def __init__(self, repository: Repository, order: Sequence[str], *, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._repository = repository
        self._single: GitProcess | None = None
        self._process = _start(repository, "--buffer")
        self._writer = threading.Thread(
            target=_write_requests, args=(self._process.stdin, list(order)), daemon=True
        )
        self._writer.start()

    def read(self, oid: str) -> bytes | None:
        """The next blob of the order, which must be ``oid``."""
        return read_answer(self._process, oid, self.max_bytes)

    def fetch(self, oid: str) -> bytes | None:
        """Any blob, out of the order (one round trip to a second ``git cat-file``)."""
        if self._single is None:
            self._single = _start(self._repository)
        try:
            self._single.stdin.write(f"{oid}\n".encode("ascii"))
            self._single.stdin.flush()
        except OSError as exc:
            raise UsageError(f"cannot read the card versions: {exc}") from exc
        return read_answer(self._single, oid, self.max_bytes)

    def close(self) -> None:
        self._process.stop()
        if self._single is not None:
            self._single.close()
        self._writer.join(timeout=10)
        self._process.close()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _start(repository: Repository, *options: str) -> GitProcess:
    return GitProcess(repository, ["cat-file", "--batch", *options], what="read the card versions")


def read_answer(process: GitProcess, oid: str, max_bytes: int) -> bytes | None:
    """git's answer for ``oid``: the blob's bytes, ``None`` when it is not a blob or larger than ``max_bytes``
    (then skipped unread); ``UsageError`` when it is missing (the history would be told wrong without it) or git
    stopped (a partial clone's missing object, which is never fetched)."""
    out = process.stdout
    header = out.readline().split()
    if not header:
        raise UsageError(f"cannot read the card versions: {process.failure()}")
    if header[0].decode("ascii", "replace") != oid:
        raise UsageError(f"cannot read the card versions: git answered {header[:1]!r} for {oid}")
    if header[1:] == [b"missing"]:
        raise UsageError(f"cannot read the card versions: {missing_object(oid)}")
    if len(header) < 3 or header[1] != b"blob" or not header[2].isdigit():
        return None
    size = int(header[2])
    if size > max_bytes:
        remaining = size + 1
        while remaining:
            chunk = out.read(min(remaining, 1 << 20))
            if not chunk:
                break
            remaining -= len(chunk)
        return None
    data = out.read(size + 1)
    return data[:size]


def _write_requests(stdin: IO[bytes], order: list[str]) -> None:
    """Every request, then end of input (git then answers the buffered ones and exits)."""
    with contextlib.suppress(OSError):  # git was stopped early: the walk failed or is done
        for start in range(0, len(order), 512):
            stdin.write("".join(f"{oid}\n" for oid in order[start : start + 512]).encode("ascii"))
        stdin.close()
