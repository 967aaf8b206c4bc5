"""Fill the store in worker processes before the walk: the cold work of a history, on every core.

Most steps the walk compares are a card file's consecutive versions (git follows its renames). Those chains
are known from the log alone, so workers can load each version and compare it with the one before while the
walk has not started; the walk then finds the facts and findings in the store (``history.store``) and does the
rest itself: an agent that moved to another file, a comparison with an older version after an unreadable one.
What the workers compute is what the walk would compute for the same keys, so the pages do not change.

The processes come from the caller (``history_for_build(..., parallel=...)``): the history does not start
workers of its own, so it runs wherever the renderer's workers may (one thread, Linux) and in this process
elsewhere.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from a2a_docgen.collector import collector_paused
from a2a_docgen.git import Repository
from a2a_docgen.history import walk
from a2a_docgen.history.blobs import BlobReader
from a2a_docgen.history.entries import HistoryFinding
from a2a_docgen.history.log import Commit, commit_day
from a2a_docgen.history.store import FindingsKey, Store, VersionFacts
from a2a_docgen.history.walk import Place
from a2a_docgen.limits import Limits
from a2a_docgen.load import SkillMemo
from a2a_docgen.model import Catalog

__all__ = ["MIN_VERSIONS", "Parallel", "chains", "prefill"]

Link = tuple[str, Place, str]
"""(blob id, place, commit date) of one version in a chain."""

Planned = tuple[list[Link], list[int]]
"""A chain and the places in it of the versions the workers read (``_planned``)."""

Parallel = Callable[[Callable[[int], Any], int], list[Any]]
"""``parallel(work, count) == [work(0), ..., work(count - 1)]``, in worker processes where the caller can."""

MIN_VERSIONS = 2000
"""Versions to read (those the store lacks, and both versions of each step it lacks) below which the walk reads
them itself (workers cost more than they save)."""
_GROUPS = 64
"""Shares of the chains (the caller's workers take contiguous runs of them)."""

Filled = tuple[dict[str, VersionFacts | None], dict[FindingsKey, tuple[HistoryFinding, ...]]]


def chains(commits: Sequence[Commit], where: Callable[[str], Place | None]) -> list[list[Link]]:
    """Each card file's versions, oldest first, following git's renames (the window's first sight of a file
    starts its chain with the old blob)."""
    current: dict[str, list[Link]] = {}
    found: list[list[Link]] = []
    for commit in commits:
        for change in commit.changes:
            chain: list[Link] | None = None
            old_place = where(change.old_path) if change.old_path else None
            if change.old_path and old_place is not None:
                chain = current.pop(change.old_path, None)
                if chain is None and change.old_oid:
                    chain = [(change.old_oid, old_place, commit.date)]
                    found.append(chain)
            new_place = where(change.new_path) if change.new_path else None
            if change.new_path and change.new_oid and new_place is not None:
                if chain is None:
                    chain = []
                    found.append(chain)
                chain.append((change.new_oid, new_place, commit.date))
                current[change.new_path] = chain
    return found


def prefill(
    store: Store,
    commits: Sequence[Commit],
    where: Callable[[str], Place | None],
    *,
    repository: Repository,
    limits: Limits,
    parallel: Parallel,
    deadline: float,
) -> int:
    """Add to ``store`` what the workers find along the chains; returns the number of versions they read (0:
    nothing to do, or too little to repay workers, and nothing was started). Of each chain, the workers read
    the versions the store lacks and both versions of each step it lacks (after a push, the new versions and
    the one before each): a store can know every version and none of the steps (the cards were read under
    other display paths, which the steps' keys hold). Past ``deadline`` (of ``time.monotonic``) the workers
    stop and the walk's own check of it ends the history."""
    todo = [(chain, plan) for chain in chains(commits, where) if (plan := _planned(store, chain))]
    unknown = sum(len(plan) for _, plan in todo)
    if unknown < MIN_VERSIONS:
        return 0
    groups = _groups(todo, _GROUPS)

    def work(index: int) -> Filled:
        facts: dict[str, VersionFacts | None] = {}
        findings: dict[FindingsKey, tuple[HistoryFinding, ...]] = {}
        group = groups[index]
        order = [chain[at][0] for chain, plan in group for at in plan]
        with BlobReader(repository, order, max_bytes=limits.max_file_bytes) as blobs, collector_paused():
            for chain, plan in group:
                if time.monotonic() > deadline:
                    break
                _fill(chain, plan, blobs, store, limits, facts, findings)
        return facts, findings

    for facts, findings in parallel(work, len(groups)):
        for oid, fact in facts.items():
            if oid not in store.versions:
                store.add_version(oid, fact)
        for key, found in findings.items():
            if key not in store.findings:
                store.add_findings(key, found)
    return unknown


def _fill(
    chain: list[Link],
    plan: list[int],
    blobs: BlobReader,
    store: Store,
    limits: Limits,
    facts: dict[str, VersionFacts | None],
    findings: dict[FindingsKey, tuple[HistoryFinding, ...]],
) -> None:
    """The facts of ``chain``'s versions the store lacks, and the findings of its steps the store lacks, into
    ``facts`` and ``findings``, reading the versions of ``plan`` in order (both versions of a step the store
    lacks are in it, so every such step is classified here; anything else is the walk's)."""
    planned = set(plan)
    memo = SkillMemo()
    last: tuple[str, Place, Catalog | None] | None = None  # the last version that loads (None: not read)
    for at, (oid, place, day) in enumerate(chain):
        catalog: Catalog | None = None
        if at in planned:
            catalog = walk.load_version(blobs.read(oid), place, limits, memo)
            facts[oid] = None if catalog is None else VersionFacts.of(catalog.cards[0])
            if catalog is None:
                continue  # the walk compares the next version with the last that loaded
        elif store.versions.get(oid) is None:
            continue  # known not to load
        if last is not None and last[0] != oid and last[2] is not None and catalog is not None:
            key = (last[0], last[1][0], oid, place[0])
            if store.findings.get(key) is None and key not in findings:
                findings[key] = walk.classify(last[2], catalog, commit_day(day))
        last = (oid, place, catalog)


def _planned(store: Store, chain: list[Link]) -> list[int]:
    """The places in ``chain`` of the versions the workers read: those the store lacks, and both versions of
    each step whose findings it lacks (a version the store lacks taken for one that loads)."""
    needed: set[int] = set()
    # (place in the chain, blob id, display path) of the last version that loads
    last: tuple[int, str, str] | None = None
    for at, (oid, place, _) in enumerate(chain):
        if oid not in store.versions:
            needed.add(at)
        elif store.versions[oid] is None:
            continue
        if last is not None and last[1] != oid and (last[1], last[2], oid, place[0]) not in store.findings:
            needed.update((last[0], at))
        last = (at, oid, place[0])
    return sorted(needed)


def _groups(every: list[Planned], count: int) -> list[list[Planned]]:
    """The chains cut into at most ``count`` contiguous groups of near-equal numbers of versions to read."""
    total = sum(len(plan) for _, plan in every)
    size = max(1, -(-total // count))
    groups: list[list[Planned]] = [[]]
    filled = 0
    for planned in every:
        if filled >= size:
            groups.append([])
            filled = 0
        groups[-1].append(planned)
        filled += len(planned[1])
    return [group for group in groups if group]
