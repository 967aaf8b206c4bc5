"""Every diagnostic code: its severity, what it means in one line, and where docs/diagnostics.md explains it.

A diagnostic is made from one of the constants below (``report.add(REQUIRED_MISSING, pointer, message)``), so
a code that is not registered here cannot be reported at all: importing the module that names it fails, in
every test. A code has one severity, which callers do not repeat; only a code registered with several (such
as ``protocol-version-format``) is given its severity where it is reported. ``tests/test_diagnostics.py``
checks this registry against the headings of docs/diagnostics.md (``### `code` (severity)``).
"""

from __future__ import annotations

from dataclasses import dataclass

from a2a_docgen.model import Diagnostic, Severity

__all__ = ["CODES", "DOCS", "Code", "diagnostic"]

DOCS = "docs/diagnostics.md"
"""The document that explains each code, with an example and the fix."""


@dataclass(frozen=True, slots=True)
class Code:
    """One diagnostic code."""

    name: str
    """Stable, kebab-case: ``required-missing``. Codes never change meaning."""
    severities: tuple[Severity, ...]
    """The severities it is reported with; nearly always one."""
    summary: str
    """What it means, in one line."""

    @property
    def severity(self) -> Severity:
        """The severity of a code that has one; a code with several has none of its own."""
        if len(self.severities) != 1:
            raise ValueError(f"{self.name} is reported as {' or '.join(self.severities)}: give the severity")
        return self.severities[0]

    def resolve(self, severity: Severity | None = None) -> Severity:
        """``severity`` checked against the registry, or the code's own when it is ``None``."""
        if severity is None:
            return self.severity
        if severity not in self.severities:
            raise ValueError(f"{self.name} is never reported as {severity}")
        return severity

    @property
    def anchor(self) -> str:
        """The id of the code's heading in ``DOCS`` (``file-too-large-error``)."""
        return f"{self.name}-{'-or-'.join(self.severities)}"


def diagnostic(
    code: Code,
    message: str,
    *,
    file: str,
    line: int = 1,
    column: int = 1,
    pointer: str = "",
    severity: Severity | None = None,
) -> Diagnostic:
    """A located diagnostic of ``code`` (by default about the whole file: line 1, column 1, pointer ``""``)."""
    return Diagnostic(
        severity=code.resolve(severity),
        code=code.name,
        message=message,
        file=file,
        line=line,
        column=column,
        pointer=pointer,
    )


CODES: dict[str, Code] = {}
"""Every code by name, in the order of ``DOCS``."""

_ERROR: tuple[Severity, ...] = ("error",)
_WARNING: tuple[Severity, ...] = ("warning",)
_HINT: tuple[Severity, ...] = ("hint",)


def _register(name: str, severities: tuple[Severity, ...], summary: str) -> Code:
    if name in CODES:
        raise ValueError(f"diagnostic code {name} is registered twice")
    CODES[name] = code = Code(name, severities, summary)
    return code


# -- reading the file ----------------------------------------------------------------------------------------

FILE_TOO_LARGE = _register(
    "file-too-large", _ERROR, "the file is larger than --max-file-bytes; it is not read"
)
UNREADABLE = _register("unreadable", _ERROR, "the operating system refused to read the file")
SYMLINK_OUTSIDE = _register(
    "symlink-outside", _ERROR, "a symbolic link leads outside the scanned directory; it is not followed"
)
ENCODING = _register("encoding", _ERROR, "the file is not UTF-8 (UTF-16, UTF-32 or invalid bytes)")
UTF8_BOM = _register("utf8-bom", _WARNING, "the file starts with a UTF-8 byte order mark")
EMPTY_FILE = _register("empty-file", _ERROR, "the file is empty or only whitespace")
JSON_SYNTAX = _register("json-syntax", _ERROR, "the file is not valid JSON")
DUPLICATE_KEY = _register("duplicate-key", _ERROR, "a member name appears twice in one object")
TOO_DEEP = _register("too-deep", _ERROR, "the JSON nests deeper than --max-depth levels")
TOO_MANY_VALUES = _register("too-many-values", _ERROR, "the document has more than --max-nodes JSON values")
NOT_AN_OBJECT = _register("not-an-object", _ERROR, "the top level is not a JSON object")
NOT_A_CARD = _register("not-a-card", _ERROR, "the card has no usable name, so it is excluded")
CHECKING_STOPPED = _register(
    "checking-stopped", _ERROR, "checking ran out of time (fetch --timeout); the rules after it did not run"
)

