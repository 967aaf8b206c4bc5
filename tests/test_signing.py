"""Card signatures: interop with the official a2a-sdk signer and verifier, statuses, keys, the CLI.

The oracle is a2a-sdk (test extra): cards it signs must verify here with the right key, over the form it
signs; cards signed here must pass its verifier. Every failure has its own status.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.cli import main
from a2a_docgen.errors import UsageError
from a2a_docgen.model import AgentCard
from a2a_docgen.signing import KeyStore, Trust, load_trust, verify_card
from a2a_docgen.signing.keys import jwk_key, load_keys_file
from a2a_docgen.signing.sign import sign_card

sdk_signing = pytest.importorskip("a2a.utils.signing", reason="a2a-sdk (test extra) is not installed")
from a2a.client.card_resolver import parse_agent_card  # noqa: E402
from google.protobuf.json_format import MessageToDict  # noqa: E402


@pytest.fixture(autouse=True)
def _quiet_sdk() -> Iterator[None]:
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


CARD: dict[str, Any] = {
    "name": "Itinéraire Agent",
    "description": "Plans routes: café → gare, 東京 and 😀 included",
    "version": "1.2.0",
    "supportedInterfaces": [
        {"url": "https://agent.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ],
    "provider": {"organization": "Example Corp", "url": "https://example.com"},
    "capabilities": {
        "streaming": True,
        "pushNotifications": False,
        "extensions": [{"uri": "https://example.com/ext", "params": {"level": 3, "ratio": 0.5, "on": True}}],
    },
    "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
    "securityRequirements": [{"schemes": {"bearer": {"list": []}}}],
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["application/json"],
    "skills": [
        {
            "id": "route",
            "name": "Route",
            "description": "Plans a route",
            "tags": ["maps"],
            "examples": ["A to B"],
        }
    ],
    "iconUrl": "https://example.com/icon.png",
}


def private_key(kind: str) -> Any:
    if kind == "ES256":
        return ec.generate_private_key(ec.SECP256R1())
    if kind == "ES384":
        return ec.generate_private_key(ec.SECP384R1())
    if kind == "EdDSA":
        return ed25519.Ed25519PrivateKey.generate()
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


_KEYS: dict[str, Any] = {}


def key_for(alg: str, name: str = "a") -> Any:
    """One private key per algorithm family and name, made once (RSA keys are slow to make)."""
    family = {"RS256": "RS", "PS256": "RS", "RS512": "RS"}.get(alg, alg)
    if (family, name) not in _KEYS:
        _KEYS[(family, name)] = private_key(alg if family != "RS" else "RS256")
    return _KEYS[(family, name)]


def public_jwk(key: Any, kid: str) -> dict[str, Any]:
    public = key.public_key()
    if isinstance(key, ec.EllipticCurvePrivateKey):
        jwk = ECAlgorithm.to_jwk(public, as_dict=True)
    elif isinstance(key, ed25519.Ed25519PrivateKey):
        jwk = OKPAlgorithm.to_jwk(public, as_dict=True)
    else:
        jwk = RSAAlgorithm.to_jwk(public, as_dict=True)
    return {**jwk, "kid": kid}


def pem(key: Any) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def sdk_sign(card: dict[str, Any], key: Any, kid: str, alg: str, **header: Any) -> dict[str, Any]:
    """Sign with a2a-sdk's signer; the card as its server serves it (ProtoJSON)."""
    signer = sdk_signing.create_agent_card_signer(key, {"alg": alg, "kid": kid, "typ": "JOSE", **header})
    signed = signer(parse_agent_card(copy.deepcopy(card)))
    served: dict[str, Any] = MessageToDict(signed)
    return served


def loaded(card: dict[str, Any], *, indent: int | None = 2, name: str = "card.json") -> AgentCard:
    text = json.dumps(card, indent=indent, ensure_ascii=False)
    result, _ = load_card_bytes(text.encode("utf-8"), display=name)
    assert result is not None
    return result


def trust(*jwks: dict[str, Any]) -> Trust:
    return Trust(store=KeyStore(keys=tuple(jwk_key(j, "test.jwks.json") for j in jwks)))


