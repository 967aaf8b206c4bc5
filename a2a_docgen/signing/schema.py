"""The A2A v1.0 ``AgentCard`` protobuf schema, as far as its JSON form (ProtoJSON) depends on it.

The official a2a-sdk computes the bytes a card signature covers from its protobuf ``AgentCard``: which
members are known, which have explicit presence (``optional``), which are repeated, maps, one-ofs or
``google.protobuf.Struct``. This table is that schema (``lf.a2a.v1``, specification/a2a.proto), written out so
that the canonical form can be computed without protobuf. ``tests/test_signing_canonical.py`` compares it with
the descriptor a2a-sdk ships, field by field, so a change of the proto cannot go unnoticed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = ["MESSAGES", "ROOT", "Field"]

Kind = Literal["string", "bool", "message", "struct"]


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a message."""

    name: str
    """The proto name (``default_input_modes``); ProtoJSON parsers accept it too."""
    json: str
    """The JSON name (``defaultInputModes``), which ProtoJSON writes."""
    kind: Kind
    """``message``: ``message`` names the type; for a map, the kind of its values."""
    message: str | None = None
    repeated: bool = False
    map: bool = False
    """A ``map<string, ...>``: a JSON object whose values have ``kind``."""
    presence: bool = False
    """Explicit presence: a message, a Struct or an ``optional`` scalar; written even when it holds the default."""
    oneof: str | None = None
    """The one-of it belongs to; proto3 ``optional`` fields have a synthetic one (``_icon_url``)."""


def _s(name: str, json: str | None = None, *, repeated: bool = False, optional: bool = False) -> Field:
    return Field(
        name,
        json or name,
        "string",
        repeated=repeated,
        presence=optional,
        oneof=f"_{name}" if optional else None,
    )


def _b(name: str, json: str | None = None, *, optional: bool = False) -> Field:
    return Field(name, json or name, "bool", presence=optional, oneof=f"_{name}" if optional else None)


def _m(name: str, json: str, message: str, *, repeated: bool = False, oneof: str | None = None) -> Field:
    return Field(name, json, "message", message, repeated=repeated, presence=not repeated, oneof=oneof)


def _map(name: str, json: str, value: str | None) -> Field:
    return Field(name, json, "message" if value else "string", value, repeated=True, map=True)


def _struct(name: str) -> Field:
    return Field(name, name, "struct", presence=True)


def _flow(*names: str) -> tuple[Field, ...]:
    spelled = {
        "authorization_url": "authorizationUrl",
        "device_authorization_url": "deviceAuthorizationUrl",
        "token_url": "tokenUrl",
        "refresh_url": "refreshUrl",
    }
    return tuple(_s(n, spelled[n]) for n in names)


ROOT = "AgentCard"

MESSAGES: Mapping[str, tuple[Field, ...]] = {
    "AgentCard": (
        _s("name"),
        _s("description"),
        _m("supported_interfaces", "supportedInterfaces", "AgentInterface", repeated=True),
        _m("provider", "provider", "AgentProvider"),
        _s("version"),
        _s("documentation_url", "documentationUrl", optional=True),
        _m("capabilities", "capabilities", "AgentCapabilities"),
        _map("security_schemes", "securitySchemes", "SecurityScheme"),
        _m("security_requirements", "securityRequirements", "SecurityRequirement", repeated=True),
        _s("default_input_modes", "defaultInputModes", repeated=True),
        _s("default_output_modes", "defaultOutputModes", repeated=True),
        _m("skills", "skills", "AgentSkill", repeated=True),
        _m("signatures", "signatures", "AgentCardSignature", repeated=True),
        _s("icon_url", "iconUrl", optional=True),
    ),
    "AgentInterface": (
        _s("url"),
        _s("protocol_binding", "protocolBinding"),
        _s("tenant"),
        _s("protocol_version", "protocolVersion"),
    ),
    "AgentProvider": (_s("url"), _s("organization")),
    "AgentCapabilities": (
        _b("streaming", optional=True),
        _b("push_notifications", "pushNotifications", optional=True),
        _m("extensions", "extensions", "AgentExtension", repeated=True),
        _b("extended_agent_card", "extendedAgentCard", optional=True),
    ),
    "AgentExtension": (_s("uri"), _s("description"), _b("required"), _struct("params")),
    "SecurityScheme": (
        _m("api_key_security_scheme", "apiKeySecurityScheme", "APIKeySecurityScheme", oneof="scheme"),
        _m("http_auth_security_scheme", "httpAuthSecurityScheme", "HTTPAuthSecurityScheme", oneof="scheme"),
        _m("oauth2_security_scheme", "oauth2SecurityScheme", "OAuth2SecurityScheme", oneof="scheme"),
        _m(
            "open_id_connect_security_scheme",
            "openIdConnectSecurityScheme",
            "OpenIdConnectSecurityScheme",
            oneof="scheme",
        ),
        _m("mtls_security_scheme", "mtlsSecurityScheme", "MutualTlsSecurityScheme", oneof="scheme"),
    ),
    "APIKeySecurityScheme": (_s("description"), _s("location"), _s("name")),
    "HTTPAuthSecurityScheme": (_s("description"), _s("scheme"), _s("bearer_format", "bearerFormat")),
    "OAuth2SecurityScheme": (
        _s("description"),
        _m("flows", "flows", "OAuthFlows"),
        _s("oauth2_metadata_url", "oauth2MetadataUrl"),
    ),
    "OAuthFlows": (
        _m("authorization_code", "authorizationCode", "AuthorizationCodeOAuthFlow", oneof="flow"),
        _m("client_credentials", "clientCredentials", "ClientCredentialsOAuthFlow", oneof="flow"),
        _m("implicit", "implicit", "ImplicitOAuthFlow", oneof="flow"),
        _m("password", "password", "PasswordOAuthFlow", oneof="flow"),
        _m("device_code", "deviceCode", "DeviceCodeOAuthFlow", oneof="flow"),
    ),
    "AuthorizationCodeOAuthFlow": (
        *_flow("authorization_url", "token_url", "refresh_url"),
        _map("scopes", "scopes", None),
        _b("pkce_required", "pkceRequired"),
    ),
    "ClientCredentialsOAuthFlow": (*_flow("token_url", "refresh_url"), _map("scopes", "scopes", None)),
    "ImplicitOAuthFlow": (*_flow("authorization_url", "refresh_url"), _map("scopes", "scopes", None)),
    "PasswordOAuthFlow": (*_flow("token_url", "refresh_url"), _map("scopes", "scopes", None)),
    "DeviceCodeOAuthFlow": (
        *_flow("device_authorization_url", "token_url", "refresh_url"),
        _map("scopes", "scopes", None),
    ),
    "OpenIdConnectSecurityScheme": (_s("description"), _s("open_id_connect_url", "openIdConnectUrl")),
    "MutualTlsSecurityScheme": (_s("description"),),
    "SecurityRequirement": (_map("schemes", "schemes", "StringList"),),
    "StringList": (_s("list", repeated=True),),
    "AgentSkill": (
        _s("id"),
        _s("name"),
        _s("description"),
        _s("tags", repeated=True),
        _s("examples", repeated=True),
        _s("input_modes", "inputModes", repeated=True),
        _s("output_modes", "outputModes", repeated=True),
        _m("security_requirements", "securityRequirements", "SecurityRequirement", repeated=True),
    ),
    "AgentCardSignature": (_s("protected"), _s("signature"), _struct("header")),
}
"""Every message reachable from ``AgentCard``, its fields in field-number order."""
