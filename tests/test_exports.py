"""catalog.json and llms.txt: content, schema, determinism, escaping, and links to pages that exist."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.model import AgentCard, Catalog, Diagnostic
from a2a_docgen.render import render_catalog
from a2a_docgen.render.exports import (
    AgentPaths,
    agent_paths,
    catalog_data,
    catalog_json,
    export_files,
    llms_txt,
)
from a2a_docgen.text.unicode import clean_text

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "catalog.schema.json"

SCOPES = {"forecast:read": "Read forecasts", "alerts:write": "Publish alerts"}

# One agent written twice, for v1.0 and for v0.3; only the era-specific members differ.
ABOUT: dict[str, Any] = {
    "name": "Weather Desk",
    "description": "Forecasts and radar for any place.",
    "version": "1.2.0",
    "provider": {"organization": "Example Weather", "url": "https://example.com"},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain", "application/json"],
}
FORECAST = {
    "id": "forecast",
    "name": "Forecast",
    "description": "Hourly forecast for a place.",
    "tags": ["weather", "Forecast"],
}
RADAR = {
    "id": "radar",
    "name": "Radar image",
    "description": "A radar picture of the last hour.",
    "tags": ["weather", "maps"],
    "outputModes": ["image/png"],  # own outputs, inherited inputs
}
FLOWS = {"clientCredentials": {"tokenUrl": "https://auth.example.com/token", "scopes": SCOPES}}

V10: dict[str, Any] = {
    **ABOUT,
    "supportedInterfaces": [
        {"url": "https://weather.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}
    ],
    "capabilities": {"streaming": True, "extendedAgentCard": True},
    "securitySchemes": {
        "oauth": {"oauth2SecurityScheme": {"flows": FLOWS}},
        "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}},
    },
    "securityRequirements": [{"schemes": {"oauth": {"list": ["forecast:read"]}}}, {"schemes": {"key": {}}}],
    "skills": [
        FORECAST,
        {
            **RADAR,
            "securityRequirements": [
                {"schemes": {"oauth": {"list": ["forecast:read", "alerts:write"]}, "key": {}}}
            ],
        },
    ],
}

V03: dict[str, Any] = {
    **ABOUT,
    "protocolVersion": "0.3.0",
    "url": "https://weather.example.com/a2a",
    "preferredTransport": "JSONRPC",
    "capabilities": {"streaming": True},
    "supportsAuthenticatedExtendedCard": True,
    "securitySchemes": {
        "oauth": {"type": "oauth2", "flows": FLOWS},
        "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
    },
    "security": [{"oauth": ["forecast:read"]}, {"key": []}],
    "skills": [FORECAST, {**RADAR, "security": [{"oauth": ["forecast:read", "alerts:write"], "key": []}]}],
}

OPEN: dict[str, Any] = {
    "name": "abacus",
    "description": "Adds numbers. No sign-in.",
    "version": "0.1.0",
    "supportedInterfaces": [
        {"url": "https://abacus.example.org/a2a", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
    ],
    "capabilities": {},
    "defaultInputModes": ["text/plain", "application/json"],
    "defaultOutputModes": ["TEXT/PLAIN"],
    "skills": [
        {"id": "add", "name": "Add", "description": "Adds two numbers.", "tags": ["math", "FORECAST"]}
    ],
}

HOSTILE_NAME = "Evil](javascript:alert(1)) [click](https://evil.example)\n<script>alert(1)</script>"
HOSTILE: dict[str, Any] = {
    "name": HOSTILE_NAME,
    "description": "line one\n\n# not a heading\n- not a list\n<img src=x onerror=alert(1)> `tick` *em* _u_ &lt;b&gt; \\",
    "version": "1.0.0",
    "supportedInterfaces": [
        {"url": "https://evil.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ],
    "provider": {"organization": "<b>Org</b>](x)", "url": "https://evil.example"},
    "capabilities": {},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [
        {
            "id": "../../etc/passwd",
            "name": "<img src=x onerror=alert(1)>",
            "description": "[x](javascript:alert(1))\r\n<!-- c -->",
            "tags": ["](http://evil.example)", "~~struck~~"],
        }
    ],
}


DUPLICATES: dict[str, Any] = {
    **OPEN,
    "name": "Duplicates",
    "skills": [
        {"id": "same", "name": "One", "description": "d", "tags": ["t"]},
        {"id": "same", "name": "Two", "description": "d", "tags": ["t"]},
        {"name": "No id", "description": "d", "tags": ["t"]},
    ],
}


def load(raw: dict[str, Any], path: str) -> tuple[AgentCard, list[Diagnostic]]:
    card, diagnostics = load_card_bytes(json.dumps(raw).encode(), display=path)
    assert card is not None, diagnostics
    return card, diagnostics


def catalog_of(*cards: tuple[dict[str, Any], str]) -> Catalog:
    loaded = [load(raw, path) for raw, path in cards]
    return Catalog(
        cards=tuple(card for card, _ in loaded),
        diagnostics=tuple(sorted((d for _, ds in loaded for d in ds), key=Diagnostic.sort_key)),
        excluded=(),
    )


def paths_by_name(catalog: Catalog) -> dict[str | None, AgentPaths]:
    return {paths.card.name: paths for paths in agent_paths(catalog)}


def data_of(*cards: tuple[dict[str, Any], str]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(catalog_json(catalog_of(*cards)))
    return result


# --------------------------------------------------------------------------------------------------------------
# The schema, checked by a small validator for exactly the keywords docs/catalog.schema.json uses
# (jsonschema is not a test dependency; test_schema_with_jsonschema runs when it is installed).

KEYWORDS = {
    "$schema", "title", "description", "type", "required", "additionalProperties", "properties",
    "items", "$ref", "$defs", "const", "enum", "minimum", "pattern", "oneOf",
}  # fmt: skip
TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def _type_ok(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, TYPES[name]) and (name == "boolean" or not isinstance(value, bool))


def check(value: Any, schema: dict[str, Any], root: dict[str, Any], where: str = "") -> list[str]:
    """Every way ``value`` breaks ``schema`` (a draft 2020-12 subset), as readable strings."""
    errors: list[str] = []
    if "$ref" in schema:
        target = root
        for token in schema["$ref"].removeprefix("#/").split("/"):
            target = target[token]
        errors += check(value, target, root, where)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_type_ok(value, n) for n in names):
            return [*errors, f"{where}: {value!r} is not {names}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{where}: {value!r} != {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} not in {schema['enum']}")
    if "minimum" in schema and value < schema["minimum"]:
        errors.append(f"{where}: {value!r} < {schema['minimum']}")
    if "pattern" in schema and not re.search(schema["pattern"], value):
        errors.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if "oneOf" in schema:
        passing = [s for s in schema["oneOf"] if not check(value, s, root, where)]
        if len(passing) != 1:
            errors.append(f"{where}: {len(passing)} oneOf branches match")
    if isinstance(value, dict):
        errors += [f"{where}: missing {k}" for k in schema.get("required", []) if k not in value]
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is False:
            errors += [f"{where}: unexpected {k}" for k in value if k not in properties]
        for key, sub in properties.items():
            if key in value:
                errors += check(value[key], sub, root, f"{where}/{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors += check(item, schema["items"], root, f"{where}/{i}")
    return errors


def _keywords(schema: Any) -> set[str]:
    if not isinstance(schema, dict):
        return set()
    found = set(schema) - {"properties", "$defs"}
    children = [*schema.get("properties", {}).values(), *schema.get("$defs", {}).values()]
    children += [schema.get("items"), *schema.get("oneOf", [])]
    return found.union(*(_keywords(c) for c in children))


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    result: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return result


def test_schema_uses_only_keywords_the_checker_knows(schema: dict[str, Any]) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert _keywords(schema) <= KEYWORDS


def test_checker_rejects_what_the_schema_forbids(schema: dict[str, Any]) -> None:
    good = data_of((V10, "weather.json"))
    assert check(good, schema, schema) == []
    bad = copy.deepcopy(good)
    bad["agents"][0]["page"] = "../agents/x/"
    bad["skills"][0]["inputModesFrom"] = "default"
    bad["skills"][1]["security"][0][0]["type"] = "basic"
    bad["tags"][0]["skills"] = -1
    bad["mediaTypes"][0]["extra"] = 1
    del bad["agents"][0]["diagnostics"]["errors"]
    assert len(check(bad, schema, schema)) == 6


def test_catalog_json_validates(schema: dict[str, Any]) -> None:
    data = data_of(
        (V10, "weather.json"), (V03, "v03/weather.json"), (OPEN, "abacus.json"), (HOSTILE, "h.json")
    )
    assert check(data, schema, schema) == []


def test_schema_with_jsonschema(schema: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(schema)
    data = data_of((V10, "weather.json"), (OPEN, "abacus.json"), (HOSTILE, "h.json"))
    jsonschema.Draft202012Validator(schema).validate(data)


# --------------------------------------------------------------------------------------------------------------
# Content


def test_inherited_and_own_modes_and_security() -> None:
    data = data_of((V10, "weather.json"))
    forecast, radar = data["skills"]
    assert forecast["inputModes"] == ["text/plain"]
    assert forecast["inputModesFrom"] == "card"
    assert forecast["outputModes"] == ["text/plain", "application/json"]
    assert forecast["outputModesFrom"] == "card"
    assert forecast["security"] == [
        [{"scheme": "oauth", "type": "oauth2", "scopes": ["forecast:read"]}],
        [{"scheme": "key", "type": "apiKey", "scopes": []}],
    ]
    assert forecast["requiredSchemes"] == ["key", "oauth"]
    assert forecast["requiredScopes"] == ["forecast:read"]
    assert radar["inputModes"] == ["text/plain"]
    assert radar["inputModesFrom"] == "card"
    assert radar["outputModes"] == ["image/png"]
    assert radar["outputModesFrom"] == "skill"
    assert radar["security"] == [
        [
            {"scheme": "oauth", "type": "oauth2", "scopes": ["forecast:read", "alerts:write"]},
            {"scheme": "key", "type": "apiKey", "scopes": []},
        ]
    ]
    assert radar["requiredScopes"] == ["alerts:write", "forecast:read"]


def test_agent_entry() -> None:
    (agent,) = data_of((V10, "weather.json"))["agents"]
    assert agent["name"] == "Weather Desk"
    assert agent["provider"] == {"organization": "Example Weather", "url": "https://example.com"}
    assert agent["era"] == "1.0"
    assert agent["interfaces"] == [
        {
            "url": "https://weather.example.com/a2a",
            "protocolBinding": "JSONRPC",
            "protocolVersion": "0.3",
            "tenant": None,
        }
    ]
    assert agent["capabilities"] == {"streaming": True, "pushNotifications": False, "extendedAgentCard": True}
    assert agent["skillCount"] == 2
    assert agent["page"].startswith("agents/")
    assert agent["card"] == agent["page"] + "card.json"


def test_no_security_and_undeclared_scheme() -> None:
    undeclared = copy.deepcopy(OPEN)
    undeclared["skills"][0]["securityRequirements"] = [{"schemes": {"ghost": {"list": ["s"]}}}]
    data = data_of((OPEN, "abacus.json"))
    assert data["skills"][0]["security"] == []
    assert data["skills"][0]["requiredSchemes"] == []
    assert data_of((undeclared, "abacus.json"))["skills"][0]["security"] == [
        [{"scheme": "ghost", "type": None, "scopes": ["s"]}]
    ]


def test_v03_and_v10_export_the_same_skills() -> None:
    v10, v03 = data_of((V10, "weather.json")), data_of((V03, "weather.json"))
    assert v10["skills"] == v03["skills"]
    assert (v10["tags"], v10["mediaTypes"]) == (v03["tags"], v03["mediaTypes"])
    assert (v10["agents"][0]["era"], v03["agents"][0]["era"]) == ("1.0", "0.3")
    for data in (v10, v03):
        del data["agents"][0]["era"], data["agents"][0]["diagnostics"]
    assert v10["agents"] == v03["agents"]


def test_tags_and_media_types_are_counted_per_skill() -> None:
    data = data_of((V10, "weather.json"), (OPEN, "abacus.json"))
    # "FORECAST" (abacus) and "Forecast" (Weather Desk) are one tag, as on the tag pages, spelled as first met.
    assert data["tags"] == [
        {"tag": "FORECAST", "skills": 2},
        {"tag": "maps", "skills": 1},
        {"tag": "math", "skills": 1},
        {"tag": "weather", "skills": 2},
    ]
    assert data["mediaTypes"] == [
        {"mediaType": "application/json", "accepts": 1, "produces": 1},
        {"mediaType": "image/png", "accepts": 0, "produces": 1},
        {"mediaType": "TEXT/PLAIN", "accepts": 0, "produces": 1},
        {"mediaType": "text/plain", "accepts": 3, "produces": 1},
    ]


def test_diagnostic_counts_are_the_card_files() -> None:
    broken = copy.deepcopy(OPEN)
    del broken["version"]
    catalog = catalog_of((broken, "broken.json"), (V10, "weather.json"))
    counts = {a["name"]: a["diagnostics"] for a in catalog_data(catalog)["agents"]}  # type: ignore[index,union-attr]
    mine = [d for d in catalog.diagnostics if d.file == "broken.json"]
    assert any(d.code == "required-missing" for d in mine)
    assert counts["abacus"] == {
        "errors": sum(d.severity == "error" for d in mine),
        "warnings": sum(d.severity == "warning" for d in mine),
    }
    assert counts["Weather Desk"] == {"errors": 0, "warnings": 0}


def test_card_text_is_kept_exactly() -> None:
    weird = copy.deepcopy(OPEN)
    weird["name"] = "a\ud800b \u202e <x>"
    raw = catalog_json(catalog_of((weird, "w.json"), (HOSTILE, "h.json")))
    data = json.loads(raw.decode("utf-8"))
    assert {a["name"] for a in data["agents"]} == {"a\ud800b \u202e <x>", HOSTILE_NAME}
    (skill,) = [s for s in data["skills"] if s["agent"] == HOSTILE_NAME]
    assert skill["description"] == HOSTILE["skills"][0]["description"]
    assert skill["id"] == "../../etc/passwd"


def test_bytes_are_deterministic() -> None:
    cards = [(V10, "weather.json"), (OPEN, "abacus.json"), (HOSTILE, "h.json"), (V03, "v03/weather.json")]
    catalog = catalog_of(*cards)
    shuffled = list(catalog.cards)
    random.Random(7).shuffle(shuffled)
    reordered = Catalog(cards=tuple(reversed(shuffled)), diagnostics=catalog.diagnostics, excluded=())
    first = export_files(catalog)
    assert list(first)[:2] == ["catalog.json", "llms.txt"]
    assert len([path for path in first if path.startswith("badges/")]) == 4
    assert export_files(catalog) == first
    assert export_files(reordered) == first
    assert export_files(catalog_of(*reversed(cards))) == first
    for content in first.values():
        assert content.endswith(b"\n")
        assert not content.endswith(b"\n\n")
    assert (
        first["catalog.json"]
        == (json.dumps(json.loads(first["catalog.json"]), indent=2, ensure_ascii=False) + "\n").encode()
    )


# --------------------------------------------------------------------------------------------------------------
# llms.txt


def _parse(md: str) -> list[Token]:
    return MarkdownIt("commonmark").parse(md)


def _walk(tokens: list[Token]) -> list[Token]:
    return [t for token in tokens for t in (token, *_walk(token.children or []))]


def _links(md: str) -> list[tuple[str, str]]:
    """(href, text) of every link."""
    found = []
    for token in _parse(md):
        children = token.children or []
        for i, child in enumerate(children):
            if child.type == "link_open":
                end = next(j for j in range(i, len(children)) if children[j].type == "link_close")
                text = "".join(c.content for c in children[i + 1 : end] if c.type == "text")
                found.append((str(child.attrGet("href")), text))
    return found


def _text(inline: Token, children: list[Token] | None = None) -> str:
    """What a reader sees of an inline run (escapes and entities decoded); other tokens as ``<type>``."""
    tokens = inline.children or [] if children is None else children
    return "".join(c.content if c.type == "text" else f"<{c.type}>" for c in tokens)


def _notes(md: str, href: str) -> str:
    """The text after the link to ``href`` in its list item, entities and escapes decoded."""
    for token in _parse(md):
        children = token.children or []
        if children and children[0].type == "link_open" and children[0].attrGet("href") == href:
            end = next(i for i, c in enumerate(children) if c.type == "link_close")
            return _text(token, children[end + 1 :])
    raise AssertionError(f"no list item links to {href}")


def test_llms_txt_shape() -> None:
    catalog = catalog_of((V10, "weather.json"), (OPEN, "abacus.json"))
    md = llms_txt(catalog, site_name="Example agents")
    blocks = [t.type.removesuffix("_open") for t in _parse(md) if t.level == 0 and t.nesting == 1]
    assert blocks == [
        "heading", "blockquote", "paragraph",
        "heading", "bullet_list",  # Agents
        "heading", "bullet_list",  # Skills
        "heading", "bullet_list",  # Optional
    ]  # fmt: skip
    assert md.startswith("# Example agents\n\n> 2 agents and 3 skills ")
    assert [line for line in md.splitlines() if line.startswith("#")] == [
        "# Example agents",
        "## Agents",
        "## Skills",
        "## Optional",
    ]
    paths = paths_by_name(catalog)
    weather, abacus = paths["Weather Desk"], paths["abacus"]
    assert (
        f'- [Forecast]({weather.page_path}#{weather.skill_anchors[0]}): "Hourly forecast for '
        'a place." (agent: "Weather Desk"; tags: "weather", "Forecast")'
    ) in md.splitlines()
    assert (
        f'- [abacus]({abacus.page_path}): "Adds numbers. No sign-in." (version "0.1.0"; 1 skill)'
    ) in md.splitlines()
    # every list item is exactly one link at the start of the line
    items = [line for line in md.splitlines() if line.startswith("- ")]
    assert len(items) == len(_links(md)) == 2 + 3 + 3 + 2
    optional = md[md.index("## Optional") :]
    assert [href for href, _ in _links(optional)][:3] == ["llms-full.txt", "catalog.json", "ai-catalog.json"]


def test_llms_txt_for_an_engine_links_to_the_markdown_copies() -> None:
    """``a2a-docgen build`` output is turned into HTML by an engine, which converts every ``.md`` file: each agent
    page's Markdown is published beside it as ``index.md.txt``, and llms.txt links to that, anchors kept."""
    catalog = catalog_of((V10, "weather.json"), (OPEN, "abacus.json"))
    md = llms_txt(catalog, markdown_sources=False)
    weather = paths_by_name(catalog)["Weather Desk"]
    hrefs = [href for href, _ in _links(md)]
    assert f"{weather.page_path}.txt" in hrefs
    assert f"{weather.page_path}.txt#{weather.skill_anchors[0]}" in hrefs
    # the rest is the same as with the sources
    assert md.replace("/index.md.txt", "/index.md") == llms_txt(catalog)
    site = render_catalog(catalog, markdown_sources=False)
    assert site.files["llms.txt"] == md.encode("utf-8")
    assert site.files[f"{weather.page_path}.txt"] == site.pages[weather.page_path].encode("utf-8")