def reorder(value: Any) -> Any:
    """The same JSON with every object's members in reverse order."""
    if isinstance(value, dict):
        return {k: reorder(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reorder(v) for v in value]
    return value


# -- cards signed by a2a-sdk verify here --------------------------------------------------------------------


@pytest.mark.parametrize("alg", ["ES256", "EdDSA", "RS256", "PS256", "ES384"])
def test_a_card_signed_by_a2a_sdk_verifies_with_its_jwks(alg: str) -> None:
    key = key_for(alg)
    served = sdk_sign(CARD, key, "k1", alg)
    for shape in (served, reorder(served)):
        for indent in (None, 2, 7):
            result = verify_card(loaded(shape, indent=indent), trust(public_jwk(key, "k1")))
            assert result.status == "verified", result.signatures[0].reason
            check = result.signatures[0]
            assert (check.key, check.form, check.alg) == ("k1", "sdk", alg)
            assert check.key_source == "test.jwks.json"


def test_the_v03_shape_of_a_card_signed_by_a2a_sdk_verifies_over_the_sdk_form() -> None:
    key = key_for("ES256")
    v03 = {
        "protocolVersion": "0.3.0",
        "name": "Legacy",
        "description": "d",
        "url": "https://agent.example.com/a2a",
        "version": "1",
        "capabilities": {},
        "securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        "security": [{"k": []}],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "s", "description": "d", "tags": ["t"]}],
    }
    signature = sdk_sign(v03, key, "k1", "ES256")["signatures"]
    result = verify_card(loaded({**v03, "signatures": signature}), trust(public_jwk(key, "k1")))
    assert (result.status, result.signatures[0].form) == ("verified", "sdk")


def test_a_signature_over_the_card_as_served_verifies_over_the_served_form() -> None:
    key = key_for("ES256")
    card = {**CARD, "x-vendor": {"note": ""}}
    import rfc8785

    payload = rfc8785.dumps(card)
    token = jwt.api_jws.encode(payload, key, algorithm="ES256", headers={"kid": "k1", "typ": "JOSE"})
    protected, _, signature = token.split(".")
    result = verify_card(
        loaded({**card, "signatures": [{"protected": protected, "signature": signature}]}),
        trust(public_jwk(key, "k1")),
    )
    assert (result.status, result.signatures[0].form, result.uncovered) == ("verified", "served", ())


# -- and every failure has its status ---------------------------------------------------------------------


def test_a_tampered_card_is_invalid() -> None:
    key = key_for("ES256")
    served = sdk_sign(CARD, key, "k1", "ES256")
    served["description"] = served["description"] + "!"
    result = verify_card(loaded(served), trust(public_jwk(key, "k1")))
    assert result.status == "invalid"
    assert "changed after it was signed" in result.signatures[0].reason


def test_a_card_checked_with_the_wrong_key_is_invalid() -> None:
    served = sdk_sign(CARD, key_for("ES256"), "k1", "ES256")
    assert verify_card(loaded(served), trust(public_jwk(key_for("ES256", "other"), "k1"))).status == "invalid"


def test_a_key_of_the_wrong_type_for_alg_is_invalid_and_says_so() -> None:
    served = sdk_sign(CARD, key_for("ES256"), "k1", "ES256")
    result = verify_card(loaded(served), trust(public_jwk(key_for("EdDSA"), "k1")))
    assert result.status == "invalid"
    assert "OKP key and ES256 needs EC" in result.signatures[0].reason


def test_an_unknown_kid_is_unknown_key() -> None:
    key = key_for("ES256")
    served = sdk_sign(CARD, key, "k1", "ES256")
    result = verify_card(loaded(served), trust(public_jwk(key, "k2")))
    assert result.status == "unknown-key"
    assert "kid 'k1'" in result.signatures[0].reason


def _with_header(header: dict[str, Any], signature: str = "c2ln") -> dict[str, Any]:
    protected = jwt.utils.base64url_encode(json.dumps(header).encode()).decode()
    return {**CARD, "signatures": [{"protected": protected, "signature": signature}]}


@pytest.mark.parametrize("alg", ["none", "HS256", "ES256K", "RS1"])
def test_alg_none_and_hmac_are_unsupported(alg: str) -> None:
    key = key_for("ES256")
    result = verify_card(loaded(_with_header({"alg": alg, "kid": "k1"})), trust(public_jwk(key, "k1")))
    assert result.status == "unsupported-algorithm"


def test_hmac_with_the_public_key_as_secret_is_never_accepted() -> None:
    """The classic confusion: HS256 keyed with the publisher's public key bytes."""
    key = key_for("RS256")
    secret = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    from a2a_docgen.signing.canonical import canonical_bytes

    payload = canonical_bytes(CARD, "sdk")
    import hashlib
    import hmac

    protected = jwt.utils.base64url_encode(json.dumps({"alg": "HS256", "kid": "k1"}).encode()).decode()
    signing_input = f"{protected}.{jwt.utils.base64url_encode(payload).decode()}".encode()
    mac = jwt.utils.base64url_encode(hmac.new(secret, signing_input, hashlib.sha256).digest()).decode()
    card = {**CARD, "signatures": [{"protected": protected, "signature": mac}]}
    assert verify_card(loaded(card), trust(public_jwk(key, "k1"))).status == "unsupported-algorithm"


@pytest.mark.parametrize(
    ("signature", "expected"),
    [
        ({"protected": "not base64!", "signature": "c2ln"}, "not base64url"),
        ({"protected": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0===", "signature": "c2ln"}, "not base64url"),
        ({"protected": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn1", "signature": "c2ln"}, "not base64url"),
        ({"protected": "WzFd", "signature": "c2ln"}, "not an object"),
        ({"signature": "c2ln"}, 'no "protected"'),
        ({"protected": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0"}, 'no "signature"'),
        (
            {"protected": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0", "signature": "++"},
            "signature is not base64url",
        ),
    ],
)
def test_malformed_signatures(signature: dict[str, Any], expected: str) -> None:
    result = verify_card(
        loaded({**CARD, "signatures": [signature]}), trust(public_jwk(key_for("ES256"), "k1"))
    )
    assert result.status == "malformed"
    assert expected in result.signatures[0].reason


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ({"alg": "ES256", "kid": 7}, '"kid" is not'),
        ({"kid": "k1"}, 'no "alg"'),
        ({"alg": "ES256", "kid": "k1", "crit": ["exp"]}, '"crit"'),
        ({"alg": "ES256", "kid": "k1", "b64": False, "crit": ["b64"]}, '"crit"'),
    ],
)
def test_malformed_headers(header: dict[str, Any], expected: str) -> None:
    result = verify_card(loaded(_with_header(header)), trust(public_jwk(key_for("ES256"), "k1")))
    assert result.status == "malformed"
    assert expected in result.signatures[0].reason


def test_a_signature_without_kid_is_checked_with_every_key() -> None:
    key = key_for("ES256")
    payload = sign_card(copy.deepcopy(CARD), pem(key), kid="k1")
    from a2a_docgen.signing.canonical import canonical_bytes

    token = jwt.api_jws.encode(canonical_bytes(CARD, "sdk"), key, algorithm="ES256", headers={"typ": "JOSE"})
    protected, _, signature = token.split(".")
    card = {**CARD, "signatures": [{"protected": protected, "signature": signature}]}
    assert verify_card(loaded(card), trust(payload.public_jwk)).status == "verified"
    assert "names no kid" in verify_card(loaded(card), Trust()).signatures[0].reason


def test_a_header_member_both_protected_and_unprotected_is_malformed() -> None:
    card = _with_header({"alg": "ES256", "kid": "k1"})
    card["signatures"][0]["header"] = {"kid": "k2"}
    assert verify_card(loaded(card), trust(public_jwk(key_for("ES256"), "k1"))).status == "malformed"


def test_an_unsigned_card_and_no_keys() -> None:
    assert verify_card(loaded(CARD), Trust()).status == "unsigned"
    served = sdk_sign(CARD, key_for("ES256"), "k1", "ES256")
    result = verify_card(loaded(served), Trust())
    assert result.status == "unknown-key"
    assert "no keys were given" in result.signatures[0].reason


def test_a_key_the_signature_carries_itself_is_untrusted() -> None:
    key = key_for("EdDSA", "self")
    served = sdk_sign(CARD, key, "k1", "EdDSA", jwk=public_jwk(key, "k1"))
    result = verify_card(loaded(served), Trust())
    assert result.status == "untrusted"
    assert result.signatures[0].key_source == "the jwk of its protected header"
    assert verify_card(loaded(served), trust(public_jwk(key, "k1"))).status == "verified"


def test_the_best_signature_decides_and_invalid_outranks_untrusted() -> None:
    publisher, intruder = key_for("ES256"), key_for("EdDSA", "intruder")
    served = sdk_sign(CARD, publisher, "pub", "ES256")
    tampered = {**served, "description": "changed"}
    foreign = sdk_sign(
        {k: v for k, v in tampered.items() if k != "signatures"},
        intruder,
        "x",
        "EdDSA",
        jwk=public_jwk(intruder, "x"),
    )
    both = {**tampered, "signatures": [*served["signatures"], *foreign["signatures"]]}
    result = verify_card(loaded(both), trust(public_jwk(publisher, "pub")))
    assert [s.status for s in result.signatures] == ["invalid", "untrusted"]
    assert result.status == "invalid"
    rotated = {
        **served,
        "signatures": [*served["signatures"], *_with_header({"alg": "ES256", "kid": "old"})["signatures"]],
    }
    assert verify_card(loaded(rotated), trust(public_jwk(publisher, "pub"))).status == "verified"


# -- cards signed here pass a2a-sdk's verifier ---------------------------------------------------------------


@pytest.mark.parametrize("alg", ["ES256", "EdDSA", "RS256", "PS256"])
def test_a2a_sdk_accepts_cards_signed_here(alg: str) -> None:
    key = key_for(alg)
    signed = sign_card(copy.deepcopy(CARD), pem(key), kid="mine", alg=alg if alg == "PS256" else None)
    assert signed.alg == alg
    jwk = jwt.PyJWK(public_jwk(key, "mine"), algorithm=alg)

    def key_provider(kid: str | None, jku: str | None) -> Any:
        assert kid == "mine"
        return jwk

    verifier = sdk_signing.create_signature_verifier(key_provider, [alg])
    verifier(parse_agent_card(json.loads(json.dumps(signed.card))))
    tampered = {**signed.card, "name": "Someone else"}
    with pytest.raises(sdk_signing.InvalidSignaturesError):
        verifier(parse_agent_card(copy.deepcopy(tampered)))
    assert verify_card(loaded(signed.card), trust(signed.public_jwk)).status == "verified"


def test_sign_replaces_a_signature_with_the_same_kid_and_keeps_others() -> None:
    key = key_for("ES256")
    once = sign_card(copy.deepcopy(CARD), pem(key), kid="a").card
    twice = sign_card(once, pem(key), kid="b")
    again = sign_card(twice.card, pem(key), kid="a")
    assert (twice.others, again.replaced, again.others) == (1, 1, 1)
    header = json.loads(jwt.utils.base64url_decode(again.card["signatures"][-1]["protected"]))
    assert header == {"alg": "ES256", "kid": "a", "typ": "JOSE"}


def test_sign_refuses_a_key_that_does_not_fit_and_a_card_the_sdk_cannot_read() -> None:
    with pytest.raises(UsageError, match="does not fit the key"):
        sign_card(copy.deepcopy(CARD), pem(key_for("ES256")), kid="a", alg="RS256")
    with pytest.raises(UsageError, match="not a PEM private key"):
        sign_card(copy.deepcopy(CARD), b"-----BEGIN NOTHING-----", kid="a")
    with pytest.raises(UsageError, match="no a2a-sdk canonical form"):
        sign_card({**CARD, "skills": "none"}, pem(key_for("ES256")), kid="a")


# -- property: any change to a signed card breaks it, re-indenting does not ------------------------------------


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))]
    return [path]


_SIGNED_KEY = ec.generate_private_key(ec.SECP256R1())
_SIGNED = sign_card(copy.deepcopy(CARD), pem(_SIGNED_KEY), kid="k1")
_PATHS = _leaves({k: v for k, v in _SIGNED.card.items() if k != "signatures"})


def _changed(value: Any, draw: st.DrawFn) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + draw(st.sampled_from([1, -1, 0.25]))
    assert isinstance(value, str)
    return draw(
        st.sampled_from(
            [
                value + "x",
                value[:-1] + "\u00e9",
                value.upper() if value.upper() != value else value + " ",
                value[::-1] + "?",
            ]
        )
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_change_to_any_field_of_a_signed_card_breaks_verification(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(_PATHS))
    card = copy.deepcopy(_SIGNED.card)
    parent = card
    for step in path[:-1]:
        parent = parent[step]
    old = parent[path[-1]]
    new = _changed(old, data.draw)
    if new == old:
        return
    parent[path[-1]] = new
    result = verify_card(loaded(card), trust(_SIGNED.public_jwk))
    assert result.status == "invalid", (path, old, new)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=8), st.booleans())
def test_re_indenting_and_reordering_a_signed_card_keeps_it_verified(indent: int, reverse: bool) -> None:
    card = reorder(_SIGNED.card) if reverse else _SIGNED.card
    assert verify_card(loaded(card, indent=indent or None), trust(_SIGNED.public_jwk)).status == "verified"


# -- keys file: pins per agent and per provider ----------------------------------------------------------------


def write_jwks(path: Path, *jwks: dict[str, Any]) -> Path:
    path.write_text(json.dumps({"keys": list(jwks)}), encoding="utf-8")
    return path


def test_a_pin_restricts_a_card_to_its_keys_and_other_keys_are_untrusted(tmp_path: Path) -> None:
    publisher, other = key_for("ES256"), key_for("ES256", "other")
    write_jwks(tmp_path / "acme.json", public_jwk(publisher, "k1"))
    write_jwks(tmp_path / "all.json", public_jwk(other, "k1"))
    (tmp_path / "keys.toml").write_text(
        '[[pin]]\nname = "acme"\nprovider = "Example Corp"\njwks = ["acme.json"]\n\n'
        '[[pin]]\nagent = "Someone Else"\njwks = ["all.json"]\n',
        encoding="utf-8",
    )
    by_publisher = loaded(sdk_sign(CARD, publisher, "k1", "ES256"))
    by_other = loaded(sdk_sign(CARD, other, "k1", "ES256"))
    pinned = load_trust([str(tmp_path / "all.json")], str(tmp_path / "keys.toml"))
    assert verify_card(by_publisher, pinned).status == "verified"
    result = verify_card(by_other, pinned)
    assert result.status == "untrusted"  # valid with a key given, but not the one pinned for this provider
    unpinned = load_trust([str(tmp_path / "all.json")])
    assert verify_card(by_other, unpinned).status == "verified"
    check = verify_card(by_publisher, pinned).signatures[0]
    assert "pin 'acme'" in (check.key_source or "")


def test_a_key_pinned_to_another_agent_shows_valid_but_untrusted(tmp_path: Path) -> None:
    key = key_for("EdDSA")
    write_jwks(tmp_path / "k.json", public_jwk(key, "k1"))
    (tmp_path / "keys.toml").write_text(
        '[[pin]]\nurl = "https://other.example"\njwks = ["k.json"]\n', encoding="utf-8"
    )
    result = verify_card(
        loaded(sdk_sign(CARD, key, "k1", "EdDSA")), load_trust([], str(tmp_path / "keys.toml"))
    )
    assert result.status == "untrusted"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[pin]]\njwks = ['k.json']\n", "give agent, url, provider or provider_url"),
        ("[[pin]]\nagent = 'a'\n", "give jwks, kids or thumbprints"),
        ("[[pin]]\nagent = 'a'\nkids = ['nope']\njwks = ['k.json']\n", "none of its keys"),
        ("[[pin]]\nagent = 'a'\ncolour = 1\njwks = ['k.json']\n", "unknown key 'colour'"),
        ("[pins]\n", "unknown table or key 'pins'"),
        ("[[pin]]\nurl = 'ftp://x'\njwks = ['k.json']\n", r"not an http\(s\) URL"),
    ],
)
def test_keys_file_errors_name_the_problem(tmp_path: Path, text: str, message: str) -> None:
    write_jwks(tmp_path / "k.json", public_jwk(key_for("ES256"), "k1"))
    (tmp_path / "keys.toml").write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        load_keys_file(tmp_path / "keys.toml")


