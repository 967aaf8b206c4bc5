"""Card signatures: the canonical bytes, keys and trust, verification with statuses, and signing.

- ``signing.schema``: the v1.0 ``AgentCard`` protobuf schema the a2a-sdk canonical form depends on;
- ``signing.canonical``: the two canonical forms (``sdk``, ``served``) and what the ``sdk`` form leaves out;
- ``signing.keys``: JWK sets, the keys file (pins per agent or provider), which keys a card trusts;
- ``signing.verify``: every signature of a card checked, one status each (``verify_card``);
- ``signing.sign``: a signature added to a card (``a2a-docgen sign``);
- this module: verification of a whole catalogue, and its diagnostics.

Between ``validate`` and ``catalog``: it reads the model and the raw card, never the renderer or the network
(a ``jku`` is fetched by the ``JkuResolver`` the caller passes, see ``commands/jku.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from a2a_docgen.diagnostics import (
    MEMBER_ALIAS,
    SIGNATURE_INVALID,
    SIGNATURE_MALFORMED,
    SIGNATURE_REQUIRED,
    SIGNATURE_UNANCHORED,
    SIGNATURE_UNCOVERED,
    SIGNATURE_UNKNOWN_KEY,
    SIGNATURE_UNSUPPORTED_ALGORITHM,
    SIGNATURE_UNTRUSTED,
    Code,
    diagnostic,
)
from a2a_docgen.load.source import PositionIndex
from a2a_docgen.model import (
    FORM_LABELS,
    STATUS_LABELS,
    AgentCard,
    CardVerification,
    Diagnostic,
    Severity,
)
from a2a_docgen.signing.keys import Key, KeyStore, load_jwks, load_keys_file
from a2a_docgen.signing.readings import Reading, divergent_readings
from a2a_docgen.signing.verify import ALGORITHMS, JkuResolver, Trust, verify_card

__all__ = [
    "ALGORITHMS",
    "FORM_LABELS",
    "STATUS_LABELS",
    "JkuResolver",
    "Key",
    "KeyStore",
    "Trust",
    "load_trust",
    "verify_card",
    "verify_catalog",
]

_CODES: dict[str, Code] = {
    "invalid": SIGNATURE_INVALID,
    "untrusted": SIGNATURE_UNTRUSTED,
    "unanchored": SIGNATURE_UNANCHORED,
    "unknown-key": SIGNATURE_UNKNOWN_KEY,
    "malformed": SIGNATURE_MALFORMED,
}
_SHOWN_UNCOVERED = 5


def load_trust(
    jwks: Sequence[str] = (),
    keys_file: str | None = None,
    *,
    jku: JkuResolver | None = None,
    require: bool = False,
) -> Trust:
    """A ``Trust`` from JWK set files and a keys file; raises ``UsageError`` for one that cannot be used."""
    keys: list[Key] = [key for path in jwks for key in load_jwks(path)]
    pins = load_keys_file(keys_file, keys) if keys_file else ()
    return Trust(store=KeyStore(keys=tuple(keys), pins=pins), jku=jku, require=require)


def verify_catalog(
    cards: Iterable[AgentCard], trust: Trust
) -> tuple[dict[str, CardVerification], list[Diagnostic]]:
    """Verify every card that has signatures (every card with ``trust.require``): results by source path, and
    diagnostics when keys or options were given (``trust.asked``). Every card's members that name one field
    twice (``member-alias``) are reported whatever was asked: clients would read one, the page shows the other."""
    results: dict[str, CardVerification] = {}
    found: list[Diagnostic] = []
    for card in cards:
        readings = divergent_readings(card.source.raw)
        found.extend(alias_diagnostics(card, readings))
        if not card.signatures and not trust.require:
            continue
        result = verify_card(card, trust, readings)
        results[card.source.path] = result
        if trust.asked:
            found.extend(card_diagnostics(card, result, trust))
        else:  # what the signature is, rather than whose: wrong without any key (a placeholder, no JWS at all)
            found.extend(
                d for d in card_diagnostics(card, result, trust) if d.code == SIGNATURE_MALFORMED.name
            )
    return results, found


def alias_diagnostics(card: AgentCard, readings: Iterable[Reading]) -> list[Diagnostic]:
    """``member-alias`` errors for the readings of ``card`` where two members name one field."""
    aliases = [r for r in readings if r.alias]
    if not aliases:
        return []
    index = PositionIndex.build(card.source.text)
    out = []
    for reading in aliases:
        line, column = index.locate(reading.pointer, at_key=reading.at_key)
        out.append(
            diagnostic(
                MEMBER_ALIAS,
                reading.message,
                file=card.source.path,
                line=line,
                column=column,
                pointer=reading.pointer,
            )
        )
    return out


def card_diagnostics(card: AgentCard, result: CardVerification, trust: Trust) -> list[Diagnostic]:
    """The diagnostics of one card's verification."""
    index: PositionIndex | None = None
    out: list[Diagnostic] = []

    def add(code: Code, message: str, pointer: str, severity: Severity | None = None) -> None:
        nonlocal index
        index = index or PositionIndex.build(card.source.text)
        line, column = index.locate(pointer)
        out.append(
            diagnostic(
                code,
                message,
                file=card.source.path,
                line=line,
                column=column,
                pointer=pointer,
                severity=severity,
            )
        )

    for check in result.signatures:
        message = f"signature {check.number}: {check.reason}"
        if check.status == "unsupported-algorithm":
            never = check.alg is not None and (
                check.alg.lower() == "none" or check.alg.upper().startswith("HS")
            )
            add(SIGNATURE_UNSUPPORTED_ALGORITHM, message, check.pointer, "error" if never else "warning")
        elif check.status in _CODES:
            add(_CODES[check.status], message, check.pointer)
    if result.status in ("verified", "untrusted", "unanchored") and result.uncovered:
        shown = ", ".join(result.uncovered[:_SHOWN_UNCOVERED])
        more = len(result.uncovered) - _SHOWN_UNCOVERED
        add(
            SIGNATURE_UNCOVERED,
            f"the signature covers the a2a-sdk canonical form, which leaves out {shown}"
            + (f" and {more} more" if more > 0 else "")
            + ": they can be changed without breaking it",
            result.uncovered[0],
        )
    if trust.require and result.status != "verified":
        why = "it is unsigned" if result.status == "unsigned" else f"its best signature is {result.status}"
        add(
            SIGNATURE_REQUIRED,
            f"a signature that verifies with a trusted key is required, and {why}",
            "/signatures" if card.signatures else "",
        )
    return out


def unverified_message(diagnostics: Iterable[Diagnostic]) -> str | None:
    """Why a build with ``--require-signature`` fails (``None`` when every card verified)."""
    files = sorted({d.file for d in diagnostics if d.code == SIGNATURE_REQUIRED.name})
    if not files:
        return None
    shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
    return f"--require-signature: {len(files)} card(s) without a signature that verifies ({shown})"
