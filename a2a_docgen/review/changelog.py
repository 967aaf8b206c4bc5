"""The review as a changelog: Markdown grouped by agent, then by kind of change, in plain words.

``changelog_markdown(changes)`` takes findings and returns Markdown, so ``diff --format changelog`` and a
site's change history write the same entries. Kinds follow Keep a Changelog: **Breaking** (what a client
that works today can trip on), **Added**, **Changed**, **Removed**. Version-policy findings are about the
change, not the agent, and are left out; accepted changes say so, with the reason. Card text is encoded
as in the pull-request comment (``review.markdown``): it cannot start Markdown or HTML, ping anyone or
link an issue.
"""

from __future__ import annotations

from collections.abc import Sequence

from a2a_docgen.review.diff import Change
from a2a_docgen.review.markdown import comment_text

__all__ = ["KINDS", "change_kind", "changelog_markdown"]

KINDS: tuple[str, ...] = ("Breaking", "Added", "Changed", "Removed")
"""The kinds of entries, in the order each agent lists them."""

_ADDED = ("-added", "-enabled", "-made-optional", "-no-longer-required")
_REMOVED = ("-removed", "-dropped")


def change_kind(change: Change) -> str:
    """``Breaking`` for a breaking change, else ``Added``, ``Removed`` or ``Changed`` by what its code says."""
    if change.severity == "breaking":
        return "Breaking"
    if change.code.endswith(_ADDED):
        return "Added"
    if change.code.endswith(_REMOVED):
        return "Removed"
    return "Changed"


def _sentence(message: str) -> str:
    text = message[:1].upper() + message[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _entry(change: Change) -> str:
    skill = f"Skill {comment_text(change.skill)}: " if change.skill is not None else ""
    accepted = (
        f" Accepted: {comment_text(change.accepted.reason, max_len=500)}."
        if change.accepted is not None
        else ""
    )
    code = f"[`{change.code}`]({change.docs_url})"
    return f"- {skill}{comment_text(_sentence(change.message), max_len=1000)}{accepted} ({code})"


def changelog_markdown(changes: Sequence[Change], *, heading_level: int = 3) -> str:
    """The changes as Markdown: one heading per agent (at ``heading_level``), a bold line per kind, one
    item per change. ``""`` when there is nothing to list."""
    shown = [c for c in changes if not c.policy]
    agents = sorted({c.agent for c in shown}, key=lambda a: (a.casefold(), a))
    out: list[str] = []
    hashes = "#" * heading_level
    for agent in agents:
        mine = [c for c in shown if c.agent == agent]
        out += [f"{hashes} {comment_text(agent)}", ""]
        for kind in KINDS:
            entries = [_entry(c) for c in mine if change_kind(c) == kind]
            if entries:
                out += [f"**{kind}**", "", *entries, ""]
    return "\n".join(out).rstrip("\n") + "\n" if out else ""
