"""Which base item is which head item: agents across catalogues, and the head file of a base card.

Agents are paired pass by pass, each pass on what the earlier ones left:

1. name and preferred (first) interface URL: same-named agents keep their identity whatever their files
   are called;
2. preferred interface URL alone: the endpoint is what clients use, so an agent renamed at its URL is a
   rename even when a new agent takes its old name at another URL;
3. name and path below the argument (same-named agents whose URL changed stay in their files);
4. name; 5. name ignoring letter case.

URLs compare as RFC 3986 says (scheme and host case-insensitively).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from a2a_docgen.model import AgentCard, Catalog
from a2a_docgen.text.urls import comparable_url

__all__ = ["HeadFiles", "Identity", "identity", "pair", "pair_agents", "pair_identities", "pair_passes"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Identity:
    """What agents are paired by: all ``pair_agents`` reads of a card (the change history keeps it for each
    card version, without the version's model)."""

    name: str | None
    url: str | None
    """The preferred (first) interface URL as RFC 3986 compares it, ``None`` without one."""
    relpath: str
    """The card file's path below its argument."""


def identity(card: AgentCard) -> Identity:
    url = comparable_url(card.interfaces[0].url) if card.interfaces and card.interfaces[0].url else None
    return Identity(card.name, url, card.source.relpath)


def pair_agents(
    base: Sequence[AgentCard], head: Sequence[AgentCard]
) -> tuple[list[tuple[AgentCard, AgentCard]], list[AgentCard], list[AgentCard]]:
    """(matched pairs, removed, added); see the module docstring for the order of the passes."""
    return pair_identities(base, head, identity)


def pair_identities(
    base: Sequence[T], head: Sequence[T], of: Callable[[T], Identity]
) -> tuple[list[tuple[T, T]], list[T], list[T]]:
    """``pair_agents`` for anything with an ``Identity``."""
    known = {id(item): of(item) for item in (*base, *head)}
    keys: tuple[Callable[[T], object], ...] = (
        lambda c: (known[id(c)].name, known[id(c)].url) if known[id(c)].url is not None else None,
        lambda c: known[id(c)].url,
        lambda c: (known[id(c)].name, known[id(c)].relpath),
        lambda c: known[id(c)].name,
        lambda c: (known[id(c)].name or "").casefold(),
    )
    return pair_passes(base, head, keys)


def pair_passes(
    base: Sequence[T], head: Sequence[T], keys: Iterable[Callable[[T], object]]
) -> tuple[list[tuple[T, T]], list[T], list[T]]:
    """Pair items pass by pass: each pass pairs what is left by its key."""
    pairs: list[tuple[T, T]] = []
    base_left, head_left = list(base), list(head)
    for key in keys:
        if not base_left or not head_left:
            break  # nothing left to pair
        matched, base_left, head_left = pair(base_left, head_left, key)
        pairs.extend(matched)
    return pairs, base_left, head_left


def pair(
    base: list[T], head: list[T], key: Callable[[T], object]
) -> tuple[list[tuple[T, T]], list[T], list[T]]:
    """Pair items with equal, non-None keys, in order (the n-th base with the n-th head of a key)."""
    waiting: dict[object, list[T]] = {}
    for item in head:
        k = key(item)
        if k is not None:
            waiting.setdefault(k, []).append(item)
    pairs: list[tuple[T, T]] = []
    base_left: list[T] = []
    taken: set[int] = set()
    for item in base:
        k = key(item)
        candidates = waiting.get(k) if k is not None else None
        if candidates:
            partner = candidates.pop(0)
            taken.add(id(partner))
            pairs.append((item, partner))
        else:
            base_left.append(item)
    return pairs, base_left, [item for item in head if id(item) not in taken]


class HeadFiles:
    """The head file at a base card's place, and whether it loaded.

    A base card's counterpart is the head file with the same display path (``--base-ref``, where both
    sides show working-tree paths), else the one with the same path below its argument (two directories),
    else, when each side is one file argument, that file. Head roots are the arguments of the head side;
    those of the cards that loaded are known without them.
    """

    def __init__(self, head: Catalog, roots: Sequence[str] = ()) -> None:
        self.loaded = {card.source.path for card in head.cards}
        self.unloadable = set(head.excluded)
        self.roots = {*roots, *(card.source.root for card in head.cards)}
        self.by_relpath: dict[str, str] = {card.source.relpath: card.source.path for card in head.cards}
        for path in head.excluded:
            relpath = self.relpath(path)
            if relpath is not None:
                self.by_relpath.setdefault(relpath, path)
        self.file_roots = [root for root in self.roots if root in self.loaded | self.unloadable]

    def relpath(self, path: str) -> str | None:
        for root in self.roots:
            if path == root:
                return os.path.basename(path)
            prefix = root.rstrip("/" + os.sep) + os.sep
            if path.startswith(prefix):
                return path[len(prefix) :].replace(os.sep, "/")
        return None

    def counterpart(self, card: AgentCard) -> str | None:
        """The display path of the head file in ``card``'s place, or ``None`` when there is none."""
        source = card.source
        if source.path in self.loaded or source.path in self.unloadable:
            return source.path
        if source.path == source.root and len(self.roots) == 1 and self.file_roots:
            return self.file_roots[0]
        return self.by_relpath.get(source.relpath)

    def no_longer_loads(self, card: AgentCard) -> bool:
        """Whether the head file in ``card``'s place exists but could not be read as a card."""
        return self.counterpart(card) in self.unloadable
