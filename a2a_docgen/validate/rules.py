"""The card rules. Each rule is a function ``(card, report, limits) -> None``; CARD_RULES lists them.

Rules read the normalised model and, where a pointer has to name the member the card really uses (a
snake_case alias, a v0.3 name, an array index after skipped elements), the raw JSON kept in
``card.source.raw``. No rule raises on any card: the model holds ``None`` for anything of the wrong type.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from a2a_docgen.diagnostics import (
    APIKEY_LOCATION_INVALID,
    DUPLICATE_AGENT_NAME,
    DUPLICATE_INTERFACE,
    DUPLICATE_MEDIA_TYPE,
    DUPLICATE_SKILL_ID,
    EMPTY_VALUE,
    ERA_MISMATCH,
    EXAMPLE_MODE_MISMATCH,
    HTTP_SCHEME_UNKNOWN,
    INVALID_UNICODE,
    INVISIBLE_CHARACTERS,
    LEGACY_FIELD,
    NON_OAUTH_SCOPES,
    OAUTH_FLOW_DEPRECATED,
    OAUTH_FLOW_UNKNOWN,
    OAUTH_MULTIPLE_FLOWS,
    PREPROCESSOR_SYNTAX,
    SCHEME_UNUSED,
    SKILL_ID_CASE_TWIN,
    SLUG_CLASH,
    SUSPICIOUS_INSTRUCTIONS,
    TAG_PAGES_LIMITED,
    UNDECLARED_SCHEME,
    UNDECLARED_SCOPE,
    UNKNOWN_FIELD,
    diagnostic,
)
from a2a_docgen.limits import Limits
from a2a_docgen.load.normalize import (
    CARD_KEYS_LEGACY,
    CARD_KEYS_V1,
    FLOW_KEYS,
    FLOW_KINDS,
    SCHEME_WRAPPERS,
    SKILL_KEYS,
)
from a2a_docgen.load.reader import quote, snake_case
from a2a_docgen.load.report import Report
from a2a_docgen.load.source import MISSING, PositionIndex, join_pointer, resolve_pointer
from a2a_docgen.model import (
    AgentCard,
    AgentInterface,
    AgentSkill,
    APIKeySecurityScheme,
    Diagnostic,
    HTTPAuthSecurityScheme,
    JSONValue,
    OAuth2SecurityScheme,
    OpenIdConnectSecurityScheme,
    SecurityRequirement,
    SecurityScheme,
    UnknownSecurityScheme,
)
from a2a_docgen.protocol import canonical_binding, major_minor
from a2a_docgen.slugs import MAX_OWN_TAG_PAGES, agent_slugs, paged_tags, skill_anchor_clashes
from a2a_docgen.text.preprocessor import preprocessor_syntax
from a2a_docgen.text.suggest import Suggestions
from a2a_docgen.validate.fit import example_fit
from a2a_docgen.validate.formats import (
    ICON_SCHEMES,
    WEB_SCHEMES,
    Problem,
    check_binding,
    check_custom_binding_url,
    check_media_type,
    check_protocol_version,
    check_uri,
    check_url,
)
from a2a_docgen.validate.text import identity, invisible_characters, plain_ascii, suspicious_phrases

__all__ = ["CARD_RULES", "ICON_URL", "JKU_URL", "Rule", "catalog_rules", "extra_members", "url_members"]

Rule = Callable[[AgentCard, Report, Limits], None]


def _resolve(card: AgentCard, pointer: str) -> object:
    """The raw value at ``pointer``, or ``MISSING``."""
    return resolve_pointer(card.source.raw, pointer)


def _member(card: AgentCard, base: str, *names: str) -> str:
    """Pointer of the first of ``names`` (or its snake_case alias) present in the object at ``base``."""
    obj = _resolve(card, base)
    if isinstance(obj, dict):
        for name in names:
            for key in (name, snake_case(name)):
                if key in obj:
                    return join_pointer(base, key)
    return join_pointer(base, names[0])


def _string_pointers(card: AgentCard, pointer: str, values: Sequence[str]) -> list[tuple[str, str]]:
    """``(pointer, value)`` for the model's strings of the array at ``pointer`` (non-strings were skipped)."""
    raw = _resolve(card, pointer)
    if not isinstance(raw, list):
        return [(join_pointer(pointer, i), v) for i, v in enumerate(values)]
    indices = [i for i, item in enumerate(raw) if isinstance(item, str)]
    return [(join_pointer(pointer, i), v) for i, v in zip(indices, values, strict=False)]


def _add(report: Report, pointer: str, problem: Problem | None) -> None:
    """Report a format problem (if any) at ``pointer``."""
    if problem is not None:
        report.add(problem.code, pointer, problem.message, severity=problem.severity)


# -- skills ---------------------------------------------------------------------------------------------------


