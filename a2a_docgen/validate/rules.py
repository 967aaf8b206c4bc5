"""The card rules. Each rule is a function ``(card, report, limits) -> None``; CARD_RULES lists them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from a2a_docgen.limits import Limits
from a2a_docgen.load.report import Report
from a2a_docgen.load.source import PositionIndex
from a2a_docgen.model import AgentCard, Diagnostic

Rule = Callable[[AgentCard, Report, Limits], None]


def duplicate_skill_ids(card: AgentCard, report: Report, limits: Limits) -> None:
    seen: dict[str, str] = {}
    for skill in card.skills:
        if skill.id is None:
            continue
        if skill.id in seen:
            report.error(
                "duplicate-skill-id",
                skill.pointer + "/id",
                f'skill id "{skill.id}" is already used by {seen[skill.id]}; skill ids must be unique in a card',
            )
        else:
            seen[skill.id] = skill.pointer


CARD_RULES: tuple[Rule, ...] = (duplicate_skill_ids,)


def catalog_rules(cards: Sequence[AgentCard]) -> list[Diagnostic]:
    by_name: dict[str, AgentCard] = {}
    result = []
    for card in sorted(cards, key=lambda c: c.source.path):
        if card.name is None:
            continue
        key = card.name.strip().casefold()
        if key in by_name:
            line, column = PositionIndex.build(card.source.text).locate("/name")
            result.append(
                Diagnostic(
                    severity="error",
                    code="duplicate-agent-name",
                    message=f'agent name "{card.name}" is also used by {by_name[key].source.path}; agents are '
                    "matched by name, so each card in a catalogue needs its own",
                    file=card.source.path,
                    line=line,
                    column=column,
                    pointer="/name",
                )
            )
        else:
            by_name[key] = card
    return result
