"""The bytes a card signature covers, in the two forms verifiers meet.

``sdk`` (the a2a-sdk form, spec section 8.4.1 as the official SDK implements it):

1. the card JSON as served goes through the SDK's reading of a served card (``parse_agent_card``): the v0.3
   members ``url``, ``preferredTransport``, ``protocolVersion``, ``additionalInterfaces``, ``security``,
   ``supportsAuthenticatedExtendedCard`` and the ``type``-discriminated security schemes are mapped to v1.0;
2. then into the protobuf ``AgentCard`` (``ParseDict``, unknown members ignored) and back to JSON
   (``MessageToDict``): only members of the v1.0 schema remain, under their JSON names; a field without
   explicit presence that holds its default (``""``, ``false``, an empty list or map) is dropped; numbers
   inside ``params`` and ``header`` (``google.protobuf.Struct``) become IEEE 754 doubles;
3. ``signatures`` is removed; empty strings, empty lists, empty objects and ``null`` are removed,
   recursively (a container left empty by that goes too);
4. RFC 8785 (JCS): members sorted by their UTF-16 code units, no whitespace, strings as UTF-8 with only
   ``"``, ``\\`` and U+0000..U+001F escaped, numbers as ECMAScript writes them.

``sdk-legacy``: the value of steps 1 to 3 as a2a-sdk releases before its RFC 8785 fix (a2a-python #1193)
serialised it, ``json.dumps(value, separators=(",", ":"), sort_keys=True)``: non-ASCII characters as ``\\uXXXX``
escapes, keys in code point order, numbers as Python writes them (``1.0``). Tried last; for a card of ASCII text
without numbers in ``params`` it is the ``sdk`` form byte for byte.

``served`` (the plain JCS of the card as served): the card's top-level object without ``signatures``, every
other member kept exactly as written (unknown members, empty values, ``false``), then RFC 8785.

The protobuf steps are computed here without protobuf, from ``signing.schema``, following the behaviour of
protobuf's ``json_format`` (including what makes it refuse a card: a wrong type, ``null`` in a list, two
members of one one-of, nesting past its recursion limit). A card the SDK cannot read has no ``sdk`` form.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Literal, cast

import rfc8785

from a2a_docgen.load.source import join_pointer
from a2a_docgen.model import JSONObject, JSONValue
from a2a_docgen.signing.schema import MESSAGES, ROOT, Field

__all__ = [
    "FORMS",
    "SCHEME_MEMBERS",
    "Form",
    "NoCanonicalForm",
    "canonical_bytes",
    "nested_messages",
    "schema_field",
    "sdk_json",
    "served_json",
    "uncovered_pointers",
]

Form = Literal["sdk", "served", "sdk-legacy"]
FORMS: tuple[Form, ...] = ("sdk", "served", "sdk-legacy")
"""In the order verification tries them."""

_PARSE_DEPTH = 100
"""protobuf ``ParseDict``'s default ``max_recursion_depth`` (messages, Struct values and lists count)."""
_CLEAN_DEPTH = 128
"""a2a-sdk's bound on containers when it drops empty values and serialises (``_jcs.MAX_DEPTH``)."""
_UNPAIRED_SURROGATE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")
_EXTENSION_NAME = re.compile(r"\[[a-zA-Z0-9\._]*\]$")


class NoCanonicalForm(Exception):
    """The card has no canonical form of this kind; ``str()`` says why."""


def canonical_bytes(raw: JSONObject, form: Form) -> bytes:
    """The signed bytes of ``form`` for the card ``raw`` (its JSON as served); raises ``NoCanonicalForm``."""
    value = served_json(raw) if form == "served" else sdk_json(raw)
    if form == "sdk-legacy":
        # a2a-sdk before its RFC 8785 fix (a2a-python #1193): the same value through json.dumps with sorted
        # keys, so non-ASCII as \uXXXX escapes, keys in code point order, numbers as Python writes them.
        return json.dumps(value, separators=(",", ":"), sort_keys=True).encode("ascii")
    try:
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, RecursionError) as exc:
        raise NoCanonicalForm(f"RFC 8785 cannot serialise it: {exc}") from None