def test_symmetric_and_private_keys_in_a_jwks(tmp_path: Path) -> None:
    from a2a_docgen.signing.keys import load_jwks

    write_jwks(tmp_path / "oct.json", {"kty": "oct", "k": "c2VjcmV0", "kid": "h"})
    with pytest.raises(UsageError, match="symmetric"):
        load_jwks(tmp_path / "oct.json")
    private = {**public_jwk(key_for("ES256"), "k1"), "d": "c2VjcmV0"}
    key = load_jwks(write_jwks(tmp_path / "private.json", private))[0]
    assert "d" not in key.jwk


# -- the command line ---------------------------------------------------------------------------------------------


def test_sign_then_check_with_the_jwks_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key_path = tmp_path / "key.pem"
    key_path.write_bytes(pem(key_for("ES256")))
    (tmp_path / "card.json").write_text(json.dumps({**CARD, "x-note": "hi"}), encoding="utf-8")
    out, jwks = tmp_path / "signed.json", tmp_path / "pub.jwks.json"
    code = main(
        [
            "sign",
            str(tmp_path / "card.json"),
            "--key",
            str(key_path),
            "--kid",
            "k1",
            "--jku",
            "https://agent.example.com/jwks.json",
            "-o",
            str(out),
            "--jwks-out",
            str(jwks),
        ]
    )
    captured = capsys.readouterr()
    assert code == 0
    assert "PRIVATE" not in captured.out + captured.err
    assert "does not cover /securityRequirements/0/schemes/bearer, /x-note" in captured.err
    assert "PRIVATE" not in out.read_text(encoding="utf-8") + jwks.read_text(encoding="utf-8")
    assert main(["check", "--jwks", str(jwks), "--require-signature", str(out)]) == 0
    text = capsys.readouterr().out
    assert "signature-uncovered" in text
    verified = [line for line in text.splitlines() if " hint signature-verified " in line]
    assert len(verified) == 1
    assert verified[0].startswith(f"{out}:")
    assert "signature 1 verified" in verified[0]
    assert main(["check", "--jwks", str(jwks), "--format", "json", str(out)]) == 0
    found = [d for d in json.loads(capsys.readouterr().out) if d["code"] == "signature-verified"]
    assert [(d["severity"], d["pointer"]) for d in found] == [("hint", "/signatures/0")]
    assert main(["check", "--grade", "--jwks", str(jwks), str(out)]) == 0
    assert "signature-verified" not in capsys.readouterr().out.split("card-grade", 1)[1].split("\n")[0]
    assert main(["check", "--require-signature", str(tmp_path / "card.json")]) == 1
    assert "signature-required" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("alg", "size", "placeholder"), [("ES256", 45, True), ("ES256", 64, False), ("RS256", 20, True)]
)
def test_a_placeholder_signature_is_malformed_without_any_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alg: str, size: int, placeholder: bool
) -> None:
    protected = jwt.utils.base64url_encode(json.dumps({"alg": alg, "kid": "k1"}).encode()).decode()
    value = jwt.utils.base64url_encode(b"s" * size).decode()
    path = tmp_path / "card.json"
    path.write_text(json.dumps({**CARD, "signatures": [{"protected": protected, "signature": value}]}))
    code = main(["check", str(path)])
    out = capsys.readouterr().out
    assert code == (1 if placeholder else 0)
    assert ("error signature-malformed" in out) == placeholder
    if placeholder:
        assert f"is {size} bytes, which no {alg} signature is" in out


