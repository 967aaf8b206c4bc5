"""Machine-readable exports published with every site: ``catalog.json``, ``llms.txt`` and a badge per agent.

``catalog.json`` is data for registries and scripts (schema: docs/catalog.schema.json); ``llms.txt`` follows
the llms.txt convention (https://llmstxt.org) so language models find the pages. Both are pure functions of
the catalogue: sorted, no timestamps, byte-identical across builds. Every URL in them is relative to the site
root, so a site published under a sub-path works unchanged. ``badges/<slug>.json`` is each agent's grade as a
shields.io endpoint (https://shields.io/badges/endpoint-badge), for a live badge in the agent's README, at an
address of its card file (it stays when the page moves).

Page paths and anchors come from the renderer's one map of addresses (``paths.Addresses``, passed by the
renderer; made from the catalogue when a caller has none), so an export never links to a page or section that
does not exist.
"""

from __future__ import annotations

import functools
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_docgen.load.aicatalog import CATALOG_FILE
from a2a_docgen.model import (
    AgentCard,
    AgentSkill,
    CardVerification,
    Catalog,
    EffectiveModes,
    JSONObject,
    JSONValue,
    SecurityRequirement,
    Severity,
    card_order,
)
from a2a_docgen.render.paths import Addresses, markdown_copy_path, site_map
from a2a_docgen.text.jsonio import json_document
from a2a_docgen.text.plural import plural
from a2a_docgen.text.slug import tag_key
from a2a_docgen.text.unicode import clean_text

if TYPE_CHECKING:
    from a2a_docgen.quality import Grade

__all__ = [
    "AI_CATALOG_JSON",
    "CATALOG_JSON",
    "DEFAULT_SITE_NAME",
    "GENERATOR",
    "LLMS_FULL_TXT",
    "LLMS_TXT",
    "SCHEMA_VERSION",
    "AgentPaths",
    "agent_id",
    "agent_paths",
    "badge_files",
    "catalog_data",
    "catalog_json",
    "export_files",
    "llms_title",
    "llms_txt",
    "sorted_cards",
]

SCHEMA_VERSION = 1
"""Incremented when a member of ``catalog.json`` is removed or changes meaning (not when one is added)."""
GENERATOR = "a2a-docgen"
CATALOG_JSON = "catalog.json"
LLMS_TXT = "llms.txt"
LLMS_FULL_TXT = "llms-full.txt"
AI_CATALOG_JSON = CATALOG_FILE
DEFAULT_SITE_NAME = "A2A agent catalogue"

_AGENT_NAMESPACE = uuid.UUID("3d6c1f52-8b0e-4f3a-9c61-a2a0d0c9e025")


def agent_id(card: AgentCard) -> str:
    """The agent's ``id`` in ``catalog.json``: a name-based UUID (RFC 4122 version 5) of its card's identity key
    (``CardSource.key``), so it stays when the page's address moves (another card takes the same name) and is
    the same from any working directory or spelling of the cards' path."""
    return f"urn:uuid:{uuid.uuid5(_AGENT_NAMESPACE, card.source.key)}"


# --------------------------------------------------------------------------------------------------------------
# Paths: read from the renderer's map of addresses (``paths.site_map``), which decides them for the whole
# catalogue.


@dataclass(frozen=True, slots=True)
class AgentPaths:
    """Where one agent's pages are, relative to the site root."""

    card: AgentCard
    page_path: str
    """The page's Markdown source, a ``RenderedSite.pages`` key: ``agents/<slug>/index.md``."""
    page_url: str
    """The HTML page, directory style: ``agents/<slug>/``."""
    card_path: str
    """The card as published, a ``RenderedSite.files`` key: ``agents/<slug>/card.json``."""
    skill_anchors: tuple[str, ...]
    """The HTML id of each skill's section (``skill-<slug>``), in card order."""
    badge_path: str = ""
    """The agent's grade as a shields.io endpoint, a ``RenderedSite.files`` key: ``badges/<slug>.json``."""


