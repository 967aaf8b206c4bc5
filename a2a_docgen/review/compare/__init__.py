"""The comparisons of two versions of one agent's card, one module per family of codes (as oasdiff keeps
one file per check family): ``agents`` (identity), ``signatures``, ``interfaces``, ``capabilities``
(and extensions), ``modes``, ``security`` (requirements), ``schemes`` (definitions) and ``skills``.
Each adds ``Draft`` findings to an ``AgentPair``; ``compare_agent`` runs them all.
"""

from __future__ import annotations

from a2a_docgen.model import AgentCard, CardVerification
from a2a_docgen.review.compare.agents import compare_identity, compare_version
from a2a_docgen.review.compare.base import AgentPair, Draft, Side
from a2a_docgen.review.compare.capabilities import compare_capabilities, compare_extensions
from a2a_docgen.review.compare.interfaces import compare_interfaces
from a2a_docgen.review.compare.modes import compare_default_modes
from a2a_docgen.review.compare.schemes import compare_schemes, scheme_renames
from a2a_docgen.review.compare.security import compare_card_security
from a2a_docgen.review.compare.signatures import compare_signatures
from a2a_docgen.review.compare.skills import compare_skills

__all__ = ["AgentPair", "Draft", "Side", "compare_agent"]

_FAMILIES = (
    compare_identity,
    compare_signatures,
    compare_version,
    compare_interfaces,
    compare_capabilities,
    compare_extensions,
    compare_default_modes,
    compare_card_security,
    compare_schemes,
    compare_skills,
)


def compare_agent(
    old: AgentCard,
    new: AgentCard,
    old_verification: CardVerification | None = None,
    new_verification: CardVerification | None = None,
) -> list[Draft]:
    """Every finding between two versions of one agent's card, before it is located and settled."""
    pair = AgentPair(old, new, old_verification, new_verification)
    pair.renames = scheme_renames(old, new)
    for compare in _FAMILIES:
        compare(pair)
    return pair.drafts
