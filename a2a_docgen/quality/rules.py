"""The discoverability rules of the grade: what makes a valid card easy to find, understand and call.

Each rule is a function ``(card, report) -> None`` that adds ``hint`` findings; ``QUALITY_RULES`` lists them.
They never fail ``check`` (the spec requires none of this); the grade counts them with the weights of
``a2a_docgen.quality.grade``, and docs/grading.md explains each with its fix. Like the spec rules, they read
the normalised model, and the raw JSON only to name the member the card really uses.
"""

from __future__ import annotations

import difflib
import ipaddress
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import urlsplit

from a2a_docgen.diagnostics import (
    INTERFACE_LOCAL,
    LEGACY_CARD_PATH,
    NO_DOCUMENTATION_URL,
    NO_ICON,
    NO_PROVIDER,
    RESERVED_HOST,
    SKILL_DESCRIPTION_DUPLICATE,
    SKILL_DESCRIPTION_THIN,
    SKILL_FEW_TAGS,
    SKILL_NO_EXAMPLES,
)
from a2a_docgen.load.reader import quote, snake_case
from a2a_docgen.load.report import Report
from a2a_docgen.load.source import join_pointer, resolve_pointer
from a2a_docgen.model import AgentCard, AgentInterface, AgentSkill
from a2a_docgen.text.urls import is_local_host
from a2a_docgen.validate.rules import ICON_URL, JKU_URL, url_members

__all__ = [
    "MIN_DESCRIPTION_LETTERS",
    "MIN_TAGS",
    "NEAR_DUPLICATE_RATIO",
    "QUALITY_RULES",
    "QualityRule",
    "local_host",
    "reserved_host",
]

QualityRule = Callable[[AgentCard, Report], None]

MIN_DESCRIPTION_LETTERS = 30
"""A skill description with fewer letters and digits is thin (a CJK or Hangul character counts as two: those
scripts say in one character what Latin letters say in two or three)."""
MIN_TAGS = 2
NEAR_DUPLICATE_RATIO = 0.9
"""Two skill descriptions this similar (``difflib`` ratio of their words) are near-duplicates."""
_PAIRS_IN_COMMON = 0.5
_MAX_PAIRWISE = 100
"""Each skill is compared with the first this many skills of its card (a bound on the work per card)."""
_EDGE_WORDS = 32
"""A near-duplicate is judged on a description's first and last this many words (a bound on the work per pair)."""
_MAX_SEQUENCE_MATCHES = 200
"""At most this many pairs of a card are compared by ``difflib`` (a bound on the work per card)."""


def _member(card: AgentCard, base: str, name: str) -> str:
    """Pointer of member ``name`` (or its snake_case alias) of the object at ``base``."""
    obj = resolve_pointer(card.source.raw, base)
    if isinstance(obj, dict) and name not in obj and snake_case(name) in obj:
        return join_pointer(base, snake_case(name))
    return join_pointer(base, name)


def _absent(card: AgentCard, name: str) -> bool:
    """The card does not write the member at all (a wrong type or an empty value is a check finding)."""
    raw = card.source.raw
    return name not in raw and snake_case(name) not in raw


def _label(skill: AgentSkill, index: int) -> str:
    if skill.id and skill.id.strip():
        return quote(skill.id)
    if skill.name and skill.name.strip():
        return quote(skill.name)
    return f"#{index + 1}"


# -- skills -------------------------------------------------------------------------------------------------------


def skill_examples(card: AgentCard, report: Report) -> None:
    """A skill without examples leaves readers, and agents that choose skills, guessing how to call it."""
    for index, skill in enumerate(card.skills):
        if not skill.examples:
            report.add(
                SKILL_NO_EXAMPLES,
                skill.pointer,
                f'skill {_label(skill, index)} has no examples; add one to three "examples": requests a user '
                "would really send (a JSON document when the skill takes one), so readers see how to call it",
            )