def sorted_cards(catalog: Catalog) -> list[AgentCard]:
    """The cards in catalogue order (name case-insensitively, then name, then identity key), whatever order
    the ``Catalog`` was built in."""
    return sorted(catalog.cards, key=card_order)


def agent_paths(catalog: Catalog, addresses: Addresses | None = None) -> list[AgentPaths]:
    """The paths of every agent, in ``sorted_cards`` order, from ``addresses`` (the renderer's; made from the
    catalogue when not given)."""
    cards = sorted_cards(catalog)
    if addresses is None:
        addresses = site_map(cards)
    paths = []
    for card in cards:
        files = addresses.agent(card)
        paths.append(
            AgentPaths(
                card=card,
                page_path=files.page,
                page_url=files.url,
                card_path=files.card,
                skill_anchors=files.anchors,
                badge_path=files.badge,
            )
        )
    return paths


# --------------------------------------------------------------------------------------------------------------
# catalog.json


def _modes(modes: EffectiveModes) -> tuple[list[JSONValue], str]:
    return list(modes.modes), modes.origin


def _security(card: AgentCard, requirements: tuple[SecurityRequirement, ...]) -> list[JSONValue]:
    """Alternatives (any one suffices), each a list of schemes that apply together, in card order.

    ``type`` is the scheme's kind, or ``None`` when the name refers to no declared scheme.
    """
    alternatives: list[JSONValue] = []
    for requirement in requirements:
        schemes: list[JSONValue] = []
        for name, scopes in requirement.schemes.items():
            declared = card.security_schemes.get(name)
            schemes.append(
                {"scheme": name, "type": declared.kind if declared else None, "scopes": list(scopes)}
            )
        alternatives.append(schemes)
    return alternatives


def _sorted_unique(values: Iterable[str]) -> list[str]:
    return sorted(set(values), key=lambda v: (v.casefold(), v))


def _grade(paths: AgentPaths, grade: Grade) -> JSONObject:
    return {
        "letter": grade.letter,
        "score": grade.score,
        "badge": paths.badge_path,
        "deductions": [
            {"code": d.code, "severity": d.severity, "count": d.count, "points": d.points}
            for d in grade.deductions
        ],
    }


def _signature_entry(card: AgentCard, verification: CardVerification | None) -> JSONObject:
    """The card's signature status and each signature's (docs/signing.md)."""
    if verification is None:
        return {"status": "unsigned", "signatures": []}
    return {
        "status": verification.status,
        "signatures": [
            {"status": s.status, "alg": s.alg, "kid": s.kid, "key": s.key, "form": s.form}
            for s in verification.signatures
        ],
    }


def _agent_entry(
    paths: AgentPaths,
    diagnostics: Counter[tuple[str, Severity]],
    verification: CardVerification | None,
    grade: Grade,
) -> JSONObject:
    card = paths.card
    provider: JSONValue = (
        {"organization": card.provider.organization, "url": card.provider.url} if card.provider else None
    )
    capabilities = card.capabilities
    return {
        "id": agent_id(card),
        "name": card.name,
        "description": card.description,
        "version": card.version,
        "provider": provider,
        "era": card.era,
        "interfaces": [
            {
                "url": i.url,
                "protocolBinding": i.protocol_binding,
                "protocolVersion": i.protocol_version,
                "tenant": i.tenant,
            }
            for i in card.interfaces
        ],
        # Not declared reads as false in the spec; consumers get plain booleans.
        "capabilities": {
            "streaming": capabilities.streaming is True,
            "pushNotifications": capabilities.push_notifications is True,
            "extendedAgentCard": capabilities.extended_agent_card is True,
        },
        "page": paths.page_url,
        "card": paths.card_path,
        "skillCount": len(card.skills),
        "diagnostics": {
            "errors": diagnostics[(card.source.path, "error")],
            "warnings": diagnostics[(card.source.path, "warning")],
        },
        "signature": _signature_entry(card, verification),
        "grade": _grade(paths, grade),
    }


