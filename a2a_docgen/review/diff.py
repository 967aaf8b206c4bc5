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
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from a2a_docgen.load.source import MISSING, PositionIndex, join_pointer, pointer_tokens, resolve_pointer
from a2a_docgen.model import AgentCard, Catalog, Diagnostic, JSONValue
from a2a_docgen.review.codes import (
    AGENT_ADDED,
    AGENT_REMOVED,
    CARD_ERROR_ADDED,
    CARD_ERROR_FIXED,
    CARD_UNREADABLE,
    CODES,
    CONFIG_CODES,
    NEW_CARD_ERROR,
    POLICY_CODES,
    REGISTRY,
    SEVERITIES,
    ChangeSeverity,
    ReviewCode,
    severity_at_least,
    severity_rank,
)
from a2a_docgen.review.compare import Draft, compare_agent
from a2a_docgen.review.compare.base import Side
from a2a_docgen.review.config import Acceptance, ConfigWarning, ReviewConfig
from a2a_docgen.review.match import HeadFiles, pair_agents, pair_passes
from a2a_docgen.review.policy import parse_version, version_finding
from a2a_docgen.review.rules import HeadConfig, RuleChange, Weakened, rule_changes
from a2a_docgen.review.settle import Settlement, utc_today

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
    """The agent's name (the head name, or the base name when the agent is gone); ``""`` for a finding about
    the configuration."""
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
        """A finding about the rules (the version policy, the configuration) rather than a change to what
        clients get."""
        return self.code in POLICY_CODES

    @property
    def configuration(self) -> bool:
        """A finding about the head's configuration file (``review.rules``)."""
        return self.code in CONFIG_CODES

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

    @property
    def fingerprint(self) -> str:
        """A stable id of the finding: its code, agent, skill and what changed (``before``, ``after``).

        Neither the file, the line nor an array index goes into it, so it survives reformatting, moved
        lines and reordered arrays; like oasdiff's ids, it lets annotations and accepted changes be
        matched from one run to the next. 16 hexadecimal digits of SHA-256.
        """
        identity = [self.code, self.agent, self.skill, self.before, self.after]
        text = json.dumps(identity, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    @property
    def docs_url(self) -> str:
        """The row of this finding's code in docs/review.md."""
        return REGISTRY[self.code].docs_url

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
            "fingerprint": self.fingerprint,
            "docs": self.docs_url,
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
    base_roots: Sequence[str] = (),
    today: date | None = None,
    positions: bool = True,
    head_config: HeadConfig | None = None,
) -> list[Change]:
    """Every change from ``base`` to ``head``, sorted by agent, skill, severity, code and pointer."""
    return review_catalogs(
        base,
        head,
        config=config,
        head_roots=head_roots,
        base_roots=base_roots,
        today=today,
        positions=positions,
        head_config=head_config,
    ).changes


def review_catalogs(
    base: Catalog,
    head: Catalog,
    *,
    config: ReviewConfig | None = None,
    head_roots: Sequence[str] = (),
    base_roots: Sequence[str] = (),
    today: date | None = None,
    positions: bool = True,
    head_config: HeadConfig | None = None,
) -> Review:
    """Compare, apply ``config`` (severities, acceptances as of ``today``), then the version policy.

    ``head_roots`` (``base_roots``) are the head (base) side's path arguments: with them, a base card is
    matched to a head file that failed to load at its place even when no card of the head side loaded,
    and a head file that does not load is known to have failed in the base too.

    A card is judged as clients read it: a head file that no longer loads is ``card-unreadable``, and an
    error the base card did not have is ``card-error-added`` (both breaking), so a change that leaves a
    card the a2a-sdk cannot parse is never "no breaking changes". An error the head no longer has is
    ``card-error-fixed``; the errors of a new agent's card are ``new-card-error`` (it has no clients to break).

    ``positions`` false: every change is at line 1, column 1 of its file, for a caller that shows no positions
    (the change history): locating a change scans its card's whole text, which costs more than the comparison.

    ``head_config``: the configuration the change leaves (with ``--base-ref``, where ``config`` is the base
    revision's): what it would change is reported too (``review.rules``), judged by ``config``.
    """
    judged_by = config
    config = config if config is not None else ReviewConfig()
    settlement = Settlement(config, today if today is not None else utc_today())
    files = HeadFiles(head, head_roots)
    review = _Reviewer(settlement, positions=positions)
    pairs, removed, added = pair_agents(base.cards, head.cards)
    counterparts: set[str] = set()
    for card in removed:
        counterpart = files.counterpart(card)
        anchor = Location(file=counterpart, line=1, column=1, pointer="") if counterpart else None
        if counterpart is not None and files.no_longer_loads(card):
            counterparts.add(counterpart)
            review.add_unreadable(card.name or "", counterpart, head.diagnostics_for(counterpart), card.name)
            continue
        review.add(
            Draft(
                agent=card.name or "",
                skill=None,
                code=AGENT_REMOVED,
                message="the agent is gone",
                pointer="",
                side="base",
                before=card.name,
            ),
            card,
            anchor=anchor,
        )
    already_broken = _unloadable_relpaths(base, base_roots)
    for path in head.excluded:
        if path not in counterparts and path not in base.excluded:
            relpath = files.relpath(path)
            if relpath is None or relpath not in already_broken:
                review.add_unreadable(os.path.basename(path), path, head.diagnostics_for(path), None)
    for card in added:
        review.add(
            Draft(
                agent=card.name or "",
                skill=None,
                code=AGENT_ADDED,
                message="a new agent",
                pointer="",
                after=card.name,
            ),
            card,
        )
        review.errors_of_new_card(card, head.diagnostics_for(card.source.path))
    for old, new in pairs:
        mine = [
            review.add(d, old if d.side == "base" else new, head_card=new)
            for d in compare_agent(old, new, base.verification(old), head.verification(new))
        ]
        mine += review.card_errors(
            old, new, base.diagnostics_for(old.source.path), head.diagnostics_for(new.source.path)
        )
        if config.version_policy:
            review.version_policy(old, new, [c for c in mine if c is not None])
    if head_config is not None:
        judged = list(review.changes)

        def weakened() -> Weakened:
            under_head = review_catalogs(
                base,
                head,
                config=head_config.config,
                head_roots=head_roots,
                base_roots=base_roots,
                today=settlement.today,
                positions=positions,
            )
            return _weakened(judged, under_head.changes)

        for rule in rule_changes(judged_by, head_config, weakened):
            review.add_rule(rule)
    review.changes.sort(key=Change.sort_key)
    return Review(changes=review.changes, warnings=settlement.warnings())


