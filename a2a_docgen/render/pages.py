"""What every page kind shares: the taint of card text, summaries, the skills a facet lists by agent, and
``SiteViews`` (what every template gets as ``site``). Each kind's own views are in its module
(``render.kinds``).

Every string that comes from a card reaches a view as ``CardText`` (see ``env``): ``taint`` converts a whole
card before anything else looks at it, and text derived here from card text (a summary) is wrapped again. Paths
and anchors are built from slugs (``[a-z0-9-]``) and are plain ``str``.

Order, so two builds are byte-identical: agents by name, then identity key (as ``Catalog`` keeps them); skills in
card order; tags, media types, bindings and scopes sorted; rows in agent order, then skill order.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from a2a_docgen.model import card_order
from a2a_docgen.render.env import CardText
from a2a_docgen.render.paths import Addresses, site_map

if TYPE_CHECKING:
    from a2a_docgen.quality import Grade
    from a2a_docgen.render.changes import HistoryViews
    from a2a_docgen.render.kinds.agents import AgentPage, SkillView

__all__ = [
    "AgentSkills",
    "Memo",
    "SiteViews",
    "SkillRef",
    "by_agent",
    "card_order",
    "summary",
    "taint",
    "taint_into",
]

T = TypeVar("T")
V = TypeVar("V")

# Model fields whose values are our own vocabulary, not card text.
_OWN_FIELDS = frozenset({"kind", "era", "origin", "severity", "code"})

KIND_LABELS = {
    "apiKey": "API key",
    "http": "HTTP authentication",
    "oauth2": "OAuth 2.0",
    "openIdConnect": "OpenID Connect",
    "mutualTLS": "Mutual TLS",
    "unknown": "Not an A2A kind",
}
"""Our names of the kinds of security scheme: on the agent pages and the security pages (in this order)."""
SUMMARY_CHARS = 160


def taint(value: T) -> T:
    """A copy of ``value`` (a model object, or any JSON) with every card string as ``CardText``.

    An object reached twice (a card's default media types, shared by the skills that inherit them) is copied
    once and stays shared in the copy; equal strings share one ``CardText`` (fewer objects for the garbage
    collector to walk).
    """
    return cast(T, _taint(value, {}))


_SCALARS = (bool, int, float, type(None))
_TAINTED_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}
_new_object = object.__new__
_set_field = object.__setattr__  # what a frozen dataclass's own __init__ uses


def _tainted_fields(kind: type) -> tuple[tuple[str, bool], ...]:
    """(field name, holds card text) for every field of a model dataclass."""
    found = _TAINTED_FIELDS.get(kind)
    if found is None:
        found = tuple(
            (f.name, f.name not in _OWN_FIELDS and f.name != "raw") for f in dataclasses.fields(kind)
        )
        _TAINTED_FIELDS[kind] = found
    return found


def _taint(value: Any, memo: dict[object, Any]) -> Any:
    """``taint``. ``memo`` maps each string seen to its ``CardText`` and the id of each object already copied
    (all alive in the values being tainted) to its copy."""
    kind = type(value)
    if kind is str:
        text = memo.get(value)
        if text is None:
            text = memo[value] = CardText(value)
        return text
    if kind is CardText or kind in _SCALARS:
        return value
    done = memo.get(id(value))
    if done is not None:
        return done
    fields = _TAINTED_FIELDS.get(kind)
    copy: Any
    if fields is not None:  # a model dataclass seen before
        copy = _taint_fields(value, kind, fields, memo)
    elif kind is tuple:
        copy = tuple([_taint(v, memo) for v in value])
    elif kind is list:
        copy = [_taint(v, memo) for v in value]
    elif kind is dict or isinstance(value, Mapping):
        copy = {_taint(k, memo): _taint(v, memo) for k, v in value.items()}
    elif isinstance(value, str):
        return CardText(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        copy = _taint_fields(value, kind, _tainted_fields(kind), memo)
    else:
        return value
    memo[id(value)] = copy
    return copy


Memo = dict[object, Any]
"""``_taint``'s memo: one for a whole catalogue (media types, tags and scheme names repeat)."""
taint_into = _taint
"""``taint`` with the caller's memo (``taint_into(value, memo)``), shared across the values it taints."""


def _taint_fields(
    value: Any, kind: type, fields: tuple[tuple[str, bool], ...], memo: dict[object, Any]
) -> Any:
    """A dataclass copied field by field as its own ``__init__`` would, without the keyword handling."""
    copy: Any = _new_object(kind)
    for name, card in fields:
        field_value = getattr(value, name)
        if card:
            field_value = _taint(field_value, memo)
        _set_field(copy, name, field_value)
    return copy


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\u00c0-\uffff])")


