"""The typed model of an Agent Card catalogue, always with A2A v1.0 meaning.

The loader normalises every era (v1.0 ProtoJSON, v0.3 JSON, v0.2 and older shapes) into these types, so
renderers, the differ and the exports never ask "which era?", "string or list?" or "inherited or own?".

Conventions:
- Every object that comes from the card carries ``pointer``: the RFC 6901 JSON Pointer of the value in the
  *source* file (for a v0.3 card, ``/security`` rather than ``/securityRequirements``), so diagnostics and
  review findings can point at the line a person has to edit.
- A field holds ``None`` when the card does not set it *or* sets it to a value of the wrong type; the
  validator reports the latter. Values are never coerced ("True" is not a boolean).
- Members that no era of the spec defines are kept, untouched, in ``extra`` (sorted by key).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

JSONValue: TypeAlias = bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"] | None
"""Any value ``json.loads`` can return."""

JSONObject: TypeAlias = dict[str, JSONValue]

Era = Literal["1.0", "0.3", "0.2"]
"""The shape a card was written in. ``0.2`` also covers v0.1 cards (``authentication`` object)."""

Origin = Literal["card", "skill"]
"""Where an effective value comes from: the card defaults, or the skill's own declaration."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentProvider:
    """The organisation that runs the agent."""

    organization: str | None
    """Name of the organisation (REQUIRED by the spec)."""
    url: str | None
    """The provider's website (REQUIRED by the spec)."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentInterface:
    """One endpoint of the agent. The first interface of a card is the preferred one."""

    url: str | None
    """Where the interface is served: an absolute URL, or ``host:port`` for gRPC."""
    protocol_binding: str | None
    """``JSONRPC``, ``GRPC``, ``HTTP+JSON`` or a custom binding URI (v0.3: ``transport``)."""
    protocol_version: str | None
    """A2A version served here, ``Major.Minor`` (v0.3 cards: derived from the card-level protocolVersion)."""
    tenant: str | None
    """Opaque routing value the client copies into every request (v1.0 only)."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentExtension:
    """A protocol extension the agent supports."""

    uri: str | None
    """URI identifying the extension."""
    description: str | None
    """How the agent uses the extension."""
    required: bool
    """Whether clients must support the extension (absent means false)."""
    params: Mapping[str, JSONValue] | None
    """Extension-specific configuration, a free-form JSON object."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentCapabilities:
    """Optional protocol features. ``None`` means not declared, which the spec reads as false."""

    streaming: bool | None
    """Streaming responses (SendStreamingMessage / SubscribeToTask)."""
    push_notifications: bool | None
    """Webhook push notifications."""
    extended_agent_card: bool | None
    """An authenticated extended card can be fetched (v0.3: ``supportsAuthenticatedExtendedCard``)."""
    extensions: tuple[AgentExtension, ...]
    """Protocol extensions, in card order."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


OAuthFlowKind = Literal["authorizationCode", "clientCredentials", "deviceCode", "implicit", "password"]
DEPRECATED_FLOWS: frozenset[str] = frozenset({"implicit", "password"})


