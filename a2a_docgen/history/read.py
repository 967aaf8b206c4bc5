"""``read_history``: the change history of the cards under some paths, or why there is none.

The history is off, quietly, for cards outside a git work tree (the repository is the one that holds the cards,
found by ``a2a_docgen.git``, never by git); a missing or too old git is said once and the
site is built without history. A caller that builds again passes a ``HistoryCache`` (``history.cache``), which
keeps the results keyed by the repository, the ``HEAD`` commit id and the options: ``mkdocs serve`` rebuilding
after a card edit (``HEAD`` unchanged) asks git one question (``rev-parse HEAD``) and reads nothing else again;
after a new commit, what is known of the versions and steps already classified is kept too (keyed by blob ids,
``history.store``). Both are also written to ``a2a-docgen/history.cache`` in the repository's git directory for
the next process (``history.cache_files``; ``A2A_DOCGEN_HISTORY_CACHE``: another directory, or ``off``), with
the history itself beside it (``history.snapshot``): a new process at the same ``HEAD`` takes it without reading
git's log.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2a_docgen.collector import collector_paused
from a2a_docgen.errors import UsageError
from a2a_docgen.git import Repository, find_repository, git_version, repository_path
from a2a_docgen.history.blobs import BlobReader
from a2a_docgen.history.cache import HistoryCache
from a2a_docgen.history.cache_files import cache_directory
from a2a_docgen.history.entries import UNKNOWN_DATE, AgentHistory, CatalogHistory, RecentEntry
from a2a_docgen.history.log import (
    MIN_GIT,
    NEEDED_BY,
    GitLog,
    first_parent_of,
    head_commit,
    read_log,
    shallow_boundary,
)
from a2a_docgen.history.prefill import Parallel, prefill
from a2a_docgen.history.snapshot import FILE_NAME as SNAPSHOT_FILE
from a2a_docgen.history.snapshot import KeptWalk, read_snapshot, write_snapshot
from a2a_docgen.history.store import FILE_NAME as STORE_FILE
from a2a_docgen.history.store import Store, stamp_for
from a2a_docgen.history.walk import HistoryTimeout, Walk, place, read_order
from a2a_docgen.limits import DEFAULT_LIMITS, Limits
from a2a_docgen.load import discover

__all__ = [
    "DEFAULT_MAX_COMMITS",
    "DEFAULT_SECONDS",
    "RECENT_MAX",
    "Defer",
    "HistoryRead",
    "history_for_build",
    "read_history",
]

DEFAULT_MAX_COMMITS = 500
"""Commits read at most (the latest that changed the cards): bounds the time a long history takes."""
DEFAULT_SECONDS = 300.0
"""Seconds the history may take before the build goes on without it."""
RECENT_MAX = 1000
"""Entries on the catalogue's "What's new" pages, latest first."""

Defer = Callable[[Callable[[], None]], None]
"""Takes a write of the cache files to run later (``read_history``'s ``defer``)."""

_KEPT_ENTRIES = 400_000
"""Entries of a kept store beyond which it keeps only what its latest build used."""


@dataclass(frozen=True, slots=True)
class HistoryRead:
    history: CatalogHistory | None
    """``None``: no history (not a git repository, no git, or it failed)."""
    message: str | None = None
    """Why there is no history, or what is missing from it, for the build log (``None``: nothing to say)."""
    cached: bool = False
    """The history was kept by the caller's ``HistoryCache`` from an earlier build (``HEAD`` did not move)."""


def read_history(
    paths: Sequence[str],
    *,
    base: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    max_commits: int = DEFAULT_MAX_COMMITS,
    seconds: float = DEFAULT_SECONDS,
    repo_url: str | None = None,
    parallel: Parallel | None = None,
    defer: Defer | None = None,
    cache: HistoryCache | None = None,
) -> HistoryRead:
    """The history of the cards ``load_catalog(paths, base=base)`` reads, keyed by their identity keys
    (``CardSource.key``).
    ``parallel``: the caller's worker processes, for a history with many versions to read (``history.prefill``);
    the history is the same without. ``defer``: where the writes of the cache files go when the caller has a
    better moment for them (the plugin: while its pages convert in workers, where it would wait); without it they
    are written before this returns. ``cache``: what the caller keeps from one build to the next (``mkdocs
    serve``, ``build --watch``); without it nothing of this read is kept."""
    cwd = os.path.realpath(base if base is not None else os.getcwd())
    try:
        repository = _repository(paths, cwd)
        if repository is None:
            return HistoryRead(None)
        top = repository.top
        version = git_version(NEEDED_BY)
        if version[:2] < MIN_GIT:
            shown = ".".join(str(part) for part in version)
            wanted = ".".join(str(part) for part in MIN_GIT)
            return HistoryRead(
                None, f"the change history needs git {wanted} or newer (found {shown}): built without it"
            )
        arguments = _arguments(paths, cwd, top)
        if not arguments:
            return HistoryRead(None)
        held = _held(paths, cwd)
        head = head_commit(repository)
        key = (top, head, tuple(arguments), tuple(sorted(held.items())), max_commits, limits, repo_url)
        kept = cache.history(key) if cache is not None else None
        if kept is not None:
            return HistoryRead(kept, _message(kept), cached=True)
        # A history is tens of thousands of entries and findings (from git, the store or the snapshot), and
        # no cycles: collections would walk them, and the catalogue, again and again.
        with collector_paused():
            history = _read(
                repository,
                head,
                arguments,
                held,
                limits,
                max_commits,
                seconds,
                repo_url,
                parallel,
                defer or _now,
                cache,
            )
    except (UsageError, HistoryTimeout) as exc:
        return HistoryRead(None, f"no change history: {exc}")
    if cache is not None:
        cache.keep_history(key, history)
    return HistoryRead(history, _message(history))


