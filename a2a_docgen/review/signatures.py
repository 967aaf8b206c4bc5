"""What a change does to a card's signatures: a signature that stops verifying, signatures removed.

Both are breaking: a client that checks the card's signature (``a2a-docgen check --require-signature``, an SDK
verifier) refuses the new card. With keys (``Catalog.verifications`` from ``--jwks`` / ``--keys``), a
signature that verified before and does not now is ``signature-broken``. Without them, a signature kept as
it was while every canonical form of the card changed cannot verify any more either (if it ever did), which
needs no key to see. Signatures are matched by their ``kid``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from a2a_docgen.model import AgentCard, CardVerification, SignatureCheck
from a2a_docgen.review.codes import SIGNATURE_BROKEN, SIGNATURES_REMOVED, ReviewCode
from a2a_docgen.signing.canonical import FORMS, NoCanonicalForm, canonical_bytes
from a2a_docgen.text.plural import plural

__all__ = ["SignatureChange", "signature_changes"]

_VALID = ("verified", "untrusted")


@dataclass(frozen=True, slots=True)
class SignatureChange:
    code: ReviewCode
    message: str
    pointer: str
    side: str
    """``base`` when the pointer names the old card (a removed signature), else ``head``."""
    before: str | None
    after: str | None


def _kid(card: AgentCard, index: int) -> str | None:
    kid = (card.signatures[index].protected_header or {}).get("kid")
    return kid if isinstance(kid, str) else None


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


def signature_changes(
    old: AgentCard, new: AgentCard, old_v: CardVerification | None, new_v: CardVerification | None
) -> Iterator[SignatureChange]:
    """The breaking changes to the signatures of one agent's card."""
    if not old.signatures:
        return
    if not new.signatures:
        yield SignatureChange(
            SIGNATURES_REMOVED,
            f"the card is no longer signed (it had {plural(len(old.signatures), 'signature')}): clients that require a "
            "signature refuse it",
            "/signatures",
            "base",
            None,
            None,
        )
        return
    old_kids, new_kids = _by_kid(old), _by_kid(new)
    for kid, index in old_kids.items():
        if kid not in new_kids:
            yield SignatureChange(
                SIGNATURES_REMOVED,
                f"the signature by key {kid!r} was removed: clients that trust only that key cannot verify the "
                "card any more",
                old.signatures[index].pointer,
                "base",
                kid,
                None,
            )
    contents: tuple[list[bytes | None], list[bytes | None]] | None = None
    for kid, new_index in new_kids.items():
        if kid not in old_kids:
            continue
        old_index = old_kids[kid]
        before, after = _check(old_v, old_index), _check(new_v, new_index)
        pointer = new.signatures[new_index].pointer
        if before is not None and after is not None and before.status in _VALID:
            if after.status not in _VALID:
                yield SignatureChange(
                    SIGNATURE_BROKEN,
                    f"the signature by key {kid!r} verified before and is now {after.status}: {after.reason}",
                    pointer,
                    "head",
                    before.status,
                    after.status,
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
            yield SignatureChange(
                SIGNATURE_BROKEN,
                f"the signature by key {kid!r} was kept while the content it covers changed (neither canonical "
                "form is the same), so it no longer verifies: re-sign the card",
                pointer,
                "head",
                None,
                None,
            )
