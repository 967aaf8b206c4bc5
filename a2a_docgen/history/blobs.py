"""Blob contents through one ``git cat-file --batch`` process for a whole history.

The walk knows, from the log alone, every blob it will read and in which order (``history.walk.read_order``):
a thread writes all the requests while the walk reads the answers in that order, so git never waits for a
round trip (one request, one answer, one flush per blob took a third of the time). A blob the walk needs
out of that order (a version known from the cache whose model is wanted after all) is asked for on its own.
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Sequence
from types import TracebackType
from typing import IO

from a2a_docgen.errors import UsageError

__all__ = ["BlobReader", "read_answer"]


class BlobReader:
    """``read(oid)`` -> the blob's bytes, ``None`` when it is missing or larger than ``max_bytes`` (then it is
    skipped unread). ``order``: every blob that will be read, in the order of the reads. Use it as a context
    manager."""

    def __init__(self, top: str, order: Sequence[str], *, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._top = top
        self._single: subprocess.Popen[bytes] | None = None
        self._process = _start(top, "--buffer")
        stdin, stdout = self._process.stdin, self._process.stdout
        if stdin is None or stdout is None:  # pragma: no cover - both are pipes
            raise UsageError("cannot read the card versions: no pipe to git")
        self._out: IO[bytes] = stdout
        self._writer = threading.Thread(target=_write_requests, args=(stdin, list(order)), daemon=True)
        self._writer.start()

    def read(self, oid: str) -> bytes | None:
        """The next blob of the order, which must be ``oid``."""
        return read_answer(self._out, oid, self.max_bytes)

    def fetch(self, oid: str) -> bytes | None:
        """Any blob, out of the order (one round trip to a second ``git cat-file``)."""
        if self._single is None:
            self._single = _start(self._top)
        stdin, stdout = self._single.stdin, self._single.stdout
        assert stdin is not None
        assert stdout is not None
        try:
            stdin.write(f"{oid}\n".encode("ascii"))
            stdin.flush()
        except OSError as exc:
            raise UsageError(f"cannot read the card versions: {exc}") from exc
        return read_answer(stdout, oid, self.max_bytes)

    def close(self) -> None:
        self._process.kill()
        self._process.wait()
        if self._single is not None:
            self._single.kill()
            self._single.wait()
            for pipe in (self._single.stdin, self._single.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
        self._writer.join(timeout=10)
        self._out.close()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _start(top: str, *options: str) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            ["git", "cat-file", "--batch", *options],
            cwd=top,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError as exc:
        raise UsageError(f"cannot read the card versions: {exc}") from exc


def read_answer(out: IO[bytes], oid: str, max_bytes: int) -> bytes | None:
    """git's answer for ``oid``: the blob's bytes, ``None`` when it is missing, not a blob or larger than
    ``max_bytes`` (then skipped unread)."""
    header = out.readline().split()
    if not header or header[0].decode("ascii", "replace") != oid:
        raise UsageError(f"cannot read the card versions: git answered {header[:1]!r} for {oid}")
    if len(header) < 3 or header[1] != b"blob":
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
