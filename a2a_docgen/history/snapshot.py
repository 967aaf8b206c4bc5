"""The history as read at one ``HEAD``, kept on disk for the next process that reads the same.

A history is a function of the commits up to ``HEAD``, of where the cards are read (the arguments, their
display paths), of the bound on commits and of the code and limits that read it. A build that finds a
snapshot for exactly these (and, for a shallow clone, the same boundary: a clone deepened under the same
``HEAD`` has more history) takes it instead of reading git's log and walking the commits again: every build of
a clone after the first, ``mkdocs serve`` started again. The store (``history.store``) still holds what is
known of each version and step, for the next ``HEAD``.

The snapshot of a whole log (neither shallow nor cut by the bound on commits) also keeps the walk's state at
its ``HEAD`` (each card file's lineage: its last readable version, its name, its entries): at a later ``HEAD``
whose first-parent chain goes through that one (a push), the walk goes on from there over the new commits
alone (``history.read``), the history the same as a walk from the first commit.

The file beside the store's (``history-head.cache``, ``history.cache_files``) holds one snapshot, JSON, written
atomically. A file that cannot be read, holds another key, or holds any value a build would not write (commit
and blob ids are 40 or 64 lowercase hex digits and name a commit or blob of the repository, dates are the log's,
kinds are ``EntryKind``'s, texts are bounded strings) is no snapshot at all. ``tests/test_history_store.py`` compares the history read from
a snapshot, and the one a walk continued from it gives, with the one read from git.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, get_args

from a2a_docgen.git import Repository
from a2a_docgen.history.cache_files import objects_exist, read_cache_file, write_cache_file
from a2a_docgen.history.entries import (
    UNKNOWN_DATE,
    AgentHistory,
    CatalogHistory,
    EntryKind,
    HistoryEntry,
    HistoryFinding,
    RecentEntry,
)
from a2a_docgen.history.store import (
    facts_from_json,
    facts_json,
    finding_from_json,
    finding_json,
    object_id,
    optional_text,
    text,
)
from a2a_docgen.history.walk import Lineage, Version

__all__ = ["FILE_NAME", "KeptWalk", "read_snapshot", "write_snapshot"]

FILE_NAME = "history-head.cache"
_KINDS = frozenset(get_args(EntryKind))
_DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


@dataclass(frozen=True, slots=True)
class KeptWalk:
    """The walk of a snapshot taken at an earlier ``HEAD``, to go on from."""

    head: str
    commits: int
    """The commits of its log."""
    state: dict[str, Lineage]
    """``Walk.state`` at ``head``."""
    timeline: list[HistoryEntry]
    """The end of ``Walk.timeline`` (the catalogue's latest entries, at most ``read.RECENT_MAX``), oldest first."""


def read_snapshot(
    path: Path, key: dict[str, Any], *, repository: Repository
) -> CatalogHistory | KeptWalk | None:
    """The history kept at ``path`` for ``key``, without its commit links (the caller's repository URL is
    set on it); else the walk it kept, when its key differs from ``key`` only in its ``HEAD``; else ``None``.
    ``None`` too when any value is not one a build writes, or a commit or blob it names is not in
    ``repository``."""
    data = read_cache_file(path)
    if data is None:
        return None
    try:
        document = json.loads(data)
        if not isinstance(document, dict) or not isinstance(kept_key := document.get("key"), dict):
            return None
        same_head = kept_key == key
        if not same_head and ("walk" not in document or _but_head(kept_key) != _but_head(key)):
            return None
        rows = _Rows()
        entries = [rows.entry(row) for row in _list(document["entries"])]
        recent = [
            (entries[_index(n, entries)], optional_text(current))
            for n, current in (_pair(item) for item in _list(document["recent"]))
        ]
        kept: CatalogHistory | KeptWalk
        if same_head:
            if document["head"] != key["head"]:
                raise ValueError("not the history at HEAD")
            agents = {
                text(agent): AgentHistory(tuple(entries[_index(n, entries)] for n in _list(indexes)))
                for agent, indexes in _dict(document["agents"]).items()
            }
            kept = CatalogHistory(
                agents=agents,
                recent=tuple(RecentEntry(entry, current) for entry, current in recent),
                notices=tuple(text(notice) for notice in _list(document["notices"])),
                head=key["head"],
                head_date=_date(document["head_date"]),
            )
        else:
            walk = _dict(document["walk"])
            commits = walk["commits"]
            if type(commits) is not int or not 0 <= commits <= key["max_commits"]:
                raise ValueError("not a number of commits")
            state = {text(path): rows.lineage(row, entries) for path, row in _dict(walk["state"]).items()}
            timeline = [entry for entry, _ in reversed(recent)]
            kept = KeptWalk(rows.named(kept_key["head"], "commit"), commits, state, timeline)
    except (ValueError, KeyError, TypeError, IndexError, RecursionError):
        return None
    return kept if objects_exist(repository, rows.objects) else None


def _but_head(key: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in key.items() if name != "head"}


def write_snapshot(
    path: Path,
    key: dict[str, Any],
    history: CatalogHistory,
    walk: tuple[int, Mapping[str, Lineage]] | None = None,
) -> None:
    """Keep ``history`` at ``path`` for ``key`` (atomically); quietly nothing when it cannot. ``walk``: the
    number of commits of a whole log and the walk's state at its end, for a later ``HEAD`` to go on from (the
    walk's latest entries are ``history.recent``)."""
    index: dict[int, int] = {}  # id of an entry -> its row (agents and "What's new" share entries)
    rows: list[list[Any]] = []

    def number(entry: HistoryEntry) -> int:
        found = index.get(id(entry))
        if found is None:
            found = index[id(entry)] = len(rows)
            rows.append(_entry_json(entry))
        return found

    agents = {
        agent: [number(entry) for entry in own.entries] for agent, own in sorted(history.agents.items())
    }
    recent = [[number(item.entry), item.current] for item in history.recent]
    document = {
        "key": key,
        "entries": rows,
        "agents": agents,
        "recent": recent,
        "notices": list(history.notices),
        "head": history.head,
        "head_date": history.head_date,
    }
    if walk is not None:
        commits, state = walk
        document["walk"] = {
            "commits": commits,
            "state": {
                path: [_card_json(lineage.card), lineage.name, [number(entry) for entry in lineage.entries]]
                for path, lineage in sorted(state.items())
            },
        }
    write_cache_file(path, document)


def _card_json(card: Version | None) -> list[Any] | None:
    return None if card is None else [card.oid, list(card.place), facts_json(card.facts)]


def _entry_json(entry: HistoryEntry) -> list[Any]:
    return [
        entry.commit,
        entry.date,
        entry.subject,
        entry.kind,
        entry.agent,
        entry.path,
        [finding_json(f) for f in entry.findings],
        entry.moved_from,
        entry.version_before,
        entry.version_after,
    ]


class _Rows:
    """The entries and lineages of one snapshot read back, each value checked; the commits and blobs they name
    (``objects``), for the caller to find in the repository."""

    def __init__(self) -> None:
        self.findings: dict[tuple[Any, ...], HistoryFinding] = {}  # the same finding, one object
        self.objects: dict[str, str] = {}
        """Object id -> its type."""

    def named(self, value: object, kind: str) -> str:
        oid = object_id(value)
        if self.objects.setdefault(oid, kind) != kind:
            raise ValueError("one object id of two types")
        return oid

    def entry(self, row: object) -> HistoryEntry:
        fields = _list(row)
        if len(fields) != 10:
            raise ValueError("an entry is ten values")
        commit, date, subject, kind, agent, path, found, moved_from, before, after = fields
        if kind not in _KINDS:
            raise ValueError("not a kind of entry")
        return HistoryEntry(
            commit=self.named(commit, "commit"),
            date=_date(date),
            subject=text(subject),
            kind=kind,
            agent=text(agent),
            path=text(path),
            findings=tuple(self.finding(item) for item in _list(found)),
            moved_from=optional_text(moved_from),
            version_before=optional_text(before),
            version_after=optional_text(after),
        )

    def finding(self, row: object) -> HistoryFinding:
        fields = tuple(_list(row))
        known = self.findings.get(fields)
        if known is None:
            known = self.findings[fields] = finding_from_json(row)
        return known

    def lineage(self, row: object, entries: list[HistoryEntry]) -> Lineage:
        card, name, indexes = _list(row)
        version: Version | None = None
        if card is not None:
            oid, where, facts = _list(card)
            display, argument, below = (text(part) for part in _list(where))
            known = facts_from_json(facts)
            if known is None:
                raise ValueError("a lineage's card is a version that loads")
            version = Version(self.named(oid, "blob"), (display, argument, below), known)
        return Lineage(version, text(name), [entries[_index(n, entries)] for n in _list(indexes)])


@functools.lru_cache(maxsize=4096)  # a history's commits share their dates
def _date(value: object) -> str:
    """A date as the log writes it (RFC 3339, UTC, ``2026-01-31T12:00:00Z``, or ``UNKNOWN_DATE``); ``ValueError``
    for anything else."""
    if value == UNKNOWN_DATE:
        return UNKNOWN_DATE
    if not isinstance(value, str) or _DATE.fullmatch(value) is None:
        raise ValueError("not a date")
    datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
    return value


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError("expected a list")
    return value


def _dict(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("expected an object")
    return value


def _pair(value: object) -> tuple[Any, Any]:
    items = _list(value)
    if len(items) != 2:
        raise ValueError("expected two values")
    return items[0], items[1]


def _index(value: object, entries: list[HistoryEntry]) -> int:
    if type(value) is not int or not 0 <= value < len(entries):
        raise ValueError("not an entry's number")
    return value
