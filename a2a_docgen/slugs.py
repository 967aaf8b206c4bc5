"""The slugs of agent pages and skill anchors, for a whole catalogue: one home for the renderer (which names
pages and anchors with them) and the validator (which warns when two cards' or skills' slugs clashed).

Between the model and both: it reads cards, never renders. Every slug comes from ``text.slug.unique_slugs``, so
the final slugs are compared and a clash widens all of its members (neither keeps the short one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from a2a_docgen.model import AgentCard, AgentSkill
from a2a_docgen.text.slug import identity_key, unique_slugs

__all__ = ["AgentAddress", "agent_slug_clashes", "site_addresses", "skill_anchor_clashes"]


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


@dataclass(frozen=True, slots=True)
class AgentAddress:
    """Where an agent and its skills are on the site built from a catalogue."""

    slug: str
    """The page slug: the page is ``agents/<slug>/``."""
    skill_anchors: Mapping[str, str]
    """The anchor of each skill id (the first skill with an id, as on the page)."""


def site_addresses(cards: Sequence[AgentCard]) -> dict[str, AgentAddress]:
    """The address of each agent by name on the site built from ``cards``, with the slugs the renderer gives
    them (clashes widened: ``agent_slug_clashes``, ``skill_anchor_clashes``), for whatever links to that site
    from outside it (the review comment). A name that two cards share is left out: their pages are told apart by
    source file, which a name alone cannot say."""
    slugs, _ = agent_slug_clashes(cards)
    named: dict[str, list[int]] = {}
    for index, card in enumerate(cards):
        if card.name is not None:
            named.setdefault(identity_key(card.name), []).append(index)
    addresses: dict[str, AgentAddress] = {}
    for indexes in named.values():
        if len(indexes) != 1:
            continue
        card, agent_slug = cards[indexes[0]], slugs[indexes[0]]
        anchors, _ = skill_anchor_clashes(card.skills, agent_slug)
        by_id: dict[str, str] = {}
        for skill, skill_anchor in zip(card.skills, anchors, strict=True):
            if skill.id is not None:
                by_id.setdefault(skill.id, skill_anchor)
        addresses[card.name or ""] = AgentAddress(agent_slug, by_id)
    return addresses
