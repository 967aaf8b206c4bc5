"""The views of the change history (``a2a_docgen.history.entries``, plain data): the "Changes" section of an
agent page, its history pages and the catalogue's "What's new" pages.

Entries are tainted here (commit subjects, agent names and the differ's messages are untrusted text); commit
links are the repository's URL (checked by ``safe_url``) and the commit id.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, overload

from a2a_docgen.history.entries import (
    SEVERITY_ORDER,
    AgentHistory,
    CatalogHistory,
    HistoryEntry,
    commit_link,
)
from a2a_docgen.render.deferred import Deferred
from a2a_docgen.render.paths import WHATS_NEW, WHATS_NEW_FEED, agent_feed_path, agent_history_path
from a2a_docgen.text.plural import plural
from a2a_docgen.text.urls import safe_url

__all__ = [
    "CHANGES_ON_PAGE",
    "FEED_ENTRIES",
    "AgentChanges",
    "ChangeView",
    "ChangeViews",
    "CommitChanges",
    "HistoryViews",
    "agent_changes",
    "entry_summary",
    "history_views",
]

CHANGES_ON_PAGE = 5
"""Entries in an agent page's "Changes" section; older ones are on its history pages."""
FEED_ENTRIES = 50
"""Entries in a feed, latest first (in the catalogue's, one per commit)."""
COMMIT_AGENTS_SHOWN = 50
"""Agents a commit's entry on "What's new" lists; the rest are counted (a registry commit may touch hundreds)."""


@dataclass(frozen=True, slots=True)
class ChangeView:
    entry: HistoryEntry
    """Tainted."""
    commit_link: str | None
    """The commit's web page, when the repository's URL is known."""
    agent_path: str | None = None
    """The agent's page (on the "What's new" pages; ``None`` for an agent that is gone)."""

    @property
    def summary(self) -> str:
        """Our words for the entry: its kind, and how many findings of each severity (``Card changed: 1
        breaking, 2 info``)."""
        return entry_summary(self.entry)


def entry_summary(entry: HistoryEntry) -> str:
    """``Card changed: 1 breaking, 2 info, 1 policy finding``, or the kind's label alone: our words, no card
    text. A version-policy finding is counted apart from the changes, as ``diff`` counts it."""
    counts = entry.counts()
    found = [f"{n} {severity}" for severity, n in counts.items() if n]
    if entry.policy_count:
        found.append(plural(entry.policy_count, "policy finding"))
    return f"{entry.label}: {', '.join(found)}" if found else entry.label


_KIND_COUNTED = {
    "added": ("agent", "added"),
    "removed": ("agent", "removed"),
    "changed": ("card", "changed"),
    "moved": ("card file", "renamed"),
    "unreadable": ("card", "unreadable"),
    "first-seen": ("first version", "in this history"),
}


@dataclass(frozen=True, slots=True)
class CommitChanges:
    """One commit's entries on "What's new" and in the catalogue's feed: one agent's change, or the changes of
    many agents under one headline (``103 agents removed``)."""

    changes: tuple[ChangeView, ...]
    """At least one, in the history's order."""

    @property
    def first(self) -> ChangeView:
        return self.changes[0]

    @property
    def entry(self) -> HistoryEntry:
        """The first entry (the commit, its date and subject are every entry's)."""
        return self.changes[0].entry

    @property
    def commit_link(self) -> str | None:
        return self.changes[0].commit_link

    @property
    def severity(self) -> str:
        found = {view.entry.severity for view in self.changes}
        return next(s for s in SEVERITY_ORDER if s in found)

    @property
    def breaking(self) -> bool:
        return self.severity == "breaking"

    @property
    def headline(self) -> str:
        """Our words: the entry's summary for one agent, else each kind counted (``3 agents added, 1 card
        changed``)."""
        if len(self.changes) == 1:
            return self.changes[0].summary
        kinds: Counter[str] = Counter(view.entry.kind for view in self.changes)
        return ", ".join(
            f"{plural(kinds[kind], noun)} {verb}"
            for kind, (noun, verb) in _KIND_COUNTED.items()
            if kinds[kind]
        )

    @property
    def shown(self) -> tuple[ChangeView, ...]:
        """The agents the entry lists (at most ``COMMIT_AGENTS_SHOWN``)."""
        return self.changes[:COMMIT_AGENTS_SHOWN]

    @property
    def more(self) -> int:
        """The agents beyond ``shown``."""
        return len(self.changes) - len(self.shown)


def by_commit(views: tuple[ChangeView, ...]) -> tuple[CommitChanges, ...]:
    """``views`` (latest first) as one ``CommitChanges`` per commit, in the same order; a commit's agents by
    name."""
    return tuple(
        CommitChanges(
            tuple(sorted(group, key=lambda v: (v.entry.agent.casefold(), v.entry.agent, v.entry.path)))
        )
        for _, group in itertools.groupby(views, key=lambda v: v.entry.commit)
    )


