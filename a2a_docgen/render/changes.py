"""The views of the change history (``a2a_docgen.history.entries``, plain data): the "Changes" section of an
agent page, its history pages and the catalogue's "What's new" pages.

Entries are tainted here (commit subjects, agent names and the differ's messages are untrusted text); commit
links are the repository's URL (checked by ``safe_url``) and the commit id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from a2a_docgen.history.entries import AgentHistory, CatalogHistory, HistoryEntry
from a2a_docgen.render.paths import WHATS_NEW, WHATS_NEW_FEED, agent_feed_path, agent_history_path
from a2a_docgen.text.urls import safe_url

__all__ = [
    "CHANGES_ON_PAGE",
    "FEED_ENTRIES",
    "AgentChanges",
    "ChangeView",
    "HistoryViews",
    "agent_changes",
    "entry_summary",
    "history_views",
]

CHANGES_ON_PAGE = 5
"""Entries in an agent page's "Changes" section; older ones are on its history pages."""
FEED_ENTRIES = 50
"""Entries in a feed, latest first."""


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
    """``Card changed: 1 breaking, 2 info``, or the kind's label alone: our words, no card text."""
    counts = entry.counts()
    found = ", ".join(f"{n} {severity}" for severity, n in counts.items() if n)
    return f"{entry.label}: {found}" if found else entry.label


@dataclass(frozen=True, slots=True)
class AgentChanges:
    latest: tuple[ChangeView, ...]
    """The latest ``CHANGES_ON_PAGE`` entries."""
    entries: tuple[ChangeView, ...]
    """Every entry, latest first."""
    history_path: str | None
    """``agents/<slug>/history.md`` when there are entries older than the latest shown, else ``None``."""
    feed_path: str
    """``agents/<slug>/changes.xml``."""
    notices: tuple[str, ...]
    """What readers should know about the history (a shallow clone): our words."""


@dataclass(frozen=True, slots=True)
class HistoryViews:
    recent: tuple[ChangeView, ...]
    notices: tuple[str, ...]
    source: CatalogHistory
    """As read (for the feeds)."""
    page_path: str = WHATS_NEW
    feed_path: str = WHATS_NEW_FEED


def _commit_link(history: CatalogHistory, commit: str) -> str | None:
    link = history.link(commit)
    return link if link is not None and safe_url(link) is not None else None


Taint = Callable[[HistoryEntry], HistoryEntry]
"""``render.pages``' taint: the entry with every string as card text."""


def agent_changes(
    history: CatalogHistory, own: AgentHistory | None, agent_slug: str, taint: Taint
) -> AgentChanges:
    """One agent's section and pages; ``taint`` makes the entries card text."""
    entries = own.entries if own is not None else ()
    views = tuple(ChangeView(taint(entry), _commit_link(history, entry.commit)) for entry in entries)
    return AgentChanges(
        latest=views[:CHANGES_ON_PAGE],
        entries=views,
        history_path=agent_history_path(agent_slug) if len(views) > CHANGES_ON_PAGE else None,
        feed_path=agent_feed_path(agent_slug),
        notices=history.notices,
    )


def history_views(history: CatalogHistory, pages: Mapping[str, str], taint: Taint) -> HistoryViews:
    """The catalogue's "What's new"; ``pages``: each card file's agent page."""
    recent = tuple(
        ChangeView(
            taint(item.entry),
            _commit_link(history, item.entry.commit),
            pages.get(item.current) if item.current is not None else None,
        )
        for item in history.recent
    )
    return HistoryViews(recent=recent, notices=history.notices, source=history)
