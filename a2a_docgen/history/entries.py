"""The change history as plain data: what the renderer reads (no git, no differ here).

Every string that came from a card or a commit (messages, names, subjects) is untrusted text: the renderer
taints it before a template sees it and the feed writer escapes it.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "KIND_LABELS",
    "POLICY_CODES",
    "UNKNOWN_DATE",
    "AgentHistory",
    "CatalogHistory",
    "EntryKind",
    "HistoryEntry",
    "HistoryFinding",
    "RecentEntry",
    "commit_link",
    "entry_id",
]

UNKNOWN_DATE = ""
"""A commit's date that RFC 3339 cannot write: git printed no number (a malformed or negative stamp) or a time
outside the years 0001 to 9999 (a commit dated in year 10000). Pages say "date unknown"; feeds, which need a
date, give the Unix epoch."""

EntryKind = Literal["added", "changed", "moved", "unreadable", "removed", "first-seen"]
"""``added``: the agent appeared; ``changed``: its card changed in a way the differ reports; ``moved``: only its
file's name changed; ``unreadable``: the file did not load as a card in that commit; ``removed``: the agent is
gone; ``first-seen``: a shallow clone's oldest commit, and the card as it was then."""

KIND_LABELS: dict[str, str] = {
    "added": "Agent added",
    "changed": "Card changed",
    "moved": "Card file renamed",
    "unreadable": "Card unreadable in this version",
    "removed": "Agent removed",
    "first-seen": "First version in this history",
}
"""What each kind of entry is called on the pages and in the feeds."""

SEVERITY_ORDER = ("breaking", "non-breaking", "info")

POLICY_CODES = frozenset(
    {"version-not-bumped", "version-not-semver", "config-loosened", "config-tightened", "config-invalid"}
)
"""The differ's codes about the rules a change must follow (the version policy, the configuration), not about
what changed: counted apart, as ``diff`` counts them (``review.codes.POLICY_CODES``; a test keeps the two the
same, since this module imports nothing of a2a-docgen)."""

_ID_NAMESPACE = uuid.UUID("6f0b7b1e-3c55-4d0a-9a44-a2a0d0c9e025")


def entry_id(commit: str, path: str) -> str:
    """The Atom id of one agent's entry for one commit: the same for the same commit and card file (``path``, its
    identity key: the cards alone), whatever builds it, from wherever, and wherever the agent's page is (a
    name-based UUID, RFC 4122 version 5)."""
    return f"urn:uuid:{uuid.uuid5(_ID_NAMESPACE, f'{commit}:{path}')}"


@dataclass(frozen=True, slots=True)
class HistoryFinding:
    """One classified difference, in the differ's words."""

    severity: str
    """``breaking``, ``non-breaking`` or ``info``."""
    code: str
    """The differ's code (``skill-added`` ...): our vocabulary."""
    skill: str | None
    """The skill id concerned (card text), ``None`` for the agent as a whole."""
    message: str
    """What changed (card text)."""

    @property
    def policy(self) -> bool:
        """A finding about the version policy or the configuration, not a change."""
        return self.code in POLICY_CODES


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One commit's change to one agent."""

    commit: str
    """The full commit id (hex)."""
    date: str
    """The commit's date, UTC, RFC 3339 (``2026-01-31T12:00:00Z``): from the commit, never the build's clock;
    ``UNKNOWN_DATE`` when it cannot be written so."""
    subject: str
    """The commit message's first line (untrusted text)."""
    kind: EntryKind
    agent: str
    """The agent's name in this commit (card text)."""
    path: str
    """The card file in this commit: its identity key (``CardSource.key``: its path below the configured cards
    path, never as typed), as the pages show it."""
    findings: tuple[HistoryFinding, ...] = ()
    """Most severe first."""
    moved_from: str | None = None
    """The card file before this commit, when the commit renamed it (its identity key, as ``path``)."""
    version_before: str | None = None
    version_after: str | None = None
    """The card's own version before and after, when it changed (card text)."""

    @property
    def label(self) -> str:
        return KIND_LABELS[self.kind]

    @property
    def short(self) -> str:
        return self.commit[:10]

    @property
    def day(self) -> str:
        return self.date[:10] if self.date != UNKNOWN_DATE else "date unknown"

    @property
    def id(self) -> str:
        return entry_id(self.commit, self.path)

    @property
    def severity(self) -> str:
        """The most severe finding's severity (``breaking`` for a removal or an unreadable card)."""
        if self.kind in ("removed", "unreadable"):
            return "breaking"
        if self.kind == "added":
            return "non-breaking"
        found = {f.severity for f in self.findings if not f.policy}
        return next((s for s in SEVERITY_ORDER if s in found), "info")

    @property
    def breaking(self) -> bool:
        return self.severity == "breaking"

    @property
    def changes(self) -> tuple[HistoryFinding, ...]:
        """The findings that are changes (the policy findings left out)."""
        return tuple(f for f in self.findings if not f.policy)

    def counts(self) -> dict[str, int]:
        """The changes by severity (policy findings are counted by ``policy_count``)."""
        result = dict.fromkeys(SEVERITY_ORDER, 0)
        for finding in self.changes:
            result[finding.severity] = result.get(finding.severity, 0) + 1
        return result

    @property
    def policy_count(self) -> int:
        return sum(f.policy for f in self.findings)


@dataclass(frozen=True, slots=True)
class AgentHistory:
    """One agent's entries, latest first."""

    entries: tuple[HistoryEntry, ...]


@dataclass(frozen=True, slots=True)
class RecentEntry:
    """An entry of the catalogue's "What's new": the entry, and the identity key of the agent's card file today
    (``None`` for an agent that is gone)."""

    entry: HistoryEntry
    current: str | None


@dataclass(frozen=True, slots=True)
class CatalogHistory:
    """The history of a catalogue: per card file (the identity key of the card in the catalogue,
    ``CardSource.key``), and every entry across the catalogue, latest first (agents that are gone included)."""

    agents: Mapping[str, AgentHistory] = field(default_factory=dict)
    recent: tuple[RecentEntry, ...] = ()
    """The latest entries across the catalogue (bounded), latest first."""
    notices: tuple[str, ...] = ()
    """What readers should know about the history itself (a shallow clone, the bound on commits)."""
    commit_url: str | None = None
    """The repository's web address, for links to commits (``<repo_url>/commit/<id>``), when known."""
    head: str = ""
    """The commit the history was read up to."""
    head_date: str = "1970-01-01T00:00:00Z"
    """That commit's date (RFC 3339, UTC; ``UNKNOWN_DATE``): a feed without entries is as new as it."""

    def of(self, path: str) -> AgentHistory | None:
        return self.agents.get(path)

    def link(self, commit: str) -> str | None:
        return commit_link(self.commit_url, commit)


def commit_link(commit_url: str | None, commit: str) -> str | None:
    """A commit's web page in the repository at ``commit_url`` (GitHub's and GitLab's form), if it is known."""
    return f"{commit_url.rstrip('/')}/commit/{commit}" if commit_url else None
