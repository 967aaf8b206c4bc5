"""Where the signed form of a card reads it differently from this site: what is shown must be what is signed.

A signature in the a2a-sdk form covers the card as ProtoJSON reads it, and ProtoJSON accepts every field under
its JSON name (``supportedInterfaces``) and its proto name (``supported_interfaces``), the later member winning.
This site's loader reads the JSON name, the proto name only when the JSON name is absent, and in a few places
(the era, the v0.3 mappings) the JSON name alone. So wherever a card spells a field by its proto name, or writes
a number a double cannot hold, the values on its page, in its snippets and in ``catalog.json`` may not be the
values its signature covers. ``divergent_readings`` finds every such place, at any depth, from
``signing.schema``; a card with one is never ``verified`` (``signing.verify``), and two members naming one field
are an error in any card (``member-alias``), since clients read one and the page shows the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from a2a_docgen.load.source import join_pointer
from a2a_docgen.model import JSONObject, JSONValue
from a2a_docgen.signing.canonical import SCHEME_MEMBERS, nested_messages, schema_field
from a2a_docgen.signing.schema import MESSAGES, ROOT, Field

__all__ = ["Reading", "divergent_readings"]

_BY_JSON = {name: {f.json: f for f in fields} for name, fields in MESSAGES.items()}
_BY_NAME = {name: {f.name: f for f in fields} for name, fields in MESSAGES.items()}
_DOUBLE_EXACT = 2**53


@dataclass(frozen=True, slots=True)
class Reading:
    """One place the signed form and this site read differently."""

    pointer: str
    message: str
    alias: bool
    """Two members name one field: an error in any card. Otherwise only verification is refused."""
    at_key: bool = True
    """The pointer names a member (its name is located), not a value."""


def divergent_readings(raw: JSONObject) -> tuple[Reading, ...]:
    """Every place of ``raw`` (the card as served) whose value ProtoJSON reads differently from this site."""
    out: list[Reading] = []
    _legacy_aliases(raw, "", "url", "supportedInterfaces", ROOT, out)
    _legacy_aliases(raw, "", "security", "securityRequirements", ROOT, out)
    skills = raw.get("skills")
    if isinstance(skills, list):
        for index, skill in enumerate(skills):
            if isinstance(skill, dict):
                _legacy_aliases(
                    skill, f"/skills/{index}", "security", "securityRequirements", "AgentSkill", out
                )
    capabilities = raw.get("capabilities")
    if raw.get("supportsAuthenticatedExtendedCard") and isinstance(capabilities, dict):
        _legacy_aliases(
            {"supportsAuthenticatedExtendedCard": True, **capabilities},
            "/capabilities",
            "supportsAuthenticatedExtendedCard",
            "extendedAgentCard",
            "AgentCapabilities",
            out,
        )
    _message(ROOT, raw, "", out)
    return tuple(out)


def _legacy_aliases(
    obj: JSONObject, pointer: str, legacy: str, json_name: str, type_name: str, out: list[Reading]
) -> None:
    """a2a-sdk maps the v0.3 member ``legacy`` to ``json_name`` when ``json_name`` is absent, and ProtoJSON then
    reads that beside the proto name: two values for one field, of which this site shows the proto name's."""
    field = _BY_JSON[type_name][json_name]
    if json_name not in obj and field.name in obj and obj.get(legacy) not in (None, False, ""):
        where = (
            "/" + legacy if legacy == "supportsAuthenticatedExtendedCard" else join_pointer(pointer, legacy)
        )
        out.append(
            Reading(
                join_pointer(pointer, field.name),
                f'"{field.name}" and the v0.3 member "{legacy}" both give "{json_name}" (at {where}): a2a-sdk, and '
                f'a signature\'s canonical form, read "{legacy}", this site "{field.name}"; keep one',
                alias=True,
            )
        )


def _message(type_name: str, obj: JSONValue, pointer: str, out: list[Reading]) -> None:
    if not isinstance(obj, dict):
        return
    skipped: tuple[str, ...] = ()
    if type_name == "SecurityScheme" and obj.get("type") in SCHEME_MEMBERS:
        kind = str(obj["type"])
        wrapper = _BY_JSON["SecurityScheme"][SCHEME_MEMBERS[kind]].message
        assert wrapper is not None
        type_name, skipped = wrapper, ("type",)
        if kind == "apiKey" and "in" in obj:
            skipped = ("type", "in")
            if "location" in obj:
                out.append(
                    Reading(
                        join_pointer(pointer, "location"),
                        '"in" and "location" are the same field: a2a-sdk, and a signature\'s canonical form, read '
                        '"in", this site "location"; keep one',
                        alias=True,
                    )
                )
    spellings: dict[str, list[str]] = {}
    for name in obj:
        field = None if name in skipped else schema_field(type_name, name)
        if field is None or (type_name == ROOT and field.name == "signatures"):
            continue  # unknown members are not signed (``uncovered_pointers``), signatures never are
        spellings.setdefault(field.name, []).append(name)
    for proto_name, names in spellings.items():
        field = _BY_NAME[type_name][proto_name]
        if len(names) > 1:
            later = names[-1]
            out.append(
                Reading(
                    join_pointer(pointer, later),
                    f'"{names[0]}" and "{later}" are the same field: ProtoJSON readers (a2a-sdk, and a '
                    f'signature\'s canonical form) take the later one, "{later}", this site "{field.json}"; '
                    "keep one",
                    alias=True,
                )
            )
        elif names[0] != field.json:
            out.append(
                Reading(
                    join_pointer(pointer, names[0]),
                    f'"{names[0]}" is the proto name of "{field.json}", which readers resolve differently',
                    alias=False,
                )
            )
        for name in names:
            _value(field, obj[name], join_pointer(pointer, name), out)


def _value(field: Field, value: JSONValue, pointer: str, out: list[Reading]) -> None:
    if field.kind == "struct":
        _struct(value, pointer, out)
    for message, item, where in nested_messages(field, value, pointer):
        _message(message, item, where, out)


def _worth_a_look(value: JSONValue) -> bool:
    """A container, or an integer a double may not hold."""
    return isinstance(value, (dict, list)) or (
        type(value) is int and not -_DOUBLE_EXACT <= value <= _DOUBLE_EXACT
    )


def _struct(value: JSONValue, pointer: str, out: list[Reading]) -> None:
    """Numbers in a ``google.protobuf.Struct`` are doubles in the signed form: one a double cannot hold exactly
    is shown as one number and signed as another. Paths become pointers only for a finding."""
    stack: list[tuple[JSONValue, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, (*path, k)) for k, v in item.items() if _worth_a_look(v))
        elif isinstance(item, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(item) if _worth_a_look(v))
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > _DOUBLE_EXACT:
            try:
                exact, signed = float(item) == item, repr(float(item))
            except OverflowError:
                exact, signed = False, "no number (it does not fit a double)"
            if not exact:
                digits = str(item)
                shown = digits if len(digits) <= 40 else digits[:37] + "..."
                out.append(
                    Reading(
                        join_pointer(pointer, *path),
                        f"the number {shown} is beyond double precision: the signed form holds {signed}",
                        alias=False,
                        at_key=False,
                    )
                )
