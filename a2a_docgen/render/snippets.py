"""Requests ready to send: a ``curl`` or ``grpcurl`` command and a Python snippet for one example.

Each takes a ``RequestExample`` (the exact message for the interface the skill is called on, see
``requests``) and the credentials its security asks for, and writes code a reader copies and runs after
replacing the placeholders (``<token>``, ``<api-key>``, ``<user>:<password>``; the page explains them once).
Every credential goes where its scheme says, in every snippet kind: headers, the query, a cookie, HTTP Basic,
a client certificate (curl ``--cert``, grpcurl ``-cert``, an ``ssl.SSLContext`` for httpx, gRPC channel
credentials); the extensions the card requires are declared (``A2A-Extensions``, ``X-A2A-Extensions``, gRPC
metadata). grpcurl names the protocol definition it reads (``a2a.proto`` of the spec version) and where its
imports come from; the Python program names the package it needs (``a2a-sdk`` 1.x, which speaks v1.0 and v0.3
agents; the ``grpc`` extra for gRPC) and closes what it opens.

Card text reaches the code only as data a shell or Python cannot read as code, whatever it holds
(``tests/test_snippets_parse.py`` parses every form of hostile cards):

- in the shell, every word that holds card text is single-quoted (URLs as ``safe_url`` made them, header
  values, the gRPC address), and the JSON body is a quoted here-document whose lines are never ``EOF``;
- in Python, card text is only in string literals (``_py_text``: JSON strings, with ``\\U`` escapes for
  characters beyond the BMP, which a JSON string writes as a surrogate pair that Python would read as two
  characters), and the program's first line fixes its encoding (``CODING``), so no card text on its second
  line, or anywhere, can declare another (PEP 263: a card naming a scheme ``x coding:utf-7`` made Python read
  ``+ACI-`` as a quote);
- in comments, card text is written by ``json.dumps``: printable ASCII, so it cannot end the comment;
- names are those that passed ``credentials``' token check, never identifiers.

The JSON and the literals escape a brace that opens template, critic or include syntax (``\\u007b``), so the
blocks stay inert for every Markdown preprocessor too.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote, urlsplit

from a2a_docgen.model import JSONValue
from a2a_docgen.render.credentials import Credential
from a2a_docgen.render.escape import json_text
from a2a_docgen.render.requests import RequestExample, Shape
from a2a_docgen.text.urls import safe_url

__all__ = [
    "CODING",
    "GOOGLEAPIS_IMPORT_PATH",
    "PROTO_URLS",
    "PYTHON_INSTALL",
    "curl_command",
    "grpc_address",
    "grpcurl_command",
    "python_snippet",
]

_HEREDOC = "EOF"

CODING = "# -*- coding: utf-8 -*-"
"""The Python program's first line: its encoding is ours, whatever a later line says (PEP 263 reads only the
first two lines, and the second is the install line)."""

PROTO_URLS: dict[Shape, str] = {
    "1.0": "https://raw.githubusercontent.com/a2aproject/A2A/v1.0.1/specification/a2a.proto",
    "0.3": "https://raw.githubusercontent.com/a2aproject/A2A/v0.3.0/specification/grpc/a2a.proto",
}
"""The protocol definition grpcurl reads, by the spec version of the interface (saved as ``a2a.proto``)."""

GOOGLEAPIS_IMPORT_PATH = "\"$(python3 -c 'import google.api, os; print(os.path.dirname(os.path.dirname(list(google.api.__path__)[0])))')\""
"""The directory that holds ``google/api/*.proto`` (a2a.proto's imports), as ``googleapis-common-protos``
installs them; grpcurl has ``google/protobuf/*.proto`` built in."""

PYTHON_INSTALL = {
    False: 'pip install "a2a-sdk>=1.3"',
    True: 'pip install "a2a-sdk[grpc]>=1.3"',
}
"""The install line of the Python snippet, by whether it speaks gRPC."""


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


def _named(text: str) -> str:
    """Card text for a comment: a JSON string of printable ASCII (no line break of any kind, no byte another
    encoding could read differently), so it cannot end the comment."""
    return json.dumps(text, ensure_ascii=True)


def _comments(lines: list[str]) -> str:
    """Comment lines before a command (each ends its line: a comment never continues the command)."""
    return "".join(f"{line}\n" for line in lines)


def _unusable(credential: Credential, where: str = "this command") -> str:
    return (
        f"# The card's security scheme {_named(credential.scheme)} cannot be written into {where}; "
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
    """The ``curl`` command that sends ``request`` (JSON-RPC or HTTP+JSON) with the body on standard input (a
    ``GET`` has none); ``None`` when the card's URL is not one ``safe_url`` accepts (nothing of it goes into a command)."""
    target = safe_url(request.target)
    if target is None:
        return None
    options, notes, query = _http_auth(credentials)
    lines = [f"curl -sS --fail-with-body -X {request.method} {_quoted(_with_query(target, query))}"]
    lines += [f"  -H {_quoted(f'{name}: {value}')}" for name, value in request.headers]
    lines += [f"  {option}" for option in options]
    if request.method == "GET":
        return _comments(notes) + " \\\n".join(lines)
    lines.append(f"  --data-binary @- <<'{_HEREDOC}'")
    return _comments(notes) + " \\\n".join(lines) + "\n" + json_text(request.body) + "\n" + _HEREDOC


def grpc_address(target: str) -> tuple[str, bool] | None:
    """``host:port`` for a gRPC client and whether the connection is plaintext (an ``http://`` URL); ``None``
    for a target that is not a valid host (with an optional port) or an http(s) URL."""
    url = target if "://" in target else f"https://{target}"
    safe = safe_url(url)
    if safe is None:
        return None
    parts = urlsplit(safe)
    host = str(parts.hostname)
    if ":" in host:  # IPv6
        host = f"[{host}]"
    plaintext = parts.scheme == "http"
    try:
        port = parts.port or (80 if plaintext else 443)
    except ValueError:
        return None
    return f"{host}:{port}", plaintext


def _grpc_metadata(
    credentials: tuple[Credential, ...], where: str
) -> tuple[list[tuple[str, str]], list[str], bool]:
    """gRPC metadata (lower-case keys) for the credentials, comment lines for those gRPC cannot carry, and
    whether a client certificate is needed. HTTP Basic is left to the caller (grpcurl and Python encode it
    differently)."""
    metadata: list[tuple[str, str]] = []
    notes: list[str] = []
    certificate = False
    for credential in credentials:
        kind, name, placeholder = credential.kind, credential.name, credential.placeholder
        if not credential.usable or kind == "query":
            notes.append(
                _unusable(credential, where)
                if kind != "query"
                else (
                    f"# The card's security scheme {_named(credential.scheme)} puts its API key in the URL's "
                    "query, which gRPC does not have; ask the provider how to send it."
                )
            )
        elif kind == "bearer":
            metadata.append(("authorization", f"Bearer {placeholder}"))
        elif kind == "authorization":
            metadata.append(("authorization", f"{name} {placeholder}"))
        elif kind == "header":
            metadata.append((str(name).lower(), placeholder))
        elif kind == "cookie":
            metadata.append(("cookie", f"{name}={placeholder}"))
        elif kind == "client-certificate":
            certificate = True
    return metadata, notes, certificate


def grpcurl_command(request: RequestExample, credentials: tuple[Credential, ...]) -> str | None:
    """The ``grpcurl`` command that sends ``request`` (gRPC), with the A2A protocol definition of the
    interface's spec version as a file (servers need not offer reflection) and the message on standard input;
    ``None`` for an invalid target."""
    found = grpc_address(request.target)
    if found is None:
        return None
    address, plaintext = found
    metadata, notes, certificate = _grpc_metadata(credentials, "this command")
    options: list[str] = ["-import-path .", f"-import-path {GOOGLEAPIS_IMPORT_PATH}", "-proto a2a.proto"]
    if plaintext:
        options.append("-plaintext")
    options += [f"-H {_quoted(f'{name}: {value}')}" for name, value in request.headers]
    options += [f"-H {_quoted(f'{name}: {value}')}" for name, value in metadata]
    for credential in credentials:
        if credential.usable and credential.kind == "basic":
            encoded = f"$(printf %s {_quoted(credential.placeholder)} | base64 | tr -d '\\n')"  # unwrapped
            options.append(f'-H "authorization: Basic {encoded}"')
    if certificate:
        options.append("-cert client.crt -key client.key")
    notes.insert(
        0,
        f"# a2a.proto: save {PROTO_URLS[request.shape]} here; its imports come with "
        "`pip install googleapis-common-protos`",
    )
    lines = ["grpcurl -d @", *(f"  {option}" for option in options)]
    lines.append(f"  {_quoted(address)} {request.method} <<'{_HEREDOC}'")
    return _comments(notes) + " \\\n".join(lines) + "\n" + json_text(request.body) + "\n" + _HEREDOC


_SURROGATE_PAIR = re.compile(r"\\\\|\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})")
"""In a JSON string: an escaped backslash (skipped, so the next backslash starts an escape), or a surrogate pair."""


def _astral(match: re.Match[str]) -> str:
    if match.group(1) is None:
        return match.group(0)
    high, low = int(match.group(1), 16), int(match.group(2), 16)
    return f"\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08x}"


def _py_text(text: str) -> str:
    """``text`` as a Python string literal: its JSON string (``json_text``: hidden characters and preprocessor
    braces escaped), which Python reads as the same text, except a character beyond the BMP, which JSON escapes
    as a surrogate pair and Python needs as one ``\\U`` escape."""
    literal = json_text(text)
    return _SURROGATE_PAIR.sub(_astral, literal) if "\\ud" in literal else literal


def _py(value: JSONValue, indent: str = "") -> str:
    """A JSON value as a Python literal (strings by ``_py_text``; numbers as JSON writes them, which Python
    reads as the same numbers)."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "    "
        items = ",\n".join(f"{inner}{_py_text(key)}: {_py(item, inner)}" for key, item in value.items())
        return "{\n" + items + ",\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = indent + "    "
        return "[\n" + ",\n".join(f"{inner}{_py(item, inner)}" for item in value) + ",\n" + indent + "]"
    if value is True or value is False or value is None:
        return repr(value)
    if isinstance(value, str):
        return _py_text(value)
    return json_text(value)


def _py_dict(items: list[tuple[str, str]]) -> str:
    return "{" + ", ".join(f"{_py_text(name)}: {_py_text(value)}" for name, value in items) + "}"


def _message(request: RequestExample) -> tuple[str, str]:
    """The SDK helper that builds the message, and the call."""
    content = request.content
    if content.kind == "data" and content.media_type is not None:
        call = f"new_data_message({_py(content.data, '        ')}, media_type={_py_text(content.media_type)}, role=Role.ROLE_USER)"
        return "new_data_message", call
    if content.kind == "file":
        media = f", media_type={_py_text(content.media_type)}" if content.media_type else ""
        return "new_url_message", f"new_url_message({_py_text(content.url)}{media}, role=Role.ROLE_USER)"
    return "new_text_message", f"new_text_message({_py_text(content.text)}, role=Role.ROLE_USER)"


def python_snippet(
    request: RequestExample,
    credentials: tuple[Credential, ...],
    *,
    url: str,
    version: str,
    tenant: str | None,
    output_modes: tuple[str, ...],
) -> str | None:
    """A Python program that sends the request with the official ``a2a-sdk`` client (1.x, which speaks v1.0
    and v0.3 agents) over the same interface; ``None`` for a gRPC target a channel cannot be opened to."""
    grpc = request.binding == "GRPC"
    imports = ["import asyncio"]
    if grpc:
        found = grpc_address(request.target)
        if found is None:
            return None
        address, plaintext = found
        service, notes, certificate = _grpc_metadata(credentials, "this program")
    else:
        plaintext = False
        service, notes, certificate = [], [], False
        query: list[tuple[str, str]] = []
        cookies: list[tuple[str, str]] = []
        for credential in credentials:
            kind, name, placeholder = credential.kind, credential.name, credential.placeholder
            if not credential.usable:
                notes.append(_unusable(credential, "this program"))
            elif kind == "bearer":
                service.append(("Authorization", f"Bearer {placeholder}"))
            elif kind == "authorization":
                service.append(("Authorization", f"{name} {placeholder}"))
            elif kind == "header":
                service.append((str(name), placeholder))
            elif kind == "query":
                query.append((str(name), placeholder))
            elif kind == "cookie":
                cookies.append((str(name), placeholder))
            elif kind == "client-certificate":
                certificate = True
    basic = any(c.usable and c.kind == "basic" for c in credentials)
    if basic:
        imports.append("import base64")
        basic_key = "authorization" if grpc else "Authorization"
    if certificate and not grpc:
        imports.append("import ssl")
    imports.append("")
    imports.append("import grpc" if grpc else "import httpx")
    helper, message = _message(request)
    imports += [
        "from a2a.client import ClientCallContext, ClientConfig, create_client",
        f"from a2a.helpers.proto_helpers import {helper}",
        "from a2a.types import AgentCard, AgentInterface, Role, SendMessageConfiguration, SendMessageRequest",
    ]
    parameters = [f"{_py_text(name)}: {_py_text(value)}" for name, value in service]
    if basic:
        parameters.append(
            f'{_py_text(basic_key)}: "Basic " + base64.b64encode(b"<user>:<password>").decode()'
        )
    if request.extensions:
        parameters.append(f'"A2A-Extensions": {_py_text(",".join(request.extensions))}')
    interface = [f"url={_py_text(url)}", f"protocol_binding={_py_text(request.binding)}"]
    interface.append(f"protocol_version={_py_text(version)}")
    if tenant:
        interface.append(f"tenant={_py_text(tenant)}")
    modes = ", ".join(_py_text(mode) for mode in output_modes)
    bindings = f"supported_protocol_bindings=[{_py_text(request.binding)}]"
    lines = [
        CODING,
        f"# {PYTHON_INSTALL[grpc]}",
        *notes,  # card text from the third line on, in comments it cannot end
        *imports,
        "",
        "",
        "async def main() -> None:",
        f"    card = AgentCard(supported_interfaces=[AgentInterface({', '.join(interface)})])",
        "    request = SendMessageRequest(",
        f"        message={message},",
        f"        configuration=SendMessageConfiguration(accepted_output_modes=[{modes}]),",
        "    )",
        f"    context = ClientCallContext(service_parameters={{{', '.join(parameters)}}})",
    ]
    if grpc:
        if plaintext:
            channel = f"grpc.aio.insecure_channel({_py_text(address)})"
        else:
            if certificate:
                lines += [
                    '    with open("client.key", "rb") as key, open("client.crt", "rb") as crt:',
                    "        tls = grpc.ssl_channel_credentials(private_key=key.read(), certificate_chain=crt.read())",
                ]
            else:
                lines.append("    tls = grpc.ssl_channel_credentials()")
            channel = f"grpc.aio.secure_channel({_py_text(address)}, tls)"
        lines += [
            f"    config = ClientConfig(streaming=False, {bindings}, grpc_channel_factory=lambda _: {channel})",
            "    async with await create_client(card, client_config=config) as client:",
            "        async for event in client.send_message(request, context=context):",
            "            print(event)",
        ]
    else:
        options: list[str] = []
        if query:
            options.append(f"params={_py_dict(query)}")
        if cookies:
            options.append(f"cookies={_py_dict(cookies)}")
        if certificate:
            lines += [
                "    tls = ssl.create_default_context()",
                '    tls.load_cert_chain("client.crt", "client.key")',
            ]
            options.append("verify=tls")
        lines += [
            f"    async with httpx.AsyncClient({', '.join(options)}) as http:",
            f"        config = ClientConfig(streaming=False, {bindings}, httpx_client=http)",
            "        async with await create_client(card, client_config=config) as client:",
            "            async for event in client.send_message(request, context=context):",
            "                print(event)",
        ]
    lines += ["", "", "asyncio.run(main())"]
    return "\n".join(lines)