# -- structure ------------------------------------------------------------------------------------------------

REQUIRED_MISSING = _register("required-missing", _ERROR, "a required member is absent or null")
REQUIRED_EMPTY = _register(
    "required-empty", _ERROR, "a required string is empty or a required array has no element"
)
WRONG_TYPE = _register("wrong-type", _ERROR, "a value has the wrong JSON type (values are never coerced)")
NULL_VALUE = _register("null-value", _WARNING, "an optional member is null")
SNAKE_CASE_NAME = _register(
    "snake-case-name", _WARNING, "a member uses the proto field name instead of camelCase"
)
MEMBER_ALIAS = _register(
    "member-alias", _ERROR, "two members name one field (its JSON name and its proto name, or a v0.3 mapping)"
)
UNKNOWN_FIELD = _register(
    "unknown-field", _WARNING, "a member no version of the spec defines (clients ignore it)"
)
LEGACY_FIELD = _register("legacy-field", _WARNING, "a member or shape of another version of the spec")
LIMIT_EXCEEDED = _register("limit-exceeded", _ERROR, "a string or list is longer than a limit (--max-...)")
EMPTY_OVERRIDE = _register(
    "empty-override", _WARNING, "a skill's inputModes or outputModes is [] (it inherits)"
)
EMPTY_VALUE = _register("empty-value", _WARNING, "an optional URL, or a tag, is an empty string")
PREPROCESSOR_SYNTAX = _register(
    "preprocessor-syntax",
    _WARNING,
    "card text holds syntax Markdown preprocessors read (template openers, snippets markers, NUL)",
)
EXAMPLE_JSON_INVALID = _register(
    "example-json-invalid", _WARNING, "an example starts like JSON but does not parse; it is shown as text"
)
EXAMPLE_MODE_MISMATCH = _register(
    "example-mode-mismatch", _WARNING, "an example is text or JSON that the skill's input modes do not accept"
)

# -- security ---------------------------------------------------------------------------------------------------

SCHEME_UNKNOWN_TYPE = _register(
    "scheme-unknown-type", _ERROR, "a security scheme declares no kind, or an unknown one"
)
SCHEME_AMBIGUOUS = _register("scheme-ambiguous", _ERROR, "a v1.0 security scheme has several kinds")
REQUIREMENT_SHAPE = _register(
    "requirement-shape", _ERROR, "a v1.0 card writes a security requirement in the v0.3 shape"
)
UNDECLARED_SCHEME = _register(
    "undeclared-scheme", _ERROR, "a security requirement names an undeclared scheme"
)
UNDECLARED_SCOPE = _register(
    "undeclared-scope", _ERROR, "a requirement asks an OAuth2 scheme for an undeclared scope"
)
NON_OAUTH_SCOPES = _register(
    "non-oauth-scopes", _WARNING, "a requirement lists scopes for a scheme that is neither OAuth2 nor OpenID"
)
SCHEME_UNUSED = _register(
    "scheme-unused",
    _WARNING,
    "a security scheme is declared but no requirement of the card or a skill uses it",
)
OAUTH_FLOW_DEPRECATED = _register(
    "oauth-flow-deprecated", _WARNING, "an OAuth2 scheme uses the implicit or password flow"
)
OAUTH_MULTIPLE_FLOWS = _register(
    "oauth-multiple-flows", _ERROR, "a v1.0 OAuth2 scheme declares more than one flow"
)
OAUTH_FLOW_UNKNOWN = _register("oauth-flow-unknown", _ERROR, "flows has a member that is not a flow")
APIKEY_LOCATION_INVALID = _register(
    "apikey-location-invalid", _ERROR, "an API key's location is not header, query or cookie"
)
HTTP_SCHEME_UNKNOWN = _register(
    "http-scheme-unknown", _WARNING, "an HTTP authentication scheme is not in the IANA registry"
)
SIGNATURE_HEADER_INVALID = _register(
    "signature-header-invalid", _WARNING, "a signature's protected header is not base64url-encoded JSON"
)
SIGNATURE_HEADER_INCOMPLETE = _register(
    "signature-header-incomplete", _WARNING, "a signature's protected header lacks alg or kid"
)

