"""Requests ready to send: a ``curl`` or ``grpcurl`` command and a Python snippet for one example.

Each takes a ``RequestExample`` (the exact message for the interface the skill is called on, see
``requests``) and the credentials its security asks for, and writes code a reader copies and runs after
replacing the placeholders (``<token>``, ``<api-key>``). Card text reaches the code only as data a shell or
Python cannot read as code: the JSON body in a quoted here-document, URLs as ``safe_url`` made them (inside
single quotes, which they never contain), names that passed ``credentials``' token check, and Python string
literals written as JSON strings. The JSON and the literals escape a brace that opens template, critic or
include syntax (``\\u007b``), so the blocks stay inert for every Markdown preprocessor too.
"""

from __future__ import annotations

import json
from urllib.parse import quote, urlsplit

from a2a_docgen.model import JSONValue
from a2a_docgen.render.credentials import Credential
from a2a_docgen.render.escape import json_text
from a2a_docgen.render.requests import RequestExample
from a2a_docgen.text.urls import safe_url

__all__ = ["curl_command", "grpcurl_command", "python_snippet"]

_HEREDOC = "EOF"


def _quoted(text: str) -> str:
    """``text`` in single quotes for a POSIX shell (a quote inside becomes ``'\\''``)."""
    return "'" + text.replace("'", "'\\''") + "'"


def _with_query(url: str, extra: list[tuple[str, str]]) -> str:
    """``url`` with query parameters added (names percent-encoded; values are our placeholders)."""
    if not extra:
        return url
    base = url.split("#", 1)[0]
    query = "&".join(f"{quote(name, safe='')}={value}" for name, value in extra)
    return base + ("&" if "?" in base else "?") + query


def _unusable(credential: Credential) -> str:
    return (
        f"# The card's security scheme {json.dumps(credential.scheme)} cannot be written into this command; "
        "add its credential by hand."
    )


def _http_auth(credentials: tuple[Credential, ...]) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """curl options, comment lines and query parameters for the credentials."""
    options: list[str] = []
    notes: list[str] = []
    query: list[tuple[str, str]] = []
    for credential in credentials:
        kind, name, placeholder = credential.kind, credential.name, credential.placeholder
        if not credential.usable:
            notes.append(_unusable(credential))
        elif kind == "bearer":
            options.append(f"-H {_quoted(f'Authorization: Bearer {placeholder}')}")
        elif kind == "basic":
            options.append(f"-u {_quoted(placeholder)}")
        elif kind == "authorization":
            options.append(f"-H {_quoted(f'Authorization: {name} {placeholder}')}")
        elif kind == "header":
            options.append(f"-H {_quoted(f'{name}: {placeholder}')}")
        elif kind == "query":
            query.append((str(name), placeholder))
        elif kind == "cookie":
            options.append(f"-b {_quoted(f'{name}={placeholder}')}")
        elif kind == "client-certificate":
            options.append("--cert client.crt --key client.key")
    return options, notes, query


def curl_command(request: RequestExample, credentials: tuple[Credential, ...]) -> str | None:
    """The ``curl`` command that sends ``request`` (JSON-RPC or HTTP+JSON) with the body on standard input;
    ``None`` when the card's URL is not one ``safe_url`` accepts (nothing of it goes into a command)."""
    target = safe_url(request.target)
    if target is None:
        return None
    options, notes, query = _http_auth(credentials)
    lines = [*notes, f"curl -sS -X {request.method} {_quoted(_with_query(target, query))}"]
    lines += [f"  -H {_quoted(f'{name}: {value}')}" for name, value in request.headers]
    lines += [f"  {option}" for option in options]
    lines.append(f"  --data-binary @- <<'{_HEREDOC}'")
    return " \\\n".join(lines) + "\n" + json_text(request.body) + "\n" + _HEREDOC


def _grpc_address(target: str) -> tuple[str, bool] | None:
    """``host:port`` for grpcurl and whether the connection is plaintext (an ``http://`` URL); ``None`` for a
    target that is not a valid host (with an optional port) or an http(s) URL."""
    url = target if "://" in target else f"https://{target}"
    safe = safe_url(url)
    if safe is None:
        return None
    parts = urlsplit(safe)
    host = str(parts.hostname)
    if ":" in host:  # IPv6
        host = f"[{host}]"
    plaintext = parts.scheme == "http"
    port = parts.port or (80 if plaintext else 443)
    return f"{host}:{port}", plaintext


