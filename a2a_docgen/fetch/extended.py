"""The extended Agent Card (``fetch --extended``): asked of the agent with a credential, kept marked as such.

The credential comes from an environment variable the user names, never from a command-line value (other
users of the machine can read a command line). It is sent in one header, only to the origin of the interface
asked (and never over plain ``http`` unless private addresses are allowed, as for an agent on ``localhost``),
never written (the card's sidecar records ``"extended": true``, not how it was asked for) and never part of a
message: a server that echoes it sees it replaced. The request is the one the agent page shows
(``protocol.EXTENDED_CARD_OPERATIONS``), to the first JSON-RPC or HTTP+JSON interface of the card; gRPC is not
spoken here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from urllib.parse import quote

import httpx

from a2a_docgen.errors import UsageError
from a2a_docgen.fetch.client import FetchResult, Options, fetch_with, post_json
from a2a_docgen.fetch.errors import CardFetchError, show
from a2a_docgen.fetch.saving import format_card
from a2a_docgen.fetch.urls import check_header, origin
from a2a_docgen.limits import Limits
from a2a_docgen.load import read_card_bytes
from a2a_docgen.model import AgentCard, AgentInterface, Diagnostic, JSONObject
from a2a_docgen.protocol import (
    EXTENDED_CARD_OPERATIONS,
    Binding,
    assumed_protocol_version,
    canonical_binding,
    major_version,
)

__all__ = ["Credential", "credential_from_environment", "fetch_extended"]


@dataclass(frozen=True, slots=True)
class Credential:
    """One header's value that authenticates the client; never shown."""

    header: str
    value: str = field(repr=False)

    def redact(self, text: str) -> str:
        """``text`` with the credential (and its token, after a scheme such as ``Bearer``) replaced."""
        for secret in {self.value, self.value.partition(" ")[2]}:
            if len(secret) >= 4:
                text = text.replace(secret, "<credential>")
        return text


def credential_from_environment(variable: str, header: str = "Authorization") -> Credential:
    """The credential in the environment variable ``variable``, sent as ``header``; raises ``UsageError``
    (naming the variable, never its value) when it is unset, empty or cannot be sent."""
    value = os.environ.get(variable, "").strip()
    if not value:
        raise UsageError(
            f"--credential-env {show(variable, 60)}: the environment variable is not set or is empty"
        )
    check_header(header, value)
    return Credential(header, value)


def fetch_extended(
    client: httpx.Client,
    public: JSONObject,
    public_url: str,
    credential: Credential,
    options: Options,
    limits: Limits,
) -> FetchResult | None:
    """The extended card of the agent whose public card is ``public``; ``None`` when the card offers none.
    Raises ``CardFetchError`` (its message without the credential)."""
    read = read_card_bytes(format_card(public).encode("utf-8"), display=public_url, limits=limits)
    if isinstance(read, Diagnostic) or read.card.capabilities.extended_agent_card is not True:
        return None
    card = read.card
    chosen = _interface(card)
    if chosen is None:
        raise CardFetchError(
            public_url,
            "the card offers an extended card, but no JSON-RPC or HTTP+JSON interface with an http(s) URL to ask "
            "it of (fetch does not speak gRPC)",
        )
    interface, binding, shape = chosen
    url = httpx.URL(str(interface.url))
    if url.scheme != "https" and not options.allow_private:
        raise CardFetchError(
            str(url), "refused to send the credential over plain http; the interface must be https"
        )
    operation = EXTENDED_CARD_OPERATIONS[(binding, shape)]
    headers = {credential.header: credential.value}
    if shape == "1.0":
        headers["A2A-Version"] = "1.0"
    asking = replace(
        options,
        headers=headers,
        exact=True,
        secrets_origin=origin(url),
        etag=None,
        last_modified=None,
        cached_url=None,
    )
    tenant = interface.tenant if shape == "1.0" else None
    try:
        if binding == "HTTP+JSON":
            prefix = f"/{quote(tenant, safe='', errors='surrogatepass')}" if tenant else ""
            target = str(interface.url).rstrip("/") + prefix + operation
            return fetch_with(client, target, asking, limits)
        body: JSONObject = {"jsonrpc": "2.0", "id": 1, "method": operation}
        if shape == "1.0":
            body["params"] = {"tenant": tenant} if tenant else {}
        return _result(post_json(client, str(interface.url), body, asking, limits), credential)
    except CardFetchError as exc:
        raise CardFetchError(exc.url, credential.redact(exc.reason)) from None


def _interface(card: AgentCard) -> tuple[AgentInterface, Binding, str] | None:
    """The first interface, in the card's order of preference, that fetch can ask: (interface, binding, shape)."""
    for interface in card.interfaces:
        binding = canonical_binding(interface.protocol_binding)
        if binding not in ("JSONRPC", "HTTP+JSON") or not interface.url:
            continue
        if not str(interface.url).startswith(("https://", "http://")):
            continue
        version = interface.protocol_version
        if major_version(version or "") is None:
            version = assumed_protocol_version(card.source.raw.get("protocolVersion"), card.era)
        return interface, binding, "0.3" if major_version(version or "") == 0 else "1.0"
    return None


def _result(answer: FetchResult, credential: Credential) -> FetchResult:
    """The card in a JSON-RPC response's ``result``; a JSON-RPC ``error`` raised as ``CardFetchError``."""
    response = answer.card or {}
    result = response.get("result")
    if isinstance(result, dict):
        return replace(answer, card=result, text="")
    error = response.get("error")
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
        said = credential.redact(show(str(message), 200)) if isinstance(message, str) else "no message"
        raise CardFetchError(
            answer.url, f"the agent answered with JSON-RPC error {show(str(code), 20)}: {said}"
        )
    raise CardFetchError(answer.url, "the agent's JSON-RPC answer has neither a result object nor an error")
