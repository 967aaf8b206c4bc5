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
from datetime import date
from typing import Any

from a2a_docgen.collector import collector_paused
from a2a_docgen.history import walk
from a2a_docgen.history.blobs import BlobReader
from a2a_docgen.history.entries import HistoryFinding
from a2a_docgen.history.log import Commit
from a2a_docgen.history.store import FindingsKey, Store, VersionFacts
from a2a_docgen.history.walk import Place
from a2a_docgen.limits import Limits
from a2a_docgen.load import SkillMemo
from a2a_docgen.model import Catalog

__all__ = ["MIN_VERSIONS", "Parallel", "chains", "prefill"]

Link = tuple[str, Place, str]
"""(blob id, place, commit date) of one version in a chain."""

Parallel = Callable[[Callable[[int], Any], int], list[Any]]
"""``parallel(work, count) == [work(0), ..., work(count - 1)]``, in worker processes where the caller can."""

MIN_VERSIONS = 2000
"""Versions to read (those of the chains with a version or a step unknown to the store) below which the walk
reads them itself (workers cost more than they save)."""
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
    top: str,
    limits: Limits,
    parallel: Parallel,
    deadline: float,
) -> int:
    """Add to ``store`` what the workers find along the chains; returns the number of versions they read (0:
    nothing to do, or too little to repay workers, and nothing was started). A chain is read when the store
    lacks one of its versions or one of its steps: a store can know every version and none of the steps (the
    cards were read under other display paths, which the steps' keys hold). Past ``deadline`` (of
    ``time.monotonic``) the workers stop and the walk's own check of it ends the history."""
    todo = [chain for chain in chains(commits, where) if _unknown_to(store, chain)]
    unknown = sum(len(chain) for chain in todo)
    if unknown < MIN_VERSIONS:
        return 0
    groups = _groups(todo, _GROUPS)

    def work(index: int) -> Filled:
        facts: dict[str, VersionFacts | None] = {}
        findings: dict[FindingsKey, tuple[HistoryFinding, ...]] = {}
        group = groups[index]
        order = [oid for chain in group for oid, _, _ in chain]
        with BlobReader(top, order, max_bytes=limits.max_file_bytes) as blobs, collector_paused():
            for chain in group:
                if time.monotonic() > deadline:
                    break
                last: tuple[str, Place, Catalog] | None = None
                memo = SkillMemo()
                for oid, place, day in chain:
                    catalog = walk.load_version(blobs.read(oid), place, limits, memo)
                    if catalog is None:
                        facts[oid] = None
                        continue  # the walk compares the next version with the last that loaded
                    card = catalog.cards[0]
                    facts[oid] = VersionFacts.of(card)
                    if last is not None and last[0] != oid:
                        key = (last[0], last[1][0], oid, place[0])
                        if store.findings.get(key) is None and key not in findings:
                            findings[key] = walk.classify(last[2], catalog, date.fromisoformat(day[:10]))
                    last = (oid, place, catalog)
        return facts, findings

    for facts, findings in parallel(work, len(groups)):
        for oid, fact in facts.items():
            if oid not in store.versions:
                store.add_version(oid, fact)
        for key, found in findings.items():
            if key not in store.findings:
                store.add_findings(key, found)
    return unknown


def _unknown_to(store: Store, chain: list[Link]) -> bool:
    """Whether the store lacks a version of ``chain`` or the findings of a step between two of its versions
    that load (the keys the workers and the walk compute)."""
    last: tuple[str, str] | None = None  # (blob id, display path) of the last version that loads
    for oid, place, _ in chain:
        if oid not in store.versions:
            return True
        if store.versions[oid] is None:
            continue
        if last is not None and last[0] != oid and (last[0], last[1], oid, place[0]) not in store.findings:
            return True
        last = (oid, place[0])
    return False


def _groups(every: list[list[Link]], count: int) -> list[list[list[Link]]]:
    """The chains cut into at most ``count`` contiguous groups of near-equal numbers of versions."""
    total = sum(len(chain) for chain in every)
    size = max(1, -(-total // count))
    groups: list[list[list[Link]]] = [[]]
    filled = 0
    for chain in every:
        if filled >= size:
            groups.append([])
            filled = 0
        groups[-1].append(chain)
        filled += len(chain)
    return [group for group in groups if group]
