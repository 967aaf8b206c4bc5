"""Check AI Catalog files (``ai-catalog.json``): the format's rules, then each A2A card held inline as a card.

Above ``load`` (the format, ``load.aicatalog``) and ``catalog`` (a card's rules). A catalogue is recognised by
its shape, whatever its name; its findings, and those of the cards in its ``data`` members, are located in
the catalogue file (``/entries/0/data/skills/1``). Entries given by ``url`` are not fetched here (``check``
reads files only; ``fetch`` follows them).
"""

from __future__ import annotations

from dataclasses import replace

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.limits import Limits
from a2a_docgen.load.aicatalog import (
    A2A_ENTRY_TYPES,
    CATALOG_MEDIA_TYPE,
    MAX_NESTING,
    catalog_findings,
    entries,
    is_catalog,
)
from a2a_docgen.load.report import Report, locate_all
from a2a_docgen.load.source import ParsedSource, SourceError, parse_bytes
from a2a_docgen.model import Diagnostic, JSONObject
from a2a_docgen.text.jsonio import json_document

__all__ = ["check_ai_catalog", "read_ai_catalog"]

_MARKERS = (b'"specVersion"', b'"entries"')


def read_ai_catalog(data: bytes, limits: Limits) -> ParsedSource | None:
    """The parsed file when it is an AI Catalog, else ``None`` (a card, or a file whose problems the card
    reader reports). Cheap for cards: only a file that names both members is parsed here."""
    if not all(marker in data for marker in _MARKERS):
        return None
    try:
        parsed = parse_bytes(data, limits)
    except SourceError:
        return None
    return parsed if is_catalog(parsed.value) else None


def check_ai_catalog(parsed: ParsedSource, display: str, limits: Limits) -> list[Diagnostic]:
    """Every finding of one catalogue file: its rules, nested inline catalogues (to ``MAX_NESTING`` levels)
    and the A2A cards inline, located in the file and sorted."""
    report = Report()
    for warning in parsed.warnings:
        report.add(warning.code, warning.pointer, warning.message)
    found: list[Diagnostic] = []
    _walk(parsed.value, "", 1, report, found, parsed, display, limits)
    located = locate_all(
        report.findings, display, lambda pointer, at_key=False: parsed.index.locate(pointer, at_key=at_key)
    )
    return sorted(located + found, key=Diagnostic.sort_key)


def _walk(
    catalog: JSONObject,
    base: str,
    depth: int,
    report: Report,
    found: list[Diagnostic],
    parsed: ParsedSource,
    display: str,
    limits: Limits,
) -> None:
    catalog_findings(catalog, report, base)
    for entry in entries(catalog):
        if not isinstance(entry.data, dict):
            continue
        pointer = base + entry.pointer + "/data"
        if entry.type == CATALOG_MEDIA_TYPE and depth < MAX_NESTING:
            _walk(entry.data, pointer, depth + 1, report, found, parsed, display, limits)
        elif entry.type in A2A_ENTRY_TYPES:
            found += _inline_card(entry.data, pointer, parsed, display, limits)


def _inline_card(
    card: JSONObject, pointer: str, parsed: ParsedSource, display: str, limits: Limits
) -> list[Diagnostic]:
    """The card's findings, moved from its own text to its place in the catalogue."""
    _, diagnostics = load_card_bytes(json_document(card).encode("utf-8"), display=display, limits=limits)
    moved = []
    for d in diagnostics:
        line, column = parsed.index.locate(pointer + d.pointer)
        moved.append(replace(d, line=line, column=column, pointer=pointer + d.pointer))
    return moved
