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
parts) and the skill accepts JSON; otherwise it is sent as text, exactly as written. A skill without examples
gets a placeholder message in a mode it accepts (``placeholder_content``): text where it takes text, a data part
skeleton where it takes only JSON, a file part where it takes only files. ``messageId`` is a UUID5 of (agent
name, skill id, example index), so pages are reproducible.

Extensions the card marks ``required`` are declared on every request: ``A2A-Extensions`` (v1.0 HTTP),
``X-A2A-Extensions`` (v0.3 HTTP, docs/topics/extensions.md), ``a2a-extensions`` gRPC metadata.
"""

from __future__ import annotations

import functools
import hashlib
import re
import uuid
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote

from a2a_docgen.model import AgentCard, AgentInterface, AgentSkill, Example, JSONObject, JSONValue
from a2a_docgen.protocol import (
    EXTENDED_CARD_OPERATIONS,
    Binding,
    assumed_protocol_version,
    canonical_binding,
    major_version,
    media_type_essence,
)

__all__ = [
    "MESSAGE_ID_NAMESPACE",
    "PLACEHOLDER_DATA",
    "PLACEHOLDER_FILE_URL",
    "PLACEHOLDER_TEXT",
    "MessageContent",
    "RequestExample",
    "Shape",
    "accepts_text",
    "build_request",
    "example_content",
    "extended_card_request",
    "extension_header",
    "json_media_type",
    "message_id",
    "placeholder_content",
    "request_shape",
    "required_extensions",
    "send_message_request",
    "stated_version",
    "unwritable_extensions",
]

Shape = Literal["1.0", "0.3"]

MESSAGE_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:a2a-docgen:send-message-example")
"""The UUID5 namespace of example message ids (fixed: changing it changes every generated page)."""
_NAMESPACE_BYTES = MESSAGE_ID_NAMESPACE.bytes

GRPC_METHOD: dict[Shape, str] = {
    "1.0": "lf.a2a.v1.A2AService/SendMessage",
    "0.3": "a2a.v1.A2AService/SendMessage",
}


PLACEHOLDER_TEXT = "<your message>"
"""The text of the placeholder message of a skill without examples (the page says to replace it)."""
PLACEHOLDER_DATA: JSONObject = {"<field>": "<value>"}
"""The data part skeleton of a JSON-only skill without examples."""
PLACEHOLDER_FILE_URL = "https://example.com/<your-file>"
"""The file URL of a file-only skill without examples."""

PartKind = Literal["text", "data", "file"]


@dataclass(frozen=True, slots=True, kw_only=True)
class MessageContent:
    """What one message carries: an example as written, or a placeholder in a mode the skill accepts."""

    kind: PartKind
    text: str = ""
    """The text of a text part (the example as written)."""
    data: JSONValue = None
    """The value of a data part."""
    media_type: str | None = None
    """The media type stated on a data or file part."""
    url: str = ""
    """The URL of a file part."""
    placeholder: bool = False


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
    content: MessageContent
    """What the message carries (for the snippets that build it with the SDK)."""
    extensions: tuple[str, ...] = ()
    """The URIs of the extensions the card requires, declared in ``headers``."""


def stated_version(interface: AgentInterface) -> bool:
    """Whether the card states the interface's protocol version (one with a decimal major)."""
    return major_version(interface.protocol_version or "") is not None


def request_shape(interface: AgentInterface, card: AgentCard) -> Shape:
    """v0.3 shapes for protocol version 0.x, v1.0 otherwise; for an interface that states no version, the one
    ``convert`` gives it (``protocol.assumed_protocol_version``)."""
    version = (
        interface.protocol_version
        if stated_version(interface)
        else assumed_protocol_version(card.source.raw.get("protocolVersion"), card.era)
    )
    return "0.3" if major_version(version or "") == 0 else "1.0"


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


def accepts_text(modes: tuple[str, ...]) -> bool:
    """Whether a list of input modes takes text: any ``text/*`` type, a wildcard, or the bare word ``text``
    that many cards write; an empty list takes anything."""
    if not modes:
        return True
    for mode in modes:
        essence = media_type_essence(mode)
        if essence in ("text", "*", "*/*") or essence.startswith("text/"):
            return True
    return False


