"""Commit by commit, oldest first: which agent each changed file holds, and what changed for its clients.

Each commit is read from its changed files alone (old and new blob ids, ``history.log``). The base side is
each changed file's last readable card, the head side what the commit wrote; agents are paired as ``diff``
pairs them (``review.match.pair_agents``: name and URL first, a rename matched by URL), so an agent renamed or
moved to another file keeps its history. Each pair is classified by ``review.diff_catalogs`` on one-card
catalogues. A file that does not load in a commit keeps its agent ("card unreadable in this version"); the
commit that repairs it is compared with the last version that loaded.

A version is known by its ``VersionFacts`` (``history.store``: what pairing reads, and its card version); its
model is loaded once, when a comparison needs it (the new side of one step is the old side of the next), and
not at all when the store knows the step's findings. A version the store knows is not read from git either,
unless its model is needed after all.
"""

from __future__ import annotations

import functools
import posixpath
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from a2a_docgen.errors import A2ADocgenError, UsageError
from a2a_docgen.history.blobs import BlobReader
from a2a_docgen.history.entries import EntryKind, HistoryEntry, HistoryFinding
from a2a_docgen.history.log import Commit, FileChange, commit_day
from a2a_docgen.history.store import Store, VersionFacts
from a2a_docgen.limits import Limits
from a2a_docgen.load import SkillMemo, read_card_bytes
from a2a_docgen.load.report import locate_all
from a2a_docgen.model import Catalog, Diagnostic, card_key
from a2a_docgen.review import diff_catalogs
from a2a_docgen.review.codes import severity_rank
from a2a_docgen.review.match import Identity, pair_identities
from a2a_docgen.signing import Trust, verify_catalog
from a2a_docgen.text.jsonio import same_json

__all__ = ["HistoryTimeout", "Lineage", "Version", "Walk", "classify", "load_version", "place", "read_order"]

Place = tuple[str, str, str]
"""(identity key, argument, path below the argument) of a card file: its key (``model.card_key``, what the
history is keyed, shown and identified by: the cards alone, never the path as typed) and where ``discover``
finds it."""


class HistoryTimeout(A2ADocgenError):
    """Reading the history took longer than its budget."""


@dataclass(eq=False)
class Version:
    """A version of a card file that loads."""

    oid: str
    place: Place
    facts: VersionFacts
    catalog: Catalog | None = None
    """Its model as a one-card catalogue, once loaded."""

    @property
    def key(self) -> tuple[str, str]:
        """(blob id, identity key)."""
        return self.oid, self.place[0]

    @property
    def identity(self) -> Identity:
        """What agents are paired by: the bytes' name and URL, in this file."""
        return Identity(self.facts.name, self.facts.url, self.place[2])


@dataclass
class Lineage:
    """One agent through the commits: its last readable version and what happened to it."""

    card: Version | None
    """The last version that loaded (``None`` before any did)."""
    name: str = ""
    entries: list[HistoryEntry] = field(default_factory=list)
    """Oldest first."""

    @property
    def key(self) -> tuple[str, str]:
        return self.card.key if self.card is not None else ("", "")


@dataclass
class _Head:
    change: FileChange
    place: Place
    version: Version | None