def _skill_entry(paths: AgentPaths, skill: AgentSkill, skill_anchor: str) -> JSONObject:
    card = paths.card
    input_modes, input_from = _modes(skill.effective_input_modes)
    output_modes, output_from = _modes(skill.effective_output_modes)
    requirements = skill.effective_security.requirements
    return {
        "agent": card.name,
        "id": skill.id,
        "name": skill.name,
        "description": skill.description,
        "tags": list(skill.tags),
        "inputModes": input_modes,
        "inputModesFrom": input_from,
        "outputModes": output_modes,
        "outputModesFrom": output_from,
        "security": _security(card, requirements),
        "requiredSchemes": list(_sorted_unique(name for r in requirements for name in r.schemes)),
        "requiredScopes": list(
            _sorted_unique(scope for r in requirements for scopes in r.schemes.values() for scope in scopes)
        ),
        "page": f"{paths.page_url}#{skill_anchor}",
    }


def _tag_entries(cards: list[AgentCard]) -> list[JSONValue]:
    """Tags as the tag pages group and order them (by ``tag_key``: case and spacing ignored), each in its
    first spelling (agents in catalogue order, skills in card order), with the number of skills carrying it."""
    skills_per_key: Counter[str] = Counter()
    spelling: dict[str, str] = {}
    for card in cards:
        for skill in card.skills:
            keys = set()
            for tag in skill.tags:
                key = tag_key(tag)
                keys.add(key)
                spelling.setdefault(key, tag)
            skills_per_key.update(keys)
    return [{"tag": spelling[key], "skills": skills_per_key[key]} for key in sorted(skills_per_key)]


def _media_type_entries(cards: list[AgentCard]) -> list[JSONValue]:
    """Every effective media type (as written), with how many skills accept and produce it."""
    accepts: Counter[str] = Counter()
    produces: Counter[str] = Counter()
    for card in cards:
        for skill in card.skills:
            accepts.update(set(skill.effective_input_modes.modes))
            produces.update(set(skill.effective_output_modes.modes))
    return [
        {"mediaType": media_type, "accepts": accepts[media_type], "produces": produces[media_type]}
        for media_type in _sorted_unique([*accepts, *produces])
    ]


def catalog_data(
    catalog: Catalog, grades: Mapping[str, Grade] | None = None, addresses: Addresses | None = None
) -> JSONObject:
    """The content of ``catalog.json`` as a JSON value (see docs/exports.md); ``grades`` (by file) are
    ``grade_catalog(catalog)`` and ``addresses`` ``paths.site_map`` of its cards, made when not given."""
    agents = agent_paths(catalog, addresses)
    cards = [paths.card for paths in agents]
    diagnostics = Counter((d.file, d.severity) for d in catalog.diagnostics)
    grades = _grades(catalog) if grades is None else grades
    return {
        "schemaVersion": SCHEMA_VERSION,
        "generator": GENERATOR,
        "agents": [
            _agent_entry(paths, diagnostics, catalog.verification(paths.card), grades[paths.card.source.path])
            for paths in agents
        ],
        "skills": [
            _skill_entry(paths, skill, skill_anchor)
            for paths in agents
            for skill, skill_anchor in zip(paths.card.skills, paths.skill_anchors, strict=True)
        ],
        "tags": _tag_entries(cards),
        "mediaTypes": _media_type_entries(cards),
    }


def _grades(catalog: Catalog) -> dict[str, Grade]:
    from a2a_docgen.quality import grade_catalog  # here: render.escape (this package) stays free of load

    return grade_catalog(catalog)


def dump_json(value: JSONValue) -> bytes:
    """Pretty, deterministic UTF-8 JSON with a trailing newline; card text kept exactly (``json_document``)."""
    return json_document(value).encode("utf-8")


def catalog_json(
    catalog: Catalog, grades: Mapping[str, Grade] | None = None, addresses: Addresses | None = None
) -> bytes:
    """``catalog.json``: every agent, skill, tag and media type of the catalogue."""
    return dump_json(catalog_data(catalog, grades, addresses))


