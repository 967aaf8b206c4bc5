"""The slugs of agent pages and skill anchors, for a whole catalogue: one home for the renderer (which names
pages and anchors with them) and the validator (which warns when two cards' or skills' slugs clashed).

Between the model and both: it reads cards, never renders. Every slug comes from ``text.slug.unique_slugs``, so
the final slugs are compared and a clash widens all of its members (neither keeps the short one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from a2a_docgen.model import AgentCard, AgentSkill
from a2a_docgen.text.slug import identity_key, tag_key, unique_slugs

__all__ = [
    "MAX_OWN_TAG_PAGES",
    "AgentAddress",
    "OwnTagsBeyond",
    "agent_slug_clashes",
    "paged_tags",
    "shown_tags",
    "site_addresses",
    "skill_anchor_clashes",
]

MAX_OWN_TAG_PAGES = 200
"""Tag pages one card can add on its own. A tag that no other card carries is the card's own; the first of
them (in card order) get a page each, the rest are listed on the Tags index, with their skills, without one.
Real cards carry at most a few dozen tags; a card of short distinct tags could otherwise buy a page (a file to
render and write) for every dozen bytes, tens of thousands in 1 MiB. Tags that two cards share always have a
page, so no card can take another's."""


def agent_slug_clashes(cards: Sequence[AgentCard]) -> tuple[list[str], list[tuple[int, ...]]]:
    """``slug(name, "agent")`` per card, all distinct (``unique_slugs``): cards with one name are told apart by
    their identity key (``CardSource.key``: the cards alone, never the path as typed); distinct names whose
    slugs clash all get longer ones. Also the clashes (card indexes)."""
    names = [identity_key(card.name or "") for card in cards]
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return unique_slugs(
        [
            (card.name or "", "agent" if counts[name] == 1 else f"agent:{card.source.key}")
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
    card file, which a name alone cannot say."""
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


def shown_tags(skill: AgentSkill) -> tuple[str, ...]:
    """The tags a page lists: a blank tag (``""``, an ``empty-value`` of check) names nothing to filter by."""
    return tuple(tag for tag in skill.tags if tag.strip())


@dataclass(frozen=True, slots=True)
class OwnTagsBeyond:
    """A card whose own tags (``MAX_OWN_TAG_PAGES``) are more than get a page."""

    card: int
    """Its index in the cards given."""
    own: int
    """How many tags it carries that no other card does."""
    pointer: str
    """The ``tags`` of the skill that carries the first own tag without a page."""


def paged_tags(cards: Sequence[AgentCard]) -> tuple[frozenset[str], list[OwnTagsBeyond]]:
    """The ``tag_key`` of every tag of ``cards`` that has a page of its own (every shared tag, and each card's
    first ``MAX_OWN_TAG_PAGES`` own tags), and the cards with more own tags than that. Deterministic and
    independent of the order of ``cards``: a card's own tags are taken in its skills' and tags' order."""
    carriers: dict[str, int] = {}  # tag key -> the one card that carries it, -1 when several do
    for index, card in enumerate(cards):
        for skill in card.skills:
            for tag in shown_tags(skill):
                key = tag_key(tag)
                carriers[key] = index if carriers.get(key, index) == index else -1
    paged = {key for key, carrier in carriers.items() if carrier == -1}
    beyond: list[OwnTagsBeyond] = []
    for index, card in enumerate(cards):
        own: set[str] = set()
        first_without: str | None = None
        for skill in card.skills:
            for tag in shown_tags(skill):
                key = tag_key(tag)
                if carriers[key] != index or key in own:
                    continue
                own.add(key)
                if len(own) <= MAX_OWN_TAG_PAGES:
                    paged.add(key)
                elif first_without is None:
                    first_without = f"{skill.pointer}/tags"
        if first_without is not None:
            beyond.append(OwnTagsBeyond(index, len(own), first_without))
    return frozenset(paged), beyond
