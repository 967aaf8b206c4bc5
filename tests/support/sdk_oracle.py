"""The official ``a2a-sdk`` package as a test oracle for card loading and validation.

Every function imports the SDK lazily, so this module imports fine without it. Callers must
check ``sdk_available()`` (or call ``skip_unless_sdk()``) before calling anything else; the other
functions raise ``ImportError`` when the SDK is missing.

Facts these wrappers rely on (a2a-sdk 1.3.0):

- v1.0 card message: ``a2a.types.a2a_pb2.AgentCard`` (proto package ``lf.a2a.v1``).
- Strict parse: ``google.protobuf.json_format.ParseDict(d, AgentCard(), ignore_unknown_fields=False)``.
  It stops at the first error; the message ends with the proto path (``at "AgentCard.x"``).
- ``a2a.utils.proto_utils.validate_proto_required_fields(msg)`` raises
  ``a2a.utils.errors.InvalidParamsError`` whose ``data["errors"]`` is a list of
  ``{"field": <snake_case path>, "message": ...}``. It checks ``field_behavior = REQUIRED`` only:
  repeated and map fields need at least one element, message fields must be set, plain
  scalars must differ from their default (so ``""`` fails). It recurses into set messages, map
  values and list items, but a oneof is never required, so ``SecurityScheme {}`` passes.
- Three v0.3 -> v1.0 routes exist; see the ``sdk_convert_v03_*`` functions.
"""

from __future__ import annotations

import copy
import functools
import importlib
from collections.abc import Callable
from typing import Any

import pytest

__all__ = [
    "V03_ROUTES",
    "SdkConversionError",
    "sdk_available",
    "sdk_convert_v03_card_resolver",
    "sdk_convert_v03_compat_model",
    "sdk_convert_v03_compat_proto",
    "sdk_parse_v1",
    "sdk_required_field_errors",
    "sdk_required_fields_ok",
    "sdk_version",
    "skip_unless_sdk",
]

Card = dict[str, Any]


class SdkConversionError(Exception):
    """The card is not a JSON object, or the SDK could not parse or convert it (message is the SDK's)."""


_SDK_MODULES = (
    "google.protobuf.json_format",
    "a2a.types.a2a_pb2",
    "a2a.utils.proto_utils",
    "a2a.client.card_resolver",
    "a2a.compat.v0_3.a2a_v0_3_pb2",
    "a2a.compat.v0_3.conversions",
    "a2a.compat.v0_3.proto_utils",
    "a2a.compat.v0_3.types",
)


@functools.cache
def sdk_available() -> bool:
    """True when a2a-sdk and every module used here can be imported."""
    try:
        for name in _SDK_MODULES:
            importlib.import_module(name)
    except ImportError:
        return False
    return True


def sdk_version() -> str | None:
    """Installed a2a-sdk version, or None when it is not installed."""
    from importlib import metadata

    try:
        return metadata.version("a2a-sdk")
    except metadata.PackageNotFoundError:
        return None


def skip_unless_sdk() -> None:
    """Skip the calling test when a2a-sdk is not importable."""
    if not sdk_available():
        pytest.skip("a2a-sdk is not installed")


def _parse_errors() -> tuple[type[Exception], ...]:
    from google.protobuf.json_format import ParseError

    # ParseDict lets a few plain errors escape on badly typed input (e.g. a list where a map belongs).
    return (ParseError, TypeError, ValueError, AttributeError)


def _require_object(card: object) -> Card:
    if not isinstance(card, dict):
        raise SdkConversionError(f"card is a JSON {type(card).__name__}, not an object")
    return card


def sdk_parse_v1(card: object) -> tuple[bool, str]:
    """Parse ``card`` strictly as v1.0 ProtoJSON: ``(True, "")`` or ``(False, first line of first error)``."""
    from a2a.types.a2a_pb2 import AgentCard
    from google.protobuf.json_format import ParseDict

    try:
        ParseDict(_require_object(card), AgentCard(), ignore_unknown_fields=False)
    except SdkConversionError as exc:
        return False, str(exc)
    except _parse_errors() as exc:
        # Later lines only list the message's available fields.
        return False, str(exc).splitlines()[0].strip()
    return True, ""


