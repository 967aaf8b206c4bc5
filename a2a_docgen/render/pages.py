"""View models: what each template gets, prepared from the model so templates only lay out and encode.

Every string that comes from a card reaches a view as ``CardText`` (see ``env``): ``taint`` converts a whole
card before anything else looks at it, and text derived here from card text (a summary) is wrapped again. Paths
and anchors are built from slugs (``[a-z0-9-]``) and are plain ``str``.

Order, so two builds are byte-identical: agents by name, then source path (as ``Catalog`` keeps them); skills in
card order (the author's order is meaningful, and a skill's anchor never depends on it); tags, media types,
bindings and scopes sorted; rows in agent order, then skill order.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from a2a_docgen.model import (
    FORM_LABELS,
    STATUS_LABELS,
    AgentCard,
    AgentCardSignature,
    AgentInterface,
    AgentSkill,
    CardVerification,
    Catalog,
    Diagnostic,
    EffectiveModes,
    EffectiveSecurity,
    Example,
    JSONValue,
    OAuth2SecurityScheme,
    OAuthFlow,
    Origin,
    SecurityRequirement,
    SecurityScheme,
    SignatureCheck,
    card_order,
)
from a2a_docgen.render import paths
from a2a_docgen.render.calling import (
    CallingView,
    DeferredVariants,
    RequestTarget,
    RequestVariant,
    calling_view,
    request_targets,
)
from a2a_docgen.render.changes import AgentChanges, HistoryViews, agent_changes, history_views
from a2a_docgen.render.env import CardText
from a2a_docgen.render.paths import agent_badge_path, agent_card_path, agent_page_path
from a2a_docgen.render.requests import accepts_text, json_media_type, placeholder_content
from a2a_docgen.slugs import agent_slug_clashes, paged_tags, shown_tags, skill_anchor_clashes
from a2a_docgen.text.slug import identity_key, tag_key

if TYPE_CHECKING:
    from a2a_docgen.history.entries import CatalogHistory
    from a2a_docgen.quality import Grade

__all__ = [
    "AgentPage",
    "AgentSkills",
    "SiteViews",
    "agent_slugs",
    "build_views",
    "by_agent",
    "card_order",
    "skill_anchors",
    "taint",
]

T = TypeVar("T")

# Model fields whose values are our own vocabulary, not card text.
_OWN_FIELDS = frozenset({"kind", "era", "origin", "severity", "code"})

ERA_LABELS = {"1.0": "v1.0", "0.3": "v0.3", "0.2": "v0.2"}
KIND_LABELS = {
    "apiKey": "API key",
    "http": "HTTP authentication",
    "oauth2": "OAuth 2.0",
    "openIdConnect": "OpenID Connect",
    "mutualTLS": "Mutual TLS",
    "unknown": "Not an A2A kind",
}
KIND_ORDER = tuple(KIND_LABELS)
FLOW_LABELS = {
    "authorizationCode": "Authorization code",
    "clientCredentials": "Client credentials",
    "deviceCode": "Device code",
    "implicit": "Implicit",
    "password": "Password",
}
SUMMARY_CHARS = 160


def taint(value: T) -> T:
    """A copy of ``value`` (a model object, or any JSON) with every card string as ``CardText``.

    An object reached twice (a card's default media types, shared by the skills that inherit them) is copied
    once and stays shared in the copy; equal strings share one ``CardText`` (fewer objects for the garbage
    collector to walk).
    """
    return cast(T, _taint(value, {}))


_SCALARS = (bool, int, float, type(None))
_TAINTED_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}
_new_object = object.__new__
_set_field = object.__setattr__  # what a frozen dataclass's own __init__ uses


def _tainted_fields(kind: type) -> tuple[tuple[str, bool], ...]:
    """(field name, holds card text) for every field of a model dataclass."""
    found = _TAINTED_FIELDS.get(kind)
    if found is None:
        found = tuple(
            (f.name, f.name not in _OWN_FIELDS and f.name != "raw") for f in dataclasses.fields(kind)
        )
        _TAINTED_FIELDS[kind] = found
    return found


def _taint(value: Any, memo: dict[object, Any]) -> Any:
    """``taint``. ``memo`` maps each string seen to its ``CardText`` and the id of each object already copied
    (all alive in the values being tainted) to its copy."""
    kind = type(value)
    if kind is str:
        text = memo.get(value)
        if text is None:
            text = memo[value] = CardText(value)
        return text
    if kind is CardText or kind in _SCALARS:
        return value
    done = memo.get(id(value))
    if done is not None:
        return done
    fields = _TAINTED_FIELDS.get(kind)
    copy: Any
    if fields is not None:  # a model dataclass seen before
        copy = _taint_fields(value, kind, fields, memo)
    elif kind is tuple:
        copy = tuple([_taint(v, memo) for v in value])
    elif kind is list:
        copy = [_taint(v, memo) for v in value]
    elif kind is dict or isinstance(value, Mapping):
        copy = {_taint(k, memo): _taint(v, memo) for k, v in value.items()}
    elif isinstance(value, str):
        return CardText(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        copy = _taint_fields(value, kind, _tainted_fields(kind), memo)
    else:
        return value
    memo[id(value)] = copy
    return copy


def _taint_fields(
    value: Any, kind: type, fields: tuple[tuple[str, bool], ...], memo: dict[object, Any]
) -> Any:
    """A dataclass copied field by field as its own ``__init__`` would, without the keyword handling."""
    copy: Any = _new_object(kind)
    for name, card in fields:
        field_value = getattr(value, name)
        if card:
            field_value = _taint(field_value, memo)
        _set_field(copy, name, field_value)
    return copy


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\u00c0-\uffff])")


def summary(text: str | None) -> CardText | None:
    """The first sentence of a description (of its first paragraph), cut to ``SUMMARY_CHARS`` (card text)."""
    if not text or not text.strip():
        return None
    first = " ".join(text.strip().split("\n\n", 1)[0].split())
    first = _SENTENCE_END.split(first, maxsplit=1)[0]
    if len(first) > SUMMARY_CHARS:
        first = first[: SUMMARY_CHARS - 1].rstrip() + "\u2026"
    return CardText(first)


HEADING_WORDS = 8


def example_heading(example: Example) -> CardText:
    """What an example is, in a few words: its first ``HEADING_WORDS`` words, or "JSON with" the members of a
    JSON object (the kind of the value otherwise)."""
    if example.is_json:
        if isinstance(example.value, dict) and example.value:
            keys = list(example.value)
            shown = ", ".join(keys[:4]) + (", \u2026" if len(keys) > 4 else "")
            return CardText(f"JSON with {shown}")
        return CardText("JSON array" if isinstance(example.value, list) else "JSON value")
    words = example.text.split()
    if not words:
        return CardText("Empty example")
    heading = " ".join(words[:HEADING_WORDS])
    return CardText(heading + ("\u2026" if len(words) > HEADING_WORDS else ""))


# -- views -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScopeView:
    name: str
    description: str | None
    """From the OAuth 2.0 flow that declares the scope; ``None`` when no flow does (or not OAuth 2.0)."""


@dataclass(frozen=True, slots=True)
class SchemeUse:
    """One scheme inside one requirement (AND), with the scopes it needs."""

    name: str
    kind_label: str | None
    """``None`` when the card does not declare a scheme of that name."""
    scopes: tuple[ScopeView, ...]
    scheme: SecurityScheme | None = None


@dataclass(frozen=True, slots=True)
class RequirementView:
    """One alternative (OR): every scheme in ``uses`` applies together."""

    uses: tuple[SchemeUse, ...]


@dataclass(frozen=True, slots=True)
class SecurityView:
    origin: Origin
    requirements: tuple[RequirementView, ...]


@dataclass(frozen=True, slots=True)
class FlowView:
    flow: OAuthFlow
    label: str
    scopes: tuple[ScopeView, ...]


@dataclass(frozen=True, slots=True)
class SchemeView:
    name: str
    scheme: SecurityScheme
    kind_label: str
    flows: tuple[FlowView, ...]


@dataclass(frozen=True, slots=True)
class InterfaceView:
    number: int
    preferred: bool
    interface: AgentInterface


@dataclass(frozen=True, slots=True)
class SignatureView:
    number: int
    signature: AgentCardSignature
    alg: str | None
    kid: str | None
    typ: str | None
    jku: str | None
    """Members of the decoded protected header, as text (JSON for a value that is not a string)."""
    status: str | None = None
    """What verification found (``verified``, ``untrusted``, ``invalid``, ``unknown-key``,
    ``unsupported-algorithm``, ``malformed``; docs/signing.md), ``None`` when signatures were not checked."""
    status_label: str | None = None
    """``status`` for a reader: ``Signature verified``, ``Signed, key unknown`` ..."""
    key: str | None = None
    """The id (``kid``, else RFC 7638 thumbprint) of the key that verified it."""
    key_source: str | None = None
    """Where that key came from (a JWK set file, a keys-file pin, a ``jku`` URL, the signature's ``jwk``)."""
    form: str | None = None
    """The canonical form that verified: ``sdk`` or ``served``."""
    form_label: str | None = None
    reason: str | None = None
    """One sentence: what was checked and why this status."""


@dataclass(frozen=True, slots=True)
class TagLink:
    tag: str
    path: str | None
    """``tags/<slug>.md``, or ``None`` for a tag without a page of its own (``slugs.paged_tags``)."""


@dataclass(frozen=True, slots=True)
class ExampleView:
    number: int
    example: Example
    heading: str
    """What the example is, for its heading: its first words, or the members of a JSON one (card text)."""
    variants: Sequence[RequestVariant]
    """The forms of the request to every interface requests go to (see ``calling``), made when the page
    reads them (``calling.DeferredVariants``)."""
    fit: str | None
    """``None`` when the example fits the skill's input media types; ``json-as-text`` when it is JSON but the
    skill takes no JSON type (it goes as text); ``text-not-accepted`` when it is text but the skill takes no
    text type."""


@dataclass(frozen=True, slots=True)
class SkillView:
    skill: AgentSkill
    anchor: str
    link: str
    """Path of the skill's section from the docs root (``agents/x/index.md#skill-y``)."""
    tags: tuple[TagLink, ...]
    examples: tuple[ExampleView, ...]
    placeholder: Sequence[RequestVariant]
    """For a skill without examples: the requests of a placeholder message in a mode it accepts (made when
    the page reads them)."""
    placeholder_kind: str
    """``text``, ``data`` or ``file``: what the placeholder message carries."""
    input_modes: EffectiveModes
    output_modes: EffectiveModes
    security: SecurityView
    summary: str | None
    """The first sentence of the description (card text)."""
    own_security: bool
    """The skill's security differs from the agent's (so the page states it)."""


@dataclass(frozen=True, slots=True)
class AgentPage:
    card: AgentCard
    slug: str
    path: str
    """``agents/<slug>/index.md``."""
    card_json: str
    """``agents/<slug>/card.json``."""
    card_url: str | None
    """The published card's absolute URL when the site URL is known."""
    era_label: str
    diagnostics: tuple[Diagnostic, ...]
    errors: int
    warnings: int
    interfaces: tuple[InterfaceView, ...]
    bindings: tuple[str, ...]
    schemes: tuple[SchemeView, ...]
    security: SecurityView
    signatures: tuple[SignatureView, ...]
    skills: tuple[SkillView, ...]
    calling: CallingView
    """What the page says once about its requests: the interfaces, the placeholders, the tools."""
    has_examples: bool
    summary: str | None
    """The first sentence of the description (card text)."""
    endpoint: InterfaceView | None
    """The interface requests go to: the first with a core binding and a URL."""
    capabilities: tuple[str, ...]
    """Our names of the capabilities the card declares as supported."""
    auth_kinds: tuple[str, ...]
    """The kinds of authentication the card's own requirements use (our labels, sorted)."""
    media_types: tuple[str, ...]
    """Every media type its skills accept or produce (card text, first spelling, sorted)."""
    tags: tuple[str, ...]
    """Every tag of its skills (first spelling, sorted by tag key)."""
    nested_extra: Mapping[str, Mapping[str, JSONValue]]
    """Unknown members of nested objects that have no section of their own, by JSON pointer (the card's own,
    its schemes' and its skills' are shown in place)."""
    signature_status: str = "unsigned"
    """The card's signature status: a signature's status (the best one's) or ``unsigned``; for the badge in
    the header and the home table (docs/signing.md)."""
    signature_label: str = "Not signed"
    """``signature_status`` for a reader."""
    signature_uncovered: tuple[str, ...] = ()
    """Pointers of members the verified signature does not cover."""
    grade: Grade | None = None
    """The card's grade (``a2a_docgen.quality``): ``letter`` (A to F, plain text), ``score`` out of 100,
    ``deductions`` (what cost points, most first) and ``hints`` (the quality findings, card text tainted)."""
    badge_json: str = ""
    """``agents/<slug>/badge.json``: the grade as a shields.io endpoint, for a live badge in a README."""
    changes: AgentChanges | None = None
    """The agent's change history (``render.changes``), ``None`` when the site has no history."""

    @property
    def best_signature(self) -> SignatureView | None:
        """The signature whose status is the card's (the one the header names), if any."""
        return next((s for s in self.signatures if s.status == self.signature_status), None)


@dataclass(frozen=True, slots=True)
class SkillRef:
    """A skill as other pages list it."""

    agent: AgentPage
    skill: SkillView
    summary: str | None


@dataclass(frozen=True, slots=True)
class AgentSkills:
    """The skills of one agent that a facet lists, on one line: a facet page links each agent once."""

    agent: AgentPage
    skills: tuple[SkillView, ...]
    card_default: int = 0
    """On a media-type page: how many skills take the type from the card's default (they declare no list of
    their own, so the agent page says it once for all of them); ``skills`` are those that declare it."""


@dataclass(frozen=True, slots=True)
class TagPage:
    tag: str
    """The tag as first spelled (agents in catalogue order, skills in card order)."""
    key: str
    path: str | None
    """``tags/<slug>.md``, or ``None``: the tag is listed on the Tags index only (``slugs.paged_tags``)."""
    skills: tuple[SkillRef, ...]
    agents: tuple[AgentSkills, ...]
    """``skills`` grouped by agent."""


@dataclass(frozen=True, slots=True)
class MediaTypeView:
    media_type: str
    """As first spelled (media types that differ only in invisible characters or normalisation are one)."""
    path: str
    """``media-types/<slug>.md``."""
    accepted_by: tuple[AgentSkills, ...]
    produced_by: tuple[AgentSkills, ...]
    accepts: int
    """Number of skills that accept the type (``accepted_by`` flattened)."""
    produces: int


@dataclass(frozen=True, slots=True)
class SchemeRow:
    agent: AgentPage
    scheme: SchemeView


@dataclass(frozen=True, slots=True)
class ScopeRow:
    scope: str
    agent: AgentPage
    scheme: str
    description: str | None
    skills: tuple[SkillRef, ...]
    every_skill: bool
    """Every skill of the agent (more than one) needs the scope: the page says so instead of listing them."""


@dataclass(frozen=True, slots=True)
class BindingRow:
    agent: AgentPage
    interface: InterfaceView


@dataclass(frozen=True, slots=True)
class BindingGroup:
    binding: str
    version: str | None
    rows: tuple[BindingRow, ...]


@dataclass(frozen=True, slots=True)
class ExcludedFile:
    path: str
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True, slots=True)
class SiteViews:
    agents: tuple[AgentPage, ...]
    tags: tuple[TagPage, ...]
    media_types: tuple[MediaTypeView, ...]
    schemes_by_kind: tuple[tuple[str, tuple[SchemeRow, ...]], ...]
    scopes: tuple[ScopeRow, ...]
    unauthenticated: tuple[AgentSkills, ...]
    bindings: tuple[BindingGroup, ...]
    excluded: tuple[ExcludedFile, ...]
    skill_count: int
    scheme_count: int
    agents_with_errors: tuple[AgentPage, ...]
    history: HistoryViews | None = None
    """The catalogue's "What's new", ``None`` when the site has no history."""
    grades: Mapping[str, Grade] = dataclasses.field(default_factory=dict)
    """Every card's grade by file, as graded (not tainted): for the exports, so the cards are graded once."""


# -- builders --------------------------------------------------------------------------------------------------


def agent_slugs(cards: Sequence[AgentCard]) -> list[str]:
    """The page slug of each card (``agent_slug_clashes``)."""
    return agent_slug_clashes(cards)[0]


def _scopes(scopes: Sequence[str], scheme: SecurityScheme | None) -> tuple[ScopeView, ...]:
    if isinstance(scheme, OAuth2SecurityScheme):
        return tuple(ScopeView(s, scheme.scope_description(s)) for s in scopes)
    return tuple(ScopeView(s, None) for s in scopes)


def _requirement(requirement: SecurityRequirement, card: AgentCard) -> RequirementView:
    uses = []
    for name, scopes in requirement.schemes.items():
        scheme = card.security_schemes.get(name)
        label = KIND_LABELS[scheme.kind] if scheme is not None else None
        uses.append(SchemeUse(name, label, _scopes(scopes, scheme), scheme))
    return RequirementView(tuple(uses))


def _security(security: EffectiveSecurity, card: AgentCard) -> SecurityView:
    return SecurityView(security.origin, tuple(_requirement(r, card) for r in security.requirements))


def _scheme(name: str, scheme: SecurityScheme) -> SchemeView:
    flows: tuple[FlowView, ...] = ()
    if isinstance(scheme, OAuth2SecurityScheme):
        flows = tuple(
            FlowView(flow, FLOW_LABELS[flow.kind], tuple(ScopeView(s, d) for s, d in flow.scopes.items()))
            for flow in scheme.flows
        )
    return SchemeView(name, scheme, KIND_LABELS[scheme.kind], flows)


def _header_text(value: JSONValue) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return CardText(json.dumps(value, ensure_ascii=False, sort_keys=True))


def _signature(
    number: int, signature: AgentCardSignature, check: SignatureCheck | None = None
) -> SignatureView:
    header = signature.protected_header or {}
    alg, kid, typ, jku = (_header_text(header.get(k)) for k in ("alg", "kid", "typ", "jku"))
    if check is None:
        return SignatureView(number, signature, alg, kid, typ, jku)
    return SignatureView(
        number,
        signature,
        alg,
        kid,
        typ,
        jku,
        status=check.status,
        status_label=STATUS_LABELS[check.status],
        key=check.key,
        key_source=check.key_source,
        form=check.form,
        form_label=FORM_LABELS[check.form] if check.form else None,
        reason=check.reason,
    )


def _request_interface(targets: tuple[RequestTarget, ...]) -> InterfaceView | None:
    """The interface a client that speaks every core binding uses: the first one requests go to
    (A2A section 8.3.2: clients take the first interface whose binding they support)."""
    first = targets[0] if targets else None
    return InterfaceView(first.number, first.number == 1, first.interface) if first else None


def _essences(modes: Sequence[str]) -> list[str]:
    return [mode.split(";", 1)[0].strip().lower() for mode in modes]


def example_fit(example: Example, modes: Sequence[str]) -> str | None:
    """Whether the skill's input media types take the example: ``None`` (yes, or no types declared),
    ``text-not-accepted`` (a text example, no text type) or ``json-not-accepted`` (a JSON example, neither a
    JSON nor a text type)."""
    if not modes:
        return None
    essences = _essences(modes)
    anything = any(e in ("*/*", "*") for e in essences)
    text = accepts_text(tuple(modes))
    if not example.is_json:
        return None if text else "text-not-accepted"
    json_type = anything or "application/*" in essences or json_media_type(tuple(modes)) is not None
    return None if json_type or text else "json-not-accepted"


def _examples(
    card: AgentCard, skill: AgentSkill, targets: tuple[RequestTarget, ...]
) -> tuple[ExampleView, ...]:
    views = []
    for index, example in enumerate(skill.examples):
        variants = DeferredVariants(card, skill, index, targets)
        fit = example_fit(example, skill.effective_input_modes.modes)
        views.append(ExampleView(index + 1, example, example_heading(example), variants, fit))
    return tuple(views)


def _requirement_key(
    requirements: Sequence[SecurityRequirement],
) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]:
    return tuple(tuple(sorted(r.schemes.items())) for r in requirements)