_WORD = re.compile(r"\w+")
_NOT_WORD = re.compile(r"\W+")
_WIDE = re.compile("[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]")
"""Hangul, CJK ideographs, kana and their compatibility forms."""


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _bare(text: str) -> str:
    """Only the letters and digits of ``text``, case-folded."""
    return _NOT_WORD.sub("", text).casefold()


def skill_descriptions(card: AgentCard, report: Report) -> None:
    """A description of a few words, or one that repeats the name, tells nothing the name does not."""
    for index, skill in enumerate(card.skills):
        description = (skill.description or "").strip()
        if not description:
            continue  # required-missing or required-empty already said so
        bare = _bare(description)
        letters = len(bare) + (0 if description.isascii() else len(_WIDE.findall(description)))
        repeats = any(
            other and len(other) + 8 >= len(description) and _bare(other) == bare
            for other in (skill.name, skill.id)
        )
        if not repeats and letters >= MIN_DESCRIPTION_LETTERS:
            continue
        why = "repeats the skill's name" if repeats else "is a few words"
        report.add(
            SKILL_DESCRIPTION_THIN,
            _member(card, skill.pointer, "description"),
            f"the description of skill {_label(skill, index)} {why}; say in a sentence or two what the skill does, "
            "what it needs and what it returns",
        )


def duplicate_descriptions(card: AgentCard, report: Report) -> None:
    """Skills whose descriptions are (nearly) the same cannot be told apart by a reader or a client.

    The cost is linear in the card's text whatever its shape: equal descriptions are found by hashing, and a
    near-duplicate is judged on each description's first and last ``_EDGE_WORDS`` words, against at most
    ``_MAX_PAIRWISE`` earlier skills, with at most ``_MAX_SEQUENCE_MATCHES`` ``difflib`` comparisons a card."""
    exact: dict[tuple[str, ...], int] = {}
    earlier: list[_Description] = []
    budget = _Budget(_MAX_SEQUENCE_MATCHES)
    for index, skill in enumerate(card.skills):
        words = tuple(_words(skill.description or ""))
        if len(words) < 3:
            continue  # thin, not duplicate
        this = _description(index, words)
        twin = exact.get(words)
        if twin is None:
            twin = next((d.skill for d in earlier if _similar(this, d, budget)), None)
        if twin is not None:
            report.add(
                SKILL_DESCRIPTION_DUPLICATE,
                _member(card, skill.pointer, "description"),
                f"the description of skill {_label(skill, index)} is (nearly) the same as that of skill "
                f"{_label(card.skills[twin], twin)}; say what sets each skill apart",
            )
        exact.setdefault(words, index)
        if len(earlier) < _MAX_PAIRWISE:
            earlier.append(this)


@dataclass(slots=True)
class _Budget:
    """How many more ``difflib`` comparisons one card may cost."""

    left: int


class _Description(NamedTuple):
    skill: int
    """The index of the skill."""
    length: int
    """Words in the whole description."""
    words: tuple[str, ...]
    """At most ``2 * _EDGE_WORDS`` of them: the first and the last."""
    pairs: frozenset[tuple[str, str]]


def _description(index: int, words: tuple[str, ...]) -> _Description:
    edges = _edges(words)
    return _Description(index, len(words), edges, frozenset(itertools.pairwise(edges)))


def _edges(words: tuple[str, ...]) -> tuple[str, ...]:
    """The first and last ``_EDGE_WORDS`` words: what a near-duplicate is judged on, a bounded amount of text."""
    if len(words) <= 2 * _EDGE_WORDS:
        return words
    return words[:_EDGE_WORDS] + words[-_EDGE_WORDS:]