def served_json(raw: JSONObject) -> JSONValue:
    """The card as served without ``signatures``."""
    return {name: value for name, value in raw.items() if name != "signatures"}


def sdk_json(raw: JSONObject) -> JSONValue:
    """The JSON value a2a-sdk canonicalises for a served card (steps 1 to 3 above)."""
    try:
        data: dict[str, object] = copy.deepcopy(raw)  # type: ignore[arg-type]
    except RecursionError:
        raise NoCanonicalForm("the card nests too deeply to be copied") from None
    try:
        _legacy_extended_card(data)
        _legacy_interfaces(data)
        _legacy_security(data)
    except (TypeError, AttributeError) as exc:
        raise NoCanonicalForm(f"a2a-sdk cannot read the card's v0.3 members: {exc}") from None
    try:
        message = _Parser().message(data, ROOT)
    except _ParseError as exc:
        raise NoCanonicalForm(f"a2a-sdk cannot read the card: {exc}") from None
    except RecursionError:
        raise NoCanonicalForm("a2a-sdk cannot read the card: it nests too deeply") from None
    js = message.to_json()
    js.pop("signatures", None)
    return _clean_empty(js, 1)


# -- step 1: the SDK's mapping of v0.3 members ---------------------------------------------------------------
# Each function keeps the SDK's Python semantics, including which values make it fail (TypeError and
# AttributeError, which the SDK turns into a parse error).

_SCHEME_MEMBERS = {
    "apiKey": "apiKeySecurityScheme",
    "http": "httpAuthSecurityScheme",
    "oauth2": "oauth2SecurityScheme",
    "openIdConnect": "openIdConnectSecurityScheme",
    "mutualTLS": "mtlsSecurityScheme",
}


SCHEME_MEMBERS = _SCHEME_MEMBERS
"""A v0.3 scheme's ``type`` -> the v1.0 member a2a-sdk wraps the scheme's members in."""


def _legacy_extended_card(data: dict[str, object]) -> None:
    if data.pop("supportsAuthenticatedExtendedCard", None):
        capabilities: object = data.setdefault("capabilities", {})
        if "extendedAgentCard" not in capabilities:  # type: ignore[operator]
            capabilities["extendedAgentCard"] = True  # type: ignore[index]


def _legacy_interfaces(data: dict[str, object]) -> None:
    url = data.pop("url", None)
    transport = data.pop("preferredTransport", "JSONRPC")
    version = data.pop("protocolVersion", "0.3.0")
    additional: object = data.pop("additionalInterfaces", None) or []
    if "supportedInterfaces" not in data and url:
        interfaces: list[object] = [{"url": url, "protocolBinding": transport, "protocolVersion": version}]
        for interface in additional:  # type: ignore[attr-defined]
            interfaces.append(
                {
                    "url": interface.get("url"),
                    "protocolBinding": interface.get("transport"),
                    "protocolVersion": version,
                }
            )
        data["supportedInterfaces"] = interfaces


def _legacy_requirements(requirements: object) -> list[object]:
    return [
        {"schemes": {name: {"list": scopes} for name, scopes in requirement.items()}}
        for requirement in requirements  # type: ignore[attr-defined]
    ]


def _legacy_security(data: dict[str, object]) -> None:
    security = data.pop("security", None)
    if "securityRequirements" not in data and security is not None:
        data["securityRequirements"] = _legacy_requirements(security)
    for skill in data.get("skills", []):  # type: ignore[attr-defined]
        skill_security = skill.pop("security", None)
        if "securityRequirements" not in skill and skill_security is not None:
            skill["securityRequirements"] = _legacy_requirements(skill_security)
    schemes: object = data.get("securitySchemes", {})
    if schemes:
        for scheme in schemes.values():  # type: ignore[attr-defined]
            kind = scheme.pop("type", None)
            if kind in _SCHEME_MEMBERS:
                if kind == "apiKey" and "in" in scheme:
                    scheme["location"] = scheme.pop("in")
                wrapped = {_SCHEME_MEMBERS[kind]: scheme.copy()}
                scheme.clear()
                scheme.update(wrapped)