CAPABILITY_LABELS = (
    ("streaming", "streaming"),
    ("push_notifications", "push notifications"),
    ("extended_agent_card", "extended agent card"),
)


def skill_anchors(skills: Sequence[AgentSkill], agent_slug: str) -> list[str]:
    """The HTML id of each skill's section (``skill_anchor_clashes``)."""
    return skill_anchor_clashes(skills, agent_slug)[0]


def nested_extra(card: AgentCard) -> dict[str, Mapping[str, JSONValue]]:
    """``extra`` of the provider, interfaces, capabilities, extensions, OAuth flows and signatures."""
    owners: list[Any] = [card.provider, *card.interfaces, card.capabilities, *card.capabilities.extensions]
    for scheme in card.security_schemes.values():
        if isinstance(scheme, OAuth2SecurityScheme):
            owners.extend(scheme.flows)
    owners.extend(card.signatures)
    return {owner.pointer: owner.extra for owner in owners if owner is not None and owner.extra}


def agent_page(
    card: AgentCard,
    agent_slug: str,
    diagnostics: Sequence[Diagnostic],
    site_url: str | None,
    verification: CardVerification | None = None,
    grade: Grade | None = None,
    changes: AgentChanges | None = None,
    tag_paths: Mapping[str, str] | None = None,
) -> AgentPage:
    """The view of one (tainted) card, with its (tainted) signature verification when signatures were checked,
    and its (tainted) grade. ``tag_paths``: each tag page's path by ``tag_key`` (``tag_page_paths`` of the
    catalogue; by default, of this card alone)."""
    if tag_paths is None:
        tag_paths = tag_page_paths([card])
    path = agent_page_path(agent_slug)
    card_json = agent_card_path(agent_slug)
    skills = []
    targets, skipped = request_targets(card)
    target = _request_interface(targets)
    card_requirements = _requirement_key(card.security_requirements)
    for skill, skill_anchor in zip(card.skills, skill_anchors(card.skills, agent_slug), strict=True):
        tags = {tag_key(t): t for t in reversed(shown_tags(skill))}  # first spelling wins
        skills.append(
            SkillView(
                skill=skill,
                anchor=skill_anchor,
                link=f"{path}#{skill_anchor}",
                tags=tuple(TagLink(tags[k], tag_paths.get(k)) for k in sorted(tags)),
                examples=_examples(card, skill, targets),
                placeholder=() if skill.examples else DeferredVariants(card, skill, None, targets),
                placeholder_kind=placeholder_content(skill.effective_input_modes.modes).kind,
                input_modes=skill.effective_input_modes,
                output_modes=skill.effective_output_modes,
                security=_security(skill.effective_security, card),
                summary=summary(skill.description),
                own_security=_requirement_key(skill.effective_security.requirements) != card_requirements,
            )
        )
    bindings = sorted({i.protocol_binding for i in card.interfaces if i.protocol_binding})
    media: dict[str, str] = {}
    tag_names: dict[str, str] = {}
    for skill in card.skills:
        for mode in (*skill.effective_input_modes.modes, *skill.effective_output_modes.modes):
            media.setdefault(identity_key(mode), mode)
        for tag in shown_tags(skill):
            tag_names.setdefault(tag_key(tag), tag)
    kinds = {
        KIND_LABELS[scheme.kind]
        for requirement in card.security_requirements
        for name in requirement.schemes
        if (scheme := card.security_schemes.get(name)) is not None
    }
    return AgentPage(
        card=card,
        slug=agent_slug,
        path=path,
        card_json=card_json,
        card_url=f"{site_url.rstrip('/')}/{card_json}" if site_url else None,
        era_label=ERA_LABELS[card.era],
        diagnostics=tuple(diagnostics),
        errors=sum(1 for d in diagnostics if d.severity == "error"),
        warnings=sum(1 for d in diagnostics if d.severity == "warning"),
        interfaces=tuple(
            InterfaceView(n, n == 1, interface) for n, interface in enumerate(card.interfaces, start=1)
        ),
        bindings=tuple(CardText(b) for b in bindings),
        schemes=tuple(_scheme(name, scheme) for name, scheme in card.security_schemes.items()),
        security=SecurityView("card", tuple(_requirement(r, card) for r in card.security_requirements)),
        signatures=tuple(
            _signature(n, s, verification.signatures[n - 1] if verification else None)
            for n, s in enumerate(card.signatures, start=1)
        ),
        skills=tuple(skills),
        calling=calling_view(card, targets, skipped),
        has_examples=any(skill.examples for skill in skills),
        summary=summary(card.description),
        endpoint=target,
        capabilities=tuple(
            label for field, label in CAPABILITY_LABELS if getattr(card.capabilities, field) is True
        ),
        auth_kinds=tuple(sorted(kinds)),
        media_types=tuple(sorted(media.values(), key=lambda m: (m.casefold(), m))),
        tags=tuple(tag_names[key] for key in sorted(tag_names)),
        nested_extra=nested_extra(card),
        signature_status=(status := verification.status if verification else "unsigned"),
        signature_label=STATUS_LABELS[status],
        signature_uncovered=verification.uncovered if verification else (),
        grade=grade,
        badge_json=agent_badge_path(agent_slug),
        changes=changes,
    )


