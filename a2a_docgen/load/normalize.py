"""Raw card JSON of any era -> the v1.0-meaning model (``a2a_docgen.model``).

Era detection (``detect_era``) looks at the shape, not at what the card claims: ``supportedInterfaces``
or ``securityRequirements`` make a v1.0 card; otherwise a card is v0.3 when its ``protocolVersion`` says
0.3 (or later) or it uses ``preferredTransport``/``additionalInterfaces``, and v0.2 (which covers v0.1)
otherwise. Mixed cards are common in the wild: members of another era are still read (the reader of a
catalogue wants to see what the author meant) and reported as ``legacy-field`` with the fix.

The v0.3 -> v1.0 mapping follows docs/spec section 3 of agent-card-reference: ``url`` +
``preferredTransport`` become the first interface, ``additionalInterfaces`` follow (repeats of the first
dropped), the card-level ``protocolVersion`` becomes each interface's ``Major.Minor``, ``security`` maps
to requirements, ``type``-discriminated schemes to the v1.0 kinds, ``in`` to ``location``.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
from collections.abc import Mapping

from a2a_docgen.diagnostics import (
    EMPTY_OVERRIDE,
    EXAMPLE_JSON_INVALID,
    LEGACY_FIELD,
    REQUIRED_EMPTY,
    REQUIRED_MISSING,
    REQUIREMENT_SHAPE,
    SCHEME_AMBIGUOUS,
    SCHEME_UNKNOWN_TYPE,
    SIGNATURE_HEADER_INCOMPLETE,
    SIGNATURE_HEADER_INVALID,
    UNKNOWN_FIELD,
    WRONG_TYPE,
)
from a2a_docgen.limits import Limits
from a2a_docgen.load.memo import SkillContext, SkillMemo
from a2a_docgen.load.reader import Reader, quote, snake_case
from a2a_docgen.load.report import Report
from a2a_docgen.load.source import depth_exceeds, join_pointer, might_exceed_depth
from a2a_docgen.model import (
    AgentCapabilities,
    AgentCard,
    AgentCardSignature,
    AgentExtension,
    AgentInterface,
    AgentProvider,
    AgentSkill,
    APIKeySecurityScheme,
    CardSource,
    EffectiveModes,
    EffectiveSecurity,
    Era,
    Example,
    HTTPAuthSecurityScheme,
    JSONObject,
    JSONValue,
    MutualTlsSecurityScheme,
    OAuth2SecurityScheme,
    OAuthFlow,
    OAuthFlowKind,
    OpenIdConnectSecurityScheme,
    SecurityRequirement,
    SecurityScheme,
    UnknownSecurityScheme,
)
from a2a_docgen.protocol import major_minor, short_version

CARD_KEYS_V1 = [
    "name",
    "description",
    "supportedInterfaces",
    "provider",
    "version",
    "documentationUrl",
    "capabilities",
    "securitySchemes",
    "securityRequirements",
    "defaultInputModes",
    "defaultOutputModes",
    "skills",
    "signatures",
    "iconUrl",
]
CARD_KEYS_LEGACY = [
    "url",
    "preferredTransport",
    "additionalInterfaces",
    "protocolVersion",
    "security",
    "supportsAuthenticatedExtendedCard",
    "authentication",
]
SKILL_KEYS = [
    "id",
    "name",
    "description",
    "tags",
    "examples",
    "inputModes",
    "outputModes",
    "securityRequirements",
    "security",
]

# The v1.0 oneof member that wraps each kind of security scheme, and the v0.3 ``type`` of the same kind.
SCHEME_WRAPPERS = {
    "apiKeySecurityScheme": "apiKey",
    "httpAuthSecurityScheme": "http",
    "oauth2SecurityScheme": "oauth2",
    "openIdConnectSecurityScheme": "openIdConnect",
    "mtlsSecurityScheme": "mutualTLS",
}
FLOW_KINDS: tuple[OAuthFlowKind, ...] = (
    "authorizationCode",
    "clientCredentials",
    "deviceCode",
    "implicit",
    "password",
)

FLOW_KEYS = ("authorizationUrl", "tokenUrl", "refreshUrl", "deviceAuthorizationUrl", "scopes", "pkceRequired")
"""Every member an OAuth flow object of any kind may have."""
_FLOW_KEY_SET = frozenset(FLOW_KEYS)
_SKILL_KEY_SET = frozenset(SKILL_KEYS)

# Members required in each flow kind (v1.0 proto; v0.3 requires scopes on every flow).
FLOW_REQUIRED: dict[str, tuple[str, ...]] = {
    "authorizationCode": ("authorizationUrl", "tokenUrl", "scopes"),
    "clientCredentials": ("tokenUrl", "scopes"),
    "deviceCode": ("deviceAuthorizationUrl", "tokenUrl", "scopes"),
    "implicit": (),
    "password": (),
}


def detect_era(raw: JSONObject) -> Era:
    """The shape the card is written in (see the module docstring)."""
    if "supportedInterfaces" in raw or "securityRequirements" in raw or "supported_interfaces" in raw:
        return "1.0"
    if "preferredTransport" in raw or "additionalInterfaces" in raw:
        return "0.3"  # even when it claims 0.2.9, as the v0.3.0 spec sample does
    declared = raw.get("protocolVersion")
    version = major_minor(declared) if isinstance(declared, str) else None
    return "0.3" if version is not None and version >= (0, 3) else "0.2"


def normalize(
    raw: JSONObject, source: CardSource, report: Report, limits: Limits, memo: SkillMemo | None = None
) -> AgentCard:
    """Read one card of any era into the model, reporting structural problems into ``report``. ``memo``: the
    skills of this file's previous versions (``load.memo``), for reading a history."""
    return _CardReader(raw, report, limits, memo).card(source)


