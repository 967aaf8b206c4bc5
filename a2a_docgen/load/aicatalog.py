"""The AI Catalog format (``ai-catalog.json``): its names, how a document is recognised, and its rules.

The one home of the format's facts, read by ``fetch`` (following catalogues), ``check`` (validating them) and
whoever writes one. Sources and what is still a draft: ``../shared/spec/discovery.md`` (AI Catalog, the
``Agent-Card/ai-catalog`` draft; ARD v0.9, whose JSON Schema adds rules of its own).

- A catalogue is recognised by its media type or by its shape (``specVersion`` and ``entries``), never by
  its path.
- An entry's type is ``type``; catalogues written before the rename (May 2026) say ``mediaType``, read as a
  fallback. A writer emits both, with the same value (discovery.md 5.3).
- Each entry has an ``identifier``, a ``type`` and exactly one of ``url`` and ``data``; the pair
  (``identifier``, ``version``) is unique.
- Nested catalogues are entries of the catalogue type; readers cap the depth (``MAX_NESTING``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeGuard

from a2a_docgen.diagnostics import (
    CATALOG_ARD,
    CATALOG_DUPLICATE_ENTRY,
    CATALOG_INVALID,
    CATALOG_SPEC_VERSION,
    CATALOG_TYPE_ALIAS,
)
from a2a_docgen.load.reader import quote as _quote
from a2a_docgen.load.report import Report
from a2a_docgen.load.source import join_pointer, json_type
from a2a_docgen.model import JSONObject, JSONValue
from a2a_docgen.protocol import media_type_essence

__all__ = [
    "A2A_CARD_TYPE",
    "A2A_ENTRY_TYPES",
    "ARD_IDENTIFIER",
    "CATALOG_FILE",
    "CATALOG_MEDIA_TYPE",
    "MAX_NESTING",
    "SPEC_VERSION",
    "WELL_KNOWN_PATH",
    "Entry",
    "catalog_findings",
    "entries",
    "entry_type",
    "is_catalog",
    "supported_version",
]

CATALOG_MEDIA_TYPE = "application/ai-catalog+json"
"""The catalogue's media type, and the ``type`` of an entry that is a nested catalogue."""
A2A_CARD_TYPE = "application/a2a-agent-card+json"
"""The ``type`` of an entry that is an A2A Agent Card (not IANA-registered yet)."""
A2A_ENTRY_TYPES = frozenset({A2A_CARD_TYPE, "application/agent-card+json"})
"""Entry types read as A2A Agent Cards: the A2A type, and the generic Agent Card type the draft reserves (A2A's
is the only Agent Card format in use; what an entry holds is checked as a card anyway)."""
SPEC_VERSION = "1.0"
"""The version written, and the only one ARD's schema accepts."""
CATALOG_FILE = "ai-catalog.json"
"""The catalogue's file name, at the well-known path and wherever a site publishes one."""
WELL_KNOWN_PATH = f"/.well-known/{CATALOG_FILE}"
"""Where a host may serve its catalogue (optional: a catalogue may live at any URL)."""
MAX_NESTING = 4
"""How deep nested catalogues are followed (the draft recommends 4)."""
ARD_IDENTIFIER = re.compile(r"urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+")
"""An identifier ARD's JSON Schema accepts (``urn:air:{publisher-domain}:{namespace}:{name}``)."""

_SUPPORTED_MAJOR = 1
_VERSION = re.compile(r"(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})")
_ARD_ROOT = frozenset({"specVersion", "host", "entries"})
_ARD_HOST = frozenset({"displayName", "identifier", "documentationUrl", "logoUrl", "trustManifest"})
_ARD_QUERIES = (2, 5)
_ABSOLUTE_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]")
_DATE_TIME = re.compile(
    r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?"
    r"([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)"
)


def is_catalog(value: object, content_type: str | None = None) -> bool:
    """Whether a parsed document is an AI Catalog: served as one, or shaped as one (``specVersion`` and
    ``entries``, which no Agent Card has)."""
    if not isinstance(value, dict):
        return False
    if content_type is not None and media_type_essence(content_type) == CATALOG_MEDIA_TYPE:
        return True
    return "specVersion" in value and "entries" in value


def supported_version(value: JSONValue) -> bool:
    """Whether ``specVersion`` is a ``Major.Minor`` of a major version read here (any minor of 1)."""
    match = _VERSION.fullmatch(value) if isinstance(value, str) else None
    return match is not None and int(match.group(1)) == _SUPPORTED_MAJOR


