"""What 31 more real cards showed of checking, converting and the requests built for them (round three), as
reproducers written here: requests built on a guess, legacy members, URLs of custom bindings, modes that are no
media types, binding spellings."""

from __future__ import annotations

import copy
import json
from typing import Any

from a2a_docgen.catalog import load_card_bytes, load_catalog
from a2a_docgen.convert import convert_card
from a2a_docgen.model import AgentCard, Diagnostic
from a2a_docgen.render import render_catalog
from a2a_docgen.render.calling import request_targets
from a2a_docgen.render.requests import build_request

Card = dict[str, Any]


def load(card: Card) -> tuple[AgentCard, list[Diagnostic]]:
    loaded, diagnostics = load_card_bytes(json.dumps(card, indent=2).encode(), display="card.json")
    assert loaded is not None, diagnostics
    return loaded, diagnostics


def skill() -> Card:
    return {"id": "ask", "name": "Ask", "description": "Answers.", "tags": ["qa"], "examples": ["Hello"]}


def mixed_card() -> Card:
    """A card in both shapes: v0.3 members saying 0.3.0, and a v1.0 interface that states no version."""
    return {
        "name": "Mixed Agent",
        "description": "Answers questions.",
        "version": "1.0.0",
        "protocolVersion": "0.3.0",
        "url": "https://mixed.example.com/a2a",
        "supportedInterfaces": [{"url": "https://mixed.example.com/a2a", "protocolBinding": "JSONRPC"}],
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [skill()],
    }


def v03_card(**members: Any) -> Card:
    card: Card = {
        "name": "Registry Agent",
        "description": "Answers questions.",
        "version": "1.0.0",
        "protocolVersion": "0.3.0",
        "url": "https://registry.example.com/a2a",
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [skill()],
    }
    card.update(members)
    return card


def interfaces_of(card: Any) -> list[Card]:
    interfaces: list[Card] = card["supportedInterfaces"]
    return interfaces


def page_of(card: Card, tmp_path: Any) -> str:
    (tmp_path / "cards").mkdir(exist_ok=True)
    (tmp_path / "cards" / "agent.json").write_text(json.dumps(card, indent=2), encoding="utf-8")
    site = render_catalog(load_catalog([tmp_path / "cards"]))
    return next(
        text for path, text in site.pages.items() if path.startswith("agents/") and path.endswith("index.md")
    )


# -- requests built on a guess -------------------------------------------------------------------------------


def test_an_interface_whose_binding_is_a_transport_gets_no_request(tmp_path: Any) -> None:
    card = mixed_card()
    card["supportedInterfaces"].append({"url": "https://mixed.example.com/llms.txt", "transport": "https"})
    loaded, diagnostics = load(card)
    unknown = [d for d in diagnostics if d.code == "binding-unknown"]
    assert len(unknown) == 1
    assert "not a binding" in unknown[0].message
    targets, skipped = request_targets(loaded)
    assert [t.number for t in targets] == [1]
    assert [(s.number, s.reason) for s in skipped] == [(2, "its binding is not JSON-RPC, HTTP+JSON or gRPC")]
    assert build_request(loaded, loaded.skills[0], 0, loaded.interfaces[1]) is None
    assert "llms.txt/message:send" not in page_of(card, tmp_path)


def test_a_missing_interface_version_is_the_same_for_requests_and_convert(tmp_path: Any) -> None:
    card = mixed_card()
    loaded, _ = load(card)
    request = build_request(loaded, loaded.skills[0], 0)
    assert request is not None
    assert request.shape == "0.3"
    assert request.body["method"] == "message/send"
    assert ("A2A-Version", "1.0") not in request.headers
    conversion = convert_card(json.dumps(card).encode(), display="card.json")
    assert conversion.card is not None
    assert interfaces_of(conversion.card)[0]["protocolVersion"] == "0.3"
    assert any(
        n.code == "convert-guessed" and n.pointer == "/supportedInterfaces/0" for n in conversion.notes
    )