def grpcurl_command(request: RequestExample, credentials: tuple[Credential, ...]) -> str | None:
    """The ``grpcurl`` command that sends ``request`` (gRPC), with the A2A protocol definition as a file
    (servers need not offer reflection) and the message on standard input; ``None`` for an invalid target."""
    found = _grpc_address(request.target)
    if found is None:
        return None
    address, plaintext = found
    options: list[str] = ["-proto a2a.proto"]
    if plaintext:
        options.append("-plaintext")
    options += [f"-H {_quoted(f'{name}: {value}')}" for name, value in request.headers]
    notes: list[str] = []
    for credential in credentials:
        if not credential.usable or credential.kind in ("query", "cookie"):
            notes.append(_unusable(credential))
        elif credential.kind == "bearer":
            options.append(f"-H {_quoted(f'authorization: Bearer {credential.placeholder}')}")
        elif credential.kind == "basic":
            options.append(f"-H {_quoted('authorization: Basic <base64 of user:password>')}")
        elif credential.kind == "authorization":
            options.append(f"-H {_quoted(f'authorization: {credential.name} {credential.placeholder}')}")
        elif credential.kind == "header":
            options.append(f"-H {_quoted(f'{str(credential.name).lower()}: {credential.placeholder}')}")
        elif credential.kind == "client-certificate":
            options.append("-cert client.crt -key client.key")
    lines = [*notes, "grpcurl -d @", *(f"  {option}" for option in options)]
    lines.append(f"  {address} {request.method} <<'{_HEREDOC}'")
    return " \\\n".join(lines) + "\n" + json_text(request.body) + "\n" + _HEREDOC


def _py(value: JSONValue, indent: str = "") -> str:
    """A JSON value as a Python literal (strings as JSON strings, which are valid Python literals)."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "    "
        items = ",\n".join(f"{inner}{json_text(key)}: {_py(item, inner)}" for key, item in value.items())
        return "{\n" + items + ",\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = indent + "    "
        return "[\n" + ",\n".join(f"{inner}{_py(item, inner)}" for item in value) + ",\n" + indent + "]"
    if value is True or value is False or value is None:
        return repr(value)
    return json_text(value)


def python_snippet(
    request: RequestExample,
    credentials: tuple[Credential, ...],
    *,
    url: str,
    binding: str,
    version: str,
    tenant: str | None,
    text: str,
    data: JSONValue,
    media_type: str | None,
    output_modes: tuple[str, ...],
) -> str:
    """A Python program that sends the example with the official ``a2a-sdk`` client over the same interface."""
    parameters: list[tuple[str, str]] = []
    notes: list[str] = []
    certificate = False
    for credential in credentials:
        if not credential.usable or credential.kind in ("query", "cookie"):
            notes.append(_unusable(credential))
        elif credential.kind == "bearer":
            parameters.append(("Authorization", f"Bearer {credential.placeholder}"))
        elif credential.kind == "basic":
            parameters.append(("Authorization", "Basic <base64 of user:password>"))
        elif credential.kind == "authorization":
            parameters.append(("Authorization", f"{credential.name} {credential.placeholder}"))
        elif credential.kind == "header":
            parameters.append((str(credential.name), credential.placeholder))
        elif credential.kind == "client-certificate":
            certificate = True
    if media_type is not None:
        helper = "new_data_message"
        message = f"new_data_message({_py(data, '        ')}, media_type={json_text(media_type)}, role=Role.ROLE_USER)"
    else:
        helper = "new_text_message"
        message = f"new_text_message({json_text(text)}, role=Role.ROLE_USER)"
    interface = [f"url={json_text(url)}", f"protocol_binding={json_text(binding)}"]
    interface.append(f"protocol_version={json_text(version)}")
    if tenant:
        interface.append(f"tenant={json_text(tenant)}")
    http_client = (
        'httpx.AsyncClient(cert=("client.crt", "client.key"))' if certificate else "httpx.AsyncClient()"
    )
    modes = ", ".join(json_text(mode) for mode in output_modes)
    context = ", ".join(f"{json_text(name)}: {json_text(value)}" for name, value in parameters)
    lines = [
        *notes,
        "import asyncio",
        "",
        "import httpx",
        "from a2a.client import ClientCallContext, ClientConfig, create_client",
        f"from a2a.helpers.proto_helpers import {helper}",
        "from a2a.types import (",
        "    AgentCapabilities, AgentCard, AgentInterface, Role, SendMessageConfiguration, SendMessageRequest,",
        ")",
        "",
        "",
        "async def main() -> None:",
        "    interface = AgentInterface(",
        *(f"        {argument}," for argument in interface),
        "    )",
        "    card = AgentCard(supported_interfaces=[interface], capabilities=AgentCapabilities())",
        "    config = ClientConfig(",
        f"        streaming=False, supported_protocol_bindings=[{json_text(binding)}], httpx_client={http_client},",
        "    )",
        "    client = await create_client(card, client_config=config)",
        "    request = SendMessageRequest(",
        f"        message={message},",
        f"        configuration=SendMessageConfiguration(accepted_output_modes=[{modes}]),",
        "    )",
        f"    context = ClientCallContext(service_parameters={{{context}}})",
        "    async for event in client.send_message(request, context=context):",
        "        print(event)",
        "",
        "",
        "asyncio.run(main())",
    ]
    return "\n".join(lines)