def sdk_required_field_errors(card: object, *, strict: bool = False) -> list[tuple[str, str]]:
    """``(field path, message)`` pairs from ``validate_proto_required_fields``, sorted.

    The card is parsed leniently (unknown members ignored, as the SDK client does) unless
    ``strict``. Raises ``SdkConversionError`` when the card cannot be parsed at all.
    """
    from a2a.types.a2a_pb2 import AgentCard
    from a2a.utils.errors import InvalidParamsError
    from a2a.utils.proto_utils import validate_proto_required_fields
    from google.protobuf.json_format import ParseDict

    try:
        message = ParseDict(_require_object(card), AgentCard(), ignore_unknown_fields=not strict)
    except _parse_errors() as exc:
        raise SdkConversionError(str(exc)) from exc
    try:
        validate_proto_required_fields(message)
    except InvalidParamsError as exc:
        found = (exc.data or {}).get("errors", [])
        return sorted((str(err["field"]), str(err["message"])) for err in found)
    return []


def sdk_required_fields_ok(card: object, *, strict: bool = False) -> tuple[bool, str]:
    """Run the SDK's REQUIRED-field check: ``(True, "")`` or ``(False, "path: message; ...")``.

    An unparseable card gives ``(False, "unparseable: <parse error>")``.
    """
    try:
        errors = sdk_required_field_errors(card, strict=strict)
    except SdkConversionError as exc:
        return False, f"unparseable: {exc}"
    return not errors, "; ".join(f"{field}: {message}" for field, message in errors)


def _to_dict(message: Any) -> Card:
    from google.protobuf.json_format import MessageToDict

    result: Card = MessageToDict(message)
    return result


def sdk_convert_v03_card_resolver(card: object) -> Card:
    """Route used when a client fetches a card: ``a2a.client.card_resolver.parse_agent_card``.

    Dict rewrite, then a lenient ``ParseDict``. Every interface gets the card-level
    ``protocolVersion`` verbatim (default ``"0.3.0"``); no top-level ``url`` means no
    ``supportedInterfaces`` at all; several OAuth flows in one scheme are rejected.
    """
    from a2a.client.card_resolver import parse_agent_card

    try:
        # parse_agent_card pops and rewrites members of its argument in place.
        parsed = parse_agent_card(copy.deepcopy(_require_object(card)))
    except _parse_errors() as exc:
        raise SdkConversionError(str(exc)) from exc
    return _to_dict(parsed)


def sdk_convert_v03_compat_model(card: object) -> Card:
    """Route of the v0.3 JSON-RPC transport: pydantic ``types.AgentCard`` -> ``to_core_agent_card``.

    The first interface gets the card-level ``protocolVersion`` verbatim (pydantic default
    ``"0.3.0"``), every ``additionalInterfaces`` entry gets the constant ``"0.3"``. Validates
    the v0.3 schema (required members, ``in`` enum); several OAuth flows: the last of
    authorizationCode, clientCredentials, implicit, password wins.
    """
    from a2a.compat.v0_3 import conversions
    from a2a.compat.v0_3 import types as types_v03

    try:
        # pydantic's ValidationError is a ValueError.
        converted = conversions.to_core_agent_card(
            types_v03.AgentCard.model_validate(copy.deepcopy(_require_object(card)))
        )
    except _parse_errors() as exc:
        raise SdkConversionError(str(exc)) from exc
    return _to_dict(converted)


def sdk_convert_v03_compat_proto(card: object) -> Card:
    """Route of the v0.3 REST and gRPC transports: v0.3 gRPC proto -> ``FromProto`` -> ``to_core_agent_card``.

    The input must be ProtoJSON of the v0.3 gRPC proto (package ``a2a.v1``: ``security`` as
    ``[{"schemes": {...}}]``, ``apiKeySecurityScheme`` members), not the types.ts JSON served at
    the well-known URL. Unknown members are ignored, so a types.ts card loses its security
    requirements and every ``type``-style scheme becomes ``openIdConnectSecurityScheme {}``.
    A missing ``protocolVersion`` becomes ``"0.3"``; ``pushNotifications`` and
    ``extendedAgentCard`` always come out explicitly (``false`` when absent).
    """
    from a2a.compat.v0_3 import a2a_v0_3_pb2, conversions, proto_utils
    from google.protobuf.json_format import ParseDict

    try:
        legacy = ParseDict(
            copy.deepcopy(_require_object(card)), a2a_v0_3_pb2.AgentCard(), ignore_unknown_fields=True
        )
        converted = conversions.to_core_agent_card(proto_utils.FromProto.agent_card(legacy))
    except _parse_errors() as exc:
        raise SdkConversionError(str(exc)) from exc
    return _to_dict(converted)


V03_ROUTES: dict[str, Callable[[object], Card]] = {
    "card_resolver": sdk_convert_v03_card_resolver,
    "compat_model": sdk_convert_v03_compat_model,
    "compat_proto": sdk_convert_v03_compat_proto,
}
"""Every v0.3 -> v1.0 route by short name, for parametrised tests."""