def test_llms_txt_of_an_empty_catalogue() -> None:
    md = llms_txt(Catalog(cards=(), diagnostics=(), excluded=()))
    assert md.startswith("# A2A agent catalogue\n\n> 0 agents and 0 skills ")
    assert _links(md) == [(name, name) for name in ("llms-full.txt", "catalog.json", "ai-catalog.json")]


def test_hostile_text_makes_no_links_and_no_html() -> None:
    catalog = catalog_of((HOSTILE, "h.json"), (V10, "weather.json"))
    md = llms_txt(catalog, site_name="Site <b>](x)")
    assert [t for t in _walk(_parse(md)) if t.type.startswith("html")] == []
    hostile = paths_by_name(catalog)[HOSTILE_NAME]
    skill_href = f"{hostile.page_path}#{hostile.skill_anchors[0]}"
    shown = " ".join(clean_text(HOSTILE_NAME).split())
    links = _links(md)
    assert (hostile.page_path, shown) in links
    assert (skill_href, "<img src=x onerror=alert(1)>") in links
    exports = {"catalog.json", "llms-full.txt", "ai-catalog.json"}
    assert all(href.startswith("agents/") or href in exports for href, _ in links)
    assert len(links) == 2 + 3 + 3 + 2
    assert len([t for t in _parse(md) if t.type == "heading_open"]) == 4
    assert _text(_parse(md)[1]) == "Site <b>](x)"
    # the notes render back to the card's own text, on one line
    description = " ".join(clean_text(HOSTILE["description"]).split())
    assert (
        _notes(md, hostile.page_path)
        == f': "{description}" (version "1.0.0"; provider "<b>Org</b>](x)"; 1 skill)'
    )
    skill_notes = _notes(md, skill_href)
    assert (
        skill_notes
        == f': "[x](javascript:alert(1)) <!-- c -->" (agent: "{shown}"; tags: "](http://evil.example)", "~~struck~~")'
    )


