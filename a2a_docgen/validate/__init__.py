"""Spec rules over the normalised model -> findings (located by the loader).

The loader's reader already reports structure (types, required members, era mix-ups). The rules here
check meaning: references between schemes and requirements, formats of URLs, versions and media types,
duplicates, deprecated flows, limits and deceptive text.
"""

from __future__ import annotations

from collections.abc import Sequence

from a2a_docgen.diagnostics import CHECKING_STOPPED
from a2a_docgen.limits import Deadline, Limits
from a2a_docgen.load.report import Report
from a2a_docgen.model import AgentCard, Diagnostic
from a2a_docgen.validate.rules import CARD_RULES, catalog_rules

__all__ = ["validate_card", "validate_catalog"]


def validate_card(card: AgentCard, report: Report, limits: Limits, deadline: Deadline | None = None) -> None:
    """Add the findings of every card-level rule to ``report``; with a ``deadline``, only until it passes (looked
    at before each rule: every rule costs time linear in the card's size), then a ``checking-stopped`` error."""
    for done, rule in enumerate(CARD_RULES):
        if deadline is not None and deadline.passed():
            report.add(
                CHECKING_STOPPED,
                "",
                f"checking stopped: fetching and checking this card took longer than {deadline.seconds:g} s "
                f"(--timeout); {len(CARD_RULES) - done} of {len(CARD_RULES)} rules did not run, so the card may "
                "have problems not reported here",
            )
            return
        rule(card, report, limits)


def validate_catalog(cards: Sequence[AgentCard]) -> list[Diagnostic]:
    """Rules across cards (duplicate agent names), already located."""
    return catalog_rules(cards)