def duplicate_skill_ids(card: AgentCard, report: Report, limits: Limits) -> None:
    """Skill ids must be unique; ids equal once invisible characters go are duplicates; case twins warn."""
    exact: dict[str, str] = {}
    same_looking: dict[str, str] = {}
    folded: dict[str, str] = {}
    for skill in card.skills:
        if skill.id is None or not skill.id.strip():
            continue
        seen = identity(skill.id)
        if skill.id in exact:
            report.add(
                DUPLICATE_SKILL_ID,
                _member(card, skill.pointer, "id"),
                f"skill id {quote(skill.id)} is already used by {exact[skill.id]}; skill ids must be unique in a "
                "card: rename one",
            )
        elif seen in same_looking:
            report.add(
                DUPLICATE_SKILL_ID,
                _member(card, skill.pointer, "id"),
                f"skill id {quote(skill.id)} looks the same as the id of {same_looking[seen]} (they differ only by "
                "invisible characters or Unicode normalisation); give the skills visibly different ids",
            )
        elif seen.casefold() in folded:
            report.add(
                SKILL_ID_CASE_TWIN,
                _member(card, skill.pointer, "id"),
                f"skill id {quote(skill.id)} differs from the id of {folded[seen.casefold()]} only by letter case; "
                "links and file names derived from ids can collide on case-insensitive systems: rename one",
            )
        exact.setdefault(skill.id, skill.pointer)
        same_looking.setdefault(seen, skill.pointer)
        folded.setdefault(seen.casefold(), skill.pointer)


# -- security ---------------------------------------------------------------------------------------------------


def _requirement_entries(card: AgentCard, requirement: SecurityRequirement) -> Iterator[tuple[str, str, str]]:
    """``(scheme name, pointer of its entry, pointer of its scope list)`` for each scheme named."""
    raw = _resolve(card, requirement.pointer)
    base = requirement.pointer
    if isinstance(raw, dict) and isinstance(raw.get("schemes"), dict) and len(raw) == 1:
        base = join_pointer(base, "schemes")
    for name in requirement.schemes:
        entry = join_pointer(base, name)
        scopes = join_pointer(entry, "list") if isinstance(_resolve(card, entry), dict) else entry
        yield name, entry, scopes


def _all_requirements(card: AgentCard) -> Iterator[SecurityRequirement]:
    if not card.security_requirements_pointer.startswith("/authentication"):
        yield from card.security_requirements
    for skill in card.skills:
        yield from skill.security_requirements or ()


def security_references(card: AgentCard, report: Report, limits: Limits) -> None:
    """Requirements must name declared schemes, and only scopes the named OAuth2 scheme declares."""
    declared = list(card.security_schemes)
    schemes_named = Suggestions(declared)
    scopes_named: dict[str, Suggestions] = {}
    written = _resolve(card, _member(card, "", "securitySchemes"))
    for requirement in _all_requirements(card):
        for name, entry, scopes_pointer in _requirement_entries(card, requirement):
            scheme = card.security_schemes.get(name)
            if scheme is None and isinstance(written, dict) and name in written:
                continue  # declared, but not as an object: reported as wrong-type where it is declared
            if scheme is None:
                where = 'in "securitySchemes"' if declared else '(the card has no "securitySchemes")'
                report.add(
                    UNDECLARED_SCHEME,
                    entry,
                    f"security requirement names scheme {quote(name)}, which is not declared {where}"
                    f"{schemes_named.hint(name)}: declare it or correct the name",
                    at_key=True,
                )
                continue
            if not isinstance(
                scheme, (OAuth2SecurityScheme, OpenIdConnectSecurityScheme, UnknownSecurityScheme)
            ):
                _non_oauth_scopes(card, report, requirement, name, scheme, scopes_pointer)
                continue
            if not isinstance(scheme, OAuth2SecurityScheme) or not scheme.flows:
                continue
            known = scheme.scopes
            pointers = _string_pointers(card, scopes_pointer, requirement.schemes[name])
            for scope_pointer, scope in pointers:
                if scope not in known:
                    if name not in scopes_named:
                        scopes_named[name] = Suggestions(known)
                    listed = ", ".join(quote(s) for s in known[:10]) or "none"
                    report.add(
                        UNDECLARED_SCOPE,
                        scope_pointer,
                        f"scope {quote(scope)} is not declared by any flow of OAuth2 scheme {quote(name)} "
                        f'(declared: {listed}){scopes_named[name].hint(scope)}: add it to the flow\'s "scopes" or '
                        "remove it here",
                    )


_KIND_NAMES = {
    "apiKey": "an API key scheme",
    "http": "an HTTP authentication scheme",
    "mutualTLS": "a mutual TLS scheme",
}


def _non_oauth_scopes(
    card: AgentCard,
    report: Report,
    requirement: SecurityRequirement,
    name: str,
    scheme: SecurityScheme,
    scopes_pointer: str,
) -> None:
    """Scopes only mean something to OAuth2 and OpenID Connect; for other kinds OpenAPI 3.1 reads them as
    role names that no client knows how to obtain."""
    scopes = requirement.schemes[name]
    if not scopes:
        return
    pointers = _string_pointers(card, scopes_pointer, scopes)
    listed = ", ".join(quote(s) for s in scopes[:5]) + (" ..." if len(scopes) > 5 else "")
    empty = "{}" if card.era == "1.0" else "[]"
    report.add(
        NON_OAUTH_SCOPES,
        pointers[0][0] if pointers else scopes_pointer,
        f"the requirement asks {_KIND_NAMES.get(scheme.kind, 'a scheme')} {quote(name)} for scopes ({listed}), but "
        "only OAuth2 and OpenID Connect schemes have scopes: clients have nowhere to request them; "
        f"write {empty} for this scheme, or describe the roles in the scheme's description",
    )