# -- step 2: ProtoJSON in and out ------------------------------------------------------------------------------


class _ParseError(Exception):
    pass


_FIELDS_BY_JSON = {name: {f.json: f for f in fields} for name, fields in MESSAGES.items()}
_FIELDS_BY_NAME = {name: {f.name: f for f in fields} for name, fields in MESSAGES.items()}


class _Message:
    """A protobuf message as ``ParseDict`` fills it: the fields set, by proto name."""

    __slots__ = ("fields", "type")

    def __init__(self, type_name: str) -> None:
        self.type = type_name
        self.fields: dict[str, object] = {}

    def set(self, field: Field, value: object) -> None:
        if field.oneof is not None:
            for other in MESSAGES[self.type]:
                if other.oneof == field.oneof and other.name != field.name:
                    self.fields.pop(other.name, None)
        self.fields[field.name] = value

    def to_json(self) -> dict[str, JSONValue]:
        """``MessageToDict``: the fields ``ListFields`` reports, under their JSON names."""
        js: dict[str, JSONValue] = {}
        for field in MESSAGES[self.type]:
            if field.name not in self.fields:
                continue
            value = self.fields[field.name]
            if field.map:
                entries = cast("dict[str, object]", value)
                if entries:
                    js[field.json] = {k: _out(field, v) for k, v in entries.items()}
            elif field.repeated:
                items = cast("list[object]", value)
                if items:
                    js[field.json] = [_out(field, v) for v in items]
            elif field.presence or value not in ("", False):
                js[field.json] = _out(field, value)
        return js


def _out(field: Field, value: object) -> JSONValue:
    if field.kind == "message":
        return cast("_Message", value).to_json()
    return cast("JSONValue", value)


