"""Security scheme definitions: declared, removed, renamed, and what changed inside one.

Declaring or removing a scheme is ``info``: the requirements that use it decide what clients must do,
and they are reported on their own. A change inside a scheme (``SCHEME_DETAIL_CODES``) has its severity
only when a requirement uses the scheme before and after. A scheme that disappears while one with the
same definition appears under another name is a rename: the SDK's auth interceptor looks credentials up
by scheme name, so clients configured for the old name stop sending them (breaking when used).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from a2a_docgen.load.source import join_pointer
from a2a_docgen.model import (
    AgentCard,
    APIKeySecurityScheme,
    HTTPAuthSecurityScheme,
    JSONValue,
    OAuth2SecurityScheme,
    OAuthFlow,
    OpenIdConnectSecurityScheme,
    SecurityScheme,
    UnknownSecurityScheme,
)
from a2a_docgen.review.codes import (
    API_KEY_LOCATION_CHANGED,
    API_KEY_NAME_CHANGED,
    BEARER_FORMAT_CHANGED,
    HTTP_SCHEME_CHANGED,
    OAUTH_FLOW_ADDED,
    OAUTH_FLOW_REMOVED,
    OAUTH_METADATA_URL_ADDED,
    OAUTH_METADATA_URL_CHANGED,
    OAUTH_SCOPE_ADDED,
    OAUTH_SCOPE_DESCRIPTION_CHANGED,
    OAUTH_SCOPE_REMOVED,
    OAUTH_URL_CHANGED,
    OIDC_URL_CHANGED,
    PKCE_NO_LONGER_REQUIRED,
    PKCE_REQUIRED,
    SCHEME_ADDED,
    SCHEME_DESCRIPTION_CHANGED,
    SCHEME_DETAIL_CODES,
    SCHEME_REMOVED,
    SCHEME_RENAMED,
    SCHEME_TYPE_CHANGED,
)
from a2a_docgen.review.compare.base import AgentPair, Draft, q
from a2a_docgen.review.match import pair

__all__ = ["compare_schemes", "scheme_renames"]

_OAUTH_URLS: tuple[tuple[str, str, str], ...] = (
    ("authorization_url", "authorization URL", "authorizationUrl"),
    ("token_url", "token URL", "tokenUrl"),
    ("refresh_url", "refresh URL", "refreshUrl"),
    ("device_authorization_url", "device authorization URL", "deviceAuthorizationUrl"),
)


def scheme_renames(old: AgentCard, new: AgentCard) -> dict[str, str]:
    """Base name -> head name of each scheme renamed with an identical definition (one to one)."""
    gone = {
        name: _definition(s) for name, s in old.security_schemes.items() if name not in new.security_schemes
    }
    came = {
        name: _definition(s) for name, s in new.security_schemes.items() if name not in old.security_schemes
    }
    renames: dict[str, str] = {}
    for name, definition in gone.items():
        matches = [other for other, theirs in came.items() if theirs == definition]
        twins = [other for other, mine in gone.items() if mine == definition]
        if len(matches) == 1 and len(twins) == 1:
            renames[name] = matches[0]
    return renames


def _definition(scheme: object) -> JSONValue:
    """A scheme as what it says, without where it is written (pointers)."""
    if dataclasses.is_dataclass(scheme) and not isinstance(scheme, type):
        return {
            f.name: _definition(getattr(scheme, f.name))
            for f in dataclasses.fields(scheme)
            if f.name != "pointer"
        }
    if isinstance(scheme, Mapping):
        return {str(k): _definition(v) for k, v in scheme.items()}
    if isinstance(scheme, (list, tuple)):
        return [_definition(v) for v in scheme]
    return scheme  # type: ignore[return-value]


def compare_schemes(pair_: AgentPair) -> None:
    old, new = pair_.old.security_schemes, pair_.new.security_schemes
    renamed_to = set(pair_.renames.values())
    for name in old:
        if name in pair_.renames:
            _renamed(pair_, name, pair_.renames[name])
        elif name not in new:
            pair_.add(
                SCHEME_REMOVED,
                f"security scheme {q(name)} is no longer declared",
                old[name].pointer,
                before=name,
                side="base",
            )
    for name, scheme in new.items():
        if name in renamed_to:
            continue
        if name not in old:
            pair_.add(
                SCHEME_ADDED,
                f"security scheme {q(name)} ({_kind(scheme)}) is declared",
                scheme.pointer,
                after=name,
            )
        else:
            start = len(pair_.drafts)
            _scheme(pair_, name, old[name], scheme)
            pair_.drafts[start:] = [_scheme_use(pair_, name, name, d) for d in pair_.drafts[start:]]


def _renamed(pair_: AgentPair, before: str, after: str) -> None:
    pair_.add(
        SCHEME_RENAMED,
        f"security scheme {q(before)} is now called {q(after)} (same definition): clients look credentials up "
        f"by scheme name, so those configured for {q(before)} stop sending them",
        pair_.new.security_schemes[after].pointer,
        before=before,
        after=after,
    )
    pair_.drafts[-1] = _scheme_use(pair_, before, after, pair_.drafts[-1])


def _scheme_use(pair_: AgentPair, before_name: str, after_name: str, draft: Draft) -> Draft:
    """A detail of a scheme matters to clients only when a requirement uses it before and after.

    Otherwise no client has to present the scheme (like ``scheme-added`` and ``scheme-removed``, the
    requirements decide), so the finding is at most ``info`` and says why.
    """
    if draft.code.name not in SCHEME_DETAIL_CODES:
        return draft
    before, after = before_name in _schemes_used(pair_.old), after_name in _schemes_used(pair_.new)
    if before and after:
        return draft
    why = (
        "no requirement uses it any more"
        if before
        else "no requirement used it before"
        if after
        else "no requirement uses it, so no client has to present it"
    )
    return dataclasses.replace(draft, message=f"{draft.message}; {why}", cap="info")


def _schemes_used(card: AgentCard) -> set[str]:
    """Names of the schemes some requirement of the card or of one of its skills refers to."""
    requirements = [*card.security_requirements]
    for skill in card.skills:
        requirements.extend(skill.security_requirements or ())
    return {name for requirement in requirements for name in requirement.schemes}


def _kind(scheme: SecurityScheme) -> str:
    if isinstance(scheme, UnknownSecurityScheme):
        return f"unknown ({scheme.label})" if scheme.label else "unknown"
    return scheme.kind


def _now(value: str | None) -> str:
    """``is now "x"``, or ``was removed`` for a value the head no longer sets."""
    return "was removed" if value is None else f"is now {q(value)}"


def _key_location(location: str | None) -> str:
    return f"in the {location}" if location else "without a location"


def _scheme(pair_: AgentPair, name: str, old: SecurityScheme, new: SecurityScheme) -> None:
    if _kind(old) != _kind(new):
        pair_.add(
            SCHEME_TYPE_CHANGED,
            f"security scheme {q(name)} changed from {_kind(old)} to {_kind(new)}",
            new.pointer,
            before=_kind(old),
            after=_kind(new),
        )
        return
    if old.description != new.description:
        pair_.add(
            SCHEME_DESCRIPTION_CHANGED,
            f"the description of security scheme {q(name)} changed",
            new.pointer,
            before=old.description,
            after=new.description,
            at=pair_.member(new.pointer, "description"),
        )
    if isinstance(old, APIKeySecurityScheme) and isinstance(new, APIKeySecurityScheme):
        if old.name != new.name:
            pair_.add(
                API_KEY_NAME_CHANGED,
                f"the API key of {q(name)} is now sent as {q(new.name)} (was {q(old.name)})",
                new.pointer,
                before=old.name,
                after=new.name,
                at=pair_.member(new.pointer, "name"),
            )
        if (old.location or "").lower() != (new.location or "").lower():
            pair_.add(
                API_KEY_LOCATION_CHANGED,
                f"the API key of {q(name)} is now sent {_key_location(new.location)} "
                f"(was {_key_location(old.location)})",
                new.pointer,
                before=old.location,
                after=new.location,
                at=pair_.member(new.pointer, "location", "in"),
            )
    elif isinstance(old, HTTPAuthSecurityScheme) and isinstance(new, HTTPAuthSecurityScheme):
        if (old.scheme or "").lower() != (new.scheme or "").lower():  # auth schemes are case-insensitive
            pair_.add(
                HTTP_SCHEME_CHANGED,
                f"security scheme {q(name)} now uses HTTP {q(new.scheme)} (was {q(old.scheme)})",
                new.pointer,
                before=old.scheme,
                after=new.scheme,
                at=pair_.member(new.pointer, "scheme"),
            )
        if old.bearer_format != new.bearer_format:
            pair_.add(
                BEARER_FORMAT_CHANGED,
                f"the bearer format of {q(name)} changed",
                new.pointer,
                before=old.bearer_format,
                after=new.bearer_format,
                at=pair_.member(new.pointer, "bearerFormat"),
            )
    elif isinstance(old, OpenIdConnectSecurityScheme) and isinstance(new, OpenIdConnectSecurityScheme):
        if old.open_id_connect_url != new.open_id_connect_url and old.open_id_connect_url is not None:
            pair_.add(
                OIDC_URL_CHANGED,
                f"the OpenID Connect discovery URL of {q(name)} {_now(new.open_id_connect_url)}",
                new.pointer,
                before=old.open_id_connect_url,
                after=new.open_id_connect_url,
                at=pair_.member(new.pointer, "openIdConnectUrl"),
            )
    elif isinstance(old, OAuth2SecurityScheme) and isinstance(new, OAuth2SecurityScheme):
        _oauth(pair_, name, old, new)


def _oauth(pair_: AgentPair, name: str, old: OAuth2SecurityScheme, new: OAuth2SecurityScheme) -> None:
    if old.oauth2_metadata_url != new.oauth2_metadata_url:
        if old.oauth2_metadata_url is None:
            pair_.add(
                OAUTH_METADATA_URL_ADDED,
                f"security scheme {q(name)} now publishes authorization-server metadata",
                new.pointer,
                after=new.oauth2_metadata_url,
            )
        else:
            pair_.add(
                OAUTH_METADATA_URL_CHANGED,
                f"the authorization-server metadata URL of {q(name)} {_now(new.oauth2_metadata_url)}",
                new.pointer,
                before=old.oauth2_metadata_url,
                after=new.oauth2_metadata_url,
                at=pair_.member(new.pointer, "oauth2MetadataUrl"),
            )
    pairs, removed, added = pair(list(old.flows), list(new.flows), lambda f: f.kind)
    for flow in removed:
        pair_.add(
            OAUTH_FLOW_REMOVED,
            f"security scheme {q(name)} no longer offers the {flow.kind} flow",
            flow.pointer,
            before=flow.kind,
            side="base",
        )
    for flow in added:
        pair_.add(
            OAUTH_FLOW_ADDED,
            f"security scheme {q(name)} now offers the {flow.kind} flow",
            flow.pointer,
            after=flow.kind,
        )
    for before, after in pairs:
        _flow(pair_, name, before, after)


def _flow(pair_: AgentPair, name: str, old: OAuthFlow, new: OAuthFlow) -> None:
    where = f"the {new.kind} flow of {q(name)}"
    for attr, label, member in _OAUTH_URLS:
        before, after = getattr(old, attr), getattr(new, attr)
        if before is not None and before != after:
            pair_.add(
                OAUTH_URL_CHANGED,
                f"the {label} of {where} {_now(after)}",
                new.pointer,
                before=before,
                after=after,
                at=pair_.member(new.pointer, member),
            )
    if (old.pkce_required is True) != (new.pkce_required is True):
        if new.pkce_required:
            pair_.add(PKCE_REQUIRED, f"{where} now requires PKCE", new.pointer, before=False, after=True)
        else:
            pair_.add(
                PKCE_NO_LONGER_REQUIRED,
                f"{where} no longer requires PKCE",
                new.pointer,
                before=True,
                after=False,
            )
    scopes_pointer = join_pointer(new.pointer, "scopes")
    for scope in old.scopes:
        if scope not in new.scopes:
            pair_.add(
                OAUTH_SCOPE_REMOVED,
                f"{where} no longer declares scope {q(scope)}; clients that request it may be refused",
                scopes_pointer,
                before=scope,
            )
        elif old.scopes[scope] != new.scopes[scope]:
            pair_.add(
                OAUTH_SCOPE_DESCRIPTION_CHANGED,
                f"the description of scope {q(scope)} of {where} changed",
                join_pointer(scopes_pointer, scope),
                before=old.scopes[scope],
                after=new.scopes[scope],
            )
    for scope in new.scopes:
        if scope not in old.scopes:
            pair_.add(
                OAUTH_SCOPE_ADDED,
                f"{where} declares scope {q(scope)}",
                join_pointer(scopes_pointer, scope),
                after=scope,
            )