def unused_schemes(card: AgentCard, report: Report, limits: Limits) -> None:
    """A declared scheme that no requirement of the card or of a skill names is never asked of a client."""
    if not card.security_schemes or card.security_requirements_pointer.startswith("/authentication"):
        return
    used = {name for requirement in _all_requirements(card) for name in requirement.schemes}
    schemes_pointer = _member(card, "", "securitySchemes")
    for name in card.security_schemes:
        if name in used:
            continue
        if card.era == "1.0":
            example = f'"securityRequirements": [{{"schemes": {{{quote(name)}: {{}}}}}}]'
        else:
            example = f'"security": [{{{quote(name)}: []}}]'
        report.add(
            SCHEME_UNUSED,
            join_pointer(schemes_pointer, name),
            f"security scheme {quote(name)} is declared, but no security requirement of the card or of a skill names "
            f"it, so clients are never asked to use it: require it ({example}) or remove it",
            at_key=True,
        )


def oauth_flows(card: AgentCard, report: Report, limits: Limits) -> None:
    """Deprecated flows, several flows in one v1.0 scheme, and flow members no version defines."""
    for name, scheme in card.security_schemes.items():
        if not isinstance(scheme, OAuth2SecurityScheme):
            continue
        for flow in scheme.flows:
            if flow.deprecated:
                better = '"authorizationCode" with PKCE ("pkceRequired": true)'
                if flow.kind == "password":
                    better += ', or "deviceCode" for clients without a browser' if card.era == "1.0" else ""
                report.add(
                    OAUTH_FLOW_DEPRECATED,
                    flow.pointer,
                    f'the "{flow.kind}" flow of scheme {quote(name)} is deprecated (A2A v1.0, OAuth 2.0 Security '
                    f"Best Current Practice): use {better}",
                    at_key=True,
                )
        if card.era == "1.0" and len(scheme.flows) > 1:
            kinds = ", ".join(f.kind for f in scheme.flows)
            report.add(
                OAUTH_MULTIPLE_FLOWS,
                scheme.flows[1].pointer,
                f'scheme {quote(name)} declares {len(scheme.flows)} flows ({kinds}); in v1.0 "flows" holds exactly '
                "one (it is a oneof): keep one, and declare a separate scheme for each other flow",
                at_key=True,
            )
        flows_pointer = _member(card, scheme.pointer, "flows")
        flows_raw = _resolve(card, flows_pointer)
        if isinstance(flows_raw, dict):
            known = set(FLOW_KINDS) | {snake_case(k) for k in FLOW_KINDS}
            flows_named = Suggestions(FLOW_KINDS)
            for key in sorted(k for k in flows_raw if k not in known):
                report.add(
                    OAUTH_FLOW_UNKNOWN,
                    join_pointer(flows_pointer, key),
                    f'"flows" has no member {quote(key)}{flows_named.hint(key)}; the flows are '
                    "authorizationCode, clientCredentials, deviceCode (v1.0), implicit and password",
                    at_key=True,
                )


_API_KEY_LOCATIONS = ("header", "query", "cookie")
_HTTP_SCHEMES = (
    "Basic",
    "Bearer",
    "Concealed",
    "Digest",
    "DPoP",
    "GNAP",
    "HOBA",
    "Mutual",
    "Negotiate",
    "OAuth",
    "PrivateToken",
    "SCRAM-SHA-1",
    "SCRAM-SHA-256",
    "vapid",
)
"""The IANA HTTP Authentication Scheme Registry."""
_HTTP_SCHEMES_FOLDED = frozenset(s.casefold() for s in _HTTP_SCHEMES)


def scheme_fields(card: AgentCard, report: Report, limits: Limits) -> None:
    """API key locations and HTTP authentication scheme names."""
    for name, scheme in card.security_schemes.items():
        location = scheme.location if isinstance(scheme, APIKeySecurityScheme) else None
        if location and location.strip() and location not in _API_KEY_LOCATIONS:
            lower = location.strip().lower()
            fix = (
                f'write "{lower}" (lower case)'
                if lower in _API_KEY_LOCATIONS
                else 'use "header", "query" or "cookie"'
            )
            report.add(
                APIKEY_LOCATION_INVALID,
                _member(card, scheme.pointer, "location", "in"),
                f"API key scheme {quote(name)} is sent in {quote(location)}: {fix}",
            )
        if isinstance(scheme, HTTPAuthSecurityScheme) and scheme.scheme and scheme.scheme.strip():
            pointer = _member(card, scheme.pointer, "scheme")
            value = scheme.scheme
            if value.casefold() in _HTTP_SCHEMES_FOLDED:
                continue
            if value.strip().casefold() == "jwt":
                hint = 'write "Bearer" and put "JWT" in "bearerFormat"'
            elif value.strip().casefold() in ("apikey", "api-key", "api_key"):
                hint = "declare an apiKey scheme instead"
            else:
                hint = 'use a registered scheme such as "Bearer" or "Basic"'
            report.add(
                HTTP_SCHEME_UNKNOWN,
                pointer,
                f"HTTP authentication scheme {quote(value)} is not in the IANA registry, so clients will not know "
                f"how to send it: {hint}",
            )


# -- URLs, media types, versions, interfaces ----------------------------------------------------------------------


