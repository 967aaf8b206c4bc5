"""``catalogue-filter.json``: what the home page's filter needs to narrow every agent of the catalogue.

The home page lists the agents a page at a time; with JavaScript, its filter (``site/assets/catalogue.js``)
loads this file and narrows the whole catalogue by text, tag, media type, authentication kind, binding and
provider, on any static host. Compact by design (about 300 bytes an agent): facet values are listed once and
agents refer to them by index.

    {"version": 1,
     "facets": {"tag": [...], "media": [...], "auth": [...], "binding": [...], "provider": [...]},
     "agents": [[name, url, summary, provider, skills, tags, media, auth, bindings, era, words, grade, host],
                ...]}

A site indexed by ``a2a-docgen search-index`` (built by an engine other than the plugin's) also carries
``"search": "pagefind"``: the script then loads that index for full-text results.

``url`` is the agent page's directory from the site root (``agents/<slug>/``); ``provider`` an index or -1;
``tags``, ``media``, ``auth`` and ``bindings`` lists of indexes; ``words`` the skill names, lower case, for the
text filter; ``grade`` the card's grade letter (``""`` without one); ``host`` the endpoint's host when another
agent has the same name, which tells them apart (``""`` otherwise). Text is card text cleaned for display (plain text, not HTML: the script sets it as text).
"""

from __future__ import annotations

import json

from a2a_docgen.render.kinds.agents import AgentPage
from a2a_docgen.render.kinds.home import HomeViews
from a2a_docgen.render.pages import SiteViews
from a2a_docgen.text.unicode import clean_text

__all__ = ["FILTER_INDEX", "SEARCH_INDEX_KEY", "agent_facets", "filter_index"]

FILTER_INDEX = "catalogue-filter.json"
SEARCH_INDEX_KEY = "search"
"""The member ``a2a-docgen search-index`` adds (``"pagefind"``) once the built site has the search index."""
VERSION = 1
_FACETS = ("tag", "media", "auth", "binding", "provider")


def _clean(text: str | None, max_len: int) -> str:
    return " ".join(clean_text(text, max_len=max_len).split()) if text else ""


def agent_facets(agent: AgentPage) -> dict[str, tuple[str, ...]]:
    """One agent's facet values, as plain text: the filters of the home page and of the catalogue search."""
    card = agent.card
    provider = _clean(card.provider.organization, 200) if card.provider else ""
    return {
        "tag": tuple(_clean(t, 64) for t in agent.tags),
        "media": tuple(_clean(m, 128) for m in agent.media_types),
        "auth": agent.auth_kinds,
        "binding": tuple(_clean(b, 64) for b in agent.bindings),
        "provider": (provider,) if provider else (),
        "era": (agent.era_label,),
    }


def filter_index(views: SiteViews) -> bytes:
    """The filter index of the catalogue, as minified UTF-8 JSON (sorted facet values, agents in order)."""
    values: dict[str, dict[str, int]] = {facet: {} for facet in _FACETS}
    hosts = views.view(HomeViews).hosts
    rows = []
    for agent in views.agents:
        entry = agent_facets(agent)
        provider = entry["provider"][0] if entry["provider"] else ""
        for facet in _FACETS:
            for item in entry[facet]:
                values[facet].setdefault(item, 0)
        rows.append((agent, provider, entry))
    ordered = {facet: sorted(found, key=lambda v: (v.casefold(), v)) for facet, found in values.items()}
    position = {facet: {v: n for n, v in enumerate(items)} for facet, items in ordered.items()}
    agents = []
    for agent, provider, entry in rows:
        words = " ".join(_clean(s.skill.name, 200) for s in agent.skills).lower()
        agents.append(
            [
                _clean(agent.card.name, 200),
                agent.path.removesuffix("index.md"),
                _clean(agent.summary, 200),
                position["provider"][provider] if provider else -1,
                len(agent.skills),
                *(
                    [position[facet][v] for v in entry[facet]]
                    for facet in ("tag", "media", "auth", "binding")
                ),
                agent.era_label,
                words,
                agent.grade.letter if agent.grade else "",
                _clean(hosts.get(agent.path), 200),
            ]
        )
    data = {"version": VERSION, "facets": ordered, "agents": agents}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
