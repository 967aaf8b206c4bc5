"""Check an Atom feed against the rules of RFC 4287 a feed reader relies on (section 4.1 and 3.3)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

ATOM = "{http://www.w3.org/2005/Atom}"
_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})\Z")


def _iri(value: str) -> bool:
    """An absolute IRI (a scheme and something after it), as atom:id requires (4.2.6)."""
    parts = urlsplit(value)
    return bool(parts.scheme) and bool(parts.netloc or parts.path) and " " not in value


def _one(parent: ET.Element, name: str, where: str, problems: list[str]) -> ET.Element | None:
    found = parent.findall(ATOM + name)
    if len(found) != 1:
        problems.append(f"{where}: {len(found)} atom:{name} elements, expected exactly one")
        return None
    return found[0]


def _text_construct(element: ET.Element | None, where: str, problems: list[str]) -> None:
    if element is None:
        return
    kind = element.get("type", "text")
    if kind not in ("text", "html", "xhtml"):
        problems.append(f"{where}: type {kind!r} is not text, html or xhtml")
    if kind != "xhtml" and len(element):
        problems.append(f"{where}: a {kind} construct holds child elements")


def _date(element: ET.Element | None, where: str, problems: list[str]) -> None:
    if element is not None and not _RFC3339.match(element.text or ""):
        problems.append(f"{where}: {element.text!r} is not an RFC 3339 date")


def atom_problems(data: bytes) -> list[str]:
    """What is wrong with the feed (``[]`` for a valid one)."""
    problems: list[str] = []
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        return [f"not well-formed XML: {exc}"]
    if root.tag != ATOM + "feed":
        return [f"the root is {root.tag}, not atom:feed"]
    feed_id = _one(root, "id", "feed", problems)
    if feed_id is not None and not _iri(feed_id.text or ""):
        problems.append(f"feed: id {feed_id.text!r} is not an absolute IRI")
    _text_construct(_one(root, "title", "feed", problems), "feed title", problems)
    _date(_one(root, "updated", "feed", problems), "feed updated", problems)
    feed_authors = root.findall(ATOM + "author")
    for author in feed_authors:
        _one(author, "name", "feed author", problems)
    links = root.findall(ATOM + "link")
    if not any(link.get("rel") == "self" for link in links):
        problems.append("feed: no atom:link rel=self (RFC 4287 4.1.1: SHOULD)")
    for link in links:
        if not link.get("href"):
            problems.append("feed: a link without href")
    seen_alternates = {
        (link.get("type"), link.get("hreflang")) for link in links if link.get("rel") == "alternate"
    }
    if len(seen_alternates) != len([link for link in links if link.get("rel") == "alternate"]):
        problems.append("feed: two alternate links with the same type and hreflang")
    ids: set[str] = set()
    for number, entry in enumerate(root.findall(ATOM + "entry"), start=1):
        where = f"entry {number}"
        entry_id = _one(entry, "id", where, problems)
        if entry_id is not None:
            if not _iri(entry_id.text or ""):
                problems.append(f"{where}: id {entry_id.text!r} is not an absolute IRI")
            if entry_id.text in ids:
                problems.append(f"{where}: id {entry_id.text!r} repeats")
            ids.add(entry_id.text or "")
        _text_construct(_one(entry, "title", where, problems), f"{where} title", problems)
        _date(_one(entry, "updated", where, problems), f"{where} updated", problems)
        if not feed_authors and not entry.findall(ATOM + "author"):
            problems.append(f"{where}: no author, and the feed has none")
        content = entry.findall(ATOM + "content")
        alternates = [
            link for link in entry.findall(ATOM + "link") if link.get("rel", "alternate") == "alternate"
        ]
        if not content and not alternates:
            problems.append(f"{where}: neither content nor an alternate link")
        for element in content:
            _text_construct(element, f"{where} content", problems)
    return problems


def entries(data: bytes) -> list[dict[str, str]]:
    """Each entry's id, title, updated, content (text) and first alternate link."""
    root = ET.fromstring(data)
    result = []
    for entry in root.findall(ATOM + "entry"):
        link = next(
            (x.get("href", "") for x in entry.findall(ATOM + "link") if x.get("rel") == "alternate"), ""
        )
        result.append(
            {
                "id": entry.findtext(ATOM + "id", ""),
                "title": entry.findtext(ATOM + "title", ""),
                "updated": entry.findtext(ATOM + "updated", ""),
                "content": entry.findtext(ATOM + "content", ""),
                "link": link,
                "category": next((x.get("term", "") for x in entry.findall(ATOM + "category")), ""),
            }
        )
    return result