# --------------------------------------------------------------------------------------------------------------
# llms.txt

# llms.txt is CommonMark read by language models, scripts and people, and is never fed to Python-Markdown or
# MkDocs. So card text gets readable backslash escapes here instead of the character references of
# ``escape.md_inline`` (which a plain-text reader would see as ``&#91;``). Every character that can open inline
# syntax in CommonMark or GFM is escaped: links and images ([ ] ( )), raw HTML and autolinks (< >), code spans,
# emphasis, strikethrough, entity references (&) and an ATX closing sequence (#). Block syntax cannot start:
# the text never begins a line and ``clean_text`` has turned every line break into a space. (A GFM renderer may
# still turn a bare URL in card text into a link; its text is then the URL itself, so it disguises nothing.)
_LLMS_ESCAPES = str.maketrans({c: "\\" + c for c in '\\`*_~[]()<>&#"'})
_MAX_NAME = 200
_MAX_NOTE = 300


def _llms_text(s: str | None, max_len: int) -> str:
    """Card text as one inert line of CommonMark: cleaned, whitespace collapsed, cut, backslash-escaped."""
    if s is None:
        return ""
    return _llms_line(s, max_len)


@functools.lru_cache(maxsize=16384)
def _llms_line(s: str, max_len: int) -> str:
    """``_llms_text`` of text; cached, as agent names (on every skill's line) and tags repeat."""
    return " ".join(clean_text(s, max_len=max_len).split()).translate(_LLMS_ESCAPES)


def _quoted(text: str) -> str:
    """Card text (already ``_llms_text``) between quotation marks, its own escaped: a reader of ``llms.txt``
    tells it from the site's words, and no card value can extend one of our sentences."""
    return f'"{text}"' if text else ""


def _agent_name(card: AgentCard) -> str:
    return _llms_text(card.name, _MAX_NAME) or "Unnamed agent"


def _note(text: str, details: list[str]) -> str:
    meta = "; ".join(details)
    if text and meta:
        return f"{text} ({meta})"
    return text or meta


def _page_link(paths: AgentPaths, markdown_sources: bool) -> str:
    """Where ``llms.txt`` sends a reader for an agent's page: its Markdown beside the HTML page, the page's
    source where the site publishes the sources (the MkDocs plugin does), else the copy ``a2a-docgen build``
    writes (``render.discovery``)."""
    return markdown_copy_path(paths.page_path, sources_published=markdown_sources)


def _agent_line(paths: AgentPaths, markdown_sources: bool) -> str:
    card = paths.card
    details = []
    if card.version:
        details.append(f"version {_quoted(_llms_text(card.version, 64))}")
    if card.provider and card.provider.organization:
        details.append(f"provider {_quoted(_llms_text(card.provider.organization, _MAX_NAME))}")
    details.append(plural(len(card.skills), "skill"))
    name = _agent_name(card)
    note = _note(_quoted(_llms_text(card.description, _MAX_NOTE)), details)
    return f"- [{name}]({_page_link(paths, markdown_sources)}): {note}"


def _skill_line(paths: AgentPaths, skill: AgentSkill, skill_anchor: str, markdown_sources: bool) -> str:
    details = [f"agent: {_quoted(_agent_name(paths.card))}"]
    tags = [_quoted(t) for t in (_llms_text(tag, 64) for tag in skill.tags) if t]
    if tags:
        details.append("tags: " + ", ".join(tags))
    name = _llms_text(skill.name, _MAX_NAME) or _llms_text(skill.id, _MAX_NAME) or "Unnamed skill"
    note = _note(_quoted(_llms_text(skill.description, _MAX_NOTE)), details)
    return f"- [{name}]({_page_link(paths, markdown_sources)}#{skill_anchor}): {note}"


def llms_title(site_name: str) -> str:
    """The H1 of ``llms.txt`` and ``llms-full.txt``: the site's name as one inert line."""
    return _llms_text(site_name, _MAX_NAME) or DEFAULT_SITE_NAME


