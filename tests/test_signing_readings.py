"""What is verified is what is shown: a card that reads two ways is never ``verified`` (docs/signing.md).

ProtoJSON (and so the a2a-sdk canonical form a signature covers) takes a field under its proto name too, the
later of two spellings winning, while the loader reads the JSON name. These attacks keep the signed bytes and
change what the page shows; each verified before.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.cli import main
from a2a_docgen.commands.jku import FetchingJkuResolver
from a2a_docgen.model import AgentCard, FetchRecord
from a2a_docgen.signing import Trust, verify_card
from a2a_docgen.signing.canonical import canonical_bytes, sdk_json
from a2a_docgen.signing.keys import Key, jwk_key
from a2a_docgen.signing.readings import divergent_readings
from a2a_docgen.signing.schema import MESSAGES, ROOT
from a2a_docgen.signing.sign import sign_card

pytest.importorskip("a2a.utils.signing", reason="a2a-sdk (test extra) is not installed")

try:
    from tests.test_signing import CARD, key_for, public_jwk, sdk_sign, trust
except ModuleNotFoundError:  # pragma: no cover
    from test_signing import CARD, key_for, public_jwk, sdk_sign, trust  # type: ignore[no-redef]

EVIL = [{"url": "https://evil.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]


def load(card: dict[str, Any], name: str = "card.json", **source: Any) -> tuple[AgentCard, list[Any]]:
    text = json.dumps(card, indent=2, ensure_ascii=False).encode("utf-8")
    found, diagnostics = load_card_bytes(text, display=name, **source)
    assert found is not None
    return found, diagnostics


def aliased(served: dict[str, Any]) -> dict[str, Any]:
    """The issue's attack: the signed values moved to the proto names, other values put before them under the
    JSON names. ProtoJSON reads the later ones, so the signed bytes do not change."""
    out: dict[str, Any] = {}
    for name, value in served.items():
        if name == "supportedInterfaces":
            out["supportedInterfaces"] = EVIL
            out["supported_interfaces"] = value
        elif name == "securityRequirements":
            out["securityRequirements"] = []
            out["security_requirements"] = value
        else:
            out[name] = value
    return out


def test_an_alias_attack_keeps_the_signed_bytes_and_is_never_verified(tmp_path: Path, capsys: Any) -> None:
    key = key_for("ES256")
    served = sdk_sign(CARD, key, "k1", "ES256")
    attack = aliased(served)
    assert canonical_bytes(attack, "sdk") == canonical_bytes(served, "sdk")  # the signature still matches
    card, _ = load(attack)
    assert card.interfaces[0].url == "https://evil.example/a2a"  # what the page would show
    result = verify_card(card, trust(public_jwk(key, "k1")))
    assert result.status == "invalid"
    assert "what the site shows is not what was signed" in result.signatures[0].reason
    # the card as signed still verifies
    assert verify_card(load(served)[0], trust(public_jwk(key, "k1"))).status == "verified"

    (tmp_path / "card.json").write_text(json.dumps(attack, indent=2), encoding="utf-8")
    (tmp_path / "keys.json").write_text(json.dumps({"keys": [public_jwk(key, "k1")]}), encoding="utf-8")
    code = main(
        [
            "check",
            "--format",
            "json",
            "--jwks",
            str(tmp_path / "keys.json"),
            "--require-signature",
            str(tmp_path / "card.json"),
        ]
    )
    assert code == 1
    report = json.loads(capsys.readouterr().out)
    found = report["diagnostics"] if isinstance(report, dict) else report
    aliases = [d for d in found if d["code"] == "member-alias"]
    assert {d["pointer"] for d in aliases} == {"/supported_interfaces", "/security_requirements"}
    text = (tmp_path / "card.json").read_text(encoding="utf-8").splitlines()
    for d in aliases:
        assert text[d["line"] - 1][d["column"] - 1 :].startswith(json.dumps(d["pointer"][1:]))


def test_an_alias_at_depth_is_an_error_in_an_unsigned_card_too() -> None:
    card = copy.deepcopy(CARD)
    card["securitySchemes"] = {
        "o": {
            "oauth2SecurityScheme": {
                "flows": {
                    "clientCredentials": {
                        "token_url": "https://good.example/token",
                        "tokenUrl": "https://evil.example/token",
                        "scopes": {},
                    }
                }
            }
        }
    }
    card["securityRequirements"] = [{"schemes": {"o": {"list": []}}}]
    from a2a_docgen.catalog import assemble_catalog

    found, diagnostics = load(card)
    catalog = assemble_catalog([(found, diagnostics, "card.json")])
    alias = [d for d in catalog.diagnostics if d.code == "member-alias"]
    assert [d.pointer for d in alias] == [
        "/securitySchemes/o/oauth2SecurityScheme/flows/clientCredentials/tokenUrl"
    ]
    assert alias[0].severity == "error"


def test_v03_members_mapped_onto_a_proto_name_are_aliases() -> None:
    card = {**CARD, "url": "https://evil.example/a2a"}
    card["supported_interfaces"] = card.pop("supportedInterfaces")
    card["security"] = [{"bearer": []}]
    card["security_requirements"] = card.pop("securityRequirements")
    card["securitySchemes"] = {"k": {"type": "apiKey", "in": "header", "location": "query", "name": "K"}}
    pointers = {r.pointer for r in divergent_readings(card) if r.alias}
    assert pointers == {"/supported_interfaces", "/security_requirements", "/securitySchemes/k/location"}


def test_a_proto_name_alone_is_not_verified() -> None:
    key = key_for("ES256")
    served = sdk_sign(CARD, key, "k1", "ES256")
    renamed = {("default_input_modes" if k == "defaultInputModes" else k): v for k, v in served.items()}
    assert canonical_bytes(renamed, "sdk") == canonical_bytes(served, "sdk")
    result = verify_card(load(renamed)[0], trust(public_jwk(key, "k1")))
    assert result.status == "invalid"
    assert "/default_input_modes" in result.signatures[0].reason


def test_a_number_beyond_double_precision_is_not_shown_as_verified() -> None:
    key = key_for("ES256")
    card = copy.deepcopy(CARD)
    card["capabilities"]["extensions"][0]["params"] = {"amount": 2**60 + 1}
    served = sdk_sign(card, key, "k1", "ES256")
    assert served["capabilities"]["extensions"][0]["params"]["amount"] == float(2**60)
    shown = copy.deepcopy(served)
    shown["capabilities"]["extensions"][0]["params"]["amount"] = 2**60 + 1
    assert canonical_bytes(shown, "sdk") == canonical_bytes(served, "sdk")
    result = verify_card(load(shown)[0], trust(public_jwk(key, "k1")))
    assert result.status == "invalid"
    assert "beyond double precision" in result.signatures[0].reason
    exact = copy.deepcopy(served)
    exact["capabilities"]["extensions"][0]["params"]["amount"] = 2**60  # a double holds it: shown as signed
    assert verify_card(load(exact)[0], trust(public_jwk(key, "k1"))).status == "verified"


# -- jku: the signer is not its own trust root ---------------------------------------------------------------


class _ServedJku(FetchingJkuResolver):
    """The real origin rules and anchor, with the JWK set served from memory."""

    def __init__(self, keys: tuple[Key, ...], allowed: tuple[str, ...] = ()) -> None:
        super().__init__(allowed)
        self.served = keys

    def _fetch(self, url: str) -> tuple[tuple[Key, ...], str | None]:
        return self.served, None


def test_a_jku_on_an_origin_only_the_card_names_is_unanchored() -> None:
    key = key_for("ES256")
    jku = "https://agent.example.com/.well-known/jwks.json"  # the card's own interface origin
    served = sdk_sign(CARD, key, "k1", "ES256", jku=jku)
    keys = (jwk_key(public_jwk(key, "k1"), f"jku {jku}"),)
    card, _ = load(served)
    result = verify_card(card, Trust(jku=_ServedJku(keys)))
    assert result.status == "unanchored", result.signatures[0].reason
    assert "only the signature's own jku" in result.signatures[0].reason
    # anchored by an explicit --jku-origin, or by the origin fetch recorded
    assert verify_card(card, Trust(jku=_ServedJku(keys, ("https://agent.example.com",)))).status == "verified"
    record = FetchRecord(url="https://agent.example.com/.well-known/agent-card.json", requested="x")
    fetched, _ = load(served, fetched=record)
    assert verify_card(fetched, Trust(jku=_ServedJku(keys))).status == "verified"


def test_check_reports_an_unanchored_signature(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    key = key_for("ES256")
    jku = "https://agent.example.com/.well-known/jwks.json"
    (tmp_path / "card.json").write_text(
        json.dumps(sdk_sign(CARD, key, "k1", "ES256", jku=jku)), encoding="utf-8"
    )
    keys = (jwk_key(public_jwk(key, "k1"), f"jku {jku}"),)
    monkeypatch.setattr(FetchingJkuResolver, "_fetch", lambda self, url: (keys, None))
    assert main(["check", "--trust-jku", "--require-signature", str(tmp_path / "card.json")]) == 1
    out = capsys.readouterr().out
    assert "signature-unanchored" in out


# -- property: whatever alias is injected, a card never verifies with a shown value that differs --------------


def _alias_sites(value: Any, type_name: str, path: tuple[Any, ...]) -> list[tuple[tuple[Any, ...], str, str]]:
    """(path of a message object, JSON name, proto name) for every two-word field the object holds."""
    if not isinstance(value, dict):
        return []
    out = []
    for field in MESSAGES[type_name]:
        if field.json not in value or field.name == "signatures":
            continue
        if field.json != field.name:
            out.append((path, field.json, field.name))
        if field.kind == "message" and field.message is not None:
            item = value[field.json]
            if field.map and isinstance(item, dict):
                for k, v in item.items():
                    out += _alias_sites(v, field.message, (*path, field.json, k))
            elif field.repeated and isinstance(item, list):
                for i, v in enumerate(item):
                    out += _alias_sites(v, field.message, (*path, field.json, i))
            elif not field.repeated:
                out += _alias_sites(item, field.message, (*path, field.json))
    return out


_KEY = key_for("ES256")
_SIGNED = sdk_sign(
    {
        **CARD,
        "securitySchemes": {
            **CARD["securitySchemes"],
            "o": {
                "oauth2SecurityScheme": {
                    "flows": {
                        "authorizationCode": {
                            "authorizationUrl": "https://example.com/auth",
                            "tokenUrl": "https://example.com/token",
                            "scopes": {"read": "Read"},
                        }
                    },
                    "oauth2MetadataUrl": "https://example.com/.well-known/oauth",
                }
            },
        },
        "documentationUrl": "https://example.com/docs",
        "skills": [{**CARD["skills"][0], "inputModes": ["text/plain"], "outputModes": ["image/png"]}],
    },
    _KEY,
    "k1",
    "ES256",
)
_SITES = _alias_sites(_SIGNED, ROOT, ())


def _at(card: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        card = card[step]
    return card


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    site=st.sampled_from(_SITES),
    before=st.booleans(),
    keep_json_name=st.booleans(),
    replacement=st.sampled_from(["keep", "evil", "empty"]),
)
def test_injected_aliases_never_verify_with_a_shown_value_that_is_not_signed(
    site: tuple[tuple[Any, ...], str, str], before: bool, keep_json_name: bool, replacement: str
) -> None:
    path, json_name, proto_name = site
    card = copy.deepcopy(_SIGNED)
    obj = _at(card, path)
    signed_value = obj[json_name]
    other: Any = {
        "keep": signed_value,
        "evil": json.loads(json.dumps(signed_value).replace("example.com", "evil.example")),
        "empty": [] if isinstance(signed_value, list) else {} if isinstance(signed_value, dict) else "",
    }[replacement]
    members = list(obj.items())
    obj.clear()
    for name, value in members:
        if name != json_name:
            obj[name] = value
            continue
        pair = (
            [(json_name, other), (proto_name, signed_value)]
            if keep_json_name
            else [(proto_name, signed_value)]
        )
        for k, v in reversed(pair) if not before else pair:
            obj[k] = v
    found, _ = load(card)
    result = verify_card(found, trust(public_jwk(_KEY, "k1")))
    assert result.status != "verified"
    readings = divergent_readings(card)
    assert any(r.alias for r in readings) == keep_json_name


def test_the_model_is_compared_with_the_signed_value() -> None:
    """The second net (``signing.shown``) compares the model with the signed value: the card as signed passes,
    a scheme read by another kind than the signed one, and interfaces the signed value lacks, are named."""
    from a2a_docgen.signing.shown import unsigned_shown_value

    key = key_for("ES256")
    served = sdk_sign(CARD, key, "k1", "ES256")
    shown, _ = load(served)
    assert unsigned_shown_value(shown, sdk_json(served)) is None
    card = copy.deepcopy(served)
    card["securitySchemes"]["bearer"] = {
        "type": "custom",
        "apiKeySecurityScheme": {"location": "header", "name": "K"},
    }
    found, _ = load(card)
    assert found.security_schemes["bearer"].kind == "unknown"
    # a2a-sdk's mapping leaves an unknown "type" in place and ProtoJSON reads the wrapper: signed as an API key
    assert unsigned_shown_value(found, sdk_json(card)) == (
        "the security scheme 'bearer' is shown as unknown, signed as apiKey"
    )
    evil = copy.deepcopy(served)
    evil["supportedInterfaces"] = EVIL
    found, _ = load(evil)
    assert "evil.example" in (unsigned_shown_value(found, sdk_json(served)) or "")


def test_a_requirement_without_scopes_is_not_covered_by_the_sdk_form() -> None:
    """The sdk form drops an empty scope list and the requirement with it: removing the requirement (the page
    would say no authentication is needed) keeps the signed bytes, so the member is reported as uncovered."""
    from a2a_docgen.signing.canonical import uncovered_pointers

    key = key_for("ES256")
    served = sdk_sign(CARD, key, "k1", "ES256")
    stripped = {k: v for k, v in served.items() if k != "securityRequirements"}
    assert canonical_bytes(stripped, "sdk") == canonical_bytes(served, "sdk")
    assert "/securityRequirements/0/schemes/bearer" in uncovered_pointers(served)
    result = verify_card(load(served)[0], trust(public_jwk(key, "k1")))
    assert result.status == "verified"
    assert "/securityRequirements/0/schemes/bearer" in result.uncovered


def signed_by_the_project(card: dict[str, Any]) -> tuple[dict[str, Any], Trust]:
    """``card`` signed with ``a2a-docgen sign``'s signer, and the trust that verifies it."""
    from tests.test_signing import pem

    key = key_for("ES256", "own-signer")
    signed = sign_card(copy.deepcopy(card), pem(key), kid="k1")
    return signed.card, trust(public_jwk(key, "k1"))


