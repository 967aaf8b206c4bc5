"""The real cards and spec samples in ../shared: never a crash, every finding located, chosen cards pinned.

The shared directory sits beside a development checkout only; without it this module is skipped.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.catalog import load_card_bytes, load_catalog
from a2a_docgen.load.source import MISSING, resolve_pointer
from a2a_docgen.model import AgentCard, Diagnostic

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "cards"
if not (SHARED / "real").is_dir():
    pytest.skip("../shared/cards (reference cards) is not present in this checkout", allow_module_level=True)

CORPUS = sorted([*(SHARED / "real").glob("*.json"), *(SHARED / "spec").glob("*.json")])
IDS = [f"{p.parent.name}/{p.name}" for p in CORPUS]


@cache
def check(name: str) -> tuple[AgentCard | None, tuple[Diagnostic, ...]]:
    card, diagnostics = load_card_bytes((SHARED / name).read_bytes(), display=name)
    return card, tuple(diagnostics)


def raw_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except ValueError:
        return None


def resolves(document: Any, pointer: str) -> bool:
    return resolve_pointer(document, pointer) is not MISSING


def test_corpus_is_there() -> None:
    assert len(CORPUS) >= 60


@pytest.mark.parametrize("path", CORPUS, ids=IDS)
def test_every_diagnostic_is_located(path: Path) -> None:
    _, diagnostics = check(f"{path.parent.name}/{path.name}")
    lines = path.read_bytes().decode("utf-8", "replace").removeprefix("\ufeff").split("\n")
    document = raw_json(path)
    for d in diagnostics:
        assert 1 <= d.line <= len(lines), d
        assert 1 <= d.column <= len(lines[d.line - 1]) + 1, d
        assert d.pointer == "" or d.pointer.startswith("/"), d
        if document is not None and d.pointer:
            parent = d.pointer.rsplit("/", 1)[0]
            assert resolves(document, d.pointer) or resolves(document, parent), d


def test_whole_corpus_as_one_catalogue() -> None:
    catalog = load_catalog([SHARED / "real", SHARED / "spec"])
    assert len(catalog.cards) + len(catalog.excluded) == len(CORPUS)
    assert list(catalog.diagnostics) == sorted(catalog.diagnostics, key=Diagnostic.sort_key)
    assert {d.code for d in catalog.diagnostics} >= {"json-syntax", "duplicate-agent-name", "url-invalid"}


Expected = list[tuple[int, int, str, str, str]]
"""(line, column, severity, code, pointer), compared as sets."""

EXPECTED: dict[str, Expected] = {
    # Wrong types everywhere; without a string name it is excluded.
    "real/a2aproject--a2a--cli-testdata-invalid-format.json": [
        (1, 1, "error", "required-missing", "/url"),
        (2, 22, "error", "wrong-type", "/protocolVersion"),
        (3, 11, "error", "not-a-card", "/name"),
        (3, 11, "error", "wrong-type", "/name"),
        (4, 18, "error", "required-empty", "/description"),
        (6, 19, "error", "wrong-type", "/capabilities"),
        (7, 24, "error", "wrong-type", "/defaultInputModes"),
        (8, 25, "error", "required-empty", "/defaultOutputModes"),
        (10, 5, "error", "required-missing", "/skills/0/description"),
        (10, 5, "error", "required-missing", "/skills/0/id"),
        (10, 5, "error", "required-missing", "/skills/0/tags"),
    ],
    # The v0.2.0 spec sample is not JSON: a trailing comma after openIdConnectUrl.
    "real/a2aproject--a2a--spec-v0.2.0-sample-geospatial.json": [(20, 5, "error", "json-syntax", "")],
    # The v1.0.1 spec sample still carries the v0.3 "security": warned, with the fix, no error. Like every
    # spec sample, its map generator takes only JSON but shows prose examples.
    "spec/spec-v1.0.1-sample-card.json": [
        (28, 3, "warning", "legacy-field", "/security"),
        (54, 9, "warning", "example-mode-mismatch", "/skills/1/examples/0"),
        (55, 9, "warning", "example-mode-mismatch", "/skills/1/examples/1"),
    ],
    "spec/spec-main-16ba5269-sample-card.json": [
        (54, 9, "warning", "example-mode-mismatch", "/skills/1/examples/0"),
        (55, 9, "warning", "example-mode-mismatch", "/skills/1/examples/1"),
    ],
    "spec/spec-v0.3.0-sample-card.json": [
        (56, 9, "warning", "example-mode-mismatch", "/skills/1/examples/0"),
        (57, 9, "warning", "example-mode-mismatch", "/skills/1/examples/1"),
    ],
    # String booleans and bare "text" media types (a warning: the spec states no format, clients take it).
    "real/a2aproject--a2a--reimbursement-agent.json": [
        (7, 22, "error", "wrong-type", "/capabilities/streaming"),
        (8, 30, "error", "wrong-type", "/capabilities/pushNotifications"),
        (12, 9, "warning", "media-type-invalid", "/defaultInputModes/0"),
        (16, 9, "warning", "media-type-invalid", "/defaultOutputModes/0"),
    ],
    # Nulls where members should be omitted.
    "real/a2aproject--a2a--air-ticketing-agent-v0.2.json": [
        (5, 17, "warning", "null-value", "/provider"),
        (7, 25, "warning", "null-value", "/documentationUrl"),
        (9, 22, "error", "wrong-type", "/capabilities/streaming"),
        (10, 30, "error", "wrong-type", "/capabilities/pushNotifications"),
        (13, 23, "warning", "null-value", "/authentication"),
        (15, 9, "warning", "media-type-invalid", "/defaultInputModes/0"),
        (19, 9, "warning", "media-type-invalid", "/defaultOutputModes/0"),
        (33, 27, "warning", "null-value", "/skills/0/inputModes"),
        (34, 28, "warning", "null-value", "/skills/0/outputModes"),
    ],
    # Template placeholders never filled in.
    "real/lkrdev--looker-ca-a2a-client-sample--oauth.json": [
        (5, 10, "error", "url-invalid", "/url"),
        (
            31,
            31,
            "error",
            "url-invalid",
            "/securitySchemes/lookerOAuth/flows/authorizationCode/authorizationUrl",
        ),
        (32, 23, "error", "url-invalid", "/securitySchemes/lookerOAuth/flows/authorizationCode/tokenUrl"),
    ],
    # A v1.0 card with v0.3 members and a v0.3-shaped requirement.
    "real/endlessray--sage-a2a--sage.json": [
        (12, 3, "warning", "legacy-field", "/url"),
        (13, 3, "warning", "legacy-field", "/protocolVersion"),
        (40, 5, "error", "requirement-shape", "/securityRequirements/0"),
        (105, 3, "warning", "unknown-field", "/epistemicCapabilities"),
    ],
    # snake_case names, capabilities as a list, invented members.
    "real/kimdonghwi94--agent-document-generator--doc-generator.json": [
        (7, 19, "error", "wrong-type", "/capabilities"),
        (17, 3, "warning", "snake-case-name", "/default_input_modes"),
        (17, 27, "warning", "media-type-invalid", "/default_input_modes/0"),
        (18, 3, "warning", "snake-case-name", "/default_output_modes"),
        (18, 28, "warning", "media-type-invalid", "/default_output_modes/0"),
        # one finding for the card's five invented members (type, protocols, status ...), at the first by name
        (88, 3, "warning", "unknown-field", "/agent_card_endpoint"),
    ],
    # {BASE_URL} placeholders in every URL of a v1.0-shaped card.
    "real/roelzz--dad-joke-a2a-agent--dad-joke.json": [
        (2, 3, "warning", "legacy-field", "/protocolVersion"),
        (7, 5, "error", "required-missing", "/supportedInterfaces/0/protocolVersion"),
        (8, 14, "error", "url-invalid", "/supportedInterfaces/0/url"),
        (14, 12, "error", "url-invalid", "/provider/url"),
        (16, 23, "error", "url-invalid", "/documentationUrl"),
        (17, 14, "error", "url-invalid", "/iconUrl"),
        (21, 5, "warning", "legacy-field", "/capabilities/stateTransitionHistory"),
        (24, 3, "warning", "legacy-field", "/security"),
        (27, 3, "warning", "unknown-field", "/supportsExtendedAgentCard"),
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_pinned_expectations(name: str) -> None:
    _, diagnostics = check(name)
    found = {(d.line, d.column, d.severity, d.code, d.pointer) for d in diagnostics}
    assert found == set(EXPECTED[name])
    assert len(diagnostics) == len(EXPECTED[name])


def message(name: str, pointer: str, code: str) -> str:
    return next(d.message for d in check(name)[1] if d.pointer == pointer and d.code == code)


def test_pinned_messages_say_what_to_do() -> None:
    fix = message("spec/spec-v1.0.1-sample-card.json", "/security", "legacy-field")
    assert '"securityRequirements"' in fix
    assert '{"schemes": {"<scheme>": {"list": ["<scope>"]}}}' in fix
    assert "remove the trailing comma" in message(
        "real/a2aproject--a2a--spec-v0.2.0-sample-geospatial.json", "", "json-syntax"
    )
    assert "without quotes" in message(
        "real/a2aproject--a2a--reimbursement-agent.json", "/capabilities/streaming", "wrong-type"
    )
    assert '"text/plain"' in message(
        "real/a2aproject--a2a--reimbursement-agent.json", "/defaultInputModes/0", "media-type-invalid"
    )
    assert "<LOOKER_URL>" in message(
        "real/lkrdev--looker-ca-a2a-client-sample--oauth.json", "/url", "url-invalid"
    )
    assert '"defaultInputModes"' in message(
        "real/kimdonghwi94--agent-document-generator--doc-generator.json",
        "/default_input_modes",
        "snake-case-name",
    )
    assert "capabilities.extendedAgentCard" in message(
        "real/roelzz--dad-joke-a2a-agent--dad-joke.json", "/supportsExtendedAgentCard", "unknown-field"
    )


def test_eras_of_the_spec_samples() -> None:
    assert [
        check(f"spec/{n}")[0].era
        for n in ("spec-main-16ba5269-sample-card.json", "spec-v0.3.0-sample-card.json")
    ] == [  # type: ignore[union-attr]
        "1.0",
        "0.3",
    ]


# -- the official SDK as an oracle ------------------------------------------------------------------------------------

STRICT_PARSE_BREAKERS = frozenset({"unknown-field", "legacy-field"})
"""Warnings for members a strict ProtoJSON parse rejects (the spec tells clients to ignore them)."""


def _oracle() -> Any:
    try:
        from tests.support import sdk_oracle
    except ModuleNotFoundError:  # only tests/ is on sys.path
        from support import sdk_oracle  # type: ignore[no-redef]
    if not sdk_oracle.sdk_available():
        pytest.skip("a2a-sdk is not installed")
    return sdk_oracle


def v1_cards() -> list[tuple[str, Any, AgentCard, tuple[Diagnostic, ...]]]:
    result = []
    for path, name in zip(CORPUS, IDS, strict=True):
        card, diagnostics = check(name)
        document = raw_json(path)
        if card is not None and card.era == "1.0" and isinstance(document, dict):
            result.append((name, document, card, diagnostics))
    return result


def test_cards_we_call_valid_v1_pass_the_sdk() -> None:
    oracle = _oracle()
    valid = [
        (name, document)
        for name, document, _, diagnostics in v1_cards()
        if not any(d.severity == "error" or d.code in STRICT_PARSE_BREAKERS for d in diagnostics)
    ]
    assert len(valid) >= 4
    for name, document in valid:
        assert oracle.sdk_parse_v1(document) == (True, ""), name
        assert oracle.sdk_required_fields_ok(document) == (True, ""), name


def test_sdk_required_field_failures_are_our_errors() -> None:
    oracle = _oracle()
    failures = 0
    for name, document, _, diagnostics in v1_cards():
        ok, why = oracle.sdk_required_fields_ok(document)
        if not ok:
            failures += 1
            assert any(d.severity == "error" for d in diagnostics), f"{name}: the SDK says {why}"
    assert failures >= 3