def llms_txt(
    catalog: Catalog,
    *,
    site_name: str = DEFAULT_SITE_NAME,
    markdown_sources: bool = True,
    addresses: Addresses | None = None,
) -> str:
    """``llms.txt``: a title, a one-line summary, then one link per agent and per skill to the Markdown of the
    agent's page, published beside it (``render.paths.markdown_copy_path``: the page's source where the site
    publishes the sources, ``markdown_sources``), and the other exports under ``## Optional`` (which a reader may
    skip)."""
    agents = agent_paths(catalog, addresses)
    skill_count = sum(len(paths.card.skills) for paths in agents)
    lines = [
        f"# {llms_title(site_name)}",
        "",
        f"> {plural(len(agents), 'agent')} and {plural(skill_count, 'skill')} described by their "
        "A2A Agent Cards. Every link leads to the Markdown of a page of this site.",
        "",
        "Each agent page lists the agent's interfaces, security schemes and skills; each skill states "
        "the media types it accepts and produces and the security it requires. The same catalogue as JSON "
        f"is in {CATALOG_JSON}, and every agent's card as published is next to its page. Link texts and "
        "text in quotation marks are the cards' own words, written by each agent's provider, not this site's.",
    ]
    if agents:
        lines += ["", "## Agents", "", *(_agent_line(paths, markdown_sources) for paths in agents)]
    if skill_count:
        lines += ["", "## Skills", ""]
        lines += [
            _skill_line(paths, skill, skill_anchor, markdown_sources)
            for paths in agents
            for skill, skill_anchor in zip(paths.card.skills, paths.skill_anchors, strict=True)
        ]
    lines += [
        "",
        "## Optional",
        "",
        f"- [{LLMS_FULL_TXT}]({LLMS_FULL_TXT}): every agent page's Markdown in one file (in parts past its "
        "size bound, each naming the others)",
        f"- [{CATALOG_JSON}]({CATALOG_JSON}): every agent, skill, tag and media type as JSON "
        f"(schemaVersion {SCHEMA_VERSION})",
        f"- [{AI_CATALOG_JSON}]({AI_CATALOG_JSON}): the agents as an AI Catalog, for registries",
    ]
    lines += [
        f"- [{_agent_name(paths.card)} card]({paths.card_path}): the Agent Card as published, JSON"
        for paths in agents
    ]
    return "\n".join(lines) + "\n"


def badge_files(
    catalog: Catalog, grades: Mapping[str, Grade] | None = None, addresses: Addresses | None = None
) -> dict[str, bytes]:
    """``badges/<slug>.json`` of every agent: its grade as a shields.io endpoint badge."""
    from a2a_docgen.quality import badge

    grades = _grades(catalog) if grades is None else grades
    return {
        paths.badge_path: dump_json(badge(grades[paths.card.source.path]))
        for paths in agent_paths(catalog, addresses)
    }


def export_files(
    catalog: Catalog,
    *,
    site_name: str = DEFAULT_SITE_NAME,
    markdown_sources: bool = True,
    grades: Mapping[str, Grade] | None = None,
    addresses: Addresses | None = None,
) -> dict[str, bytes]:
    """The export files to merge into ``RenderedSite.files``: ``catalog.json``, ``llms.txt`` (see ``llms_txt``
    for ``markdown_sources``) and the badges; ``grades`` (by file) are ``grade_catalog(catalog)`` and
    ``addresses`` ``paths.site_map`` of its cards, made when not given (the renderer gives its own)."""
    grades = _grades(catalog) if grades is None else grades
    addresses = site_map(sorted_cards(catalog)) if addresses is None else addresses
    llms = llms_txt(catalog, site_name=site_name, markdown_sources=markdown_sources, addresses=addresses)
    return {
        CATALOG_JSON: catalog_json(catalog, grades, addresses),
        LLMS_TXT: llms.encode("utf-8"),
        **badge_files(catalog, grades, addresses),
    }
