"""How to call an agent: the interfaces its page sends requests to, the forms of each request, and what the
placeholders in them stand for.

Every interface with a core binding (or a spelling of one, ``protocol.BINDING_ALIASES``; never a transport such
as ``"https"``) and a URL gets requests, one per binding and protocol version (the first interface of each, as a
client would pick it), labelled ``JSON-RPC v1.0``, ``HTTP+JSON v0.3``, ``gRPC v1.0``, with ``, binding assumed``
or ``, version assumed`` where the card does not state them (an interface without a version gets the one
``convert`` gives it, ``protocol.assumed_protocol_version``);
each form of a request is a labelled code block ``<binding> <version> · <form>`` (``curl``, ``grpcurl``,
``Python``), the same labels on every example of the page, so a theme that links tabs by label
(mkdocs-material's ``content.tabs.link``) keeps the reader's choice across the page. ``RequestVariant.group``
and ``.form`` carry the two halves for a theme that nests them. The page explains the placeholders once
(``CallingView.placeholders``), with where a reader gets each credential.
"""

from __future__ import annotations

from dataclasses import dataclass

from a2a_docgen.model import (
    AgentCard,
    AgentInterface,
    AgentSkill,
    APIKeySecurityScheme,
    HTTPAuthSecurityScheme,
    MutualTlsSecurityScheme,
    OAuth2SecurityScheme,
    OpenIdConnectSecurityScheme,
)
from a2a_docgen.protocol import CORE_BINDINGS, Binding, canonical_binding, short_version
from a2a_docgen.render.credentials import Credential, credentials
from a2a_docgen.render.deferred import Deferred
from a2a_docgen.render.requests import (
    RequestExample,
    Shape,
    build_request,
    extended_card_request,
    request_shape,
    required_extensions,
    stated_version,
    unwritable_extensions,
)
from a2a_docgen.render.snippets import (
    PROTO_URLS,
    PYTHON_INSTALL,
    curl_command,
    grpc_address,
    grpcurl_command,
    python_snippet,
)
from a2a_docgen.text.urls import safe_url

__all__ = [
    "BINDING_LABELS",
    "CallingView",
    "DeferredVariants",
    "PlaceholderNote",
    "RequestTarget",
    "RequestVariant",
    "SendingNote",
    "SkippedInterface",
    "calling_view",
    "extended_variants",
    "request_targets",
    "request_variants",
]

BINDING_LABELS: dict[Binding, str] = {"JSONRPC": "JSON-RPC", "HTTP+JSON": "HTTP+JSON", "GRPC": "gRPC"}


@dataclass(frozen=True, slots=True)
class RequestVariant:
    """One way to send a message: a command line or a program (a tab on the page)."""

    label: str
    """Our words: ``<group> · <form>``, the same on every example of a page."""
    language: str
    code: str
    """Generated code in which card text is data (see ``snippets``)."""
    group: str = ""
    """The interface it goes to, by binding and protocol version: ``JSON-RPC v1.0``, ``gRPC v0.3``."""
    form: str = ""
    """``curl``, ``grpcurl`` or ``Python``."""


@dataclass(frozen=True, slots=True)
class RequestTarget:
    """An interface the page sends requests to."""

    number: int
    """Its position in the card's list of interfaces (1-based)."""
    interface: AgentInterface
    binding: Binding
    shape: Shape
    label: str
    """``JSON-RPC v1.0``: the binding and the protocol version of the message shapes, then ``, version assumed``,
    ``, binding assumed`` or ``, binding and version assumed`` where the card does not state them as clients
    read them (``HTTP+JSON v0.3, binding assumed``): beside every request, on every tab."""
    binding_assumed: bool = False
    """The card spells the binding other than by its core name (``"REST"``, ``"jsonrpc"``): clients that match
    the name find none, and the requests assume ``binding``."""
    version_assumed: str = ""
    """Where the version of an interface that states none comes from, in our words (``""`` when stated)."""


