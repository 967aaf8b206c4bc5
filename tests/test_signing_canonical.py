"""The canonical forms a card signature covers, checked against the official a2a-sdk byte for byte."""

from __future__ import annotations

import copy
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen.signing.canonical import NoCanonicalForm, canonical_bytes, uncovered_pointers
from a2a_docgen.signing.schema import MESSAGES, ROOT

sdk = pytest.importorskip("a2a.utils.signing", reason="a2a-sdk (test extra) is not installed")
from a2a.client.card_resolver import parse_agent_card  # noqa: E402
from a2a.types import AgentCard  # noqa: E402
from a2a.utils import _jcs  # noqa: E402
from google.protobuf.descriptor import FieldDescriptor  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "cards"


@pytest.fixture(autouse=True)
def _quiet_sdk() -> Any:
    """The SDK logs a warning for every card that lacks a required field."""
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


def sdk_bytes(card: Any) -> bytes | None:
    """What a2a-sdk signs and verifies for ``card`` as served, or ``None`` when it cannot read it."""
    try:
        return sdk._canonicalize_agent_card(parse_agent_card(copy.deepcopy(card))).encode("utf-8")
    except Exception:
        return None


def ours(card: Any) -> bytes | None:
    try:
        return canonical_bytes(card, "sdk")
    except NoCanonicalForm:
        return None


# -- the schema table is the SDK's -----------------------------------------------------------------------


def _descriptor_fields(descriptor: Any) -> list[tuple[Any, ...]]:
    found = []
    for f in descriptor.fields:
        is_map = bool(f.message_type and f.message_type.GetOptions().map_entry)
        if is_map:
            value = f.message_type.fields_by_name["value"]
            kind, message = ("message", value.message_type.name) if value.message_type else ("string", None)
        elif f.message_type is not None and f.message_type.full_name == "google.protobuf.Struct":
            kind, message = "struct", None
        elif f.message_type is not None:
            kind, message = "message", f.message_type.name
        else:
            kind = {FieldDescriptor.CPPTYPE_STRING: "string", FieldDescriptor.CPPTYPE_BOOL: "bool"}[
                f.cpp_type
            ]
            message = None
        oneof = f.containing_oneof.name if f.containing_oneof else None
        found.append((f.name, f.json_name, kind, message, f.is_repeated, is_map, f.has_presence, oneof))
    return found


def test_the_schema_table_is_the_descriptor_a2a_sdk_ships() -> None:
    seen: dict[str, Any] = {}
    pending = [AgentCard.DESCRIPTOR]
    while pending:
        descriptor = pending.pop()
        if descriptor.name in seen:
            continue
        seen[descriptor.name] = descriptor
        for f in descriptor.fields:
            target = f.message_type
            if target is not None and target.GetOptions().map_entry:
                target = target.fields_by_name["value"].message_type
            if target is not None and not target.full_name.startswith("google.protobuf."):
                pending.append(target)
    assert set(seen) == set(MESSAGES)
    for name, descriptor in seen.items():
        table = [
            (f.name, f.json, f.kind, f.message, f.repeated, f.map, f.presence, f.oneof)
            for f in MESSAGES[name]
        ]
        assert table == _descriptor_fields(descriptor), name
    assert AgentCard.DESCRIPTOR.name == ROOT


# -- the sdk form, byte for byte --------------------------------------------------------------------------


def corpus() -> list[Path]:
    found = sorted((REPO / "tests" / "data" / "cards").glob("*.json"))
    found += sorted((REPO / "examples" / "cards").rglob("*.json"))
    if SHARED.is_dir():
        found += sorted(SHARED.rglob("*.json"))
    return found


@pytest.mark.parametrize("path", corpus(), ids=lambda p: p.name)
def test_the_sdk_form_of_every_corpus_card_is_a2a_sdk_s(path: Path) -> None:
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        pytest.skip("not JSON")
    if not isinstance(card, dict):
        pytest.skip("not an object")
    assert ours(card) == sdk_bytes(card)


_text = st.sampled_from(["", "x", "Café Agent", "😀", "\uff01", "a\u0000b", '"q"', "tab\t", "é" * 3])
_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    _text,
)
_json = st.recursive(
    _scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_text, inner, max_size=3)),
    max_leaves=8,
)


def _member_value(depth: int) -> st.SearchStrategy[Any]:
    return st.one_of(_json, st.lists(_text, max_size=3))