Taint = Callable[[Any, dict[object, Any]], Any]
"""``render.pages``' taint: a value with every string in it as card text (its second argument: a memo)."""


class ChangeViews(Deferred[ChangeView]):
    """An agent's entries as views (tainted, with their commit links), latest first, made the first time a page
    reads them.

    The views of the catalogue are built in the build process and the agent pages, their history pages and
    their feeds, the only readers of these, are rendered in worker processes (``render.parallel``): deferred,
    the entries are tainted in the worker that renders the agent, in parallel. A slice (the latest few, a
    history page's share, a feed's) is deferred too, and all of them share one making of the views
    (``render.deferred``). The same entries give the same views, wherever they are made.
    """

    __slots__ = ("_all", "_start", "_stop")

    def __init__(self, entries: tuple[HistoryEntry, ...], commit_url: str | None, taint: Taint) -> None:
        self._all = _Making(entries, commit_url, taint)
        self._start = 0
        self._stop = len(entries)

    def made(self) -> tuple[ChangeView, ...]:
        return self._all.views()[self._start : self._stop]

    def __len__(self) -> int:
        return self._stop - self._start  # without making them

    @overload
    def __getitem__(self, index: int) -> ChangeView: ...
    @overload
    def __getitem__(self, index: slice) -> ChangeViews: ...
    def __getitem__(self, index: int | slice) -> ChangeView | ChangeViews:
        if isinstance(index, int):
            return self.made()[index]
        start, stop, step = index.indices(len(self))
        if step != 1:
            raise ValueError("a slice of change views takes every entry in its range")
        window = object.__new__(ChangeViews)
        window._all = self._all
        window._start = self._start + start
        window._stop = self._start + max(start, stop)
        return window


class _Making:
    """The entries of ``ChangeViews`` and, once made, their views."""

    __slots__ = ("commit_url", "entries", "made", "taint")

    def __init__(self, entries: tuple[HistoryEntry, ...], commit_url: str | None, taint: Taint) -> None:
        self.entries = entries
        self.commit_url = commit_url
        self.taint: Taint | None = taint
        self.made: tuple[ChangeView, ...] = ()

    def views(self) -> tuple[ChangeView, ...]:
        if self.taint is not None:
            memo: dict[object, Any] = {}
            taint = self.taint
            self.made = tuple(
                ChangeView(taint(entry, memo), _commit_link(self.commit_url, entry.commit))
                for entry in self.entries
            )
            self.taint = None
        return self.made


@dataclass(frozen=True, slots=True)
class AgentChanges:
    entries: ChangeViews
    """Every entry, latest first."""
    history_path: str | None
    """``agents/<slug>/history.md`` when there are entries older than the latest shown, else ``None``."""
    feed_path: str
    """``agents/<slug>/changes.xml``."""
    notices: tuple[str, ...]
    """What readers should know about the history (a shallow clone): our words."""
    last_changed: str = ""
    """The date of the latest entry (RFC 3339, from its commit; ``""`` without one or with an unknown date):
    the home page's "recently changed" order reads it without making the views."""

    @property
    def latest(self) -> ChangeViews:
        """The latest ``CHANGES_ON_PAGE`` entries."""
        return self.entries[:CHANGES_ON_PAGE]


@dataclass(frozen=True, slots=True)
class HistoryViews:
    recent: tuple[CommitChanges, ...]
    """The latest changes across the catalogue, one per commit, latest first."""
    notices: tuple[str, ...]
    source: CatalogHistory
    """As read (for the feeds)."""
    page_path: str = WHATS_NEW
    feed_path: str = WHATS_NEW_FEED


def _commit_link(commit_url: str | None, commit: str) -> str | None:
    link = commit_link(commit_url, commit)
    return link if link is not None and safe_url(link) is not None else None


def agent_changes(
    history: CatalogHistory, own: AgentHistory | None, agent_slug: str, taint: Taint
) -> AgentChanges:
    """One agent's section and pages; ``taint`` makes the entries card text (where they are read)."""
    entries = own.entries if own is not None else ()
    return AgentChanges(
        entries=ChangeViews(entries, history.commit_url, taint),
        history_path=agent_history_path(agent_slug) if len(entries) > CHANGES_ON_PAGE else None,
        feed_path=agent_feed_path(agent_slug),
        notices=history.notices,
        last_changed=entries[0].date if entries else "",
    )


def history_views(history: CatalogHistory, pages: Mapping[str, str], taint: Taint) -> HistoryViews:
    """The catalogue's "What's new"; ``pages``: each card file's agent page."""
    memo: dict[object, Any] = {}
    recent = tuple(
        ChangeView(
            taint(item.entry, memo),
            _commit_link(history.commit_url, item.entry.commit),
            pages.get(item.current) if item.current is not None else None,
        )
        for item in history.recent
    )
    return HistoryViews(recent=by_commit(recent), notices=history.notices, source=history)
