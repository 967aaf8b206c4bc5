"""Write the faithful v1.0 form of a card of any era: ``convert_card(data, display=...) -> Conversion``.

The card is read as ``check`` reads it, into the model that always has v1.0 meaning, and written back as v1.0
ProtoJSON: ``url`` + ``preferredTransport`` + ``additionalInterfaces`` become ``supportedInterfaces`` (each
with its ``protocolVersion``), ``security`` becomes ``securityRequirements`` in the ``{"schemes": {...}}``
shape, ``type``-discriminated schemes their wrapper members (``in`` is ``location``),
``supportsAuthenticatedExtendedCard`` is ``capabilities.extendedAgentCard``. Members come in the order of the
spec's sample card; ``diff original converted`` reports only ``era-changed``.

What the v1.0 card cannot carry, or had to choose, is reported with its place in the source card
(``convert-dropped``, ``convert-guessed``, ``convert-signature-stale``): members no version defines, members
v1.0 removed, values of the wrong type, an interface's protocol version the card does not state, legacy
``authentication`` labels, OAuth2 flows split into one scheme each, signatures (which signed other bytes). A v1.0 card is rewritten the same way,
which drops its leftovers of v0.3.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.diagnostics import CONVERT_DROPPED, CONVERT_GUESSED, CONVERT_SIGNATURE_STALE
from a2a_docgen.limits import DEFAULT_LIMITS, Limits
from a2a_docgen.load.normalize import SCHEME_WRAPPERS
from a2a_docgen.load.reader import quote, snake_case
from a2a_docgen.load.report import Report, locate_all
from a2a_docgen.load.source import MISSING, PositionIndex, join_pointer, resolve_pointer
from a2a_docgen.model import (
    AgentCard,
    AgentCardSignature,
    AgentInterface,
    AgentSkill,
    APIKeySecurityScheme,
    Diagnostic,
    HTTPAuthSecurityScheme,
    JSONObject,
    JSONValue,
    MutualTlsSecurityScheme,
    OAuth2SecurityScheme,
    OAuthFlow,
    OpenIdConnectSecurityScheme,
    SecurityRequirement,
    SecurityScheme,
)
from a2a_docgen.protocol import assumed_protocol_version, major_minor, short_version
from a2a_docgen.signing.canonical import FORMS, NoCanonicalForm, canonical_bytes
from a2a_docgen.text.jsonio import json_document
from a2a_docgen.validate.rules import extra_members

__all__ = ["TARGETS", "Conversion", "convert_card", "to_v1"]

TARGETS = ("1.0",)
"""The versions ``convert`` writes."""

_WRAPPER = {kind: wrapper for wrapper, kind in SCHEME_WRAPPERS.items()}
_API_KEY_LABEL = re.compile(r"api[-_ ]?key", re.IGNORECASE)
"""A legacy label that names the API key kind without saying which header, query parameter or cookie."""
_FLOW_MEMBERS = {
    "authorizationCode": ("authorizationUrl", "tokenUrl", "refreshUrl", "scopes", "pkceRequired"),
    "clientCredentials": ("tokenUrl", "refreshUrl", "scopes"),
    "deviceCode": ("deviceAuthorizationUrl", "tokenUrl", "refreshUrl", "scopes"),
    "implicit": ("authorizationUrl", "refreshUrl", "scopes"),
    "password": ("tokenUrl", "refreshUrl", "scopes"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Conversion:
    """One card converted, or the reason it could not be."""

    source: str
    """The source card's file, as given."""
    card: JSONObject | None
    """The v1.0 card, or ``None`` when the file is not a card (``diagnostics`` says why)."""
    notes: tuple[Diagnostic, ...]
    """What could not be carried over or was guessed, located in the source card."""
    diagnostics: tuple[Diagnostic, ...]
    """The ``check`` diagnostics of the source card."""
    era: str | None
    """The shape the source card was written in."""
    remaining: tuple[Diagnostic, ...] = ()
    """The errors ``check`` finds in the converted card (located in it): what conversion could not mend."""

    @property
    def text(self) -> str | None:
        """The converted card as a file: indent 2, members in the spec sample's order, final newline."""
        return json_document(self.card) if self.card is not None else None