def _weakened(judged: Sequence[Change], under_head: Sequence[Change]) -> Weakened:
    """Which findings ``judged`` (under the base's rules) shows that ``under_head`` (the same review under the
    head's rules) hides, lowers or accepts."""
    again = {(c.fingerprint, c.side, c.pointer): c for c in under_head}
    codes: dict[str, int] = {}
    acceptances: dict[Acceptance, int] = {}
    for change in judged:
        if change.accepted is not None:
            continue
        other = again.get((change.fingerprint, change.side, change.pointer))
        if other is not None and other.accepted is not None:
            acceptances[other.accepted] = acceptances.get(other.accepted, 0) + 1
        elif other is None or severity_rank(other.severity) > severity_rank(change.severity):
            codes[change.code] = codes.get(change.code, 0) + 1
    return Weakened(codes=codes, acceptances=acceptances)


def _errors(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.severity == "error"]


def _describe_errors(diagnostics: Sequence[Diagnostic]) -> str:
    errors = _errors(diagnostics)
    if not errors:
        return ""
    first = errors[0]
    more = f" and {len(errors) - 1} more" if len(errors) > 1 else ""
    return f": {first.message} (line {first.line}, column {first.column}) [{first.code}]{more}"


_ERROR_WORDING: dict[ReviewCode, str] = {
    CARD_ERROR_ADDED: "the card has a new error, which clients such as the a2a-sdk may refuse",
    CARD_ERROR_FIXED: "card error fixed",
    NEW_CARD_ERROR: "the new card has an error, which clients such as the a2a-sdk may refuse",
}


def _error_draft(agent: str, code: ReviewCode, diagnostic: Diagnostic) -> Draft:
    """The finding of one card error: new, fixed (in the base card) or of a new agent's card."""
    fixed = code is CARD_ERROR_FIXED
    return Draft(
        agent=agent,
        skill=None,
        code=code,
        message=f"{_ERROR_WORDING[code]}: {diagnostic.message} [{diagnostic.code}]",
        pointer=diagnostic.pointer,
        side="base" if fixed else "head",
        before=diagnostic.code if fixed else None,
        after=None if fixed else diagnostic.code,
    )


def _unloadable_relpaths(base: Catalog, roots: Sequence[str]) -> set[str]:
    """The paths below their arguments of the base files that did not load either."""
    files = HeadFiles(base, roots)
    return {relpath for path in base.excluded if (relpath := files.relpath(path)) is not None}