def _similar(a: _Description, b: _Description, budget: _Budget) -> bool:
    """The same words in (nearly) the same order: a ``difflib`` ratio of ``NEAR_DUPLICATE_RATIO`` or more.

    Cheap tests come first: the lengths bound the ratio, and texts that (nearly) agree word for word share
    most of their pairs of neighbouring words (at least half, by the Dice coefficient). Once the card's budget
    of ``difflib`` comparisons is spent, no further pair is judged near (equal texts still are)."""
    if 2 * min(a.length, b.length) < NEAR_DUPLICATE_RATIO * (a.length + b.length):
        return False
    if 2 * len(a.pairs & b.pairs) < _PAIRS_IN_COMMON * (len(a.pairs) + len(b.pairs)):
        return False
    if budget.left <= 0:
        return False
    budget.left -= 1
    return difflib.SequenceMatcher(None, a.words, b.words, autojunk=False).ratio() >= NEAR_DUPLICATE_RATIO


def skill_tags(card: AgentCard, report: Report) -> None:
    """One tag groups a skill with few others on the tag pages and in search; no tag is an error of check."""
    for index, skill in enumerate(card.skills):
        if 0 < len(skill.tags) < MIN_TAGS:
            report.add(
                SKILL_FEW_TAGS,
                _member(card, skill.pointer, "tags"),
                f"skill {_label(skill, index)} has a single tag; add two or three more keywords a reader would "
                "search for (tag pages and catalogue search group skills by them)",
            )


# -- the card -------------------------------------------------------------------------------------------------------


def card_members(card: AgentCard, report: Report) -> None:
    """Who runs the agent, where its documentation is, and an icon to recognise it by."""
    if card.provider is None and _absent(card, "provider"):
        report.add(
            NO_PROVIDER,
            "",
            # Words, not a JSON snippet with a URL in it: pages show a hint as text, where a URL becomes code.
            'the card names no provider; add a "provider" object with the "organization" that runs the agent and '
            'its web site as "url", so readers know who runs the agent',
        )
    if card.documentation_url is None and _absent(card, "documentationUrl"):
        report.add(
            NO_DOCUMENTATION_URL,
            "",
            'the card links to no documentation; add "documentationUrl" with the page that explains the agent '
            "(what it does, limits, terms, contact)",
        )
    if card.icon_url is None and _absent(card, "iconUrl"):
        report.add(
            NO_ICON,
            "",
            'the card has no icon; add "iconUrl" with a square PNG or SVG so the agent is recognised in '
            "catalogues and clients",
        )


_HOST_PORT = re.compile(r"^\[?(?P<host>[^\[\]/@]+?)\]?:\d{1,5}$")


def _host(url: str, schemes: tuple[str, ...] | None = None) -> str | None:
    """The host of ``url`` (``scheme://host/...``, or a gRPC ``host:port``), in lower case without a final dot;
    None when there is none, or when ``schemes`` is given and the URL's scheme is not one of them."""
    value = url.strip()
    match = _HOST_PORT.match(value)
    if match is not None and "://" not in value:
        host = match.group("host")
    else:
        try:
            parts = urlsplit(value)
        except ValueError:
            return None
        if schemes is not None and parts.scheme.lower() not in schemes:
            return None
        host = parts.hostname or ""
    return host.lower().rstrip(".") or None


def local_host(url: str) -> str | None:
    """The host of an interface URL (``https://host/...`` or ``host:port``) when it is local: ``localhost``,
    a loopback, private or link-local address, ``0.0.0.0``, a ``.local`` or ``.internal`` name; else None."""
    host = _host(url, ("http", "https"))
    if host is None:
        return None
    if is_local_host(host) or host.endswith((".local", ".internal", ".lan")):
        return host
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    return host if address.is_private or address.is_link_local or address.is_unspecified else None


def _interface_url(card: AgentCard, interface: AgentInterface) -> str:
    """Pointer of an interface's URL (the card's ``url`` for the v0.3 main interface)."""
    return "/url" if interface.pointer == "/url" else _member(card, interface.pointer, "url")