def _interface_pointers(card: AgentCard, interface: AgentInterface) -> tuple[str, str | None, str]:
    """Pointers of an interface's url, binding (None when defaulted) and protocol version."""
    if interface.pointer == "/url":  # v0.3: the card-level url + preferredTransport
        binding = "/preferredTransport" if _resolve(card, "/preferredTransport") is not MISSING else None
        return "/url", binding, "/protocolVersion"
    binding_pointer = _member(card, interface.pointer, "protocolBinding", "transport")
    version = _member(card, interface.pointer, "protocolVersion") if card.era == "1.0" else "/protocolVersion"
    return _member(card, interface.pointer, "url"), binding_pointer, version


ICON_URL = "icon URL"
JKU_URL = '"jku" (JWK set URL) of the signature'
"""The ``what`` of ``url_members`` for the icon and a signature's ``jku``: the URLs that are not links."""


def url_members(card: AgentCard) -> Iterator[tuple[str, str, str, bool]]:
    """``(pointer, value, what, required)`` for every http(s) URL field of the card (not interfaces)."""
    if card.provider is not None and card.provider.url is not None:
        yield _member(card, card.provider.pointer, "url"), card.provider.url, "provider URL", True
    if card.documentation_url is not None:
        yield _member(card, "", "documentationUrl"), card.documentation_url, "documentation URL", False
    if card.icon_url is not None:
        yield _member(card, "", "iconUrl"), card.icon_url, ICON_URL, False
    for scheme in card.security_schemes.values():
        if isinstance(scheme, OAuth2SecurityScheme):
            if scheme.oauth2_metadata_url is not None:
                pointer = _member(card, scheme.pointer, "oauth2MetadataUrl")
                yield pointer, scheme.oauth2_metadata_url, "OAuth2 metadata URL", False
            for flow in scheme.flows:
                for key, value in (
                    ("authorizationUrl", flow.authorization_url),
                    ("tokenUrl", flow.token_url),
                    ("refreshUrl", flow.refresh_url),
                    ("deviceAuthorizationUrl", flow.device_authorization_url),
                ):
                    if value is not None:
                        yield _member(card, flow.pointer, key), value, key, key != "refreshUrl"
        elif isinstance(scheme, OpenIdConnectSecurityScheme) and scheme.open_id_connect_url is not None:
            pointer = _member(card, scheme.pointer, "openIdConnectUrl")
            yield pointer, scheme.open_id_connect_url, "OpenID Connect discovery URL", True
    for signature in card.signatures:
        jku = (signature.protected_header or {}).get("jku")
        if isinstance(jku, str):
            yield _member(card, signature.pointer, "protected"), jku, JKU_URL, True


def _empty_optional(report: Report, pointer: str, what: str) -> None:
    report.add(EMPTY_VALUE, pointer, f"the {what} is empty; omit the member or give a value")


def url_fields(card: AgentCard, report: Report, limits: Limits) -> None:
    """Every URL field is an absolute http(s) URL (gRPC interfaces may be ``host:port``), https outside localhost."""
    for interface in card.interfaces:
        if interface.url is None or not interface.url.strip():
            continue  # required-missing / required-empty already said so
        pointer, _, _ = _interface_pointers(card, interface)
        binding = canonical_binding(interface.protocol_binding)
        custom = (
            binding is None and _URI_BINDING.match((interface.protocol_binding or "").strip()) is not None
        )
        _add(
            report,
            pointer,
            check_custom_binding_url(interface.url)
            if custom
            else check_url(interface.url, what="interface URL", grpc=binding == "GRPC"),
        )
    for pointer, value, what, required in url_members(card):
        if not value.strip():
            if not required:
                _empty_optional(report, pointer, what)
            continue
        _add(
            report,
            pointer,
            check_url(value, what=what, schemes=ICON_SCHEMES if what == ICON_URL else WEB_SCHEMES),
        )
    for extension in card.capabilities.extensions:
        if extension.uri is None:
            continue
        pointer = _member(card, extension.pointer, "uri")
        if not extension.uri.strip():
            if card.era == "1.0":
                _empty_optional(report, pointer, "extension URI")
            continue
        _add(report, pointer, check_uri(extension.uri, what="extension URI"))


def blank_tags(card: AgentCard, report: Report, limits: Limits) -> None:
    """A tag that is empty (or only spaces) names nothing: pages and the home filter leave it out."""
    for skill in card.skills:
        if all(tag.strip() for tag in skill.tags):
            continue
        for pointer, tag in _string_pointers(card, _member(card, skill.pointer, "tags"), skill.tags):
            if not tag.strip():
                _empty_optional(report, pointer, "tag")


_MAX_LISTED = 10
"""Unknown members of one object named in its finding; the rest are counted."""
_URI_BINDING = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
"""A custom binding named by a URI (spec section 5.8): the core names have no colon."""


def _valid_and_distinct(modes: Sequence[str]) -> bool:
    """True when every mode is a media type and none is listed twice (compared as ``media_types`` does)."""
    distinct = len({mode.strip().lower() for mode in modes}) == len(modes)
    return distinct and all(check_media_type(mode) is None for mode in modes)


