"""The second net under "shown is signed": the model the site shows, compared with the value a signature covers.

``signing.readings`` finds, member by member, where ProtoJSON reads a card differently from the loader. This
module checks the result instead of the reasons: the values that decide how a reader calls an agent (its
interface URLs, the card's security requirements, each security scheme's kind and the fields a request is
built from) are taken from the loaded model and looked up in the ``sdk`` form's value (``canonical.sdk_json``).
A shown value the signed one does not carry, or carries differently, makes a signature over that form
``invalid`` (``signing.verify``), whatever mapping made the difference.
"""

from __future__ import annotations

from a2a_docgen.model import (
    AgentCard,
    APIKeySecurityScheme,
    HTTPAuthSecurityScheme,
    JSONValue,
    OAuth2SecurityScheme,
    OpenIdConnectSecurityScheme,
    SecurityRequirement,
    SecurityScheme,
)
from a2a_docgen.signing.canonical import SCHEME_MEMBERS

__all__ = ["unsigned_shown_value"]

_WRAPPER_KINDS = {member: kind for kind, member in SCHEME_MEMBERS.items()}
_FLOW_FIELDS = (
    ("authorization_url", "authorizationUrl"),
    ("token_url", "tokenUrl"),
    ("refresh_url", "refreshUrl"),
    ("device_authorization_url", "deviceAuthorizationUrl"),
)


def _get(value: JSONValue, *path: str) -> JSONValue:
    for step in path:
        if not isinstance(value, dict):
            return None
        value = value.get(step)
    return value


def _requirements_shown(
    requirements: tuple[SecurityRequirement, ...],
) -> list[list[tuple[str, tuple[str, ...]]]]:
    """As the ``sdk`` form keeps them: a scheme without scopes, and a requirement left empty, are dropped
    (``uncovered_pointers`` names those, which that form cannot cover)."""
    shown = (
        sorted((name, tuple(scopes)) for name, scopes in r.schemes.items() if scopes) for r in requirements
    )
    return sorted(entries for entries in shown if entries)


def _requirements_signed(value: JSONValue) -> list[list[tuple[str, tuple[str, ...]]]]:
    out = []
    for requirement in value if isinstance(value, list) else []:
        schemes = _get(requirement, "schemes")
        entries = []
        for name, scopes in (schemes if isinstance(schemes, dict) else {}).items():
            listed = _get(scopes, "list")
            if isinstance(listed, list) and listed:
                entries.append((name, tuple(s for s in listed if isinstance(s, str))))
        if entries:
            out.append(sorted(entries))
    return sorted(out)


def _scheme_fields(scheme: SecurityScheme) -> dict[str, str | None]:
    """The fields of a scheme a request is built from, under their signed JSON names."""
    if isinstance(scheme, APIKeySecurityScheme):
        return {"location": scheme.location, "name": scheme.name}
    if isinstance(scheme, HTTPAuthSecurityScheme):
        return {"scheme": scheme.scheme, "bearerFormat": scheme.bearer_format}
    if isinstance(scheme, OpenIdConnectSecurityScheme):
        return {"openIdConnectUrl": scheme.open_id_connect_url}
    return {}


def unsigned_shown_value(card: AgentCard, signed: JSONValue) -> str | None:
    """Where the model of ``card`` shows a value that ``signed`` (the ``sdk`` form's value) does not carry as
    shown: a sentence naming it, or ``None`` when everything checked is as signed."""
    signed_urls = {_get(i, "url") for i in _get(signed, "supportedInterfaces") or []}  # type: ignore[union-attr]
    for interface in card.interfaces:
        if interface.url is not None and interface.url not in signed_urls:
            return f"the interface URL {interface.url!r} (at {interface.pointer}) is not in the signed interfaces"
    if _requirements_shown(card.security_requirements) != _requirements_signed(
        _get(signed, "securityRequirements")
    ):
        return "the card's security requirements shown are not the signed ones"
    signed_schemes = _get(signed, "securitySchemes")
    for name, scheme in card.security_schemes.items():
        entry = _get(signed_schemes, name)
        wrappers = [k for k in entry if k in _WRAPPER_KINDS] if isinstance(entry, dict) else []
        signed_kind = _WRAPPER_KINDS[wrappers[0]] if len(wrappers) == 1 else None
        if scheme.kind == "unknown" and signed_kind is None:
            continue  # shown as a scheme of no usable kind, and signed as none
        if scheme.kind != signed_kind:
            return f"the security scheme {name!r} is shown as {scheme.kind}, signed as {signed_kind or 'nothing'}"
        body = _get(entry, wrappers[0])
        for field, shown in _scheme_fields(scheme).items():
            if shown is not None and _get(body, field) != shown:
                return f"the {field} of security scheme {name!r} shown is not the signed one"
        if isinstance(scheme, OAuth2SecurityScheme):
            for flow in scheme.flows:
                signed_flow = _get(body, "flows", flow.kind)
                for attribute, json_name in _FLOW_FIELDS:
                    shown = getattr(flow, attribute)
                    if shown is not None and _get(signed_flow, json_name) != shown:
                        return f"the {json_name} of security scheme {name!r} shown is not the signed one"
    return None