def by_agent(refs: Sequence[SkillRef]) -> tuple[AgentSkills, ...]:
    """Consecutive skills of one agent as one ``AgentSkills`` (``refs`` in agent order)."""
    groups: list[AgentSkills] = []
    run: list[SkillView] = []
    for number, ref in enumerate(refs):
        run.append(ref.skill)
        if number + 1 == len(refs) or refs[number + 1].agent is not ref.agent:
            groups.append(AgentSkills(ref.agent, tuple(run)))
            run = []
    return tuple(groups)


def tag_page_paths(cards: Sequence[AgentCard]) -> dict[str, str]:
    """``tags/<slug>.md`` by ``tag_key`` for every tag of ``cards`` that has a page (``slugs.paged_tags``), all
    distinct (``unique_slugs``)."""
    paged, _ = paged_tags(cards)
    return paths.tag_page_paths(sorted(paged))


def _tag_pages(refs: Sequence[SkillRef], tag_paths: Mapping[str, str]) -> tuple[TagPage, ...]:
    by_key: dict[str, list[SkillRef]] = {}
    spelling: dict[str, str] = {}
    for ref in refs:
        for tag in ref.skill.tags:
            key = tag_key(tag.tag)
            spelling.setdefault(key, tag.tag)
            by_key.setdefault(key, []).append(ref)
    return tuple(
        TagPage(
            spelling[key],
            key,
            tag_paths.get(key),
            tuple(by_key[key]),
            by_agent(by_key[key]),
        )
        for key in sorted(by_key)
    )


