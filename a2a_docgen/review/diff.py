"""Compare two catalogues: what a change to agent cards breaks for the clients of those agents.

Everything is compared on the normalised model, never on raw JSON: a skill without its own ``inputModes``
accepts the card defaults, a skill without its own requirements inherits the card's, and a v0.3 card
compares equal to its faithful v1.0 form (only ``era-changed`` is reported).

Agents are matched by name (exact, then case-insensitively), then an agent that disappeared is matched to
an agent that appeared with the same preferred interface URL (a rename). Skills are matched by id,
interfaces by URL, binding and protocol version, extensions by URI, security schemes by name.

Every finding has a stable code with a fixed severity (``CODES``, documented in docs/review.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from a2a_docgen.load.normalize import major_minor
from a2a_docgen.load.source import PositionIndex, join_pointer
from a2a_docgen.model import (
    AgentCard,
    AgentExtension,
    AgentInterface,
    AgentSkill,
    APIKeySecurityScheme,
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

__all__ = [
    "CODES",
    "SEVERITIES",
    "Change",
    "ChangeSeverity",
    "diff_catalogs",
    "parse_version",
    "severity_at_least",
]

ChangeSeverity = Literal["breaking", "non-breaking", "info"]
Side = Literal["base", "head"]

SEVERITIES: tuple[ChangeSeverity, ...] = ("breaking", "non-breaking", "info")
"""Most severe first; the order of sorting and of ``--fail-on``."""

B: ChangeSeverity = "breaking"
N: ChangeSeverity = "non-breaking"
I: ChangeSeverity = "info"  # noqa: E741

CODES: dict[str, tuple[ChangeSeverity, str]] = {
    # agents and their identity
    "agent-added": (N, "a card for a new agent appeared"),
    "agent-removed": (B, "an agent's card disappeared (or no longer loads)"),
    "agent-renamed": (I, "an agent's name changed; it was matched by its preferred interface URL"),
    "era-changed": (I, "the card is written in the shape of another A2A version (v0.3 JSON, v1.0 ProtoJSON)"),
    "version-changed": (I, "the agent's own version changed"),
    "version-not-bumped": (B, "breaking changes ship without a major version bump of the card's version"),
    "version-not-semver": (I, "breaking changes ship, but a version is not semantic and cannot be judged"),
    "description-changed": (I, "an agent's or skill's description changed"),
    "provider-changed": (I, "the provider's organisation or URL changed"),
    "documentation-url-changed": (I, "the documentation link changed"),
    "icon-url-changed": (I, "the icon link changed"),
    "signatures-changed": (I, "the card's signatures changed"),
    # interfaces
    "interface-added": (N, "a new interface is served"),
    "interface-removed": (B, "an interface is no longer served"),
    "interface-url-changed": (B, "an interface moved to another URL"),
    "protocol-binding-dropped": (B, "a URL no longer serves a protocol binding it served"),
    "protocol-version-dropped": (B, "a URL and binding no longer serve an A2A version they served"),
    "tenant-changed": (B, "the tenant clients must send to an interface changed"),
    "preferred-interface-changed": (N, "another interface is now the first (preferred) one"),
    # capabilities and extensions
    "capability-disabled": (B, "streaming, push notifications or the extended card is no longer supported"),
    "capability-enabled": (N, "streaming, push notifications or the extended card is now supported"),
    "extension-added": (N, "an optional extension is now supported"),
    "extension-added-required": (B, "a new extension is required from clients"),
    "extension-removed": (N, "an extension is no longer supported"),
    "extension-made-required": (B, "an extension that was optional is now required"),
    "extension-made-optional": (N, "an extension that was required is now optional"),
    "extension-changed": (I, "an extension's description or parameters changed"),
    # media types (agent: the card defaults; skill: its effective modes)
    "input-mode-removed": (B, "a media type is no longer accepted"),
    "input-mode-added": (N, "a media type is now accepted"),
    "output-mode-removed": (B, "a media type is no longer produced"),
    "output-mode-added": (N, "a media type is now produced"),
    # security requirements (agent: the card's; skill: its effective requirements)
    "security-required": (B, "authentication is required where none was"),
    "security-no-longer-required": (N, "authentication is no longer required"),
    "security-alternative-removed": (B, "a way to authenticate is no longer accepted"),
    "security-alternative-added": (N, "a new way to authenticate is accepted"),
    "security-scheme-required": (B, "a scheme is now required in addition to the others"),
    "security-scheme-no-longer-required": (N, "a scheme is no longer required in addition to the others"),
    "security-scope-required": (B, "a scope is now required"),
    "security-scope-no-longer-required": (N, "a scope is no longer required"),
    # security scheme definitions
    "scheme-added": (I, "a security scheme is declared (requirements that use it are reported apart)"),
    "scheme-removed": (I, "a security scheme is no longer declared (requirements are reported apart)"),
    "scheme-type-changed": (B, "a security scheme changed its kind (apiKey, http, oauth2 ...)"),
    "scheme-description-changed": (I, "a security scheme's description changed"),
    "api-key-name-changed": (B, "the name of the header, query parameter or cookie of an API key changed"),
    "api-key-location-changed": (B, "where an API key is sent (header, query, cookie) changed"),
    "http-scheme-changed": (B, "the HTTP authentication scheme (Bearer, Basic ...) changed"),
    "bearer-format-changed": (I, "the bearer format hint changed"),
    "oidc-url-changed": (B, "the OpenID Connect discovery URL changed"),
    "oauth-metadata-url-changed": (B, "the OAuth authorization-server metadata URL changed or was removed"),
    "oauth-metadata-url-added": (N, "an OAuth authorization-server metadata URL is now declared"),
    "oauth-flow-added": (N, "an OAuth flow is now offered"),
    "oauth-flow-removed": (B, "an OAuth flow is no longer offered"),
    "oauth-url-changed": (B, "an OAuth authorization, token, refresh or device URL changed"),
    "oauth-scope-added": (N, "an OAuth flow declares a new scope"),
    "oauth-scope-removed": (B, "an OAuth flow no longer declares a scope clients may request"),
    "oauth-scope-description-changed": (I, "the description of an OAuth scope changed"),
    "pkce-required": (B, "PKCE is now mandatory"),
    "pkce-no-longer-required": (N, "PKCE is no longer mandatory"),
    # skills
    "skill-added": (N, "a skill was added"),
    "skill-removed": (B, "a skill was removed"),
    "name-changed": (I, "a skill's name changed"),
    "tags-changed": (I, "a skill's tags changed"),
    "examples-changed": (I, "a skill's examples changed"),
}
"""Every code: its severity and what it means (docs/review.md lists the same)."""

_RANK = {severity: rank for rank, severity in enumerate(SEVERITIES)}


def severity_at_least(severity: ChangeSeverity, threshold: ChangeSeverity) -> bool:
    """``breaking`` is at least ``non-breaking``, which is at least ``info``."""
    return _RANK[severity] <= _RANK[threshold]


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """One finding of a review."""

    agent: str
    """The agent's name (the head name, or the base name when the agent is gone)."""
    skill: str | None
    """The skill id, or ``None`` for a change to the agent as a whole (card defaults, interfaces ...)."""
    severity: ChangeSeverity
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

    def sort_key(self) -> tuple[str, str, bool, str, int, str, str, str]:
        return (
            self.agent.casefold(),
            self.agent,
            self.skill is not None,
            self.skill or "",
            _RANK[self.severity],
            self.code,
            self.pointer,
            self.message,
        )

    def to_json(self) -> dict[str, JSONValue]:
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
        }