@dataclass(frozen=True, slots=True, kw_only=True)
class OAuthFlow:
    """One OAuth 2.0 flow. v1.0 allows exactly one per scheme; v0.3 cards may declare several."""

    kind: OAuthFlowKind
    authorization_url: str | None
    """Authorization endpoint (authorization code, implicit)."""
    token_url: str | None
    """Token endpoint (authorization code, client credentials, password, device code)."""
    refresh_url: str | None
    """Refresh endpoint, optional."""
    device_authorization_url: str | None
    """Device authorization endpoint (device code, v1.0)."""
    scopes: Mapping[str, str]
    """Scope name -> description, in card order."""
    pkce_required: bool | None
    """Whether PKCE is mandatory (authorization code, v1.0)."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)

    @property
    def deprecated(self) -> bool:
        """Implicit and password flows are deprecated in v1.0."""
        return self.kind in DEPRECATED_FLOWS


@dataclass(frozen=True, slots=True, kw_only=True)
class APIKeySecurityScheme:
    """An API key sent in a header, query parameter or cookie."""

    kind: Literal["apiKey"] = "apiKey"
    description: str | None
    location: str | None
    """``header``, ``query`` or ``cookie`` (v0.3: ``in``)."""
    name: str | None
    """Name of the header, query parameter or cookie."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class HTTPAuthSecurityScheme:
    """HTTP authentication (``Authorization`` header)."""

    kind: Literal["http"] = "http"
    description: str | None
    scheme: str | None
    """HTTP auth scheme, e.g. ``Bearer`` or ``Basic``."""
    bearer_format: str | None
    """Hint about the token format, e.g. ``JWT``."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class OAuth2SecurityScheme:
    """OAuth 2.0."""

    kind: Literal["oauth2"] = "oauth2"
    description: str | None
    flows: tuple[OAuthFlow, ...]
    """The declared flows, in card order (one in a valid v1.0 card)."""
    oauth2_metadata_url: str | None
    """RFC 8414 authorization-server metadata URL."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)

    def scope_description(self, scope: str) -> str | None:
        """The description of ``scope`` from the first flow that declares it."""
        for flow in self.flows:
            if scope in flow.scopes:
                return flow.scopes[scope]
        return None

    @property
    def scopes(self) -> tuple[str, ...]:
        """Every scope any flow declares, first declaration order."""
        seen: dict[str, None] = {}
        for flow in self.flows:
            seen.update(dict.fromkeys(flow.scopes))
        return tuple(seen)


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenIdConnectSecurityScheme:
    """OpenID Connect discovery."""

    kind: Literal["openIdConnect"] = "openIdConnect"
    description: str | None
    open_id_connect_url: str | None
    """URL of the OIDC discovery document."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class MutualTlsSecurityScheme:
    """Mutual TLS (client certificates)."""

    kind: Literal["mutualTLS"] = "mutualTLS"
    description: str | None
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class UnknownSecurityScheme:
    """A scheme whose type no era defines, or a v0.1/v0.2 ``authentication.schemes`` label."""

    kind: Literal["unknown"] = "unknown"
    label: str | None
    """The declared type or legacy label, as written (``x402``, ``Bearer`` ...)."""
    description: str | None
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


SecurityScheme: TypeAlias = (
    APIKeySecurityScheme
    | HTTPAuthSecurityScheme
    | OAuth2SecurityScheme
    | OpenIdConnectSecurityScheme
    | MutualTlsSecurityScheme
    | UnknownSecurityScheme
)


@dataclass(frozen=True, slots=True, kw_only=True)
class SecurityRequirement:
    """One alternative: every scheme named here applies together (AND), each with the scopes it needs."""

    schemes: Mapping[str, tuple[str, ...]]
    """Scheme name (a key of the card's security schemes) -> required scopes, in card order."""
    pointer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectiveModes:
    """The media types that really apply to a skill, and where they come from."""

    modes: tuple[str, ...]
    origin: Origin
    """``skill`` when the skill declares its own list (which replaces the card default), else ``card``."""
    pointer: str
    """Where the list that applies is written (the skill's or the card default's)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectiveSecurity:
    """The security requirements that apply to a skill: alternatives (OR) of sets (AND)."""

    requirements: tuple[SecurityRequirement, ...]
    """No requirement at all means the skill can be called without authentication."""
    origin: Origin
    pointer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Example:
    """One example prompt. Some are whole JSON documents serialised into the string."""

    text: str
    """The example exactly as written."""
    is_json: bool
    """True when the text is a JSON object or array (the renderer pretty-prints it)."""
    value: JSONValue
    """The parsed JSON document when ``is_json``, else ``None``."""
    pointer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentSkill:
    """A capability described for the reader (not an endpoint)."""

    id: str | None
    """Unique skill id within the card. Deep links derive from it."""
    name: str | None
    description: str | None
    tags: tuple[str, ...]
    examples: tuple[Example, ...]
    input_modes: tuple[str, ...] | None
    """The skill's own input media types, or ``None`` when it inherits the card defaults."""
    output_modes: tuple[str, ...] | None
    """The skill's own output media types, or ``None`` when it inherits the card defaults."""
    security_requirements: tuple[SecurityRequirement, ...] | None
    """The skill's own requirements, or ``None`` when it inherits the card's."""
    effective_input_modes: EffectiveModes
    effective_output_modes: EffectiveModes
    effective_security: EffectiveSecurity
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentCardSignature:
    """A JWS signature over the card."""

    protected: str | None
    """Base64url-encoded protected header, as written."""
    signature: str | None
    header: Mapping[str, JSONValue] | None
    """Unprotected header."""
    protected_header: Mapping[str, JSONValue] | None
    """The decoded protected header (``alg``, ``kid``, ``typ``, ``jku``), or ``None`` if it does not decode."""
    pointer: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class FetchRecord:
    """Where ``a2a-docgen fetch`` found a card, from the ``<card>.fetch.json`` sidecar beside it."""

    url: str
    """The card's final URL (after the legacy-path fallback and redirects)."""
    requested: str
    """The URL that was asked for (an agent's base URL, or a card's own URL)."""
    extended: bool = False
    """The card is the agent's extended card, given only to authenticated clients (``fetch --extended``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardSource:
    """Where a card was read from."""

    path: str
    """The file as given or found (relative to the scanned root when scanned from a directory)."""
    root: str
    """The argument it was found under, for building relative output paths."""
    relpath: str
    """Path relative to ``root`` with ``/`` separators (``agent.json`` when the argument was the file; the display
    path when the card was read without a root)."""
    key: str = ""
    """The card's identity key (``card_key``): what its page address, its ids and its history are made from,
    the same from any working directory, spelling of the path, link on the way or machine."""
    raw: JSONObject = field(repr=False, compare=False)
    """The parsed JSON exactly as found, for the raw-card download and the differ."""
    text: str = field(repr=False, compare=False)
    """The decoded text, for locating diagnostics and review findings."""
    fetched: FetchRecord | None = field(default=None, compare=False)
    """Where ``fetch`` found the card, when a sidecar lies beside the file (the grade reads it)."""


_NUMBERED = re.compile(r"[0-9]+:")


def card_key(position: int, relpath: str, holders: Collection[int] = ()) -> str:
    """A card file's identity key, from the cards alone: its path below the configured card path it was found
    under (``relpath``: ``/`` separators, normalised; a file given directly: its name). ``holders``: the
    positions of the configured paths that hold a file at ``relpath`` in the catalogue. Where an earlier path
    holds one too (or ``relpath`` begins like what follows), the key is ``<n>:<relpath>``, ``n`` the path's
    place (1 for the first): no two files of a catalogue share a key, and adding a card path after the others
    changes no key."""
    if _NUMBERED.match(relpath) or (holders and min(holders) != position):
        return f"{position + 1}:{relpath}"
    return relpath


def card_keys(found: Sequence[tuple[int, str]]) -> list[str]:
    """``card_key`` of each (position of its configured path, relpath) of the files of one catalogue."""
    held: dict[str, list[int]] = {}
    for position, relpath in found:
        held.setdefault(relpath, []).append(position)
    return [card_key(position, relpath, held[relpath]) for position, relpath in found]


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentCard:
    """One agent, normalised to v1.0 meaning."""

    era: Era
    """The shape the card was written in."""
    name: str | None
    description: str | None
    version: str | None
    """The agent's own version (semantic versioning is expected by ``diff``)."""
    interfaces: tuple[AgentInterface, ...]
    """In preference order; v0.3 ``url``/``preferredTransport`` first, then ``additionalInterfaces``."""
    provider: AgentProvider | None
    documentation_url: str | None
    icon_url: str | None
    capabilities: AgentCapabilities
    security_schemes: Mapping[str, SecurityScheme]
    """Named schemes, in card order."""
    security_requirements: tuple[SecurityRequirement, ...]
    """Card-level requirements (v0.3: ``security``); empty when none are declared."""
    security_requirements_pointer: str
    default_input_modes: tuple[str, ...]
    default_output_modes: tuple[str, ...]
    skills: tuple[AgentSkill, ...]
    """In card order."""
    signatures: tuple[AgentCardSignature, ...]
    source: CardSource
    extra: Mapping[str, JSONValue] = field(default_factory=dict)

    @property
    def preferred_interface(self) -> AgentInterface | None:
        """The first interface, which clients should use when they support its binding."""
        return self.interfaces[0] if self.interfaces else None

    def skill(self, skill_id: str) -> AgentSkill | None:
        """The first skill with this id."""
        return next((s for s in self.skills if s.id == skill_id), None)


def card_order(card: AgentCard) -> tuple[str, str, str]:
    """The catalogue order of cards: agent name case-insensitively, then name, then identity key
    (``CardSource.key``: never the path as typed)."""
    return ((card.name or "").casefold(), card.name or "", card.source.key)


SignatureStatus = Literal[
    "verified", "untrusted", "unanchored", "invalid", "unknown-key", "unsupported-algorithm", "malformed"
]
"""What checking one signature found (docs/signing.md): ``verified`` by a trusted key; ``untrusted``: valid, but
the key is not trusted for this agent; ``unanchored``: valid with a key fetched from the signature's own ``jku``,
which neither the origin ``fetch`` recorded nor a pin vouches for (the signer would be its own trust root);
``invalid``: a key with its ``kid`` does not verify it (the card was
changed, or the key is wrong); ``unknown-key``: no key with its ``kid`` is known; ``unsupported-algorithm``:
``alg`` is not on the allow-list; ``malformed``: not a JWS that can be checked."""

CardSignatureStatus = Literal[
    "verified",
    "untrusted",
    "unanchored",
    "invalid",
    "unknown-key",
    "unsupported-algorithm",
    "malformed",
    "unsigned",
]
"""A card's status: its best signature's, in that order of precedence except that ``invalid`` outranks
``untrusted``; ``unsigned`` when it has no signatures."""


STATUS_LABELS: Mapping[str, str] = {
    "verified": "Signature verified",
    "untrusted": "Signed, key not trusted",
    "unanchored": "Signed, key only from its own jku",
    "invalid": "Signature invalid",
    "unknown-key": "Signed, key unknown",
    "unsupported-algorithm": "Signed, algorithm not allowed",
    "malformed": "Signature malformed",
    "unsigned": "Not signed",
}
"""A short label for each signature or card status (a badge's text)."""

FORM_LABELS: Mapping[str, str] = {
    "sdk": "a2a-sdk canonical form",
    "served": "JCS of the card as served",
    "sdk-legacy": "a2a-sdk form before RFC 8785 (json.dumps)",
}
"""A label for each canonical form a signature can verify over."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SignatureCheck:
    """What verifying one signature of a card found."""

    number: int
    """1-based position in ``signatures``."""
    pointer: str
    status: SignatureStatus
    alg: str | None
    kid: str | None
    key: str | None
    """The key that verified it (``verified`` and ``untrusted``): its ``kid``, else its RFC 7638 thumbprint."""
    key_source: str | None
    """Where that key came from: a JWK set file, a pin of the keys file, a ``jku`` URL, the signature's ``jwk``."""
    thumbprint: str | None
    """RFC 7638 SHA-256 thumbprint (base64url) of that key."""
    form: Literal["sdk", "served", "sdk-legacy"] | None
    """The canonical form whose bytes verified: ``sdk`` (a2a-sdk's ProtoJSON form), ``served`` (JCS of the
    card as served) or ``sdk-legacy`` (the a2a-sdk form as releases before its RFC 8785 fix wrote it)."""
    reason: str
    """One sentence: what was checked and why this status."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardVerification:
    """What verifying every signature of one card found."""

    status: CardSignatureStatus
    signatures: tuple[SignatureCheck, ...]
    uncovered: tuple[str, ...] = ()
    """Pointers of members the verified form does not cover (the a2a-sdk form drops members it does not know)."""

    @property
    def verified_by(self) -> SignatureCheck | None:
        """The first signature whose status is the card's (the one that decided it)."""
        return next((s for s in self.signatures if s.status == self.status), None)


Severity = Literal["error", "warning", "hint"]
"""``error``: the card breaks the spec; ``warning``: it works, but something is likely a mistake; ``hint``: a
quality finding of the grade (``a2a_docgen.quality``), which never fails ``check`` by itself."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic:
    """One finding about one card file, located to the character."""

    severity: Severity
    code: str
    """Stable, kebab-case (``required-missing``); documented in docs/diagnostics.md."""
    message: str
    """What is wrong and what to do about it."""
    file: str
    line: int
    """1-based."""
    column: int
    """1-based, in characters."""
    pointer: str
    """RFC 6901 pointer of the offending value ("" for the whole document)."""

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.file, self.line, self.column, self.code, self.message)


@dataclass(frozen=True, slots=True, kw_only=True)
class Catalog:
    """Everything read from the paths given: the cards that loaded, and every diagnostic."""

    cards: tuple[AgentCard, ...]
    """Sorted by agent name (case-insensitively), then source path."""
    diagnostics: tuple[Diagnostic, ...]
    """Sorted by file, line, column."""
    excluded: tuple[str, ...]
    """Files that could not be loaded as a card at all (their errors are in ``diagnostics``)."""
    excluded_names: Mapping[str, str] = field(default_factory=dict)
    """The name pages give each excluded file: its path below the directory it was found in (``/``
    separators; a file given by itself, its file name), never where the build machine keeps it. A file
    missing here is named by its file name."""
    verifications: Mapping[str, CardVerification] = field(default_factory=dict)
    """Signature verification of each card that has signatures or was checked, by ``card.source.path``:
    kept beside the cards because it depends on the keys given, not only on what the card says."""

    def verification(self, card: AgentCard) -> CardVerification | None:
        """The card's verification, or ``None`` when signatures were not checked."""
        return self.verifications.get(card.source.path)

    def diagnostics_for(self, path: str) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.file == path)