class _Reviewer:
    """Turns drafts into located, settled changes, building each card's position index once."""

    def __init__(self, settlement: Settlement, *, positions: bool = True) -> None:
        self.settlement = settlement
        self.positions = positions
        self.changes: list[Change] = []
        self._indexes: dict[int, PositionIndex] = {}

    def index(self, card: AgentCard) -> PositionIndex:
        """The card's position index (an empty one, where everything is at line 1, column 1, without
        ``positions``)."""
        index = self._indexes.get(id(card))
        if index is None:
            text = card.source.text if self.positions else ""
            index = self._indexes[id(card)] = PositionIndex.build(text)
        return index

    def add(
        self,
        draft: Draft,
        card: AgentCard,
        *,
        head_card: AgentCard | None = None,
        anchor: Location | None = None,
    ) -> Change | None:
        """Locate ``draft`` in ``card`` and keep it, unless the configuration hides its code."""
        severity = self.settlement.severity(draft.code.name, draft.cap)
        if severity is None:
            return None
        at = draft.at if draft.at is not None and draft.side == "head" else draft.pointer
        line, column = self.index(card).locate(at)
        if draft.side == "base" and head_card is not None:
            anchor = self.anchor(draft.pointer, head_card)
        return self.keep(self.change(draft, severity, card.source.path, line, column, anchor))

    @staticmethod
    def change(
        draft: Draft,
        severity: ChangeSeverity,
        file: str,
        line: int,
        column: int,
        anchor: Location | None = None,
    ) -> Change:
        return Change(
            agent=draft.agent,
            skill=draft.skill,
            severity=severity,
            code=draft.code.name,
            message=draft.message,
            pointer=draft.pointer,
            before=draft.before,
            after=draft.after,
            side=draft.side,
            file=file,
            line=line,
            column=column,
            anchor=anchor,
        )

    def keep(self, change: Change) -> Change:
        """Keep ``change`` with the configuration's acceptance of it, if any."""
        accepted = self.settlement.acceptance(
            change.agent, change.skill, change.code, change.pointer, change.fingerprint
        )
        if accepted is not None:
            change = dataclasses.replace(change, accepted=accepted)
        self.changes.append(change)
        return change

    def add_rule(self, rule: RuleChange) -> Change | None:
        """A finding about the head's configuration, judged by the review's own."""
        severity = self.settlement.severity(rule.draft.code.name, rule.draft.cap)
        if severity is None:
            return None
        return self.keep(self.change(rule.draft, severity, rule.file, rule.line, rule.column))

    def add_unreadable(
        self, agent: str, path: str, diagnostics: Sequence[Diagnostic], before: str | None
    ) -> Change | None:
        """``card-unreadable`` for the head file at ``path``, shown at its first error."""
        severity = self.settlement.severity(CARD_UNREADABLE.name)
        if severity is None:
            return None
        errors = _errors(diagnostics)
        first = errors[0] if errors else None
        change = Change(
            agent=agent,
            skill=None,
            severity=severity,
            code=CARD_UNREADABLE.name,
            message=f"the file no longer loads as a card, so no client can read it{_describe_errors(errors)}"
            if before is not None
            else f"the file does not load as a card, so no client can read it{_describe_errors(errors)}",
            pointer=first.pointer if first else "",
            before=before,
            after=[d.code for d in errors],
            side="head",
            file=path,
            line=first.line if first else 1,
            column=first.column if first else 1,
        )
        return self.keep(change)

    def card_errors(
        self, old: AgentCard, new: AgentCard, before: Sequence[Diagnostic], after: Sequence[Diagnostic]
    ) -> list[Change | None]:
        """``card-error-added`` for each error of the head card that the base card did not have, and
        ``card-error-fixed`` for each error of the base card that the head card no longer has.

        A base error is the same error when it has the same code and the same pointer, else the same
        code and message (an error whose array index moved, a skill inserted before it), else, across eras
        (a v0.3 card rewritten as v1.0 has other pointers), the same code.
        """
        keys: list[Callable[[Diagnostic], object]] = [
            lambda d: (d.code, d.pointer),
            lambda d: (d.code, d.message),
        ]
        if old.era != new.era:
            keys.append(lambda d: d.code)
        _, fixed, added = pair_passes(_errors(before), _errors(after), keys)
        agent = new.name or ""
        found = [self.add(_error_draft(agent, CARD_ERROR_ADDED, d), new) for d in added]
        found += [self.add(_error_draft(agent, CARD_ERROR_FIXED, d), old, head_card=new) for d in fixed]
        return found

    def errors_of_new_card(self, card: AgentCard, diagnostics: Sequence[Diagnostic]) -> None:
        """``new-card-error`` for each error of a new agent's card: no client reads it yet, so nothing breaks,
        but the card needs fixing before any does."""
        for diagnostic in _errors(diagnostics):
            self.add(_error_draft(card.name or "", NEW_CARD_ERROR, diagnostic), card)

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
        # A card that became invalid needs fixing, not a new version: only contract changes count.
        contract = [c for c in changes if REGISTRY[c.code].family != "cards"]
        if not any(c.severity == "breaking" and c.accepted is None for c in contract):
            return
        finding = version_finding(old.version, new.version)
        if finding is not None:
            code, message = finding
            self.add(
                Draft(
                    agent=new.name or "",
                    skill=None,
                    code=REGISTRY[code],
                    message=message,
                    pointer="/version",
                    before=old.version,
                    after=new.version,
                ),
                new,
            )
