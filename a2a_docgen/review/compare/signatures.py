"""The card's signatures: changed, removed, or kept over content they no longer cover.

A signature that stops verifying and signatures removed are breaking: a client that checks the card's signature
(``a2a-docgen check --require-signature``, an SDK verifier) refuses the new card. With keys
(``Catalog.verifications`` from ``--jwks`` / ``--keys``), a signature that verified before and does not now is
``signature-broken``. Without them, a signature kept as it was while every canonical form of the card changed
cannot verify any more either (if it ever did), which needs no key to see. Signatures are matched by their
``kid``.
"""

from __future__ import annotations

from a2a_docgen.model import AgentCard, CardVerification, JSONValue, SignatureCheck
from a2a_docgen.review.codes import SIGNATURE_BROKEN, SIGNATURES_CHANGED, SIGNATURES_REMOVED
from a2a_docgen.review.compare.base import AgentPair
from a2a_docgen.signing.canonical import FORMS, NoCanonicalForm, canonical_bytes
from a2a_docgen.text.plural import plural

__all__ = ["compare_signatures"]

_VALID = ("verified", "untrusted")


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
    if not old.signatures:
        return
    if not new.signatures:
        pair.add(
            SIGNATURES_REMOVED,
            f"the card is no longer signed (it had {plural(len(old.signatures), 'signature')}): clients that require a "
            "signature refuse it",
            "/signatures",
            side="base",
        )
        return
    _removed(pair)
    _broken(pair)


def _removed(pair: AgentPair) -> None:
    """The signatures whose key signs the new card no more."""
    new_kids = _by_kid(pair.new)
    for kid, index in _by_kid(pair.old).items():
        if kid not in new_kids:
            pair.add(
                SIGNATURES_REMOVED,
                f"the signature by key {kid!r} was removed: clients that trust only that key cannot verify the "
                "card any more",
                pair.old.signatures[index].pointer,
                before=kid,
                side="base",
            )


def _broken(pair: AgentPair) -> None:
    """The signatures by a key of both versions that verified before and do not now, or, without keys, kept
    as they were over content that changed in every canonical form."""
    old, new = pair.old, pair.new
    old_v, new_v = pair.verifications
    old_kids = _by_kid(old)
    contents: tuple[list[bytes | None], list[bytes | None]] | None = None
    for kid, new_index in _by_kid(new).items():
        if kid not in old_kids:
            continue
        old_index = old_kids[kid]
        before, after = _check(old_v, old_index), _check(new_v, new_index)
        pointer = new.signatures[new_index].pointer
        if before is not None and after is not None and before.status in _VALID:
            if after.status not in _VALID:
                pair.add(
                    SIGNATURE_BROKEN,
                    f"the signature by key {kid!r} verified before and is now {after.status}: {after.reason}",
                    pointer,
                    before=before.status,
                    after=after.status,
                )
            continue
        kept = (old.signatures[old_index].protected, old.signatures[old_index].signature) == (
            new.signatures[new_index].protected,
            new.signatures[new_index].signature,
        )
        if not kept:
            continue
        contents = contents or (_bytes(old), _bytes(new))
        if all(a != b for a, b in zip(*contents, strict=True)):
            pair.add(
                SIGNATURE_BROKEN,
                f"the signature by key {kid!r} was kept while the content it covers changed (neither canonical "
                "form is the same), so it no longer verifies: re-sign the card",
                pointer,
            )


def _kid(card: AgentCard, index: int) -> str | None:
    kid = (card.signatures[index].protected_header or {}).get("kid")
    return kid if isinstance(kid, str) else None


def _signature_ids(card: AgentCard) -> JSONValue:
    """Key ids of the signatures (or ``None`` for one whose header does not name one)."""
    return [_kid(card, index) for index in range(len(card.signatures))]


def _by_kid(card: AgentCard) -> dict[str, int]:
    found: dict[str, int] = {}
    for index in range(len(card.signatures)):
        kid = _kid(card, index)
        if kid is not None:
            found.setdefault(kid, index)
    return found


def _bytes(card: AgentCard) -> list[bytes | None]:
    out: list[bytes | None] = []
    for form in FORMS:
        try:
            out.append(canonical_bytes(card.source.raw, form))
        except NoCanonicalForm:
            out.append(None)
    return out


def _check(verification: CardVerification | None, index: int) -> SignatureCheck | None:
    if verification is None or index >= len(verification.signatures):
        return None
    return verification.signatures[index]
