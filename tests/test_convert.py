"""convert: the v1.0 form of cards of every era, its notes, the command, and the round trips on the corpora:
no new error, the official SDK parses the result strictly, diff reports only era-changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen import cli
from a2a_docgen.catalog import assemble_catalog, load_card_bytes
from a2a_docgen.convert import Conversion, convert_card
from a2a_docgen.review.diff import diff_catalogs
from tests.support import sdk_oracle
from tests.test_validate import FUZZ_TARGETS, _replace, json_values, v03_card, v1_card

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "cards"


def convert(card: dict[str, Any] | str, display: str = "card.json") -> Conversion:
    text = card if isinstance(card, str) else json.dumps(card, indent=2, ensure_ascii=False)
    return convert_card(text.encode("utf-8"), display=display)


def notes(conversion: Conversion) -> list[tuple[str, str]]:
    return [(d.code, d.pointer) for d in conversion.notes]


def v03_full() -> dict[str, Any]:
    card = v03_card(
        additionalInterfaces=[
            {"url": "https://agent.example.com/a2a", "transport": "JSONRPC"},
            {"url": "grpc.example.com:443", "transport": "GRPC"},
        ],
        provider={"organization": "Org", "url": "https://org.example.com"},
        iconUrl="https://org.example.com/icon.png",
        documentationUrl="https://org.example.com/docs",
        supportsAuthenticatedExtendedCard=True,
        securitySchemes={
            "key": {"type": "apiKey", "in": "header", "name": "X-Key", "description": "A key."},
            "oidc": {
                "type": "openIdConnect",
                "openIdConnectUrl": "https://id.example.com/.well-known/openid",
            },
            "mtls": {"type": "mutualTLS"},
        },
        security=[{"oidc": ["openid"]}, {"key": [], "mtls": []}],
    )
    card["capabilities"] = {
        "streaming": True,
        "extensions": [{"uri": "https://ext.example.com/v1", "params": {"n": 1}}],
    }
    card["skills"][0].update(examples=["What is a test?"], inputModes=["text/plain"], security=[{"key": []}])
    return card


# -- the mapping ---------------------------------------------------------------------------------------------------


def test_a_v03_card_in_the_v1_shape_in_the_sample_order() -> None:
    conversion = convert(v03_full())
    card = conversion.card
    assert card is not None
    assert list(card) == [
        "name",
        "description",
        "supportedInterfaces",
        "provider",
        "iconUrl",
        "version",
        "documentationUrl",
        "capabilities",
        "securitySchemes",
        "securityRequirements",
        "defaultInputModes",
        "defaultOutputModes",
        "skills",
    ]
    assert card["supportedInterfaces"] == [
        {"url": "https://agent.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
        {"url": "grpc.example.com:443", "protocolBinding": "GRPC", "protocolVersion": "0.3"},
    ]
    assert card["capabilities"] == {
        "streaming": True,
        "extensions": [{"uri": "https://ext.example.com/v1", "params": {"n": 1}}],
        "extendedAgentCard": True,
    }
    assert card["securitySchemes"] == {
        "key": {"apiKeySecurityScheme": {"description": "A key.", "location": "header", "name": "X-Key"}},
        "oidc": {
            "openIdConnectSecurityScheme": {"openIdConnectUrl": "https://id.example.com/.well-known/openid"}
        },
        "mtls": {"mtlsSecurityScheme": {}},
    }
    assert card["securityRequirements"] == [
        {"schemes": {"oidc": {"list": ["openid"]}}},
        {"schemes": {"key": {}, "mtls": {}}},
    ]
    assert card["skills"][0]["securityRequirements"] == [{"schemes": {"key": {}}}]
    assert card["skills"][0]["inputModes"] == ["text/plain"]
    assert conversion.notes == ()
    assert conversion.text is not None
    assert conversion.text.startswith('{\n  "name": ')
    assert conversion.text.endswith("}\n")


def test_the_converted_card_is_clean_and_the_sdk_parses_it_strictly() -> None:
    conversion = convert(v03_full())
    assert conversion.text is not None
    loaded, diagnostics = load_card_bytes(conversion.text.encode(), display="v1.json")
    assert loaded is not None
    assert loaded.era == "1.0"
    assert diagnostics == []
    sdk_oracle.skip_unless_sdk()
    assert sdk_oracle.sdk_parse_v1(conversion.card) == (True, "")


def test_unknown_removed_and_wrong_typed_members_are_dropped_with_their_place() -> None:
    card = v03_card(
        docUrl="https://x.example.com", capabilities={"streaming": "True", "stateTransitionHistory": True}
    )
    card["skills"][0]["uri"] = "https://x.example.com/skill"
    conversion = convert(card)
    assert set(notes(conversion)) == {
        ("convert-dropped", "/docUrl"),
        ("convert-dropped", "/capabilities/stateTransitionHistory"),
        ("convert-dropped", "/capabilities/streaming"),
        ("convert-dropped", "/skills/0/uri"),
    }
    assert conversion.card is not None
    assert conversion.card["capabilities"] == {}
    text = json.dumps(card, indent=2)
    doc_url = next(d for d in conversion.notes if d.pointer == "/docUrl")
    assert text.splitlines()[doc_url.line - 1][doc_url.column - 1 :].startswith('"docUrl"')


def test_a_v02_card_without_protocol_version_gets_0_3_as_a_guess() -> None:
    card = v03_card()
    del card["protocolVersion"], card["preferredTransport"]
    conversion = convert(card)
    assert conversion.era == "0.2"
    assert conversion.card is not None
    assert conversion.card["supportedInterfaces"][0]["protocolVersion"] == "0.3"
    assert notes(conversion) == [("convert-guessed", "/url")]


def test_a_v03_shaped_card_announcing_1_0_keeps_1_0_and_says_so() -> None:
    conversion = convert(v03_card(protocolVersion="1.0.0"))
    assert conversion.card is not None
    assert conversion.card["supportedInterfaces"][0]["protocolVersion"] == "1.0"
    (note,) = conversion.notes
    assert (note.code, note.pointer) == ("convert-guessed", "/protocolVersion")
    assert '"0.3"' in note.message


def test_legacy_authentication_labels() -> None:
    card = v03_card(
        protocolVersion="0.2.5", authentication={"schemes": ["Bearer", "x402"], "credentials": "ask"}
    )
    conversion = convert(card)
    assert conversion.card is not None
    assert conversion.card["securitySchemes"] == {"Bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}
    assert conversion.card["securityRequirements"] == [{"schemes": {"Bearer": {}}}]
    assert notes(conversion) == [
        ("convert-guessed", "/authentication/schemes/0"),
        ("convert-dropped", "/authentication/schemes/1"),
        ("convert-dropped", "/authentication/credentials"),
    ]


def test_an_api_key_label_is_dropped_for_its_missing_name_not_its_kind() -> None:
    conversion = convert(v03_card(protocolVersion="0.2.5", authentication={"schemes": ["apiKey", "x402"]}))
    dropped = {d.pointer: d.message for d in conversion.notes if d.code == "convert-dropped"}
    assert "no A2A kind" not in dropped["/authentication/schemes/0"]
    assert '"name" and "location"' in dropped["/authentication/schemes/0"]
    assert "of no A2A kind" in dropped["/authentication/schemes/1"]


def test_a_v03_tenant_is_kept_and_the_differ_proves_the_conversion_faithful() -> None:
    card = v03_card(
        additionalInterfaces=[{"url": "https://b.example.com/a2a", "transport": "GRPC", "tenant": "acme"}]
    )
    conversion = convert(card)
    assert conversion.card is not None
    assert {"url": "https://b.example.com/a2a", "protocolBinding": "GRPC", "protocolVersion": "0.3",
            "tenant": "acme"} in conversion.card["supportedInterfaces"]  # fmt: skip
    assert "convert-dropped" not in {d.code for d in conversion.notes}
    _, diagnostics = load_card_bytes(json.dumps(card).encode(), display="card.json")
    assert not [d for d in diagnostics if d.code == "unknown-field"]

    def codes(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
        old = assemble_catalog([(*load_card_bytes(json.dumps(before).encode(), display="a.json"), "a.json")])
        new = assemble_catalog([(*load_card_bytes(json.dumps(after).encode(), display="a.json"), "a.json")])
        return {c.code for c in diff_catalogs(old, new)}

    assert "tenant-changed" not in codes(card, conversion.card)
    lost = json.loads(json.dumps(conversion.card))
    for interface in lost["supportedInterfaces"]:
        interface.pop("tenant", None)
    assert "tenant-changed" in codes(card, lost)


def test_errors_left_in_the_converted_card_are_reported_and_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card = v03_card()
    del card["skills"][0]["tags"]
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card, indent=2))
    conversion = convert_card(path.read_bytes(), display="card.json")
    assert [(d.code, d.pointer) for d in conversion.remaining] == [("required-missing", "/skills/0/tags")]
    code, out, err = run(capsys, "convert", str(path))
    assert code == 1
    assert json.loads(out)["skills"][0]["id"]
    assert "card.json (converted):" in err
    assert "error required-missing" in err
    assert err.rstrip().endswith("1 card converted to v1.0; 1 converted card still has 1 error (listed above): "
                                 "fix them in the source or the output")  # fmt: skip


def test_several_oauth_flows_become_one_scheme_each() -> None:
    flows = {
        "authorizationCode": {
            "authorizationUrl": "https://auth.example.com/a",
            "tokenUrl": "https://auth.example.com/t",
            "scopes": {"read": "Read.", "write": "Write."},
        },
        "clientCredentials": {"tokenUrl": "https://auth.example.com/t", "scopes": {"read": "Read."}},
    }
    card = v03_card(
        securitySchemes={"oauth": {"type": "oauth2", "flows": flows}}, security=[{"oauth": ["read"]}]
    )
    card["skills"][0]["security"] = [{"oauth": ["write"]}]
    conversion = convert(card)
    assert conversion.card is not None
    schemes = conversion.card["securitySchemes"]
    assert list(schemes) == ["oauth", "oauth-clientCredentials"]
    assert list(schemes["oauth"]["oauth2SecurityScheme"]["flows"]) == ["authorizationCode"]
    assert conversion.card["securityRequirements"] == [
        {"schemes": {"oauth": {"list": ["read"]}}},
        {"schemes": {"oauth-clientCredentials": {"list": ["read"]}}},
    ]
    # The client-credentials flow never offered "write": that alternative is no way to get it.
    assert conversion.card["skills"][0]["securityRequirements"] == [
        {"schemes": {"oauth": {"list": ["write"]}}}
    ]
    assert notes(conversion) == [("convert-guessed", "/securitySchemes/oauth")]
    assert conversion.text is not None
    assert load_card_bytes(conversion.text.encode(), display="v1.json")[1] == []


def test_signatures_are_left_out_and_reported_stale() -> None:
    card = v03_card(signatures=[{"protected": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsifQ", "signature": "c2ln"}])
    conversion = convert(card)
    assert conversion.card is not None
    assert "signatures" not in conversion.card
    assert notes(conversion) == [("convert-signature-stale", "/signatures/0")]
    assert "a2a-docgen sign" in conversion.notes[0].message


def test_signatures_that_still_cover_the_converted_card_are_kept(shared_dir: Path) -> None:
    # The v1.0 sample as the spec's main branch has it: its a2a-sdk canonical form does not change.
    path = shared_dir / "cards" / "spec" / "spec-main-16ba5269-sample-card.json"
    conversion = convert_card(path.read_bytes(), display=path.name)
    assert conversion.card is not None
    assert conversion.card["signatures"] == json.loads(path.read_bytes())["signatures"]
    assert "convert-signature-stale" not in {d.code for d in conversion.notes}


def test_a_v1_card_loses_its_v03_leftovers() -> None:
    card = v1_card(protocolVersion="1.0", security=[{"key": []}])
    card["supportedInterfaces"][0].pop("protocolVersion")
    card["securitySchemes"] = {"key": {"apiKeySecurityScheme": {"location": "header", "name": "K"}}}
    conversion = convert(card)
    assert conversion.card is not None
    assert conversion.card["supportedInterfaces"][0]["protocolVersion"] == "1.0"
    assert conversion.card["securityRequirements"] == [{"schemes": {"key": {}}}]
    assert set(notes(conversion)) == {
        ("convert-dropped", "/protocolVersion"),
        ("convert-guessed", "/supportedInterfaces/0"),
    }


def test_missing_and_empty_required_lists_stay_as_check_saw_them() -> None:
    card = v03_card(defaultOutputModes=[])
    del card["defaultInputModes"]
    conversion = convert(card)
    assert conversion.card is not None
    assert "defaultInputModes" not in conversion.card
    assert conversion.card["defaultOutputModes"] == []


def test_a_file_that_is_not_a_card_is_not_converted() -> None:
    conversion = convert('{"name": ')
    assert (conversion.card, conversion.text) == (None, None)
    assert [d.code for d in conversion.diagnostics] == ["json-syntax"]


# -- the command -----------------------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_one_card_to_stdout_with_the_report_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    card = EXAMPLES / "unit-converter.json"
    code, out, err = run(capsys, "convert", str(card), "--to", "1.0")
    assert code == 0
    assert json.loads(out)["supportedInterfaces"][0]["protocolVersion"] == "0.3"
    assert err == "1 card converted to v1.0\n"


def test_a_directory_to_a_directory_and_unchanged_files_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "v1"
    code, out, err = run(capsys, "convert", str(EXAMPLES), "-o", str(out_dir))
    assert (code, out) == (0, "")
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(p.name for p in EXAMPLES.glob("*.json"))
    assert "support-desk-triage.json:23:5: warning convert-guessed" in err
    assert err.rstrip().endswith(f"4 cards converted to v1.0 (4 written, 0 unchanged) -> {out_dir}")
    mtimes = {p: p.stat().st_mtime_ns for p in out_dir.iterdir()}
    code, _, err = run(capsys, "convert", str(EXAMPLES), "-o", str(out_dir))
    assert code == 0
    assert "(0 written, 4 unchanged)" in err
    assert {p: p.stat().st_mtime_ns for p in out_dir.iterdir()} == mtimes


def test_the_report_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "convert", str(EXAMPLES / "support-desk-triage.json"), "--format", "json")
    assert code == 0
    report = json.loads(err[: err.rindex("]") + 1])
    assert {d["code"] for d in report} == {"convert-dropped", "convert-guessed"}


def test_a_file_that_is_no_card_fails_and_the_others_are_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "good.json").write_text(json.dumps(v03_card()))
    (cards / "bad.json").write_text("[1, 2]")
    code, _, err = run(capsys, "convert", str(cards), "-o", str(tmp_path / "out"))
    assert code == 1
    assert "bad.json:1:1: error not-an-object" in err
    assert "1 card converted to v1.0 (1 written, 0 unchanged)" in err
    assert "1 file not converted (not a card)" in err
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["good.json"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["EXAMPLES"], "give -o DIR"),
        (["EXAMPLES", "--to", "0.3"], "invalid choice"),
        (["EXAMPLES/unit-converter.json", "-o", "EXAMPLES"], "would be overwritten"),
        (["missing.json"], "no such file"),
    ],
)
def test_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "convert", *(a.replace("EXAMPLES", str(EXAMPLES)) for a in argv))
    assert code == 2
    assert message in err


def test_two_cards_to_one_path_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "agent.json").write_text(json.dumps(v03_card()))
    code, _, err = run(
        capsys,
        "convert",
        str(tmp_path / "a" / "agent.json"),
        str(tmp_path / "b" / "agent.json"),
        "-o",
        str(tmp_path / "o"),
    )
    assert code == 2
    assert "would both be written" in err


def test_convert_loads_no_renderer_and_no_http_client() -> None:
    from tests.test_layers import run_cli

    loaded = run_cli("convert", str(EXAMPLES / "unit-converter.json"))
    assert "a2a_docgen.convert" in loaded
    assert not any(
        name.startswith(("a2a_docgen.render", "a2a_docgen.fetch", "jinja2", "httpx")) for name in loaded
    )


# -- the round trips -------------------------------------------------------------------------------------------------

DIFF_EXPECTED = {
    # v1.0 allows one OAuth2 flow per scheme: the client-credentials flow becomes a scheme of its own.
    "support-desk-triage.json": {
        "era-changed",
        "oauth-flow-removed",
        "scheme-added",
        "security-alternative-added",
        "version-not-bumped",
    },
    # Legacy "authentication" labels of no A2A kind have no v1.0 form (reported as convert-dropped).
    "0xdeeper--baseai8004--my-agent.json": {"era-changed", "scheme-removed", "security-no-longer-required"},
    "a2aproject--a2a--spec-v0.1.0-sample-google-maps.json": {
        "era-changed",
        "scheme-removed",
        "security-no-longer-required",
    },
    "abdullahoc--a2acolony--a2a-colony.json": {
        "era-changed",
        "scheme-removed",
        "security-no-longer-required",
    },
    "dan-cleary--convalytics--convalytics.json": {
        "era-changed",
        "scheme-removed",
        "security-no-longer-required",
    },
    # Signatures signed other bytes than the converted card has in any canonical form (convert-signature-stale).
    "a2aproject--a2a--spec-v0.3.0-sample-geospatial.json": {
        "era-changed",
        "signatures-changed",
        "signatures-removed",
        "version-not-bumped",
    },
    "spec-v0.3.0-sample-card.json": {
        "era-changed",
        "signatures-changed",
        "signatures-removed",
        "version-not-bumped",
    },
}


def round_trip(path: Path) -> tuple[Conversion, set[str], set[str]] | None:
    """The conversion, the error codes it added, and the codes of ``diff original converted``."""
    data = path.read_bytes()
    conversion = convert_card(data, display=path.name)
    if conversion.text is None:
        return None
    original, original_diagnostics = load_card_bytes(data, display=path.name)
    converted, converted_diagnostics = load_card_bytes(conversion.text.encode(), display=path.name)
    before = {d.code for d in original_diagnostics if d.severity == "error"}
    added = {d.code for d in converted_diagnostics if d.severity == "error"} - before
    changes = diff_catalogs(
        assemble_catalog([(original, original_diagnostics, path.name)]),
        assemble_catalog([(converted, converted_diagnostics, path.name)]),
    )
    return conversion, added, {c.code for c in changes}


def check_corpus(paths: list[Path]) -> dict[str, int]:
    sdk_oracle.skip_unless_sdk()
    counts = {
        "files": len(paths),
        "converted": 0,
        "no new error": 0,
        "diff only era-changed": 0,
        "sdk strict": 0,
    }
    for path in paths:
        result = round_trip(path)
        if result is None:
            continue
        conversion, added, rest = result
        # What convert leaves out (convert-dropped) includes values in error: those errors are fixed.
        diff = rest - {"card-error-fixed"}
        counts["converted"] += 1
        assert added == set(), path.name
        counts["no new error"] += 1
        # A card with no interface at all has nothing that marks it v1.0, so its era may not change.
        assert diff == DIFF_EXPECTED[path.name] if path.name in DIFF_EXPECTED else diff <= {"era-changed"}, (
            path.name
        )
        counts["diff only era-changed"] += diff <= {"era-changed"}
        assert sdk_oracle.sdk_parse_v1(conversion.card) == (True, ""), path.name
        counts["sdk strict"] += 1
    return counts


def test_the_example_catalogue_round_trips() -> None:
    counts = check_corpus(sorted(EXAMPLES.glob("*.json")))
    assert counts == {
        "files": 4,
        "converted": 4,
        "no new error": 4,
        "diff only era-changed": 3,
        "sdk strict": 4,
    }


def test_the_real_card_corpus_round_trips(shared_dir: Path) -> None:
    paths = sorted(
        [*(shared_dir / "cards" / "real").glob("*.json"), *(shared_dir / "cards" / "spec").glob("*.json")]
    )
    counts = check_corpus(paths)
    assert counts["converted"] == counts["no new error"] == counts["sdk strict"] >= 55
    assert counts["converted"] - counts["diff only era-changed"] == 6 == len(DIFF_EXPECTED) - 1


# -- any card -------------------------------------------------------------------------------------------------------


def _check_any(card: dict[str, Any]) -> None:
    """Convert never raises; what it writes adds no error and, unless the source holds text that is no
    Unicode (a lone surrogate, an error of check already), parses strictly in the official SDK."""
    text = json.dumps(card, indent=2)
    conversion = convert(text)
    if conversion.text is None:
        return
    before = {d.code for d in conversion.diagnostics if d.severity == "error"}
    _, after = load_card_bytes(conversion.text.encode(), display="v1.json")
    new = {d.code for d in after if d.severity == "error"} - before
    # A required member (or every item of a required list, every member of "flows") of the wrong type or name
    # is left out, so check calls it missing or empty instead.
    unusable = {"wrong-type", "oauth-flow-unknown"} & before
    assert new <= ({"required-missing", "required-empty"} if unusable else set()), (new, text)
    if "invalid-unicode" not in before and sdk_oracle.sdk_available():
        assert sdk_oracle.sdk_parse_v1(conversion.card) == (True, ""), text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=st.sampled_from(FUZZ_TARGETS), value=json_values)
def test_any_value_in_any_field_converts(
    target: tuple[dict[str, Any], tuple[str | int, ...]], value: Any
) -> None:
    base, path = target
    _check_any(_replace(base, path, value))