# -- signature verification (when keys or --require-signature are given; docs/signing.md) ------------------------

SIGNATURE_INVALID = _register(
    "signature-invalid",
    _ERROR,
    "a signature does not verify with the key its kid names (tampered or wrong key)",
)
SIGNATURE_UNTRUSTED = _register(
    "signature-untrusted", _WARNING, "a signature is valid, but its key is not trusted for this agent"
)
SIGNATURE_UNANCHORED = _register(
    "signature-unanchored",
    _WARNING,
    "a signature is valid only with a key its own jku names, which nothing outside the card vouches for",
)
SIGNATURE_UNKNOWN_KEY = _register("signature-unknown-key", _WARNING, "no key with a signature's kid is known")
SIGNATURE_UNSUPPORTED_ALGORITHM = _register(
    "signature-unsupported-algorithm",
    ("error", "warning"),
    "a signature's alg is not on the allow-list (an error for none and HMAC, which are never signatures)",
)
SIGNATURE_MALFORMED = _register("signature-malformed", _ERROR, "a signature is not a JWS that can be checked")
SIGNATURE_UNCOVERED = _register(
    "signature-uncovered", _WARNING, "the verified signature does not cover some members of the card"
)
SIGNATURE_VERIFIED = _register(
    "signature-verified", _HINT, "check --jwks: a signature verified with a trusted key (not a problem)"
)
SIGNATURE_REQUIRED = _register(
    "signature-required", _ERROR, "--require-signature: the card has no signature that verifies"
)

# -- formats ----------------------------------------------------------------------------------------------------

URL_INVALID = _register(
    "url-invalid", _ERROR, "a URL field is not an absolute URL of a scheme its field allows (or a URI)"
)
URL_PLACEHOLDER = _register(
    "url-placeholder", _WARNING, "a valid URL has a part that looks like a placeholder never filled in"
)
URL_NOT_HTTPS = _register("url-not-https", _WARNING, "a URL uses plain http for a host that is not local")
URL_NOT_WEB = _register(
    "url-not-web",
    _WARNING,
    "the URL of an interface with a custom binding is a URI of no web scheme (mailto:)",
)
MEDIA_TYPE_INVALID = _register(
    "media-type-invalid",
    _WARNING,
    'an input or output mode is not a media type ("text", "task-status"): clients cannot match it',
)
DUPLICATE_MEDIA_TYPE = _register("duplicate-media-type", _WARNING, "a media type appears twice in one list")
PROTOCOL_VERSION_FORMAT = _register(
    "protocol-version-format",
    ("error", "warning"),
    "a protocol version is not Major.Minor (a warning when only a patch number is added)",
)
ERA_MISMATCH = _register(
    "era-mismatch", _WARNING, "a card in the v0.3 shape announces A2A 1.0 or later as its protocol version"
)
BINDING_UNKNOWN = _register(
    "binding-unknown", _WARNING, "an interface binding is not a core binding nor a URI"
)
DUPLICATE_INTERFACE = _register(
    "duplicate-interface", _WARNING, "two interfaces declare the same URL and binding"
)

# -- identity and deceptive text ----------------------------------------------------------------------------------

