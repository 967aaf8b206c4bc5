"""What every comparison family shares: the draft of a finding, the collector of one agent's drafts, and
how card text is quoted in a message.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from a2a_docgen.load.source import MISSING, join_pointer, resolve_pointer
from a2a_docgen.model import AgentCard, AgentSkill, CardVerification, JSONValue
from a2a_docgen.review.codes import ChangeSeverity, ReviewCode

__all__ = [
    "AgentPair",
    "Draft",
    "Side",
    "element_at",
    "first_difference",
    "inherit_note",
    "q",
    "quoted_list",
    "strings",
]

Side = Literal["base", "head"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Draft:
    """A finding before it is located in its file and given its severity."""

    agent: str
    skill: str | None
    code: ReviewCode
    message: str
    pointer: str
    side: Side = "head"
    before: JSONValue = None
    after: JSONValue = None
    cap: ChangeSeverity | None = None
    """The most this finding can be in its context (``info`` for a change to a scheme nobody uses)."""
    at: str | None = None
    """Where a head-side finding is shown when that is more precise than ``pointer``: the element that
    changed inside the array ``pointer`` names (an added media type, the requirement that lost a scope), or,
    for what was removed, the element now in its place, so the annotation lands inside the diff."""


class AgentPair:
    """Two versions of one agent's card, and the drafts the comparisons of each family add."""

    def __init__(
        self,
        old: AgentCard,
        new: AgentCard,
        old_verification: CardVerification | None = None,
        new_verification: CardVerification | None = None,
    ) -> None:
        self.old, self.new = old, new
        self.verifications = (old_verification, new_verification)
        self.agent = new.name or ""
        self.drafts: list[Draft] = []
        self.renames: dict[str, str] = {}
        """Security schemes renamed with the same definition: base name -> head name."""

    @functools.cached_property
    def schemes_unchanged(self) -> bool:
        """Both versions declare the same security schemes (so none is renamed): a requirement means in one
        what it means in the other."""
        return self.old.security_schemes == self.new.security_schemes

    def add(
        self,
        code: ReviewCode,
        message: str,
        pointer: str,
        *,
        skill: str | None = None,
        before: JSONValue = None,
        after: JSONValue = None,
        side: Side = "head",
        at: str | None = None,
    ) -> None:
        self.drafts.append(
            Draft(
                agent=self.agent,
                skill=skill,
                code=code,
                message=message,
                pointer=pointer,
                side=side,
                before=before,
                after=after,
                at=at,
            )
        )

    def text_change(
        self,
        code: ReviewCode,
        what: str,
        old: str | None,
        new: str | None,
        pointer: str,
        skill: str | None = None,
    ) -> None:
        """``the <what> was added / was removed / changed``, when ``old`` and ``new`` differ."""
        if old != new:
            verb = "was added" if old is None else "was removed" if new is None else "changed"
            self.add(code, f"the {what} {verb}", pointer, skill=skill, before=old, after=new)

    def member(self, pointer: str, *names: str) -> str:
        """The first member of the head object at ``pointer`` that the head card has (``name``, or the v0.3
        spelling given after it), else ``pointer``: where a changed field is shown."""
        for name in names:
            candidate = join_pointer(pointer, name)
            if resolve_pointer(self.new.source.raw, candidate) is not MISSING:
                return candidate
        return pointer

    def inheriting(self, origin: Callable[[AgentSkill], str]) -> list[str]:
        """Ids of the skills that take a card default on both sides (their changes are the card's)."""
        old_skills = {s.id: s for s in self.old.skills if s.id is not None}
        return [
            s.id
            for s in self.new.skills
            if s.id is not None
            and s.id in old_skills
            and origin(s) == "card"
            and origin(old_skills[s.id]) == "card"
        ]


def element_at(array: str, index: int, length: int) -> str:
    """The pointer of element ``index`` of ``array`` (of its last element when the array is shorter now)."""
    return join_pointer(array, str(min(index, length - 1))) if length else array


def first_difference(old: Sequence[object], new: Sequence[object]) -> int:
    """The index of the first element where two lists differ (the shorter one's length if one extends the other)."""
    for index, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return index
    return min(len(old), len(new))


def q(value: object) -> str:
    """Card text quoted for a message."""
    if value is None:
        return "(none)"
    text = str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def quoted_list(values: Iterable[str]) -> str:
    return ", ".join(q(v) for v in sorted(values))


def inherit_note(skills: Sequence[str], who: str) -> str:
    if not skills:
        return ""
    shown = ", ".join(q(s) for s in skills[:5])
    more = f" and {len(skills) - 5} more" if len(skills) > 5 else ""
    return f"; this applies to {who}: {shown}{more}"


def strings(values: Iterable[str]) -> list[JSONValue]:
    return [*values]