@pytest.mark.parametrize(
    ("added", "pointer"),
    [
        # v1.0: an empty requirement, read as "no authentication"; dropped from the signed bytes with its list
        ({"securityRequirements": [{}]}, "/skills/0/securityRequirements/0"),
        # the v0.3 member, which this site reads for a v1.0 card without securityRequirements, and a2a-sdk too
        ({"security": [{}]}, "/skills/0/security/0"),
        # a v0.3 requirement of a scheme without scopes: a2a-sdk maps it, then drops the empty scope list
        ({"security": [{"bearer": []}]}, "/skills/0/security/0"),
    ],
)
def test_a_skill_requirement_added_after_signing_is_named_as_not_covered(
    added: dict[str, Any], pointer: str, tmp_path: Path
) -> None:
    """The skill's page and requests change (no authentication: no Authorization header), the signature still
    verifies: the member is named wherever the card says what the signature covers."""
    from a2a_docgen.catalog import load_catalog
    from a2a_docgen.render import render_catalog

    card = copy.deepcopy(CARD)
    card["securityRequirements"] = [{"schemes": {"bearer": {"list": ["read"]}}}]  # signed, with scopes
    served, keys = signed_by_the_project(card)
    served["skills"][0].update(added)
    assert canonical_bytes(served, "sdk") == canonical_bytes(card, "sdk")
    found, _ = load(served)
    assert found.skills[0].effective_security.requirements != found.security_requirements  # shown changed
    result = verify_card(found, keys)
    assert result.status == "verified"
    assert pointer in result.uncovered
    (tmp_path / "card.json").write_text(json.dumps(served), encoding="utf-8")
    catalog = load_catalog([str(tmp_path / "card.json")], trust=keys)
    assert any(d.code == "signature-uncovered" and pointer in d.message for d in catalog.diagnostics)
    [page] = [
        text
        for path, text in render_catalog(catalog).pages.items()
        if path.endswith("/index.md") and path.startswith("agents/")
    ]
    header = next(line for line in page.splitlines() if line.startswith("- **Signature:**"))
    assert "Signature verified" in header
    assert "it does not cover" in header
    assert f"`{pointer}`" in page.split("The signature does not cover", 1)[1].split("\n", 1)[0]