def _media_groups(uses: Sequence[tuple[SkillRef, Origin]]) -> tuple[AgentSkills, ...]:
    """``by_agent`` for a media type: the skills that declare it, and a count of those that take the card's."""
    own = by_agent([ref for ref, origin in uses if origin == "skill"])
    own_by_agent = {id(group.agent): group.skills for group in own}
    defaults: dict[int, int] = {}
    agents: dict[int, AgentPage] = {}
    for ref, origin in uses:
        agents.setdefault(id(ref.agent), ref.agent)
        if origin == "card":
            defaults[id(ref.agent)] = defaults.get(id(ref.agent), 0) + 1
    return tuple(
        AgentSkills(agent, own_by_agent.get(key, ()), defaults.get(key, 0)) for key, agent in agents.items()
    )


def _media_types(refs: Sequence[SkillRef]) -> tuple[MediaTypeView, ...]:
    """Media types by ``identity_key`` (so two spellings never share a page's slug), first spelling shown."""
    spelling: dict[str, str] = {}
    accepted: dict[str, list[tuple[SkillRef, Origin]]] = {}
    produced: dict[str, list[tuple[SkillRef, Origin]]] = {}
    for ref in refs:
        for modes, uses in ((ref.skill.input_modes, accepted), (ref.skill.output_modes, produced)):
            seen: set[str] = set()
            for mode in modes.modes:
                key = identity_key(mode)
                spelling.setdefault(key, mode)
                if key not in seen:
                    seen.add(key)
                    uses.setdefault(key, []).append((ref, modes.origin))
    keys = sorted(spelling)
    page_paths = paths.media_type_page_paths(keys)
    return tuple(
        MediaTypeView(
            media_type=spelling[key],
            path=page_paths[key],
            accepted_by=_media_groups(accepted.get(key, [])),
            produced_by=_media_groups(produced.get(key, [])),
            accepts=len(accepted.get(key, ())),
            produces=len(produced.get(key, ())),
        )
        for key in sorted(spelling, key=lambda k: (spelling[k].casefold(), spelling[k]))
    )


