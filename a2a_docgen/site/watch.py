"""Waiting for files to change, by polling (standard library only), and what is kept from one build to the next
(``WatchCaches``): ``a2a-docgen build --watch``.

A *snapshot* of some paths is the size and modification time of every file below them (a missing path is
recorded as missing), so any change to a card, any card added or removed, and any edited template gives a
different snapshot. Polling needs no file-system notification API and behaves the same on every platform and
file system; at one poll a second, stat-ing a few thousand files costs a few milliseconds.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from a2a_docgen.history.cache import HistoryCache
from a2a_docgen.render.env import TemplateEnvs

__all__ = ["Snapshot", "WatchCaches", "snapshot", "wait_for_change", "watched_paths"]

Snapshot = frozenset[tuple[str, int, int]]
"""(path, modification time in nanoseconds, size) of every file below the watched paths; (path, -1, -1) for a
watched path that does not exist."""


@dataclass(eq=False, slots=True)
class WatchCaches:
    """What a watch keeps from one build to the next, for the whole watch (a plain build keeps nothing)."""

    templates: TemplateEnvs = field(default_factory=TemplateEnvs)
    """Our page templates' environments: each template compiled once."""
    history: HistoryCache = field(default_factory=HistoryCache)
    """The history read at each ``HEAD`` and what is known of its steps: a rebuild after a card edit reads no
    history again."""


_SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv", ".cache"})


def snapshot(
    paths: Iterable[str | os.PathLike[str]], *, exclude: Sequence[str | os.PathLike[str]] = ()
) -> Snapshot:
    """The state of every file below ``paths`` (files or directories), leaving out what is below ``exclude``
    (the output directory, when it lies inside a watched one: writing it must not count as a change)."""
    excluded = tuple(os.path.realpath(path) for path in exclude)
    entries: set[tuple[str, int, int]] = set()
    for path in paths:
        root = os.fspath(path)
        if _inside(os.path.realpath(root), excluded):
            continue
        if os.path.isfile(root):
            _add(entries, root)
            continue
        if not os.path.isdir(root):
            entries.add((root, -1, -1))
            continue
        for directory, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(
                d
                for d in dirnames
                if d not in _SKIPPED and not _inside(os.path.realpath(os.path.join(directory, d)), excluded)
            )
            for name in filenames:
                _add(entries, os.path.join(directory, name))
    return frozenset(entries)


def _inside(real: str, excluded: tuple[str, ...]) -> bool:
    return any(real == root or real.startswith(root + os.sep) for root in excluded)


def _add(entries: set[tuple[str, int, int]], path: str) -> None:
    try:
        status = os.stat(path)
    except OSError:  # removed between listing and stat-ing: the next poll sees it gone
        return
    entries.add((path, status.st_mtime_ns, status.st_size))


def wait_for_change(
    paths: Sequence[str | os.PathLike[str]],
    previous: Snapshot,
    *,
    interval: float,
    exclude: Sequence[str | os.PathLike[str]] = (),
    sleep: Callable[[float], None] = time.sleep,
) -> Snapshot:
    """Poll ``paths`` every ``interval`` seconds until their snapshot differs from ``previous``; return it.

    A change is reported once the files have held still for one more interval, so an editor or a ``git
    checkout`` writing many files is seen as one change, not a build per file."""
    current = previous
    while current == previous:
        sleep(interval)
        current = snapshot(paths, exclude=exclude)
    while True:
        sleep(interval)
        settled = snapshot(paths, exclude=exclude)
        if settled == current:
            return settled
        current = settled


def watched_paths(cards: Sequence[str], templates: str | None, builtin: Path | None) -> list[str]:
    """What ``build --watch`` watches: the cards, the user's templates and the built-in ones (in a checkout,
    the repository's ``templates/``, which a contributor edits)."""
    paths = [*cards, *([templates] if templates else [])]
    if builtin is not None and builtin.is_dir():
        paths.append(os.fspath(builtin))
    return paths