def test_llms_txt_shows_invisible_characters_and_cuts_long_text() -> None:
    sneaky = {**OPEN, "name": "Safe\u202egnp.exe\x00", "description": "word " * 2000}
    md = llms_txt(catalog_of((sneaky, "s.json")))
    (line,) = [line for line in md.splitlines() if line.startswith("- [Safe") and "index.md" in line]
    assert line.startswith("- [Safe\u27e8U+202E\u27e9gnp.exe](agents/")
    assert "\u202e" not in md
    assert "\x00" not in md
    assert len(line) < 500
    assert 'word\u2026" (version "0.1.0"; 1 skill)' in line


# --------------------------------------------------------------------------------------------------------------
# Every exported link is a page or file the renderer produces


def _exported_targets(files: dict[str, bytes]) -> set[str]:
    """Every target of catalog.json and llms.txt, as a RenderedSite key (+ ``#anchor``)."""
    data = json.loads(files["catalog.json"])
    targets = {a["page"] + "index.md" for a in data["agents"]} | {a["card"] for a in data["agents"]}
    targets |= {s["page"].replace("/#", "/index.md#") for s in data["skills"]}
    targets |= {href for href, _ in _links(files["llms.txt"].decode())}
    return targets


def test_exports_link_to_agent_paths() -> None:
    catalog = catalog_of((V10, "weather.json"), (HOSTILE, "h.json"), (DUPLICATES, "d.json"))
    expected = {"catalog.json", "llms-full.txt", "ai-catalog.json"}
    for paths in agent_paths(catalog):
        expected |= {paths.page_path, paths.card_path}
        expected |= {f"{paths.page_path}#{a}" for a in paths.skill_anchors}
        assert paths.page_path == paths.page_url + "index.md"
        assert paths.card_path == paths.page_url + "card.json"
        assert len(set(paths.skill_anchors)) == len(paths.card.skills)
    assert _exported_targets(export_files(catalog)) == expected