def summary(text: str | None) -> CardText | None:
    """The first sentence of a description (of its first paragraph), cut to ``SUMMARY_CHARS`` (card text)."""
    if not text or not text.strip():
        return None
    first = " ".join(text.strip().split("\n\n", 1)[0].split())
    first = _SENTENCE_END.split(first, maxsplit=1)[0]
    if len(first) > SUMMARY_CHARS:
        first = first[: SUMMARY_CHARS - 1].rstrip() + "\u2026"
    return CardText(first)


@dataclass(frozen=True, slots=True)
class SkillRef:
    """A skill as other pages list it."""

    agent: AgentPage
    skill: SkillView
    summary: str | None


@dataclass(frozen=True, slots=True)
class AgentSkills:
    """The skills of one agent that a facet lists, on one line: a facet page links each agent once."""

    agent: AgentPage
    skills: tuple[SkillView, ...]
    card_default: int = 0
    """On a media-type page: how many skills take the type from the card's default (they declare no list of
    their own, so the agent page says it once for all of them); ``skills`` are those that declare it."""


def by_agent(refs: Sequence[SkillRef]) -> tuple[AgentSkills, ...]:
    """Consecutive skills of one agent as one ``AgentSkills`` (``refs`` in agent order)."""
    groups: list[AgentSkills] = []
    run: list[SkillView] = []
    for number, ref in enumerate(refs):
        run.append(ref.skill)
        if number + 1 == len(refs) or refs[number + 1].agent is not ref.agent:
            groups.append(AgentSkills(ref.agent, tuple(run)))
            run = []
    return tuple(groups)


@dataclass(frozen=True, slots=True)
class SiteViews:
    """Every view of the site: the agents', the history's, and each page kind's (``render.kinds``).

    A template reads a kind's views as members of ``site`` (``site.tags``, ``site.scopes``): the fields of
    every kind's views, which the registry keeps distinct; Python code asks ``view(TagViews)``."""

    agents: tuple[AgentPage, ...]
    kinds: tuple[object, ...] = ()
    """Each page kind's views (a dataclass per kind), in the registry's order."""
    history: HistoryViews | None = None
    """The catalogue's "What's new", ``None`` when the site has no history."""
    grades: Mapping[str, Grade] = dataclasses.field(default_factory=dict)
    """Every card's grade by file, as graded (not tainted): for the exports, so the cards are graded once."""
    addresses: Addresses = dataclasses.field(default_factory=lambda: site_map(()))
    """Every address of the site, worked out once (``paths.site_map``): what every output links to."""
    members: Mapping[str, object] = dataclasses.field(default_factory=dict)
    """The fields of every kind's views by name: what ``site.<name>`` reads in a template."""

    def view(self, kind: type[V]) -> V:
        """The views of one page kind, by their type."""
        return next(v for v in self.kinds if type(v) is kind)

    def __getattr__(self, name: str) -> object:
        if name.startswith("_") or name == "members":  # copy and pickle ask before the fields are set
            raise AttributeError(name)
        try:
            return self.members[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}") from None