class _Parser:
    """protobuf ``json_format.ParseDict(..., ignore_unknown_fields=True)`` over ``signing.schema``."""

    def __init__(self) -> None:
        self.depth = 0

    def message(self, js: object, type_name: str, into: _Message | None = None) -> _Message:
        self.depth += 1
        if self.depth > _PARSE_DEPTH:
            raise _ParseError(f"Message too deep. Max recursion depth is {_PARSE_DEPTH}")
        message = into or _Message(type_name)
        try:
            names = iter(js)  # type: ignore[call-overload]
        except TypeError as exc:
            raise _ParseError(str(exc)) from None
        seen: list[str] = []
        for name in names:
            try:
                self._member(js, name, message, seen)
            except (TypeError, ValueError) as exc:
                raise _ParseError(f"Failed to parse {name} field: {exc}") from None
        self.depth -= 1
        return message

    def _member(self, js: object, name: object, message: _Message, seen: list[str]) -> None:
        by_json = _FIELDS_BY_JSON[message.type]
        field = by_json.get(name) or _FIELDS_BY_NAME[message.type].get(name)  # type: ignore[call-overload]
        if field is None:
            if _EXTENSION_NAME.match(name):  # type: ignore[call-overload]
                raise _ParseError(f"Message type {message.type} does not have extensions")
            return
        assert isinstance(name, str)
        if name in seen:
            raise _ParseError(f'Message type "{message.type}" should not have multiple "{name}" fields')
        seen.append(name)
        value = js[name]  # type: ignore[index]
        if field.oneof is not None and value is not None:
            if field.oneof in seen:
                raise _ParseError(
                    f'Message type "{message.type}" should not have multiple "{field.oneof}" oneof fields'
                )
            seen.append(field.oneof)
        if value is None:
            message.fields.pop(field.name, None)
            return
        if field.map:
            message.fields.pop(field.name, None)
            if not isinstance(value, dict):
                raise _ParseError(f"Map field {field.name} must be in a dict")
            entries: dict[str, object] = {}
            for given in value:
                key = _string(given)
                if field.kind == "message":
                    assert field.message is not None
                    existing = entries.get(key)
                    entries[key] = self.message(
                        value[given], field.message, cast("_Message | None", existing)
                    )
                else:
                    entries[key] = _string(value[given])
            message.set(field, entries)
        elif field.repeated:
            message.fields.pop(field.name, None)
            if not isinstance(value, (list, tuple)):
                raise _ParseError(f"repeated field {name} must be in []")
            items: list[object] = []
            for item in value:
                if item is None:
                    raise _ParseError("null is not allowed to be used as an element in a repeated field")
                if field.kind == "message":
                    assert field.message is not None
                    items.append(self.message(item, field.message))
                else:
                    items.append(_string(item))
            message.set(field, items)
        elif field.kind == "message":
            assert field.message is not None
            existing = message.fields.get(field.name)
            message.set(field, self.message(value, field.message, cast("_Message | None", existing)))
        elif field.kind == "struct":
            message.set(field, self.struct(value))
        elif field.kind == "bool":
            if not isinstance(value, bool):
                raise _ParseError("Expected true or false without quotes")
            message.set(field, value)
        else:
            message.set(field, _string(value))

    def struct(self, value: object) -> JSONValue:
        """A ``google.protobuf.Struct`` in, its ``MessageToDict`` out."""
        self.depth += 1
        if self.depth > _PARSE_DEPTH:
            raise _ParseError(f"Message too deep. Max recursion depth is {_PARSE_DEPTH}")
        if not isinstance(value, dict):
            raise _ParseError("Struct must be in a dict")
        out = {_struct_key(key): self.value(item) for key, item in value.items()}
        self.depth -= 1
        return out

    def value(self, value: object) -> JSONValue:
        """A ``google.protobuf.Value``: numbers are doubles."""
        if isinstance(value, dict):
            self.depth += 1
            result = self.struct(value)
        elif isinstance(value, (list, tuple)):
            self.depth += 2
            if self.depth > _PARSE_DEPTH:
                raise _ParseError(f"Message too deep. Max recursion depth is {_PARSE_DEPTH}")
            result = [self.value(item) for item in value]
            self.depth -= 1
        else:
            self.depth += 1
            if self.depth > _PARSE_DEPTH:
                raise _ParseError(f"Message too deep. Max recursion depth is {_PARSE_DEPTH}")
            result = _scalar_value(value)
        self.depth -= 1
        return result


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected string or bytes-like object, got '{type(value).__name__}'")
    if _UNPAIRED_SURROGATE.search(value):
        raise _ParseError("Unpaired surrogate")
    return value


def _struct_key(key: object) -> str:
    if not isinstance(key, str) or _UNPAIRED_SURROGATE.search(key):
        raise _ParseError("a Struct key is not valid UTF-8 text")
    return key


def _scalar_value(value: object) -> JSONValue:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        if _UNPAIRED_SURROGATE.search(value):
            raise _ParseError("a Struct string is not valid UTF-8 text")
        return value
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError:
            raise _ParseError(f"{value} does not fit a double") from None
    raise _ParseError(f"Value {value!r} has unexpected type {type(value)}")


# -- step 3: empty values dropped -------------------------------------------------------------------------------


def _clean_empty(value: JSONValue, depth: int) -> JSONValue:
    """a2a-sdk's ``_clean_empty``: ``""``, ``[]``, ``{}`` and ``null`` removed; ``None`` when nothing is left."""
    if isinstance(value, (dict, list)) and depth > _CLEAN_DEPTH:
        raise NoCanonicalForm(f"nesting exceeds a2a-sdk's maximum depth of {_CLEAN_DEPTH}")
    if isinstance(value, dict):
        cleaned: dict[str, JSONValue] = {
            k: c for k, v in value.items() if (c := _clean_empty(v, depth + 1)) is not None
        }
        return cleaned or None
    if isinstance(value, list):
        items: list[JSONValue] = [c for v in value if (c := _clean_empty(v, depth + 1)) is not None]
        return items or None
    if isinstance(value, str) and not value:
        return None
    return value


# -- what the sdk form leaves out ----------------------------------------------------------------------------

