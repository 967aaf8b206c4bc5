"""Small cards made in a test, and a catalogue of them as the loader builds it from files."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from a2a_docgen.catalog import assemble_catalog, load_card_bytes
from a2a_docgen.model import Catalog

__all__ = ["catalog_of_cards", "small_card"]


def small_card(name: str, skills: list[dict[str, Any]]) -> dict[str, Any]:
    """A valid v1.0 card named ``name``, with one JSON-RPC interface, text modes and ``skills``."""
    return {
        "name": name,
        "description": "d",
        "version": "1",
        "supportedInterfaces": [
            {"url": "https://a.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": skills,
    }


def catalog_of_cards(cards: Sequence[dict[str, Any]]) -> Catalog:
    """The catalogue of ``cards``, each loaded as the file ``cards/cNN.json`` would be."""
    loaded = []
    for index, data in enumerate(cards):
        display = f"cards/c{index:02}.json"
        found, diagnostics = load_card_bytes(json.dumps(data, indent=2).encode(), display=display)
        loaded.append((found, diagnostics, display))
    return assemble_catalog(loaded)