def media_types(card: AgentCard, report: Report, limits: Limits) -> None:
    """Input and output modes are media types (``type/subtype``), each listed once."""
    lists = [
        (_member(card, "", "defaultInputModes"), card.default_input_modes),
        (_member(card, "", "defaultOutputModes"), card.default_output_modes),
    ]
    for skill in card.skills:
        for modes in (skill.effective_input_modes, skill.effective_output_modes):
            if modes.origin == "skill":
                lists.append((modes.pointer, modes.modes))
    for list_pointer, modes_list in lists:
        if _valid_and_distinct(modes_list):
            continue  # nothing to report, so no pointer to find
        seen: set[str] = set()
        for pointer, mode in _string_pointers(card, list_pointer, modes_list):
            _add(report, pointer, check_media_type(mode))
            key = mode.strip().lower()
            if key in seen:
                report.add(
                    DUPLICATE_MEDIA_TYPE, pointer, f"media type {quote(mode)} is listed twice; remove one"
                )
            seen.add(key)


def example_modes(card: AgentCard, report: Report, limits: Limits) -> None:
    """An example the skill's input modes do not accept: a client that sends it is refused (A2A
    ContentTypeNotSupportedError), and a reader learns the wrong way to call the skill."""
    for skill in card.skills:
        modes = skill.effective_input_modes
        for example in skill.examples:
            fit = example_fit(example, modes.modes)
            if fit is None:
                continue
            where = "its own" if modes.origin == "skill" else 'the card\'s "defaultInputModes"'
            listed = ", ".join(quote(m) for m in modes.modes[:5])
            if fit == "text-not-accepted":
                problem = "this example is text, but the skill accepts no text/* type"
                fix = 'add "text/plain" to the input modes, or write the example in a form the skill accepts'
            else:
                problem = "this example is a JSON document, but the skill accepts neither JSON nor text"
                fix = 'add "application/json" to the input modes, or write the example in a form the skill accepts'
            report.add(
                EXAMPLE_MODE_MISMATCH,
                example.pointer,
                f"{problem} (input modes: {where}, {listed}): {fix}",
            )


def protocol_versions(card: AgentCard, report: Report, limits: Limits) -> None:
    """v1.0 interfaces carry ``Major.Minor``; a v0.x card-level ``protocolVersion`` may add a patch."""
    if card.era != "1.0":
        declared = _resolve(card, "/protocolVersion")
        if isinstance(declared, str) and declared.strip():
            _add(report, "/protocolVersion", check_protocol_version(declared, allow_patch=True))
            _era_mismatch(card, report, declared)
        return
    for interface in card.interfaces:
        version = interface.protocol_version
        if version is None or not version.strip():
            continue
        _, _, pointer = _interface_pointers(card, interface)
        _add(report, pointer, check_protocol_version(version, allow_patch=False))


def _era_mismatch(card: AgentCard, report: Report, declared: str) -> None:
    """A card in the v0.3 shape that announces 1.0: clients that read v0.3 cards (the official SDK among them)
    map ``url`` to an interface serving the announced version, and talk A2A 1.0 to an agent whose card says
    otherwise everywhere else."""
    version = major_minor(declared)
    if version is None or version < (1, 0):
        return
    if "url" in card.source.raw:
        shape = '("url", no "supportedInterfaces"); v1.0 clients such as the official SDK then talk A2A 1.0 to its '
        shape += (
            '"url": if the agent serves A2A 0.3, write "protocolVersion": "0.3.0"; if it serves 1.0, write'
        )
    else:  # nothing to talk to at all: the fix is the v1.0 interfaces, never a v0.3 "url"
        shape = '(no "supportedInterfaces", and no "url" either), so no client finds an interface: write'
    report.add(
        ERA_MISMATCH,
        "/protocolVersion",
        f"the card announces protocol version {quote(declared)} but is written in the v0.3 shape {shape} "
        'the card in the v1.0 shape, with "supportedInterfaces" (a2a-docgen convert --to 1.0 does it)',
    )


def interfaces(card: AgentCard, report: Report, limits: Limits) -> None:
    """Bindings are core names or URIs; one (url, binding) pair is declared once."""
    seen: dict[tuple[str, str], str] = {}
    for interface in card.interfaces:
        _, binding_pointer, _ = _interface_pointers(card, interface)
        binding = interface.protocol_binding
        if binding is not None and binding.strip() and binding_pointer is not None:
            _add(report, binding_pointer, check_binding(binding))
        if interface.url is None or binding is None:
            continue
        key = (interface.url.strip(), binding.strip().upper())
        if key in seen:
            report.add(
                DUPLICATE_INTERFACE,
                interface.pointer,
                f"interface {quote(interface.url)} with binding {quote(binding)} is already declared at {seen[key]}; "
                "remove the repeat",
            )
        else:
            seen[key] = interface.pointer


# -- unknown members ------------------------------------------------------------------------------------------------

_INTERFACE_KEYS = ("url", "protocolBinding", "protocolVersion", "tenant")
_SCHEME_KEYS = {
    "apiKey": ("description", "location", "name"),
    "http": ("description", "scheme", "bearerFormat"),
    "oauth2": ("description", "flows", "oauth2MetadataUrl"),
    "openIdConnect": ("description", "openIdConnectUrl"),
    "mutualTLS": ("description",),
    "unknown": ("description",),
}