def convert_card(
    data: bytes, *, display: str, target: str = "1.0", limits: Limits = DEFAULT_LIMITS
) -> Conversion:
    """Convert one card (any era) to ``target``; never raises for the card's content."""
    if target not in TARGETS:
        raise ValueError(f"cannot convert to {target!r}; the targets are {', '.join(TARGETS)}")
    card, diagnostics = load_card_bytes(data, display=display, limits=limits)
    if card is None:
        return Conversion(source=display, card=None, notes=(), diagnostics=tuple(diagnostics), era=None)
    report = Report()
    converted = to_v1(card, report, diagnostics)
    index = PositionIndex.build(card.source.text)
    notes = locate_all(
        report.findings, display, lambda pointer, at_key=False: index.locate(pointer, at_key=at_key)
    )
    _, checked = load_card_bytes(
        json_document(converted).encode("utf-8"), display=f"{display} (converted)", limits=limits
    )
    return Conversion(
        source=display,
        card=converted,
        notes=tuple(sorted(notes, key=Diagnostic.sort_key)),
        diagnostics=tuple(diagnostics),
        era=card.era,
        remaining=tuple(d for d in checked if d.severity == "error"),
    )


def to_v1(card: AgentCard, report: Report, diagnostics: Sequence[Diagnostic] = ()) -> JSONObject:
    """The v1.0 ProtoJSON of ``card``; what it leaves out or guesses is added to ``report``."""
    return _Writer(card, report).card(diagnostics)


def _put(obj: JSONObject, key: str, value: JSONValue) -> None:
    if value is not None:
        obj[key] = value