def _message(history: CatalogHistory) -> str | None:
    return " ".join(history.notices) or None


def _repository(paths: Sequence[str], cwd: str) -> Repository | None:
    """The repository that holds the first of the cards' paths (relative to ``cwd``) that is in one."""
    for argument in paths:
        path = os.path.join(cwd, argument)
        found = find_repository(path if os.path.isdir(path) else os.path.dirname(path))
        if found is not None:
            return found
    return None


def _arguments(paths: Sequence[str], cwd: str, top: str) -> list[tuple[str, str, bool, int]]:
    """(argument, its path in the repository, whether it is a file, its position in ``paths``) for each path
    inside the repository."""
    found = []
    for position, argument in enumerate(paths):
        prefix = repository_path(str(argument), cwd=cwd, top=top)
        if prefix is not None:
            found.append((str(argument), prefix, os.path.isfile(os.path.join(cwd, argument)), position))
    return found


def _held(paths: Sequence[str], cwd: str) -> dict[str, tuple[int, ...]]:
    """The positions of the paths that hold a card file at each relative path, when several paths are given (a
    file's key says its path's position when another holds the same relative path: ``model.card_key``)."""
    if len(paths) < 2:
        return {}
    held: dict[str, set[int]] = {}
    for card_file in discover(paths, base=cwd):
        held.setdefault(card_file.relpath, set()).add(card_file.position)
    return {relpath: tuple(sorted(positions)) for relpath, positions in sorted(held.items())}


def _read(
    repository: Repository,
    head: str,
    arguments: list[tuple[str, str, bool, int]],
    held: Mapping[str, tuple[int, ...]],
    limits: Limits,
    max_commits: int,
    seconds: float,
    repo_url: str | None,
    parallel: Parallel | None,
    defer: Defer,
    cache: HistoryCache | None,
) -> CatalogHistory:
    top = repository.top
    started = time.monotonic()
    deadline = started + seconds
    directory = cache_directory(repository)
    snapshot = _snapshot(directory, repository, head, arguments, held, limits, max_commits)
    kept = read_snapshot(*snapshot, repository=repository) if snapshot is not None else None
    if isinstance(kept, CatalogHistory):
        return dataclasses.replace(kept, commit_url=repo_url)
    prefixes = [prefix for _, prefix, _, _ in arguments]
    where = place(arguments, held)
    continued = (
        _continued(repository, head, prefixes, max_commits, seconds, kept) if kept is not None else None
    )
    if continued is not None:
        # A push: the walk goes on from the snapshot's HEAD over the new commits alone. The store's file is
        # left as the last whole read wrote it (its entries never go stale); what this walk learns is kept in
        # the snapshot it writes.
        (log, commits), resumed = continued, kept
        store, saved = (cache.store(top, stamp_for(limits)) if cache is not None else None) or Store(), None
        store.start_build()
    else:
        log = read_log(repository, prefixes, head=head, max_commits=max_commits, timeout=seconds)
        commits, resumed = len(log.commits), None
        store, saved = _store(directory, top, limits, cache)
    if parallel is not None:
        prefill(
            store,
            log.commits,
            where,
            repository=repository,
            limits=limits,
            parallel=parallel,
            deadline=deadline,
        )
    known = frozenset(store.versions)
    met = resumed.state if resumed is not None else {}
    order = [oid for oid in read_order(log.commits, where, met=met) if oid not in known]
    with BlobReader(repository, order, max_bytes=limits.max_file_bytes) as blobs:
        walk = Walk(blobs, where, limits, store, deadline=deadline, known=known)
        if resumed is not None:
            walk.state, walk.timeline = resumed.state, resumed.timeline
        boundary = log.commits[0].id if log.shallow and log.commits and not log.truncated else None
        walk.run(log.commits, boundary=boundary)
    if saved is not None and store.stale():
        defer(functools.partial(store.write, saved, stamp_for(limits)))
    agents: dict[str, AgentHistory] = {}
    current: dict[int, str] = {}  # id of an entry -> its agent's card file today
    for path, lineage in sorted(walk.state.items()):
        located = where(path)
        if located is not None and lineage.entries:
            agents[located[0]] = AgentHistory(tuple(reversed(lineage.entries)))
            current.update((id(entry), located[0]) for entry in lineage.entries)
    notices = []
    if boundary is not None:
        first = log.commits[0]
        when = f" of {first.date[:10]}" if first.date != UNKNOWN_DATE else ""
        notices.append(
            f"This history comes from a shallow clone: it starts at commit {first.id[:10]}{when}, "
            "and earlier changes are not shown (fetch the whole history, fetch-depth: 0, to show them)."
        )
    elif log.shallow and log.truncated:
        notices.append("This history comes from a shallow clone; earlier changes may be missing.")
    if log.truncated:
        notices.append(f"Only the latest {max_commits} commits that changed the cards are read.")
    history = CatalogHistory(
        agents=agents,
        recent=tuple(RecentEntry(e, current.get(id(e))) for e in reversed(walk.timeline[-RECENT_MAX:])),
        notices=tuple(notices),
        commit_url=repo_url,
        head=head,
        head_date=log.head_date,
    )
    if snapshot is not None:
        whole = not log.shallow and not log.truncated  # a walk from the first commit: one to go on from
        state = (commits, walk.state) if whole else None
        defer(functools.partial(write_snapshot, *snapshot, history, state))
    return history