def _scope_rows(agents: Sequence[AgentPage], refs: Sequence[SkillRef]) -> tuple[ScopeRow, ...]:
    """One row per (agent, scheme, scope) declared by a flow or required by a skill, sorted by scope."""
    refs_by_agent: dict[str, list[SkillRef]] = {}
    for ref in refs:
        refs_by_agent.setdefault(ref.agent.path, []).append(ref)
    rows: list[ScopeRow] = []
    for agent in agents:
        declared: dict[tuple[str, str], str | None] = {}
        for view in agent.schemes:
            for flow in view.flows:
                for scope in flow.scopes:
                    declared.setdefault((view.name, scope.name), scope.description)
        needed: dict[tuple[str, str], list[SkillRef]] = {}
        for ref in refs_by_agent.get(agent.path, ()):
            for requirement in ref.skill.security.requirements:
                for use in requirement.uses:
                    for scope in use.scopes:
                        skills = needed.setdefault((use.name, scope.name), [])
                        if not skills or skills[-1] is not ref:
                            skills.append(ref)
                        declared.setdefault((use.name, scope.name), scope.description)
        for scheme_name, scope_name in sorted(declared):
            key = (scheme_name, scope_name)
            users = tuple(needed.get(key, ()))
            every = len(users) > 1 and len(users) == len(agent.skills)
            rows.append(ScopeRow(scope_name, agent, scheme_name, declared[key], users, every))
    return tuple(sorted(rows, key=lambda r: (r.scope.casefold(), r.scope)))


