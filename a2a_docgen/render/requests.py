"""Ready-to-send ``SendMessage`` requests for a skill's examples (send-message reference, section 6).

The shape follows the interface the request goes to: its ``protocolVersion`` (major 0 gives the v0.3 shapes,
anything else v1.0; an interface without a version falls back to the card's era) and its binding:

- JSON-RPC v1.0: ``SendMessage`` envelope, ``ROLE_USER``, parts ``{"text"}`` / ``{"data", "mediaType"}``,
  ``tenant`` in ``params``; headers ``Content-Type: application/json`` and ``A2A-Version: 1.0``.
- JSON-RPC v0.3: ``message/send`` envelope, ``"kind": "message"``, role ``user``, parts with ``kind``.
- HTTP+JSON v1.0: ``POST {url}[/{tenant}]/message:send``, the ``params`` object as the body (tenant in the
  path only); headers ``Content-Type: application/a2a+json`` and ``A2A-Version: 1.0``.
- HTTP+JSON v0.3: ``POST {url}/v1/message:send`` with the v0.3 ProtoJSON body (``content``, ``ROLE_USER``,
  ``{"data": {"data": ...}}``) and ``"blocking": true`` (an absent value means non-blocking there).
- gRPC: ``lf.a2a.v1.A2AService/SendMessage`` (v1.0, metadata ``a2a-version: 1.0``) or
  ``a2a.v1.A2AService/SendMessage`` (v0.3), the request message in ProtoJSON.

An example becomes a data part when it is a JSON document (an object for v0.3, which only has object data
parts) and the skill accepts JSON; otherwise it is sent as text, exactly as written. ``messageId`` is a UUID5 of
(agent name, skill id, example index), so pages are reproducible.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote

from a2a_docgen.model import AgentCard, AgentInterface, AgentSkill, Example, JSONObject, JSONValue
from a2a_docgen.protocol import Binding, canonical_binding, major_version, media_type_essence

__all__ = [
    "MESSAGE_ID_NAMESPACE",
    "RequestExample",
    "Shape",
    "build_request",
    "json_media_type",
    "message_id",
    "request_shape",
    "send_message_request",
]

Shape = Literal["1.0", "0.3"]

MESSAGE_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:a2a-docgen:send-message-example")
"""The UUID5 namespace of example message ids (fixed: changing it changes every generated page)."""
_NAMESPACE_BYTES = MESSAGE_ID_NAMESPACE.bytes

GRPC_METHOD: dict[Shape, str] = {
    "1.0": "lf.a2a.v1.A2AService/SendMessage",
    "0.3": "a2a.v1.A2AService/SendMessage",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestExample:
    """One request, ready to send: what a client puts on the wire for one example."""

    binding: Binding
    shape: Shape
    """Which protocol version's message shapes the body uses."""
    method: str
    """``POST`` for JSON-RPC and HTTP+JSON; the full gRPC method name for gRPC."""
    target: str
    """The URL to POST to, or the gRPC endpoint as the card gives it."""
    headers: tuple[tuple[str, str], ...]
    """HTTP headers, or gRPC metadata."""
    body: JSONObject
    """The JSON body (HTTP), or the request message in ProtoJSON (gRPC)."""
    data_part: bool
    """Whether the example travels as a data part (else as a text part)."""


def request_shape(interface: AgentInterface, card: AgentCard) -> Shape:
    """v0.3 shapes for protocol version 0.x, v1.0 otherwise; the card's era when the version is unknown."""
    major = major_version(interface.protocol_version or "")
    if major is not None:
        return "0.3" if major == 0 else "1.0"
    return "1.0" if card.era == "1.0" else "0.3"


@functools.lru_cache(maxsize=4096)
def json_media_type(modes: tuple[str, ...]) -> str | None:
    """The JSON media type to state on a data part, or ``None`` when no mode accepts JSON.

    ``application/json`` when listed, else the first ``*/json`` or ``*/*+json`` mode (as written).
    """
    found: str | None = None
    for mode in modes:
        essence = media_type_essence(mode)
        if essence == "application/json":
            return "application/json"
        _, slash, subtype = essence.partition("/")
        if found is None and slash and (subtype == "json" or subtype.endswith("+json")):
            found = mode.split(";", 1)[0].strip()
    return found


def message_id(agent_name: str | None, skill_id: str | None, index: int) -> str:
    """The deterministic ``messageId`` of example ``index`` (0-based) of a skill: ``uuid.uuid5`` of the
    names, computed as ``uuid5`` does, so that a lone surrogate (reported by the validator) can be hashed."""
    name = "\x1f".join((agent_name or "", skill_id or "", str(index)))
    digest = hashlib.sha1(_NAMESPACE_BYTES + name.encode("utf-8", "surrogatepass"), usedforsecurity=False)
    return str(uuid.UUID(bytes=digest.digest()[:16], version=5))


