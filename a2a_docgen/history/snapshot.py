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

The file beside the store's (``history-head.cache``) holds one snapshot, JSON, written atomically; a file that
cannot be read, or holds another key, is ignored. ``tests/test_history_store.py`` compares the history read from
a snapshot, and the one a walk continued from it gives, with the one read from git.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from a2a_docgen.history.entries import (
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
    write_cache_file,
)
from a2a_docgen.history.walk import Lineage, Version

__all__ = ["FILE_NAME", "KeptWalk", "read_snapshot", "write_snapshot"]

FILE_NAME = "history-head.cache"
_KINDS = frozenset(get_args(EntryKind))


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


def read_snapshot(path: Path, key: dict[str, Any]) -> CatalogHistory | KeptWalk | None:
    """The history kept at ``path`` for ``key``, without its commit links (the caller's repository URL is
    set on it); else the walk it kept, when its key differs from ``key`` only in its ``HEAD``; else ``None``."""
    try:
        document = json.loads(path.read_bytes())
        if not isinstance(document, dict) or not isinstance(kept_key := document.get("key"), dict):
            return None
        same_head = kept_key == key
        if not same_head and ("walk" not in document or _but_head(kept_key) != _but_head(key)):
            return None
        findings: dict[tuple[Any, ...], HistoryFinding] = {}  # the same finding, one object
        entries = [_entry(row, findings) for row in _list(document["entries"])]
        recent = [
            (entries[_index(n, entries)], _optional(current))
            for n, current in (_pair(item) for item in _list(document["recent"]))
        ]
        if not same_head:
            walk = _dict(document["walk"])
            commits = walk["commits"]
            if type(commits) is not int or commits < 0:
                raise ValueError("not a number of commits")
            state = {_text(path): _lineage(row, entries) for path, row in _dict(walk["state"]).items()}
            timeline = [entry for entry, _ in reversed(recent)]
            return KeptWalk(_text(kept_key["head"]), commits, state, timeline)
        agents = {
            _text(agent): AgentHistory(tuple(entries[_index(n, entries)] for n in _list(indexes)))
            for agent, indexes in _dict(document["agents"]).items()
        }
        return CatalogHistory(
            agents=agents,
            recent=tuple(RecentEntry(entry, current) for entry, current in recent),
            notices=tuple(_text(notice) for notice in _list(document["notices"])),
            head=_text(document["head"]),
            head_date=_text(document["head_date"]),
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


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


def _lineage(row: object, entries: list[HistoryEntry]) -> Lineage:
    card, name, indexes = _list(row)
    version: Version | None = None
    if card is not None:
        oid, where, facts = _list(card)
        display, argument, below = (_text(part) for part in _list(where))
        known = facts_from_json(facts)
        if known is None:
            raise ValueError("a lineage's card is a version that loads")
        version = Version(_text(oid), (display, argument, below), known)
    return Lineage(version, _text(name), [entries[_index(n, entries)] for n in _list(indexes)])


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


def _entry(row: object, findings: dict[tuple[Any, ...], HistoryFinding]) -> HistoryEntry:
    fields = _list(row)
    if len(fields) != 10:
        raise ValueError("an entry is ten values")
    commit, date, subject, kind, agent, path, found, moved_from, before, after = fields
    if kind not in _KINDS:
        raise ValueError("not a kind of entry")
    return HistoryEntry(
        commit=_text(commit),
        date=_text(date),
        subject=_text(subject),
        kind=kind,
        agent=_text(agent),
        path=_text(path),
        findings=tuple(_finding(item, findings) for item in _list(found)),
        moved_from=_optional(moved_from),
        version_before=_optional(before),
        version_after=_optional(after),
    )


def _finding(row: object, findings: dict[tuple[Any, ...], HistoryFinding]) -> HistoryFinding:
    fields = tuple(_list(row))
    known = findings.get(fields)
    if known is None:
        known = findings[fields] = finding_from_json(row)
    return known


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


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("expected a string")
    return value


def _optional(value: object) -> str | None:
    return None if value is None else _text(value)