def _message(type_name: str, depth: int) -> st.SearchStrategy[dict[str, Any]]:
    """A JSON object shaped like ``type_name``, with wrong types, nulls, snake_case names and extras sometimes."""
    members: dict[str, st.SearchStrategy[Any]] = {}
    for f in MESSAGES[type_name]:
        if f.kind == "message" and f.message is not None and depth < 3:
            nested = _message(f.message, depth + 1)
            if f.map:
                value: st.SearchStrategy[Any] = st.dictionaries(_text, nested, max_size=2)
            elif f.repeated:
                value = st.lists(nested, max_size=2)
            else:
                value = nested
        elif f.kind == "struct":
            value = st.dictionaries(_text, _json, max_size=3)
        elif f.kind == "bool":
            value = st.booleans()
        elif f.map:
            value = st.dictionaries(_text, _text, max_size=2)
        elif f.repeated:
            value = st.lists(_text, max_size=3)
        else:
            value = _text
        odd = st.one_of(st.none(), _json) if depth < 3 else st.none()
        members[f.json] = st.one_of(value, value, value, odd)
        if f.name != f.json:
            members[f.name] = st.one_of(value, odd)
    members["unknownMember"] = _json
    return st.fixed_dictionaries({}, optional=members)


_LEGACY = st.fixed_dictionaries(
    {},
    optional={
        "url": st.one_of(_text, st.just("https://a.example/rpc")),
        "preferredTransport": _text,
        "protocolVersion": _text,
        "additionalInterfaces": st.lists(
            st.fixed_dictionaries({"url": _text, "transport": _text}), max_size=2
        ),
        "security": st.lists(st.dictionaries(_text, st.lists(_text, max_size=2), max_size=2), max_size=2),
        "supportsAuthenticatedExtendedCard": st.one_of(st.booleans(), _text),
        "securitySchemes": st.dictionaries(
            _text,
            st.fixed_dictionaries(
                {
                    "type": st.sampled_from(
                        ["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS", "other"]
                    )
                },
                optional={"in": _text, "name": _text, "scheme": _text, "description": _text},
            ),
            max_size=2,
        ),
    },
)


@st.composite
def cards(draw: st.DrawFn) -> dict[str, Any]:
    card = draw(_message(ROOT, 0))
    if draw(st.booleans()):
        card.update(draw(_LEGACY))
    return card


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards())
def test_the_sdk_form_of_any_card_is_a2a_sdk_s(card: dict[str, Any]) -> None:
    assert ours(card) == sdk_bytes(card)


@settings(deadline=None)
@given(_json)
def test_rfc8785_package_and_a2a_sdk_jcs_agree(value: Any) -> None:
    import rfc8785

    try:
        theirs: bytes | None = _jcs.canonicalize(value).encode("utf-8")
    except _jcs.CanonicalizationError:
        theirs = None
    try:
        mine: bytes | None = rfc8785.dumps(value)
    except rfc8785.CanonicalizationError:
        mine = None
    assert mine == theirs


# -- the served form and what the sdk form leaves out -----------------------------------------------------


def test_the_served_form_keeps_every_member_but_signatures() -> None:
    card = {"name": "Café", "z": [], "a": {"b": False, "": ""}, "signatures": [{"protected": "x"}]}
    assert canonical_bytes(card, "served") == '{"a":{"":"","b":false},"name":"Café","z":[]}'.encode()


def test_the_sdk_form_drops_defaults_unknown_members_and_empties() -> None:
    card = {
        "name": "n",
        "description": "",
        "capabilities": {
            "streaming": False,
            "extensions": [{"uri": "u", "required": False, "params": {"n": 1}}],
        },
        "x-unknown": 1,
        "iconUrl": "",
    }
    assert canonical_bytes(card, "sdk") == (
        b'{"capabilities":{"extensions":[{"params":{"n":1},"uri":"u"}],"streaming":false},"name":"n"}'
    )


def test_uncovered_names_unknown_and_ignored_members() -> None:
    card = {
        "name": "n",
        "supportedInterfaces": [{"url": "https://a.example", "x": 1}],
        "url": "https://a.example",
        "skills": [{"id": "s", "security": [], "securityRequirements": []}],
        "securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "k", "extra": 1}},
        "x-note": "",
    }
    assert uncovered_pointers(card) == (
        "/supportedInterfaces/0/x",
        "/url",
        "/skills/0/security",
        "/securitySchemes/k/extra",
        "/x-note",
    )
