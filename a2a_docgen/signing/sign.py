"""Sign a card: a JWS over its a2a-sdk canonical form, added to ``signatures`` (``a2a-docgen sign``).

The same bytes as the official SDK's signer (``canonical.canonical_bytes(card, "sdk")``), the protected header
``{"alg", "kid", "typ": "JOSE"}`` plus ``jku`` when given, compact JWS by PyJWT with the payload left out. The
private key is read from the caller's bytes and never written, logged or put in a message.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from a2a_docgen.errors import UsageError
from a2a_docgen.model import JSONObject, JSONValue
from a2a_docgen.signing.canonical import NoCanonicalForm, canonical_bytes
from a2a_docgen.signing.keys import Key, jwk_key
from a2a_docgen.signing.shown import uncovered_members
from a2a_docgen.signing.verify import ALGORITHMS, decode_segment, jws_verifies, key_problem

__all__ = ["Signed", "default_algorithm", "sign_card"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Signed:
    card: JSONObject
    """The card with its new signature (member order and every other member kept)."""
    alg: str
    kid: str
    public_jwk: dict[str, Any]
    """The public key, for the JWK set a verifier needs."""
    replaced: int
    """Signatures with the same ``kid`` that the new one replaced."""
    others: int
    """Other signatures kept (they verify only if the card did not change since they were made)."""
    uncovered: tuple[str, ...]
    """Members the signature does not cover."""


def _private_key(pem: bytes, password: bytes | None) -> Any:
    from cryptography.hazmat.primitives import serialization

    try:
        return serialization.load_pem_private_key(pem, password=password)
    except TypeError:
        raise UsageError(
            "the key is encrypted: give its password in an environment variable with --password-env"
            if password is None
            else "the key is not encrypted: leave out --password-env"
        ) from None
    except ValueError:
        raise UsageError(
            "the key file is not a PEM private key (PKCS#8 or traditional), or the password is wrong"
        ) from None
    except Exception:
        raise UsageError(
            "the key file holds a key type that cannot sign cards (EC, Ed25519, Ed448 or RSA)"
        ) from None


def _public_jwk(private_key: Any) -> dict[str, Any]:
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa
    from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

    public = private_key.public_key()
    if isinstance(private_key, ec.EllipticCurvePrivateKey):
        return dict(ECAlgorithm.to_jwk(public, as_dict=True))
    if isinstance(private_key, (ed25519.Ed25519PrivateKey, ed448.Ed448PrivateKey)):
        return dict(OKPAlgorithm.to_jwk(public, as_dict=True))
    if isinstance(private_key, rsa.RSAPrivateKey):
        return dict(RSAAlgorithm.to_jwk(public, as_dict=True))
    raise UsageError("the key file holds a key type that cannot sign cards (EC, Ed25519, Ed448 or RSA)")


def default_algorithm(jwk: dict[str, Any]) -> str:
    """ES256/ES384/ES512 by curve, EdDSA, RS256 for RSA."""
    if jwk["kty"] == "EC":
        return {"P-256": "ES256", "P-384": "ES384", "P-521": "ES512"}.get(str(jwk.get("crv")), "")
    if jwk["kty"] == "OKP":
        return "EdDSA"
    return "RS256"


def sign_card(
    card: JSONObject,
    pem: bytes,
    *,
    kid: str,
    jku: str | None = None,
    alg: str | None = None,
    password: bytes | None = None,
) -> Signed:
    """Sign ``card`` (its JSON); raises ``UsageError`` for a key, algorithm or card that cannot be signed."""
    if not kid:
        raise UsageError("--kid must not be empty")
    private_key = _private_key(pem, password)
    jwk = _public_jwk(private_key)
    public: Key = jwk_key({**jwk, "kid": kid}, "the signing key")
    alg = alg or default_algorithm(jwk)
    if alg not in ALGORITHMS:
        raise UsageError(f"--alg {alg!r} cannot sign cards; choose one of {', '.join(ALGORITHMS)}")
    why_not = key_problem(public, alg)
    if why_not:
        raise UsageError(f"--alg {alg} does not fit the key: {why_not}")
    try:
        payload = canonical_bytes(card, "sdk")
    except NoCanonicalForm as exc:
        raise UsageError(f"the card has no a2a-sdk canonical form, so it cannot be signed: {exc}") from None

    import jwt

    header: dict[str, Any] = {"alg": alg, "kid": kid, "typ": "JOSE"}
    if jku is not None:
        header["jku"] = jku
    token = jwt.api_jws.encode(payload, private_key, algorithm=alg, headers=header)
    protected, _, signature = token.split(".")
    if not jws_verifies(protected, payload, signature, public, alg):
        raise UsageError("the new signature does not verify with the key's public half; nothing was written")

    existing = card.get("signatures")
    kept: list[JSONValue] = []
    replaced = 0
    if isinstance(existing, list):
        for item in existing:
            if _kid_of(item) == kid:
                replaced += 1
            else:
                kept.append(copy.deepcopy(item))
    signed = {name: copy.deepcopy(value) for name, value in card.items() if name != "signatures"}
    signed["signatures"] = [*kept, {"protected": protected, "signature": signature}]
    return Signed(
        card=signed,
        alg=alg,
        kid=kid,
        public_jwk={**jwk, "kid": kid, "alg": alg, "use": "sig"},
        replaced=replaced,
        others=len(kept),
        uncovered=uncovered_members(card),
    )


def _kid_of(signature: JSONValue) -> str | None:
    if not isinstance(signature, dict) or not isinstance(signature.get("protected"), str):
        return None
    decoded = decode_segment(str(signature["protected"]))
    try:
        header = json.loads(decoded) if decoded is not None else None
    except ValueError:
        return None
    kid = header.get("kid") if isinstance(header, dict) else None
    return kid if isinstance(kid, str) else None
