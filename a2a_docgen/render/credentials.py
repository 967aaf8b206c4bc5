"""What a security requirement asks a client to send, as placeholders a reader replaces.

A requirement is a set of schemes that apply together; each scheme becomes one ``Credential``: an
``Authorization: Bearer <token>`` header for OAuth 2.0, OpenID Connect and HTTP bearer authentication, the API
key by its name in a header, a query parameter or a cookie, client certificate options for mutual TLS. Names
come from the card, so a name that is not a plain HTTP token (letters, digits, ``-``, ``_``, ``.``) is not put
into a command: the credential says so instead (``usable`` is false).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from a2a_docgen.model import (
    AgentCard,
    APIKeySecurityScheme,
    HTTPAuthSecurityScheme,
    MutualTlsSecurityScheme,
    OAuth2SecurityScheme,
    OpenIdConnectSecurityScheme,
    SecurityRequirement,
)

__all__ = ["Credential", "CredentialKind", "credentials"]

CredentialKind = Literal[
    "bearer", "basic", "authorization", "header", "query", "cookie", "client-certificate", "other"
]

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,99}")


@dataclass(frozen=True, slots=True)
class Credential:
    """One thing to send: ``kind`` says where, ``name`` is the header, parameter or cookie name (or the HTTP
    authentication scheme for ``authorization``), ``placeholder`` what the reader puts in."""

    scheme: str
    """The card's name for the security scheme."""
    kind: CredentialKind
    name: str | None = None
    placeholder: str = "<token>"
    usable: bool = True
    """False when the card's name cannot be written into a request as it is (or the kind is not one A2A
    defines): commands leave it out and say so."""


def _token(name: str | None) -> str | None:
    return name if name is not None and _TOKEN.fullmatch(name) else None


def _credential(scheme_name: str, card: AgentCard) -> Credential:
    scheme = card.security_schemes.get(scheme_name)
    if isinstance(scheme, (OAuth2SecurityScheme, OpenIdConnectSecurityScheme)):
        return Credential(scheme_name, "bearer")
    if isinstance(scheme, HTTPAuthSecurityScheme):
        http = (scheme.scheme or "").strip()
        if http.lower() == "bearer":
            return Credential(scheme_name, "bearer")
        if http.lower() == "basic":
            return Credential(scheme_name, "basic", placeholder="<user>:<password>")
        name = _token(http)
        return Credential(scheme_name, "authorization", name, "<credentials>", usable=name is not None)
    if isinstance(scheme, APIKeySecurityScheme):
        location = (scheme.location or "").strip().lower()
        name = _token(scheme.name)
        if location in ("header", "query", "cookie"):
            kind: CredentialKind = location  # type: ignore[assignment]
            return Credential(scheme_name, kind, name, "<api-key>", usable=name is not None)
        return Credential(scheme_name, "other", usable=False)
    if isinstance(scheme, MutualTlsSecurityScheme):
        return Credential(scheme_name, "client-certificate", placeholder="client.crt")
    return Credential(scheme_name, "other", usable=False)


def credentials(requirement: SecurityRequirement | None, card: AgentCard) -> tuple[Credential, ...]:
    """The credentials of one requirement (its schemes in card order); none for no requirement."""
    if requirement is None:
        return ()
    return tuple(_credential(name, card) for name in requirement.schemes)