def entry_type(entry: JSONObject) -> str | None:
    """An entry's type: ``type``, else the pre-rename ``mediaType``; ``None`` when neither is a string."""
    for name in ("type", "mediaType"):
        value = entry.get(name)
        if isinstance(value, str):
            return value
    return None


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a catalogue as a reader follows it."""

    pointer: str
    """Where it is in its catalogue (``/entries/3``)."""
    identifier: str | None
    name: str | None
    """``displayName``, when the entry gives one."""
    version: str | None
    type: str | None
    url: str | None
    data: JSONValue
    """The artifact inline (``None`` when the entry has a ``url``, or none of the two)."""
    has_data: bool


def entries(catalog: JSONObject) -> Iterator[Entry]:
    """The entries of a catalogue, in document order, whatever their shape (``catalog_findings`` says what is
    wrong with them); members of the wrong type read as absent."""
    listed = catalog.get("entries")
    if not isinstance(listed, list):
        return
    for index, entry in enumerate(listed):
        if not isinstance(entry, dict):
            continue
        yield Entry(
            pointer=join_pointer("/entries", index),
            identifier=_string(entry, "identifier"),
            name=_string(entry, "displayName"),
            version=_string(entry, "version"),
            type=entry_type(entry),
            url=_string(entry, "url"),
            data=entry.get("data"),
            has_data="data" in entry,
        )


def _string(obj: JSONObject, name: str) -> str | None:
    value = obj.get(name)
    return value if isinstance(value, str) else None


def catalog_findings(catalog: JSONObject, report: Report, base: str = "") -> None:
    """Report what is wrong with one catalogue (``base``: its pointer, for a catalogue inline in another).

    AI Catalog's rules are errors (``catalog-invalid``, ``catalog-spec-version``, ``catalog-duplicate-entry``);
    ``mediaType`` read as the type is a warning (``catalog-type-alias``); what ARD's JSON Schema adds is a
    warning (``catalog-ard``), since registries that crawl catalogues validate against it.
    """
    _root(catalog, report, base)
    listed = catalog.get("entries")
    if not isinstance(listed, list):
        return
    seen: dict[tuple[str, str | None], str] = {}
    for index, entry in enumerate(listed):
        pointer = join_pointer(base, "entries", index)
        if not isinstance(entry, dict):
            report.add(
                CATALOG_INVALID, pointer, f"an entry is {json_type(entry, article=True)}, not an object"
            )
            continue
        _entry(entry, pointer, report)
        identifier = entry.get("identifier")
        version = entry.get("version")
        if isinstance(identifier, str):
            key = (identifier, version if isinstance(version, str) else None)
            if key in seen:
                which = f"identifier {_quote(identifier)}" + (
                    f" and version {_quote(key[1])}" if key[1] is not None else " and no version"
                )
                report.add(
                    CATALOG_DUPLICATE_ENTRY,
                    pointer,
                    f"entry with {which} is listed twice (first at {seen[key]}); each (identifier, version) "
                    "must be unique: give each version of one agent its own version",
                )
            else:
                seen[key] = pointer


def _root(catalog: JSONObject, report: Report, base: str) -> None:
    version = catalog.get("specVersion")
    if "specVersion" not in catalog:
        report.add(CATALOG_SPEC_VERSION, base, f'the catalogue has no "specVersion"; write "{SPEC_VERSION}"')
    elif not supported_version(version):
        shown = _quote(version) if isinstance(version, str) else json_type(version, article=True)
        report.add(
            CATALOG_SPEC_VERSION,
            join_pointer(base, "specVersion"),
            f'"specVersion" is {shown}; this reads AI Catalog 1.x ("Major.Minor", such as "{SPEC_VERSION}")',
        )
    elif version != SPEC_VERSION:
        report.add(
            CATALOG_ARD,
            join_pointer(base, "specVersion"),
            f'ARD accepts only "specVersion": "{SPEC_VERSION}"',
        )
    if "entries" not in catalog:
        report.add(CATALOG_INVALID, base, 'the catalogue has no "entries" (an array, which may be empty)')
    elif not isinstance(catalog["entries"], list):
        report.add(
            CATALOG_INVALID,
            join_pointer(base, "entries"),
            f'"entries" is {json_type(catalog["entries"], article=True)}, not an array',
        )
    for name in catalog:
        if name not in _ARD_ROOT:
            report.add(
                CATALOG_ARD,
                join_pointer(base, name),
                f"ARD allows only specVersion, host and entries at the top level, not {_quote(name)}",
                at_key=True,
            )
    if "host" in catalog:
        _host(catalog["host"], join_pointer(base, "host"), report)


def _host(host: JSONValue, pointer: str, report: Report) -> None:
    if not isinstance(host, dict):
        report.add(CATALOG_INVALID, pointer, f'"host" is {json_type(host, article=True)}, not an object')
        return
    name = host.get("displayName")
    if not isinstance(name, str) or not name.strip():
        report.add(
            CATALOG_INVALID, join_pointer(pointer, "displayName"), 'the host needs a "displayName" (a string)'
        )
    for name in ("documentationUrl", "logoUrl"):
        _ard_uri(host, name, pointer, report)
    for member in host:
        if member not in _ARD_HOST:
            report.add(
                CATALOG_ARD,
                join_pointer(pointer, member),
                f"ARD allows only {', '.join(sorted(_ARD_HOST))} in host, not {_quote(member)}",
                at_key=True,
            )


def _entry(entry: JSONObject, pointer: str, report: Report) -> None:
    identifier = entry.get("identifier")
    if not isinstance(identifier, str) or not identifier.strip():
        report.add(
            CATALOG_INVALID,
            join_pointer(pointer, "identifier"),
            'the entry needs an "identifier" (a non-empty string; a URN or an absolute URI is recommended)',
        )
    elif not ARD_IDENTIFIER.fullmatch(identifier):
        report.add(
            CATALOG_ARD,
            join_pointer(pointer, "identifier"),
            f"ARD wants identifiers of the form urn:air:<publisher-domain>:<namespace>:<name>, not "
            f"{_quote(identifier)}",
        )
    _type(entry, pointer, report)
    has_url, has_data = "url" in entry, "data" in entry
    if has_url == has_data:
        report.add(
            CATALOG_INVALID,
            pointer,
            'the entry has both "url" and "data"; give exactly one'
            if has_url
            else 'the entry has neither "url" nor "data"; give exactly one',
        )
    if has_url and not isinstance(entry["url"], str):
        report.add(
            CATALOG_INVALID,
            join_pointer(pointer, "url"),
            f'"url" is {json_type(entry["url"], article=True)}, not a string',
        )
    if has_data and not isinstance(entry["data"], dict):
        report.add(
            CATALOG_ARD,
            join_pointer(pointer, "data"),
            f'ARD wants "data" to be an object, not {json_type(entry["data"], article=True)}',
        )
    if not isinstance(entry.get("displayName"), str):
        report.add(
            CATALOG_ARD,
            join_pointer(pointer, "displayName"),
            'ARD requires a "displayName" on every entry (AI Catalog lets an A2A entry omit it)',
        )
    for name in ("displayName", "description", "version", "updatedAt"):
        if name in entry and not isinstance(entry[name], str):
            report.add(
                CATALOG_INVALID,
                join_pointer(pointer, name),
                f"{_quote(name)} is {json_type(entry[name], article=True)}, not a string",
            )
    if has_url and isinstance(entry["url"], str):
        _ard_uri(entry, "url", pointer, report)
    queries = entry.get("representativeQueries")
    low, high = _ARD_QUERIES
    if queries is not None and (not _strings(queries) or not low <= len(queries) <= high):
        report.add(
            CATALOG_ARD,
            join_pointer(pointer, "representativeQueries"),
            f'ARD wants "representativeQueries" to be {low} to {high} strings',
        )
    for name in ("tags", "capabilities"):
        if name in entry and (not _strings(entry[name]) or not entry[name]):
            report.add(
                CATALOG_ARD,
                join_pointer(pointer, name),
                f"ARD wants {_quote(name)} to be a non-empty list of strings",
            )
    updated = entry.get("updatedAt")
    if isinstance(updated, str) and not _DATE_TIME.fullmatch(updated):
        report.add(
            CATALOG_ARD,
            join_pointer(pointer, "updatedAt"),
            f'ARD wants "updatedAt" to be an RFC 3339 date-time (such as 2026-09-01T12:00:00Z), not {_quote(updated)}',
        )
    metadata = entry.get("metadata")
    if "metadata" in entry and (
        not isinstance(metadata, dict) or any(isinstance(v, (dict, list)) for v in metadata.values())
    ):
        report.add(
            CATALOG_ARD,
            join_pointer(pointer, "metadata"),
            'ARD wants "metadata" to be an object of strings, numbers, booleans and nulls',
        )


def _strings(value: JSONValue) -> TypeGuard[list[JSONValue]]:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _ard_uri(owner: JSONObject, name: str, pointer: str, report: Report) -> None:
    """ARD's ``format: uri``: an absolute URI, with a scheme (a relative reference is not one)."""
    value = owner.get(name)
    if name in owner and not (isinstance(value, str) and _ABSOLUTE_URI.match(value)):
        shown = _quote(value) if isinstance(value, str) else json_type(value, article=True)
        report.add(
            CATALOG_ARD,
            join_pointer(pointer, name),
            f"ARD wants {_quote(name)} to be an absolute URI (such as https://example.com/card.json), not {shown}",
        )


def _type(entry: JSONObject, pointer: str, report: Report) -> None:
    kind, alias = entry.get("type"), entry.get("mediaType")
    if isinstance(kind, str) and kind.strip():
        if "mediaType" in entry and alias != kind:
            report.add(
                CATALOG_TYPE_ALIAS,
                join_pointer(pointer, "mediaType"),
                f'"mediaType" ({_quote(alias)}) differs from "type" ({_quote(kind)}); "type" is read: '
                "give both the same value, or drop mediaType",
            )
        return
    if "type" in entry:
        report.add(CATALOG_INVALID, join_pointer(pointer, "type"), '"type" must be a non-empty string')
    elif isinstance(alias, str) and alias.strip():
        report.add(
            CATALOG_TYPE_ALIAS,
            join_pointer(pointer, "mediaType"),
            f'the entry names its type only as "mediaType", the name before the May 2026 rename; add '
            f'"type": {_quote(alias)} (keep both while older readers remain)',
        )
    else:
        report.add(
            CATALOG_INVALID,
            join_pointer(pointer, "type"),
            f'the entry needs a "type" (such as "{A2A_CARD_TYPE}")',
        )
