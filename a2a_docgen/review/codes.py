"""The registry of review codes: every finding ``diff`` reports has one, with a default severity.

A finding is made from one of the constants below (``AGENT_REMOVED``, ``SKILL_ADDED`` ...), so a code that is
not registered here cannot be reported: the comparisons take a ``ReviewCode``, never a string, and importing a
module that names an unknown constant fails. ``CODES`` (code -> severity, meaning) and ``EXAMPLES`` (code -> a
message as ``diff`` writes it) are derived from the registry; ``a2a-docgen diff --list-codes`` and
docs/review.md list the same codes, and tests keep the three in step. Each code has a row in docs/review.md
with the id ``code-<name>`` (``ReviewCode.docs_url``), which every format with links points to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "CODES",
    "CONFIG_CODES",
    "CONFIG_INVALID",
    "CONFIG_LOOSENED",
    "CONFIG_TIGHTENED",
    "DOCS_URL",
    "EXAMPLES",
    "FAMILIES",
    "POLICY_CODES",
    "REGISTRY",
    "SCHEME_DETAIL_CODES",
    "SEVERITIES",
    "ChangeSeverity",
    "ReviewCode",
    "docs_url",
    "severity_at_least",
    "severity_rank",
]

ChangeSeverity = Literal["breaking", "non-breaking", "info"]

SEVERITIES: tuple[ChangeSeverity, ...] = ("breaking", "non-breaking", "info")
"""Most severe first; the order of sorting and of ``--fail-on``."""

B: ChangeSeverity = "breaking"
N: ChangeSeverity = "non-breaking"
I: ChangeSeverity = "info"  # noqa: E741

DOCS_URL = "https://github.com/a2a-docgen/a2a-docgen/blob/main/docs/review.md"
"""docs/review.md as published; each code's row has the id ``code-<name>``."""

FAMILIES: tuple[str, ...] = (
    "configuration",
    "cards",
    "agents",
    "signatures",
    "interfaces",
    "capabilities",
    "modes",
    "security",
    "schemes",
    "skills",
)
"""The families of codes, in the order of docs/review.md; each has one comparison module (``review.compare``;
the configuration's is ``review.rules``)."""


@dataclass(frozen=True, slots=True)
class ReviewCode:
    """One review code."""

    name: str
    """Stable, kebab-case: ``agent-removed``. Codes never change meaning."""
    severity: ChangeSeverity
    """The default severity; the configuration (or the context) may change it."""
    family: str
    """One of ``FAMILIES``."""
    meaning: str
    """What it means, in one line."""
    example: str
    """A message as ``diff`` writes it (shortened with ``...`` where long)."""

    def __str__(self) -> str:
        return self.name

    @property
    def anchor(self) -> str:
        """The id of the code's row in docs/review.md."""
        return f"code-{self.name}"

    @property
    def docs_url(self) -> str:
        return f"{DOCS_URL}#{self.anchor}"


REGISTRY: dict[str, ReviewCode] = {}
"""Every code by name, in the order of docs/review.md."""


def _code(name: str, severity: ChangeSeverity, family: str, meaning: str, example: str) -> ReviewCode:
    if name in REGISTRY or family not in FAMILIES:
        raise ValueError(f"review code {name!r}: registered twice or of an unknown family {family!r}")
    code = REGISTRY[name] = ReviewCode(name, severity, family, meaning, example)
    return code