def _part(shape: Shape, proto: bool, text: str, data: JSONValue, media_type: str | None) -> JSONObject:
    if media_type is None:
        return {"text": text} if shape == "1.0" or proto else {"kind": "text", "text": text}
    if shape == "1.0":
        return {"data": data, "mediaType": media_type}
    return {"data": {"data": data}} if proto else {"kind": "data", "data": data}


def send_message_request(
    *,
    shape: Shape,
    binding: Binding,
    message_id: str,
    text: str,
    data: JSONValue = None,
    data_media_type: str | None = None,
    output_modes: tuple[str, ...] = (),
    tenant: str | None = None,
) -> JSONObject:
    """The body of one send-message request (the whole JSON-RPC envelope for JSON-RPC).

    ``data_media_type`` set means "send ``data`` as a data part" (the caller checked the skill accepts it);
    otherwise ``text`` goes as a text part. ``tenant`` is put in the body for v1.0 JSON-RPC and gRPC; for
    HTTP+JSON it belongs in the path (see ``build_request``).
    """
    proto = shape == "0.3" and binding != "JSONRPC"  # v0.3 REST and gRPC use the v0.3 proto's JSON
    part = _part(shape, proto, text, data, data_media_type)
    message: JSONObject
    if shape == "1.0":
        message = {"messageId": message_id, "role": "ROLE_USER", "parts": [part]}
    elif proto:
        message = {"messageId": message_id, "role": "ROLE_USER", "content": [part]}
    else:
        message = {"kind": "message", "messageId": message_id, "role": "user", "parts": [part]}
    configuration: JSONObject = {}
    if output_modes:
        configuration["acceptedOutputModes"] = list(output_modes)
    if proto:
        configuration["blocking"] = True
    params: JSONObject = {}
    if tenant and shape == "1.0" and binding != "HTTP+JSON":
        params["tenant"] = tenant
    params["message"] = message
    if configuration:
        params["configuration"] = configuration
    if binding != "JSONRPC":
        return params
    method = "SendMessage" if shape == "1.0" else "message/send"
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}


def _rest_url(url: str, shape: Shape, tenant: str | None) -> str:
    base = url.rstrip("/")
    if shape == "0.3":
        return f"{base}/v1/message:send"
    prefix = f"/{quote(tenant, safe='')}" if tenant else ""
    return f"{base}{prefix}/message:send"


def build_request(
    card: AgentCard, skill: AgentSkill, index: int, interface: AgentInterface | None = None
) -> RequestExample | None:
    """The request that sends example ``index`` of ``skill`` over ``interface`` (default: the preferred one).

    ``None`` when there is no interface, it has no URL, or its binding is not one of the three core bindings.
    """
    interface = interface if interface is not None else card.preferred_interface
    if interface is None or not interface.url:
        return None
    binding = canonical_binding(interface.protocol_binding)
    if binding is None:
        return None
    shape = request_shape(interface, card)
    example: Example = skill.examples[index]
    data_type: str | None = None
    if example.is_json and (shape == "1.0" or isinstance(example.value, dict)):
        data_type = json_media_type(skill.effective_input_modes.modes)
    tenant = interface.tenant if shape == "1.0" else None
    body = send_message_request(
        shape=shape,
        binding=binding,
        message_id=message_id(card.name, skill.id, index),
        text=example.text,
        data=example.value if data_type else None,
        data_media_type=data_type,
        output_modes=skill.effective_output_modes.modes,
        tenant=tenant,
    )
    headers: tuple[tuple[str, str], ...]
    if binding == "GRPC":
        headers = (("a2a-version", "1.0"),) if shape == "1.0" else ()
        return RequestExample(
            binding=binding,
            shape=shape,
            method=GRPC_METHOD[shape],
            target=interface.url,
            headers=headers,
            body=body,
            data_part=data_type is not None,
        )
    if binding == "HTTP+JSON":
        content_type = "application/a2a+json" if shape == "1.0" else "application/json"
        target = _rest_url(interface.url, shape, tenant)
    else:
        content_type = "application/json"
        target = interface.url
    headers = (("Content-Type", content_type),)
    if shape == "1.0":
        headers += (("A2A-Version", "1.0"),)
    return RequestExample(
        binding=binding,
        shape=shape,
        method="POST",
        target=target,
        headers=headers,
        body=body,
        data_part=data_type is not None,
    )