def test_a_v1_card_without_any_version_is_v1_for_both() -> None:
    card = mixed_card()
    del card["protocolVersion"], card["url"]
    loaded, _ = load(card)
    request = build_request(loaded, loaded.skills[0], 0)
    assert request is not None
    assert request.shape == "1.0"
    conversion = convert_card(json.dumps(card).encode(), display="card.json")
    assert conversion.card is not None
    assert interfaces_of(conversion.card)[0]["protocolVersion"] == "1.0"


def test_the_page_says_what_a_request_assumes_next_to_it(tmp_path: Any) -> None:
    page = page_of(mixed_card(), tmp_path)
    assert "**JSON-RPC v0.3, version assumed · curl**" in page
    assert (
        'it states no protocol version, and the requests assume 0.3, the card\'s top-level "protocolVersion"'
        in (page)
    )
    stated = copy.deepcopy(mixed_card())
    stated["supportedInterfaces"][0]["protocolVersion"] = "0.3"
    page = page_of(stated, tmp_path)
    assert "assumed" not in page


def test_a_binding_spelled_rest_is_assumed_http_json_and_said_so(tmp_path: Any) -> None:
    card = v03_card(preferredTransport="REST")
    loaded, diagnostics = load(card)
    (unknown,) = [d for d in diagnostics if d.code == "binding-unknown"]
    assert "case-sensitive" not in unknown.message
    assert '"HTTP+JSON/REST"' in unknown.message
    assert 'write "HTTP+JSON"' in unknown.message
    targets, _ = request_targets(loaded)
    assert [(t.binding, t.label, t.binding_assumed) for t in targets] == [
        ("HTTP+JSON", "HTTP+JSON v0.3, binding assumed", True)
    ]
    page = page_of(card, tmp_path)
    assert (
        "the card writes the binding `REST`, not a core name clients match, and the requests assume" in page
    )


def test_a_case_variant_is_still_called_case_sensitive() -> None:
    _, diagnostics = load(v03_card(preferredTransport="jsonrpc"))
    (unknown,) = [d for d in diagnostics if d.code == "binding-unknown"]
    assert "case-sensitive" in unknown.message
    assert 'write "JSONRPC"' in unknown.message


# -- checking and converting ----------------------------------------------------------------------------------

_LEGACY = {"schemes": [{"type": "bearer"}, {"type": "apiKey", "in": "header", "name": "X-Partner-Key"}]}


def test_legacy_authentication_objects_on_a_v03_card_are_warnings() -> None:
    _, diagnostics = load(v03_card(authentication=_LEGACY))
    inside = [d for d in diagnostics if d.pointer.startswith("/authentication/")]
    assert [(d.severity, d.code) for d in inside] == [("warning", "legacy-field")] * 2
    assert not [d for d in diagnostics if d.severity == "error"]


def test_legacy_authentication_objects_convert_to_their_schemes() -> None:
    conversion = convert_card(json.dumps(v03_card(authentication=_LEGACY)).encode(), display="card.json")
    assert conversion.card is not None
    assert conversion.card["securitySchemes"] == {
        "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
        "apiKey": {"apiKeySecurityScheme": {"location": "header", "name": "X-Partner-Key"}},
    }
    assert not [n for n in conversion.notes if n.code == "convert-dropped"]


def test_a_mailto_url_of_a_custom_binding_is_a_warning() -> None:
    card = v03_card(
        additionalInterfaces=[
            {"url": "mailto:agent@example.com", "transport": "https://example.com/bindings/email"}
        ]
    )
    _, diagnostics = load(card)
    (found,) = [d for d in diagnostics if d.pointer == "/additionalInterfaces/0/url"]
    assert (found.severity, found.code) == ("warning", "url-not-web")


def test_every_mode_that_is_no_media_type_has_one_severity() -> None:
    _, diagnostics = load(v03_card(defaultOutputModes=["text", "task-status"]))
    modes = [d for d in diagnostics if d.code == "media-type-invalid"]
    assert [d.severity for d in modes] == ["warning", "warning"]