CONFIG_LOOSENED = _code(
    "config-loosened",
    B,
    "configuration",
    "the head's configuration turns off, lowers or accepts what the base's reports; non-breaking when no "
    "finding of this review is concerned",
    "turns skill-removed off (breaking at the base): it would hide 1 finding of this review",
)
CONFIG_TIGHTENED = _code(
    "config-tightened",
    I,
    "configuration",
    "the head's configuration reports more than the base's: a code raised or back on, an acceptance removed",
    "raises skill-removed from non-breaking to breaking",
)
CONFIG_INVALID = _code(
    "config-invalid",
    B,
    "configuration",
    "the head's configuration cannot be used: once merged, every review stops with exit 2",
    "the configuration cannot be used, so once merged every review stops (exit 2): .a2a-docgen.toml:3: ...",
)
CARD_ERROR_ADDED = _code(
    "card-error-added",
    B,
    "cards",
    "the head card has an error the base card did not have; clients (the a2a-sdk among them) may refuse it",
    "the card has a new error: skills[0].examples must be an array of strings [type-mismatch]",
)
CARD_ERROR_FIXED = _code(
    "card-error-fixed",
    N,
    "cards",
    "the base card had an error the head card no longer has; clients that refused the card may now read it",
    'card error fixed: "streaming" must be a boolean, not a string "True" ... [wrong-type]',
)
NEW_CARD_ERROR = _code(
    "new-card-error",
    N,
    "cards",
    "the card of a new agent has an error; it has no clients to break yet, but clients may refuse it",
    "the new card has an error, which clients such as the a2a-sdk may refuse: ... [wrong-type]",
)
CARD_UNREADABLE = _code(
    "card-unreadable",
    B,
    "cards",
    "a card file no longer loads as a card (or a new one does not): no client can read it",
    "the card no longer loads: not valid JSON (line 4, column 3) [json-syntax]",
)
AGENT_ADDED = _code(
    "agent-added",
    N,
    "agents",
    "a card for a new agent appeared",
    "Maps Agent: a new agent",
)
AGENT_REMOVED = _code(
    "agent-removed",
    B,
    "agents",
    "an agent's card disappeared (a file that no longer loads is card-unreadable)",
    "Fax Gateway: the agent is gone",
)
AGENT_RENAMED = _code(
    "agent-renamed",
    I,
    "agents",
    "an agent's name changed; it was matched by its preferred interface URL",
    'Trip Planner: renamed from "Travel Agent" (matched by its preferred interface URL ...)',
)
ERA_CHANGED = _code(
    "era-changed",
    I,
    "agents",
    "the card is written in the shape of another A2A version (v0.3 JSON, v1.0 ProtoJSON)",
    "the card is now written in the v1.0 shape (was v0.3)",
)
VERSION_CHANGED = _code(
    "version-changed",
    I,
    "agents",
    "the agent's own version changed",
    'version "1.4.0" is now "1.5.0"',
)
VERSION_NOT_BUMPED = _code(
    "version-not-bumped",
    B,
    "agents",
    "breaking changes ship without a major version bump of the card's version",
    'breaking changes ship but the version went from "1.4.0" to "1.5.0", which is not a major bump; use 2.0.0 or later',
)
VERSION_NOT_SEMVER = _code(
    "version-not-semver",
    I,
    "agents",
    "breaking changes ship, but a version is not semantic and cannot be judged",
    'breaking changes ship and the version went from "2024-05" to "2024-06", but "2024-05" is not a semantic version ...',
)
DESCRIPTION_CHANGED = _code(
    "description-changed",
    I,
    "agents",
    "an agent's or skill's description changed",
    "the description changed",
)
PROVIDER_CHANGED = _code(
    "provider-changed",
    I,
    "agents",
    "the provider's organisation or URL changed",
    "the provider changed",
)
DOCUMENTATION_URL_CHANGED = _code(
    "documentation-url-changed",
    I,
    "agents",
    "the documentation link changed",
    "the documentation link changed",
)
ICON_URL_CHANGED = _code(
    "icon-url-changed",
    I,
    "agents",
    "the icon link changed",
    "the icon link was added",
)
SIGNATURES_CHANGED = _code(
    "signatures-changed",
    I,
    "signatures",
    "the card's signatures changed",
    "the card's signatures changed (1 before, 2 now)",
)
SIGNATURES_REMOVED = _code(
    "signatures-removed",
    B,
    "signatures",
    "the card is no longer signed, or a key no longer signs it",
    "the signature by key 'acme-2026' was removed: clients that trust only that key cannot verify the card any more",
)
SIGNATURE_BROKEN = _code(
    "signature-broken",
    B,
    "signatures",
    "a signature that verified no longer does (the signed content changed)",
    "the signature by key 'acme-2026' was kept while the content it covers changed (neither canonical form is the same), so it no longer verifies: re-sign the card",
)
INTERFACE_ADDED = _code(
    "interface-added",
    N,
    "interfaces",
    "a new interface is served",
    'a "GRPC" interface is served at "grpc.example.com:443" (A2A 1.0)',
)
INTERFACE_REMOVED = _code(
    "interface-removed",
    B,
    "interfaces",
    "an interface is no longer served",
    'the "HTTP+JSON" interface at "https://example.com/rest" (A2A 1.0) is no longer served',
)
INTERFACE_URL_CHANGED = _code(
    "interface-url-changed",
    B,
    "interfaces",
    "an interface moved to another URL",
    'the "JSONRPC" interface moved from "https://example.com/a2a" to "https://example.com/v2"',
)
PROTOCOL_BINDING_DROPPED = _code(
    "protocol-binding-dropped",
    B,
    "interfaces",
    "a URL no longer serves a protocol binding it served",
    '"https://example.com/a2a" no longer serves "JSONRPC"; it serves "HTTP+JSON"',
)
PROTOCOL_VERSION_DROPPED = _code(
    "protocol-version-dropped",
    B,
    "interfaces",
    "a URL and binding no longer serve an A2A version they served",
    '"https://example.com/a2a" (JSONRPC) no longer serves A2A 0.3; it serves 1.0',
)
TENANT_CHANGED = _code(
    "tenant-changed",
    B,
    "interfaces",
    "the tenant clients must send to an interface changed",
    'clients must now send tenant "acme" to "https://example.com/a2a" (was none)',
)
PREFERRED_INTERFACE_CHANGED = _code(
    "preferred-interface-changed",
    N,
    "interfaces",
    "another interface is now the first (preferred) one",
    'the preferred (first) interface is now "GRPC" at "grpc.example.com:443"; ...',
)
CAPABILITY_DISABLED = _code(
    "capability-disabled",
    B,
    "capabilities",
    "streaming, push notifications or the extended card is no longer supported",
    "streaming is no longer supported (absent counts as false); clients that use it get an error",
)
CAPABILITY_ENABLED = _code(
    "capability-enabled",
    N,
    "capabilities",
    "streaming, push notifications or the extended card is now supported",
    "push notifications are now supported",
)
EXTENSION_ADDED = _code(
    "extension-added",
    N,
    "capabilities",
    "an optional extension is now supported",
    'extension "https://ext.example.com/trace" is now supported',
)
EXTENSION_ADDED_REQUIRED = _code(
    "extension-added-required",
    B,
    "capabilities",
    "a new extension is required from clients",
    'extension "https://ext.example.com/pay" is new and required: clients that do not declare it are refused',
)
EXTENSION_REMOVED = _code(
    "extension-removed",
    B,
    "capabilities",
    "an extension is no longer supported",
    'extension "https://ext.example.com/trace" is no longer supported: clients that activate it lose what it adds',
)
EXTENSION_MADE_REQUIRED = _code(
    "extension-made-required",
    B,
    "capabilities",
    "an extension that was optional is now required",
    'extension "https://ext.example.com/pay" is now required: clients that do not declare it are refused',
)
EXTENSION_MADE_OPTIONAL = _code(
    "extension-made-optional",
    N,
    "capabilities",
    "an extension that was required is now optional",
    'extension "https://ext.example.com/pay" is no longer required',
)
EXTENSION_CHANGED = _code(
    "extension-changed",
    I,
    "capabilities",
    "an extension's description changed (its parameters are extension-params-added and -changed)",
    'the description of extension "https://ext.example.com/pay" changed',
)
EXTENSION_PARAMS_ADDED = _code(
    "extension-params-added",
    N,
    "capabilities",
    "an extension declares new parameters; clients that activate it may read them",
    'extension "https://ext.example.com/pay" has new parameters: "currency"',
)
EXTENSION_PARAMS_CHANGED = _code(
    "extension-params-changed",
    B,
    "capabilities",
    "an extension's parameter was removed, renamed or given another value; clients that activate it read them",
    'the parameters of extension "https://ext.example.com/pay" changed: "receiptUrl" removed (new: ...) ...',
)
INPUT_MODE_REMOVED = _code(
    "input-mode-removed",
    B,
    "modes",
    "a media type is no longer accepted",
    'the skill no longer accepts "application/json"',
)
INPUT_MODE_ADDED = _code(
    "input-mode-added",
    N,
    "modes",
    "a media type is now accepted",
    '"image/png" is now accepted by the card defaults',
)
OUTPUT_MODE_REMOVED = _code(
    "output-mode-removed",
    B,
    "modes",
    "a media type is no longer produced",
    'the card defaults no longer produce "text/html"',
)
OUTPUT_MODE_ADDED = _code(
    "output-mode-added",
    N,
    "modes",
    "a media type is now produced",
    '"application/geo+json" is now produced by the skill',
)
SECURITY_REQUIRED = _code(
    "security-required",
    B,
    "security",
    "authentication is required where none was",
    'authentication is now required (the card\'s requirements: "oauth" (scopes "read"))',
)
SECURITY_NO_LONGER_REQUIRED = _code(
    "security-no-longer-required",
    N,
    "security",
    "authentication is no longer required",
    "authentication is no longer required (the skill's requirements)",
)
SECURITY_ALTERNATIVE_REMOVED = _code(
    "security-alternative-removed",
    B,
    "security",
    "a way to authenticate is no longer accepted",
    'authenticating with "key" is no longer accepted',
)
SECURITY_ALTERNATIVE_ADDED = _code(
    "security-alternative-added",
    N,
    "security",
    "a new way to authenticate is accepted",
    'authenticating with "mtls" is now accepted',
)
SECURITY_SCHEME_REQUIRED = _code(
    "security-scheme-required",
    B,
    "security",
    "a scheme is now required in addition to the others",
    'clients that authenticate with "oauth" now also need "key"',
)
SECURITY_SCHEME_NO_LONGER_REQUIRED = _code(
    "security-scheme-no-longer-required",
    N,
    "security",
    "a scheme is no longer required in addition to the others",
    'clients that authenticate with "oauth" no longer need "key" as well',
)
SECURITY_SCOPE_REQUIRED = _code(
    "security-scope-required",
    B,
    "security",
    "a scope is now required",
    'now requires scope "forecast" of "oauth"',
)
SECURITY_SCOPE_NO_LONGER_REQUIRED = _code(
    "security-scope-no-longer-required",
    N,
    "security",
    "a scope is no longer required",
    'no longer requires scope "admin" of "oauth"',
)
SCHEME_RENAMED = _code(
    "scheme-renamed",
    B,
    "schemes",
    "a security scheme was renamed with the same definition; clients look credentials up by scheme name",
    'security scheme "oauth" is now called "oauth2" (same definition): clients configured for "oauth" stop '
    "sending credentials",
)
SCHEME_ADDED = _code(
    "scheme-added",
    I,
    "schemes",
    "a security scheme is declared (requirements that use it are reported apart)",
    'security scheme "mtls" (mtls) is declared',
)
SCHEME_REMOVED = _code(
    "scheme-removed",
    I,
    "schemes",
    "a security scheme is no longer declared (requirements are reported apart)",
    'security scheme "legacy" is no longer declared',
)
SCHEME_TYPE_CHANGED = _code(
    "scheme-type-changed",
    B,
    "schemes",
    "a security scheme changed its kind (apiKey, http, oauth2 ...)",
    'security scheme "basic" changed from http to oauth2',
)
SCHEME_DESCRIPTION_CHANGED = _code(
    "scheme-description-changed",
    I,
    "schemes",
    "a security scheme's description changed",
    'the description of security scheme "key" changed',
)
API_KEY_NAME_CHANGED = _code(
    "api-key-name-changed",
    B,
    "schemes",
    "the name of the header, query parameter or cookie of an API key changed",
    'the API key of "key" is now sent as "X-Key" (was "X-Api-Key")',
)
API_KEY_LOCATION_CHANGED = _code(
    "api-key-location-changed",
    B,
    "schemes",
    "where an API key is sent (header, query, cookie) changed",
    'the API key of "key" is now sent in the query (was the header)',
)
HTTP_SCHEME_CHANGED = _code(
    "http-scheme-changed",
    B,
    "schemes",
    "the HTTP authentication scheme (Bearer, Basic ...) changed",
    'security scheme "basic" now uses HTTP "Bearer" (was "Basic")',
)
BEARER_FORMAT_CHANGED = _code(
    "bearer-format-changed",
    I,
    "schemes",
    "the bearer format hint changed",
    'the bearer format of "bearer" changed',
)
OIDC_URL_CHANGED = _code(
    "oidc-url-changed",
    B,
    "schemes",
    "the OpenID Connect discovery URL changed",
    'the OpenID Connect discovery URL of "oidc" is now "https://id2.example.com/oidc"',
)
OAUTH_METADATA_URL_CHANGED = _code(
    "oauth-metadata-url-changed",
    B,
    "schemes",
    "the OAuth authorization-server metadata URL changed or was removed",
    'the authorization-server metadata URL of "oauth" is now "https://id2.example.com/.well-known/oauth-authorization-server"',
)
OAUTH_METADATA_URL_ADDED = _code(
    "oauth-metadata-url-added",
    N,
    "schemes",
    "an OAuth authorization-server metadata URL is now declared",
    'security scheme "oauth" now publishes authorization-server metadata',
)
OAUTH_FLOW_ADDED = _code(
    "oauth-flow-added",
    N,
    "schemes",
    "an OAuth flow is now offered",
    'security scheme "oauth" now offers the deviceCode flow',
)
OAUTH_FLOW_REMOVED = _code(
    "oauth-flow-removed",
    B,
    "schemes",
    "an OAuth flow is no longer offered",
    'security scheme "oauth" no longer offers the implicit flow',
)
OAUTH_URL_CHANGED = _code(
    "oauth-url-changed",
    B,
    "schemes",
    "an OAuth authorization, token, refresh or device URL changed",
    'the token URL of the clientCredentials flow of "oauth" is now "https://id2.example.com/token"',
)
OAUTH_SCOPE_ADDED = _code(
    "oauth-scope-added",
    N,
    "schemes",
    "an OAuth flow declares a new scope",
    'the clientCredentials flow of "oauth" declares scope "alerts"',
)
OAUTH_SCOPE_REMOVED = _code(
    "oauth-scope-removed",
    B,
    "schemes",
    "an OAuth flow no longer declares a scope clients may request",
    'the clientCredentials flow of "oauth" no longer declares scope "admin"; clients that request it may be refused',
)
OAUTH_SCOPE_DESCRIPTION_CHANGED = _code(
    "oauth-scope-description-changed",
    I,
    "schemes",
    "the description of an OAuth scope changed",
    'the description of scope "read" of the clientCredentials flow of "oauth" changed',
)
PKCE_REQUIRED = _code(
    "pkce-required",
    B,
    "schemes",
    "PKCE is now mandatory",
    'the authorizationCode flow of "oauth" now requires PKCE',
)
PKCE_NO_LONGER_REQUIRED = _code(
    "pkce-no-longer-required",
    N,
    "schemes",
    "PKCE is no longer mandatory",
    'the authorizationCode flow of "oauth" no longer requires PKCE',
)
SKILL_ID_CHANGED = _code(
    "skill-id-changed",
    B,
    "skills",
    "a skill's id changed (matched by its name, else its description); clients call skills by id",
    'the skill\'s id changed from "forecast" to "forecast-v2"; clients that call "forecast" fail',
)
SKILL_ADDED = _code(
    "skill-added",
    N,
    "skills",
    "a skill was added",
    'a new skill, "Severe weather alerts"',
)
SKILL_REMOVED = _code(
    "skill-removed",
    B,
    "skills",
    "a skill was removed",
    'the skill is gone ("Fax a document"); clients that call it fail',
)
NAME_CHANGED = _code(
    "name-changed",
    I,
    "skills",
    "a skill's name changed",
    "the skill's name changed",
)
TAGS_CHANGED = _code(
    "tags-changed",
    I,
    "skills",
    "a skill's tags changed",
    "the skill's tags changed",
)
EXAMPLES_CHANGED = _code(
    "examples-changed",
    I,
    "skills",
    "a skill's examples changed",
    "the skill's examples changed",
)


