"""Smoke tests pinning what the a2a-sdk oracle says about the spec samples and small cards."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

try:
    from tests.support import sdk_oracle as oracle
except ModuleNotFoundError:  # only tests/ is on sys.path, not the repository root
    from support import sdk_oracle as oracle  # type: ignore[no-redef]

SPEC_DIR = Path(__file__).resolve().parents[2] / "shared" / "cards" / "spec"

pytestmark = pytest.mark.skipif(not oracle.sdk_available(), reason="a2a-sdk is not installed")


def spec_card(name: str) -> dict[str, Any]:
    path = SPEC_DIR / name
    if not path.is_file():
        pytest.skip(f"{path} is not available")
    card: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return card


def minimal_v1() -> dict[str, Any]:
    return {
        "name": "n",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [
            {"url": "https://a.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "s", "description": "d", "tags": ["t"]}],
    }


def minimal_v03(**extra: Any) -> dict[str, Any]:
    card: dict[str, Any] = {
        "protocolVersion": "0.3.0",
        "name": "n",
        "description": "d",
        "url": "https://a.example/rpc",
        "version": "1",
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "s", "description": "d", "tags": ["t"]}],
    }
    card.update(extra)
    return card


def interface_versions(card: dict[str, Any]) -> list[str | None]:
    return [iface.get("protocolVersion") for iface in card.get("supportedInterfaces", [])]


# --- spec samples -------------------------------------------------------------------------------


def test_main_sample_is_valid_v1() -> None:
    card = spec_card("spec-main-16ba5269-sample-card.json")
    assert oracle.sdk_parse_v1(card) == (True, "")
    assert oracle.sdk_required_fields_ok(card, strict=True) == (True, "")


def test_v101_sample_fails_strictly_on_stale_security() -> None:
    card = spec_card("spec-v1.0.1-sample-card.json")
    ok, error = oracle.sdk_parse_v1(card)
    assert not ok
    assert 'no field named "security"' in error
    # Ignoring the unknown member leaves a card with every REQUIRED field set.
    assert oracle.sdk_required_fields_ok(card) == (True, "")


def test_v100_sample_fails_strictly_on_state_transition_history() -> None:
    ok, error = oracle.sdk_parse_v1(spec_card("spec-v1.0.0-sample-card.json"))
    assert not ok
    assert '"stateTransitionHistory" at "AgentCard.capabilities"' in error


def test_v030_sample_is_not_v1() -> None:
    card = spec_card("spec-v0.3.0-sample-card.json")
    ok, error = oracle.sdk_parse_v1(card)
    assert not ok
    assert 'no field named "protocolVersion"' in error
    assert oracle.sdk_required_fields_ok(card) == (
        False,
        "supported_interfaces: Field must contain at least one element.",
    )


def test_v030_sample_interface_versions_per_route() -> None:
    card = spec_card("spec-v0.3.0-sample-card.json")
    resolved = oracle.sdk_convert_v03_card_resolver(card)
    modelled = oracle.sdk_convert_v03_compat_model(card)
    # The card declares "0.2.9": one route copies it everywhere, the other only to the first interface.
    assert interface_versions(resolved) == ["0.2.9"] * 4
    assert interface_versions(modelled) == ["0.2.9", "0.3", "0.3", "0.3"]
    for converted in (resolved, modelled):
        # The main url is repeated in additionalInterfaces; neither route removes the duplicate.
        assert [i["url"] for i in converted["supportedInterfaces"]][:2] == [card["url"]] * 2
        assert [i["protocolBinding"] for i in converted["supportedInterfaces"]] == [
            "JSONRPC",
            "JSONRPC",
            "GRPC",
            "HTTP+JSON",
        ]
        assert converted["securityRequirements"] == [
            {"schemes": {"google": {"list": ["openid", "profile", "email"]}}}
        ]
        assert converted["securitySchemes"] == {
            "google": {
                "openIdConnectSecurityScheme": {
                    "openIdConnectUrl": "https://accounts.google.com/.well-known/openid-configuration"
                }
            }
        }
        assert converted["capabilities"] == {
            "streaming": True,
            "pushNotifications": True,
            "extendedAgentCard": True,
        }
        assert oracle.sdk_parse_v1(converted) == (True, "")
        assert oracle.sdk_required_fields_ok(converted, strict=True) == (True, "")


def test_v030_sample_through_proto_route_loses_security() -> None:
    converted = oracle.sdk_convert_v03_compat_proto(spec_card("spec-v0.3.0-sample-card.json"))
    assert interface_versions(converted) == ["0.2.9", "0.3", "0.3", "0.3"]
    assert converted["securityRequirements"] == [{}]
    assert converted["securitySchemes"] == {"google": {"openIdConnectSecurityScheme": {}}}


# --- small synthetic cards (no shared files needed) ----------------------------------------------


def test_minimal_v1_card_passes_both_checks() -> None:
    assert oracle.sdk_parse_v1(minimal_v1()) == (True, "")
    assert oracle.sdk_required_fields_ok(minimal_v1(), strict=True) == (True, "")


def test_non_object_card_is_rejected() -> None:
    assert oracle.sdk_parse_v1([]) == (False, "card is a JSON list, not an object")
    ok, message = oracle.sdk_required_fields_ok("x")
    assert not ok
    assert message.startswith("unparseable: ")


@pytest.mark.parametrize(
    ("patch", "expected"),
    [
        ({"name": ""}, "name: Field is required."),
        ({"skills": []}, "skills: Field must contain at least one element."),
        (
            {"skills": [{"id": "s", "name": "s", "description": "d", "tags": []}]},
            "skills[0].tags: Field must contain at least one element.",
        ),
        (
            {"supportedInterfaces": [{"url": "https://a.example/rpc", "protocolBinding": "JSONRPC"}]},
            "supported_interfaces[0].protocol_version: Field is required.",
        ),
        (
            {
                "securitySchemes": {
                    "o": {
                        "oauth2SecurityScheme": {
                            "flows": {
                                "authorizationCode": {
                                    "authorizationUrl": "https://a/auth",
                                    "tokenUrl": "https://a/token",
                                    "scopes": {},
                                }
                            }
                        }
                    }
                }
            },
            "security_schemes[o].oauth2_security_scheme.flows.authorization_code.scopes: "
            "Field must contain at least one element.",
        ),
    ],
)
def test_required_field_violations(patch: dict[str, Any], expected: str) -> None:
    card = minimal_v1()
    card.update(patch)
    assert oracle.sdk_parse_v1(card) == (True, "")
    assert oracle.sdk_required_fields_ok(card) == (False, expected)


def test_required_check_ignores_empty_oneofs() -> None:
    card = minimal_v1()
    card["securitySchemes"] = {"empty": {}, "noflow": {"oauth2SecurityScheme": {"flows": {}}}}
    assert oracle.sdk_required_fields_ok(card) == (True, "")


def test_missing_card_level_version_defaults_differ_by_route() -> None:
    card = minimal_v03()
    del card["protocolVersion"]
    assert interface_versions(oracle.sdk_convert_v03_card_resolver(card)) == ["0.3.0"]
    assert interface_versions(oracle.sdk_convert_v03_compat_model(card)) == ["0.3.0"]
    assert interface_versions(oracle.sdk_convert_v03_compat_proto(card)) == ["0.3"]


@pytest.mark.parametrize("route", sorted(oracle.V03_ROUTES))
def test_missing_preferred_transport_means_jsonrpc(route: str) -> None:
    converted = oracle.V03_ROUTES[route](minimal_v03())
    assert [i["protocolBinding"] for i in converted["supportedInterfaces"]] == ["JSONRPC"]


def test_several_oauth_flows_split_the_routes() -> None:
    card = minimal_v03(
        securitySchemes={
            "o": {
                "type": "oauth2",
                "flows": {
                    "authorizationCode": {
                        "authorizationUrl": "https://a/auth",
                        "tokenUrl": "https://a/token",
                        "scopes": {"r": "read"},
                    },
                    "clientCredentials": {"tokenUrl": "https://a/token", "scopes": {"w": "write"}},
                },
            }
        }
    )
    with pytest.raises(oracle.SdkConversionError, match='multiple "flow" oneof fields'):
        oracle.sdk_convert_v03_card_resolver(card)
    flows = oracle.sdk_convert_v03_compat_model(card)["securitySchemes"]["o"]["oauth2SecurityScheme"]["flows"]
    assert list(flows) == ["clientCredentials"]


@pytest.mark.parametrize("route", ["card_resolver", "compat_model"])
def test_api_key_in_becomes_location_and_security_is_wrapped(route: str) -> None:
    card = minimal_v03(
        securitySchemes={
            "k": {"type": "apiKey", "in": "header", "name": "X-Key"},
            "m": {"type": "mutualTLS"},
        },
        security=[{"k": []}, {"m": []}],
    )
    card["skills"][0]["security"] = [{"k": []}]
    converted = oracle.V03_ROUTES[route](card)
    assert converted["securitySchemes"] == {
        "k": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}},
        "m": {"mtlsSecurityScheme": {}},
    }
    assert converted["securityRequirements"] == [{"schemes": {"k": {}}}, {"schemes": {"m": {}}}]
    assert converted["skills"][0]["securityRequirements"] == [{"schemes": {"k": {}}}]


def test_extended_card_false_and_state_history() -> None:
    card = minimal_v03(
        supportsAuthenticatedExtendedCard=False,
        capabilities={"streaming": True, "stateTransitionHistory": True},
    )
    # stateTransitionHistory is dropped by both; only the model route keeps an explicit false.
    assert oracle.sdk_convert_v03_card_resolver(card)["capabilities"] == {"streaming": True}
    assert oracle.sdk_convert_v03_compat_model(card)["capabilities"] == {
        "streaming": True,
        "extendedAgentCard": False,
    }


@pytest.mark.parametrize("route", sorted(oracle.V03_ROUTES))
def test_routes_leave_their_input_alone(route: str) -> None:
    card = minimal_v03(supportsAuthenticatedExtendedCard=True, security=[{"k": []}])
    before = copy.deepcopy(card)
    oracle.V03_ROUTES[route](card)
    assert card == before


@pytest.mark.parametrize("route", sorted(oracle.V03_ROUTES))
def test_routes_reject_non_objects(route: str) -> None:
    with pytest.raises(oracle.SdkConversionError, match="card is a JSON list"):
        oracle.V03_ROUTES[route]([])