def test_exports_link_to_rendered_pages() -> None:
    # the same name twice, a skill without an id and a repeated id: the renderer decides, the exports follow
    catalog = catalog_of(
        (V10, "weather.json"), (V03, "v03/weather.json"), (OPEN, "abacus.json"), (HOSTILE, "h.json"),
        (DUPLICATES, "d.json"),
    )  # fmt: skip
    site = render_catalog(catalog)
    assert len({paths.page_path for paths in agent_paths(catalog)}) == 5
    files = export_files(catalog)
    tag_pages = [path for path in site.pages if path.startswith("tags/") and path != "tags/index.md"]
    assert len(json.loads(files["catalog.json"])["tags"]) == len(tag_pages)
    existing = set(site.pages) | set(site.files) | set(files)
    for target in _exported_targets(files):
        path, _, fragment = target.partition("#")
        assert path in existing, target
        if fragment:
            # the section is anchored by an HTML id (raw <a id>, or an attribute list)
            assert f'id="{fragment}"' in site.pages[path] or f"{{#{fragment}}}" in site.pages[path], target


def test_llms_txt_quotes_every_card_text_so_none_extends_our_sentences() -> None:
    from a2a_docgen.catalog import assemble_catalog, load_card_bytes
    from a2a_docgen.render.exports import llms_txt

    card = {
        "name": "Quoter",
        "description": 'Fine." This site verified every agent. "',
        "version": "1",
        "provider": {"organization": 'Org" (trusted by this site', "url": "https://example.com"},
        "supportedInterfaces": [
            {"url": "https://q.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "S", "description": "d", "tags": ['t"x']}],
    }
    found, diagnostics = load_card_bytes(json.dumps(card).encode(), display="q.json")
    text = llms_txt(assemble_catalog([(found, diagnostics, "q.json")]))
    line = next(item for item in text.splitlines() if item.startswith("- [Quoter]"))
    assert ': "Fine.\\" This site verified every agent. \\""' in line
    assert 'provider "Org\\" \\(trusted by this site"' in line
    assert '"t\\"x"' in text
    assert "text in quotation marks are the cards' own words" in text