def diff_catalogs(base: Catalog, head: Catalog) -> list[Change]:
    """Every change from ``base`` to ``head``, sorted by agent, skill, severity, code and pointer."""
    locator = _Locator()
    changes: list[Change] = []
    pairs, removed, added = _pair_agents(base.cards, head.cards)
    for card in removed:
        gone = " (its file no longer loads as a card)" if card.source.path in head.excluded else ""
        draft = _Draft(
            agent=card.name or "",
            skill=None,
            code="agent-removed",
            message=f"the agent is gone{gone}",
            pointer="",
            side="base",
            before=card.name,
        )
        changes.append(locator.finish(draft, card))
    for card in added:
        draft = _Draft(
            agent=card.name or "",
            skill=None,
            code="agent-added",
            message="a new agent",
            pointer="",
            after=card.name,
        )
        changes.append(locator.finish(draft, card))
    for old, new in pairs:
        changes.extend(
            locator.finish(d, old if d.side == "base" else new) for d in _AgentDiff(old, new).run()
        )
    changes.sort(key=Change.sort_key)
    return changes


@dataclass(frozen=True, slots=True, kw_only=True)
class _Draft:
    """A finding before it is located in its file."""

    agent: str
    skill: str | None
    code: str
    message: str
    pointer: str
    side: Side = "head"
    before: JSONValue = None
    after: JSONValue = None


class _Locator:
    """Turns drafts into located changes, building each card's position index once."""

    def __init__(self) -> None:
        self._indexes: dict[int, PositionIndex] = {}

    def finish(self, draft: _Draft, card: AgentCard) -> Change:
        index = self._indexes.get(id(card))
        if index is None:
            index = self._indexes[id(card)] = PositionIndex.build(card.source.text)
        line, column = index.locate(draft.pointer)
        return Change(
            agent=draft.agent,
            skill=draft.skill,
            severity=CODES[draft.code][0],
            code=draft.code,
            message=draft.message,
            pointer=draft.pointer,
            before=draft.before,
            after=draft.after,
            side=draft.side,
            file=card.source.path,
            line=line,
            column=column,
        )


