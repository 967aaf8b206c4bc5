"""The slugs of agent pages and skill anchors, for a whole catalogue: one home for the renderer (which names
pages and anchors with them), the validator (which warns when two cards' or skills' addresses clashed) and the
review comment's links (``site_addresses``).

Between the model and all three: it reads cards, never renders. Every slug comes from
``text.slug.unique_slugs``: readable where no other item of the family shares the stem, and the final slugs
compared, so a clash moves all of its members (neither keeps the address).

An agent whose name no other card has is at its name's slug (``agents/weather/``). Cards that share a name
(``identity_key``) leave that slug to a page listing them (``namesakes``), and each is at the name's slug, ``--``
and its card file's (``agents/weather--eu-weather/``: ``eu/weather.json``, from ``CardSource.key``), hashed only
where two of their files read alike. No slug of a name or file has ``--``, so those never meet another's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from a2a_docgen.model import AgentCard, AgentSkill
from a2a_docgen.text.slug import identity_key, tag_key, unique_slugs

__all__ = [
    "MAX_OWN_TAG_PAGES",
    "NAMESAKE_SEPARATOR",
    "AgentAddress",
    "AgentSlugs",
    "OwnTagsBeyond",
    "agent_slugs",
    "file_label",
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

NAMESAKE_SEPARATOR = "--"
"""Between the shared name's slug and the card file's in the slug of an agent that shares its name."""


@dataclass(frozen=True, slots=True)
class AgentSlugs:
    """The page slugs of a catalogue's cards."""

    slugs: tuple[str, ...]
    """Each card's page slug, in the order of the cards given."""
    namesakes: Mapping[str, tuple[int, ...]]
    """The slug of each name that several cards share (its page lists them) and those cards' indexes."""
    clashes: tuple[tuple[int, ...], ...]
    """Cards whose names' slugs clashed (distinct names, one stem or hash): none keeps the readable one."""


def file_label(key: str) -> str:
    """The readable part of a card file's key: its path without ``.json`` (``eu/weather.json`` -> ``eu/weather``)."""
    return key[: -len(".json")] if key.lower().endswith(".json") else key


def agent_slugs(cards: Sequence[AgentCard]) -> AgentSlugs:
    """Every card's page slug (see the module): a name of one card is its agent's slug, a name of several is
    their list's, and each of them ``<name>--<card file>``; all distinct, by ``unique_slugs``."""
    holders: dict[str, list[int]] = {}
    for index, card in enumerate(cards):
        holders.setdefault(identity_key(card.name or ""), []).append(index)
    names = list(holders)
    name_slugs, name_clashes = unique_slugs([(name, "agent") for name in names], labels=names)
    slugs = [""] * len(cards)
    namesakes: dict[str, tuple[int, ...]] = {}
    for name_slug, indexes in zip(name_slugs, holders.values(), strict=True):
        if len(indexes) == 1:
            slugs[indexes[0]] = name_slug
            continue
        namesakes[name_slug] = tuple(indexes)
        keys = [cards[index].source.key for index in indexes]
        file_slugs, _ = unique_slugs([(key, "card") for key in keys], labels=[file_label(k) for k in keys])
        for index, file_slug in zip(indexes, file_slugs, strict=True):
            slugs[index] = f"{name_slug}{NAMESAKE_SEPARATOR}{file_slug}"
    clashes = tuple(tuple(i for n in group for i in holders[names[n]]) for group in name_clashes)
    return AgentSlugs(tuple(slugs), namesakes, clashes)


def skill_anchor_clashes(skills: Sequence[AgentSkill]) -> tuple[list[str], list[tuple[int, ...]]]:
    """``skill-<id's slug>``, readable where no other skill of the card has the same stem, all distinct
    (``unique_slugs``); a skill without an id, or repeating an id, is anchored by its position. The same
    whatever the agent's address. Also the clashes of distinct ids (skill indexes)."""
    seen: set[str] = set()
    items: list[tuple[str, str]] = []
    labels: list[str | None] = []
    for index, skill in enumerate(skills):
        key = identity_key(skill.id) if skill.id is not None else None
        if key is None or key in seen:
            items.append((f"#{index}", "skill:position"))
            labels.append(None)
        else:
            seen.add(key)
            items.append((skill.id or "", "skill"))
            labels.append(skill.id or "")
    slugs, clashes = unique_slugs(items, labels=labels)
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
    them (``agent_slugs``, ``skill_anchor_clashes``), for whatever links to that site from outside it (the
    review comment). A name that several cards share is at the page that lists them (no skill anchors: a name
    alone cannot say whose)."""
    found = agent_slugs(cards)
    addresses: dict[str, AgentAddress] = {}
    shared = {index for indexes in found.namesakes.values() for index in indexes}
    for name_slug, indexes in found.namesakes.items():
        for index in indexes:
            if cards[index].name is not None:
                addresses[cards[index].name or ""] = AgentAddress(name_slug, {})
    for index, (card, agent_slug) in enumerate(zip(cards, found.slugs, strict=True)):
        if index in shared or card.name is None:
            continue
        anchors, _ = skill_anchor_clashes(card.skills)
        by_id: dict[str, str] = {}
        for skill, skill_anchor in zip(card.skills, anchors, strict=True):
            if skill.id is not None:
                by_id.setdefault(skill.id, skill_anchor)
        addresses[card.name] = AgentAddress(agent_slug, by_id)
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