DUPLICATE_SKILL_ID = _register(
    "duplicate-skill-id", _ERROR, "two skills of one card have ids a reader cannot tell apart"
)
SKILL_ID_CASE_TWIN = _register("skill-id-case-twin", _WARNING, "two skill ids differ only by letter case")
SLUG_CLASH = _register(
    "slug-clash",
    _WARNING,
    "two agents' names (or two skill ids of one card) gave one page address; both get a longer one",
)
TAG_PAGES_LIMITED = _register(
    "tag-pages-limited",
    _WARNING,
    "a card carries more tags of its own than get a page; the rest are listed on the Tags index only",
)
DUPLICATE_AGENT_NAME = _register(
    "duplicate-agent-name", _WARNING, "two cards of one catalogue have the same agent name"
)
INVISIBLE_CHARACTERS = _register(
    "invisible-characters", _WARNING, "card text holds characters that do not show or that reorder text"
)
INVALID_UNICODE = _register("invalid-unicode", _ERROR, "a string or member name holds a lone surrogate")
SUSPICIOUS_INSTRUCTIONS = _register(
    "suspicious-instructions", _WARNING, "card text holds an instruction aimed at a model reading the card"
)

# -- quality: the grade (a2a_docgen.quality) ---------------------------------------------------------------------

SKILL_NO_EXAMPLES = _register("skill-no-examples", _HINT, "a skill has no example prompt")
SKILL_DESCRIPTION_THIN = _register(
    "skill-description-thin", _HINT, "a skill's description is too short to tell what it does"
)
SKILL_DESCRIPTION_DUPLICATE = _register(
    "skill-description-duplicate", _HINT, "two skills of one card have (nearly) the same description"
)
SKILL_FEW_TAGS = _register("skill-few-tags", _HINT, "a skill has a single tag")
NO_PROVIDER = _register("no-provider", _HINT, "the card names no provider")
NO_DOCUMENTATION_URL = _register("no-documentation-url", _HINT, "the card links to no documentation")
NO_ICON = _register("no-icon", _HINT, "the card has no icon")
INTERFACE_LOCAL = _register(
    "interface-local", _HINT, "an interface is a local address (localhost, loopback, private network)"
)
RESERVED_HOST = _register(
    "reserved-host",
    _HINT,
    "a URL's host is a reserved example name (example.com, .example, .invalid, .test, .localhost)",
)
LEGACY_CARD_PATH = _register(
    "legacy-card-path", _HINT, "fetch found the card only at the legacy path /.well-known/agent.json"
)
CARD_GRADE = _register(
    "card-grade", ("hint", "error"), "the card's grade (an error when it is below --min-grade)"
)

# -- conversion to v1.0 (a2a-docgen convert) -------------------------------------------------------------------------

CONVERT_DROPPED = _register(
    "convert-dropped",
    _WARNING,
    "a member has no v1.0 form or no usable value; the converted card leaves it out",
)
CONVERT_GUESSED = _register(
    "convert-guessed", _WARNING, "the converted card states a value the source card does not: check it"
)
CONVERT_SIGNATURE_STALE = _register(
    "convert-signature-stale",
    _WARNING,
    "a signature signed the source card, so the converted card leaves it out",
)

# -- AI Catalog files (ai-catalog.json; a2a_docgen.load.aicatalog) --------------------------------------------------

CATALOG_INVALID = _register(
    "catalog-invalid",
    _ERROR,
    "an AI Catalog breaks a rule of its format (a required member, a type, url or data)",
)
CATALOG_SPEC_VERSION = _register(
    "catalog-spec-version", _ERROR, "an AI Catalog's specVersion is missing, malformed or of a major not read"
)
CATALOG_DUPLICATE_ENTRY = _register(
    "catalog-duplicate-entry", _ERROR, "two entries of an AI Catalog share one identifier and version"
)
CATALOG_TYPE_ALIAS = _register(
    "catalog-type-alias",
    _WARNING,
    "an entry's type is given only as mediaType, or mediaType differs from type",
)
CATALOG_ARD = _register("catalog-ard", _WARNING, "an AI Catalog breaks a rule ARD's JSON Schema adds")