def extra_members(card: AgentCard) -> Iterator[tuple[str, str, Sequence[str], str]]:
    """``(object pointer, unknown member, members it may have meant, what the object is)``."""
    card_keys = CARD_KEYS_V1 if card.era == "1.0" else CARD_KEYS_V1 + CARD_KEYS_LEGACY
    yield from (("", key, card_keys, "the card") for key in card.extra)
    if card.provider is not None:
        yield from (
            (card.provider.pointer, k, ("organization", "url"), "the provider") for k in card.provider.extra
        )
    for interface in card.interfaces:
        yield from ((interface.pointer, k, _INTERFACE_KEYS, "an interface") for k in interface.extra)
    capabilities = card.capabilities
    capability_keys = ("streaming", "pushNotifications", "extendedAgentCard", "extensions")
    for key in capabilities.extra:
        if key != "stateTransitionHistory":
            yield capabilities.pointer, key, capability_keys, "the capabilities"
    for extension in capabilities.extensions:
        extension_keys = ("uri", "description", "required", "params")
        yield from ((extension.pointer, k, extension_keys, "an extension") for k in extension.extra)
    for scheme in card.security_schemes.values():
        yield from ((scheme.pointer, k, _SCHEME_KEYS[scheme.kind], "a security scheme") for k in scheme.extra)
        if isinstance(scheme, OAuth2SecurityScheme):
            for flow in scheme.flows:
                yield from ((flow.pointer, k, FLOW_KEYS, "an OAuth flow") for k in flow.extra)
    for skill in card.skills:
        yield from ((skill.pointer, k, SKILL_KEYS, "a skill") for k in skill.extra)
    for signature in card.signatures:
        keys = ("protected", "signature", "header")
        yield from ((signature.pointer, k, keys, "a signature") for k in signature.extra)


_MISPLACED = {
    ("", "supportsExtendedAgentCard"): ' (an extended card is declared as "capabilities.extendedAgentCard")',
    ("", "extendedAgentCard"): ' (it belongs in "capabilities")',
    ("", "streaming"): ' (it belongs in "capabilities")',
    ("", "pushNotifications"): ' (it belongs in "capabilities")',
    ("", "extensions"): ' (extensions are declared in "capabilities.extensions")',
    ("", "securityRequirement"): ' (did you mean "securityRequirements"?)',
}


def unknown_fields(card: AgentCard, report: Report, limits: Limits) -> None:
    """Members no version of the spec defines: clients ignore them, so they are usually typos. One finding per
    object, at its first such member, lists them all (vendor members come in numbers)."""
    members_named: dict[tuple[str, ...], Suggestions] = {}
    grouped: dict[str, tuple[str, str, list[str]]] = {}  # object -> (what it is, first member, members named)
    for base, key, candidates, what in extra_members(card):
        named = members_named.get(tuple(candidates))
        if named is None:  # one per kind of object, so the card's budget of comparisons holds for each
            named = members_named[tuple(candidates)] = Suggestions(candidates)
        hint = _MISPLACED.get((base, key)) or named.hint(key)
        grouped.setdefault(base, (what, key, []))[2].append(quote(key) + hint)
    for base, (what, first, names) in grouped.items():
        pointer = join_pointer(base, first)
        if len(names) == 1:
            message = f"{what} has no member {names[0]}; clients ignore it: fix the name or remove it"
        else:
            shown = ", ".join(names[:_MAX_LISTED]) + (
                f" and {len(names) - _MAX_LISTED} more" if len(names) > _MAX_LISTED else ""
            )
            message = (
                f"{what} has {len(names)} members no version of the spec defines: {shown}; clients ignore them: "
                'fix the names or remove them (data of an extension belongs in its "params")'
            )
        report.add(UNKNOWN_FIELD, pointer, message, at_key=True)
    # A v1.0 scheme object holds exactly its one wrapper member.
    for scheme in card.security_schemes.values():
        parent, _, last = scheme.pointer.rpartition("/")
        outer = _resolve(card, parent) if last in SCHEME_WRAPPERS else None
        if isinstance(outer, dict):
            for key in sorted(k for k in outer if k != last):
                report.add(
                    UNKNOWN_FIELD,
                    join_pointer(parent, key),
                    f'a v1.0 security scheme holds only its "{last}" member; move {quote(key)} inside it or '
                    "remove it",
                    at_key=True,
                )
    if card.era == "1.0" and "stateTransitionHistory" in card.capabilities.extra:
        report.add(
            LEGACY_FIELD,
            join_pointer(card.capabilities.pointer, "stateTransitionHistory"),
            '"stateTransitionHistory" was removed in v1.0 and clients ignore it: remove it',
            at_key=True,
        )


# -- deceptive text -----------------------------------------------------------------------------------------------------


def _tag_pointer(card: AgentCard, skill: AgentSkill, index: int) -> str:
    pointers = _string_pointers(card, _member(card, skill.pointer, "tags"), skill.tags)
    return pointers[index][0] if index < len(pointers) else join_pointer(skill.pointer, "tags", index)


def _joined(base: Callable[[], str], token: str) -> str:
    return join_pointer(base(), token)


