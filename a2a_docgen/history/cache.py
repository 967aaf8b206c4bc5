"""``HistoryCache``: what a process that builds again keeps of the history from one build to the next.

Its owner is the process's caller that rebuilds (the plugin's ``ServeCaches`` under ``mkdocs serve``,
``a2a-docgen build --watch``), which passes it to ``read_history``; a plain build passes none and keeps nothing.
Not the cache files (``history.cache_files``): those outlive the process, this lives as long as its owner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from a2a_docgen.history.entries import CatalogHistory
from a2a_docgen.history.store import Store

__all__ = ["HistoryCache", "HistoryKey"]

HistoryKey = tuple[object, ...]
"""The repository, the ``HEAD`` commit id and the options a history was read with."""

_KEPT_HISTORIES = 4


@dataclass(eq=False, slots=True)
class HistoryCache:
    """The histories read at each ``HEAD``: a rebuild after a card edit (``HEAD`` unchanged) asks git one question
    and reads nothing else again; and each repository's store: after a new commit, what is known of the versions
    and steps already classified."""

    histories: dict[HistoryKey, CatalogHistory] = field(default_factory=dict)
    stores: dict[tuple[str, str], Store] = field(default_factory=dict)
    """(repository, stamp) -> what is known of its versions and steps."""

    def history(self, key: HistoryKey) -> CatalogHistory | None:
        return self.histories.get(key)

    def keep_history(self, key: HistoryKey, history: CatalogHistory) -> None:
        """Keep ``history`` under ``key``; a few at most (each ``HEAD`` a long serve meets would stay)."""
        if len(self.histories) >= _KEPT_HISTORIES:
            self.histories.clear()
        self.histories[key] = history

    def store(self, top: str, stamp: str) -> Store | None:
        return self.stores.get((top, stamp))

    def keep_store(self, top: str, stamp: str, store: Store) -> None:
        self.stores[(top, stamp)] = store
