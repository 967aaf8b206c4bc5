"""Compare two catalogues: what a change to agent cards breaks for the clients of those agents.

Everything is compared on the normalised model, never on raw JSON: a skill without its own ``inputModes``
accepts the card defaults, a skill without its own requirements inherits the card's, and a v0.3 card
compares equal to its faithful v1.0 form (only ``era-changed`` is reported).

Agents are paired as ``a2a_docgen.review.match`` says (name and preferred interface URL first; a rename is
an agent that disappeared matched to one that appeared at its URL). Skills are matched by id, interfaces
by URL, binding and protocol version, extensions by URI, security schemes by name.

Every finding has a stable code with a default severity (``CODES``, documented in docs/review.md); a
``ReviewConfig`` can change severities and accept changes, and the version policy runs last, on what is
left.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from a2a_docgen.load.source import MISSING, PositionIndex, join_pointer, pointer_tokens, resolve_pointer
from a2a_docgen.model import (
    AgentCard,
    AgentExtension,
    AgentInterface,
    AgentSkill,
    APIKeySecurityScheme,
    CardVerification,
    Catalog,
    EffectiveModes,
    HTTPAuthSecurityScheme,
    JSONValue,
    OAuth2SecurityScheme,
    OAuthFlow,
    OpenIdConnectSecurityScheme,
    SecurityRequirement,
    SecurityScheme,
    UnknownSecurityScheme,
)
from a2a_docgen.protocol import media_type_essence, short_version
from a2a_docgen.review.codes import (
    CODES,
    POLICY_CODES,
    SCHEME_DETAIL_CODES,
    SEVERITIES,
    ChangeSeverity,
    severity_at_least,
    severity_rank,
)
from a2a_docgen.review.config import Acceptance, ConfigWarning, ReviewConfig
from a2a_docgen.review.match import HeadFiles, pair, pair_agents
from a2a_docgen.review.policy import parse_version, version_finding
from a2a_docgen.review.settle import Settlement
from a2a_docgen.review.signatures import signature_changes

__all__ = [
    "CODES",
    "SEVERITIES",
    "Change",
    "ChangeSeverity",
    "Location",
    "Review",
    "diff_catalogs",
    "parse_version",
    "review_catalogs",
    "severity_at_least",
]

Side = Literal["base", "head"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Location:
    """A place in a card file."""

    file: str
    line: int
    column: int
    pointer: str

    def to_json(self) -> dict[str, JSONValue]:
        return {"file": self.file, "line": self.line, "column": self.column, "pointer": self.pointer}


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """One finding of a review."""

    agent: str
    """The agent's name (the head name, or the base name when the agent is gone)."""
    skill: str | None
    """The skill id, or ``None`` for a change to the agent as a whole (card defaults, interfaces ...)."""
    severity: ChangeSeverity
    """The default of ``code`` unless the configuration or the context (an unused scheme) says otherwise."""
    code: str
    """Stable, kebab-case; one of ``CODES``."""
    message: str
    """What changed and what it means for clients. Contains card text: escape it for the output."""
    pointer: str
    """JSON Pointer of the value concerned, in the head card (the base card when ``side`` is ``base``)."""
    before: JSONValue
    after: JSONValue
    side: Side
    file: str
    """The card file ``pointer`` refers to."""
    line: int
    column: int
    anchor: Location | None = None
    """For a ``base``-side finding: its nearest surviving parent in the head file (the ``skills`` array of a
    removed skill, line 1 of a card that no longer loads), or ``None`` when the head has no such file."""
    accepted: Acceptance | None = None
    """The configuration's acceptance of this finding: it is shown with the reason and never fails a run."""

    @property
    def policy(self) -> bool:
        """A finding of the version policy rather than a change to what clients get."""
        return self.code in POLICY_CODES

    def head_location(self) -> Location | None:
        """Where the finding shows in the head tree: its own place, or the anchor of a base-side finding."""
        if self.side == "head":
            return Location(file=self.file, line=self.line, column=self.column, pointer=self.pointer)
        return self.anchor

    def sort_key(self) -> tuple[str, str, bool, str, int, str, str, str]:
        return (
            self.agent.casefold(),
            self.agent,
            self.skill is not None,
            self.skill or "",
            severity_rank(self.severity),
            self.code,
            self.pointer,
            self.message,
        )

    def to_json(self) -> dict[str, JSONValue]:
        head = self.head_location()
        return {
            "agent": self.agent,
            "skill": self.skill,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "pointer": self.pointer,
            "before": self.before,
            "after": self.after,
            "side": self.side,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "anchor": head.to_json() if head is not None else None,
            "policy": self.policy,
            "accepted": dict(self.accepted.to_json()) if self.accepted is not None else None,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Review:
    """What ``review_catalogs`` found: the changes, and what needs attention in the configuration."""

    changes: list[Change]
    """Sorted by agent, skill, severity, code and pointer."""
    warnings: list[ConfigWarning]


def diff_catalogs(
    base: Catalog,
    head: Catalog,
    *,
    config: ReviewConfig | None = None,
    head_roots: Sequence[str] = (),
    today: date | None = None,
) -> list[Change]:
    """Every change from ``base`` to ``head``, sorted by agent, skill, severity, code and pointer."""
    return review_catalogs(base, head, config=config, head_roots=head_roots, today=today).changes


def review_catalogs(
    base: Catalog,
    head: Catalog,
    *,
    config: ReviewConfig | None = None,
    head_roots: Sequence[str] = (),
    today: date | None = None,
) -> Review:
    """Compare, apply ``config`` (severities, acceptances as of ``today``), then the version policy.

    ``head_roots`` are the head side's path arguments: with them, a base card is matched to a head file
    that failed to load at its place even when no card of the head side loaded.
    """
    config = config if config is not None else ReviewConfig()
    settlement = Settlement(config, today if today is not None else date.today())
    files = HeadFiles(head, head_roots)
    review = _Reviewer(settlement)
    pairs, removed, added = pair_agents(base.cards, head.cards)
    for card in removed:
        gone = " (its file no longer loads as a card)" if files.no_longer_loads(card) else ""
        counterpart = files.counterpart(card)
        anchor = Location(file=counterpart, line=1, column=1, pointer="") if counterpart else None
        review.add(
            _Draft(
                agent=card.name or "",
                skill=None,
                code="agent-removed",
                message=f"the agent is gone{gone}",
                pointer="",
                side="base",
                before=card.name,
            ),
            card,
            anchor=anchor,
        )
    for card in added:
        review.add(
            _Draft(
                agent=card.name or "",
                skill=None,
                code="agent-added",
                message="a new agent",
                pointer="",
                after=card.name,
            ),
            card,
        )
    for old, new in pairs:
        mine = [
            review.add(d, old if d.side == "base" else new, head_card=new)
            for d in _AgentDiff(old, new, base.verification(old), head.verification(new)).run()
        ]
        if config.version_policy:
            review.version_policy(old, new, [c for c in mine if c is not None])
    review.changes.sort(key=Change.sort_key)
    return Review(changes=review.changes, warnings=settlement.warnings())


@dataclass(frozen=True, slots=True, kw_only=True)
class _Draft:
    """A finding before it is located in its file and given its severity."""

    agent: str
    skill: str | None
    code: str
    message: str
    pointer: str
    side: Side = "head"
    before: JSONValue = None
    after: JSONValue = None
    cap: ChangeSeverity | None = None
    """The most this finding can be in its context (``info`` for a change to a scheme nobody uses)."""


class _Reviewer:
    """Turns drafts into located, settled changes, building each card's position index once."""

    def __init__(self, settlement: Settlement) -> None:
        self.settlement = settlement
        self.changes: list[Change] = []
        self._indexes: dict[int, PositionIndex] = {}

    def index(self, card: AgentCard) -> PositionIndex:
        index = self._indexes.get(id(card))
        if index is None:
            index = self._indexes[id(card)] = PositionIndex.build(card.source.text)
        return index

    def add(
        self,
        draft: _Draft,
        card: AgentCard,
        *,
        head_card: AgentCard | None = None,
        anchor: Location | None = None,
    ) -> Change | None:
        """Locate ``draft`` in ``card`` and keep it, unless the configuration hides its code."""
        severity = self.settlement.severity(draft.code, draft.cap)
        if severity is None:
            return None
        line, column = self.index(card).locate(draft.pointer)
        if draft.side == "base" and head_card is not None:
            anchor = self.anchor(draft.pointer, head_card)
        change = Change(
            agent=draft.agent,
            skill=draft.skill,
            severity=severity,
            code=draft.code,
            message=draft.message,
            pointer=draft.pointer,
            before=draft.before,
            after=draft.after,
            side=draft.side,
            file=card.source.path,
            line=line,
            column=column,
            anchor=anchor,
            accepted=self.settlement.acceptance(draft.agent, draft.skill, draft.code, draft.pointer),
        )
        self.changes.append(change)
        return change

    def anchor(self, pointer: str, head: AgentCard) -> Location:
        """The nearest parent of what ``pointer`` named in the base card that the head card still has.

        The pointer itself is never used: the same array index in the head names another element.
        """
        tokens = pointer_tokens(pointer)[:-1]
        while tokens and resolve_pointer(head.source.raw, join_pointer("", *tokens)) is MISSING:
            tokens.pop()
        parent = join_pointer("", *tokens)
        line, column = self.index(head).locate(parent)
        return Location(file=head.source.path, line=line, column=column, pointer=parent)

    def version_policy(self, old: AgentCard, new: AgentCard, changes: Sequence[Change]) -> None:
        """One policy finding when breaking changes that are not accepted ship without a major bump."""
        if not any(c.severity == "breaking" and c.accepted is None for c in changes):
            return
        finding = version_finding(old.version, new.version)
        if finding is not None:
            code, message = finding
            self.add(
                _Draft(
                    agent=new.name or "",
                    skill=None,
                    code=code,
                    message=message,
                    pointer="/version",
                    before=old.version,
                    after=new.version,
                ),
                new,
            )


# -- one agent ------------------------------------------------------------------------------------------

_CAPABILITIES: tuple[tuple[str, str, str, str], ...] = (
    ("streaming", "streaming is", "streaming", "use it"),
    ("push_notifications", "push notifications are", "pushNotifications", "use them"),
    ("extended_agent_card", "the authenticated extended agent card is", "extendedAgentCard", "fetch it"),
)
_OAUTH_URLS: tuple[tuple[str, str], ...] = (
    ("authorization_url", "authorization URL"),
    ("token_url", "token URL"),
    ("refresh_url", "refresh URL"),
    ("device_authorization_url", "device authorization URL"),
)
_MODE_WORDS = {"input": ("accepted", "accept"), "output": ("produced", "produce")}
"""Participle, and the verb for a plural subject (the card defaults)."""

Alternative = dict[str, frozenset[str]]
"""One security alternative: scheme name -> required scopes."""


class _AgentDiff:
    """The changes between two versions of one agent's card."""

    def __init__(
        self,
        old: AgentCard,
        new: AgentCard,
        old_verification: CardVerification | None = None,
        new_verification: CardVerification | None = None,
    ) -> None:
        self.old, self.new = old, new
        self.verifications = (old_verification, new_verification)
        self.agent = new.name or ""
        self.drafts: list[_Draft] = []

    def add(
        self,
        code: str,
        message: str,
        pointer: str,
        *,
        skill: str | None = None,
        before: JSONValue = None,
        after: JSONValue = None,
        side: Side = "head",
    ) -> None:
        self.drafts.append(
            _Draft(
                agent=self.agent,
                skill=skill,
                code=code,
                message=message,
                pointer=pointer,
                side=side,
                before=before,
                after=after,
            )
        )

    def run(self) -> list[_Draft]:
        old, new = self.old, self.new
        self.identity()
        self.interfaces()
        self.capabilities()
        self.extensions()
        inheriting_inputs = self.inheriting(lambda s: s.effective_input_modes.origin)
        inheriting_outputs = self.inheriting(lambda s: s.effective_output_modes.origin)
        self.modes(
            "input",
            old.default_input_modes,
            new.default_input_modes,
            "/defaultInputModes",
            None,
            _inherit_note(inheriting_inputs, "the skills that inherit these defaults"),
        )
        self.modes(
            "output",
            old.default_output_modes,
            new.default_output_modes,
            "/defaultOutputModes",
            None,
            _inherit_note(inheriting_outputs, "the skills that inherit these defaults"),
        )
        self.security(
            old.security_requirements,
            new.security_requirements,
            new.security_requirements_pointer,
            None,
            _inherit_note(
                self.inheriting(lambda s: s.effective_security.origin), "the skills that inherit them"
            ),
        )
        self.schemes()
        self.skills()
        return self.drafts

    def inheriting(self, origin: Callable[[AgentSkill], str]) -> list[str]:
        """Ids of the skills that take a card default on both sides (their changes are the card's)."""
        old_skills = {s.id: s for s in self.old.skills if s.id is not None}
        return [
            s.id
            for s in self.new.skills
            if s.id is not None
            and s.id in old_skills
            and origin(s) == "card"
            and origin(old_skills[s.id]) == "card"
        ]

    # -- identity and informational fields ------------------------------------------------------------

    def identity(self) -> None:
        old, new = self.old, self.new
        if old.name != new.name:
            how = (
                "only the letter case differs"
                if (old.name or "").casefold() == (new.name or "").casefold()
                else "matched by its preferred interface URL; registries that key agents by name see a new agent"
            )
            self.add(
                "agent-renamed",
                f"renamed from {_q(old.name)} ({how})",
                "/name",
                before=old.name,
                after=new.name,
            )
        if old.era != new.era:
            self.add(
                "era-changed",
                f"the card is now written in the v{new.era} shape (was v{old.era})",
                "",
                before=old.era,
                after=new.era,
            )
        self.text_change(
            "description-changed", "description", old.description, new.description, "/description"
        )
        old_provider, new_provider = _provider(old), _provider(new)
        if old_provider != new_provider:
            self.add(
                "provider-changed",
                "the provider changed",
                new.provider.pointer if new.provider else "/provider",
                before=old_provider,
                after=new_provider,
            )
        self.text_change(
            "documentation-url-changed",
            "documentation link",
            old.documentation_url,
            new.documentation_url,
            "/documentationUrl",
        )
        self.text_change("icon-url-changed", "icon link", old.icon_url, new.icon_url, "/iconUrl")
        old_signatures = [(s.protected, s.signature) for s in old.signatures]
        new_signatures = [(s.protected, s.signature) for s in new.signatures]
        if old_signatures != new_signatures:
            self.add(
                "signatures-changed",
                f"the card's signatures changed ({len(old.signatures)} before, {len(new.signatures)} now)",
                "/signatures",
                before=_signature_ids(old),
                after=_signature_ids(new),
            )
        for change in signature_changes(old, new, *self.verifications):
            self.add(
                change.code,
                change.message,
                change.pointer,
                before=change.before,
                after=change.after,
                side="base" if change.side == "base" else "head",
            )
        if old.version != new.version:
            self.add(
                "version-changed",
                f"the version {_q(new.version)} was added"
                if old.version is None
                else f"the version {_q(old.version)} was removed"
                if new.version is None
                else f"version {_q(old.version)} is now {_q(new.version)}",
                "/version",
                before=old.version,
                after=new.version,
            )

    def text_change(
        self, code: str, what: str, old: str | None, new: str | None, pointer: str, skill: str | None = None
    ) -> None:
        if old != new:
            verb = "was added" if old is None else "was removed" if new is None else "changed"
            self.add(code, f"the {what} {verb}", pointer, skill=skill, before=old, after=new)

    # -- interfaces ------------------------------------------------------------------------------------

    def interfaces(self) -> None:
        old, new = self.old.interfaces, self.new.interfaces
        exact, base_left, head_left = pair(list(old), list(new), _interface_key)
        # A base interface that states no protocol version (a v0.2 card) is the head's that states one at the
        # same URL and binding: a version written down (a2a-docgen convert writes one) changes nothing served.
        unstated = [i for i in base_left if not i.protocol_version]
        if unstated:
            stated, _, head_left = pair(unstated, head_left, lambda i: (i.url, i.protocol_binding))
            exact += stated
            base_left = [i for i in base_left if not any(i is before for before, _ in stated)]
        for before, after in exact:
            if before.tenant != after.tenant:
                self.add(
                    "tenant-changed",
                    _tenant_message(after.url, before.tenant, after.tenant),
                    after.pointer,
                    before=before.tenant,
                    after=after.tenant,
                )
        passes: tuple[tuple[str, Callable[[AgentInterface], object]], ...] = (
            ("protocol-version-dropped", lambda i: (i.url, i.protocol_binding)),
            ("protocol-binding-dropped", lambda i: (i.url, _version(i.protocol_version))),
            ("interface-url-changed", lambda i: (i.protocol_binding, _version(i.protocol_version))),
        )
        for code, key in passes:
            matched, base_left, head_left = pair(base_left, head_left, key)
            for before, after in matched:
                self.add(
                    code,
                    _interface_message(code, before, after),
                    after.pointer,
                    before=_interface_json(before),
                    after=_interface_json(after),
                )
        for gone in base_left:
            self.add(
                "interface-removed",
                f"the {_q(gone.protocol_binding)} interface at {_q(gone.url)} "
                f"(A2A {_version(gone.protocol_version)}) is no longer served",
                gone.pointer,
                before=_interface_json(gone),
                side="base",
            )
        for added in head_left:
            self.add(
                "interface-added",
                f"a {_q(added.protocol_binding)} interface is served at {_q(added.url)} "
                f"(A2A {_version(added.protocol_version)})",
                added.pointer,
                after=_interface_json(added),
            )
        if old and new and _interface_key(old[0]) != _interface_key(new[0]):
            still_served = any(_interface_key(i) == _interface_key(old[0]) for i in new)
            if still_served:
                self.add(
                    "preferred-interface-changed",
                    f"the preferred (first) interface is now {_q(new[0].protocol_binding)} at {_q(new[0].url)}; "
                    "clients that support its binding will switch to it",
                    new[0].pointer,
                    before=_interface_json(old[0]),
                    after=_interface_json(new[0]),
                )

    # -- capabilities and extensions ---------------------------------------------------------------------

    def capabilities(self) -> None:
        for attr, label, key, use in _CAPABILITIES:
            before = getattr(self.old.capabilities, attr) is True
            after = getattr(self.new.capabilities, attr) is True
            if before == after:
                continue
            pointer = join_pointer(self.new.capabilities.pointer, key)
            if attr == "extended_agent_card" and "supportsAuthenticatedExtendedCard" in self.new.source.raw:
                pointer = "/supportsAuthenticatedExtendedCard"
            if after:
                self.add("capability-enabled", f"{label} now supported", pointer, before=False, after=True)
            else:
                self.add(
                    "capability-disabled",
                    f"{label} no longer supported (absent counts as false); clients that {use} get an error",
                    pointer,
                    before=True,
                    after=False,
                )

    def extensions(self) -> None:
        old, new = self.old.capabilities.extensions, self.new.capabilities.extensions
        pairs, removed, added = pair(list(old), list(new), lambda e: e.uri)
        for before, after in pairs:
            if before.required != after.required:
                code = "extension-made-required" if after.required else "extension-made-optional"
                state = (
                    "is now required: clients that do not declare it are refused"
                    if after.required
                    else "is no longer required"
                )
                self.add(
                    code,
                    f"extension {_q(after.uri)} {state}",
                    after.pointer,
                    before=before.required,
                    after=after.required,
                )
            if before.description != after.description or before.params != after.params:
                self.add(
                    "extension-changed",
                    f"the description or parameters of extension {_q(after.uri)} changed",
                    after.pointer,
                    before=_extension_json(before),
                    after=_extension_json(after),
                )
        for gone in removed:
            self.add(
                "extension-removed",
                f"extension {_q(gone.uri)} is no longer supported: clients that activate it lose what it adds",
                gone.pointer,
                before=_extension_json(gone),
                side="base",
            )
        for ext in added:
            if ext.required:
                self.add(
                    "extension-added-required",
                    f"extension {_q(ext.uri)} is new and required: clients that do not declare it are refused",
                    ext.pointer,
                    after=_extension_json(ext),
                )
            else:
                self.add(
                    "extension-added",
                    f"extension {_q(ext.uri)} is now supported",
                    ext.pointer,
                    after=_extension_json(ext),
                )

    # -- media types -------------------------------------------------------------------------------------

    def modes(
        self,
        direction: Literal["input", "output"],
        old: Sequence[str],
        new: Sequence[str],
        pointer: str,
        skill: str | None,
        note: str,
    ) -> None:
        done, verb = _MODE_WORDS[direction]
        whose, verb = ("the card defaults", verb) if skill is None else ("the skill", verb + "s")
        for mode in old:
            if not _mode_covered(mode, new, direction):
                self.add(
                    f"{direction}-mode-removed",
                    f"{whose} no longer {verb} {_q(mode)}{note}",
                    pointer,
                    skill=skill,
                    before=mode,
                )
        for mode in new:
            if not _mode_covered(mode, old, direction):
                self.add(
                    f"{direction}-mode-added",
                    f"{_q(mode)} is now {done} by {whose}{note}",
                    pointer,
                    skill=skill,
                    after=mode,
                )

    def skill_modes(
        self, direction: Literal["input", "output"], skill: str, old: EffectiveModes, new: EffectiveModes
    ) -> None:
        if old.origin == "card" and new.origin == "card":
            return  # a change of the card defaults, reported once for the agent
        key = f"{direction}Modes"
        if old.origin != new.origin:
            note = (
                f" (the skill now declares its own {key}, which replace the card defaults)"
                if new.origin == "skill"
                else f" (the skill no longer declares {key} and takes the card defaults)"
            )
        else:
            note = ""
        self.modes(direction, old.modes, new.modes, new.pointer, skill, note)

    # -- security requirements ---------------------------------------------------------------------------

    def security(
        self,
        old: Sequence[SecurityRequirement],
        new: Sequence[SecurityRequirement],
        pointer: str,
        skill: str | None,
        note: str,
    ) -> None:
        """Tightened: a base alternative no head alternative admits. Loosened: the mirror image."""
        old_alts, new_alts = _alternatives(old), _alternatives(new)
        whose = "the card's requirements" if skill is None else "the skill's requirements"
        for tightened, alts, others in ((True, old_alts, new_alts), (False, new_alts, old_alts)):
            for alt in alts:
                if any(_admits(alt, other) for other in others):
                    continue
                if alt:
                    self.narrowed(alt, others, pointer, skill, note, tightened=tightened)
                    continue
                self.add(
                    "security-required" if tightened else "security-no-longer-required",
                    f"authentication is now required ({whose}: {_describe_all(new_alts)}){note}"
                    if tightened
                    else f"authentication is no longer required ({whose}){note}",
                    pointer,
                    skill=skill,
                    before=_requirements_json(old),
                    after=_requirements_json(new),
                )

    def narrowed(
        self,
        alt: Alternative,
        others: Sequence[Alternative],
        pointer: str,
        skill: str | None,
        note: str,
        *,
        tightened: bool,
    ) -> None:
        """Say how ``alt`` relates to its closest alternative on the other side.

        Tightened: ``alt`` is a base alternative no head alternative admits, and the closest head one asks
        for more. Loosened: ``alt`` is a head alternative, and the closest base one asked for more. Either
        way, what differs is what ``closest`` has beyond ``alt``.
        """
        same = [o for o in others if o.keys() == alt.keys()]
        if same:
            closest = min(same, key=lambda o: (sum(len(o[s] ^ alt[s]) for s in alt), _alt_sort_key(o)))
            for scheme in sorted(alt):
                extra = closest[scheme] - alt[scheme]
                if not extra:
                    continue
                old, new = (alt, closest) if tightened else (closest, alt)
                code = "security-scope-required" if tightened else "security-scope-no-longer-required"
                verb = "now requires" if tightened else "no longer requires"
                self.add(
                    code,
                    f"{verb} scope {_list(extra)} of {_q(scheme)}{note}",
                    pointer,
                    skill=skill,
                    before=_strings(sorted(old[scheme])),
                    after=_strings(sorted(new[scheme])),
                )
            return
        wider = [o for o in others if o.keys() >= alt.keys()]
        if wider:
            closest = min(wider, key=lambda o: (len(o.keys() ^ alt.keys()), _alt_sort_key(o)))
            schemes = _list(closest.keys() - alt.keys())
            old, new = (alt, closest) if tightened else (closest, alt)
            if tightened:
                code = "security-scheme-required"
                text = f"clients that authenticate with {_describe(alt)} now also need {schemes}"
            else:
                code = "security-scheme-no-longer-required"
                text = f"clients that authenticate with {_describe(alt)} no longer need {schemes} as well"
            self.add(
                code,
                f"{text}{note}",
                pointer,
                skill=skill,
                before=_strings(sorted(old)),
                after=_strings(sorted(new)),
            )
            return
        if tightened:
            self.add(
                "security-alternative-removed",
                f"authenticating with {_describe(alt)} is no longer accepted{note}",
                pointer,
                skill=skill,
                before=_alternative_json(alt),
            )
        else:
            self.add(
                "security-alternative-added",
                f"authenticating with {_describe(alt)} is now accepted{note}",
                pointer,
                skill=skill,
                after=_alternative_json(alt),
            )

    # -- security scheme definitions ---------------------------------------------------------------------

    def schemes(self) -> None:
        old, new = self.old.security_schemes, self.new.security_schemes
        for name in old:
            if name not in new:
                self.add(
                    "scheme-removed",
                    f"security scheme {_q(name)} is no longer declared",
                    old[name].pointer,
                    before=name,
                    side="base",
                )
        for name, scheme in new.items():
            if name not in old:
                self.add(
                    "scheme-added",
                    f"security scheme {_q(name)} ({_kind(scheme)}) is declared",
                    scheme.pointer,
                    after=name,
                )
            else:
                start = len(self.drafts)
                self.scheme(name, old[name], scheme)
                self.drafts[start:] = [self.scheme_use(name, d) for d in self.drafts[start:]]

    def scheme_use(self, name: str, draft: _Draft) -> _Draft:
        """A detail of scheme ``name`` matters to clients only when a requirement uses it before and after.

        Otherwise no client has to present the scheme (like ``scheme-added`` and ``scheme-removed``, the
        requirements decide), so the finding is at most ``info`` and says why.
        """
        if draft.code not in SCHEME_DETAIL_CODES:
            return draft
        before, after = name in _schemes_used(self.old), name in _schemes_used(self.new)
        if before and after:
            return draft
        why = (
            "no requirement uses it any more"
            if before
            else "no requirement used it before"
            if after
            else "no requirement uses it, so no client has to present it"
        )
        return dataclasses.replace(draft, message=f"{draft.message}; {why}", cap="info")

    def scheme(self, name: str, old: SecurityScheme, new: SecurityScheme) -> None:
        if _kind(old) != _kind(new):
            self.add(
                "scheme-type-changed",
                f"security scheme {_q(name)} changed from {_kind(old)} to {_kind(new)}",
                new.pointer,
                before=_kind(old),
                after=_kind(new),
            )
            return
        if old.description != new.description:
            self.add(
                "scheme-description-changed",
                f"the description of security scheme {_q(name)} changed",
                new.pointer,
                before=old.description,
                after=new.description,
            )
        if isinstance(old, APIKeySecurityScheme) and isinstance(new, APIKeySecurityScheme):
            if old.name != new.name:
                self.add(
                    "api-key-name-changed",
                    f"the API key of {_q(name)} is now sent as {_q(new.name)} (was {_q(old.name)})",
                    new.pointer,
                    before=old.name,
                    after=new.name,
                )
            if (old.location or "").lower() != (new.location or "").lower():
                self.add(
                    "api-key-location-changed",
                    f"the API key of {_q(name)} is now sent {_key_location(new.location)} (was {_key_location(old.location)})",
                    new.pointer,
                    before=old.location,
                    after=new.location,
                )
        elif isinstance(old, HTTPAuthSecurityScheme) and isinstance(new, HTTPAuthSecurityScheme):
            if (old.scheme or "").lower() != (new.scheme or "").lower():  # auth schemes are case-insensitive
                self.add(
                    "http-scheme-changed",
                    f"security scheme {_q(name)} now uses HTTP {_q(new.scheme)} (was {_q(old.scheme)})",
                    new.pointer,
                    before=old.scheme,
                    after=new.scheme,
                )
            if old.bearer_format != new.bearer_format:
                self.add(
                    "bearer-format-changed",
                    f"the bearer format of {_q(name)} changed",
                    new.pointer,
                    before=old.bearer_format,
                    after=new.bearer_format,
                )
        elif isinstance(old, OpenIdConnectSecurityScheme) and isinstance(new, OpenIdConnectSecurityScheme):
            if old.open_id_connect_url != new.open_id_connect_url and old.open_id_connect_url is not None:
                self.add(
                    "oidc-url-changed",
                    f"the OpenID Connect discovery URL of {_q(name)} {_now(new.open_id_connect_url)}",
                    new.pointer,
                    before=old.open_id_connect_url,
                    after=new.open_id_connect_url,
                )
        elif isinstance(old, OAuth2SecurityScheme) and isinstance(new, OAuth2SecurityScheme):
            self.oauth(name, old, new)

    def oauth(self, name: str, old: OAuth2SecurityScheme, new: OAuth2SecurityScheme) -> None:
        if old.oauth2_metadata_url != new.oauth2_metadata_url:
            if old.oauth2_metadata_url is None:
                self.add(
                    "oauth-metadata-url-added",
                    f"security scheme {_q(name)} now publishes authorization-server metadata",
                    new.pointer,
                    after=new.oauth2_metadata_url,
                )
            else:
                self.add(
                    "oauth-metadata-url-changed",
                    f"the authorization-server metadata URL of {_q(name)} {_now(new.oauth2_metadata_url)}",
                    new.pointer,
                    before=old.oauth2_metadata_url,
                    after=new.oauth2_metadata_url,
                )
        pairs, removed, added = pair(list(old.flows), list(new.flows), lambda f: f.kind)
        for flow in removed:
            self.add(
                "oauth-flow-removed",
                f"security scheme {_q(name)} no longer offers the {flow.kind} flow",
                flow.pointer,
                before=flow.kind,
                side="base",
            )
        for flow in added:
            self.add(
                "oauth-flow-added",
                f"security scheme {_q(name)} now offers the {flow.kind} flow",
                flow.pointer,
                after=flow.kind,
            )
        for before, after in pairs:
            self.flow(name, before, after)

    def flow(self, name: str, old: OAuthFlow, new: OAuthFlow) -> None:
        where = f"the {new.kind} flow of {_q(name)}"
        for attr, label in _OAUTH_URLS:
            before, after = getattr(old, attr), getattr(new, attr)
            if before is not None and before != after:
                self.add(
                    "oauth-url-changed",
                    f"the {label} of {where} {_now(after)}",
                    new.pointer,
                    before=before,
                    after=after,
                )
        if (old.pkce_required is True) != (new.pkce_required is True):
            if new.pkce_required:
                self.add("pkce-required", f"{where} now requires PKCE", new.pointer, before=False, after=True)
            else:
                self.add(
                    "pkce-no-longer-required",
                    f"{where} no longer requires PKCE",
                    new.pointer,
                    before=True,
                    after=False,
                )
        scopes_pointer = join_pointer(new.pointer, "scopes")
        for scope in old.scopes:
            if scope not in new.scopes:
                self.add(
                    "oauth-scope-removed",
                    f"{where} no longer declares scope {_q(scope)}; clients that request it may be refused",
                    scopes_pointer,
                    before=scope,
                )
            elif old.scopes[scope] != new.scopes[scope]:
                self.add(
                    "oauth-scope-description-changed",
                    f"the description of scope {_q(scope)} of {where} changed",
                    join_pointer(scopes_pointer, scope),
                    before=old.scopes[scope],
                    after=new.scopes[scope],
                )
        for scope in new.scopes:
            if scope not in old.scopes:
                self.add(
                    "oauth-scope-added",
                    f"{where} declares scope {_q(scope)}",
                    join_pointer(scopes_pointer, scope),
                    after=scope,
                )

    # -- skills ------------------------------------------------------------------------------------------

    def skills(self) -> None:
        old = [s for s in self.old.skills if s.id is not None]
        new = [s for s in self.new.skills if s.id is not None]
        pairs, removed, added = pair(old, new, lambda s: s.id)
        for skill in removed:
            named = f" ({_q(skill.name)})" if skill.name and skill.name != skill.id else ""
            self.add(
                "skill-removed",
                f"the skill is gone{named}; clients that call it fail",
                skill.pointer,
                skill=skill.id,
                before=skill.id,
                side="base",
            )
        for skill in added:
            named = f", {_q(skill.name)}" if skill.name and skill.name != skill.id else ""
            self.add("skill-added", f"a new skill{named}", skill.pointer, skill=skill.id, after=skill.id)
        for before, after in pairs:
            self.skill(before, after)

    def skill(self, old: AgentSkill, new: AgentSkill) -> None:
        sid = new.id
        self.text_change(
            "name-changed", "skill's name", old.name, new.name, join_pointer(new.pointer, "name"), sid
        )
        self.text_change(
            "description-changed",
            "skill's description",
            old.description,
            new.description,
            join_pointer(new.pointer, "description"),
            sid,
        )
        if set(old.tags) != set(new.tags):
            self.add(
                "tags-changed",
                "the skill's tags changed",
                join_pointer(new.pointer, "tags"),
                skill=sid,
                before=_strings(old.tags),
                after=_strings(new.tags),
            )
        if [e.text for e in old.examples] != [e.text for e in new.examples]:
            self.add(
                "examples-changed",
                "the skill's examples changed",
                join_pointer(new.pointer, "examples"),
                skill=sid,
                before=_strings(e.text for e in old.examples),
                after=_strings(e.text for e in new.examples),
            )
        assert sid is not None
        self.skill_modes("input", sid, old.effective_input_modes, new.effective_input_modes)
        self.skill_modes("output", sid, old.effective_output_modes, new.effective_output_modes)
        old_security, new_security = old.effective_security, new.effective_security
        if old_security.origin == "card" and new_security.origin == "card":
            return  # a change of the card's requirements, reported once for the agent
        note = ""
        if old_security.origin != new_security.origin:
            note = (
                " (the skill now declares its own requirements, which replace the card's)"
                if new_security.origin == "skill"
                else " (the skill no longer declares requirements and takes the card's)"
            )
        self.security(old_security.requirements, new_security.requirements, new_security.pointer, sid, note)


# -- helpers ------------------------------------------------------------------------------------------


def _q(value: object) -> str:
    """Card text quoted for a message."""
    if value is None:
        return "(none)"
    text = str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _list(values: Iterable[str]) -> str:
    return ", ".join(_q(v) for v in sorted(values))


def _inherit_note(skills: Sequence[str], who: str) -> str:
    if not skills:
        return ""
    shown = ", ".join(_q(s) for s in skills[:5])
    more = f" and {len(skills) - 5} more" if len(skills) > 5 else ""
    return f"; this applies to {who}: {shown}{more}"


def _strings(values: Iterable[str]) -> list[JSONValue]:
    return [*values]


def _media_type(mode: str) -> tuple[str, dict[str, str]]:
    """``"Text/Plain; Charset=UTF-8"`` -> ``("text/plain", {"charset": "utf-8"})``.

    Type, subtype and parameter names are case-insensitive, and so is the value of ``charset``.
    """
    _, *parameters = mode.split(";")
    parsed: dict[str, str] = {}
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        name, value = name.strip().lower(), value.strip().strip('"')
        if name:
            parsed[name] = value.lower() if name == "charset" else value
    return media_type_essence(mode), parsed


def _mode_covered(mode: str, modes: Sequence[str], direction: Literal["input", "output"]) -> bool:
    """Whether ``modes`` still includes ``mode``: the same type, or a wildcard (``*/*``, ``text/*``) over it.

    Parameters: an input type is covered by the same type with fewer parameters (``text/plain`` accepts
    ``text/plain;charset=utf-8``). An output type is covered by the same type with any parameters that do
    not contradict its own: a client that asks for ``text/plain`` still gets it when the agent produces
    ``text/plain;charset=utf-8``.
    """
    essence, parameters = _media_type(mode)
    major = essence.split("/", 1)[0]
    for candidate in modes:
        other, other_parameters = _media_type(candidate)
        if other in ("*/*", "*") or other == f"{major}/*":
            return True
        if other != essence:
            continue
        if direction == "output":
            shared = parameters.keys() & other_parameters.keys()
            if all(parameters[name] == other_parameters[name] for name in shared):
                return True
        elif other_parameters.items() <= parameters.items():
            return True
    return False


def _version(version: str | None) -> str | None:
    return (short_version(version) if version else None) or version


def _interface_key(interface: AgentInterface) -> object:
    return (interface.url, interface.protocol_binding, _version(interface.protocol_version))


def _interface_json(interface: AgentInterface) -> JSONValue:
    result: dict[str, JSONValue] = {
        "url": interface.url,
        "protocolBinding": interface.protocol_binding,
        "protocolVersion": _version(interface.protocol_version),
    }
    if interface.tenant is not None:
        result["tenant"] = interface.tenant
    return result


def _interface_message(code: str, before: AgentInterface, after: AgentInterface) -> str:
    if code == "protocol-version-dropped":
        return (
            f"{_q(after.url)} ({after.protocol_binding}) no longer serves A2A {_version(before.protocol_version)}; "
            f"it serves {_version(after.protocol_version)}"
        )
    if code == "protocol-binding-dropped":
        return f"{_q(after.url)} no longer serves {_q(before.protocol_binding)}; it serves {_q(after.protocol_binding)}"
    return f"the {_q(after.protocol_binding)} interface moved from {_q(before.url)} to {_q(after.url)}"


def _now(value: str | None) -> str:
    """``is now "x"``, or ``was removed`` for a value the head no longer sets."""
    return "was removed" if value is None else f"is now {_q(value)}"


def _key_location(location: str | None) -> str:
    return f"in the {location}" if location else "without a location"


def _tenant_message(url: str | None, before: str | None, after: str | None) -> str:
    if before is None:
        return f"clients must now send tenant {_q(after)} to {_q(url)} (was none)"
    if after is None:
        return f"{_q(url)} no longer takes tenant {_q(before)}; clients that send it may be refused"
    return f"the tenant of {_q(url)} changed from {_q(before)} to {_q(after)}; clients copy it into every request"


def _extension_json(extension: AgentExtension) -> JSONValue:
    return {
        "uri": extension.uri,
        "required": extension.required,
        "description": extension.description,
        "params": dict(extension.params) if extension.params is not None else None,
    }


def _provider(card: AgentCard) -> JSONValue:
    if card.provider is None:
        return None
    return {"organization": card.provider.organization, "url": card.provider.url}


def _signature_ids(card: AgentCard) -> JSONValue:
    """Key ids of the signatures (or ``None`` for one whose header does not name one)."""
    result: list[JSONValue] = []
    for signature in card.signatures:
        header = signature.protected_header or {}
        kid = header.get("kid")
        result.append(kid if isinstance(kid, str) else None)
    return result


def _kind(scheme: SecurityScheme) -> str:
    if isinstance(scheme, UnknownSecurityScheme):
        return f"unknown ({scheme.label})" if scheme.label else "unknown"
    return scheme.kind


def _schemes_used(card: AgentCard) -> set[str]:
    """Names of the schemes some requirement of the card or of one of its skills refers to."""
    requirements = [*card.security_requirements]
    for skill in card.skills:
        requirements.extend(skill.security_requirements or ())
    return {name for requirement in requirements for name in requirement.schemes}


def _alternatives(requirements: Sequence[SecurityRequirement]) -> list[Alternative]:
    """The alternatives (OR) as scheme -> scope sets; no requirement is one empty alternative."""
    result: list[Alternative] = []
    for requirement in requirements:
        alt = {name: frozenset(scopes) for name, scopes in requirement.schemes.items()}
        if alt not in result:
            result.append(alt)
    return result or [{}]


def _admits(old: Alternative, new: Alternative) -> bool:
    """Whether every client that satisfies ``old`` also satisfies ``new`` (``new`` asks no more)."""
    return all(scheme in old and scopes <= old[scheme] for scheme, scopes in new.items())


def _alt_sort_key(alt: Alternative) -> list[tuple[str, list[str]]]:
    return sorted((name, sorted(scopes)) for name, scopes in alt.items())


def _describe(alt: Alternative) -> str:
    parts = []
    for name in sorted(alt):
        scopes = f" (scopes {_list(alt[name])})" if alt[name] else ""
        parts.append(f"{_q(name)}{scopes}")
    return " and ".join(parts) if parts else "no credentials"


def _describe_all(alts: Sequence[Alternative]) -> str:
    return " or ".join(_describe(a) for a in alts)


def _alternative_json(alt: Alternative) -> JSONValue:
    return {name: _strings(sorted(alt[name])) for name in sorted(alt)}


def _requirements_json(requirements: Sequence[SecurityRequirement]) -> JSONValue:
    return [{name: _strings(scopes) for name, scopes in r.schemes.items()} for r in requirements]
