"""The slugs of agent pages and skill anchors, for a whole catalogue: one home for the renderer (which names
pages and anchors with them) and the validator (which warns when two cards' or skills' slugs clashed).

Between the model and both: it reads cards, never renders. Every slug comes from ``text.slug.unique_slugs``, so
the final slugs are compared and a clash widens all of its members (neither keeps the short one).
"""

from __future__ import annotations

from collections.abc import Sequence

from a2a_docgen.model import AgentCard, AgentSkill
from a2a_docgen.text.slug import identity_key, unique_slugs

__all__ = ["agent_slug_clashes", "skill_anchor_clashes"]


def agent_slug_clashes(cards: Sequence[AgentCard]) -> tuple[list[str], list[tuple[int, ...]]]:
    """``slug(name, "agent")`` per card, all distinct (``unique_slugs``): cards with one name are told apart by
    their source path; distinct names whose slugs clash all get longer ones. Also the clashes (card indexes)."""
    names = [identity_key(card.name or "") for card in cards]
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return unique_slugs(
        [
            (card.name or "", "agent" if counts[name] == 1 else f"agent:{card.source.path}")
            for card, name in zip(cards, names, strict=True)
        ]
    )


def skill_anchor_clashes(
    skills: Sequence[AgentSkill], agent_slug: str
) -> tuple[list[str], list[tuple[int, ...]]]:
    """``skill-<slug(id, agent)>``, all distinct (``unique_slugs``); a skill without an id, or repeating an id,
    is anchored by its position. Also the clashes of distinct ids (skill indexes)."""
    seen: set[str] = set()
    items: list[tuple[str, str]] = []
    for index, skill in enumerate(skills):
        key = identity_key(skill.id) if skill.id is not None else None
        if key is None or key in seen:
            items.append((f"#{index}", f"{agent_slug}:position"))
        else:
            seen.add(key)
            items.append((skill.id or "", agent_slug))
    slugs, clashes = unique_slugs(items)
    return [f"skill-{value}" for value in slugs], clashes
