"""The rules calibrated on real cards: one test per point where ``check`` was wrong or harsher than the spec."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.model import AgentCard
from a2a_docgen.validate.rules import catalog_rules
from tests.support import sdk_oracle
from tests.test_validate import assert_at, codes, diagnose, interface, only, v03_card, v1_card

# -- a v0.3-shaped card that announces 1.0 ------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["1.0", "1.0.0", "1.1"])
def test_a_v03_card_announcing_1_0_warns_and_says_what_to_write(version: str) -> None:
    text, diagnostics = diagnose(v03_card(protocolVersion=version))
    d = only(diagnostics, "era-mismatch")
    assert_at(d, "warning", "/protocolVersion", text, json.dumps(version))
    assert '"protocolVersion": "0.3.0"' in d.message
    assert '"supportedInterfaces"' in d.message
    assert {x.severity for x in diagnostics} == {"warning"}


def test_a_card_announcing_1_0_without_url_is_told_to_add_v1_interfaces_not_a_url() -> None:
    card = v03_card(protocolVersion="1.0")
    del card["url"]
    _, diagnostics = diagnose(card)
    era = only(diagnostics, "era-mismatch")
    assert 'no "url"' in era.message
    assert 'its "url"' not in era.message
    assert '"protocolVersion": "0.3.0"' not in era.message
    missing = only(diagnostics, "required-missing")
    assert missing.pointer == ""
    assert '"supportedInterfaces"' in missing.message
    assert '"url" is missing' not in missing.message


@pytest.mark.parametrize("version", ["0.3.0", "0.3", "0.2.9"])
def test_a_v0_card_announcing_its_own_era_is_clean(version: str) -> None:
    assert "era-mismatch" not in codes(diagnose(v03_card(protocolVersion=version))[1])


def test_why_it_matters_the_sdk_reads_such_a_card_as_a_1_0_agent() -> None:
    sdk_oracle.skip_unless_sdk()
    converted = sdk_oracle.sdk_convert_v03_card_resolver(v03_card(protocolVersion="1.0"))
    assert [i["protocolVersion"] for i in converted["supportedInterfaces"]] == ["1.0"]


def test_a_v1_card_with_v1_interfaces_is_no_era_mismatch() -> None:
    assert "era-mismatch" not in codes(diagnose(v1_card())[1])


# -- bare "text" as a media type ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["text", "Text", "json"])
def test_a_bare_word_media_type_is_a_warning_with_the_type_to_write(mode: str) -> None:
    text, diagnostics = diagnose(v03_card(defaultInputModes=[mode]))
    d = only(diagnostics, "media-type-invalid")
    assert_at(d, "warning", "/defaultInputModes/0", text, json.dumps(mode))
    assert "did you mean" in d.message
    assert "error" not in {x.severity for x in diagnostics}


@pytest.mark.parametrize("mode", ["text/", "plain text", "text/plain;", "", "x", "task-status"])
def test_other_modes_that_are_no_media_type_are_warnings_too(mode: str) -> None:
    # One rule for every string that is no media type (round three): a real card's "task-status" beside its
    # "text" was an error beside a warning; neither stops the card loading, both defeat matching.
    diagnostics = diagnose(v03_card(defaultInputModes=["text/plain", mode]))[1]
    assert [d.severity for d in diagnostics if d.code == "media-type-invalid"] == ["warning"]


def test_a_bare_text_mode_does_not_make_text_examples_misfit() -> None:
    card = v03_card(defaultInputModes=["text"])
    card["skills"][0]["examples"] = ["What is a test?"]
    assert "example-mode-mismatch" not in codes(diagnose(card)[1])


# -- placeholder-looking URLs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://YOUR-RENDER-SERVICE.onrender.com/a2a/",
        "https://agent.example.com/YOUR_AGENT_ID/a2a",
    ],
)
def test_a_valid_url_with_a_placeholder_looking_part_is_a_warning(url: str) -> None:
    text, diagnostics = diagnose(v1_card(supportedInterfaces=[interface(url)]))
    d = only(diagnostics, "url-placeholder")
    assert_at(d, "warning", "/supportedInterfaces/0/url", text, json.dumps(url))
    assert "url-invalid" not in codes(diagnostics)


@pytest.mark.parametrize(
    "url",
    [
        "YOUR_AGENT_URL",
        "/YOUR_PATH/a2a",
        "{BASE_URL}/a2a",
        "https://<LOOKER_URL>/a2a",
        "https://agent.example.com/${AGENT_ID}",
        "https://agent.example.com/%AGENT_ID%",
        "ftp://YOUR-HOST.example.com/",
    ],
)
def test_relative_non_http_or_unusable_placeholders_stay_errors(url: str) -> None:
    diagnostics = diagnose(v1_card(supportedInterfaces=[interface(url)]))[1]
    assert only(diagnostics, "url-invalid").severity == "error"
    assert "url-placeholder" not in codes(diagnostics)


def test_a_placeholder_in_an_extension_uri_that_is_a_valid_uri_warns() -> None:
    card = v1_card(capabilities={"extensions": [{"uri": "urn:YOUR_ORG:ext"}]})
    assert only(diagnose(card)[1], "url-placeholder").severity == "warning"


# -- duplicate agent names -------------------------------------------------------------------------------------------


def _loaded(card: dict[str, Any], display: str) -> AgentCard:
    loaded, _ = load_card_bytes(json.dumps(card, indent=2).encode(), display=display)
    assert loaded is not None
    return loaded


def test_duplicate_agent_names_are_a_warning() -> None:
    # The spec's own samples of three eras share one name.
    found = catalog_rules([_loaded(v1_card(), "a.json"), _loaded(v03_card(), "b.json")])
    assert [(d.file, d.code, d.severity) for d in found] == [("b.json", "duplicate-agent-name", "warning")]
    assert "interface URL" in found[0].message


# -- scopes for schemes that have none ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scheme", "kind"),
    [
        ({"httpAuthSecurityScheme": {"scheme": "Bearer"}}, "HTTP authentication"),
        ({"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}}, "API key"),
        ({"mtlsSecurityScheme": {}}, "mutual TLS"),
    ],
)
def test_scopes_for_a_scheme_without_scopes_warn(scheme: dict[str, Any], kind: str) -> None:
    card = v1_card(
        securitySchemes={"auth": scheme},
        securityRequirements=[{"schemes": {"auth": {"list": ["admin", "read"]}}}],
    )
    text, diagnostics = diagnose(card)
    d = only(diagnostics, "non-oauth-scopes")
    assert_at(d, "warning", "/securityRequirements/0/schemes/auth/list/0", text, '"admin"')
    assert kind in d.message
    assert "error" not in {x.severity for x in diagnostics}


def test_scopes_for_oauth2_and_openid_connect_are_fine() -> None:
    card = v03_card(
        securitySchemes={
            "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://id.example.com/.well-known"}
        },
        security=[{"oidc": ["openid", "email"]}],
    )
    assert "non-oauth-scopes" not in codes(diagnose(card)[1])


def test_v03_skill_scopes_for_a_bearer_scheme_warn_in_the_v03_shape() -> None:
    card = v03_card(securitySchemes={"bearer": {"type": "http", "scheme": "Bearer"}})
    card["skills"][0]["security"] = [{"bearer": ["write"]}]
    text, diagnostics = diagnose(card)
    d = only(diagnostics, "non-oauth-scopes")
    assert_at(d, "warning", "/skills/0/security/0/bearer/0", text, '"write"')
    assert "[]" in d.message


# -- schemes declared and never required -------------------------------------------------------------------------------


def test_a_scheme_no_requirement_names_warns_at_its_name() -> None:
    card = v1_card(
        securitySchemes={
            "used": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
            "spare": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}},
        },
        securityRequirements=[{"schemes": {"used": {}}}],
    )
    text, diagnostics = diagnose(card)
    d = only(diagnostics, "scheme-unused")
    assert_at(d, "warning", "/securitySchemes/spare", text, '"spare"')
    assert '"securityRequirements": [{"schemes": {"spare": {}}}]' in d.message


def test_a_scheme_required_by_a_skill_only_is_used() -> None:
    card = v03_card(securitySchemes={"bearer": {"type": "http", "scheme": "Bearer"}})
    card["skills"][0]["security"] = [{"bearer": []}]
    assert "scheme-unused" not in codes(diagnose(card)[1])


def test_schemes_without_any_requirement_each_warn_in_the_card_s_era() -> None:
    card = v03_card(securitySchemes={"a": {"type": "mutualTLS"}, "b": {"type": "http", "scheme": "Basic"}})
    found = [d for d in diagnose(card)[1] if d.code == "scheme-unused"]
    assert [d.pointer for d in found] == ["/securitySchemes/a", "/securitySchemes/b"]
    assert '"security": [{"a": []}]' in found[0].message


def test_legacy_authentication_labels_are_requirements_not_unused_schemes() -> None:
    card = v03_card(protocolVersion="0.2.5", authentication={"schemes": ["Bearer"]})
    assert "scheme-unused" not in codes(diagnose(card)[1])


# -- gRPC interfaces written host:port -----------------------------------------------------------------------------------


@pytest.mark.parametrize("binding", ["GRPC", "grpc", "G-RPC"])
@pytest.mark.parametrize("url", ["grpc.example.com:443", "10.0.0.7:50051", "[2001:db8::1]:443"])
def test_a_grpc_interface_may_be_host_port(url: str, binding: str) -> None:
    diagnostics = diagnose(v1_card(supportedInterfaces=[interface(url, binding)]))[1]
    assert {"url-invalid", "url-not-https"} & codes(diagnostics) == set()


def test_a_v03_grpc_additional_interface_may_be_host_port() -> None:
    card = v03_card(additionalInterfaces=[{"url": "grpc.example.com:443", "transport": "GRPC"}])
    assert "url-invalid" not in codes(diagnose(card)[1])


def test_host_port_is_still_no_url_for_other_bindings() -> None:
    diagnostics = diagnose(v1_card(supportedInterfaces=[interface("agent.example.com:443", "HTTP+JSON")]))[1]
    assert only(diagnostics, "url-invalid").severity == "error"


# -- examples that do not fit the modes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("modes", "example", "fit"),
    [
        (["application/json"], "Plan a trip to Rome.", "text"),
        (["image/png"], '{"image": "x"}', "JSON"),
        (["application/json"], '{"a": 1}', None),
        (["application/geo+json"], '{"a": 1}', None),
        (["application/*"], '{"a": 1}', None),
        (["text/csv"], '{"a": 1}', None),
        (["*/*"], "anything", None),
        (["text/markdown"], "anything", None),
    ],
)
def test_example_mode_mismatch(modes: list[str], example: str, fit: str | None) -> None:
    card = v1_card()
    card["skills"][0]["inputModes"] = modes
    card["skills"][0]["examples"] = [example]
    text, diagnostics = diagnose(card)
    found = [d for d in diagnostics if d.code == "example-mode-mismatch"]
    if fit is None:
        assert found == []
        return
    assert_at(
        only(found, "example-mode-mismatch"), "warning", "/skills/0/examples/0", text, json.dumps(example)
    )
    assert f"is {'text' if fit == 'text' else 'a JSON document'}" in found[0].message


def test_an_example_is_judged_by_the_modes_the_skill_inherits() -> None:
    card = v1_card(defaultInputModes=["application/json"])
    card["skills"][0]["examples"] = ["What is a test?"]
    d = only(diagnose(card)[1], "example-mode-mismatch")
    assert "defaultInputModes" in d.message


# -- on the real cards -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "code", "pointer"),
    [
        ("palo-alto-ai-research-lab--agent-leash--agent-leash.json", "era-mismatch", "/protocolVersion"),
        ("a2aproject--a2a--cli-testdata-minimal.json", "era-mismatch", "/protocolVersion"),
        ("marceloeyer--djzeneyer--dj-zen-eyer.json", "scheme-unused", "/securitySchemes/publicRead"),
        (
            "a2aproject--a2a-samples--a2a-mcp-air-ticketing-agent.json",
            "media-type-invalid",
            "/defaultInputModes/0",
        ),
    ],
)
def test_the_calibrated_rules_on_real_cards(shared_dir: Path, name: str, code: str, pointer: str) -> None:
    _, diagnostics = load_card_bytes((shared_dir / "cards" / "real" / name).read_bytes(), display=name)
    assert [d.severity for d in diagnostics if (d.code, d.pointer) == (code, pointer)] == ["warning"]


def test_the_spec_samples_of_three_eras_share_a_name_with_a_warning_only(shared_dir: Path) -> None:
    from a2a_docgen.catalog import load_catalog

    catalog = load_catalog(sorted((shared_dir / "cards" / "spec").glob("*-sample-card.json")))
    assert len(catalog.cards) == 4
    assert {d.severity for d in catalog.diagnostics if d.code == "duplicate-agent-name"} == {"warning"}
    assert not [d for d in catalog.diagnostics if d.severity == "error"]