def _text_fields(card: AgentCard) -> Iterator[tuple[Callable[[], str], str, str, bool]]:
    """``(pointer, label, value, is a member name)`` of every text a reader sees; ``pointer`` is called only for
    a finding (locating a member in the raw JSON costs more than checking the text).

    Names, ids, tags, descriptions and examples, and the member names shown as text: security scheme names
    and scope names.
    """
    for key, value in (("name", card.name), ("description", card.description), ("version", card.version)):
        if value is not None:
            yield partial(_member, card, "", key), key, value, False
    if card.provider is not None and card.provider.organization is not None:
        organization = card.provider.organization
        yield (
            partial(_member, card, card.provider.pointer, "organization"),
            "organization",
            organization,
            False,
        )
    for extension in card.capabilities.extensions:
        if extension.description is not None:
            description = extension.description
            yield partial(_member, card, extension.pointer, "description"), "description", description, False
    schemes_pointer = partial(_member, card, "", "securitySchemes")
    for name, scheme in card.security_schemes.items():
        if not card.security_requirements_pointer.startswith("/authentication"):
            yield partial(_joined, schemes_pointer, name), "security scheme name", name, True
        if scheme.description is not None:
            yield (
                partial(_member, card, scheme.pointer, "description"),
                "description",
                scheme.description,
                False,
            )
        if isinstance(scheme, OAuth2SecurityScheme):
            for flow in scheme.flows:
                scopes = partial(_member, card, flow.pointer, "scopes")
                for scope, text in flow.scopes.items():
                    pointer = partial(_joined, scopes, scope)
                    yield pointer, "scope name", scope, True
                    yield pointer, f"description of scope {quote(scope)}", text, False
    for skill in card.skills:
        for key, value in (("id", skill.id), ("name", skill.name), ("description", skill.description)):
            if value is not None:
                yield partial(_member, card, skill.pointer, key), key, value, False
        for index, tag in enumerate(skill.tags):
            yield partial(_tag_pointer, card, skill, index), "tag", tag, False
        for example in skill.examples:
            yield partial(str, example.pointer), "example", example.text, False


