"""One bad card never loses the others, and never a traceback: load -> render -> the plugin's conversion.

Hostile strings (every engine's template openers, preprocessor markers, control and bidi characters, character
references, very long text) go into any string of a card, member names included (scheme names, scope names,
params keys), and the card is built beside two ordinary ones. Nothing raises, and the other agents' pages,
Markdown and HTML, are byte for byte those of a build without the hostile card.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from a2a_docgen.catalog import assemble_catalog, load_card_bytes
from a2a_docgen.html import to_html
from a2a_docgen.render import render_catalog
from a2a_docgen.render.env import TemplateEnvs

HOSTILE = [
    "{{ config.extra.canary }}",
    "{% raw %}x{% endraw %}",
    "{# note #}",
    "{%- if true -%}",
    "{-- x --}",
    "{++ x ++}",
    "{~~ a ~> b ~~}",
    "{== x ==}",
    "{>> x <<}",
    "{! README.md !}",
    "--8<-- /etc/passwd",
    "x\n;--8<-- 'secret.txt'",
    "a\x00b",
    "\x1b[31mred\x1b[0m",
    "ab\u202ecd",
    "\u200bzero",
    "www.pay.example/&#x202e;",
    "www.&lt;/title&gt;x",
    "&#64;octocat &#35;1",
    "<script>alert(1)</script>",
    "```\n# heading\n```",
    "x" * 3000,
    "word " * 600,
    "\ud800",
    "",
    " ",
]


def base_card(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"{name} does things.",
        "version": "1.0.0",
        "supportedInterfaces": [
            {
                "url": f"https://{name.lower()}.example/a2a",
                "protocolBinding": "JSONRPC",
                "protocolVersion": "1.0",
            },
            {
                "url": f"https://{name.lower()}.example/rest",
                "protocolBinding": "HTTP+JSON",
                "protocolVersion": "1.0",
            },
        ],
        "provider": {"organization": "Example", "url": "https://example.com"},
        "documentationUrl": "https://example.com/docs",
        "capabilities": {
            "streaming": True,
            "extensions": [
                {"uri": "https://example.com/ext", "description": "An extension", "params": {"k": "v"}}
            ],
        },
        "securitySchemes": {
            "key": {
                "apiKeySecurityScheme": {"location": "header", "name": "X-Api-Key", "description": "A key"}
            },
            "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}},
            "oauth": {
                "oauth2SecurityScheme": {
                    "flows": {
                        "clientCredentials": {
                            "tokenUrl": "https://example.com/token",
                            "scopes": {"read": "Read things"},
                        }
                    }
                }
            },
        },
        "securityRequirements": [
            {"schemes": {"key": {"list": []}}},
            {"schemes": {"oauth": {"list": ["read"]}}},
        ],
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {
                "id": "search",
                "name": "Search",
                "description": "Searches things.",
                "tags": ["search", "web"],
                "examples": ["find cats", '{"query": "cats"}'],
                "inputModes": ["text/plain"],
            },
            {
                "id": "summarise",
                "name": "Summarise",
                "description": "Summarises.",
                "tags": ["text"],
                "examples": ["summarise this"],
                "securityRequirements": [{"schemes": {"bearer": {"list": []}}}],
            },
        ],
    }


OTHERS = [base_card("Alpha"), base_card("Beta")]
LABELS = ["alpha", "beta"]
"""The other cards' file names: the same in every build."""


def _sites(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], bool]]:
    """``(path, is a member name)`` of every string of ``value``."""
    out: list[tuple[tuple[Any, ...], bool]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            out.append(((*path, key), True))
            out += _sites(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _sites(item, (*path, index))
    elif isinstance(value, str):
        out.append((path, False))
    return out


TARGET = base_card("Hostile")
SITES = _sites(TARGET)


def _inject(card: dict[str, Any], path: tuple[Any, ...], is_key: bool, text: str) -> None:
    *parents, last = path
    owner: Any = card
    for step in parents:
        owner = owner[step]
    if not is_key:
        owner[last] = text
    elif isinstance(owner, dict) and last in owner and text not in owner:
        items = list(owner.items())
        owner.clear()
        owner.update({(text if k == last else k): v for k, v in items})


def build(cards: list[dict[str, Any]], envs: TemplateEnvs) -> Any:
    loaded = []
    for index, data in enumerate(cards):
        display = f"cards/{LABELS[index - len(cards) + len(OTHERS)] if index >= len(cards) - len(OTHERS) else 'hostile'}.json"
        text = json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8", "surrogatepass")
        found, diagnostics = load_card_bytes(text, display=display)
        loaded.append((found, diagnostics, display))
    catalog = assemble_catalog(loaded)
    return catalog, render_catalog(catalog, envs=envs)


def _agent_output(site: Any, name: str) -> tuple[str, str]:
    for path, text in site.pages.items():
        if path.startswith("agents/") and f"\n# {name}" in text:
            return text, to_html(text).html  # the plugin's converter, as its own pass runs it
    raise AssertionError(f"no page for {name}")


@pytest.fixture(scope="module")
def clean_output(template_envs: TemplateEnvs) -> dict[str, tuple[str, str]]:
    """The other agents' pages, Markdown and HTML, in a catalogue without the hostile card."""
    _, clean = build(OTHERS, template_envs)
    return {name: _agent_output(clean, name) for name in ("Alpha", "Beta")}


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(
    injections=st.lists(
        st.tuples(st.sampled_from(SITES), st.one_of(st.sampled_from(HOSTILE), st.text(max_size=12))),
        min_size=1,
        max_size=8,
    )
)
@example(  # the case: a template opener in a scheme name whose API-key name cannot go into a command
    injections=[
        (
            (("securitySchemes", "key", "apiKeySecurityScheme", "name"), False),
            "X Key {{ config.extra.canary }}\n",
        ),
        ((("securitySchemes", "key"), True), "{{ config.extra.canary }}"),
        ((("securityRequirements", 0, "schemes", "key"), True), "{{ config.extra.canary }}"),
    ]
)
def test_a_hostile_card_never_breaks_the_build_nor_changes_other_pages(
    template_envs: TemplateEnvs,
    clean_output: dict[str, tuple[str, str]],
    injections: list[tuple[tuple[tuple[Any, ...], bool], str]],
) -> None:
    card = copy.deepcopy(TARGET)
    for (path, is_key), text in injections:
        try:
            _inject(card, path, is_key, text)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier injection renamed a member on this path
    catalog, site = build([card, *OTHERS], template_envs)
    for name in ("Alpha", "Beta"):
        assert _agent_output(site, name) == clean_output[name]
    assert len([p for p in site.pages if p.startswith("agents/")]) == len(catalog.cards)
