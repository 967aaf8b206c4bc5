"""``a2a-docgen sign``: add a JWS signature to an Agent Card, over the same bytes the official SDK signs.

The private key is read from ``--key`` and used in memory only: it is never written (``-o`` may not name it),
printed, or put in a message. Exit status: 0 signed, 2 usage error (a key, card or option that cannot be used).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from a2a_docgen.errors import UsageError

__all__ = ["HELP", "register", "run"]

HELP = "add a JWS signature to an Agent Card"
DESCRIPTION = """\
Sign CARD (a JSON file) with the private key in PEM (EC P-256/P-384/P-521, Ed25519, Ed448
or RSA) and write the card with the new signature to OUT (default: standard output).

The signature is a JWS over the card's a2a-sdk canonical form (docs/signing.md): the card
as the official SDK reads it, without signatures and empty values, in RFC 8785 JCS. Its
protected header is {"alg", "kid", "typ": "JOSE"} plus "jku" when given. A signature with
the same kid is replaced; other signatures are kept. The public key, as a JWK set for
verifiers, is written with --jwks-out.

exit status: 0 signed, 2 usage error"""


def register(subparsers: Any) -> None:
    from a2a_docgen.signing.verify import ALGORITHMS

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "sign", help=HELP, description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("card", metavar="CARD", help="the card file to sign")
    parser.add_argument("--key", required=True, metavar="PEM", help="the private key (PEM); never written")
    parser.add_argument("--kid", required=True, metavar="ID", help="the key id verifiers look the key up by")
    parser.add_argument("--jku", metavar="URL", help="the URL of the JWK set that holds the public key")
    parser.add_argument(
        "--alg", choices=ALGORITHMS, help="the algorithm (default: from the key: ES256/384/512, EdDSA, RS256)"
    )
    parser.add_argument(
        "--password-env", metavar="NAME", help="the environment variable holding the key's password"
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="where to write the signed card (default: stdout)"
    )
    parser.add_argument("--jwks-out", metavar="FILE", help="also write the public key as a JWK set")
    parser.set_defaults(run=run)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def run(args: argparse.Namespace) -> int:
    from a2a_docgen.files import write_atomic
    from a2a_docgen.limits import DEFAULT_LIMITS
    from a2a_docgen.load.source import SourceError, parse_bytes
    from a2a_docgen.signing.sign import sign_card
    from a2a_docgen.text.jsonio import json_document
    from a2a_docgen.text.urls import safe_url

    for option, out in (("-o", args.output), ("--jwks-out", args.jwks_out)):
        if out is not None and _same_file(out, args.key):
            raise UsageError(f"{option} {out} is the key file: the key is never written")
    if args.jwks_out is not None and _same_file(args.jwks_out, args.card):
        raise UsageError(f"--jwks-out {args.jwks_out} is the card file")
    if args.jku is not None and safe_url(args.jku) is None:
        raise UsageError(f"--jku {args.jku!r} is not an http(s) URL")
    password = None
    if args.password_env is not None:
        value = os.environ.get(args.password_env)
        if value is None:
            raise UsageError(f"--password-env: the environment variable {args.password_env} is not set")
        password = value.encode("utf-8")
    try:
        card_bytes = Path(args.card).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {args.card}: {exc.strerror or exc}") from None
    try:
        pem = Path(args.key).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read the key {args.key}: {exc.strerror or exc}") from None
    try:
        card = parse_bytes(card_bytes, DEFAULT_LIMITS).value
    except SourceError as exc:
        raise UsageError(f"{args.card} is not a card: {exc.problem.message}") from None

    signed = sign_card(card, pem, kid=args.kid, jku=args.jku, alg=args.alg, password=password)
    del pem
    text = json_document(signed.card)
    if args.output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomic(Path(args.output), text.encode("utf-8"))
    if args.jwks_out is not None:
        write_atomic(Path(args.jwks_out), json_document({"keys": [signed.public_jwk]}).encode("utf-8"))
    notes = [f"signed with kid {json.dumps(signed.kid)} ({signed.alg}) over the a2a-sdk canonical form"]
    if signed.replaced:
        notes.append(f"replaced {signed.replaced} signature(s) with the same kid")
    if signed.others:
        notes.append(f"kept {signed.others} other signature(s): they verify only if made over this content")
    print("; ".join(notes), file=sys.stderr)
    if signed.uncovered:
        print(
            f"warning: the signature does not cover {', '.join(signed.uncovered)} (members the a2a-sdk form "
            "leaves out): anyone can change them without breaking it",
            file=sys.stderr,
        )
    return 0