def placeholder_content(modes: tuple[str, ...]) -> MessageContent:
    """The placeholder message of a skill without examples, in a mode it accepts: text where it takes text,
    a data part skeleton where it takes JSON, else a file part of its first media type."""
    if accepts_text(modes):
        return MessageContent(kind="text", text=PLACEHOLDER_TEXT, placeholder=True)
    json_type = json_media_type(modes)
    if json_type is not None:
        return MessageContent(
            kind="data", data=dict(PLACEHOLDER_DATA), media_type=json_type, placeholder=True
        )
    file_type = next((m.split(";", 1)[0].strip() for m in modes if "/" in m), None)
    return MessageContent(kind="file", url=PLACEHOLDER_FILE_URL, media_type=file_type, placeholder=True)


_HEADER_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[A-Za-z0-9._~:/?#\[\]@!$&()*+;=%\-]{1,2000}")
"""A URI that can go into a header list as it is: no space, comma, quote, brace or control character."""


def required_extensions(card: AgentCard) -> tuple[str, ...]:
    """The URIs of the extensions the card marks ``required`` that can be declared in a header (card order,
    each once); ``unwritable_extensions`` are the others."""
    uris: dict[str, None] = {}
    for extension in card.capabilities.extensions:
        if extension.required is True and extension.uri and _HEADER_URI.fullmatch(extension.uri):
            uris.setdefault(extension.uri, None)
    return tuple(uris)


def unwritable_extensions(card: AgentCard) -> tuple[str, ...]:
    """Required extensions whose URI cannot go into a header as it is (the page says so)."""
    return tuple(
        e.uri
        for e in card.capabilities.extensions
        if e.required is True and e.uri and not _HEADER_URI.fullmatch(e.uri)
    )


def extension_header(binding: Binding, shape: Shape) -> str:
    """Where a request declares the extensions it uses: the HTTP header or the gRPC metadata key."""
    if binding == "GRPC":
        return "a2a-extensions" if shape == "1.0" else "x-a2a-extensions"
    return "A2A-Extensions" if shape == "1.0" else "X-A2A-Extensions"


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


def _file_part(shape: Shape, proto: bool, url: str, media_type: str | None) -> JSONObject:
    """A file given by URL: ``url`` (v1.0), ``file.uri`` (v0.3 JSON-RPC), ``file.fileWithUri`` (v0.3 proto)."""
    if shape == "1.0":
        return {"url": url, "mediaType": media_type} if media_type else {"url": url}
    file: JSONObject = {"fileWithUri" if proto else "uri": url}
    if media_type:
        file["mimeType"] = media_type
    return {"file": file} if proto else {"kind": "file", "file": file}


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
    file_url: str | None = None,
) -> JSONObject:
    """The body of one send-message request (the whole JSON-RPC envelope for JSON-RPC).

    ``data_media_type`` set means "send ``data`` as a data part" (the caller checked the skill accepts it);
    otherwise ``text`` goes as a text part. ``tenant`` is put in the body for v1.0 JSON-RPC and gRPC; for
    HTTP+JSON it belongs in the path (see ``build_request``). ``file_url`` set means "send a file part"
    (of media type ``data_media_type``).
    """
    proto = shape == "0.3" and binding != "JSONRPC"  # v0.3 REST and gRPC use the v0.3 proto's JSON
    if file_url is not None:
        part = _file_part(shape, proto, file_url, data_media_type)
    else:
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
    # a lone surrogate (reported by the validator) is percent-encoded as message_id hashes it, not a crash
    prefix = f"/{quote(tenant, safe='', errors='surrogatepass')}" if tenant else ""
    return f"{base}{prefix}/message:send"


def example_content(example: Example, shape: Shape, modes: tuple[str, ...]) -> MessageContent:
    """How an example travels: as a data part when it is JSON the skill accepts (an object for v0.3), else
    as text exactly as written."""
    if example.is_json and (shape == "1.0" or isinstance(example.value, dict)):
        data_type = json_media_type(modes)
        if data_type is not None:
            return MessageContent(kind="data", text=example.text, data=example.value, media_type=data_type)
    return MessageContent(kind="text", text=example.text)


