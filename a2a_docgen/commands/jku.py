"""The one place a signature's ``jku`` is fetched (``--trust-jku``): the origin rule, then ``fetch``'s client.

A ``jku`` is fetched only when the user allows it, only over the card's own origin (the URL ``a2a-docgen
fetch`` recorded in the card's sidecar, else the origins of the card's interface URLs) or an origin given with
``--jku-origin``, only over https unless that origin was given explicitly, and with ``fetch``'s limits: its
timeout, redirect rules and URL checks, and a size cap of ``MAX_JWKS_BYTES``. Each URL is fetched once a run.
Its keys are trusted (``anchor``) only on the recorded origin or a ``--jku-origin``: the interface URLs are the
signer's own choice, so a key found through them makes a signature ``unanchored``.
Not a subcommand: ``check`` and ``build`` import it only with ``--trust-jku``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from a2a_docgen.errors import UsageError
from a2a_docgen.limits import DEFAULT_LIMITS, Limits
from a2a_docgen.model import AgentCard
from a2a_docgen.signing.keys import Key, UnusableKey, checked_origins, parse_jwks, url_origin

__all__ = ["MAX_JWKS_BYTES", "FetchingJkuResolver", "card_origins"]

MAX_JWKS_BYTES = 256 * 1024
"""A JWK set is a few kilobytes."""


def recorded_origin(card: AgentCard) -> str | None:
    """The origin ``a2a-docgen fetch`` fetched the card from (its sidecar), if it was fetched."""
    if card.source.fetched is not None:
        return url_origin(card.source.fetched.url)
    from a2a_docgen.fetch.store import sidecar_path

    try:
        recorded = json.loads(sidecar_path(Path(card.source.path)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return url_origin(recorded.get("url")) if isinstance(recorded, dict) else None


def card_origins(card: AgentCard) -> tuple[str, ...]:
    """Where the card is served from: its fetch sidecar's URL, else its interface URLs (which the card itself
    chooses, so a key fetched from them is ``unanchored``)."""
    origin = recorded_origin(card)
    if origin is not None:
        return (origin,)
    return tuple(dict.fromkeys(o for i in card.interfaces if (o := url_origin(i.url)) is not None))


class FetchingJkuResolver:
    """``signing.JkuResolver`` over ``a2a_docgen.fetch``."""

    def __init__(
        self,
        allowed: Sequence[str] = (),
        *,
        timeout: float = 10.0,
        limits: Limits = DEFAULT_LIMITS,
        allow_private: bool = False,
    ):
        self.allowed = checked_origins(allowed, "--jku-origin")
        self.allow_private = allow_private
        """Passed on to ``fetch_card`` (whose address rules refuse non-public addresses unless it is set);
        only tests against a loopback server set it."""
        self.timeout = timeout
        self.limits = limits
        self.cache: dict[str, tuple[tuple[Key, ...], str | None]] = {}

    def keys(self, card: AgentCard, url: str) -> tuple[tuple[Key, ...], str | None]:
        origin = url_origin(url)
        if origin is None:
            return (), f"its jku {url!r} is not an http(s) URL"
        own = card_origins(card)
        if origin not in own and origin not in self.allowed:
            where = ", ".join(own) if own else "unknown"
            return (
                (),
                f"its jku {url} is not on the card's own origin ({where}); allow it with --jku-origin {origin}",
            )
        if not origin.startswith("https://") and origin not in self.allowed:
            return (), f"its jku {url} is not https; allow it with --jku-origin {origin}"
        if url not in self.cache:
            self.cache[url] = self._fetch(url)
        return self.cache[url]

    def anchor(self, card: AgentCard, url: str) -> str | None:
        origin = url_origin(url)
        if origin is not None and origin in self.allowed:
            return f"--jku-origin {origin}"
        if origin is not None and origin == recorded_origin(card):
            return f"the origin fetch recorded ({origin})"
        return None

    def _fetch(self, url: str) -> tuple[tuple[Key, ...], str | None]:
        from a2a_docgen.fetch import CardFetchError, fetch_card
        from a2a_docgen.fetch.urls import check_url, names_a_card

        try:
            if not names_a_card(check_url(url)):
                return (), f"its jku {url} is fetched only when it names a .json file or a /.well-known/ path"
            extra = {"allow_private": True} if self.allow_private else {}
            result = cast(Any, fetch_card)(
                url, timeout=self.timeout, max_bytes=MAX_JWKS_BYTES, limits=self.limits, **extra
            )
        except (UsageError, CardFetchError) as exc:
            return (), f"its jku could not be fetched: {exc}"
        try:
            keys, problems = parse_jwks(result.card, f"jku {result.url}")
        except UnusableKey as exc:
            return (), f"its jku {url} is not a JWK set: {exc}"
        return tuple(keys), ("; ".join(problems) or None) if not keys else None
