"""The second net under "shown is signed": the model the site shows, compared with the value a signature covers.

``signing.readings`` finds, member by member, where ProtoJSON reads a card differently from the loader. This
module checks the result instead of the reasons: the values that decide how a reader calls an agent (its
interface URLs, the card's security requirements, each security scheme's kind and the fields a request is
built from) are taken from the loaded model and looked up in the ``sdk`` form's value (``canonical.sdk_json``).
A shown value the signed one does not carry, or carries differently, makes a signature over that form
``invalid`` (``signing.verify``), whatever mapping made the difference.

``unfixed_pointers`` is the wider net, derived from the model rather than listed by hand: the signed value is
read into the model as the card is, and every shown value (at any depth: skills, interfaces, schemes, flows,
requirements, what a skill inherits) where the two models differ is named as not covered by the signature. A
member the signed form leaves out that changes what the page shows or what its requests send (a skill's
``"securityRequirements": [{}]``, read as "no authentication" and dropped from the signed bytes; a v0.3
``security``) is named, whatever member it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from a2a_docgen.limits import DEFAULT_LIMITS
from a2a_docgen.load.normalize import normalize
from a2a_docgen.load.report import Report
from a2a_docgen.load.source import join_pointer
from a2a_docgen.model import (
    AgentCard,
    APIKeySecurityScheme,
    CardSource,
    HTTPAuthSecurityScheme,
    JSONObject,
    JSONValue,
    OAuth2SecurityScheme,
    OpenIdConnectSecurityScheme,
    SecurityRequirement,
    SecurityScheme,
)
from a2a_docgen.protocol import short_version
from a2a_docgen.signing.canonical import SCHEME_MEMBERS, NoCanonicalForm, sdk_json, uncovered_pointers

__all__ = ["uncovered_members", "unfixed_pointers", "unsigned_shown_value"]

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


_NOT_SHOWN = frozenset(
    {"pointer", "extra", "source", "era", "signatures", "origin", "security_requirements_pointer"}
)
"""Model fields that are not values a page shows from the card: where a value was read (pointers, the era, the
origin of an inherited value, whose value is compared), unknown members (``uncovered_pointers`` names them) and
the signatures, which no form covers."""


def uncovered_members(raw: JSONObject, card: AgentCard | None = None) -> tuple[str, ...]:
    """Pointers of what a signature over the ``sdk`` form does not cover in the card ``raw`` (whose model is
    ``card``, read here when not given): the members that form leaves out (``uncovered_pointers``), then every
    shown value it does not fix (``unfixed_pointers``) not already named, nor inside or around one named."""
    named = list(uncovered_pointers(raw))
    try:
        signed = sdk_json(raw)
    except NoCanonicalForm:
        return tuple(named)
    for pointer in unfixed_pointers(card or _model(raw), signed):
        if not any(_nested(pointer, other) or _nested(other, pointer) for other in named):
            named.append(pointer)
    return tuple(named)


def _nested(pointer: str, outer: str) -> bool:
    return pointer == outer or pointer.startswith(outer + "/")


def _model(raw: JSONObject) -> AgentCard:
    """``raw`` read into the model as a card file is (its findings left out)."""
    source = CardSource(path="", root="", relpath="", raw=raw, text="")
    return normalize(raw, source, Report(), DEFAULT_LIMITS)


def unfixed_pointers(card: AgentCard, signed: JSONValue) -> tuple[str, ...]:
    """Pointers of ``card``'s shown values that ``signed`` (the ``sdk`` form's value) does not fix: the model of
    the signed value, read as the card is, differs there, so they can change without breaking a signature."""
    if not isinstance(signed, dict):
        return ()
    out: list[str] = []
    _differences(card, _model(signed), "", "", out)
    return tuple(dict.fromkeys(out))


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


_DEFAULTED = frozenset({"protocolVersion"})
"""Members a2a-sdk's reading fills in when the card has none (a v0.3 card's protocol version): a page that
shows none shows no value to fix (nor does one that does not state a flag a2a-sdk maps from a v0.3 member)."""


def _plain(value: object, member: str) -> object:
    """``value`` as a page shows it: an empty string, list or map as nothing (as ``None``), a flag that is off
    as one not stated (a2a-sdk maps a v0.3 ``supportsAuthenticatedExtendedCard`` only when it is on), a protocol
    version as ``Major.Minor`` (a v0.3 card's ``protocolVersion`` is signed as written and shown so)."""
    if value is False or value in ("", (), {}):
        return None
    if member == "protocolVersion" and isinstance(value, str):
        return short_version(value) or value
    return value


def _differences(shown: object, signed: object, parent: str, member: str, out: list[str]) -> None:
    """Append where ``shown`` (at ``member`` of the object at ``parent``) and ``signed`` differ."""
    here = getattr(shown, "pointer", None)
    where = here if isinstance(here, str) else join_pointer(parent, member) if member else parent
    if dataclasses.is_dataclass(shown) and not isinstance(shown, type):
        if type(signed) is not type(shown):
            out.append(where)
            return
        for field in dataclasses.fields(shown):
            if field.name not in _NOT_SHOWN:
                value = getattr(shown, field.name)
                _differences(value, getattr(signed, field.name), where, _camel(field.name), out)
        return
    if isinstance(shown, tuple) and any(hasattr(item, "pointer") for item in shown):
        _item_differences(shown, signed if isinstance(signed, tuple) else (), where, out)
    elif isinstance(shown, Mapping) and isinstance(signed, Mapping):
        for key, value in shown.items():
            if key in signed:
                _differences(value, signed[key], where, key, out)
            else:
                out.append(getattr(value, "pointer", join_pointer(where, key)))
        if not signed.keys() <= shown.keys():
            out.append(where)  # a signed entry the page does not show
    elif shown is None and (member in _DEFAULTED or isinstance(signed, bool)):
        return  # nothing shown: a default of a2a-sdk's reading, or a flag the page does not state
    elif _plain(shown, member) != _plain(signed, member):
        out.append(where)


def _same(shown: object, signed: object) -> bool:
    found: list[str] = []
    _differences(shown, signed, "", "", found)
    return not found


def _item_differences(
    shown: tuple[object, ...], signed: tuple[object, ...], where: str, out: list[str]
) -> None:
    """Items that carry their own pointer (skills, interfaces, requirements ...), compared in order; when the
    signed list is longer or shorter, each shown item without an equal signed one is named, or the list when
    a signed item is not shown (the same item twice counts once: a v0.3 card's preferred interface listed
    again among its additional ones is shown once, and signed twice)."""
    if len(shown) == len(signed):
        for item, other in zip(shown, signed, strict=True):
            _differences(item, other, where, "", out)
        return
    unmatched = [item for item in shown if not any(_same(item, other) for other in signed)]
    out += [str(getattr(item, "pointer", where)) for item in unmatched]
    if not unmatched and not all(any(_same(item, other) for item in shown) for other in signed):
        out.append(where)
