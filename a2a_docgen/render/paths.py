"""The site's URL scheme: how an address is made, and every address of a site, worked out once (``site_map``).

Every page kind declares its own fixed pages' addresses in its module (``render.kinds``: ``tags/index.md`` ...);
the addresses made from card text are all here, in one ``Addresses`` the renderer makes once and every output
reads (pages, exports, feeds, the history's views). ``slugged_paths`` is the one place a key becomes a page's
path, readable where it can be and distinct from every other (``unique_slugs``). ``agents/<slug>/index.md`` is
an agent's page (published as the directory URL ``agents/<slug>/``), ``agents/<slug>/card.json`` the card as
published, ``agents/<slug>/history.md`` and ``changes.xml`` its change history and feed (``whats-new.md`` and
``whats-new.xml`` the catalogue's); ``badges/<slug>.json`` its grade as a shields.io endpoint, by the card file
(so a README's badge outlives a page's move). A name several cards share is a page listing them
(``agents/<name>/``). The review comment's links ask ``slugs.site_addresses``, made the same way. A long list
goes on over further pages (``render.paging``), which no other page's address can take.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from a2a_docgen.model import AgentCard
from a2a_docgen.slugs import agent_slugs, file_label, paged_tags, skill_anchor_clashes
from a2a_docgen.text.slug import identity_key, unique_slugs

__all__ = [
    "RESERVED",
    "WHATS_NEW",
    "WHATS_NEW_FEED",
    "Addresses",
    "AgentFiles",
    "Namesakes",
    "agent_card_path",
    "agent_dir",
    "agent_feed_path",
    "agent_history_path",
    "agent_page_path",
    "badge_path",
    "markdown_copy_path",
    "site_map",
    "slugged_paths",
]

WHATS_NEW = "whats-new.md"
WHATS_NEW_FEED = "whats-new.xml"


def agent_dir(agent_slug: str) -> str:
    """``agents/<slug>/``: the directory of an agent's files, and the URL of its page."""
    return f"agents/{agent_slug}/"


def agent_page_path(agent_slug: str) -> str:
    """``agents/<slug>/index.md``: the Markdown source of an agent's page."""
    return f"{agent_dir(agent_slug)}index.md"


def agent_card_path(agent_slug: str) -> str:
    """``agents/<slug>/card.json``: the card as published beside its page."""
    return f"{agent_dir(agent_slug)}card.json"


def agent_history_path(agent_slug: str) -> str:
    """``agents/<slug>/history.md``: the first page of an agent's change history."""
    return f"{agent_dir(agent_slug)}history.md"


def agent_feed_path(agent_slug: str) -> str:
    """``agents/<slug>/changes.xml``: the Atom feed of an agent's changes."""
    return f"{agent_dir(agent_slug)}changes.xml"


def badge_path(badge_slug: str) -> str:
    """``badges/<slug>.json``: an agent's grade as a shields.io endpoint badge, by its card file's slug."""
    return f"badges/{badge_slug}.json"


def slugged_paths(
    directory: str,
    keys: Sequence[str],
    kind: str,
    *,
    labels: Sequence[str] | None = None,
    reserved: Collection[str] = (),
) -> dict[str, str]:
    """``<directory>/<slug>.md`` by key for ``keys`` (distinct identity keys of one ``kind``: ``tag``,
    ``media-type``), each list's further pages beside it (``render.paging``): readable where no other key reads
    alike (``labels``: the text to read, the keys by default), never a ``reserved`` name of the directory, all
    distinct (``unique_slugs``: a clash widens every member, so no key takes another's page)."""
    slugs, _ = unique_slugs(
        [(key, kind) for key in keys],
        labels=list(keys) if labels is None else labels,
        reserved=reserved,
        paged=True,
    )
    return {key: f"{directory}/{value}.md" for key, value in zip(keys, slugs, strict=True)}


def markdown_copy_path(page_path: str, *, sources_published: bool) -> str:
    """Where a page's Markdown is published beside its HTML: its own source path on a site that publishes the
    pages' sources (the plugin: ``agents/<slug>/index.md``), else ``<page>.md.txt`` (an engine that reads the
    pages converts every ``.md`` file, and copies other files as they are)."""
    return page_path if sources_published else f"{page_path}.txt"


@dataclass(frozen=True, slots=True)
class AgentFiles:
    """Where one agent's page, files and skills are."""

    slug: str
    anchors: tuple[str, ...]
    """The HTML id of each skill's section, in card order."""
    badge: str
    """``badges/<slug of the card file's key>.json``: the grade as a shields.io endpoint, at an address of the card
    file alone, so a README's badge keeps working when the page moves."""
    namesakes: str | None = None
    """``agents/<name>/index.md``, the page listing the agents that share its name; ``None`` for a name of its
    own."""

    @property
    def page(self) -> str:
        return agent_page_path(self.slug)

    @property
    def url(self) -> str:
        return agent_dir(self.slug)

    @property
    def card(self) -> str:
        return agent_card_path(self.slug)


