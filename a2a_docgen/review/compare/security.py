"""Security requirements: alternatives (OR) of scheme sets (AND) with scopes, of the card and of each skill.

A change is tightening when a client that satisfied some base alternative satisfies no head alternative,
loosening in the mirror case. An alternative that names a scheme the card does not declare (a typo)
admits no client, so it is left out on both sides: adding one accepts nobody new, and replacing a working
alternative with one is a way to authenticate removed. A scheme renamed with the same definition
(``scheme-renamed``) is read under its new name in the base, so the rename is reported once, there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from a2a_docgen.model import JSONValue, SecurityRequirement
from a2a_docgen.review.codes import (
    SECURITY_ALTERNATIVE_ADDED,
    SECURITY_ALTERNATIVE_REMOVED,
    SECURITY_NO_LONGER_REQUIRED,
    SECURITY_REQUIRED,
    SECURITY_SCHEME_NO_LONGER_REQUIRED,
    SECURITY_SCHEME_REQUIRED,
    SECURITY_SCOPE_NO_LONGER_REQUIRED,
    SECURITY_SCOPE_REQUIRED,
)
from a2a_docgen.review.compare.base import AgentPair, element_at, inherit_note, q, quoted_list, strings

__all__ = ["Alternative", "compare_card_security", "compare_security"]

Alternative = dict[str, frozenset[str]]
"""One security alternative: scheme name -> required scopes."""

_Indexed = tuple[Alternative, int]
"""An alternative and the index of the requirement it comes from (-1: no requirement at all)."""


def compare_card_security(pair: AgentPair) -> None:
    old, new = pair.old, pair.new
    if pair.schemes_unchanged and old.security_requirements == new.security_requirements:
        return  # the same requirements of the same schemes admit the same clients (no skills to name)
    compare_security(
        pair,
        old.security_requirements,
        new.security_requirements,
        new.security_requirements_pointer,
        None,
        inherit_note(pair.inheriting(lambda s: s.effective_security.origin), "the skills that inherit them"),
    )


def compare_security(
    pair: AgentPair,
    old: Sequence[SecurityRequirement],
    new: Sequence[SecurityRequirement],
    pointer: str,
    skill: str | None,
    note: str,
) -> None:
    """Tightened: a base alternative no head alternative admits. Loosened: the mirror image."""
    old_alts = _alternatives(old, pair.old.security_schemes, pair.renames)
    new_alts = _alternatives(new, pair.new.security_schemes, {})
    whose = "the card's requirements" if skill is None else "the skill's requirements"
    for tightened, alts, others in ((True, old_alts, new_alts), (False, new_alts, old_alts)):
        for alt, index in alts:
            if any(_admits(alt, other) for other, _ in others):
                continue
            if alt:
                _narrowed(
                    pair, (alt, index), others, pointer, skill, note, tightened=tightened, length=len(new)
                )
                continue
            pair.add(
                SECURITY_REQUIRED if tightened else SECURITY_NO_LONGER_REQUIRED,
                f"authentication is now required ({whose}: {_describe_all([a for a, _ in new_alts])}){note}"
                if tightened
                else f"authentication is no longer required ({whose}){note}",
                pointer,
                skill=skill,
                before=_requirements_json(old),
                after=_requirements_json(new),
            )


def _narrowed(
    pair: AgentPair,
    indexed: _Indexed,
    others: Sequence[_Indexed],
    pointer: str,
    skill: str | None,
    note: str,
    *,
    tightened: bool,
    length: int,
) -> None:
    """Say how ``alt`` relates to its closest alternative on the other side.

    Tightened: ``alt`` is a base alternative no head alternative admits, and the closest head one asks
    for more. Loosened: ``alt`` is a head alternative, and the closest base one asked for more. Either
    way, what differs is what ``closest`` has beyond ``alt``. Each finding is shown on the head
    requirement concerned: the closest one when tightened, ``alt`` itself when loosened.
    """
    alt, index = indexed
    same = [o for o in others if o[0].keys() == alt.keys()]
    if same:
        # Of equally close alternatives, the one at the same index: the requirement edited in place.
        closest, other_index = min(
            same,
            key=lambda o: (sum(len(o[0][s] ^ alt[s]) for s in alt), abs(o[1] - index), _alt_sort_key(o[0])),
        )
        at = element_at(pointer, other_index if tightened else index, length)
        for scheme in sorted(alt):
            extra = closest[scheme] - alt[scheme]
            if not extra:
                continue
            old, new = (alt, closest) if tightened else (closest, alt)
            verb = "now requires" if tightened else "no longer requires"
            pair.add(
                SECURITY_SCOPE_REQUIRED if tightened else SECURITY_SCOPE_NO_LONGER_REQUIRED,
                f"{verb} scope {quoted_list(extra)} of {q(scheme)}{note}",
                pointer,
                skill=skill,
                before=strings(sorted(old[scheme])),
                after=strings(sorted(new[scheme])),
                at=at,
            )
        return
    wider = [o for o in others if o[0].keys() >= alt.keys()]
    if wider:
        closest, other_index = min(
            wider, key=lambda o: (len(o[0].keys() ^ alt.keys()), abs(o[1] - index), _alt_sort_key(o[0]))
        )
        schemes = quoted_list(closest.keys() - alt.keys())
        old, new = (alt, closest) if tightened else (closest, alt)
        if tightened:
            code = SECURITY_SCHEME_REQUIRED
            text = (
                f"clients that authenticate with {_describe(_as_in_base(alt, pair))} now also need {schemes}"
            )
        else:
            code = SECURITY_SCHEME_NO_LONGER_REQUIRED
            text = f"clients that authenticate with {_describe(alt)} no longer need {schemes} as well"
        pair.add(
            code,
            f"{text}{note}",
            pointer,
            skill=skill,
            before=strings(sorted(old)),
            after=strings(sorted(new)),
            at=element_at(pointer, other_index if tightened else index, length),
        )
        return
    if tightened:
        pair.add(
            SECURITY_ALTERNATIVE_REMOVED,
            f"authenticating with {_describe(_as_in_base(alt, pair))} is no longer accepted{note}",
            pointer,
            skill=skill,
            before=_alternative_json(_as_in_base(alt, pair)),
            at=element_at(pointer, max(index, 0), length),
        )
    else:
        pair.add(
            SECURITY_ALTERNATIVE_ADDED,
            f"authenticating with {_describe(alt)} is now accepted{note}",
            pointer,
            skill=skill,
            after=_alternative_json(alt),
            at=element_at(pointer, max(index, 0), length),
        )


def _alternatives(
    requirements: Sequence[SecurityRequirement], declared: Mapping[str, object], renames: Mapping[str, str]
) -> list[_Indexed]:
    """The alternatives (OR) that some client can satisfy, as scheme -> scope sets, with their index.

    No requirement is one empty alternative; requirements that all name undeclared schemes are none.
    ``renames`` (base name -> head name) reads base alternatives under the schemes' head names.
    """
    if not requirements:
        return [({}, -1)]
    result: list[_Indexed] = []
    for index, requirement in enumerate(requirements):
        if any(name not in declared for name in requirement.schemes):
            continue  # admits no client: the card does not say how to present that scheme
        alt = {renames.get(name, name): frozenset(scopes) for name, scopes in requirement.schemes.items()}
        if all(alt != seen for seen, _ in result):
            result.append((alt, index))
    return result


def _admits(old: Alternative, new: Alternative) -> bool:
    """Whether every client that satisfies ``old`` also satisfies ``new`` (``new`` asks no more)."""
    return all(scheme in old and scopes <= old[scheme] for scheme, scopes in new.items())


def _alt_sort_key(alt: Alternative) -> list[tuple[str, list[str]]]:
    return sorted((name, sorted(scopes)) for name, scopes in alt.items())


def _as_in_base(alt: Alternative, pair: AgentPair) -> Alternative:
    """A base alternative (read under the head names of renamed schemes) with the names the base card
    wrote: what clients configured for the base card know it by."""
    back = {head: base for base, head in pair.renames.items()}
    return {back.get(name, name): scopes for name, scopes in alt.items()}


def _describe(alt: Alternative) -> str:
    parts = []
    for name in sorted(alt):
        scopes = f" (scopes {quoted_list(alt[name])})" if alt[name] else ""
        parts.append(f"{q(name)}{scopes}")
    return " and ".join(parts) if parts else "no credentials"


def _describe_all(alts: Sequence[Alternative]) -> str:
    return " or ".join(_describe(a) for a in alts) if alts else "no alternative any client can satisfy"


def _alternative_json(alt: Alternative) -> JSONValue:
    return {name: strings(sorted(alt[name])) for name in sorted(alt)}


def _requirements_json(requirements: Sequence[SecurityRequirement]) -> JSONValue:
    return [{name: strings(scopes) for name, scopes in r.schemes.items()} for r in requirements]