class _Writer:
    def __init__(self, card: AgentCard, report: Report) -> None:
        self.source = card
        self.report = report
        self.renamed: dict[str, list[str]] = {}
        """A scheme split into one scheme per OAuth2 flow -> the names of all its parts."""
        self.dropped: set[str] = set()
        """Schemes with no v1.0 form."""
        self.part_scopes: dict[str, frozenset[str]] = {}
        """The scopes the one flow of each part of a split scheme declares."""

    # -- helpers ------------------------------------------------------------------------------------------------

    def raw(self, pointer: str) -> object:
        return resolve_pointer(self.source.source.raw, pointer)

    def present(self, base: str, key: str) -> bool:
        """The source writes member ``key`` (or its snake_case alias) in the object at ``base``, not as null."""
        obj = self.raw(base)
        return isinstance(obj, dict) and (obj.get(key) is not None or obj.get(snake_case(key)) is not None)

    def member(self, base: str, key: str) -> str:
        obj = self.raw(base)
        if isinstance(obj, dict) and key not in obj and snake_case(key) in obj:
            return join_pointer(base, snake_case(key))
        return join_pointer(base, key)

    def strings(self, values: Sequence[str], base: str, key: str) -> list[JSONValue] | None:
        """A required list: written when it has items or the source writes it (so an empty list stays empty
        and a missing one missing, as ``check`` told them apart)."""
        return list(values) if values or self.present(base, key) else None

    def dropped_note(self, pointer: str, message: str, *, at_key: bool = True) -> None:
        self.report.add(CONVERT_DROPPED, pointer, message, at_key=at_key)

    def guessed(self, pointer: str, message: str, *, at_key: bool = False) -> None:
        self.report.add(CONVERT_GUESSED, pointer, message, at_key=at_key)

    # -- the card -----------------------------------------------------------------------------------------------

    def card(self, diagnostics: Sequence[Diagnostic]) -> JSONObject:
        card = self.source
        schemes = self.security_schemes()
        out: JSONObject = {}
        _put(out, "name", card.name)
        _put(out, "description", card.description)
        interfaces: list[JSONValue] = [self.interface(i) for i in card.interfaces]
        if interfaces or self.present("", "supportedInterfaces") or self.present("", "url"):
            out["supportedInterfaces"] = interfaces
        if card.provider is not None:
            provider: JSONObject = {}
            _put(provider, "organization", card.provider.organization)
            _put(provider, "url", card.provider.url)
            out["provider"] = provider
        _put(out, "iconUrl", card.icon_url)
        _put(out, "version", card.version)
        _put(out, "documentationUrl", card.documentation_url)
        out["capabilities"] = self.capabilities()
        if schemes:
            out["securitySchemes"] = schemes
        requirements = self.requirements(card.security_requirements)
        if requirements:
            out["securityRequirements"] = requirements
        _put(out, "defaultInputModes", self.strings(card.default_input_modes, "", "defaultInputModes"))
        _put(out, "defaultOutputModes", self.strings(card.default_output_modes, "", "defaultOutputModes"))
        skills: list[JSONValue] = [self.skill(skill) for skill in card.skills]
        if skills or self.present("", "skills"):
            out["skills"] = skills
        if card.signatures and _covers_the_same(card.source.raw, out):
            out["signatures"] = [self.signature(signature) for signature in card.signatures]
        for index, signature in enumerate(card.signatures if "signatures" not in out else ()):
            self.stale(index, signature)
        self.leftovers(diagnostics)
        return out

    # -- interfaces -------------------------------------------------------------------------------------------

    def interface(self, interface: AgentInterface) -> JSONObject:
        out: JSONObject = {}
        _put(out, "url", interface.url)
        binding = interface.protocol_binding
        if binding is not None and not binding.strip() and interface.pointer == "/url":
            binding = "JSONRPC"
            self.guessed(
                self.member("", "preferredTransport"),
                '"preferredTransport" is empty; the converted interface uses "JSONRPC", the v0.3 default: check it',
            )
        _put(out, "protocolBinding", binding)
        version = interface.protocol_version
        if version is None:
            declared = self.raw("/protocolVersion")
            version = assumed_protocol_version(declared, self.source.era)
            if short_version(declared if isinstance(declared, str) else "") == version:
                self.guessed(
                    interface.pointer,
                    f'this interface states no "protocolVersion"; the converted one serves {quote(version)}, the '
                    'card\'s top-level "protocolVersion" (a v0.3 member): check it',
                )
            else:
                why = (
                    "the version of the v1.0 shape the card is written in"
                    if self.source.era == "1.0"
                    else "what v0.3 clients and the official SDK assume"
                )
                self.guessed(
                    interface.pointer,
                    f'the card states no "protocolVersion"; the converted interface serves {quote(version)}, {why}: '
                    "write the version the agent really serves",
                    at_key=interface.pointer == "/url",
                )
        elif self.source.era == "0.3" and (major_minor(version) or (0, 0)) >= (1, 0):
            self.guessed(
                "/protocolVersion",
                f"the card is written in the v0.3 shape but announces protocol version {quote(version)}; the "
                f"converted interface serves {quote(version)} as announced: if the agent serves A2A 0.3, write "
                '"0.3" instead',
            )
        _put(out, "protocolVersion", version)
        _put(out, "tenant", interface.tenant)
        return out

    # -- capabilities ------------------------------------------------------------------------------------------

    def capabilities(self) -> JSONObject:
        capabilities = self.source.capabilities
        out: JSONObject = {}
        _put(out, "streaming", capabilities.streaming)
        _put(out, "pushNotifications", capabilities.push_notifications)
        extensions: list[JSONValue] = []
        for extension in capabilities.extensions:
            item: JSONObject = {}
            _put(item, "uri", extension.uri)
            _put(item, "description", extension.description)
            if extension.required:
                item["required"] = True
            if extension.params is not None:
                item["params"] = dict(extension.params)
            extensions.append(item)
        if extensions:
            out["extensions"] = extensions
        _put(out, "extendedAgentCard", capabilities.extended_agent_card)
        if "stateTransitionHistory" in capabilities.extra:
            self.dropped_note(
                join_pointer(capabilities.pointer, "stateTransitionHistory"),
                '"stateTransitionHistory" was removed in v1.0; the converted card leaves it out',
            )
        return out

    # -- security -------------------------------------------------------------------------------------------------

    def security_schemes(self) -> JSONObject:
        legacy = self.source.security_requirements_pointer.startswith("/authentication")
        out: JSONObject = {}
        written = self.raw(self.member("", "securitySchemes"))
        if isinstance(written, dict):
            # Declared, but not as an object (a wrong-type error of check): nothing to carry.
            self.dropped.update(name for name in written if name not in self.source.security_schemes)
        for name, scheme in self.source.security_schemes.items():
            if isinstance(scheme, OAuth2SecurityScheme) and len(scheme.flows) > 1:
                self.split(name, scheme, out)
                continue
            body = self.scheme(scheme)
            if body is None:
                self.dropped.add(name)
                what = (
                    f'label {quote(name)} of the legacy "authentication"'
                    if legacy
                    else f"scheme {quote(name)}"
                )
                why = (
                    "names an API key but not where it goes (a v1.0 API key scheme needs its header, query or "
                    'cookie "name" and "location"), so the converter cannot write it'
                    if _API_KEY_LABEL.fullmatch(name)
                    else "is of no A2A kind, so v1.0 has no form for it"
                )
                self.dropped_note(
                    scheme.pointer,
                    f"the {what} {why}: the converted card leaves it out, and every security requirement that "
                    "names it (declare the scheme by hand)",
                    at_key=not legacy,
                )
                continue
            out[name] = body
            if legacy:
                self.guessed(
                    scheme.pointer,
                    f'the legacy "authentication" entry {quote(name)} is now a security scheme of that name, '
                    f"{json.dumps(body, ensure_ascii=False)}, required by the card: check it",
                )
        if legacy:
            credentials = join_pointer("/authentication", "credentials")
            if self.raw(credentials) not in (MISSING, None):
                self.dropped_note(
                    credentials,
                    '"credentials" of the legacy "authentication" has no v1.0 form; the converted card leaves it '
                    'out (describe it in the scheme\'s "description")',
                )
        return out

    def scheme(self, scheme: SecurityScheme, flows: Sequence[OAuthFlow] | None = None) -> JSONObject | None:
        body: JSONObject = {}
        _put(body, "description", scheme.description)
        if isinstance(scheme, APIKeySecurityScheme):
            _put(body, "location", scheme.location)
            _put(body, "name", scheme.name)
        elif isinstance(scheme, HTTPAuthSecurityScheme):
            _put(body, "scheme", scheme.scheme)
            _put(body, "bearerFormat", scheme.bearer_format)
        elif isinstance(scheme, OAuth2SecurityScheme):
            body["flows"] = {
                flow.kind: self.flow(flow) for flow in (scheme.flows if flows is None else flows)
            }
            _put(body, "oauth2MetadataUrl", scheme.oauth2_metadata_url)
        elif isinstance(scheme, OpenIdConnectSecurityScheme):
            _put(body, "openIdConnectUrl", scheme.open_id_connect_url)
        elif not isinstance(scheme, MutualTlsSecurityScheme):
            return None
        return {_WRAPPER[scheme.kind]: body}

    def flow(self, flow: OAuthFlow) -> JSONObject:
        values: dict[str, JSONValue] = {
            "authorizationUrl": flow.authorization_url,
            "tokenUrl": flow.token_url,
            "refreshUrl": flow.refresh_url,
            "deviceAuthorizationUrl": flow.device_authorization_url,
            "scopes": dict(flow.scopes) if flow.scopes or self.present(flow.pointer, "scopes") else None,
            "pkceRequired": flow.pkce_required,
        }
        out: JSONObject = {}
        for key in _FLOW_MEMBERS[flow.kind]:
            _put(out, key, values[key])
        return out

    def split(self, name: str, scheme: OAuth2SecurityScheme, out: JSONObject) -> None:
        """v1.0 allows one flow per OAuth2 scheme: the first keeps the name, each other gets ``name-kind``."""
        names = []
        for index, flow in enumerate(scheme.flows):
            part = name if index == 0 else f"{name}-{flow.kind}"
            while part in out or (part != name and part in self.source.security_schemes):
                part += "-2"
            out[part] = self.scheme(scheme, [flow])
            self.part_scopes[part] = frozenset(flow.scopes)
            names.append(part)
        self.renamed[name] = names
        self.guessed(
            scheme.pointer,
            f"scheme {quote(name)} declares {len(scheme.flows)} OAuth2 flows and a v1.0 scheme holds one: the "
            f"converted card declares {', '.join(quote(n) for n in names)}, one flow each, and every requirement "
            "of the scheme may use any of them",
            at_key=True,
        )

    def requirements(self, requirements: Sequence[SecurityRequirement]) -> list[JSONValue]:
        out: list[JSONValue] = []
        for requirement in requirements:
            if any(name in self.dropped for name in requirement.schemes):
                if self.source.security_requirements_pointer.startswith("/authentication"):
                    continue  # the legacy label and its requirement are one member, reported once
                self.dropped_note(
                    requirement.pointer,
                    "this security requirement names a scheme the converted card cannot declare; it is left out",
                    at_key=False,
                )
                continue
            alternatives: list[dict[str, tuple[str, ...]]] = [{}]
            for name, scopes in requirement.schemes.items():
                parts = self.renamed.get(name, [name])
                # A part whose flow does not declare the scopes was no way to get them (unless none is).
                fitting = [
                    part for part in parts if self.part_scopes.get(part, frozenset(scopes)) >= set(scopes)
                ]
                alternatives = [
                    {**alt, part: scopes} for alt in alternatives for part in fitting or parts[:1]
                ]
            for schemes in alternatives:
                out.append(
                    {"schemes": {name: ({"list": list(s)} if s else {}) for name, s in schemes.items()}}
                )
        return out

    # -- skills, signatures --------------------------------------------------------------------------------------

    def skill(self, skill: AgentSkill) -> JSONObject:
        out: JSONObject = {}
        _put(out, "id", skill.id)
        _put(out, "name", skill.name)
        _put(out, "description", skill.description)
        _put(out, "tags", self.strings(skill.tags, skill.pointer, "tags"))
        if skill.examples:
            out["examples"] = [example.text for example in skill.examples]
        if skill.input_modes is not None:
            out["inputModes"] = list(skill.input_modes)
        if skill.output_modes is not None:
            out["outputModes"] = list(skill.output_modes)
        if skill.security_requirements is not None:
            requirements = self.requirements(skill.security_requirements)
            if requirements:
                out["securityRequirements"] = requirements
        return out

    def signature(self, signature: AgentCardSignature) -> JSONObject:
        out: JSONObject = {}
        _put(out, "protected", signature.protected)
        _put(out, "signature", signature.signature)
        if signature.header is not None:
            out["header"] = dict(signature.header)
        return out

    def stale(self, index: int, signature: AgentCardSignature) -> None:
        """A signature signed the source card's bytes, which the converted card does not have."""
        self.report.add(
            CONVERT_SIGNATURE_STALE,
            signature.pointer,
            f"signature {index + 1} signed the source card and cannot verify the converted one (other bytes in "
            "every canonical form); the converted card leaves it out: sign it again (a2a-docgen sign)",
        )

    # -- what is left out ---------------------------------------------------------------------------------------

    def leftovers(self, diagnostics: Sequence[Diagnostic]) -> None:
        card = self.source
        for base, key, _, what in extra_members(card):
            self.dropped_note(
                join_pointer(base, key),
                f"{what} has no member {quote(key)} in any version of the spec; the converted card leaves it out",
            )
        if card.era == "1.0":
            for key in ("url", "preferredTransport", "additionalInterfaces", "protocolVersion"):
                if self.present("", key):
                    self.dropped_note(
                        self.member("", key),
                        f"{quote(key)} is a v0.3 member that v1.0 clients ignore; the converted card leaves it out "
                        '(its interfaces are in "supportedInterfaces")',
                    )
        for base in ("", *(skill.pointer for skill in card.skills)):
            if self.present(base, "security") and self.present(base, "securityRequirements"):
                self.dropped_note(
                    self.member(base, "security"),
                    '"security" is ignored beside "securityRequirements"; the converted card keeps the latter',
                )
        if "authentication" in card.source.raw and not card.security_requirements_pointer.startswith("/auth"):
            self.dropped_note(
                "/authentication",
                'the legacy "authentication" is ignored beside "securitySchemes"; the converted card leaves it out',
            )
        for d in diagnostics:
            if d.code == "wrong-type":
                self.dropped_note(
                    d.pointer, "this value has the wrong type; the converted card leaves it out", at_key=False
                )
            elif d.code == "limit-exceeded" and "is not cut" not in d.message:
                self.dropped_note(
                    d.pointer,
                    "this value is longer than a limit and was cut; the converted card has the first part only "
                    "(raise the limit named by check to keep it whole)",
                    at_key=False,
                )


def _covers_the_same(source: JSONObject, converted: JSONObject) -> bool:
    """The converted card has the bytes of the source in some canonical form a signature covers, so the source's
    signatures still verify it (a v1.0 card rewritten without its leftovers, for instance)."""
    for form in FORMS:
        try:
            if canonical_bytes(source, form) == canonical_bytes(converted, form):
                return True
        except NoCanonicalForm:
            continue
    return False