def _binding_groups(agents: Sequence[AgentPage]) -> tuple[BindingGroup, ...]:
    groups: dict[tuple[str, str], list[BindingRow]] = {}
    for agent in agents:
        for view in agent.interfaces:
            binding = view.interface.protocol_binding or ""
            version = view.interface.protocol_version or ""
            groups.setdefault((binding, version), []).append(BindingRow(agent, view))
    return tuple(
        BindingGroup(
            binding=CardText(binding),
            version=CardText(version) if version else None,
            rows=tuple(rows),
        )
        for (binding, version), rows in sorted(groups.items())
    )


class ViewInputs(NamedTuple):
    """Everything an agent's view is made from: a rebuild keeps the view while these are equal."""

    text: str
    slug: str
    diagnostics: tuple[Diagnostic, ...]
    """The card file's diagnostics, as loaded."""
    verification: object
    grade: Grade | None
    site_url: str | None
    history: object
    tags: tuple[tuple[str, str | None], ...]
    """The card's tags and their pages."""


ViewReuse = dict[str, tuple[ViewInputs, "AgentPage"]]
"""A card's source path -> (everything its view is made from, the view): what a rebuild may reuse."""


def _grades(
    catalog: Catalog, raw_by_file: Mapping[str, Sequence[Diagnostic]], reuse: ViewReuse | None
) -> dict[str, Grade]:
    """Every card's grade, by file: the last build's where the card's text and diagnostics are the same (a
    grade depends on nothing else, and not on the diagnostics' order), graded now otherwise."""
    from a2a_docgen.quality import grade_card  # here: render.escape (this package) stays free of load

    grades: dict[str, Grade] = {}
    for card in catalog.cards:
        path = card.source.path
        own = tuple(raw_by_file.get(path, ()))
        previous = reuse[path][0] if reuse is not None and path in reuse else None
        if (
            previous is not None
            and previous.grade is not None
            and previous.text == card.source.text
            and previous.diagnostics == own
        ):
            grades[path] = previous.grade
        else:
            grades[path] = grade_card(card, own)
    return grades


