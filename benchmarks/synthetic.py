"""A deterministic synthetic catalogue: N agents x S skills, written as card files.

Cards alternate between v1.0 and v0.3 shapes and carry what real catalogues carry: JSON-string examples,
skill-level mode overrides, OAuth2 scopes per skill, several interfaces. The same (N, S) always gives the
same bytes, so runs compare.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

TAGS = [
    "maps", "routing", "billing", "search", "translation", "weather", "travel", "finance", "support",
    "analytics", "images", "documents", "calendar", "email", "security", "inventory", "shipping", "hr",
]  # fmt: skip
WORDS = [
    "plan", "route", "find", "compare", "summarise", "translate", "book", "cancel", "forecast", "track",
    "analyse", "extract", "classify", "schedule", "notify", "invoice", "refund", "reconcile", "audit", "recommend",
]  # fmt: skip


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def skill(rng: random.Random, agent: int, index: int, era: str) -> dict[str, Any]:
    payload = {
        "request": rng.choice(WORDS),
        "limit": rng.randint(1, 50),
        "filters": {"region": "eu", "agent": agent},
    }
    result: dict[str, Any] = {
        "id": f"skill-{agent:04d}-{index:02d}",
        "name": f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} {index}",
        "description": " ".join(_sentence(rng, 12) for _ in range(3)),
        "tags": sorted(rng.sample(TAGS, 3)),
        "examples": [_sentence(rng, 9), json.dumps(payload)],
    }
    if index % 3 == 0:
        result["inputModes"] = ["application/json"]
        result["examples"] = result["examples"][1:]  # a JSON-only skill takes no text example
    if index % 4 == 0:
        result["outputModes"] = ["application/json", "image/png"]
    if index % 5 == 0:
        scopes = ["catalog.read", "catalog.write"][: 1 + index % 2]
        result["securityRequirements" if era == "1.0" else "security"] = (
            [{"schemes": {"oauth": {"list": scopes}}}] if era == "1.0" else [{"oauth": scopes}]
        )
    return result


def card(agent: int, skills: int) -> dict[str, Any]:
    rng = random.Random(agent)
    era = "1.0" if agent % 2 == 0 else "0.3"
    host = f"https://agent-{agent:04d}.example.com"
    scopes = {"catalog.read": "Read the catalogue", "catalog.write": "Change the catalogue"}
    flows = {
        "authorizationCode": {
            "authorizationUrl": f"{host}/oauth/authorize",
            "tokenUrl": f"{host}/oauth/token",
            "scopes": scopes,
        }
    }
    base: dict[str, Any] = {
        "name": f"Agent {agent:04d} {rng.choice(WORDS).capitalize()}",
        "description": " ".join(_sentence(rng, 14) for _ in range(4)),
        "version": f"{1 + agent % 3}.{agent % 7}.0",
        "provider": {"organization": f"Org {agent % 17}", "url": f"https://org{agent % 17}.example.com"},
        "documentationUrl": f"{host}/docs",
        "capabilities": {"streaming": agent % 2 == 0, "pushNotifications": agent % 3 == 0},
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain", "application/json"],
        "skills": [skill(rng, agent, i, era) for i in range(skills)],
    }
    if era == "1.0":
        base["supportedInterfaces"] = [
            {"url": f"{host}/a2a/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": f"{host}/a2a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        ]
        base["securitySchemes"] = {"oauth": {"oauth2SecurityScheme": {"flows": flows}}}
        base["securityRequirements"] = [{"schemes": {"oauth": {"list": ["catalog.read"]}}}]
    else:
        base["protocolVersion"] = "0.3.0"
        base["url"] = f"{host}/a2a/v1"
        base["preferredTransport"] = "JSONRPC"
        base["additionalInterfaces"] = [{"url": f"{host}/a2a/rest", "transport": "HTTP+JSON"}]
        base["securitySchemes"] = {"oauth": {"type": "oauth2", "flows": flows}}
        base["security"] = [{"oauth": ["catalog.read"]}]
    return base


SITE_CONFIG = """site_name: Synthetic catalogue
docs_dir: docs
theme:
  name: material
  font: false
  features:
    - content.code.copy
plugins:
  - search
  - a2a-docgen:
      cards: cards
markdown_extensions:
  - toc:
      permalink: true
  - tables
  - fenced_code
"""
"""An mkdocs.yml for a project with the cards in ``cards/`` and an empty ``docs/``: the repository's theme."""


def write_catalogue(directory: Path, agents: int, skills: int) -> list[Path]:
    """Write ``agents`` card files into ``directory`` (created); returns their paths in order."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for agent in range(agents):
        path = directory / f"agent-{agent:04d}.json"
        path.write_text(json.dumps(card(agent, skills), indent=2) + "\n", encoding="utf-8")
        paths.append(path)
    return paths