@dataclass(frozen=True, slots=True)
class Namesakes:
    """A name several cards share: the page at its address lists them."""

    path: str
    """``agents/<slug>/index.md``."""
    keys: tuple[str, ...]
    """The cards' identity keys, in catalogue order."""


@dataclass(frozen=True, slots=True)
class Addresses:
    """Every address of a site, worked out once from its cards (``site_map``): pages, exports, feeds, the
    navigation and the review comment's links all read these."""

    agents: Mapping[str, AgentFiles]
    """By card key (``CardSource.key``)."""
    namesakes: tuple[Namesakes, ...]
    tags: Mapping[str, str]
    """``tags/<slug>.md`` by ``tag_key``, for the tags that have a page (``slugs.paged_tags``)."""
    media_types: Mapping[str, str]
    """``media-types/<slug>.md`` by ``identity_key``."""
    bindings: Mapping[tuple[str, str], str]
    """``bindings/<slug>.md`` by (binding, protocol version), ``""`` for one not given."""
    extensions: Mapping[str, str]
    """``extensions/<slug>.md`` by ``identity_key`` of the URI."""

    def agent(self, card: AgentCard) -> AgentFiles:
        return self.agents[card.source.key]


RESERVED = frozenset({"index"})
"""A directory's own list (``tags/index.md``, ``extensions/index.md``), or the address of the list page beside
it (``media-types.md`` is ``media-types/`` on a site of directory URLs, as ``media-types/index.md`` would be):
no key's page takes it."""


def _binding_label(binding: str, version: str) -> str:
    return f"{binding} {version}"


def _without_scheme(uri: str) -> str:
    """An extension URI as read: ``https://example.com/ext/v1`` -> ``example.com/ext/v1``."""
    head, sep, rest = uri.partition("://")
    return rest if sep and head.isalpha() else uri


def site_map(cards: Sequence[AgentCard]) -> Addresses:
    """The addresses of the site of ``cards`` (in catalogue order): see ``Addresses``."""
    found = agent_slugs(cards)
    keys = [card.source.key for card in cards]
    listings = {
        index: agent_page_path(name_slug)
        for name_slug, indexes in found.namesakes.items()
        for index in indexes
    }
    badges, _ = unique_slugs(
        [(key, "badge") for key in keys], labels=[file_label(k) for k in keys], readable=False
    )
    agents = {
        card.source.key: AgentFiles(
            agent_slug, tuple(skill_anchor_clashes(card.skills)[0]), badge_path(badge), listings.get(index)
        )
        for index, (card, agent_slug, badge) in enumerate(zip(cards, found.slugs, badges, strict=True))
    }
    namesakes = tuple(
        Namesakes(agent_page_path(name_slug), tuple(cards[index].source.key for index in indexes))
        for name_slug, indexes in found.namesakes.items()
    )
    paged, _ = paged_tags(cards)
    media: set[str] = set()
    bindings: set[tuple[str, str]] = set()
    extensions: dict[str, str] = {}
    for card in cards:
        for skill in card.skills:
            for mode in (*skill.effective_input_modes.modes, *skill.effective_output_modes.modes):
                media.add(identity_key(mode))
        for interface in card.interfaces:
            bindings.add((interface.protocol_binding or "", interface.protocol_version or ""))
        for extension in card.capabilities.extensions:
            if extension.uri:
                extensions[identity_key(extension.uri)] = _without_scheme(identity_key(extension.uri))
    binding_keys = sorted(bindings)
    binding_paths = slugged_paths(
        "bindings",
        [f"{binding}|{version}" for binding, version in binding_keys],
        "binding",
        labels=[_binding_label(*key) for key in binding_keys],
        reserved=RESERVED,
    )
    extension_keys = sorted(extensions)
    return Addresses(
        agents=agents,
        namesakes=namesakes,
        tags=slugged_paths("tags", sorted(paged), "tag", reserved=RESERVED),
        media_types=slugged_paths("media-types", sorted(media), "media-type", reserved=RESERVED),
        bindings=dict(zip(binding_keys, binding_paths.values(), strict=True)),
        extensions=slugged_paths(
            "extensions",
            extension_keys,
            "extension",
            labels=[extensions[key] for key in extension_keys],
            reserved=RESERVED,
        ),
    )