def _continued(
    repository: Repository, head: str, prefixes: list[str], max_commits: int, seconds: float, kept: KeptWalk
) -> tuple[GitLog, int] | None:
    """The commits after the kept walk's ``HEAD`` and the number of commits of the whole log, when the walk can go
    on from there: its ``HEAD`` is on the first-parent chain of this one, and the whole log stays within the
    bound on commits and is not a shallow clone's (either would change where the walk starts)."""
    if not first_parent_of(repository, kept.head, head):
        return None
    left = max_commits - kept.commits
    if left < 0:
        return None
    log = read_log(repository, prefixes, head=head, max_commits=left, timeout=seconds, since=kept.head)
    if log.shallow or log.truncated:
        return None
    return log, kept.commits + len(log.commits)


def _now(write: Callable[[], None]) -> None:
    write()


def _snapshot(
    directory: Path | None,
    repository: Repository,
    head: str,
    arguments: list[tuple[str, str, bool, int]],
    held: Mapping[str, tuple[int, ...]],
    limits: Limits,
    max_commits: int,
) -> tuple[Path, dict[str, Any]] | None:
    """Where the history at ``head`` is kept in the cache ``directory``, and the key it is kept under; ``None``
    when the cache is off."""
    if directory is None:
        return None
    key = {
        "stamp": stamp_for(limits),
        "head": head,
        "arguments": [list(argument) for argument in arguments],
        "held": [[relpath, list(positions)] for relpath, positions in held.items()],
        "max_commits": max_commits,
        "shallow": shallow_boundary(repository),
    }
    return directory / SNAPSHOT_FILE, key


def _store(
    directory: Path | None, top: str, limits: Limits, cache: HistoryCache | None
) -> tuple[Store, Path | None]:
    """The store for the repository at ``top``: the one ``cache`` keeps, else read from its file in the cache
    ``directory`` (and kept in ``cache``), ready for a build; and that file (``None`` when the cache is off)."""
    saved = directory / STORE_FILE if directory is not None else None
    stamp = stamp_for(limits)
    store = cache.store(top, stamp) if cache is not None else None
    if store is None:
        store = Store()
        if saved is not None:
            store.read(saved, stamp)
        if cache is not None:
            cache.keep_store(top, stamp, store)
    store.trim(_KEPT_ENTRIES)
    store.start_build()
    return store, saved


def history_for_build(
    paths: Sequence[str],
    *,
    base: str | None = None,
    enabled: bool = True,
    limits: Limits = DEFAULT_LIMITS,
    max_commits: int = DEFAULT_MAX_COMMITS,
    repo_url: str | None = None,
    say: Callable[[str], None],
    parallel: Parallel | None = None,
    defer: Defer | None = None,
    cache: HistoryCache | None = None,
) -> CatalogHistory | None:
    """What ``build`` and the plugin call: the history (``None`` when off or unavailable), with what there is to
    say about it passed to ``say`` (a missing git, a shallow clone)."""
    if not enabled:
        return None
    read = read_history(
        paths,
        base=base,
        limits=limits,
        max_commits=max_commits,
        repo_url=repo_url,
        parallel=parallel,
        defer=defer,
        cache=cache,
    )
    if read.message and not read.cached:
        say(read.message)
    return read.history