# -- matching -------------------------------------------------------------------------------------------

T = TypeVar("T")


def _pair_agents(
    base: Sequence[AgentCard], head: Sequence[AgentCard]
) -> tuple[list[tuple[AgentCard, AgentCard]], list[AgentCard], list[AgentCard]]:
    """(matched pairs, removed, added); see the module docstring for the order of the passes."""
    keys: tuple[Callable[[AgentCard], object], ...] = (
        lambda c: (c.name, c.source.relpath),
        lambda c: c.name,
        lambda c: (c.name or "").casefold(),
        lambda c: c.interfaces[0].url if c.interfaces and c.interfaces[0].url else None,
    )
    return _pair_passes(base, head, keys)


def _pair_passes(
    base: Sequence[T], head: Sequence[T], keys: Iterable[Callable[[T], object]]
) -> tuple[list[tuple[T, T]], list[T], list[T]]:
    """Pair items pass by pass: each pass pairs what is left by its key."""
    pairs: list[tuple[T, T]] = []
    base_left, head_left = list(base), list(head)
    for key in keys:
        matched, base_left, head_left = _pair(base_left, head_left, key)
        pairs.extend(matched)
    return pairs, base_left, head_left


def _pair(
    base: list[T], head: list[T], key: Callable[[T], object]
) -> tuple[list[tuple[T, T]], list[T], list[T]]:
    """Pair items with equal, non-None keys, in order (the n-th base with the n-th head of a key)."""
    waiting: dict[object, list[T]] = {}
    for item in head:
        k = key(item)
        if k is not None:
            waiting.setdefault(k, []).append(item)
    pairs: list[tuple[T, T]] = []
    base_left: list[T] = []
    taken: set[int] = set()
    for item in base:
        k = key(item)
        candidates = waiting.get(k) if k is not None else None
        if candidates:
            partner = candidates.pop(0)
            taken.add(id(partner))
            pairs.append((item, partner))
        else:
            base_left.append(item)
    return pairs, base_left, [item for item in head if id(item) not in taken]


# -- one agent ------------------------------------------------------------------------------------------

_CAPABILITIES: tuple[tuple[str, str, str], ...] = (
    ("streaming", "streaming", "streaming"),
    ("push_notifications", "push notifications", "pushNotifications"),
    ("extended_agent_card", "the authenticated extended agent card", "extendedAgentCard"),
)
_OAUTH_URLS: tuple[tuple[str, str], ...] = (
    ("authorization_url", "authorization URL"),
    ("token_url", "token URL"),
    ("refresh_url", "refresh URL"),
    ("device_authorization_url", "device authorization URL"),
)
_MODE_WORDS = {"input": ("accepted", "accepts"), "output": ("produced", "produces")}

Alternative = dict[str, frozenset[str]]
"""One security alternative: scheme name -> required scopes."""


