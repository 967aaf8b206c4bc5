"""Verify every signature of a card: the JWS, the key, the bytes it covers, and one status for each.

A signature is an RFC 7515 JWS whose payload is detached: the canonical card (``signing.canonical``). For each
signature: the protected header must be base64url-encoded JSON with ``alg`` and ``kid``; ``alg`` must be on the
allow-list (``ALGORITHMS``: never ``none``, never an HMAC); no ``crit`` (no extension is understood) and no
``b64``; the protected and unprotected headers share no name. Then every key that may have made it is tried,
trusted keys first, each over the ``sdk`` form and then the ``served`` form, with PyJWT (imported here, only when
a key is actually tried, so ``check`` without keys loads no cryptography).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from a2a_docgen.model import (
    AgentCard,
    AgentCardSignature,
    CardSignatureStatus,
    CardVerification,
    SignatureCheck,
    SignatureStatus,
)
from a2a_docgen.signing.canonical import (
    FORMS,
    Form,
    NoCanonicalForm,
    canonical_bytes,
    sdk_json,
)
from a2a_docgen.signing.keys import Key, KeyStore, UnusableKey, jwk_key
from a2a_docgen.signing.readings import Reading, divergent_readings
from a2a_docgen.signing.shown import uncovered_members, unsigned_shown_value

__all__ = [
    "ALGORITHMS",
    "JkuResolver",
    "Trust",
    "decode_segment",
    "jws_verifies",
    "key_problem",
    "verify_card",
]

_EXACT_BYTES = {"ES256": (64,), "ES384": (96,), "ES512": (132,), "EdDSA": (64, 114)}
_MIN_RSA_BYTES = 128  # a 1024-bit modulus; shorter keys are refused anyway


def _plausible_length(alg: str, size: int) -> bool:
    """Whether a signature of ``size`` bytes can be an ``alg`` signature at all (an EC or EdDSA signature has
    a fixed size, an RSA one the modulus's): decided without any key, so a placeholder is caught unkeyed."""
    exact = _EXACT_BYTES.get(alg)
    return size in exact if exact is not None else size >= _MIN_RSA_BYTES


ALGORITHMS: tuple[str, ...] = (
    "ES256",
    "ES384",
    "ES512",
    "EdDSA",
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
)
"""The algorithms a signature may use (RFC 7518 and RFC 8037). Anything else is ``unsupported-algorithm``."""

_KEY_TYPES = {
    "ES256": ("EC", "P-256"),
    "ES384": ("EC", "P-384"),
    "ES512": ("EC", "P-521"),
    "EdDSA": ("OKP", None),
    **dict.fromkeys(("RS256", "RS384", "RS512", "PS256", "PS384", "PS512"), ("RSA", None)),
}
"""The key type (and curve) each algorithm needs."""

_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")

_PRECEDENCE: tuple[CardSignatureStatus, ...] = (
    "verified",
    "invalid",
    "untrusted",
    "unanchored",
    "unknown-key",
    "unsupported-algorithm",
    "malformed",
)
_FORM_NAMES = {
    "sdk": "the a2a-sdk canonical form",
    "served": "the JCS of the card as served",
    "sdk-legacy": "the a2a-sdk form as releases before RFC 8785 wrote it",
}


class JkuResolver(Protocol):
    """Fetches the JWK set a signature's ``jku`` names, if the rules allow (``--trust-jku``)."""

    def keys(self, card: AgentCard, url: str) -> tuple[tuple[Key, ...], str | None]:
        """The keys at ``url`` for ``card``, or ``()`` and why they cannot be had."""
        ...

    def anchor(self, card: AgentCard, url: str) -> str | None:
        """What vouches for ``url`` as the card's key source, from outside the card (the origin ``fetch``
        recorded, an explicit ``--jku-origin``), or ``None``: then only the signer does, and keys from it make
        a signature ``unanchored``, never ``verified``."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Trust:
    """What verification may rely on, from outside the cards."""

    store: KeyStore = field(default_factory=KeyStore)
    jku: JkuResolver | None = None
    """``None``: a ``jku`` header is never fetched."""
    require: bool = False
    """``--require-signature``: a card that does not verify is an error."""

    @property
    def asked(self) -> bool:
        """Keys or options were given: report what verification found."""
        return not self.store.empty or self.jku is not None or self.require


def decode_segment(text: str) -> bytes | None:
    """base64url (RFC 7515 section 2), or ``None``. Padding, which RFC 7515 leaves out, is accepted when it is
    exactly right (as PyJWT and so a2a-sdk accept it): the segment is signed as written either way."""
    stripped = text.rstrip("=")
    if stripped != text and (len(text) % 4 or len(text) - len(stripped) > 2):
        return None
    if not _BASE64URL.fullmatch(stripped) or len(stripped) % 4 == 1:
        return None
    try:
        decoded = base64.urlsafe_b64decode(stripped + "=" * (-len(stripped) % 4))
    except (binascii.Error, ValueError):
        return None
    if base64.urlsafe_b64encode(decoded).rstrip(b"=").decode("ascii") != stripped:
        return None  # non-zero trailing bits: another spelling of the same bytes
    return decoded


def _encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for name, value in pairs:
        if name in result:
            raise ValueError(f"the member {name!r} appears twice")
        result[name] = value
    return result


class _Forms:
    """The canonical bytes of one card, computed once each, when first needed."""

    def __init__(self, card: AgentCard) -> None:
        self.card = card
        self.cache: dict[Form, bytes | NoCanonicalForm] = {}

    def get(self, form: Form) -> bytes | NoCanonicalForm:
        if form not in self.cache:
            try:
                self.cache[form] = canonical_bytes(self.card.source.raw, form)
            except NoCanonicalForm as exc:
                self.cache[form] = exc
        return self.cache[form]


def verify_card(
    card: AgentCard, trust: Trust, readings: tuple[Reading, ...] | None = None
) -> CardVerification:
    """Check every signature of ``card``; the card's status is its best signature's. ``readings``: the card's
    ``divergent_readings``, when the caller has them."""
    forms = _Forms(card)
    if readings is None:
        readings = divergent_readings(card.source.raw)
    checks = tuple(
        _shown_is_signed(_verify(number, signature, card, forms, trust), readings)
        for number, signature in enumerate(card.signatures, 1)
    )
    if not checks:
        return CardVerification(status="unsigned", signatures=())
    checks = tuple(_shown_as_signed(check, card, forms) for check in checks)
    status = min((c.status for c in checks), key=_PRECEDENCE.index)
    uncovered: tuple[str, ...] = ()
    decided = next(c for c in checks if c.status == status)
    if decided.form in ("sdk", "sdk-legacy"):
        uncovered = uncovered_members(card.source.raw, card)
    return CardVerification(status=status, signatures=checks, uncovered=uncovered)


def _shown_as_signed(check: SignatureCheck, card: AgentCard, forms: _Forms) -> SignatureCheck:
    """A valid signature over the ``sdk`` form vouches for what the site shows only where the model carries the
    signed values (``signing.shown``); otherwise ``invalid``."""
    if check.status != "verified" or check.form not in ("sdk", "sdk-legacy"):
        return check
    try:
        difference = unsigned_shown_value(card, sdk_json(card.source.raw))
    except NoCanonicalForm:
        return check  # it verified over bytes of this form, so the form exists
    if difference is None:
        return check
    return replace(
        check,
        status="invalid",
        reason=f"{check.reason}, but {difference}: what the site shows is not what was signed",
    )


def _shown_is_signed(check: SignatureCheck, readings: tuple[Reading, ...]) -> SignatureCheck:
    """A valid signature over a card that reads two ways does not vouch for what the site shows: ``invalid``."""
    if check.status != "verified" or not readings:
        return check
    first = readings[0]
    more = f" and {len(readings) - 1} more place(s)" if len(readings) > 1 else ""
    return replace(
        check,
        status="invalid",
        reason=f"{check.reason}, but the signed form reads the card differently from this site at {first.pointer}"
        f"{more} ({first.message}): what the site shows is not what was signed",
    )


def _verify(
    number: int, signature: AgentCardSignature, card: AgentCard, forms: _Forms, trust: Trust
) -> SignatureCheck:
    def result(status: SignatureStatus, reason: str, **found: Any) -> SignatureCheck:
        return SignatureCheck(
            number=number,
            pointer=signature.pointer,
            status=status,
            alg=alg,
            kid=kid,
            key=found.get("key"),
            key_source=found.get("key_source"),
            thumbprint=found.get("thumbprint"),
            form=found.get("form"),
            reason=reason,
        )

    alg: str | None = None
    kid: str | None = None
    header, problem = _protected_header(signature)
    if header is None:
        return result("malformed", problem)
    alg = header["alg"] if isinstance(header.get("alg"), str) else None
    kid = header["kid"] if isinstance(header.get("kid"), str) else None
    if alg is None:
        return result("malformed", 'the protected header has no "alg" string')
    if alg not in ALGORITHMS:
        why = (
            " (an unsigned JWS)"
            if alg == "none"
            else " (an HMAC needs a shared secret)"
            if alg.startswith("HS")
            else ""
        )
        return result(
            "unsupported-algorithm", f"alg {alg!r} is not allowed{why}; allowed: {', '.join(ALGORITHMS)}"
        )
    if "kid" in header and not kid:
        return result("malformed", 'the protected header\'s "kid" is not a non-empty string')
    problem = _header_problem(header, signature)
    if problem:
        return result("malformed", problem)
    assert signature.signature is not None
    assert signature.protected is not None
    raw_signature = decode_segment(signature.signature)
    if raw_signature is None or not raw_signature:
        return result("malformed", "the signature is not base64url (RFC 7515: no padding, URL-safe alphabet)")
    if not _plausible_length(alg, len(raw_signature)):
        return result(
            "malformed",
            f"the signature is {len(raw_signature)} bytes, which no {alg} signature is: a placeholder "
            "never replaced by a real signature? Sign the card (a2a-docgen sign)",
        )

    trusted, unanchored, untrusted, notes = _candidates(card, header, signature, kid, trust)
    if not trusted and not unanchored and not untrusted:
        searched = "; ".join(notes) if notes else "no keys were given (--jwks, --keys, --trust-jku)"
        which = f"with kid {kid!r}" if kid is not None else "(the header names no kid)"
        return result("unknown-key", f"no key {which} is known: {searched}")
    unusable: list[str] = []
    tried: list[str] = []
    outcomes: list[tuple[Key, SignatureStatus]] = [
        *((k, "verified") for k in trusted),
        *((k, "unanchored") for k in unanchored),
        *((k, "untrusted") for k in untrusted),
    ]
    for key, outcome in outcomes:
        why_not = key_problem(key, alg)
        if why_not:
            unusable.append(f"{key.label} ({key.source}): {why_not}")
            continue
        tried.append(f"{key.label} ({key.source})")
        tried_bytes: set[bytes] = set()
        for form in FORMS:
            payload = forms.get(form)
            if isinstance(payload, NoCanonicalForm) or payload in tried_bytes:
                continue
            tried_bytes.add(payload)
            if jws_verifies(signature.protected, payload, signature.signature, key, alg):
                found = {
                    "key": key.label,
                    "key_source": key.source,
                    "thumbprint": key.thumbprint,
                    "form": form,
                }
                if outcome == "verified":
                    return result(
                        "verified",
                        f"verified with key {key.label} ({key.source}) over {_FORM_NAMES[form]}",
                        **found,
                    )
                if outcome == "unanchored":
                    return result(
                        "unanchored",
                        f"valid with key {key.label} ({key.source}) over {_FORM_NAMES[form]}, but only the "
                        "signature's own jku names that key: neither the origin fetch recorded nor --jku-origin "
                        "or a keys-file pin vouches for it",
                        **found,
                    )
                return result(
                    "untrusted",
                    f"valid with key {key.label} ({key.source}) over {_FORM_NAMES[form]}, but that key is not "
                    "trusted for this agent",
                    **found,
                )
    if not tried:
        which = f"with kid {kid!r}" if kid is not None else "given"
        return result("invalid", f"no key {which} can check alg {alg}: {'; '.join(unusable)}")
    missing = [
        f"{form} form: {exc}"
        for form in FORMS
        if form != "sdk-legacy" and isinstance(exc := forms.get(form), NoCanonicalForm)
    ]
    computed = ", ".join(_FORM_NAMES[f] for f in FORMS if not isinstance(forms.get(f), NoCanonicalForm))
    detail = f" (no {'; no '.join(missing)})" if missing else ""
    return result(
        "invalid",
        f"does not verify with {', '.join(tried)} over {computed or 'any canonical form'}{detail}: the card "
        "was changed after it was signed, or it was signed with another key",
    )


def _protected_header(signature: AgentCardSignature) -> tuple[dict[str, Any] | None, str]:
    if not isinstance(signature.protected, str) or not signature.protected:
        return None, 'the signature has no "protected" header'
    if not isinstance(signature.signature, str) or not signature.signature:
        return None, 'the signature has no "signature" value'
    decoded = decode_segment(signature.protected)
    if decoded is None:
        return None, '"protected" is not base64url (RFC 7515: no padding, URL-safe alphabet)'
    try:
        header = json.loads(decoded.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, f'"protected" does not decode to JSON: {exc}'
    if not isinstance(header, dict):
        return None, '"protected" decodes to JSON that is not an object'
    return header, ""


def _header_problem(header: Mapping[str, Any], signature: AgentCardSignature) -> str:
    if "crit" in header:
        return f'"crit" lists extensions no verifier here understands ({header["crit"]!r}), so RFC 7515 rejects it'
    if "b64" in header:
        return '"b64" (RFC 7797 unencoded payload) is not how cards are signed'
    unprotected = signature.header or {}
    shared = sorted(set(header) & set(unprotected))
    if shared:
        return f"the protected and unprotected headers both have {shared[0]!r} (RFC 7515 section 7.2.1)"
    for name in ("jku", "typ"):
        if name in header and not isinstance(header[name], str):
            return f'"{name}" in the protected header is not a string'
    return ""


def _candidates(
    card: AgentCard, header: Mapping[str, Any], signature: AgentCardSignature, kid: str | None, trust: Trust
) -> tuple[list[Key], list[Key], list[Key], list[str]]:
    """Keys that may have made the signature: trusted ones, ones only its own ``jku`` names, the others, and
    notes on where else was looked."""
    notes: list[str] = []
    trusted_keys = trust.store.trusted_for(card)
    pinned = bool(trust.store.pins_for(card))

    def matching(keys: Iterable[Key]) -> list[Key]:
        """Keys with the signature's kid, or without one; every key when the signature names none."""
        return [k for k in keys if kid is None or k.kid == kid or k.kid is None]

    trusted = matching(trusted_keys)
    trusted_prints = {k.thumbprint for k in trusted_keys}
    others = [k for k in matching(trust.store.known()) if k.thumbprint not in trusted_prints]
    unanchored: list[Key] = []
    jku = header.get("jku")
    if isinstance(jku, str):
        if trust.jku is None:
            notes.append(f"its jku {jku} is not fetched without --trust-jku")
        else:
            keys, refused = trust.jku.keys(card, jku)
            if refused:
                notes.append(refused)
            anchored = trust.jku.anchor(card, jku) is not None
            for key in matching(keys):
                if key.thumbprint in trusted_prints:
                    continue
                (others if pinned else trusted if anchored else unanchored).append(key)
    for where, value in (
        ("protected", header.get("jwk")),
        ("unprotected", (signature.header or {}).get("jwk")),
    ):
        if value is None:
            continue
        try:
            key = jwk_key(value, f"the jwk of its {where} header")
        except UnusableKey as exc:
            notes.append(f"the jwk of its {where} header cannot be used: {exc}")
            continue
        if key.thumbprint in trusted_prints:
            trusted.append(key)
        else:
            others.append(key)
    if not trusted_keys and trust.store.empty:
        notes.append("no keys were given (--jwks, --keys)")
    elif not trusted:
        notes.append(
            f"none of the {len(trusted_keys)} key(s) trusted for this agent has it"
            + (" (the card is pinned by the keys file)" if pinned else "")
        )
    first = {t.thumbprint for t in trusted}
    second = [k for k in _dedupe(unanchored) if k.thumbprint not in first]
    earlier = first | {k.thumbprint for k in second}
    return (
        _dedupe(trusted),
        second,
        [k for k in _dedupe(others) if k.thumbprint not in earlier],
        notes,
    )


def _dedupe(keys: list[Key]) -> list[Key]:
    seen: set[str] = set()
    out = []
    for key in keys:
        if key.thumbprint not in seen:
            seen.add(key.thumbprint)
            out.append(key)
    return out


def key_problem(key: Key, alg: str) -> str:
    """Why ``key`` cannot check ``alg`` (empty when it can): its type, curve, own ``alg`` or ``key_ops``."""
    kty, crv = _KEY_TYPES[alg]
    if key.kty != kty:
        return f"it is an {key.kty} key and {alg} needs {kty}"
    if crv is not None and key.jwk.get("crv") != crv:
        return f"its curve is {key.jwk.get('crv')} and {alg} needs {crv}"
    if "alg" in key.jwk and key.jwk["alg"] != alg:
        return f"the key is for {key.jwk['alg']}"
    ops = key.jwk.get("key_ops")
    if isinstance(ops, list) and "verify" not in ops:
        return "its key_ops do not include verify"
    return ""


def jws_verifies(protected: str, payload: bytes, signature: str, key: Key, alg: str) -> bool:
    """PyJWT checks the JWS ``protected.BASE64URL(payload).signature`` with ``key`` and only ``alg``."""
    import jwt
    from jwt.exceptions import InvalidSignatureError, PyJWTError

    try:
        jwk = jwt.PyJWK(dict(key.jwk), algorithm=alg)
    except PyJWTError:
        return False
    token = f"{protected}.{_encode(payload)}.{signature}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a short RSA key is reported by its result, not by a warning
        try:
            jwt.PyJWS(algorithms=list(ALGORITHMS)).decode_complete(token, key=jwk, algorithms=[alg])
        except InvalidSignatureError:
            return False
        except PyJWTError:
            return False
    return True