@dataclass(frozen=True, slots=True)
class SkippedInterface:
    """An interface the page sends no request to, and why (our words)."""

    number: int
    interface: AgentInterface
    reason: str
    same_as: int | None = None
    """For a repeated binding and version: the interface the requests go to instead."""


@dataclass(frozen=True, slots=True)
class PlaceholderNote:
    """What a placeholder in the requests stands for, and where a reader gets it."""

    placeholder: str
    """Our placeholder: ``<token>``, ``<api-key>``, ``<user>:<password>``, ``client.crt and client.key``."""
    scheme: str
    """The card's name of the scheme (card text)."""
    meaning: str
    """Our words: what to put in its place."""
    urls: tuple[tuple[str, str], ...] = ()
    """Where to get it, as (our label, the card's URL): token URLs, the OpenID Connect discovery document."""


@dataclass(frozen=True, slots=True)
class SendingNote:
    """How one credential travels, for the ways to authenticate the requests do not show."""

    scheme: str
    """The card's name of the scheme (card text)."""
    how: str
    """Our words: ``the header``, ``the query parameter``, ``the cookie``, ``HTTP Basic``, ..."""
    code: str
    """What is sent, with its placeholder: ``X-Key: <api-key>`` (a name from the card that passed the token
    check; print it encoded)."""


_HOW = {
    "bearer": "the header",
    "authorization": "the header",
    "header": "the header",
    "query": "the query parameter",
    "cookie": "the cookie",
    "basic": "HTTP Basic",
    "client-certificate": "a client certificate and its key",
}


def _sending(credential: Credential) -> SendingNote | None:
    kind, name, placeholder = credential.kind, credential.name, credential.placeholder
    if not credential.usable or kind == "other":
        return None
    code = {
        "bearer": f"Authorization: Bearer {placeholder}",
        "authorization": f"Authorization: {name} {placeholder}",
        "header": f"{name}: {placeholder}",
        "query": f"{name}={placeholder}",
        "cookie": f"{name}={placeholder}",
        "basic": placeholder,
        "client-certificate": "client.crt, client.key",
    }[kind]
    return SendingNote(credential.scheme, _HOW[kind], code)


@dataclass(frozen=True, slots=True)
class CallingView:
    targets: tuple[RequestTarget, ...]
    skipped: tuple[SkippedInterface, ...]
    placeholders: tuple[PlaceholderNote, ...]
    extensions: tuple[str, ...]
    """Required extensions, declared on every request (card text)."""
    unwritable_extensions: tuple[str, ...]
    """Required extensions whose URI cannot go into a header as it is (card text)."""
    alternatives: tuple[tuple[SendingNote, ...], ...]
    """The ways to authenticate that some skill accepts besides the first (which its requests show): each a
    set of credentials sent together."""
    grpc: bool
    python_install: str
    proto_urls: tuple[tuple[str, str], ...]
    """(spec version, URL of ``a2a.proto``) for the gRPC targets."""
    extended: tuple[RequestVariant, ...] = ()
    """When the card offers an extended card: the requests that ask each target for it."""


def _label(
    binding: Binding, shape: Shape, *, binding_assumed: bool = False, version_assumed: bool = False
) -> str:
    label = f"{BINDING_LABELS[binding]} v{shape}"
    what = " and ".join(w for w, on in (("binding", binding_assumed), ("version", version_assumed)) if on)
    return f"{label}, {what} assumed" if what else label


def _writable(interface: AgentInterface, binding: Binding) -> bool:
    url = str(interface.url)
    return (grpc_address(url) if binding == "GRPC" else safe_url(url)) is not None