class _CardReader:
    def __init__(
        self, raw: JSONObject, report: Report, limits: Limits, memo: SkillMemo | None = None
    ) -> None:
        self.raw = raw
        self.era = detect_era(raw)
        self.read = Reader(report, limits)
        self.report = report
        self.limits = limits
        self.memo = memo

    # -- the card ---------------------------------------------------------------------------------------

    def card(self, source: CardSource) -> AgentCard:
        raw, read = self.raw, self.read
        name = read.text(raw, "name", "", required=True, hint="the agent's human-readable name")
        description = read.text(
            raw,
            "description",
            "",
            required=True,
            hint="what the agent does",
            limit="max_text_chars",
        )
        version = read.text(raw, "version", "", required=True, hint='the agent\'s own version, e.g. "1.0.0"')
        interfaces = self.interfaces()
        provider = self.provider()
        documentation_url = read.url(raw, "documentationUrl", "")
        icon_url = read.url(raw, "iconUrl", "")
        capabilities = self.capabilities()
        schemes = self.security_schemes()
        requirements, requirements_pointer = self.card_requirements()
        input_modes = self.default_modes("defaultInputModes")
        output_modes = self.default_modes("defaultOutputModes")
        card_security = EffectiveSecurity(
            requirements=requirements, origin="card", pointer=requirements_pointer
        )
        skills = self.skills(input_modes, output_modes, card_security)
        signatures = self.signatures()
        known = set(CARD_KEYS_V1) | set(CARD_KEYS_LEGACY)
        return AgentCard(
            era=self.era,
            name=name,
            description=description,
            version=version,
            interfaces=interfaces,
            provider=provider,
            documentation_url=documentation_url,
            icon_url=icon_url,
            capabilities=capabilities,
            security_schemes=schemes,
            security_requirements=requirements,
            security_requirements_pointer=requirements_pointer,
            default_input_modes=input_modes.modes,
            default_output_modes=output_modes.modes,
            skills=skills,
            signatures=signatures,
            source=source,
            extra=self.extra(raw, known),
        )

    def extra(self, obj: JSONObject, known: set[str] | frozenset[str]) -> dict[str, JSONValue]:
        """Members no era defines (snake_case aliases of known names are not extra)."""
        if known.issuperset(obj):
            return {}
        aliases = {snake_case(k) for k in known}
        return {k: obj[k] for k in sorted(obj) if k not in known and k not in aliases}

    def legacy(self, pointer: str, message: str) -> None:
        self.report.add(LEGACY_FIELD, pointer, message, at_key=True)

    # -- interfaces ---------------------------------------------------------------------------------------

    def interfaces(self) -> tuple[AgentInterface, ...]:
        raw, read = self.raw, self.read
        if self.era == "1.0" or "supportedInterfaces" in raw:
            found = read.array(
                raw,
                "supportedInterfaces",
                "",
                required=True,
                hint='at least one interface: {"url": ..., "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}',
            )
            for key in ("url", "preferredTransport", "additionalInterfaces", "protocolVersion"):
                if key in raw:
                    self.legacy(
                        join_pointer("", key),
                        f'"{key}" is a v0.3 member that v1.0 clients ignore; the interfaces are in '
                        '"supportedInterfaces" (remove it, or move it there)',
                    )
            if found is None:
                return ()
            items, pointer = found
            return tuple(
                self.v1_interface(obj, ptr) for _, obj, ptr in read.objects(items, pointer, "interface")
            )
        return self.v03_interfaces()

    def v1_interface(self, obj: JSONObject, pointer: str) -> AgentInterface:
        read = self.read
        url = read.url(obj, "url", pointer, required=True, hint="the URL of the interface")
        binding = self._binding(obj, pointer)
        version = read.text(
            obj, "protocolVersion", pointer, required=True, hint='the A2A version served, e.g. "1.0"'
        )
        tenant = read.text(obj, "tenant", pointer)
        return AgentInterface(
            url=url,
            protocol_binding=binding,
            protocol_version=version,
            tenant=tenant,
            pointer=pointer,
            extra=self.extra(obj, {"url", "protocolBinding", "protocolVersion", "tenant", "transport"}),
        )

    def _binding(self, obj: JSONObject, pointer: str) -> str | None:
        if "protocolBinding" not in obj and "protocol_binding" not in obj and "transport" in obj:
            # A v1.0 client never reads "transport": to it the interface has no binding at all (the SDK
            # rejects the card), so the page shows the v0.3 name's value but the card is in error.
            transport = self.read.text(obj, "transport", pointer)
            self.report.add(
                REQUIRED_MISSING,
                join_pointer(pointer, "transport"),
                'this v1.0 interface has no "protocolBinding": "transport" is the v0.3 name, which v1.0 clients '
                'never read, so they find no binding; rename "transport" to "protocolBinding"',
                at_key=True,
            )
            return transport
        binding = self.read.text(
            obj,
            "protocolBinding",
            pointer,
            required=True,
            hint='the binding: "JSONRPC", "GRPC" or "HTTP+JSON"',
        )
        v03_name = obj.get("transport")
        if isinstance(v03_name, str) and binding is not None and v03_name != binding:
            self.legacy(
                join_pointer(pointer, "transport"),
                f'"transport" ({quote(v03_name)}, read by v0.3 clients) and "protocolBinding" ({quote(binding)}, '
                "read by v1.0 clients) disagree, so the two kinds of client call different bindings: make them "
                'the same, or remove "transport"',
            )
        return binding

    def v03_interfaces(self) -> tuple[AgentInterface, ...]:
        raw, read = self.raw, self.read
        version = self.card_protocol_version()
        announced = major_minor(version) if version else None
        if "url" not in raw and announced is not None and announced >= (1, 0):
            # A card announcing 1.0 needs v1.0 interfaces, not the v0.3 "url" (era-mismatch says more).
            self.report.add(
                REQUIRED_MISSING,
                "",
                'required member "supportedInterfaces" is missing: the card announces protocol version '
                f'{quote(version)}, so add "supportedInterfaces": [{{"url": ..., "protocolBinding": "JSONRPC", '
                '"protocolVersion": "1.0"}]',
            )
        url = read.url(
            raw,
            "url",
            "",
            required=announced is None or announced < (1, 0),
            hint="the URL of the agent's preferred endpoint",
        )
        transport = read.text(raw, "preferredTransport", "")
        result: list[AgentInterface] = []
        if url is not None:
            result.append(
                AgentInterface(
                    url=url,
                    # The v0.3 schema defaults the preferred transport to JSON-RPC.
                    protocol_binding=transport if transport is not None else "JSONRPC",
                    protocol_version=version,
                    tenant=None,
                    pointer="/url",
                )
            )
        found = read.array(raw, "additionalInterfaces", "")
        if found is not None:
            items, pointer = found
            for _, obj, item_pointer in read.objects(items, pointer, "interface"):
                item_url = read.url(obj, "url", item_pointer, required=True, hint="the interface URL")
                item_transport = read.text(
                    obj, "transport", item_pointer, required=True, hint='"JSONRPC", "GRPC" or "HTTP+JSON"'
                )
                if any(i.url == item_url and i.protocol_binding == item_transport for i in result):
                    continue  # the spec asks cards to repeat the main url here
                result.append(
                    AgentInterface(
                        url=item_url,
                        protocol_binding=item_transport,
                        protocol_version=version,
                        # v1.0 defines "tenant" (clients copy it into every request); a card written for
                        # both eras may carry it already, and conversion keeps it.
                        tenant=read.text(obj, "tenant", item_pointer),
                        pointer=item_pointer,
                        extra=self.extra(obj, {"url", "transport", "tenant"}),
                    )
                )
        return tuple(result)

    def card_protocol_version(self) -> str | None:
        """A v0.x card's ``protocolVersion`` as the ``Major.Minor`` each v1.0 interface carries."""
        declared = self.read.text(
            self.raw, "protocolVersion", "", required=self.era == "0.3", hint='e.g. "0.3.0"'
        )
        if declared is None:
            # The v0.3 schema defaults protocolVersion to 0.3.0; v0.2 cards had no such member.
            return "0.3" if self.era == "0.3" else None
        return short_version(declared) or declared

    # -- provider, capabilities -----------------------------------------------------------------------------

    def provider(self) -> AgentProvider | None:
        found = self.read.obj(self.raw, "provider", "")
        if found is None:
            return None
        obj, pointer = found
        return AgentProvider(
            organization=self.read.text(
                obj, "organization", pointer, required=True, hint="the organisation's name"
            ),
            url=self.read.url(obj, "url", pointer, required=True, hint="the provider's website"),
            pointer=pointer,
            extra=self.extra(obj, {"organization", "url"}),
        )

    def capabilities(self) -> AgentCapabilities:
        raw, read = self.raw, self.read
        found = read.obj(
            raw, "capabilities", "", required=True, hint="an object, {} when no feature is supported"
        )
        obj, pointer = found if found is not None else ({}, "/capabilities")
        extended = read.boolean(obj, "extendedAgentCard", pointer)
        legacy_extended = read.boolean(raw, "supportsAuthenticatedExtendedCard", "")
        if "supportsAuthenticatedExtendedCard" in raw and self.era == "1.0":
            self.legacy(
                "/supportsAuthenticatedExtendedCard",
                '"supportsAuthenticatedExtendedCard" is the v0.3 name; v1.0 reads '
                '"capabilities.extendedAgentCard" (move it there)',
            )
        if "extendedAgentCard" in obj and self.era != "1.0":
            self.legacy(
                join_pointer(pointer, "extendedAgentCard"),
                '"extendedAgentCard" is the v1.0 name; v0.3 clients read the top-level '
                '"supportsAuthenticatedExtendedCard"',
            )
        extensions: list[AgentExtension] = []
        found_ext = read.array(obj, "extensions", pointer)
        if found_ext is not None:
            items, ext_pointer = found_ext
            for _, ext, ext_item_pointer in read.objects(items, ext_pointer, "extension"):
                params = read.obj(ext, "params", ext_item_pointer)
                extensions.append(
                    AgentExtension(
                        uri=read.url(ext, "uri", ext_item_pointer, required=self.era != "1.0"),
                        description=read.text(ext, "description", ext_item_pointer, limit="max_text_chars"),
                        required=read.boolean(ext, "required", ext_item_pointer) is True,
                        params=params[0] if params else None,
                        pointer=ext_item_pointer,
                        extra=self.extra(ext, {"uri", "description", "required", "params"}),
                    )
                )
        return AgentCapabilities(
            streaming=read.boolean(obj, "streaming", pointer),
            push_notifications=read.boolean(obj, "pushNotifications", pointer),
            extended_agent_card=extended if extended is not None else legacy_extended,
            extensions=tuple(extensions),
            pointer=pointer,
            extra=self.extra(obj, {"streaming", "pushNotifications", "extendedAgentCard", "extensions"}),
        )

    # -- security -----------------------------------------------------------------------------------------

    def security_schemes(self) -> dict[str, SecurityScheme]:
        found = self.read.obj(self.raw, "securitySchemes", "")
        schemes: dict[str, SecurityScheme] = {}
        if found is not None:
            obj, pointer = found
            for name, value in obj.items():
                scheme_pointer = join_pointer(pointer, name)
                if not isinstance(value, dict):
                    self.report.add(
                        WRONG_TYPE,
                        scheme_pointer,
                        f'security scheme "{name}" must be an object, not {quote(value)}',
                    )
                    continue
                schemes[name] = self.scheme(name, value, scheme_pointer)
        elif "authentication" in self.raw:
            schemes.update(self.legacy_authentication_schemes())
        if "authentication" in self.raw and self.era != "0.2":
            self.legacy(
                "/authentication",
                '"authentication" is the v0.1/v0.2 member; declare "securitySchemes" and security requirements instead',
            )
        return schemes

    def scheme(self, name: str, obj: JSONObject, pointer: str) -> SecurityScheme:
        wrappers = [k for k in obj if k in SCHEME_WRAPPERS]
        if "type" not in obj and len(wrappers) == 1:
            inner = obj[wrappers[0]]
            inner_pointer = join_pointer(pointer, wrappers[0])
            if self.era != "1.0":
                self.legacy(
                    inner_pointer,
                    f'"{wrappers[0]}" is the v1.0 form of a security scheme; v0.3 clients expect '
                    f'{{"type": "{SCHEME_WRAPPERS[wrappers[0]]}", ...}}',
                )
            if not isinstance(inner, dict):
                self.report.add(
                    WRONG_TYPE, inner_pointer, f'"{wrappers[0]}" must be an object, not {quote(inner)}'
                )
                return UnknownSecurityScheme(label=wrappers[0], description=None, pointer=pointer)
            return self.scheme_body(SCHEME_WRAPPERS[wrappers[0]], inner, inner_pointer, v1=True)
        if len(wrappers) > 1:
            self.report.add(
                SCHEME_AMBIGUOUS,
                pointer,
                f'security scheme "{name}" has several kinds ({", ".join(wrappers)}); a scheme is exactly one of them',
            )
            return UnknownSecurityScheme(label=None, description=None, pointer=pointer)
        kind = obj.get("type")
        if isinstance(kind, str):
            if self.era == "1.0":
                self.legacy(
                    join_pointer(pointer, "type"),
                    f'v1.0 security schemes have no "type"; wrap the members in '
                    f'"{_wrapper_for(kind) or "<kind>SecurityScheme"}" instead',
                )
            if kind in SCHEME_WRAPPERS.values():
                return self.scheme_body(kind, obj, pointer, v1=False)
            self.report.add(
                SCHEME_UNKNOWN_TYPE,
                join_pointer(pointer, "type"),
                f"unknown security scheme type {quote(kind)}; use apiKey, http, oauth2, openIdConnect or mutualTLS",
            )
            return UnknownSecurityScheme(
                label=kind, description=self.read.text(obj, "description", pointer), pointer=pointer
            )
        self.report.add(
            SCHEME_UNKNOWN_TYPE,
            pointer,
            f'security scheme "{name}" declares no kind: wrap it in one of {", ".join(SCHEME_WRAPPERS)} (v1.0) or '
            'give it a "type" (v0.3)',
        )
        return UnknownSecurityScheme(
            label=None, description=self.read.text(obj, "description", pointer), pointer=pointer
        )

    def scheme_body(self, kind: str, obj: JSONObject, pointer: str, *, v1: bool) -> SecurityScheme:
        read = self.read
        description = read.text(obj, "description", pointer, limit="max_text_chars")
        known = {"description"} | ({"type"} if not v1 else set())
        if kind == "apiKey":
            location_key = "location" if v1 or "location" in obj else "in"
            return APIKeySecurityScheme(
                description=description,
                location=read.text(
                    obj, location_key, pointer, required=True, hint='"header", "query" or "cookie"'
                ),
                name=read.text(obj, "name", pointer, required=True, hint="the header, query or cookie name"),
                pointer=pointer,
                extra=self.extra(obj, known | {"location", "in", "name"}),
            )
        if kind == "http":
            return HTTPAuthSecurityScheme(
                description=description,
                scheme=read.text(
                    obj, "scheme", pointer, required=True, hint='the HTTP auth scheme, e.g. "Bearer"'
                ),
                bearer_format=read.text(obj, "bearerFormat", pointer),
                pointer=pointer,
                extra=self.extra(obj, known | {"scheme", "bearerFormat"}),
            )
        if kind == "oauth2":
            return OAuth2SecurityScheme(
                description=description,
                flows=self.flows(obj, pointer),
                oauth2_metadata_url=read.url(obj, "oauth2MetadataUrl", pointer),
                pointer=pointer,
                extra=self.extra(obj, known | {"flows", "oauth2MetadataUrl"}),
            )
        if kind == "openIdConnect":
            return OpenIdConnectSecurityScheme(
                description=description,
                open_id_connect_url=read.url(
                    obj, "openIdConnectUrl", pointer, required=True, hint="the OIDC discovery URL"
                ),
                pointer=pointer,
                extra=self.extra(obj, known | {"openIdConnectUrl"}),
            )
        return MutualTlsSecurityScheme(description=description, pointer=pointer, extra=self.extra(obj, known))

    def flows(self, obj: JSONObject, pointer: str) -> tuple[OAuthFlow, ...]:
        found = self.read.obj(obj, "flows", pointer, required=True, hint="exactly one OAuth flow")
        if found is None:
            return ()
        flows_obj, flows_pointer = found
        result = []
        for kind in FLOW_KINDS:
            value, flow_pointer, present = self.read.member(flows_obj, kind, flows_pointer)
            if not present or value is None:
                continue
            if not isinstance(value, dict):
                self.report.add(
                    WRONG_TYPE, flow_pointer, f'the "{kind}" flow must be an object, not {quote(value)}'
                )
                continue
            result.append(self.flow(kind, value, flow_pointer))
        if not result and not any(k for k in flows_obj if k not in FLOW_KINDS):
            self.report.add(
                REQUIRED_MISSING,
                flows_pointer,
                '"flows" declares no flow: add one of authorizationCode, clientCredentials or deviceCode',
            )
        return tuple(result)

    def flow(self, kind: OAuthFlowKind, obj: JSONObject, pointer: str) -> OAuthFlow:
        read = self.read
        required = set(FLOW_REQUIRED[kind])
        if self.era != "1.0" and kind in ("implicit", "password"):
            required |= {"scopes", "authorizationUrl" if kind == "implicit" else "tokenUrl"}

        def url(key: str) -> str | None:
            return read.url(obj, key, pointer, required=key in required, hint="an absolute https URL")

        scopes = read.string_map(
            obj,
            "scopes",
            pointer,
            required="scopes" in required,
            hint="an object of scope -> description ({} if none)",
        )
        if scopes == {} and "scopes" in FLOW_REQUIRED[kind]:
            self.report.add(
                REQUIRED_EMPTY,
                join_pointer(pointer, "scopes"),
                f'"scopes" of the {kind} flow must declare at least one scope (name -> description)',
            )
        return OAuthFlow(
            kind=kind,
            authorization_url=url("authorizationUrl") if kind in ("authorizationCode", "implicit") else None,
            token_url=url("tokenUrl") if kind != "implicit" else None,
            refresh_url=url("refreshUrl"),
            device_authorization_url=url("deviceAuthorizationUrl") if kind == "deviceCode" else None,
            scopes=scopes or {},
            pkce_required=read.boolean(obj, "pkceRequired", pointer) if kind == "authorizationCode" else None,
            pointer=pointer,
            extra=self.extra(obj, _FLOW_KEY_SET),
        )

    def legacy_authentication_schemes(self) -> dict[str, SecurityScheme]:
        """v0.1/v0.2 ``authentication: {"schemes": ["Bearer", ...]}`` -> one scheme per label; an entry written as
        an OpenAPI-style object (``{"type": "bearer"}``, ``{"type": "apiKey", "in": "header", "name": ...}``) ->
        the scheme it describes, with a warning (no version defines the object form)."""
        found = self.read.obj(self.raw, "authentication", "")
        if found is None:
            return {}
        obj, pointer = found
        items = self.read.array(obj, "schemes", pointer)
        self.read.text(obj, "credentials", pointer)  # not shown, but a null or a non-string is reported
        schemes: dict[str, SecurityScheme] = {}
        for index, item in enumerate(items[0] if items else ()):
            label_pointer = join_pointer(pointer, "schemes", index)
            if isinstance(item, dict):
                name, scheme = self.legacy_scheme_object(item, label_pointer)
                schemes[_unused(name, schemes)] = scheme
                continue
            if not isinstance(item, str):
                self.read.string_items(
                    [item], join_pointer(pointer, "schemes"), "schemes"
                )  # reports the type
                continue
            label = item
            if label.strip().lower() in ("", "none", "public", "anonymous"):
                continue
            if label.strip().lower() in ("bearer", "basic", "digest"):
                schemes[label] = HTTPAuthSecurityScheme(
                    description=None, scheme=label, bearer_format=None, pointer=label_pointer
                )
            else:
                schemes[label] = UnknownSecurityScheme(label=label, description=None, pointer=label_pointer)
        return schemes

    def legacy_scheme_object(self, obj: JSONObject, pointer: str) -> tuple[str, SecurityScheme]:
        """A legacy ``authentication`` entry written as an OpenAPI-style scheme object: its name (its type) and
        the scheme it describes, with a warning saying how it was read."""
        kind = obj.get("type")
        label = kind if isinstance(kind, str) and kind.strip() else "scheme"
        scheme_name, location, key_name = obj.get("scheme"), obj.get("in"), obj.get("name")
        http = label.lower() in ("bearer", "basic", "digest") or (
            label.lower() == "http" and isinstance(scheme_name, str)
        )
        if http:
            written = scheme_name if label.lower() == "http" and isinstance(scheme_name, str) else label
            http_scheme = written.strip().capitalize()
            self.legacy(
                pointer, f"{_OBJECT_ENTRY} is read as HTTP {quote(http_scheme)} authentication{_DECLARE}"
            )
            return label, HTTPAuthSecurityScheme(
                description=None, scheme=http_scheme, bearer_format=None, pointer=pointer
            )
        if label.lower() == "apikey" and isinstance(location, str) and isinstance(key_name, str):
            self.legacy(
                pointer,
                f"{_OBJECT_ENTRY} is read as an API key sent in the {quote(location)} {quote(key_name)}{_DECLARE}",
            )
            return label, APIKeySecurityScheme(
                description=None, location=location, name=key_name, pointer=pointer
            )
        self.legacy(
            pointer, f"{_OBJECT_ENTRY} (type {quote(kind)}) describes no scheme a client can use{_DECLARE}"
        )
        return label, UnknownSecurityScheme(label=label, description=None, pointer=pointer)

    def card_requirements(self) -> tuple[tuple[SecurityRequirement, ...], str]:
        requirements = self.requirements(self.raw, "")
        if requirements is not None:
            return requirements
        if "authentication" in self.raw and "securitySchemes" not in self.raw:
            schemes = self.legacy_authentication_schemes()
            # Each legacy label is an alternative: any one of them authenticates.
            return tuple(
                SecurityRequirement(schemes={name: ()}, pointer=scheme.pointer)
                for name, scheme in schemes.items()
            ), "/authentication"
        return (), "/securityRequirements" if self.era == "1.0" else "/security"

    def requirements(self, obj: JSONObject, base: str) -> tuple[tuple[SecurityRequirement, ...], str] | None:
        """The requirements of a card or skill, from whichever member the card uses; None when absent.

        An empty list means "not set" (proto3 cannot tell them apart), so it also gives None.
        """
        v1_key, legacy_key = "securityRequirements", "security"
        if self.era == "1.0" and legacy_key in obj and v1_key not in obj:
            self.legacy(
                join_pointer(base, legacy_key),
                '"security" is the v0.3 name and v1.0 clients ignore it; rename it to "securityRequirements" '
                'with the shape [{"schemes": {"<scheme>": {"list": ["<scope>"]}}}]',
            )
        if self.era != "1.0" and v1_key in obj:
            self.legacy(
                join_pointer(base, v1_key),
                '"securityRequirements" is the v1.0 name; v0.3 clients read "security" as [{"<scheme>": ["<scope>"]}]',
            )
        key = v1_key if v1_key in obj or (self.era == "1.0" and legacy_key not in obj) else legacy_key
        found = self.read.array(obj, key, base)
        if found is None or not found[0]:
            return None
        items, pointer = found
        result = []
        for _, item, item_pointer in self.read.objects(items, pointer, "security requirement"):
            result.append(self.requirement(item, item_pointer, under_v1_key=key == v1_key))
        return tuple(result), pointer

    def requirement(self, obj: JSONObject, pointer: str, *, under_v1_key: bool) -> SecurityRequirement:
        wrapped = "schemes" in obj and isinstance(obj["schemes"], dict) and len(obj) == 1
        if wrapped:
            schemes_obj = obj["schemes"]
            assert isinstance(schemes_obj, dict)
            base = join_pointer(pointer, "schemes")
            if self.era != "1.0":
                self.legacy(base, 'this is the v1.0 shape; v0.3 writes {"<scheme>": ["<scope>"]}')
        else:
            schemes_obj, base = obj, pointer
            if self.era == "1.0" and under_v1_key:
                # A strict v1.0 parser rejects this; a lenient one drops the members and reads an empty
                # requirement, i.e. "no authentication": an error, not a mere style issue.
                self.report.add(
                    REQUIREMENT_SHAPE,
                    pointer,
                    "this security requirement has the v0.3 shape, which v1.0 clients read as no requirement at "
                    'all; write {"schemes": {"<scheme>": {"list": ["<scope>"]}}}',
                )
        schemes: dict[str, tuple[str, ...]] = {}
        for name, value in schemes_obj.items():
            value_pointer = join_pointer(base, name)
            if isinstance(value, dict) and wrapped:
                found = self.read.strings(value, "list", value_pointer, hint="the scopes")
                schemes[name] = found[0] if found else ()
                for extra_key in value:
                    if extra_key != "list":
                        self.report.add(
                            UNKNOWN_FIELD,
                            join_pointer(value_pointer, extra_key),
                            f'unknown member "{extra_key}"',
                            at_key=True,
                        )
            elif isinstance(value, list):
                if wrapped:
                    self.legacy(value_pointer, 'v1.0 wraps the scopes: {"list": [...]}')
                schemes[name] = self.read.string_items(value, value_pointer, name)
            else:
                expected = '{"list": [...]}' if wrapped else "an array of strings"
                self.report.add(
                    WRONG_TYPE,
                    value_pointer,
                    f'the scopes of "{name}" must be {expected}, not {quote(value)}',
                )
                schemes[name] = ()
        return SecurityRequirement(schemes=schemes, pointer=pointer)

    # -- modes and skills ---------------------------------------------------------------------------------

    def default_modes(self, key: str) -> EffectiveModes:
        found = self.read.strings(
            self.raw, key, "", required=True, hint='media types such as "text/plain"', limit="max_media_types"
        )
        return EffectiveModes(
            modes=found[0] if found else (),
            origin="card",
            pointer=found[1] if found else join_pointer("", key),
        )

    def skills(
        self, inputs: EffectiveModes, outputs: EffectiveModes, security: EffectiveSecurity
    ) -> tuple[AgentSkill, ...]:
        found = self.read.array(
            self.raw,
            "skills",
            "",
            required=True,
            hint="at least one skill",
            limit="max_skills",
        )
        if found is None:
            return ()
        items, pointer = found
        objects = self.read.objects(items, pointer, "skill")
        if self.memo is None:
            return tuple(
                self.skill(obj, item_pointer, inputs, outputs, security) for _, obj, item_pointer in objects
            )
        context = SkillContext(self.era, self.limits)
        return tuple(
            self.remembered_skill(self.memo, obj, item_pointer, context, inputs, outputs, security)
            for _, obj, item_pointer in objects
        )

    def remembered_skill(
        self,
        memo: SkillMemo,
        obj: JSONObject,
        pointer: str,
        context: SkillContext,
        inputs: EffectiveModes,
        outputs: EffectiveModes,
        security: EffectiveSecurity,
    ) -> AgentSkill:
        """``skill``, taken from ``memo`` with the findings it reported when the same JSON was read there before.
        What the skill inherits is this version's card defaults and requirements: ``skill`` reads them only to
        hand them on (a skill without its own), and reports nothing about them."""
        text = memo.key(obj)
        known = memo.get(pointer, text, context)
        if known is None:
            start = len(self.report.findings)
            skill = self.skill(obj, pointer, inputs, outputs, security)
            memo.put(pointer, text, context, skill, tuple(self.report.findings[start:]))
            return skill
        skill, findings = known
        self.report.findings.extend(findings)
        inherited = (
            inputs if skill.input_modes is None else skill.effective_input_modes,
            outputs if skill.output_modes is None else skill.effective_output_modes,
            security if skill.security_requirements is None else skill.effective_security,
        )
        if inherited != (skill.effective_input_modes, skill.effective_output_modes, skill.effective_security):
            input_modes, output_modes, effective_security = inherited
            skill = dataclasses.replace(
                skill,
                effective_input_modes=input_modes,
                effective_output_modes=output_modes,
                effective_security=effective_security,
            )
        return skill

    def skill(
        self,
        obj: JSONObject,
        pointer: str,
        inputs: EffectiveModes,
        outputs: EffectiveModes,
        security: EffectiveSecurity,
    ) -> AgentSkill:
        read = self.read
        tags = read.strings(
            obj,
            "tags",
            pointer,
            required=True,
            hint='keywords, e.g. ["maps"]',
            limit="max_tags",
        )
        own_inputs = self.skill_modes(obj, "inputModes", pointer)
        own_outputs = self.skill_modes(obj, "outputModes", pointer)
        own_security = self.requirements(obj, pointer)
        return AgentSkill(
            id=read.text(obj, "id", pointer, required=True, hint="a unique skill id"),
            name=read.text(obj, "name", pointer, required=True, hint="a human-readable name"),
            description=read.text(
                obj,
                "description",
                pointer,
                required=True,
                hint="what the skill does",
                limit="max_text_chars",
            ),
            tags=tags[0] if tags else (),
            examples=self.examples(obj, pointer),
            input_modes=own_inputs.modes if own_inputs else None,
            output_modes=own_outputs.modes if own_outputs else None,
            security_requirements=own_security[0] if own_security else None,
            effective_input_modes=own_inputs or inputs,
            effective_output_modes=own_outputs or outputs,
            effective_security=(
                EffectiveSecurity(requirements=own_security[0], origin="skill", pointer=own_security[1])
                if own_security
                else security
            ),
            pointer=pointer,
            extra=self.extra(obj, _SKILL_KEY_SET),
        )

    def skill_modes(self, obj: JSONObject, key: str, pointer: str) -> EffectiveModes | None:
        """The skill's own list, or None when it inherits the card default (absent or empty)."""
        found = self.read.strings(obj, key, pointer, limit="max_media_types")
        if found is None:
            return None
        modes, modes_pointer = found
        if not modes:
            self.report.add(
                EMPTY_OVERRIDE,
                modes_pointer,
                f'"{key}" is empty, which means "not set": the skill inherits the card default; remove it or list '
                "the media types",
            )
            return None
        return EffectiveModes(modes=modes, origin="skill", pointer=modes_pointer)

    def examples(self, obj: JSONObject, pointer: str) -> tuple[Example, ...]:
        found = self.read.strings(
            obj,
            "examples",
            pointer,
            limit="max_examples",
            item_limit="max_example_chars",
        )
        if found is None:
            return ()
        texts, examples_pointer = found
        # Elements that are not strings were skipped: point at each text's index in the card.
        items = obj.get(examples_pointer.rsplit("/", 1)[-1])
        indices = (
            [i for i, item in enumerate(items) if isinstance(item, str)] if isinstance(items, list) else []
        )
        return tuple(
            self.example(text, f"{examples_pointer}/{i}") for i, text in zip(indices, texts, strict=False)
        )

    def example(self, text: str, pointer: str) -> Example:
        """One example. Text that looks like JSON (starts with ``{`` or ``[``) is parsed; if it does not parse or
        is nested too deep, it is kept as plain text with a warning."""
        plain = Example(text=text, is_json=False, value=None, pointer=pointer)
        stripped = text.strip()
        if not stripped or stripped[0] not in "{[":
            return plain
        try:
            value = _EXAMPLE_DECODER.decode(stripped)
        except json.JSONDecodeError as exc:
            problem = (
                f"this example looks like JSON but does not parse ({exc.msg} at line {exc.lineno} column "
                f"{exc.colno} of the example); fix it, or it is shown as plain text"
            )
        except RecursionError:
            problem = self._nested_too_deep()
        except ValueError:
            problem = "this example looks like JSON but does not parse; it is shown as text"
        else:
            max_depth = self.limits.max_depth
            if not (might_exceed_depth(stripped, max_depth) and depth_exceeds(value, max_depth)):
                return Example(
                    text=text, is_json=isinstance(value, (dict, list)), value=value, pointer=pointer
                )
            problem = self._nested_too_deep()
        self.report.add(EXAMPLE_JSON_INVALID, pointer, problem)
        return plain

    def _nested_too_deep(self) -> str:
        return f"this JSON example is nested deeper than {self.limits.max_depth} levels; it is shown as plain text"

    # -- signatures ---------------------------------------------------------------------------------------

    def signatures(self) -> tuple[AgentCardSignature, ...]:
        found = self.read.array(self.raw, "signatures", "")
        if found is None:
            return ()
        items, pointer = found
        result = []
        for _, obj, item_pointer in self.read.objects(items, pointer, "signature"):
            protected = self.read.text(
                obj,
                "protected",
                item_pointer,
                required=True,
                hint="the JWS protected header",
                limit="max_text_chars",
            )
            header = self.read.obj(obj, "header", item_pointer)
            result.append(
                AgentCardSignature(
                    protected=protected,
                    signature=self.read.text(
                        obj,
                        "signature",
                        item_pointer,
                        required=True,
                        hint="the JWS signature",
                        limit="max_text_chars",
                    ),
                    header=header[0] if header else None,
                    protected_header=self.decode_protected(
                        protected, join_pointer(item_pointer, "protected")
                    ),
                    pointer=item_pointer,
                    extra=self.extra(obj, {"protected", "signature", "header"}),
                )
            )
        return tuple(result)

    def decode_protected(self, protected: str | None, pointer: str) -> Mapping[str, JSONValue] | None:
        if not protected:
            return None
        try:
            data = base64.urlsafe_b64decode(protected + "=" * (-len(protected) % 4))
            header = json.loads(data.decode("utf-8"))
        except (binascii.Error, ValueError, RecursionError):
            header = None
        if not isinstance(header, dict):
            self.report.add(
                SIGNATURE_HEADER_INVALID,
                pointer,
                "the protected header is not base64url-encoded JSON; it must decode to an object with alg, typ and kid",
            )
            return None
        missing = [k for k in ("alg", "kid") if k not in header]
        if missing:
            self.report.add(
                SIGNATURE_HEADER_INCOMPLETE,
                pointer,
                f"the protected header lacks {', '.join(missing)} (A2A section 8.4.2 requires alg, typ and kid)",
            )
        return header


def _wrapper_for(kind: str) -> str | None:
    return next((w for w, k in SCHEME_WRAPPERS.items() if k == kind), None)


def _no_constants(name: str) -> JSONValue:
    raise ValueError(f"{name} is not JSON")


_EXAMPLE_DECODER = json.JSONDecoder(parse_constant=_no_constants)
"""What ``json.loads(text, parse_constant=_no_constants)`` uses, made once (text never starts with a BOM here)."""


_OBJECT_ENTRY = 'a legacy "authentication" entry is a label such as "Bearer"; this object'
_DECLARE = ' (declare it in "securitySchemes")'


def _unused(name: str, taken: Mapping[str, object]) -> str:
    """``name``, or ``name-2``, ``name-3`` ... when it is taken."""
    candidate, number = name, 1
    while candidate in taken:
        number += 1
        candidate = f"{name}-{number}"
    return candidate