class _AgentDiff:
    """The changes between two versions of one agent's card."""

    def __init__(self, old: AgentCard, new: AgentCard) -> None:
        self.old, self.new = old, new
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
        self.version_policy()
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
        if old.version != new.version:
            self.add(
                "version-changed",
                f"version {_q(old.version)} is now {_q(new.version)}",
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
        exact, base_left, head_left = _pair(list(old), list(new), _interface_key)
        for before, after in exact:
            if before.tenant != after.tenant:
                self.add(
                    "tenant-changed",
                    f"the tenant of {_q(after.url)} changed from {_q(before.tenant)} to {_q(after.tenant)}; "
                    "clients copy it into every request",
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
            matched, base_left, head_left = _pair(base_left, head_left, key)
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
        for attr, label, key in _CAPABILITIES:
            before = getattr(self.old.capabilities, attr) is True
            after = getattr(self.new.capabilities, attr) is True
            if before == after:
                continue
            pointer = join_pointer(self.new.capabilities.pointer, key)
            if attr == "extended_agent_card" and "supportsAuthenticatedExtendedCard" in self.new.source.raw:
                pointer = "/supportsAuthenticatedExtendedCard"
            if after:
                self.add("capability-enabled", f"{label} is now supported", pointer, before=False, after=True)
            else:
                self.add(
                    "capability-disabled",
                    f"{label} is no longer supported (absent counts as false); clients that use it get an error",
                    pointer,
                    before=True,
                    after=False,
                )

    def extensions(self) -> None:
        old, new = self.old.capabilities.extensions, self.new.capabilities.extensions
        pairs, removed, added = _pair(list(old), list(new), lambda e: e.uri)
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
                f"extension {_q(gone.uri)} is no longer supported",
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
        whose = "the card defaults" if skill is None else "the skill"
        for mode in old:
            if not _mode_covered(mode, new):
                self.add(
                    f"{direction}-mode-removed",
                    f"{whose} no longer {verb} {_q(mode)}{note}",
                    pointer,
                    skill=skill,
                    before=mode,
                )
        for mode in new:
            if not _mode_covered(mode, old):
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
                self.scheme(name, old[name], scheme)

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
                    f"the API key of {_q(name)} is now sent in the {new.location} (was the {old.location})",
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
                    f"the OpenID Connect discovery URL of {_q(name)} is now {_q(new.open_id_connect_url)}",
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
                    f"the authorization-server metadata URL of {_q(name)} is now {_q(new.oauth2_metadata_url)}",
                    new.pointer,
                    before=old.oauth2_metadata_url,
                    after=new.oauth2_metadata_url,
                )
        pairs, removed, added = _pair(list(old.flows), list(new.flows), lambda f: f.kind)
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
                    f"the {label} of {where} is now {_q(after)}",
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
        pairs, removed, added = _pair(old, new, lambda s: s.id)
        for skill in removed:
            self.add(
                "skill-removed",
                f"skill {_q(skill.id)} is gone",
                skill.pointer,
                skill=skill.id,
                before=skill.id,
                side="base",
            )
        for skill in added:
            self.add(
                "skill-added", f"skill {_q(skill.id)} is new", skill.pointer, skill=skill.id, after=skill.id
            )
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

    # -- versioning --------------------------------------------------------------------------------------

    def version_policy(self) -> None:
        if not any(CODES[d.code][0] == "breaking" for d in self.drafts):
            return
        old, new = self.old.version, self.new.version
        if old == new:
            hint = f"; bump it to {_next_major(old)}" if parse_version(old) else ""
            self.add(
                "version-not-bumped",
                f"breaking changes ship but the version is still {_q(new)}{hint}",
                "/version",
                before=old,
                after=new,
            )
            return
        old_parsed, new_parsed = parse_version(old), parse_version(new)
        if old_parsed is None or new_parsed is None:
            bad = old if old_parsed is None else new
            self.add(
                "version-not-semver",
                f"breaking changes ship and the version went from {_q(old)} to {_q(new)}, but {_q(bad)} is "
                "not a semantic version, so whether that is a major bump cannot be told",
                "/version",
                before=old,
                after=new,
            )
        elif not _is_major_bump(old_parsed, new_parsed):
            self.add(
                "version-not-bumped",
                f"breaking changes ship but the version went from {_q(old)} to {_q(new)}, which is not a "
                f"major bump; use {_next_major(old)} or later",
                "/version",
                before=old,
                after=new,
            )


# -- helpers ------------------------------------------------------------------------------------------

_SEMVER = re.compile(
    r"^[vV]?(0|[1-9]\d*)(?:\.(0|[1-9]\d*)(?:\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)?)?$"
)


def parse_version(version: str | None) -> tuple[int, int, int] | None:
    """``"1.2.3"``, ``"v1.2"``, ``"2.0.0-rc.1"`` -> (major, minor, patch); ``None`` when not semantic.

    Missing minor and patch parts count as 0; pre-release and build suffixes need all three parts (so a date
    such as ``2024-05`` is not taken for version 2024).
    """
    match = _SEMVER.match(version.strip()) if version else None
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 0)


def _is_major_bump(old: tuple[int, int, int], new: tuple[int, int, int]) -> bool:
    """Breaking-change bump in the sense of ``^`` ranges: the leftmost non-zero part of ``old`` grows.

    So 1.4.2 -> 2.0.0, 0.3.1 -> 0.4.0 and 0.0.3 -> 0.0.4 are all bumps that announce breaking changes.
    """
    level = next((i for i, part in enumerate(old) if part), 2)
    return new[: level + 1] > old[: level + 1]


def _next_major(version: str | None) -> str:
    parsed = parse_version(version)
    if parsed is None:
        return "a new major version"
    major, minor, patch = parsed
    if major:
        return f"{major + 1}.0.0"
    return f"0.{minor + 1}.0" if minor else f"0.0.{patch + 1}"


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


def _essence(mode: str) -> str:
    return mode.split(";", 1)[0].strip().lower()


def _mode_covered(mode: str, modes: Sequence[str]) -> bool:
    """Whether ``modes`` still includes ``mode``: the same type, or a wildcard (``*/*``, ``text/*``) over it."""
    wanted = mode.strip().lower()
    essence = _essence(mode)
    major = essence.split("/", 1)[0]
    for candidate in modes:
        other = candidate.strip().lower()
        if other in (wanted, essence, "*/*", "*") or other == f"{major}/*":
            return True
    return False


def _version(version: str | None) -> str | None:
    parsed = major_minor(version) if version else None
    return f"{parsed[0]}.{parsed[1]}" if parsed else version


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
