"""The registry of review codes: every finding ``diff`` reports has one, with a default severity.

``CODES`` (code -> severity, meaning) and ``EXAMPLES`` (code -> a message as ``diff`` writes it) are listed
by ``a2a-docgen diff --list-codes`` and in docs/review.md; tests keep the three in step.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "CODES",
    "EXAMPLES",
    "POLICY_CODES",
    "SCHEME_DETAIL_CODES",
    "SEVERITIES",
    "ChangeSeverity",
    "severity_at_least",
    "severity_rank",
]

ChangeSeverity = Literal["breaking", "non-breaking", "info"]

SEVERITIES: tuple[ChangeSeverity, ...] = ("breaking", "non-breaking", "info")
"""Most severe first; the order of sorting and of ``--fail-on``."""

B: ChangeSeverity = "breaking"
N: ChangeSeverity = "non-breaking"
I: ChangeSeverity = "info"  # noqa: E741

CODES: dict[str, tuple[ChangeSeverity, str]] = {
    # agents and their identity
    "agent-added": (N, "a card for a new agent appeared"),
    "agent-removed": (B, "an agent's card disappeared (or no longer loads)"),
    "agent-renamed": (I, "an agent's name changed; it was matched by its preferred interface URL"),
    "era-changed": (I, "the card is written in the shape of another A2A version (v0.3 JSON, v1.0 ProtoJSON)"),
    "version-changed": (I, "the agent's own version changed"),
    "version-not-bumped": (B, "breaking changes ship without a major version bump of the card's version"),
    "version-not-semver": (I, "breaking changes ship, but a version is not semantic and cannot be judged"),
    "description-changed": (I, "an agent's or skill's description changed"),
    "provider-changed": (I, "the provider's organisation or URL changed"),
    "documentation-url-changed": (I, "the documentation link changed"),
    "icon-url-changed": (I, "the icon link changed"),
    "signatures-changed": (I, "the card's signatures changed"),
    "signatures-removed": (B, "the card is no longer signed, or a key no longer signs it"),
    "signature-broken": (B, "a signature that verified no longer does (the signed content changed)"),
    # interfaces
    "interface-added": (N, "a new interface is served"),
    "interface-removed": (B, "an interface is no longer served"),
    "interface-url-changed": (B, "an interface moved to another URL"),
    "protocol-binding-dropped": (B, "a URL no longer serves a protocol binding it served"),
    "protocol-version-dropped": (B, "a URL and binding no longer serve an A2A version they served"),
    "tenant-changed": (B, "the tenant clients must send to an interface changed"),
    "preferred-interface-changed": (N, "another interface is now the first (preferred) one"),
    # capabilities and extensions
    "capability-disabled": (B, "streaming, push notifications or the extended card is no longer supported"),
    "capability-enabled": (N, "streaming, push notifications or the extended card is now supported"),
    "extension-added": (N, "an optional extension is now supported"),
    "extension-added-required": (B, "a new extension is required from clients"),
    "extension-removed": (B, "an extension is no longer supported"),
    "extension-made-required": (B, "an extension that was optional is now required"),
    "extension-made-optional": (N, "an extension that was required is now optional"),
    "extension-changed": (I, "an extension's description or parameters changed"),
    # media types (agent: the card defaults; skill: its effective modes)
    "input-mode-removed": (B, "a media type is no longer accepted"),
    "input-mode-added": (N, "a media type is now accepted"),
    "output-mode-removed": (B, "a media type is no longer produced"),
    "output-mode-added": (N, "a media type is now produced"),
    # security requirements (agent: the card's; skill: its effective requirements)
    "security-required": (B, "authentication is required where none was"),
    "security-no-longer-required": (N, "authentication is no longer required"),
    "security-alternative-removed": (B, "a way to authenticate is no longer accepted"),
    "security-alternative-added": (N, "a new way to authenticate is accepted"),
    "security-scheme-required": (B, "a scheme is now required in addition to the others"),
    "security-scheme-no-longer-required": (N, "a scheme is no longer required in addition to the others"),
    "security-scope-required": (B, "a scope is now required"),
    "security-scope-no-longer-required": (N, "a scope is no longer required"),
    # security scheme definitions
    "scheme-added": (I, "a security scheme is declared (requirements that use it are reported apart)"),
    "scheme-removed": (I, "a security scheme is no longer declared (requirements are reported apart)"),
    "scheme-type-changed": (B, "a security scheme changed its kind (apiKey, http, oauth2 ...)"),
    "scheme-description-changed": (I, "a security scheme's description changed"),
    "api-key-name-changed": (B, "the name of the header, query parameter or cookie of an API key changed"),
    "api-key-location-changed": (B, "where an API key is sent (header, query, cookie) changed"),
    "http-scheme-changed": (B, "the HTTP authentication scheme (Bearer, Basic ...) changed"),
    "bearer-format-changed": (I, "the bearer format hint changed"),
    "oidc-url-changed": (B, "the OpenID Connect discovery URL changed"),
    "oauth-metadata-url-changed": (B, "the OAuth authorization-server metadata URL changed or was removed"),
    "oauth-metadata-url-added": (N, "an OAuth authorization-server metadata URL is now declared"),
    "oauth-flow-added": (N, "an OAuth flow is now offered"),
    "oauth-flow-removed": (B, "an OAuth flow is no longer offered"),
    "oauth-url-changed": (B, "an OAuth authorization, token, refresh or device URL changed"),
    "oauth-scope-added": (N, "an OAuth flow declares a new scope"),
    "oauth-scope-removed": (B, "an OAuth flow no longer declares a scope clients may request"),
    "oauth-scope-description-changed": (I, "the description of an OAuth scope changed"),
    "pkce-required": (B, "PKCE is now mandatory"),
    "pkce-no-longer-required": (N, "PKCE is no longer mandatory"),
    # skills
    "skill-added": (N, "a skill was added"),
    "skill-removed": (B, "a skill was removed"),
    "name-changed": (I, "a skill's name changed"),
    "tags-changed": (I, "a skill's tags changed"),
    "examples-changed": (I, "a skill's examples changed"),
}
"""Every code: its default severity and what it means (docs/review.md lists the same)."""

EXAMPLES: dict[str, str] = {
    "agent-added": "Maps Agent: a new agent",
    "agent-removed": "Fax Gateway: the agent is gone (its file no longer loads as a card)",
    "agent-renamed": 'Trip Planner: renamed from "Travel Agent" (matched by its preferred interface URL ...)',
    "era-changed": "the card is now written in the v1.0 shape (was v0.3)",
    "version-changed": 'version "1.4.0" is now "1.5.0"',
    "version-not-bumped": 'breaking changes ship but the version went from "1.4.0" to "1.5.0", which is not a '
    "major bump; use 2.0.0 or later",
    "version-not-semver": 'breaking changes ship and the version went from "2024-05" to "2024-06", but "2024-05" '
    "is not a semantic version ...",
    "description-changed": "the description changed",
    "provider-changed": "the provider changed",
    "documentation-url-changed": "the documentation link changed",
    "icon-url-changed": "the icon link was added",
    "signatures-changed": "the card's signatures changed (1 before, 2 now)",
    "signatures-removed": "the signature by key 'acme-2026' was removed: clients that trust only that key cannot "
    "verify the card any more",
    "signature-broken": "the signature by key 'acme-2026' was kept while the content it covers changed (neither "
    "canonical form is the same), so it no longer verifies: re-sign the card",
    "interface-added": 'a "GRPC" interface is served at "grpc.example.com:443" (A2A 1.0)',
    "interface-removed": 'the "HTTP+JSON" interface at "https://example.com/rest" (A2A 1.0) is no longer served',
    "interface-url-changed": 'the "JSONRPC" interface moved from "https://example.com/a2a" to "https://example.com/v2"',
    "protocol-binding-dropped": '"https://example.com/a2a" no longer serves "JSONRPC"; it serves "HTTP+JSON"',
    "protocol-version-dropped": '"https://example.com/a2a" (JSONRPC) no longer serves A2A 0.3; it serves 1.0',
    "tenant-changed": 'clients must now send tenant "acme" to "https://example.com/a2a" (was none)',
    "preferred-interface-changed": 'the preferred (first) interface is now "GRPC" at "grpc.example.com:443"; ...',
    "capability-disabled": "streaming is no longer supported (absent counts as false); clients that use it get an "
    "error",
    "capability-enabled": "push notifications are now supported",
    "extension-added": 'extension "https://ext.example.com/trace" is now supported',
    "extension-added-required": 'extension "https://ext.example.com/pay" is new and required: clients that do not '
    "declare it are refused",
    "extension-removed": 'extension "https://ext.example.com/trace" is no longer supported: clients that activate '
    "it lose what it adds",
    "extension-made-required": 'extension "https://ext.example.com/pay" is now required: clients that do not '
    "declare it are refused",
    "extension-made-optional": 'extension "https://ext.example.com/pay" is no longer required',
    "extension-changed": 'the description or parameters of extension "https://ext.example.com/pay" changed',
    "input-mode-removed": 'the skill no longer accepts "application/json"',
    "input-mode-added": '"image/png" is now accepted by the card defaults',
    "output-mode-removed": 'the card defaults no longer produce "text/html"',
    "output-mode-added": '"application/geo+json" is now produced by the skill',
    "security-required": 'authentication is now required (the card\'s requirements: "oauth" (scopes "read"))',
    "security-no-longer-required": "authentication is no longer required (the skill's requirements)",
    "security-alternative-removed": 'authenticating with "key" is no longer accepted',
    "security-alternative-added": 'authenticating with "mtls" is now accepted',
    "security-scheme-required": 'clients that authenticate with "oauth" now also need "key"',
    "security-scheme-no-longer-required": 'clients that authenticate with "oauth" no longer need "key" as well',
    "security-scope-required": 'now requires scope "forecast" of "oauth"',
    "security-scope-no-longer-required": 'no longer requires scope "admin" of "oauth"',
    "scheme-added": 'security scheme "mtls" (mtls) is declared',
    "scheme-removed": 'security scheme "legacy" is no longer declared',
    "scheme-type-changed": 'security scheme "basic" changed from http to oauth2',
    "scheme-description-changed": 'the description of security scheme "key" changed',
    "api-key-name-changed": 'the API key of "key" is now sent as "X-Key" (was "X-Api-Key")',
    "api-key-location-changed": 'the API key of "key" is now sent in the query (was the header)',
    "http-scheme-changed": 'security scheme "basic" now uses HTTP "Bearer" (was "Basic")',
    "bearer-format-changed": 'the bearer format of "bearer" changed',
    "oidc-url-changed": 'the OpenID Connect discovery URL of "oidc" is now "https://id2.example.com/oidc"',
    "oauth-metadata-url-changed": 'the authorization-server metadata URL of "oauth" is now '
    '"https://id2.example.com/.well-known/oauth-authorization-server"',
    "oauth-metadata-url-added": 'security scheme "oauth" now publishes authorization-server metadata',
    "oauth-flow-added": 'security scheme "oauth" now offers the deviceCode flow',
    "oauth-flow-removed": 'security scheme "oauth" no longer offers the implicit flow',
    "oauth-url-changed": 'the token URL of the clientCredentials flow of "oauth" is now "https://id2.example.com/token"',
    "oauth-scope-added": 'the clientCredentials flow of "oauth" declares scope "alerts"',
    "oauth-scope-removed": 'the clientCredentials flow of "oauth" no longer declares scope "admin"; clients that '
    "request it may be refused",
    "oauth-scope-description-changed": 'the description of scope "read" of the clientCredentials flow of "oauth" '
    "changed",
    "pkce-required": 'the authorizationCode flow of "oauth" now requires PKCE',
    "pkce-no-longer-required": 'the authorizationCode flow of "oauth" no longer requires PKCE',
    "skill-added": 'a new skill, "Severe weather alerts"',
    "skill-removed": 'the skill is gone ("Fax a document"); clients that call it fail',
    "name-changed": "the skill's name changed",
    "tags-changed": "the skill's tags changed",
    "examples-changed": "the skill's examples changed",
}
"""A message of each code as ``diff`` writes it (shortened with ``...`` where long)."""

POLICY_CODES = frozenset({"version-not-bumped", "version-not-semver"})
"""Findings about the rules a change must follow (the version policy), counted apart from changes."""

SCHEME_DETAIL_CODES = frozenset(
    {
        "scheme-type-changed",
        "api-key-name-changed",
        "api-key-location-changed",
        "http-scheme-changed",
        "oidc-url-changed",
        "oauth-metadata-url-changed",
        "oauth-metadata-url-added",
        "oauth-flow-added",
        "oauth-flow-removed",
        "oauth-url-changed",
        "oauth-scope-added",
        "oauth-scope-removed",
        "pkce-required",
        "pkce-no-longer-required",
    }
)
"""Changes inside a scheme definition: ``info`` unless a requirement uses the scheme before and after."""

_RANK = {severity: rank for rank, severity in enumerate(SEVERITIES)}


def severity_rank(severity: ChangeSeverity) -> int:
    """0 for ``breaking``, 1 for ``non-breaking``, 2 for ``info``."""
    return _RANK[severity]


def severity_at_least(severity: ChangeSeverity, threshold: ChangeSeverity) -> bool:
    """``breaking`` is at least ``non-breaking``, which is at least ``info``."""
    return _RANK[severity] <= _RANK[threshold]