def test_sign_never_writes_over_the_key(tmp_path: Path) -> None:
    key_path = tmp_path / "key.pem"
    key_path.write_bytes(pem(key_for("ES256")))
    (tmp_path / "card.json").write_text(json.dumps(CARD), encoding="utf-8")
    before = key_path.read_bytes()
    assert (
        main(["sign", str(tmp_path / "card.json"), "--key", str(key_path), "--kid", "k", "-o", str(key_path)])
        == 2
    )
    assert key_path.read_bytes() == before


def test_check_reports_each_status_with_its_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = key_for("ES256")
    served = sdk_sign(CARD, key, "k1", "ES256")
    (tmp_path / "tampered.json").write_text(json.dumps({**served, "name": "Tampered"}), encoding="utf-8")
    (tmp_path / "none.json").write_text(
        json.dumps({**_with_header({"alg": "none", "kid": "k1"}), "name": "None"}), encoding="utf-8"
    )
    (tmp_path / "unknown.json").write_text(
        json.dumps({**sdk_sign(CARD, key, "k9", "ES256"), "name": "Unknown"}), encoding="utf-8"
    )
    jwks = write_jwks(tmp_path / "k.jwks", public_jwk(key, "k1"))
    assert main(["check", "--format", "json", "--jwks", str(jwks), str(tmp_path)]) == 1
    codes = {(Path(d["file"]).name, d["code"], d["severity"]) for d in json.loads(capsys.readouterr().out)}
    assert {
        ("tampered.json", "signature-invalid", "error"),
        ("none.json", "signature-unsupported-algorithm", "error"),
        ("unknown.json", "signature-unknown-key", "warning"),
    } <= codes