def request_targets(card: AgentCard) -> tuple[tuple[RequestTarget, ...], tuple[SkippedInterface, ...]]:
    """The interfaces requests go to (the first of each binding and version), and the others with why."""
    targets: list[RequestTarget] = []
    skipped: list[SkippedInterface] = []
    for number, interface in enumerate(card.interfaces, start=1):
        binding = canonical_binding(interface.protocol_binding)
        if not interface.url:
            skipped.append(SkippedInterface(number, interface, "it has no URL"))
            continue
        if binding is None:
            skipped.append(
                SkippedInterface(number, interface, "its binding is not JSON-RPC, HTTP+JSON or gRPC")
            )
            continue
        if not _writable(interface, binding):
            skipped.append(
                SkippedInterface(
                    number,
                    interface,
                    "its URL cannot go into a command as it is (only http and https URLs can)",
                )
            )
            continue
        shape = request_shape(interface, card)
        first = next((t for t in targets if t.binding == binding and t.shape == shape), None)
        if first is not None:
            skipped.append(
                SkippedInterface(number, interface, "same binding and version as interface", first.number)
            )
            continue
        binding_assumed = (interface.protocol_binding or "") not in CORE_BINDINGS
        version_assumed = "" if stated_version(interface) else _version_source(card)
        label = _label(binding, shape, binding_assumed=binding_assumed, version_assumed=bool(version_assumed))
        targets.append(
            RequestTarget(number, interface, binding, shape, label, binding_assumed, version_assumed)
        )
    return tuple(targets), tuple(skipped)


def _version_source(card: AgentCard) -> str:
    """Where the version of an interface that states none comes from (``protocol.assumed_protocol_version``)."""
    declared = card.source.raw.get("protocolVersion")
    if isinstance(declared, str) and short_version(declared) is not None:
        return 'the card\'s top-level "protocolVersion"'
    if card.era == "1.0":
        return "the version of the v1.0 shape the card is written in"
    return "what v0.3 clients and the official SDK assume"


def _skill_credentials(skill: AgentSkill, card: AgentCard) -> tuple[Credential, ...]:
    requirements = skill.effective_security.requirements
    return credentials(requirements[0] if requirements else None, card)


def request_variants(
    card: AgentCard, skill: AgentSkill, index: int | None, targets: tuple[RequestTarget, ...]
) -> tuple[RequestVariant, ...]:
    """The forms of one message (example ``index``, or the skill's placeholder for ``None``) to every target."""
    creds = _skill_credentials(skill, card)
    variants: list[RequestVariant] = []
    for target in targets:
        request = build_request(card, skill, index, target.interface)
        if request is None:
            continue
        variants += _command(request, creds, target)
        program = python_snippet(
            request,
            creds,
            url=str(target.interface.url),
            version=target.shape,
            tenant=target.interface.tenant if target.shape == "1.0" else None,
            output_modes=skill.effective_output_modes.modes,
        )
        if program is not None:
            variants.append(
                RequestVariant(f"{target.label} · Python", "python", program, target.label, "Python")
            )
    return tuple(variants)


class DeferredVariants(Deferred[RequestVariant]):
    """``request_variants(card, skill, index, targets)``, made the first time a page reads them.

    Every view of the catalogue is built in the build process, before the agent pages are rendered in worker
    processes (``render.parallel``); the requests are only read by the agent's own page, so deferring them
    makes them in the worker that renders that page, in parallel, instead of all of them in the build process
    first (``render.deferred``). The same arguments give the same requests, wherever they are made.
    """

    __slots__ = ("_arguments", "_made")

    def __init__(
        self, card: AgentCard, skill: AgentSkill, index: int | None, targets: tuple[RequestTarget, ...]
    ) -> None:
        self._arguments: tuple[AgentCard, AgentSkill, int | None, tuple[RequestTarget, ...]] | None = (
            card,
            skill,
            index,
            targets,
        )
        self._made: tuple[RequestVariant, ...] = ()

    def made(self) -> tuple[RequestVariant, ...]:
        if self._arguments is not None:
            self._made = request_variants(*self._arguments)
            self._arguments = None  # the card is not kept alive by its requests
        return self._made


def extended_variants(card: AgentCard, targets: tuple[RequestTarget, ...]) -> tuple[RequestVariant, ...]:
    """The requests that ask each target for the extended card, authenticated as the card's own security
    requires (the first way it accepts); none when the card does not offer one."""
    if card.capabilities.extended_agent_card is not True:
        return ()
    requirements = card.security_requirements
    creds = credentials(requirements[0] if requirements else None, card)
    variants: list[RequestVariant] = []
    for target in targets:
        request = extended_card_request(card, target.interface)
        if request is not None:
            variants += _command(request, creds, target)
    return tuple(variants)