def deceptive_text(card: AgentCard, report: Report, limits: Limits) -> None:
    """Invisible or bidi characters, and sentences addressed to a model reading the card."""
    fields = list(_text_fields(card))
    # Most texts are plain ASCII: one scan of them all proves that none has a finding.
    skip_ascii = plain_ascii([value for _, _, value, _ in fields if value.isascii()])
    for locate, label, value, at_key in fields:
        if skip_ascii and value.isascii():
            continue
        found = invisible_characters(value)
        if found:
            names = list(dict.fromkeys(name for _, name in found))
            shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            report.add(
                INVISIBLE_CHARACTERS,
                locate(),
                f"the {label} contains {len(found)} invisible or text-reordering character(s) ({shown}, first at "
                f"character {found[0][0] + 1}); they can make the text read differently from what it is: remove them",
                at_key=at_key,
            )
        phrases = suspicious_phrases(value)
        if phrases:
            report.add(
                SUSPICIOUS_INSTRUCTIONS,
                locate(),
                f"the {label} contains instructions aimed at a model reading the card "
                f"({', '.join(quote(p) for p in phrases[:3])}); describe the agent to people instead",
                at_key=at_key,
            )


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def lone_surrogates(card: AgentCard, report: Report, limits: Limits) -> None:
    """``"\\ud800"`` is valid JSON but not text: it cannot be written as UTF-8, and pages drop it."""
    if not _SURROGATE_ESCAPE.search(card.source.text):
        return  # strict UTF-8 text has no surrogate: one can only come from a \u escape
    # Paths are kept as token tuples and joined into a pointer only for a finding: most cards have none.
    stack: list[tuple[tuple[str | int, ...], object]] = [((), card.source.raw)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if _SURROGATE.search(key):
                    child = join_pointer("", *path, key)
                    report.add(INVALID_UNICODE, child, _surrogate_message("member name", key), at_key=True)
                stack.append(((*path, key), item))
        elif isinstance(value, list):
            stack.extend(((*path, i), item) for i, item in enumerate(value))
        elif isinstance(value, str) and _SURROGATE.search(value):
            report.add(INVALID_UNICODE, join_pointer("", *path), _surrogate_message("string", value))


def _surrogate_message(what: str, value: str) -> str:
    match = _SURROGATE.search(value)
    assert match is not None
    return (
        f"the {what} contains a lone surrogate (\\u{ord(match.group()):04x}), which is not a character and "
        "cannot be written as UTF-8; it is left out of the pages: remove it or escape a whole surrogate pair"
    )


_SHOWN_PREPROCESSOR = 20
"""At most this many ``preprocessor-syntax`` findings a card, then one that counts the rest."""


def preprocessor_text(card: AgentCard, report: Report, limits: Limits) -> None:
    """Every string of the card, member names included, that Markdown preprocessors would read as their own
    syntax (``text.preprocessor``): pages show it as text, but a generated request carrying it is left out."""
    if "{" not in card.source.text and "8<" not in card.source.text and "\\u0000" not in card.source.text:
        return  # one scan of the file proves that no string has any
    found: list[tuple[tuple[str | int, ...], str, bool]] = []
    stack: list[tuple[JSONValue, tuple[str | int, ...]]] = [(card.source.raw, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key, item in reversed(value.items()):
                if (fragment := preprocessor_syntax(key)) is not None:
                    found.append(((*path, key), fragment, True))
                stack.append((item, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, (*path, index)) for index, item in reversed(list(enumerate(value))))
        elif isinstance(value, str) and (fragment := preprocessor_syntax(value)) is not None:
            found.append((path, fragment, False))
    for path, fragment, at_key in found[:_SHOWN_PREPROCESSOR]:
        pointer = join_pointer("", *path)
        what = "member name" if at_key else "text"
        report.add(
            PREPROCESSOR_SYNTAX,
            pointer,
            f"this {what} holds {quote(fragment)}, which Markdown preprocessors (Jinja, mkdocs-macros, Zensical, "
            "snippets) read as their own syntax: pages show it as text, and a generated request that would carry "
            "it is left out",
            at_key=at_key,
        )
    if len(found) > _SHOWN_PREPROCESSOR:
        report.add(
            PREPROCESSOR_SYNTAX,
            "",
            f"{len(found) - _SHOWN_PREPROCESSOR} more strings of this card hold Markdown preprocessor syntax",
        )


CARD_RULES: tuple[Rule, ...] = (
    duplicate_skill_ids,
    security_references,
    unused_schemes,
    oauth_flows,
    scheme_fields,
    url_fields,
    blank_tags,
    media_types,
    example_modes,
    protocol_versions,
    interfaces,
    unknown_fields,
    deceptive_text,
    lone_surrogates,
    preprocessor_text,
)


# -- across cards ---------------------------------------------------------------------------------------------------


def _reader_name(name: str | None) -> str:
    """An agent name as a reader tells names apart: invisible characters, outer spaces and case ignored."""
    return identity(name or "").strip().casefold()


def slug_clashes(cards: Sequence[AgentCard]) -> list[Diagnostic]:
    """A warning for every card whose page slug, or a skill's anchor, clashed with another's (``a2a_docgen.slugs``:
    distinct names or ids that read alike): the renderer gives every member of a clash a hashed slug instead of
    the readable one. Names that differ only in case or spacing are left to ``duplicate-agent-name``."""
    result = []
    found = agent_slugs(cards)
    for group in found.clashes:
        if len({_reader_name(cards[index].name) for index in group}) == 1:
            continue
        for index in group:
            card = cards[index]
            others = ", ".join(cards[i].source.key for i in group if i != index)  # published: never as typed
            line, column = PositionIndex.build(card.source.text).locate("/name")
            result.append(
                diagnostic(
                    SLUG_CLASH,
                    f"the page address of agent {quote(card.name)} clashed with that of {others}; neither keeps it: "
                    f"the page is at agents/{found.slugs[index]}/",
                    file=card.source.path,
                    line=line,
                    column=column,
                    pointer="/name",
                )
            )
    for card in cards:
        anchors, skill_clashes = skill_anchor_clashes(card.skills)
        for group in skill_clashes:
            for index in group:
                skill = card.skills[index]
                line, column = PositionIndex.build(card.source.text).locate(f"{skill.pointer}/id")
                result.append(
                    diagnostic(
                        SLUG_CLASH,
                        f"the anchor of skill {quote(skill.id)} clashed with that of another skill of this card; "
                        f"neither keeps it: the skill is at #{anchors[index]}",
                        file=card.source.path,
                        line=line,
                        column=column,
                        pointer=f"{skill.pointer}/id",
                    )
                )
    return result


def limited_tag_pages(cards: Sequence[AgentCard]) -> list[Diagnostic]:
    """A warning for every card with more tags of its own than get a page (``slugs.paged_tags``), at the tags of
    the skill whose tag is the first without one."""
    result = []
    for beyond in paged_tags(cards)[1]:
        card = cards[beyond.card]
        line, column = PositionIndex.build(card.source.text).locate(beyond.pointer)
        result.append(
            diagnostic(
                TAG_PAGES_LIMITED,
                f"this card carries {beyond.own} tags that no other card has; the first {MAX_OWN_TAG_PAGES} have a "
                f"page each, the other {beyond.own - MAX_OWN_TAG_PAGES} (from here on) are listed on the Tags "
                "index, with their skills, without a page of their own",
                file=card.source.path,
                line=line,
                column=column,
                pointer=beyond.pointer,
            )
        )
    return result


def catalog_rules(cards: Sequence[AgentCard]) -> list[Diagnostic]:
    """Agent names should be unique in a catalogue (compared as a reader sees them, ignoring case), their
    page addresses never clash unnoticed (``slug_clashes``), and tags left without a page are said
    (``limited_tag_pages``)."""
    by_name: dict[str, AgentCard] = {}
    result = [*slug_clashes(cards), *limited_tag_pages(cards)]
    for card in sorted(cards, key=lambda c: c.source.key):
        if card.name is None:
            continue
        key = _reader_name(card.name)
        if key in by_name:
            line, column = PositionIndex.build(card.source.text).locate("/name")
            result.append(
                diagnostic(
                    DUPLICATE_AGENT_NAME,
                    f"agent name {quote(card.name)} is also used by {by_name[key].source.key}; the spec does not "
                    "forbid it (diff tells such agents apart by interface URL), but readers of the catalogue and "
                    "registries keyed by name cannot: give each agent its own name",
                    file=card.source.path,
                    line=line,
                    column=column,
                    pointer="/name",
                )
            )
        else:
            by_name[key] = card
    return result