def test_without_signature_options_check_reports_nothing_new(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    served = sdk_sign(CARD, key_for("ES256"), "k1", "ES256")
    (tmp_path / "c.json").write_text(json.dumps({**served, "name": "Tampered"}), encoding="utf-8")
    assert main(["check", str(tmp_path / "c.json")]) == 0
    assert "signature-" not in capsys.readouterr().out


# -- jku: only when allowed, only from the card's own origin ----------------------------------------------------


def test_jku_is_fetched_from_the_card_s_origin_only(tmp_path: Path) -> None:
    from a2a_docgen.commands.jku import FetchingJkuResolver

    try:
        from tests.support.http_server import serve
    except ModuleNotFoundError:  # pragma: no cover
        from support.http_server import serve  # type: ignore[no-redef]

    key = key_for("ES256")
    with serve() as server:
        jku = server.url("/.well-known/jwks.json")
        server.route("/.well-known/jwks.json", body={"keys": [public_jwk(key, "k1")]})
        origin = jku.split("/.well-known")[0]
        card = {**CARD, "supportedInterfaces": [{**CARD["supportedInterfaces"][0], "url": origin + "/a2a"}]}
        served = sdk_sign(card, key, "k1", "ES256", jku=jku)
        import inspect

        from a2a_docgen.fetch import fetch_card

        # fetch's address rules may refuse loopback; its own tests opt in the same way
        loopback = "allow_private" in inspect.signature(fetch_card).parameters
        resolver = FetchingJkuResolver([origin], allow_private=loopback)
        result = verify_card(loaded(served), Trust(jku=resolver))
        assert result.status == "verified", result.signatures[0].reason
        assert result.signatures[0].key_source == f"jku {jku}"
        elsewhere = sdk_sign(CARD, key, "k1", "ES256", jku=jku)
        refused = verify_card(loaded(elsewhere), Trust(jku=FetchingJkuResolver()))
        assert refused.status == "unknown-key"
        assert "not on the card's own origin" in refused.signatures[0].reason
        assert len(server.requests) == 1


# -- diff: a signature that stops verifying, and signatures removed, are breaking -----------------------------


def _catalog(card: dict[str, Any], trust_: Trust | None = None) -> Any:
    from a2a_docgen.catalog import assemble_catalog

    text = json.dumps(card, indent=2, ensure_ascii=False).encode()
    found, diagnostics = load_card_bytes(text, display="cards/agent.json")
    return assemble_catalog([(found, diagnostics, "cards/agent.json")], trust=trust_)


def _review(base: dict[str, Any], head: dict[str, Any], trust_: Trust | None = None) -> list[tuple[str, str]]:
    from a2a_docgen.review import diff_catalogs

    changes = diff_catalogs(_catalog(base, trust_), _catalog(head, trust_))
    return sorted((c.code, c.severity) for c in changes if c.code.startswith("signature"))


def test_diff_a_kept_signature_over_changed_content_is_broken_without_keys() -> None:
    signed = sign_card(copy.deepcopy(CARD), pem(key_for("ES256")), kid="k1").card
    edited = {**signed, "description": "Something else"}
    assert _review(signed, edited) == [("signature-broken", "breaking")]
    unknown_member = {**signed, "x-note": "not covered by the sdk form, but by the served form"}
    assert _review(signed, unknown_member) == []


def test_diff_signatures_removed_are_breaking() -> None:
    key = key_for("ES256")
    signed = sign_card(copy.deepcopy(CARD), pem(key), kid="k1").card
    unsigned = {k: v for k, v in signed.items() if k != "signatures"}
    assert _review(signed, unsigned) == [("signatures-changed", "info"), ("signatures-removed", "breaking")]
    from a2a_docgen.review import diff_catalogs

    (removed,) = [
        c for c in diff_catalogs(_catalog(signed), _catalog(unsigned)) if c.code == "signatures-removed"
    ]
    assert "(it had 1 signature)" in removed.message
    two = sign_card(signed, pem(key_for("EdDSA")), kid="k2").card
    assert ("signatures-removed", "breaking") in _review(two, signed)


def test_diff_with_keys_a_signature_that_stops_verifying_is_broken_and_re_signing_is_not() -> None:
    key = key_for("ES256")
    signed = sign_card(copy.deepcopy(CARD), pem(key), kid="k1")
    keys = trust(signed.public_jwk)
    edited = {**signed.card, "description": "Changed"}
    resigned = sign_card(edited, pem(key), kid="k1").card
    assert _review(signed.card, resigned, keys) == [("signatures-changed", "info")]
    by_other_key = sign_card(edited, pem(key_for("ES256", "other")), kid="k1").card
    assert _review(signed.card, by_other_key, keys) == [
        ("signature-broken", "breaking"),
        ("signatures-changed", "info"),
    ]


# -- the MkDocs plugin: jwks, keys_file, require_signature ------------------------------------------------------


@pytest.fixture
def mkdocs_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from tests.test_mkdocs_build import FAKE_SITE, Project

    monkeypatch.setattr("a2a_docgen.render.render_catalog", lambda catalog, **kw: FAKE_SITE, raising=False)
    return Project(tmp_path)


def test_plugin_verifies_with_jwks_and_requires_a_signature(
    mkdocs_project: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from mkdocs.exceptions import Abort

    from tests.test_mkdocs_build import CARD as TINY

    key = key_for("EdDSA")
    cards = mkdocs_project.root / "cards"
    signed = sign_card(copy.deepcopy(TINY), pem(key), kid="tiny")
    (cards / "tiny.json").write_text(json.dumps(signed.card), encoding="utf-8")
    write_jwks(mkdocs_project.root / "tiny.jwks.json", signed.public_jwk)
    (mkdocs_project.root / "keys.toml").write_text(
        '[[pin]]\nagent = "Tiny Agent"\njwks = ["tiny.jwks.json"]\n', encoding="utf-8"
    )
    options = {
        "cards": "cards",
        "jwks": "tiny.jwks.json",
        "keys_file": "keys.toml",
        "require_signature": True,
    }
    mkdocs_project.build(plugins=[{"a2a-docgen": options}])
    (cards / "tiny.json").write_text(json.dumps(TINY), encoding="utf-8")
    with pytest.raises(Abort):
        mkdocs_project.build(strict=False, plugins=[{"a2a-docgen": options}])
    assert any("--require-signature: 1 card(s)" in r.getMessage() for r in caplog.records)


def test_a_card_signed_with_the_pre_rfc8785_sdk_serialisation_verifies_as_sdk_legacy() -> None:
    """a2a-sdk before its RFC 8785 fix signed json.dumps(sort_keys=True): \\u escapes, Python numbers."""
    from a2a_docgen.signing.canonical import sdk_json

    key = key_for("ES256")
    payload = json.dumps(sdk_json(CARD), separators=(",", ":"), sort_keys=True).encode()
    token = jwt.api_jws.encode(payload, key, algorithm="ES256", headers={"kid": "k1", "typ": "JOSE"})
    protected, _, signature = token.split(".")
    card = {**CARD, "signatures": [{"protected": protected, "signature": signature}]}
    result = verify_card(loaded(card), trust(public_jwk(key, "k1")))
    assert (result.status, result.signatures[0].form) == ("verified", "sdk-legacy")


def test_a_jwks_keeps_its_signature_keys_and_leaves_the_others_out(tmp_path: Path) -> None:
    from a2a_docgen.signing.keys import load_jwks

    good = public_jwk(key_for("ES256"), "k1")
    mixed = write_jwks(
        tmp_path / "mixed.json",
        {"kty": "oct", "k": "c2VjcmV0"},
        {"kty": "OKP", "crv": "X25519", "x": "eA"},
        {**good, "use": "enc"},
        good,
    )
    assert [k.kid for k in load_jwks(mixed)] == ["k1"]


def test_pages_show_what_verification_found(tmp_path: Path) -> None:
    """The agent page's header and Signatures section, and the home page, say what the check found."""
    from a2a_docgen.catalog import load_catalog
    from a2a_docgen.render import render_catalog
    from a2a_docgen.signing import load_trust

    (tmp_path / "card.json").write_text(json.dumps(_SIGNED.card), encoding="utf-8")
    (tmp_path / "keys.jwks.json").write_text(json.dumps({"keys": [_SIGNED.public_jwk]}), encoding="utf-8")
    verified = render_catalog(
        load_catalog([tmp_path / "card.json"], trust=load_trust([str(tmp_path / "keys.jwks.json")]))
    )
    unknown = render_catalog(load_catalog([tmp_path / "card.json"]))
    [agent] = [p for p in verified.pages if p.startswith("agents/")]
    page = verified.pages[agent]
    assert re.search(
        r"^- \*\*Signature:\*\* Signature verified, key `k1` from .*\(\[details\]\(#signatures\)\)$",
        page,
        re.M,
    )
    assert re.search(r"^\| 1 \| Signature verified \| `ES256` \| `k1` \|", page, re.M)
    assert "Verified over the a2a-sdk canonical form." in page
    assert " · Signature verified" in verified.pages["index.md"]
    assert "- **Signature:** Signed, key unknown ([details](#signatures))" in unknown.pages[agent]
    assert " · Signed, key unknown" in unknown.pages["index.md"]
