"""Commit by commit, oldest first: which agent each changed file holds, and what changed for its clients.

Each commit is read from its changed files alone (old and new blob ids, ``history.log``). The base side is
each changed file's last readable card, the head side what the commit wrote; agents are paired as ``diff``
pairs them (``review.match.pair_agents``: name and URL first, a rename matched by URL), so an agent renamed or
moved to another file keeps its history. Each pair is classified by ``review.diff_catalogs`` on one-card
catalogues. A file that does not load in a commit keeps its agent ("card unreadable in this version"); the
commit that repairs it is compared with the last version that loaded.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date

from a2a_docgen.errors import A2ADocgenError
from a2a_docgen.history.blobs import BlobReader
from a2a_docgen.history.entries import EntryKind, HistoryEntry, HistoryFinding
from a2a_docgen.history.log import Commit, FileChange
from a2a_docgen.limits import Limits
from a2a_docgen.load import read_card_bytes
from a2a_docgen.model import AgentCard, Catalog, Diagnostic
from a2a_docgen.review import diff_catalogs
from a2a_docgen.review.codes import severity_rank
from a2a_docgen.review.match import pair_agents
from a2a_docgen.signing import Trust, verify_catalog

__all__ = ["DiffCache", "HistoryTimeout", "Lineage", "Walk", "place", "read_order"]

Place = tuple[str, str, str]
"""(display path, argument, path below the argument) of a card file, as ``discover`` names it."""

DiffCache = dict[tuple[str, str, str, str], tuple[HistoryFinding, ...]]
"""(old blob, old display path, new blob, new display path) -> the findings: kept from one build to the next."""


class HistoryTimeout(A2ADocgenError):
    """Reading the history took longer than its budget."""


@dataclass
class Lineage:
    """One agent through the commits: its last readable version and what happened to it."""

    card: Catalog | None
    """A one-card catalogue of the last version that loaded (``None`` before any did)."""
    key: tuple[str, str] = ("", "")
    """(blob id, display path) of that version."""
    name: str = ""
    entries: list[HistoryEntry] = field(default_factory=list)
    """Oldest first."""

    @property
    def agent(self) -> AgentCard | None:
        return self.card.cards[0] if self.card is not None else None


@dataclass
class _Head:
    change: FileChange
    place: Place
    catalog: Catalog | None
    key: tuple[str, str]


class Walk:
    """The walk over a log; ``state`` ends up holding the lineage of every card file at the last commit."""

    def __init__(
        self,
        blobs: BlobReader,
        place: Callable[[str], Place | None],
        limits: Limits,
        diffs: DiffCache,
        *,
        deadline: float,
    ) -> None:
        self.blobs = blobs
        self.place = place
        self.limits = limits
        self.diffs = diffs
        self.deadline = deadline
        self.state: dict[str, Lineage] = {}
        """Repository path -> the lineage of the file there."""
        self.ended: list[Lineage] = []
        self.timeline: list[HistoryEntry] = []
        """Every entry, in the order made (oldest commit first)."""

    def load(self, oid: str, where: Place) -> Catalog | None:
        """The card of a blob as a one-card catalogue, ``None`` when it does not load. Read, normalised and its
        signatures verified as ``diff`` needs it; not validated (the history shows no diagnostics)."""
        data = self.blobs.read(oid)
        if data is None:
            return None
        display, argument, below = where
        read = read_card_bytes(data, display=display, root=argument, relpath=below, limits=self.limits)
        if isinstance(read, Diagnostic):
            return None
        card, _ = read.finish()
        if card is None:
            return None
        verifications = verify_catalog([card], Trust())[0] if card.signatures else {}
        return Catalog(cards=(card,), diagnostics=(), excluded=(), verifications=verifications)

    def run(self, commits: Sequence[Commit], *, boundary: str | None) -> None:
        """Walk ``commits`` (oldest first); ``boundary``: a shallow clone's oldest commit, whose files are
        "first seen" rather than added."""
        for commit in commits:
            if time.monotonic() > self.deadline:
                raise HistoryTimeout("reading the history took longer than its time budget")
            self.step(commit, first_seen=commit.id == boundary)

    def step(self, commit: Commit, *, first_seen: bool) -> None:
        """One commit: the lineages of its old files (base), the cards it wrote (head), paired and recorded."""
        olds: dict[int, Lineage] = {}  # index of the change -> the lineage of its old file
        heads: list[_Head] = []
        for number, change in enumerate(commit.changes):
            old_place = self.place(change.old_path) if change.old_path else None
            if change.old_path and old_place is not None:
                lineage = self.state.pop(change.old_path, None)
                if lineage is None and change.old_oid:  # the window's first sight of the file
                    catalog = self.load(change.old_oid, old_place)
                    lineage = _lineage(catalog, (change.old_oid, old_place[0]))
                if lineage is not None:
                    olds[number] = lineage
            new_place = self.place(change.new_path) if change.new_path else None
            if change.new_path and change.new_oid and new_place is not None:
                catalog = self.load(change.new_oid, new_place)
                heads.append(_Head(change, new_place, catalog, (change.new_oid, new_place[0])))
        index = {id(change): n for n, change in enumerate(commit.changes)}
        # A file that no longer loads keeps its agent: it is not paired away (nor reported as gone).
        staying: set[int] = set()
        for head in heads:
            lineage = olds.get(index[id(head.change)])
            if head.catalog is None and lineage is not None:
                staying.add(id(lineage))
                self._record(lineage, commit, "unreadable", head.place[0])
                self.state[head.change.new_path or ""] = lineage
        candidates = [lin for lin in olds.values() if id(lin) not in staying and lin.card is not None]
        by_card = {id(lin.agent): lin for lin in candidates}
        loaded = [head for head in heads if head.catalog is not None]
        head_of = {id(head.catalog.cards[0]): head for head in loaded if head.catalog is not None}
        pairs, removed, added = pair_agents(
            [lin.agent for lin in candidates if lin.agent is not None],
            [head.catalog.cards[0] for head in loaded if head.catalog is not None],
        )
        day = date.fromisoformat(commit.date[:10])
        for old, new in pairs:
            lineage, head = by_card[id(old)], head_of[id(new)]
            assert lineage.card is not None
            assert head.catalog is not None
            findings = self._diff(lineage, head, day)
            moved_from = lineage.key[1] if lineage.key[1] != head.place[0] else None
            if findings or moved_from:
                self._record(
                    lineage,
                    commit,
                    "changed" if findings else "moved",
                    head.place[0],
                    findings=findings,
                    name=new.name or "",
                    versions=(old.version, new.version),
                    moved_from=moved_from,
                )
            self._move(lineage, head)
        for card in removed:
            lineage = by_card[id(card)]
            self._record(lineage, commit, "removed", card.source.path)
            self.ended.append(lineage)
        for card in added:
            head = head_of[id(card)]
            lineage = olds.get(index[id(head.change)])
            if lineage is None or lineage.card is not None or id(lineage) in staying:
                lineage = Lineage(card=None)
            kind: EntryKind = "first-seen" if first_seen else "added"
            self._move(lineage, head)
            self._record(lineage, commit, kind, head.place[0], versions=(None, card.version))
        for head in heads:  # new files that never loaded yet
            if head.catalog is None and index[id(head.change)] not in olds:
                lineage = Lineage(card=None, name=os.path.basename(head.place[0]))
                self._record(lineage, commit, "unreadable", head.place[0])
                self.state[head.change.new_path or ""] = lineage

    def _move(self, lineage: Lineage, head: _Head) -> None:
        assert head.catalog is not None
        lineage.card = head.catalog
        lineage.key = head.key
        lineage.name = head.catalog.cards[0].name or ""
        self.state[head.change.new_path or ""] = lineage

    def _diff(self, lineage: Lineage, head: _Head, day: date) -> tuple[HistoryFinding, ...]:
        key = (*lineage.key, *head.key)
        found = self.diffs.get(key)
        if found is None:
            assert lineage.card is not None
            assert head.catalog is not None
            changes = diff_catalogs(lineage.card, head.catalog, today=day)
            ordered = sorted(changes, key=lambda c: severity_rank(c.severity))
            found = tuple(HistoryFinding(c.severity, c.code, c.skill, c.message) for c in ordered)
            self.diffs[key] = found
        return found

    def _record(
        self,
        lineage: Lineage,
        commit: Commit,
        kind: EntryKind,
        path: str,
        *,
        findings: tuple[HistoryFinding, ...] = (),
        name: str | None = None,
        versions: tuple[str | None, str | None] = (None, None),
        moved_from: str | None = None,
    ) -> None:
        before, after = versions
        changed = before != after
        entry = HistoryEntry(
            commit=commit.id,
            date=commit.date,
            subject=commit.subject,
            kind=kind,
            agent=name if name is not None else lineage.name,
            path=path,
            findings=findings,
            moved_from=moved_from,
            version_before=before if changed else None,
            version_after=after if changed else None,
        )
        lineage.entries.append(entry)
        self.timeline.append(entry)


def read_order(commits: Sequence[Commit], where: Callable[[str], Place | None]) -> list[str]:
    """Every blob ``Walk.run`` reads, in order: per commit and changed file, the old blob of a file the walk
    has not met yet (the first commit read that touches it), then the new blob."""
    present: set[str] = set()
    order: list[str] = []
    for commit in commits:
        for change in commit.changes:
            if change.old_path and where(change.old_path) is not None:
                if change.old_path not in present and change.old_oid:
                    order.append(change.old_oid)
                present.discard(change.old_path)
            if change.new_path and change.new_oid and where(change.new_path) is not None:
                order.append(change.new_oid)
        for change in commit.changes:
            if change.new_path and change.new_oid and where(change.new_path) is not None:
                present.add(change.new_path)
    return order


def _lineage(catalog: Catalog | None, key: tuple[str, str]) -> Lineage:
    if catalog is None:
        return Lineage(card=None)
    return Lineage(card=catalog, key=key, name=catalog.cards[0].name or "")


def place(arguments: Sequence[tuple[str, str, bool]]) -> Callable[[str], Place | None]:
    """Where a repository path is in the catalogue: ``arguments`` are (argument as given, its repository path,
    whether it is a file); ``None`` for a path that no argument reads."""
    from a2a_docgen.review.git import is_card_path

    def where(path: str) -> Place | None:
        for argument, prefix, is_file in arguments:
            if is_file:
                if path == prefix:
                    return argument, argument, os.path.basename(path)
                continue
            if prefix and not path.startswith(prefix + "/"):
                continue
            below = path[len(prefix) + 1 :] if prefix else path
            if is_card_path(below):
                return os.path.join(argument, *below.split("/")), argument, below
        return None

    return where
