"""Blob contents read on demand through one ``git cat-file --batch`` process for a whole history."""

from __future__ import annotations

import contextlib
import subprocess
from types import TracebackType
from typing import IO

from a2a_docgen.errors import UsageError

__all__ = ["BlobReader"]


class BlobReader:
    """``read(oid)`` -> the blob's bytes, ``None`` when it is missing or larger than ``max_bytes`` (then it is
    skipped unread). One process serves every read; use it as a context manager."""

    def __init__(self, top: str, *, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        try:
            self._process = subprocess.Popen(
                ["git", "cat-file", "--batch"],
                cwd=top,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise UsageError(f"cannot read the card versions: {exc}") from exc
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        self._in: IO[bytes] = self._process.stdin
        self._out: IO[bytes] = self._process.stdout

    def read(self, oid: str) -> tuple[bytes | None, int]:
        """(the contents or ``None``, the size git reports; -1 when the object is missing)."""
        try:
            self._in.write(oid.encode("ascii") + b"\n")
            self._in.flush()
            header = self._out.readline().split()
        except OSError as exc:
            raise UsageError(f"cannot read the card versions: {exc}") from exc
        if len(header) < 3 or header[1] != b"blob":
            return None, -1
        size = int(header[2])
        if size > self.max_bytes:
            remaining = size + 1
            while remaining:
                remaining -= len(self._out.read(min(remaining, 1 << 20)) or b"\0" * remaining)
            return None, size
        data = self._out.read(size + 1)
        return data[:size], size

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._in.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._out.close()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
