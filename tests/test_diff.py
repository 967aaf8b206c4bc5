"""The differ: one test per rule, in both directions, on both eras; properties over real and generated cards."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen.catalog import load_card_bytes, load_catalog
from a2a_docgen.model import Catalog
from a2a_docgen.review.codes import EXAMPLES, SCHEME_DETAIL_CODES
from a2a_docgen.review.diff import CODES, Change, diff_catalogs, parse_version

DATA = Path(__file__).parent / "data" / "diff"
SHARED_CARDS = Path(__file__).resolve().parents[1].parent / "shared" / "cards"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "review.md"

Card = dict[str, Any]


def travel_card() -> Card:
    """A v1.0 card with two skills: one inherits everything, one declares its own modes and security."""
    return {
        "name": "Travel Agent",
        "description": "Books trips.",
        "version": "1.2.0",
        "supportedInterfaces": [
            {"url": "https://travel.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "provider": {"organization": "Example Travel", "url": "https://travel.example.com"},
        "documentationUrl": "https://travel.example.com/docs",
        "capabilities": {"streaming": True, "extensions": []},
        "securitySchemes": {
            "oauth": {
                "oauth2SecurityScheme": {
                    "flows": {
                        "authorizationCode": {
                            "authorizationUrl": "https://id.example.com/authorize",
                            "tokenUrl": "https://id.example.com/token",
                            "scopes": {"trips:read": "Read trips", "trips:write": "Book trips"},
                        }
                    }
                }
            },
            "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Api-Key"}},
            "oidc": {
                "openIdConnectSecurityScheme": {
                    "openIdConnectUrl": "https://id.example.com/.well-known/openid-configuration"
                }
            },
            "basic": {"httpAuthSecurityScheme": {"scheme": "Basic"}},
        },
        "securityRequirements": [{"schemes": {"oauth": {"list": ["trips:read"]}}}],
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {
                "id": "search",
                "name": "Search trips",
                "description": "Finds trips.",
                "tags": ["search"],
                "examples": ["Trips to Lisbon in May"],
            },
            {
                "id": "book",
                "name": "Book a trip",
                "description": "Books a trip.",
                "tags": ["booking"],
                "inputModes": ["application/json"],
                "outputModes": ["application/json"],
                "securityRequirements": [{"schemes": {"oauth": {"list": ["trips:write"]}}}],
            },
        ],
    }


def catalog(*cards: Card, prefix: str = "") -> Catalog:
    loaded = []
    for index, raw in enumerate(cards):
        card, diagnostics = load_card_bytes(
            json.dumps(raw, indent=2).encode(), display=f"{prefix}card{index}.json"
        )
        assert card is not None, diagnostics
        loaded.append(card)
    return Catalog(cards=tuple(loaded), diagnostics=(), excluded=())


def diff(base: Card | list[Card], head: Card | list[Card]) -> list[Change]:
    base_cards = base if isinstance(base, list) else [base]
    head_cards = head if isinstance(head, list) else [head]
    return diff_catalogs(catalog(*base_cards, prefix="base/"), catalog(*head_cards, prefix="head/"))


def found(changes: list[Change]) -> set[tuple[str, str | None, str]]:
    """(code, skill, severity) of every change, without the version-policy findings."""
    return {
        (c.code, c.skill, c.severity)
        for c in changes
        if c.code not in ("version-not-bumped", "version-changed", "version-not-semver")
    }


def edited(change: Callable[[Card], None], card: Card | None = None) -> Card:
    result = copy.deepcopy(card if card is not None else travel_card())
    change(result)
    return result


def skill(card: Card, skill_id: str) -> Card:
    return next(s for s in card["skills"] if s["id"] == skill_id)


def test_identical_cards_have_no_changes() -> None:
    assert diff(travel_card(), travel_card()) == []


# -- mirrored rules: (edit, findings from the original to the edited card, findings back) ----------------


def _set(path: str, value: Any) -> Callable[[Card], None]:
    """An edit that sets a value at a slash-separated path (list indices as numbers)."""

    def apply(card: Card) -> None:
        *parents, last = path.split("/")
        target: Any = card
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if value is _DELETE:
            del target[int(last) if isinstance(target, list) else last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return apply


_DELETE = object()
_OAUTH_FLOW = "securitySchemes/oauth/oauth2SecurityScheme/flows/authorizationCode"

MIRRORED: list[
    tuple[str, Callable[[Card], None], set[tuple[str, str | None, str]], set[tuple[str, str | None, str]]]
] = [
    (
        "skill removed / added",
        lambda c: c["skills"].pop(),
        {("skill-removed", "book", "breaking")},
        {("skill-added", "book", "non-breaking")},
    ),
    (
        "a skill starts declaring a narrower input list",
        _set("skills/0/inputModes", ["text/plain"]),
        {("input-mode-removed", "search", "breaking")},
        {("input-mode-added", "search", "non-breaking")},
    ),
    (
        "card default input modes narrowed",
        _set("defaultInputModes", ["text/plain"]),
        {("input-mode-removed", None, "breaking")},
        {("input-mode-added", None, "non-breaking")},
    ),
    (
        "an output type is no longer produced",
        _set("skills/1/outputModes", ["text/csv"]),
        {("output-mode-removed", "book", "breaking"), ("output-mode-added", "book", "non-breaking")},
        {("output-mode-removed", "book", "breaking"), ("output-mode-added", "book", "non-breaking")},
    ),
    (
        "output types widened",
        _set("defaultOutputModes", ["text/plain", "text/html"]),
        {("output-mode-added", None, "non-breaking")},
        {("output-mode-removed", None, "breaking")},
    ),
    (
        "a scope added to the card requirement",
        _set("securityRequirements/0/schemes/oauth/list", ["trips:read", "trips:write"]),
        {("security-scope-required", None, "breaking")},
        {("security-scope-no-longer-required", None, "non-breaking")},
    ),
    (
        "a scheme added to every alternative",
        _set("securityRequirements/0/schemes/key", {}),
        {("security-scheme-required", None, "breaking")},
        {("security-scheme-no-longer-required", None, "non-breaking")},
    ),
    (
        "an alternative added",
        _set(
            "securityRequirements",
            [{"schemes": {"oauth": {"list": ["trips:read"]}}}, {"schemes": {"key": {}}}],
        ),
        {("security-alternative-added", None, "non-breaking")},
        {("security-alternative-removed", None, "breaking")},
    ),
    (
        "requirements dropped",
        _set("securityRequirements", _DELETE),
        {("security-no-longer-required", None, "non-breaking")},
        {("security-required", None, "breaking")},
    ),
    (
        "an inheriting skill declares stricter requirements of its own",
        _set(
            "skills/0/securityRequirements", [{"schemes": {"oauth": {"list": ["trips:read", "trips:write"]}}}]
        ),
        {("security-scope-required", "search", "breaking")},
        {("security-scope-no-longer-required", "search", "non-breaking")},
    ),
    (
        "interface URL changed",
        _set("supportedInterfaces/0/url", "https://travel.example.com/a2a/v2"),
        {("interface-url-changed", None, "breaking")},
        {("interface-url-changed", None, "breaking")},
    ),
    (
        "protocol version changed",
        _set("supportedInterfaces/0/protocolVersion", "0.3"),
        {("protocol-version-dropped", None, "breaking")},
        {("protocol-version-dropped", None, "breaking")},
    ),
    (
        "protocol binding changed",
        _set("supportedInterfaces/0/protocolBinding", "HTTP+JSON"),
        {("protocol-binding-dropped", None, "breaking")},
        {("protocol-binding-dropped", None, "breaking")},
    ),
    (
        "interface added",
        lambda c: c["supportedInterfaces"].append(
            {"url": "grpc.travel.example.com:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"}
        ),
        {("interface-added", None, "non-breaking")},
        {("interface-removed", None, "breaking")},
    ),
    (
        "preferred interface changed",
        lambda c: c["supportedInterfaces"].insert(
            0, {"url": "grpc.travel.example.com:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"}
        ),
        {("interface-added", None, "non-breaking"), ("preferred-interface-changed", None, "non-breaking")},
        # the preferred interface is gone, which interface-removed says
        {("interface-removed", None, "breaking")},
    ),
    (
        "tenant set",
        _set("supportedInterfaces/0/tenant", "acme"),
        {("tenant-changed", None, "breaking")},
        {("tenant-changed", None, "breaking")},
    ),
    (
        "streaming absent counts as off",
        _set("capabilities/streaming", _DELETE),
        {("capability-disabled", None, "breaking")},
        {("capability-enabled", None, "non-breaking")},
    ),
    (
        "push notifications turned on",
        _set("capabilities/pushNotifications", True),
        {("capability-enabled", None, "non-breaking")},
        {("capability-disabled", None, "breaking")},
    ),
    (
        "required extension added",
        _set("capabilities/extensions", [{"uri": "https://ext.example.com/pay", "required": True}]),
        {("extension-added-required", None, "breaking")},
        {("extension-removed", None, "breaking")},
    ),
    (
        "optional extension added",
        _set("capabilities/extensions", [{"uri": "https://ext.example.com/pay"}]),
        {("extension-added", None, "non-breaking")},
        {("extension-removed", None, "breaking")},
    ),
    (
        "scheme type changed",
        _set("securitySchemes/basic", {"mtlsSecurityScheme": {}}),
        # no requirement of travel_card uses "key", "basic" or "oidc": see test_detail_change_of_a_scheme...
        {("scheme-type-changed", None, "info")},
        {("scheme-type-changed", None, "info")},
    ),
    (
        "API key renamed",
        _set("securitySchemes/key/apiKeySecurityScheme/name", "X-Key"),
        # no requirement of travel_card uses "key", "basic" or "oidc": see test_detail_change_of_a_scheme...
        {("api-key-name-changed", None, "info")},
        {("api-key-name-changed", None, "info")},
    ),
    (
        "API key moved to the query",
        _set("securitySchemes/key/apiKeySecurityScheme/location", "query"),
        # no requirement of travel_card uses "key", "basic" or "oidc": see test_detail_change_of_a_scheme...
        {("api-key-location-changed", None, "info")},
        {("api-key-location-changed", None, "info")},
    ),
    (
        "token URL changed",
        _set(f"{_OAUTH_FLOW}/tokenUrl", "https://id2.example.com/token"),
        {("oauth-url-changed", None, "breaking")},
        {("oauth-url-changed", None, "breaking")},
    ),
    (
        "OIDC discovery URL changed",
        _set(
            "securitySchemes/oidc/openIdConnectSecurityScheme/openIdConnectUrl",
            "https://id2.example.com/oidc",
        ),
        # no requirement of travel_card uses "key", "basic" or "oidc": see test_detail_change_of_a_scheme...
        {("oidc-url-changed", None, "info")},
        {("oidc-url-changed", None, "info")},
    ),
    (
        "HTTP scheme changed",
        _set("securitySchemes/basic/httpAuthSecurityScheme/scheme", "Bearer"),
        # no requirement of travel_card uses "key", "basic" or "oidc": see test_detail_change_of_a_scheme...
        {("http-scheme-changed", None, "info")},
        {("http-scheme-changed", None, "info")},
    ),
    (
        "PKCE required",
        _set(f"{_OAUTH_FLOW}/pkceRequired", True),
        {("pkce-required", None, "breaking")},
        {("pkce-no-longer-required", None, "non-breaking")},
    ),
    (
        "OAuth flow replaced",
        _set(
            "securitySchemes/oauth/oauth2SecurityScheme/flows",
            {
                "clientCredentials": {
                    "tokenUrl": "https://id.example.com/token",
                    "scopes": {"trips:read": "Read trips"},
                }
            },
        ),
        {("oauth-flow-removed", None, "breaking"), ("oauth-flow-added", None, "non-breaking")},
        {("oauth-flow-removed", None, "breaking"), ("oauth-flow-added", None, "non-breaking")},
    ),
    (
        "declared scope added",
        _set(f"{_OAUTH_FLOW}/scopes/trips:cancel", "Cancel trips"),
        {("oauth-scope-added", None, "non-breaking")},
        {("oauth-scope-removed", None, "breaking")},
    ),
    (
        "OAuth metadata URL published",
        _set(
            "securitySchemes/oauth/oauth2SecurityScheme/oauth2MetadataUrl",
            "https://id.example.com/.well-known/oauth",
        ),
        {("oauth-metadata-url-added", None, "non-breaking")},
        {("oauth-metadata-url-changed", None, "breaking")},
    ),
    (
        "scheme declared",
        _set("securitySchemes/mtls", {"mtlsSecurityScheme": {}}),
        {("scheme-added", None, "info")},
        {("scheme-removed", None, "info")},
    ),
]


@pytest.mark.parametrize(
    ("edit", "forward", "backward"), [m[1:] for m in MIRRORED], ids=[m[0] for m in MIRRORED]
)
def test_rule_in_both_directions(
    edit: Callable[[Card], None],
    forward: set[tuple[str, str | None, str]],
    backward: set[tuple[str, str | None, str]],
) -> None:
    original, changed = travel_card(), edited(edit)
    assert found(diff(original, changed)) == forward
    assert found(diff(changed, original)) == backward


@pytest.mark.parametrize(
    ("edit", "code", "skill_id"),
    [
        (_set("description", "Books trips and hotels."), "description-changed", None),
        (_set("skills/0/description", "Finds trips fast."), "description-changed", "search"),
        (_set("skills/0/name", "Find trips"), "name-changed", "search"),
        (_set("skills/0/tags", ["search", "travel"]), "tags-changed", "search"),
        (_set("skills/0/examples", ["Trips to Porto"]), "examples-changed", "search"),
        (_set("provider/organization", "Example Trips"), "provider-changed", None),
        (_set("documentationUrl", "https://docs.example.com"), "documentation-url-changed", None),
        (_set("iconUrl", "https://travel.example.com/icon.png"), "icon-url-changed", None),
        (
            _set(f"{_OAUTH_FLOW}/scopes/trips:read", "Read your trips"),
            "oauth-scope-description-changed",
            None,
        ),
        (
            _set("securitySchemes/key/apiKeySecurityScheme/description", "Partner key"),
            "scheme-description-changed",
            None,
        ),
        (
            _set("securitySchemes/basic/httpAuthSecurityScheme/bearerFormat", "JWT"),
            "bearer-format-changed",
            None,
        ),
        (
            _set("signatures", [{"protected": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0", "signature": "c2ln"}]),
            "signatures-changed",
            None,
        ),
    ],
)
def test_informational_changes(edit: Callable[[Card], None], code: str, skill_id: str | None) -> None:
    changes = diff(travel_card(), edited(edit))
    assert [(c.code, c.skill, c.severity) for c in changes] == [(code, skill_id, "info")]


def test_skill_declaring_the_defaults_it_inherited_is_no_change() -> None:
    own = edited(_set("skills/0/inputModes", ["application/json", "text/plain"]))
    own["skills"][0]["securityRequirements"] = [{"schemes": {"oauth": {"list": ["trips:read"]}}}]
    assert diff(travel_card(), own) == []
    assert diff(own, travel_card()) == []


def test_narrowing_names_the_type_and_the_override() -> None:
    changes = diff(travel_card(), edited(_set("skills/0/inputModes", ["text/plain"])))
    [change] = [c for c in changes if c.code != "version-not-bumped"]
    assert change.before == "application/json"
    assert change.after is None
    assert "now declares its own inputModes" in change.message
    assert change.pointer == "/skills/0/inputModes"
    assert change.side == "head"


def test_card_default_change_is_reported_once_with_the_inheriting_skills() -> None:
    changes = diff(travel_card(), edited(_set("defaultInputModes", ["text/plain"])))
    assert [(c.code, c.skill) for c in changes if c.code.startswith("input")] == [
        ("input-mode-removed", None)
    ]
    assert '"search"' in changes[0].message
    assert '"book"' not in changes[0].message


def test_wildcards_cover_concrete_types() -> None:
    wide = edited(_set("defaultOutputModes", ["text/*"]))
    assert found(diff(travel_card(), wide)) == {("output-mode-added", None, "non-breaking")}
    assert found(diff(wide, travel_card())) == {("output-mode-removed", None, "breaking")}


def test_scope_added_to_a_skill_with_its_own_requirements() -> None:
    stricter = edited(
        _set("skills/1/securityRequirements/0/schemes/oauth/list", ["trips:write", "trips:read"])
    )
    [change] = [c for c in diff(travel_card(), stricter) if c.code != "version-not-bumped"]
    assert (change.code, change.skill, change.before, change.after) == (
        "security-scope-required",
        "book",
        ["trips:write"],
        ["trips:read", "trips:write"],
    )
    assert '"trips:read"' in change.message


def test_removed_skill_points_into_the_base_card() -> None:
    base = travel_card()
    changes = diff(base, edited(lambda c: c["skills"].pop()))
    removed = next(c for c in changes if c.code == "skill-removed")
    assert (removed.side, removed.file, removed.pointer) == ("base", "base/card0.json", "/skills/1")
    text = json.dumps(base, indent=2).splitlines()
    assert text[removed.line - 1].strip() == "{"
    assert '"id": "book"' in text[removed.line]


def test_head_findings_are_located_on_the_changed_line() -> None:
    head = edited(_set("supportedInterfaces/0/url", "https://travel.example.com/v2"))
    change = next(c for c in diff(travel_card(), head) if c.code == "interface-url-changed")
    assert change.file == "head/card0.json"
    lines = json.dumps(head, indent=2).splitlines()
    assert change.pointer == "/supportedInterfaces/0"
    assert lines[change.line - 2].strip() == '"supportedInterfaces": ['
    assert lines[change.line].strip() == '"url": "https://travel.example.com/v2",'
    assert change.before == {
        "url": "https://travel.example.com/a2a",
        "protocolBinding": "JSONRPC",
        "protocolVersion": "1.0",
    }


# -- version policy ---------------------------------------------------------------------------------------


def _break_with_version(version: str) -> Card:
    head = edited(lambda c: c["skills"].pop())
    head["version"] = version
    return head


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("1.2.0", "1.2.0", "version-not-bumped"),
        ("1.2.0", "1.3.0", "version-not-bumped"),
        ("1.2.0", "2.0.0", None),
        ("1.2.0", "2.0.0-rc.1", None),
        ("v1.2", "v2", None),
        ("0.3.1", "0.3.2", "version-not-bumped"),
        ("0.3.1", "0.4.0", None),
        ("0.3.1", "1.0.0", None),
        ("0.0.3", "0.0.4", None),
        ("2.0.0", "1.0.0", "version-not-bumped"),
        ("2024-05", "2024-06", "version-not-semver"),
        ("2024-05", "2024-05", "version-not-bumped"),
    ],
)
def test_version_policy(old: str, new: str, expected: str | None) -> None:
    base = edited(_set("version", old))
    changes = diff(base, _break_with_version(new))
    policy = [c for c in changes if c.code in ("version-not-bumped", "version-not-semver")]
    assert [c.code for c in policy] == ([expected] if expected else [])
    if policy:
        assert (policy[0].before, policy[0].after) == (old, new)
        assert policy[0].pointer == "/version"
        assert old in policy[0].message


def test_version_policy_only_applies_to_breaking_changes() -> None:
    head = edited(_set("description", "Books trips and hotels."))
    head["version"] = "1.2.1"
    assert [c.code for c in diff(travel_card(), head)] == ["description-changed", "version-changed"]


def test_parse_version() -> None:
    assert parse_version("1.2.3") == (1, 2, 3)
    assert parse_version("v2") == (2, 0, 0)
    assert parse_version("1.0.0+build.5") == (1, 0, 0)
    assert parse_version("latest") is None
    assert parse_version("2024-05") is None
    assert parse_version(None) is None


# -- matching agents ----------------------------------------------------------------------------------------


def test_rename_with_the_same_url_is_info() -> None:
    changes = diff(travel_card(), edited(_set("name", "Trip Planner")))
    assert [(c.agent, c.code, c.severity, c.before, c.after) for c in changes] == [
        ("Trip Planner", "agent-renamed", "info", "Travel Agent", "Trip Planner")
    ]


def test_case_only_rename_is_matched_by_name() -> None:
    [change] = diff(travel_card(), edited(_set("name", "TRAVEL AGENT")))
    assert change.code == "agent-renamed"
    assert "letter case" in change.message


def test_rename_with_another_url_is_a_removal_and_an_addition() -> None:
    def other(card: Card) -> None:
        card["name"] = "Trip Planner"
        card["supportedInterfaces"][0]["url"] = "https://trips.example.com/a2a"

    changes = diff(travel_card(), edited(other))
    assert [(c.agent, c.code, c.side) for c in changes] == [
        ("Travel Agent", "agent-removed", "base"),
        ("Trip Planner", "agent-added", "head"),
    ]


def test_agents_are_matched_whatever_the_catalogue_order() -> None:
    other = edited(_set("name", "Hotel Agent"))
    other["supportedInterfaces"][0]["url"] = "https://hotel.example.com/a2a"
    head_other = edited(_set("description", "Books rooms."), other)
    one = diff([travel_card(), other], [head_other, travel_card()])
    two = diff([other, travel_card()], [travel_card(), head_other])
    assert [c.to_json() | {"file": "", "anchor": None} for c in one] == [
        c.to_json() | {"file": "", "anchor": None} for c in two
    ]
    assert [(c.agent, c.code) for c in one] == [("Hotel Agent", "description-changed")]


def test_ordering_is_agent_skill_severity_code_pointer() -> None:
    base = [
        travel_card(),
        edited(_set("name", "Alpha"), edited(_set("supportedInterfaces/0/url", "https://a.example"))),
    ]
    head_travel = edited(lambda c: c["skills"].pop())
    head_travel["description"] = "changed"
    head_travel["skills"][0]["tags"] = ["x"]
    changes = diff(base, [head_travel])
    keys = [c.sort_key() for c in changes]
    assert keys == sorted(keys)
    assert [(c.agent, c.skill, c.code) for c in changes] == [
        ("Alpha", None, "agent-removed"),
        ("Travel Agent", None, "version-not-bumped"),
        ("Travel Agent", None, "description-changed"),
        ("Travel Agent", "book", "skill-removed"),
        ("Travel Agent", "search", "tags-changed"),
    ]


def test_an_alternative_edited_in_place_is_compared_with_itself() -> None:
    """Of two head alternatives equally close to a base one, the one at its index is the edited one: the
    finding names its scope and is shown on it (not on an untouched requirement that sorts first)."""
    base = travel_card()
    base["securityRequirements"] = [
        {"schemes": {"oauth": {"list": ["trips:read"]}}},
        {"schemes": {"oauth": {"list": []}}},
    ]
    head = copy.deepcopy(base)
    head["securityRequirements"][1]["schemes"]["oauth"]["list"] = ["trips:write"]
    (scope,) = [c for c in diff(base, head) if c.code == "security-scope-required"]
    assert scope.after == ["trips:write"]
    assert '"trips:write"' in scope.message
    text = json.dumps(head, indent=2).splitlines()
    shown = text[scope.line - 1 : scope.line + 6]  # the requirement from its "{"
    assert shown[0].strip() == "{"
    assert any('"trips:write"' in line for line in shown)
    assert not any("trips:read" in line for line in shown)


# -- eras ---------------------------------------------------------------------------------------------------


def test_v03_card_and_its_v10_form_differ_only_in_era() -> None:
    v03 = load_catalog([DATA / "era" / "v0.3.json"])
    v10 = load_catalog([DATA / "era" / "v1.0.json"])
    assert not [d for d in v03.diagnostics + v10.diagnostics if d.severity == "error"]
    assert [(c.code, c.before, c.after) for c in diff_catalogs(v03, v10)] == [("era-changed", "0.3", "1.0")]
    assert [(c.code, c.before, c.after) for c in diff_catalogs(v10, v03)] == [("era-changed", "1.0", "0.3")]


def test_rules_hold_for_v03_cards() -> None:
    base = json.loads((DATA / "era" / "v0.3.json").read_text())
    head = copy.deepcopy(base)
    head["security"] = [{"harbourOAuth": ["containers:read", "berths:write"]}]
    head["supportsAuthenticatedExtendedCard"] = False
    head["skills"][0]["inputModes"] = ["text/plain"]
    changes = diff(base, head)
    assert found(changes) == {
        ("security-scope-required", None, "breaking"),
        ("security-alternative-removed", None, "breaking"),
        ("capability-disabled", None, "breaking"),
        ("input-mode-removed", "track-container", "breaking"),
    }
    disabled = next(c for c in changes if c.code == "capability-disabled")
    assert disabled.pointer == "/supportsAuthenticatedExtendedCard"
    scope = next(c for c in changes if c.code == "security-scope-required")
    assert scope.pointer == "/security"
    assert found(diff(head, base)) == {
        ("security-scope-no-longer-required", None, "non-breaking"),
        ("security-alternative-added", None, "non-breaking"),
        ("capability-enabled", None, "non-breaking"),
        ("input-mode-added", "track-container", "non-breaking"),
    }


# -- codes are documented -------------------------------------------------------------------------------------


def test_every_code_is_documented() -> None:
    if not DOCS.exists():
        pytest.skip("docs/review.md is not in this tree")
    text = DOCS.read_text(encoding="utf-8")
    rows = re.findall(
        r'^\| <a id="code-([a-z-]+)"></a>`\1` \| (breaking|non-breaking|info)( †)? \| (.+?) \| (.+?) \|$',
        text,
        re.MULTILINE,
    )
    assert {(code, severity) for code, severity, *_ in rows} == {
        (code, severity) for code, (severity, _) in CODES.items()
    }
    assert len(rows) == len(CODES)
    for code, _, mark, meaning, example in rows:
        assert (meaning, example) == (CODES[code][1], EXAMPLES[code]), code
        assert bool(mark) == (code in SCHEME_DETAIL_CODES), code


# -- properties -------------------------------------------------------------------------------------------------


def _shared_files() -> list[Path]:
    return sorted(SHARED_CARDS.rglob("*.json")) if SHARED_CARDS.is_dir() else []


@pytest.mark.skipif(not _shared_files(), reason="the shared card collection is not available")
def test_every_shared_card_equals_itself() -> None:
    collection = load_catalog([SHARED_CARDS])
    again = load_catalog([SHARED_CARDS])  # the same values in other objects: every comparison is made
    assert collection.cards
    assert diff_catalogs(collection, collection) == []
    assert diff_catalogs(collection, again) == []
    for card, same in zip(collection.cards, again.cards, strict=True):
        single = Catalog(cards=(card,), diagnostics=(), excluded=())
        assert diff_catalogs(single, single) == [], card.source.path
        assert diff_catalogs(single, Catalog(cards=(same,), diagnostics=(), excluded=())) == []


_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)
_modes = st.lists(
    st.sampled_from(["text/plain", "application/json", "image/png", "text/*", "*/*"]),
    min_size=1,
    max_size=3,
    unique=True,
)
_scopes = st.lists(st.sampled_from(["a", "b", "c"]), max_size=3, unique=True)
_requirements = st.lists(
    st.dictionaries(st.sampled_from(["oauth", "key"]), _scopes, min_size=1, max_size=2), max_size=3
)


@st.composite
def v03_cards(draw: st.DrawFn) -> Card:
    """A v0.3 card over a small vocabulary, so that two draws often share agents, skills and modes."""
    skills = []
    for index in range(draw(st.integers(1, 3))):
        item: Card = {
            "id": f"s{index}",
            "name": draw(_text),
            "description": draw(_text),
            "tags": [draw(_text)],
        }
        if draw(st.booleans()):
            item["inputModes"] = draw(_modes)
        if draw(st.booleans()):
            item["outputModes"] = draw(_modes)
        if draw(st.booleans()):
            item["security"] = draw(_requirements)
        skills.append(item)
    card: Card = {
        "protocolVersion": "0.3.0",
        "name": draw(st.sampled_from(["Alpha", "Beta"])),
        "description": draw(_text),
        "url": draw(st.sampled_from(["https://a.example/a2a", "https://b.example/a2a"])),
        "preferredTransport": draw(st.sampled_from(["JSONRPC", "HTTP+JSON"])),
        "version": draw(st.sampled_from(["1.0.0", "1.1.0", "2.0.0", "0.2.0"])),
        "capabilities": {"streaming": draw(st.booleans()), "pushNotifications": draw(st.booleans())},
        "securitySchemes": {
            "oauth": {
                "type": "oauth2",
                "flows": {
                    "clientCredentials": {
                        "tokenUrl": "https://id.example/token",
                        "scopes": {s: s.upper() for s in draw(_scopes)},
                    }
                },
            },
            "key": {"type": "apiKey", "in": draw(st.sampled_from(["header", "query"])), "name": "X-Key"},
        },
        "defaultInputModes": draw(_modes),
        "defaultOutputModes": draw(_modes),
        "skills": skills,
    }
    requirements = draw(_requirements)
    if requirements:
        card["security"] = requirements
    if draw(st.booleans()):
        card["supportsAuthenticatedExtendedCard"] = draw(st.booleans())
    return card


def to_v10(card: Card) -> Card:
    """The faithful v1.0 form of a generated v0.3 card."""

    def requirements(value: list[dict[str, list[str]]]) -> list[Card]:
        return [{"schemes": {name: {"list": scopes} for name, scopes in r.items()}} for r in value]

    result: Card = {
        "name": card["name"],
        "description": card["description"],
        "supportedInterfaces": [
            {"url": card["url"], "protocolBinding": card["preferredTransport"], "protocolVersion": "0.3"}
        ],
        "version": card["version"],
        "capabilities": dict(card["capabilities"]),
        "securitySchemes": {
            "oauth": {"oauth2SecurityScheme": {"flows": card["securitySchemes"]["oauth"]["flows"]}},
            "key": {
                "apiKeySecurityScheme": {
                    "location": card["securitySchemes"]["key"]["in"],
                    "name": card["securitySchemes"]["key"]["name"],
                }
            },
        },
        "defaultInputModes": card["defaultInputModes"],
        "defaultOutputModes": card["defaultOutputModes"],
        "skills": [],
    }
    if "supportsAuthenticatedExtendedCard" in card:
        result["capabilities"]["extendedAgentCard"] = card["supportsAuthenticatedExtendedCard"]
    if "security" in card:
        result["securityRequirements"] = requirements(card["security"])
    for item in card["skills"]:
        converted = {k: v for k, v in item.items() if k != "security"}
        if "security" in item:
            converted["securityRequirements"] = requirements(item["security"])
        result["skills"].append(converted)
    return result


_FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FAST
@given(v03_cards())
def test_generated_card_equals_itself_in_both_eras(card: Card) -> None:
    assert diff(card, card) == []
    v10 = to_v10(card)
    assert diff(v10, v10) == []
    assert [(c.code, c.before, c.after) for c in diff(card, v10)] == [("era-changed", "0.3", "1.0")]


@_FAST
@given(v03_cards(), v03_cards())
def test_generated_pairs_mirror_each_other(one: Card, two: Card) -> None:
    forward, backward = diff(one, two), diff(two, one)
    for changes in (forward, backward):
        assert all(
            CODES[c.code][0] == c.severity or (c.code in SCHEME_DETAIL_CODES and c.severity == "info")
            for c in changes
        )
        assert [c.sort_key() for c in changes] == sorted(c.sort_key() for c in changes)
        json.dumps([c.to_json() for c in changes])
    mirrors = {
        "input-mode-removed": "input-mode-added",
        "output-mode-removed": "output-mode-added",
        "skill-removed": "skill-added",
        "capability-disabled": "capability-enabled",
        "security-required": "security-no-longer-required",
        "security-scope-required": "security-scope-no-longer-required",
        "agent-removed": "agent-added",
    }
    for removed, added in mirrors.items():
        there = sorted((c.skill or "", json.dumps(c.before)) for c in forward if c.code == removed)
        back = sorted((c.skill or "", json.dumps(c.after)) for c in backward if c.code == added)
        if removed in ("agent-removed", "security-required", "security-scope-required"):
            there, back = [(t[0], "") for t in there], [(b[0], "") for b in back]
        assert there == back, removed


def test_extension_required_flag_and_description() -> None:
    optional = edited(
        _set("capabilities/extensions", [{"uri": "https://ext.example.com/pay", "description": "Pay"}])
    )
    required = edited(_set("capabilities/extensions/0/required", True), optional)
    assert found(diff(optional, required)) == {("extension-made-required", None, "breaking")}
    assert found(diff(required, optional)) == {("extension-made-optional", None, "non-breaking")}
    configured = edited(_set("capabilities/extensions/0/params", {"currency": "EUR"}), optional)
    assert found(diff(optional, configured)) == {("extension-params-added", None, "non-breaking")}
    assert found(diff(configured, optional)) == {("extension-params-changed", None, "breaking")}
    described = edited(_set("capabilities/extensions/0/description", "Pay by card"), optional)
    assert found(diff(optional, described)) == {("extension-changed", None, "info")}


def test_skill_that_stops_declaring_requirements_takes_the_cards() -> None:
    inherits = edited(_set("skills/1/securityRequirements", _DELETE))
    changes = [c for c in diff(travel_card(), inherits) if c.skill == "book"]
    assert {(c.code, c.severity) for c in changes} == {
        ("security-scope-required", "breaking"),
        ("security-scope-no-longer-required", "non-breaking"),
    }
    assert all("no longer declares requirements and takes the card's" in c.message for c in changes)
    assert all(c.pointer == "/securityRequirements" for c in changes)


def test_removed_card_file_is_named_in_the_message() -> None:
    base = catalog(travel_card(), prefix="cards/")
    head = Catalog(cards=(), diagnostics=(), excluded=("cards/card0.json",))
    [change] = diff_catalogs(base, head)
    assert (change.code, change.severity, change.side) == ("card-unreadable", "breaking", "head")
    assert change.file == "cards/card0.json"
    assert "no longer loads" in change.message


# -- issue 16: bugs a 79-case review found -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (["text/plain"], ["text/plain;charset=utf-8"]),
        (["application/json"], ["application/json; charset=UTF-8"]),
        (["text/plain;charset=utf-8"], ["text/plain"]),
        (["text/plain; charset=utf-8"], ["text/plain;Charset=UTF-8"]),
    ],
)
def test_output_type_with_parameters_still_produces_the_base_type(
    before: list[str], after: list[str]
) -> None:
    base = edited(_set("defaultOutputModes", before))
    head = edited(_set("defaultOutputModes", after))
    assert diff(base, head) == []
    own_base = edited(_set("skills/1/outputModes", before))
    own_head = edited(_set("skills/1/outputModes", after))
    assert diff(own_base, own_head) == []


def test_output_type_with_conflicting_parameters_is_removed() -> None:
    base = edited(_set("defaultOutputModes", ["text/plain;charset=utf-8"]))
    head = edited(_set("defaultOutputModes", ["text/plain;charset=iso-8859-1"]))
    assert found(diff(base, head)) == {
        ("output-mode-removed", None, "breaking"),
        ("output-mode-added", None, "non-breaking"),
    }


def test_input_type_narrowed_to_a_parameter_is_still_a_narrowing() -> None:
    base = edited(_set("defaultInputModes", ["text/plain"]))
    head = edited(_set("defaultInputModes", ["text/plain;charset=utf-8"]))
    assert found(diff(base, head)) == {("input-mode-removed", None, "breaking")}
    assert found(diff(head, base)) == {("input-mode-added", None, "non-breaking")}


def test_same_named_agents_are_paired_by_their_interface_url() -> None:
    one = edited(_set("supportedInterfaces/0/url", "https://eu.travel.example.com/a2a"))
    two = edited(_set("supportedInterfaces/0/url", "https://us.travel.example.com/a2a"))
    two["skills"].pop()
    # The files swap names: base card0 is "one", head card0 is "two".
    assert diff([one, two], [two, one]) == []
    assert diff([one, two], [one, two]) == []


def test_same_named_agents_with_one_url_changed_are_paired_by_file() -> None:
    one = edited(_set("supportedInterfaces/0/url", "https://eu.travel.example.com/a2a"))
    two = edited(_set("supportedInterfaces/0/url", "https://us.travel.example.com/a2a"))
    moved = edited(_set("supportedInterfaces/0/url", "https://us2.travel.example.com/a2a"), two)
    changes = diff([one, two], [one, moved])
    assert [(c.code, c.file) for c in found_changes(changes)] == [
        ("interface-url-changed", "head/card1.json")
    ]


def found_changes(changes: list[Change]) -> list[Change]:
    return [
        c for c in changes if c.code not in ("version-not-bumped", "version-changed", "version-not-semver")
    ]


_SCHEME_EDITS = [
    ("key", _set("securitySchemes/key/apiKeySecurityScheme/location", "query"), "api-key-location-changed"),
    ("key", _set("securitySchemes/key/apiKeySecurityScheme/name", "X-Key"), "api-key-name-changed"),
    ("basic", _set("securitySchemes/basic/httpAuthSecurityScheme/scheme", "Bearer"), "http-scheme-changed"),
    ("basic", _set("securitySchemes/basic", {"mtlsSecurityScheme": {}}), "scheme-type-changed"),
    (
        "oidc",
        _set(
            "securitySchemes/oidc/openIdConnectSecurityScheme/openIdConnectUrl", "https://id2.example.com/o"
        ),
        "oidc-url-changed",
    ),
    ("oauth", _set(f"{_OAUTH_FLOW}/tokenUrl", "https://id2.example.com/token"), "oauth-url-changed"),
]


@pytest.mark.parametrize(
    ("scheme", "edit", "code"), _SCHEME_EDITS, ids=[f"{s}-{c}" for s, _, c in _SCHEME_EDITS]
)
def test_detail_change_of_a_scheme_follows_whether_a_requirement_uses_it(
    scheme: str, edit: Callable[[Card], None], code: str
) -> None:
    unused = travel_card()
    unused["securityRequirements"] = []
    unused["skills"][1].pop("securityRequirements")
    changes = diff(unused, edited(edit, unused))
    assert [(c.code, c.severity) for c in changes] == [(code, "info")]
    assert "no requirement uses it" in changes[0].message

    used = edited(_set("skills/0/securityRequirements", [{"schemes": {scheme: {}}}]), unused)
    changes = diff(used, edited(edit, used))
    assert (code, None, "breaking") in found(changes)
    assert "no requirement uses it" not in next(c for c in changes if c.code == code).message


def test_scheme_used_only_by_a_skill_is_used() -> None:
    # travel_card's "oauth" is required by the card and by skill "book"; "key" by nobody
    base = edited(_set("skills/1/securityRequirements", [{"schemes": {"key": {}}}]))
    head = edited(_set("securitySchemes/key/apiKeySecurityScheme/location", "cookie"), base)
    assert found(diff(base, head)) == {("api-key-location-changed", None, "breaking")}


def test_removing_an_extension_is_breaking() -> None:
    optional = edited(_set("capabilities/extensions", [{"uri": "https://ext.example.com/trace"}]))
    changes = diff(optional, travel_card())
    assert found(changes) == {("extension-removed", None, "breaking")}
    assert "version-not-bumped" in {c.code for c in changes}


def _messages(base: Card, head: Card) -> list[str]:
    return [c.message for c in diff(base, head)]


def test_wording_of_card_defaults_and_capabilities() -> None:
    narrowed = _messages(travel_card(), edited(_set("defaultInputModes", ["text/plain"])))
    assert any(m.startswith('the card defaults no longer accept "application/json"') for m in narrowed)
    widened = _messages(
        travel_card(), edited(_set("defaultInputModes", ["text/plain", "application/json", "image/png"]))
    )
    assert any(m.startswith('"image/png" is now accepted by the card defaults') for m in widened)
    push = _messages(travel_card(), edited(_set("capabilities/pushNotifications", True)))
    assert "push notifications are now supported" in push
    assert any(
        m.startswith("streaming is no longer supported")
        for m in _messages(travel_card(), edited(_set("capabilities/streaming", False)))
    )


def test_wording_of_skills_does_not_repeat_the_id() -> None:
    added = next(
        c for c in diff(edited(lambda c: c["skills"].pop()), travel_card()) if c.code == "skill-added"
    )
    removed = next(
        c for c in diff(travel_card(), edited(lambda c: c["skills"].pop())) if c.code == "skill-removed"
    )
    assert '"book"' not in added.message
    assert '"book"' not in removed.message
    assert added.message == 'a new skill, "Book a trip"'
    assert removed.message == 'the skill is gone ("Book a trip"); clients that call it fail'


def test_wording_of_a_missing_version() -> None:
    base = edited(_set("version", _DELETE))
    head = edited(lambda c: c["skills"].pop(), base)
    [policy] = [c for c in diff(base, head) if c.code == "version-not-bumped"]
    assert "(none)" not in policy.message
    assert policy.message.startswith("breaking changes ship but the card declares no version")
    added = diff(base, edited(_set("version", "1.2.0"), base))
    assert [(c.code, c.message) for c in added] == [("version-changed", 'the version "1.2.0" was added')]
    removed = diff(travel_card(), base)
    assert [(c.code, c.message) for c in removed] == [("version-changed", 'the version "1.2.0" was removed')]
    gone = [c for c in diff(travel_card(), head) if c.code.startswith("version-not")]
    assert [c.code for c in gone] == ["version-not-bumped"]
    assert "(none)" not in gone[0].message


def test_a_protocol_version_written_down_where_none_was_stated_is_no_change() -> None:
    v02 = {
        "name": "Old Agent",
        "description": "Answers.",
        "version": "1.0.0",
        "url": "https://old.example.com/a2a",
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "a", "name": "A", "description": "Answers.", "tags": ["qa"]}],
    }
    v10 = {k: v for k, v in v02.items() if k != "url"}
    v10["supportedInterfaces"] = [
        {"url": "https://old.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}
    ]
    assert [c.code for c in diff(v02, v10)] == ["era-changed"]
    # A version that was stated and changes is still a change.
    v02["protocolVersion"] = "0.2.5"
    assert "protocol-version-dropped" in {c.code for c in diff(v02, v10)}


_media_types = st.lists(
    st.builds(
        lambda kind, params: kind + "".join(params),
        st.sampled_from(
            ["text/plain", "Text/Plain", "application/json", "image/*", "*/*", "*", "text/*", "x"]
        ),
        st.lists(
            st.sampled_from([";charset=utf-8", "; Charset=UTF-8", ";q=1", ";a", ';b="c"', ";b=y", "; ="]),
            max_size=3,
        ),
    ),
    max_size=4,
)


@_FAST
@given(_media_types)
def test_every_mode_covers_itself(modes: list[str]) -> None:
    """Why comparing a list of media types with an equal list is skipped: each mode covers itself."""
    from a2a_docgen.review.compare.modes import _mode_covered

    for mode in modes:
        assert _mode_covered(mode, modes, "input")
        assert _mode_covered(mode, modes, "output")