CODES: dict[str, tuple[ChangeSeverity, str]] = {name: (c.severity, c.meaning) for name, c in REGISTRY.items()}
"""Every code: its default severity and what it means (docs/review.md lists the same)."""

EXAMPLES: dict[str, str] = {name: c.example for name, c in REGISTRY.items()}
"""A message of each code as ``diff`` writes it (shortened with ``...`` where long)."""

CONFIG_CODES = frozenset({CONFIG_LOOSENED.name, CONFIG_TIGHTENED.name, CONFIG_INVALID.name})
"""Findings about the head's configuration (``review.rules``), which the base's judges."""

POLICY_CODES = frozenset({VERSION_NOT_BUMPED.name, VERSION_NOT_SEMVER.name, *CONFIG_CODES})
"""Findings about the rules a change must follow (the version policy, the configuration), counted apart from
changes."""

SCHEME_DETAIL_CODES = frozenset(
    code.name
    for code in (
        SCHEME_RENAMED,
        SCHEME_TYPE_CHANGED,
        API_KEY_NAME_CHANGED,
        API_KEY_LOCATION_CHANGED,
        HTTP_SCHEME_CHANGED,
        OIDC_URL_CHANGED,
        OAUTH_METADATA_URL_CHANGED,
        OAUTH_METADATA_URL_ADDED,
        OAUTH_FLOW_ADDED,
        OAUTH_FLOW_REMOVED,
        OAUTH_URL_CHANGED,
        OAUTH_SCOPE_ADDED,
        OAUTH_SCOPE_REMOVED,
        PKCE_REQUIRED,
        PKCE_NO_LONGER_REQUIRED,
    )
)
"""Changes inside a scheme definition: ``info`` unless a requirement uses the scheme before and after."""


def docs_url(code: str) -> str:
    """The row of ``code`` in docs/review.md."""
    return REGISTRY[code].docs_url


_RANK = {severity: rank for rank, severity in enumerate(SEVERITIES)}


def severity_rank(severity: ChangeSeverity) -> int:
    """0 for ``breaking``, 1 for ``non-breaking``, 2 for ``info``."""
    return _RANK[severity]


def severity_at_least(severity: ChangeSeverity, threshold: ChangeSeverity) -> bool:
    """``breaking`` is at least ``non-breaking``, which is at least ``info``."""
    return _RANK[severity] <= _RANK[threshold]
