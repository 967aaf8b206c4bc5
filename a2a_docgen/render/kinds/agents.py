"""The agent pages: one per card (``agents/<slug>/index.md``), its view (``AgentPage``, ``SkillView``,
``ExampleView`` ...: every fact computed once) and its history pages.

The one kind not in the registry's list: its pages are rendered by workers (``render.parallel``), each with its
history pages and feed, and a rebuild may keep them (``render.reuse``). Every other kind reads its views.
Skills in card order (the author's order is meaningful, and a skill's anchor never depends on it).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

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
)
from a2a_docgen.render.calling import (
    CallingView,
    DeferredVariants,
    RequestTarget,
    RequestVariant,
    calling_view,
    request_targets,
)
from a2a_docgen.render.changes import AgentChanges, agent_changes
from a2a_docgen.render.env import CardText
from a2a_docgen.render.layout import PageJob, list_jobs
from a2a_docgen.render.pages import KIND_LABELS, Memo, summary, taint_into
from a2a_docgen.render.paging import paginate
from a2a_docgen.render.paths import Addresses, AgentFiles
from a2a_docgen.render.requests import accepts_text, json_media_type, placeholder_content
from a2a_docgen.slugs import shown_tags
from a2a_docgen.text.slug import identity_key, tag_key

if TYPE_CHECKING:
    from a2a_docgen.history.entries import CatalogHistory
    from a2a_docgen.quality import Grade
    from a2a_docgen.render.pages import SiteViews

__all__ = [
    "AgentPage",
    "SkillView",
    "ViewReuse",
    "agent_page",
    "agent_views",
    "history_jobs",
]

ERA_LABELS = {"1.0": "v1.0", "0.3": "v0.3", "0.2": "v0.2"}
FLOW_LABELS = {
    "authorizationCode": "Authorization code",
    "clientCredentials": "Client credentials",
    "deviceCode": "Device code",
    "implicit": "Implicit",
    "password": "Password",
}
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
    """1-based, in the skill: the example's heading (its text is shown once, below it)."""
    example: Example
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
    """``badges/<slug>.json``: the grade as a shields.io endpoint, for a live badge in a README (by the card file:
    it stays when the page moves)."""
    changes: AgentChanges | None = None
    """The agent's change history (``render.changes``), ``None`` when the site has no history."""
    namesakes: str | None = None
    """``agents/<name>/index.md``, the page listing the agents that share its name; ``None`` for a name of its
    own."""

    @property
    def best_signature(self) -> SignatureView | None:
        """The signature whose status is the card's (the one the header names), if any."""
        return next((s for s in self.signatures if s.status == self.signature_status), None)


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
        views.append(ExampleView(index + 1, example, variants, fit))
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
    files: AgentFiles,
    diagnostics: Sequence[Diagnostic],
    site_url: str | None,
    verification: CardVerification | None = None,
    grade: Grade | None = None,
    changes: AgentChanges | None = None,
    tag_paths: Mapping[str, str] | None = None,
) -> AgentPage:
    """The view of one (tainted) card at ``files`` (its addresses: ``paths.Addresses``), with its (tainted)
    signature verification when signatures were checked, and its (tainted) grade. ``tag_paths``: each tag
    page's path by ``tag_key`` (``Addresses.tags``; none by default)."""
    tag_paths = tag_paths or {}
    path = files.page
    card_json = files.card
    skills = []
    targets, skipped = request_targets(card)
    target = _request_interface(targets)
    card_requirements = _requirement_key(card.security_requirements)
    for skill, skill_anchor in zip(card.skills, files.anchors, strict=True):
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
        slug=files.slug,
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
        badge_json=files.badge,
        changes=changes,
        namesakes=files.namesakes,
    )


class ViewInputs(NamedTuple):
    """Everything an agent's view is made from: a rebuild keeps the view while these are equal."""

    text: str
    files: AgentFiles
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


def agent_views(
    catalog: Catalog,
    cards: Sequence[AgentCard],
    by_file: Mapping[str, Sequence[Diagnostic]],
    raw_by_file: Mapping[str, Sequence[Diagnostic]],
    memo: Memo,
    *,
    addresses: Addresses,
    site_url: str | None,
    reuse: ViewReuse | None,
    history: CatalogHistory | None,
) -> tuple[tuple[AgentPage, ...], dict[str, Grade]]:
    """The view of each of ``cards`` (in catalogue order) and every card's grade by file.

    ``by_file``: each file's diagnostics, tainted; ``raw_by_file``: as loaded (what a reused view is compared
    on). With ``reuse`` (kept by the caller from one build to the next, as ``mkdocs serve`` rebuilds), an agent
    whose card, addresses, diagnostics, verification and grade are all as last time keeps its view, and ``reuse``
    is left holding this build's views."""
    raw_grades = _grades(catalog, raw_by_file, reuse)
    kept: ViewReuse = {}
    made = []
    tag_paths = addresses.tags
    for card in cards:
        files = addresses.agent(card)
        path = card.source.path
        verification = catalog.verifications.get(path)
        grade = raw_grades.get(path)
        own_history = history.of(card.source.key) if history is not None else None
        own_tags = {tag_key(tag) for skill in card.skills for tag in shown_tags(skill)}
        inputs = ViewInputs(
            card.source.text,
            files,
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
                taint_into(card, memo),
                files,
                by_file.get(path, []),
                site_url,
                taint_into(verification, memo),
                dataclasses.replace(grade, file=CardText(grade.file), hints=taint_into(grade.hints, memo))
                if grade is not None
                else None,
                agent_changes(history, own_history, files.slug, taint_into) if history is not None else None,
                tag_paths,
            )
        kept[path] = (inputs, agent)
        made.append(agent)
    if reuse is not None:
        reuse.clear()
        reuse.update(kept)
    return tuple(made), raw_grades


def history_jobs(site: SiteViews, size: Mapping[str, int]) -> dict[str, tuple[PageJob, ...]]:
    """The history pages of each agent with more entries than its page shows, by the agent's page path:
    rendered with the agent's page, where it is rendered (``render.parallel``)."""
    jobs: dict[str, tuple[PageJob, ...]] = {}
    for agent in site.agents:
        if agent.changes is not None and agent.changes.history_path is not None:
            pages = paginate(agent.changes.entries, agent.changes.history_path, size["changes"])
            jobs[agent.path] = tuple(list_jobs("history.md.jinja", pages, agent=agent))
    return jobs
