"""What a review report holds, shared by its formats: the findings, the cards that failed to load, the
configuration warnings, and how to link to sources; the counts and the one-line summary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from a2a_docgen.model import Diagnostic
from a2a_docgen.review.codes import SEVERITIES, ChangeSeverity
from a2a_docgen.review.config import ConfigWarning
from a2a_docgen.review.diff import Change
from a2a_docgen.slugs import AgentAddress
from a2a_docgen.text.plural import plural

__all__ = [
    "LoadFailure",
    "ReviewReport",
    "SourceLinks",
    "accepted_note",
    "counts",
    "has_news",
    "plural",
    "summary",
    "where",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadFailure:
    """A card file of one side that could not be read as a card, with its errors."""

    side: str
    """``base``, ``base (origin/main)`` or ``head``."""
    file: str
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceLinks:
    """Links from findings to their file and line on the forge (GitHub's ``/blob/<sha>/<path>#L<n>``)."""

    repo_url: str
    """``https://github.com/owner/repo``, without a trailing slash."""
    head_sha: str
    base_sha: str | None = None
    """The base commit (``--base-ref``): base-side findings link there; else they link at ``head_sha``."""
    root: str = "."
    """The repository's root directory, which link paths are relative to."""
    paths_from: str | None = None
    """The directory the findings' relative paths start from (the repository's root, which reports show paths
    from); ``None``: the current directory (cards in no repository are shown as typed)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewReport:
    """Everything a format may show: findings, what failed to load, configuration warnings, links."""

    changes: Sequence[Change]
    warnings: Sequence[ConfigWarning] = ()
    failures: Sequence[LoadFailure] = ()
    site_url: str | None = None
    addresses: Mapping[str, AgentAddress] | None = None
    """The slugs and anchors of the agents on the site at ``site_url`` (``slugs.site_addresses`` of the base
    cards, which that site was built from): agents are linked only where they have an address."""
    links: SourceLinks | None = None
    full_report_url: str | None = None
    """Where the complete review is (the job summary of the run, an artifact): the comment's notes of what
    did not fit link there."""
    budget: int | None = None
    """Characters of Markdown at most (``None``: ``MARKDOWN_BUDGET``, under GitHub's comment limit; ``0``: no
    limit, for the job summary, which holds 1 MiB)."""
    anchor_removals: bool = False
    """``github``: annotate base-side findings at their anchor in the head file (``--base-ref``, where a
    base line number on a head path would land on whatever is now on that line)."""


def counts(changes: Sequence[Change]) -> dict[ChangeSeverity, int]:
    """Number of changes per severity, every severity present."""
    result = dict.fromkeys(SEVERITIES, 0)
    for change in changes:
        result[change.severity] += 1
    return result


def summary(changes: Sequence[Change]) -> str:
    """``3 changes: 1 breaking, 1 non-breaking, 1 info, 1 accepted; 1 policy finding: 1 breaking``.

    Changes (what clients get) are counted apart from policy findings (``version-not-bumped``), and
    accepted changes apart from the severities they keep. ``no changes`` when there is nothing.
    """
    if not changes:
        return "no changes"
    contract = [c for c in changes if not c.policy]
    policy = [c for c in changes if c.policy]
    numbers = counts([c for c in contract if c.accepted is None])
    accepted = sum(1 for c in contract if c.accepted is not None)
    text = f"{plural(len(contract), 'change')}: " + ", ".join(f"{numbers[s]} {s}" for s in SEVERITIES)
    if accepted:
        text += f", {accepted} accepted"
    if policy:
        policy_numbers = counts([c for c in policy if c.accepted is None])
        parts = [f"{policy_numbers[s]} {s}" for s in SEVERITIES if policy_numbers[s]]
        parts += (
            [f"{len(policy) - sum(policy_numbers.values())} accepted"]
            if any(c.accepted for c in policy)
            else []
        )
        text += f"; {plural(len(policy), 'policy finding')}: {', '.join(parts)}"
    return text


def has_news(report: ReviewReport) -> bool:
    """Whether there is anything to say: a finding, a card that fails to load, a configuration warning."""
    return bool(report.changes or report.failures or report.warnings)


def where(change: Change) -> str:
    """``agent › skill``, the agent alone for a change to the agent as a whole, or ``configuration``."""
    if change.configuration:
        return "configuration"
    return f"{change.agent} › {change.skill}" if change.skill is not None else change.agent


def accepted_note(change: Change) -> str:
    if change.accepted is None:
        return ""
    until = f", until {change.accepted.expires.isoformat()}" if change.accepted.expires else ""
    return f" (accepted: {change.accepted.reason}{until})"