class Walk:
    """The walk over a log; ``state`` ends up holding the lineage of every card file at the last commit."""

    def __init__(
        self,
        blobs: BlobReader,
        place: Callable[[str], Place | None],
        limits: Limits,
        store: Store,
        *,
        deadline: float,
        known: frozenset[str] = frozenset(),
    ) -> None:
        self.blobs = blobs
        self.place = place
        self.limits = limits
        self.store = store
        self.deadline = deadline
        self.known = known
        """The blobs the store knew before the walk: not in the reader's order (``read_order``)."""
        self.state: dict[str, Lineage] = {}
        """Repository path -> the lineage of the file there."""
        self.ended: list[Lineage] = []
        self.timeline: list[HistoryEntry] = []
        """Every entry, in the order made (oldest commit first)."""
        self.memos: dict[str, SkillMemo] = {}
        """Identity key -> the skills of the versions of that file read so far."""

    def _memo(self, where: Place) -> SkillMemo:
        memo = self.memos.get(where[0])
        if memo is None:
            memo = self.memos[where[0]] = SkillMemo()
        return memo

    def version(self, oid: str, where: Place) -> Version | None:
        """The version of a blob, ``None`` when it does not load as a card; read from git unless the store
        knew it before the walk (then its model waits until a comparison needs it)."""
        if oid in self.known:
            facts = self.store.version(oid)
            return Version(oid, where, facts) if facts is not None else None
        catalog = load_version(self.blobs.read(oid), where, self.limits, self._memo(where))
        if catalog is None:
            self.store.add_version(oid, None)
            return None
        card = catalog.cards[0]
        facts = VersionFacts.of(card)
        self.store.add_version(oid, facts)
        return Version(oid, where, facts, catalog)

    def model(self, version: Version) -> Catalog:
        if version.catalog is None:
            version.catalog = load_version(
                self.blobs.fetch(version.oid), version.place, self.limits, self._memo(version.place)
            )
            if version.catalog is None:
                raise UsageError(f"cannot read the card versions: blob {version.oid} no longer loads")
        return version.catalog

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
                    lineage = _lineage(self.version(change.old_oid, old_place))
                if lineage is not None:
                    olds[number] = lineage
            new_place = self.place(change.new_path) if change.new_path else None
            if change.new_path and change.new_oid and new_place is not None:
                heads.append(_Head(change, new_place, self.version(change.new_oid, new_place)))
        index = {id(change): n for n, change in enumerate(commit.changes)}
        # A file that no longer loads keeps its agent: it is not paired away (nor reported as gone).
        staying: set[int] = set()
        for head in heads:
            lineage = olds.get(index[id(head.change)])
            if head.version is None and lineage is not None:
                staying.add(id(lineage))
                self._record(lineage, commit, "unreadable", head.place[0])
                self.state[head.change.new_path or ""] = lineage
        candidates = [lin for lin in olds.values() if id(lin) not in staying and lin.card is not None]
        by_card = {id(lin.card): lin for lin in candidates}
        head_of = {id(head.version): head for head in heads if head.version is not None}
        pairs, removed, added = pair_identities(
            [lin.card for lin in candidates if lin.card is not None],
            [head.version for head in heads if head.version is not None],
            lambda version: version.identity,
        )
        day = commit_day(commit.date)
        for old, new in pairs:
            lineage, head = by_card[id(old)], head_of[id(new)]
            findings = self._diff(old, new, day)
            moved_from = lineage.key[1] if lineage.key[1] != head.place[0] else None
            if findings or moved_from:
                self._record(
                    lineage,
                    commit,
                    "changed" if findings else "moved",
                    head.place[0],
                    findings=findings,
                    name=new.facts.name or "",
                    versions=(old.facts.version, new.facts.version),
                    moved_from=moved_from,
                )
            self._move(lineage, head)
        for card in removed:
            lineage = by_card[id(card)]
            self._record(lineage, commit, "removed", card.place[0])
            self.ended.append(lineage)
        for card in added:
            head = head_of[id(card)]
            lineage = olds.get(index[id(head.change)])
            if lineage is None or lineage.card is not None or id(lineage) in staying:
                lineage = Lineage(card=None)
            kind: EntryKind = "first-seen" if first_seen else "added"
            self._move(lineage, head)
            self._record(lineage, commit, kind, head.place[0], versions=(None, card.facts.version))
        for head in heads:  # new files that never loaded yet
            if head.version is None and index[id(head.change)] not in olds:
                lineage = Lineage(card=None, name=posixpath.basename(head.place[2]))
                self._record(lineage, commit, "unreadable", head.place[0])
                self.state[head.change.new_path or ""] = lineage

    def _move(self, lineage: Lineage, head: _Head) -> None:
        assert head.version is not None
        lineage.card = head.version
        lineage.name = head.version.facts.name or ""
        self.state[head.change.new_path or ""] = lineage

    def _diff(self, old: Version, new: Version, day: date) -> tuple[HistoryFinding, ...]:
        key = (*old.key, *new.key)
        found = self.store.finding(key)
        if found is None:
            same = old.oid == new.oid  # the same bytes: the same card
            found = () if same else classify(self.model(old), self.model(new), day)
            self.store.add_findings(key, found)
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


