"""Spec rules over the normalised model -> findings (located by the loader).

The loader's reader already reports structure (types, required members, era mix-ups). The rules here
check meaning: references between schemes and requirements, formats of URLs, versions and media types,
duplicates, deprecated flows, limits and deceptive text.
"""

from __future__ import annotations

from collections.abc import Sequence

from a2a_docgen.limits import Limits
from a2a_docgen.load.report import Report
from a2a_docgen.model import AgentCard, Diagnostic
from a2a_docgen.validate.rules import CARD_RULES, catalog_rules

__all__ = ["validate_card", "validate_catalog"]


def validate_card(card: AgentCard, report: Report, limits: Limits) -> None:
    """Add the findings of every card-level rule to ``report``."""
    for rule in CARD_RULES:
        rule(card, report, limits)


def validate_catalog(cards: Sequence[AgentCard]) -> list[Diagnostic]:
    """Rules across cards (duplicate agent names), already located."""
    return catalog_rules(cards)