def interfaces_reachable(card: AgentCard, report: Report) -> None:
    """An interface on a local address: only clients on the same machine or network can reach it."""
    for interface in card.interfaces:
        host = local_host(interface.url) if interface.url else None
        if host is None:
            continue
        report.add(
            INTERFACE_LOCAL,
            _interface_url(card, interface),
            f"the interface {quote(interface.url)} is a local address ({host}); only clients on the same machine "
            "or network can reach it: publish the card with the URL clients will use",
        )


_RESERVED_DOMAINS = ("example.com", "example.net", "example.org")
"""Second-level names reserved for documentation (RFC 2606, section 3), with all their subdomains."""
_RESERVED_TLDS = ("example", "invalid", "test", "localhost")
"""Top-level names reserved by RFC 2606 (section 2) and RFC 6761 (section 6): never delegated in the DNS."""
_RESERVED_SHOWN = 3
"""The reserved-host finding quotes this many URLs (then says how many more)."""


def reserved_host(url: str) -> str | None:
    """The host of ``url`` when it is a reserved name that never resolves to the agent: ``example.com``,
    ``example.net``, ``example.org`` or a subdomain, or a name under ``.example``, ``.invalid``, ``.test`` or
    ``.localhost`` (``localhost`` itself too); else None."""
    host = _host(url)
    if host is None:
        return None
    labels = host.rsplit(".", 2)
    if labels[-1] in _RESERVED_TLDS or ".".join(labels[-2:]) in _RESERVED_DOMAINS:
        return host
    return None


def reserved_hosts(card: AgentCard, report: Report) -> None:
    """Interfaces, the provider, documentation and OAuth/OpenID URLs on a reserved example name: the card
    points clients at a host that can never serve it (copied from an example, or a test card published).

    One finding per card, at the first such URL, naming the first few. The icon and a signature's ``jku`` are
    left out: they are no place a client is sent to (a broken icon shows as such; the key is its own finding).
    An interface already reported as ``interface-local`` (``localhost``) is not reported again."""
    found: list[tuple[str, str]] = []
    for interface in card.interfaces:
        if interface.url and local_host(interface.url) is None and reserved_host(interface.url) is not None:
            found.append((_interface_url(card, interface), interface.url))
    for pointer, value, what, _ in url_members(card):
        if what not in (ICON_URL, JKU_URL) and reserved_host(value) is not None:
            found.append((pointer, value))
    if not found:
        return
    shown = ", ".join(quote(url) for _, url in found[:_RESERVED_SHOWN])
    if len(found) > _RESERVED_SHOWN:
        shown += f" and {len(found) - _RESERVED_SHOWN} more"
    which = "a URL is on a host" if len(found) == 1 else f"{len(found)} URLs are on hosts"
    serve = "serves" if len(found) == 1 else "serve"
    report.add(
        RESERVED_HOST,
        found[0][0],
        # The URLs last: a page shortens a long hint, and the fix must survive that.
        f"{which} reserved for examples and tests, which never {serve} an agent: publish the card with the URLs "
        f"clients will use; {shown}",
    )


_LEGACY_PATH = "/.well-known/agent.json"


def card_location(card: AgentCard, report: Report) -> None:
    """``fetch`` fell back to the legacy path: clients of v0.3 and v1.0 look at ``agent-card.json`` only."""
    fetched = card.source.fetched
    if fetched is None:
        return
    try:
        final, requested = urlsplit(fetched.url).path, urlsplit(fetched.requested).path
    except ValueError:
        return
    if final.endswith(_LEGACY_PATH) and not requested.endswith(".json"):
        report.add(
            LEGACY_CARD_PATH,
            "",
            f"fetch found this card only at the legacy path {quote(fetched.url)}, as "
            "/.well-known/agent-card.json was not there; v0.3 and v1.0 clients look only at that one: serve the "
            "card at /.well-known/agent-card.json",
        )


QUALITY_RULES: tuple[QualityRule, ...] = (
    card_members,
    interfaces_reachable,
    reserved_hosts,
    card_location,
    skill_examples,
    skill_descriptions,
    duplicate_descriptions,
    skill_tags,
)
