"""The card's signatures: changed, removed, or kept over content they no longer cover."""

from __future__ import annotations

from a2a_docgen.model import AgentCard, JSONValue
from a2a_docgen.review.codes import SIGNATURES_CHANGED
from a2a_docgen.review.compare.base import AgentPair
from a2a_docgen.review.signatures import signature_changes

__all__ = ["compare_signatures"]


def compare_signatures(pair: AgentPair) -> None:
    old, new = pair.old, pair.new
    if [(s.protected, s.signature) for s in old.signatures] != [
        (s.protected, s.signature) for s in new.signatures
    ]:
        pair.add(
            SIGNATURES_CHANGED,
            f"the card's signatures changed ({len(old.signatures)} before, {len(new.signatures)} now)",
            "/signatures",
            before=_signature_ids(old),
            after=_signature_ids(new),
        )
    for change in signature_changes(old, new, *pair.verifications):
        pair.add(
            change.code,
            change.message,
            change.pointer,
            before=change.before,
            after=change.after,
            side="base" if change.side == "base" else "head",
        )


def _signature_ids(card: AgentCard) -> JSONValue:
    """Key ids of the signatures (or ``None`` for one whose header does not name one)."""
    result: list[JSONValue] = []
    for signature in card.signatures:
        header = signature.protected_header or {}
        kid = header.get("kid")
        result.append(kid if isinstance(kid, str) else None)
    return result