def build_views(
    catalog: Catalog,
    *,
    site_url: str | None = None,
    reuse: ViewReuse | None = None,
    history: CatalogHistory | None = None,
) -> SiteViews:
    """Every view the site needs, from a catalogue (tainted here, so callers pass the model as loaded), with the
    change history of its cards when there is one.

    With ``reuse`` (kept by the caller from one build to the next, as ``mkdocs serve`` rebuilds), an agent
    whose card, slug, diagnostics, verification and grade are all as last time keeps its view, and ``reuse``
    is left holding this build's views."""
    memo: dict[object, Any] = {}  # one for the whole catalogue: media types, tags and scheme names repeat
    cards = sorted(catalog.cards, key=card_order)
    ordered = tuple(sorted(catalog.diagnostics, key=Diagnostic.sort_key))
    diagnostics: tuple[Diagnostic, ...] = _taint(ordered, memo)
    raw_by_file: dict[str, list[Diagnostic]] = {}  # as loaded: what a reused view is compared on
    by_file: dict[str, list[Diagnostic]] = {}
    for raw, diagnostic in zip(ordered, diagnostics, strict=True):
        raw_by_file.setdefault(raw.file, []).append(raw)
        by_file.setdefault(raw.file, []).append(diagnostic)
    raw_grades = _grades(catalog, raw_by_file, reuse)
    kept: ViewReuse = {}
    made = []
    tag_paths = tag_page_paths(cards)
    for card, agent_slug in zip(cards, agent_slugs(cards), strict=True):
        path = card.source.path
        verification = catalog.verifications.get(path)
        grade = raw_grades.get(path)
        own_history = history.of(path) if history is not None else None
        own_tags = {tag_key(tag) for skill in card.skills for tag in shown_tags(skill)}
        inputs = ViewInputs(
            card.source.text,
            agent_slug,
            tuple(raw_by_file.get(path, ())),
            verification,
            grade,
            site_url,
            (own_history, history.commit_url, history.notices) if history is not None else None,
            tuple(sorted((key, tag_paths.get(key)) for key in own_tags)),
        )
        previous = reuse.get(path) if reuse is not None else None
        if previous is not None and previous[0] == inputs:
            agent = previous[1]
        else:
            agent = agent_page(
                _taint(card, memo),
                agent_slug,
                by_file.get(path, []),
                site_url,
                _taint(verification, memo),
                dataclasses.replace(grade, file=CardText(grade.file), hints=_taint(grade.hints, memo))
                if grade is not None
                else None,
                agent_changes(history, own_history, agent_slug, _taint) if history is not None else None,
                tag_paths,
            )
        kept[path] = (inputs, agent)
        made.append(agent)
    if reuse is not None:
        reuse.clear()
        reuse.update(kept)
    agents = tuple(made)
    refs = [
        SkillRef(agent, skill, summary(skill.skill.description)) for agent in agents for skill in agent.skills
    ]
    by_kind: dict[str, list[SchemeRow]] = {}
    for agent in agents:
        for scheme in agent.schemes:
            by_kind.setdefault(scheme.kind_label, []).append(SchemeRow(agent, scheme))
    named = sorted(
        (catalog.excluded_names.get(path) or os.path.basename(path), path) for path in catalog.excluded
    )
    excluded = tuple(ExcludedFile(CardText(name), tuple(by_file.get(path, ()))) for name, path in named)
    return SiteViews(
        agents=agents,
        tags=_tag_pages(refs, tag_paths),
        media_types=_media_types(refs),
        schemes_by_kind=tuple(
            (KIND_LABELS[kind], tuple(by_kind[KIND_LABELS[kind]]))
            for kind in KIND_ORDER
            if KIND_LABELS[kind] in by_kind
        ),
        scopes=_scope_rows(agents, refs),
        unauthenticated=by_agent([ref for ref in refs if not ref.skill.security.requirements]),
        bindings=_binding_groups(agents),
        excluded=excluded,
        skill_count=len(refs),
        scheme_count=sum(len(agent.schemes) for agent in agents),
        agents_with_errors=tuple(agent for agent in agents if agent.errors),
        history=history_views(history, {agent.card.source.path: agent.path for agent in agents}, _taint)
        if history is not None
        else None,
        grades=raw_grades,
    )