def test_the_signer_names_what_its_signature_does_not_cover() -> None:
    card = copy.deepcopy(CARD)
    card["skills"][0]["securityRequirements"] = [{}]
    key = key_for("ES256", "own-signer")
    from tests.test_signing import pem

    assert "/skills/0/securityRequirements/0" in sign_card(card, pem(key), kid="k1").uncovered


def test_a_card_signed_as_written_has_no_shown_value_left_unfixed() -> None:
    """The model-derived check names nothing for a card whose shown values are all in the signed form: the v1.0
    test card (its requirement with a scope: without one, it is not signed), and an agent written in v0.3
    (mapped interfaces, a repeated one, security, scheme types, a flag that is off)."""
    from a2a_docgen.signing.shown import unfixed_pointers

    v03 = {
        "name": "Route Agent",
        "description": "Plans routes",
        "version": "1.0.0",
        "url": "https://agent.example.com/a2a",
        "preferredTransport": "JSONRPC",
        "protocolVersion": "0.3.0",
        "additionalInterfaces": [{"url": "https://agent.example.com/a2a", "transport": "JSONRPC"}],
        "capabilities": {"streaming": True},
        "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        "security": [{"key": ["read"]}],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"], "security": [{"key": ["w"]}]}],
        "supportsAuthenticatedExtendedCard": False,
    }
    v10 = copy.deepcopy(CARD)
    v10["securityRequirements"] = [{"schemes": {"bearer": {"list": ["read"]}}}]
    for card in (v10, v03):
        found, _ = load(card)
        assert unfixed_pointers(found, sdk_json(card)) == ()