def read_order(
    commits: Sequence[Commit], where: Callable[[str], Place | None], *, met: Iterable[str] = ()
) -> list[str]:
    """Every blob ``Walk.run`` reads, in order: per commit and changed file, the old blob of a file the walk
    has not met yet (the first commit read that touches it), then the new blob. ``met``: the files of the
    walk's state before these commits (a walk continued from a snapshot, ``history.snapshot``)."""
    present: set[str] = set(met)
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


def _lineage(version: Version | None) -> Lineage:
    return Lineage(card=version, name=version.facts.name or "" if version is not None else "")


def load_version(
    data: bytes | None, where: Place, limits: Limits, memo: SkillMemo | None = None
) -> Catalog | None:
    """The card of a blob's bytes as a one-card catalogue, ``None`` when it does not load. Read, normalised and
    its signatures verified as ``diff`` needs it; not validated, but with the errors found in reading it (a
    wrong type, a missing member), unlocated, so that a step says "card error fixed" or reports the new error
    instead of a change the error only seemed to make. ``memo``: the skills of the file's versions read before
    (``load.memo``)."""
    if data is None:
        return None
    key, argument, below = where
    read = read_card_bytes(data, display=key, root=argument, relpath=below, limits=limits, memo=memo)
    if isinstance(read, Diagnostic):
        return None
    if read.unnamed() is not None:  # not a card (its other findings are not shown, so not located)
        return None
    card = read.card
    verifications = verify_catalog([card], Trust())[0] if card.signatures else {}
    errors = [finding for finding in read.report.findings if finding.severity == "error"]
    diagnostics = locate_all(
        errors, key, lambda pointer, at_key=False: (1, 1)
    )  # the history shows no positions
    return Catalog(cards=(card,), diagnostics=tuple(diagnostics), excluded=(), verifications=verifications)


def classify(old: Catalog, new: Catalog, day: date) -> tuple[HistoryFinding, ...]:
    """The differ's findings from one version to the next, most severe first; none, without comparing, when
    both versions are the same JSON (a commit that only reformatted the file or reordered its members)."""
    if same_json(old.cards[0].source.raw, new.cards[0].source.raw):
        return ()
    changes = diff_catalogs(old, new, today=day, positions=False)  # the history shows no positions
    ordered = sorted(changes, key=lambda c: severity_rank(c.severity))
    return tuple(HistoryFinding(c.severity, c.code, c.skill, c.message) for c in ordered)


def place(
    arguments: Sequence[tuple[str, str, bool, int]], held: Mapping[str, Sequence[int]] | None = None
) -> Callable[[str], Place | None]:
    """Where a repository path is in the catalogue: ``arguments`` are (argument as given, its repository path,
    whether it is a file, its position among the paths given); ``None`` for a path that no argument reads.
    ``held``: the positions of the paths that hold a card file at each relative path in the catalogue, so a
    file's key is its card's (``model.card_key``)."""
    held = held or {}

    def key(position: int, relpath: str) -> str:
        return card_key(position, relpath, held.get(relpath, ()))

    from a2a_docgen.review.git import is_card_path

    @functools.cache  # a path is asked about in every commit that changes it
    def where(path: str) -> Place | None:
        for argument, prefix, is_file, position in arguments:
            if is_file:
                if path == prefix:
                    name = posixpath.basename(path)
                    return key(position, name), argument, name
                continue
            if prefix and not path.startswith(prefix + "/"):
                continue
            below = path[len(prefix) + 1 :] if prefix else path
            if is_card_path(below):
                return key(position, below), argument, below
        return None

    return where