def _command(
    request: RequestExample, creds: tuple[Credential, ...], target: RequestTarget
) -> tuple[RequestVariant, ...]:
    """The command line that sends ``request`` (curl, or grpcurl for gRPC), when it can be written."""
    grpc = target.binding == "GRPC"
    command = grpcurl_command(request, creds) if grpc else curl_command(request, creds)
    if command is None:
        return ()
    form = "grpcurl" if grpc else "curl"
    return (RequestVariant(f"{target.label} · {form}", "sh", command, target.label, form),)


def _note(credential: Credential, card: AgentCard) -> PlaceholderNote | None:
    scheme = card.security_schemes.get(credential.scheme)
    name = credential.scheme
    if not credential.usable:
        return None
    if isinstance(scheme, OAuth2SecurityScheme):
        urls = tuple(("token URL", f.token_url) for f in scheme.flows if f.token_url)
        urls += tuple(("authorization URL", f.authorization_url) for f in scheme.flows if f.authorization_url)
        if scheme.oauth2_metadata_url:
            urls += (("authorization server metadata", scheme.oauth2_metadata_url),)
        return PlaceholderNote(
            "<token>", name, "an OAuth 2.0 access token for the scheme's flows and scopes", urls
        )
    if isinstance(scheme, OpenIdConnectSecurityScheme):
        urls = (
            (("OpenID Connect discovery", scheme.open_id_connect_url),) if scheme.open_id_connect_url else ()
        )
        return PlaceholderNote(
            "<token>", name, "an access token from the scheme's OpenID Connect provider", urls
        )
    if isinstance(scheme, HTTPAuthSecurityScheme):
        if credential.kind == "basic":
            return PlaceholderNote("<user>:<password>", name, "your user name and password (HTTP Basic)")
        if credential.kind == "bearer":
            return PlaceholderNote("<token>", name, "the bearer token the provider issues you")
        return PlaceholderNote("<credentials>", name, "the credentials of the scheme's HTTP authentication")
    if isinstance(scheme, APIKeySecurityScheme):
        return PlaceholderNote(
            "<api-key>", name, f"the API key the provider issues you, sent in the {credential.kind}"
        )
    if isinstance(scheme, MutualTlsSecurityScheme):
        return PlaceholderNote(
            "client.crt and client.key", name, "your client certificate and its private key (PEM files)"
        )
    return None


def calling_view(
    card: AgentCard, targets: tuple[RequestTarget, ...], skipped: tuple[SkippedInterface, ...]
) -> CallingView:
    """What the page says once about its requests."""
    notes: dict[tuple[str, str], PlaceholderNote] = {}
    alternatives: dict[tuple[SendingNote, ...], None] = {}
    for skill in card.skills:
        for position, requirement in enumerate(skill.effective_security.requirements):
            creds = credentials(requirement, card)
            for credential in creds:
                note = _note(credential, card)
                if note is not None:
                    notes.setdefault((note.scheme, note.placeholder), note)
            if position > 0:
                sending = tuple(n for c in creds if (n := _sending(c)) is not None)
                if sending:
                    alternatives.setdefault(sending, None)
    grpc_shapes = sorted({t.shape for t in targets if t.binding == "GRPC"}, reverse=True)
    grpc = bool(grpc_shapes)
    return CallingView(
        targets=targets,
        skipped=skipped,
        placeholders=tuple(notes.values()),
        extensions=required_extensions(card),
        unwritable_extensions=unwritable_extensions(card),
        alternatives=tuple(alternatives),
        grpc=grpc,
        python_install=PYTHON_INSTALL[grpc],
        proto_urls=tuple((f"v{shape}", PROTO_URLS[shape]) for shape in grpc_shapes),
        extended=extended_variants(card, targets),
    )