_LEGACY_INTERFACE_MEMBERS = ("url", "preferredTransport", "protocolVersion", "additionalInterfaces")


def uncovered_pointers(raw: JSONObject) -> tuple[str, ...]:
    """Pointers of the served card's members that the ``sdk`` form does not carry, so a signature over it does
    not protect them: members the v1.0 schema does not know, v0.3 members the SDK's mapping ignores, and
    security requirements of schemes without scopes (the empty scope list is dropped, and the requirement
    with it: the signed bytes are the same with or without it)."""
    out: list[str] = _scopeless_requirements(raw)
    mapped_interfaces = "supportedInterfaces" not in raw and bool(raw.get("url"))
    for name, value in raw.items():
        pointer = join_pointer("", name)
        if name in ("signatures", "supportsAuthenticatedExtendedCard"):
            continue
        if name in _LEGACY_INTERFACE_MEMBERS:
            if not mapped_interfaces:
                out.append(pointer)
            continue
        if name == "security":
            if "securityRequirements" in raw:
                out.append(pointer)
            continue
        _walk_member(ROOT, name, value, pointer, out)
    return tuple(out)


def _scopeless_requirements(raw: JSONObject) -> list[str]:
    """Pointers of v1.0 requirement entries (card and skills) whose scope list is empty or absent."""
    owners: list[tuple[JSONValue, str]] = [(raw, "")]
    skills = raw.get("skills")
    if isinstance(skills, list):
        owners += [(skill, f"/skills/{index}") for index, skill in enumerate(skills)]
    out = []
    for owner, base in owners:
        requirements = owner.get("securityRequirements") if isinstance(owner, dict) else None
        for index, requirement in enumerate(requirements if isinstance(requirements, list) else []):
            schemes = requirement.get("schemes") if isinstance(requirement, dict) else None
            for name, scopes in (schemes if isinstance(schemes, dict) else {}).items():
                if not (isinstance(scopes, dict) and scopes.get("list")):
                    out.append(join_pointer(base, "securityRequirements", index, "schemes", name))
    return out


def schema_field(type_name: str, name: str) -> Field | None:
    """The field of message ``type_name`` that member ``name`` sets: by JSON name, else by proto name."""
    return _FIELDS_BY_JSON[type_name].get(name) or _FIELDS_BY_NAME[type_name].get(name)


_field = schema_field


def nested_messages(field: Field, value: JSONValue, pointer: str) -> Iterator[tuple[str, JSONValue, str]]:
    """``(message type, value, pointer)`` of each message a member of ``field`` holds: the map's values, the
    list's items, or the value itself."""
    if field.kind != "message" or field.message is None:
        return
    if field.map and isinstance(value, dict):
        for key, item in value.items():
            yield field.message, item, join_pointer(pointer, key)
    elif field.repeated and isinstance(value, list):
        for index, item in enumerate(value):
            yield field.message, item, join_pointer(pointer, index)
    elif not field.repeated:
        yield field.message, value, pointer


def _walk_member(type_name: str, name: str, value: JSONValue, pointer: str, out: list[str]) -> None:
    field = _field(type_name, name)
    if field is None:
        out.append(pointer)
        return
    for message, item, where in nested_messages(field, value, pointer):
        _walk_message(message, item, where, out)


def _walk_message(type_name: str, value: JSONValue, pointer: str, out: list[str]) -> None:
    if not isinstance(value, dict):
        return
    if type_name == "SecurityScheme" and value.get("type") in _SCHEME_MEMBERS:
        kind = str(value["type"])
        target = _field("SecurityScheme", _SCHEME_MEMBERS[kind])
        assert target is not None
        assert target.message is not None
        for name, item in value.items():
            if name == "type" or (kind == "apiKey" and name == "in"):
                continue
            _walk_member(target.message, name, item, join_pointer(pointer, name), out)
        return
    for name, item in value.items():
        if type_name == "AgentSkill" and name == "security":
            if "securityRequirements" in value:
                out.append(join_pointer(pointer, name))
            continue
        _walk_member(type_name, name, item, join_pointer(pointer, name), out)