def build_request(
    card: AgentCard, skill: AgentSkill, index: int | None, interface: AgentInterface | None = None
) -> RequestExample | None:
    """The request that sends example ``index`` of ``skill`` (``None``: the skill's placeholder message) over
    ``interface`` (default: the preferred one).

    ``None`` when there is no interface, it has no URL, or its binding is not one of the three core bindings.
    """
    interface = interface if interface is not None else card.preferred_interface
    if interface is None or not interface.url:
        return None
    binding = canonical_binding(interface.protocol_binding)
    if binding is None:
        return None
    shape = request_shape(interface, card)
    modes = skill.effective_input_modes.modes
    if index is None:
        content = placeholder_content(modes)
        if shape == "0.3" and content.kind == "data" and not isinstance(content.data, dict):
            content = MessageContent(kind="text", text=PLACEHOLDER_TEXT, placeholder=True)
    else:
        content = example_content(skill.examples[index], shape, modes)
    tenant = interface.tenant if shape == "1.0" else None
    body = send_message_request(
        shape=shape,
        binding=binding,
        message_id=message_id(card.name, skill.id, -1 if index is None else index),
        text=content.text,
        data=content.data,
        data_media_type=content.media_type if content.kind != "text" else None,
        output_modes=skill.effective_output_modes.modes,
        tenant=tenant,
        file_url=content.url if content.kind == "file" else None,
    )
    extensions = required_extensions(card)
    declared: tuple[tuple[str, str], ...] = (
        ((extension_header(binding, shape), ",".join(extensions)),) if extensions else ()
    )
    headers: tuple[tuple[str, str], ...]
    if binding == "GRPC":
        headers = (("a2a-version", "1.0"),) if shape == "1.0" else ()
        return RequestExample(
            binding=binding,
            shape=shape,
            method=GRPC_METHOD[shape],
            target=interface.url,
            headers=headers + declared,
            body=body,
            data_part=content.kind == "data",
            content=content,
            extensions=extensions,
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
        headers=headers + declared,
        body=body,
        data_part=content.kind == "data",
        content=content,
        extensions=extensions,
    )


def extended_card_request(card: AgentCard, interface: AgentInterface) -> RequestExample | None:
    """The request that asks ``interface`` for the agent's extended card (``protocol.EXTENDED_CARD_OPERATIONS``):
    a JSON-RPC call, an HTTP+JSON ``GET`` (``body`` empty) or a gRPC call; ``None`` as ``build_request``."""
    binding = canonical_binding(interface.protocol_binding)
    if binding is None or not interface.url:
        return None
    shape = request_shape(interface, card)
    operation = EXTENDED_CARD_OPERATIONS[(binding, shape)]
    tenant = interface.tenant if shape == "1.0" else None
    params: JSONObject = {"tenant": tenant} if tenant else {}
    versioned: tuple[tuple[str, str], ...] = (("A2A-Version", "1.0"),) if shape == "1.0" else ()
    headers: tuple[tuple[str, str], ...]
    if binding == "GRPC":
        metadata = (("a2a-version", "1.0"),) if shape == "1.0" else ()
        method, target, headers, body = operation, interface.url, metadata, params
    elif binding == "HTTP+JSON":
        prefix = f"/{quote(tenant, safe='', errors='surrogatepass')}" if tenant else ""
        method, target, headers, body = "GET", interface.url.rstrip("/") + prefix + operation, versioned, {}
    else:
        body = {"jsonrpc": "2.0", "id": 1, "method": operation}
        if shape == "1.0":
            body["params"] = params
        method, target, headers = "POST", interface.url, (("Content-Type", "application/json"), *versioned)
    return RequestExample(
        binding=binding,
        shape=shape,
        method=method,
        target=target,
        headers=headers,
        body=body,
        data_part=False,
        content=MessageContent(kind="text"),
    )
