"""Search entries for the catalogue, from the model (not from re-parsing our HTML).

One entry for each agent page and one for each skill section, titled ``Agent › Skill``, whose text is what a
reader searches for: the description, the tags and the words of the examples. The ready-to-send requests
and the tables of details are left out: they repeat the card's values and would crowd the results. Index
pages get an entry with their title; facet pages (a tag, a media type) none, since they only list skills.

Entries hold plain text (card text cleaned as for display, never Markdown or HTML): a site engine encodes
them for its own index.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from a2a_docgen.text.unicode import clean_text

__all__ = ["SEPARATOR", "SearchEntry", "agent_entries", "page_entry"]

SEPARATOR = " \u203a "
"""Between the parts of a title: ``Agent › Skill``."""

_TEXT_CHARS = 2000
"""At most this much text per entry: enough for every word a reader searches for in a description."""


@dataclass(frozen=True, slots=True)
class SearchEntry:
    """One result a site search can show."""

    anchor: str
    """The section's id on the page, or ``""`` for the page itself."""
    title: str
    text: str
    tags: tuple[str, ...] = ()


def _clean(text: str | None, max_len: int = _TEXT_CHARS) -> str:
    return clean_text(text, max_len=max_len) if text else ""


def _join(parts: Iterable[str]) -> str:
    return " ".join(part for part in parts if part)


def page_entry(title: str, text: str = "") -> tuple[SearchEntry, ...]:
    """The entry of a catalogue page of ours (home, tags, security ...): our own words."""
    return (SearchEntry("", title, text),)


def agent_entries(
    name: str | None,
    description: str | None,
    provider: str | None,
    skills: Iterable[tuple[str, str | None, str | None, tuple[str, ...], tuple[str, ...]]],
) -> tuple[SearchEntry, ...]:
    """The entries of one agent page: the agent, then each skill as (anchor, name, description, tags,
    example texts)."""
    agent = _clean(name, 200) or "Unnamed agent"
    entries = [SearchEntry("", agent, _join([_clean(description), _clean(provider, 200)]))]
    for anchor, skill_name, skill_description, tags, examples in skills:
        shown_tags = tuple(_clean(tag, 64) for tag in tags)
        text = _join([_clean(skill_description), " ".join(shown_tags), *(_clean(e, 300) for e in examples)])
        title = f"{agent}{SEPARATOR}{_clean(skill_name, 200) or 'Unnamed skill'}"
        entries.append(SearchEntry(anchor, title, text[:_TEXT_CHARS], shown_tags))
    return tuple(entries)
