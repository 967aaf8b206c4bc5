"""Following an AI Catalog: every A2A card it lists, inline or by URL, into the output directory.

An entry's ``url`` is fetched with the same client and rules as a URL given on the command line (addresses,
redirects, size, time), as it is (no well-known path below it), never from ``https`` down to ``http``, and the
user's headers go only to the origin the user named. Nested catalogues are followed to ``MAX_NESTING`` levels; a
catalogue met again on its own path is a loop, one met on another path is not read twice. At most
``max_entries`` entries are read in all. Each entry's failure is an outcome of its own: the others go on.
Entries of other types (MCP servers, skills ...) are counted and skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import httpx

from a2a_docgen.fetch.client import FetchResult, Options, fetch_with
from a2a_docgen.fetch.errors import CardFetchError, show
from a2a_docgen.fetch.extended import Credential, fetch_extended
from a2a_docgen.fetch.saving import (
    FetchOutcome,
    Provenance,
    failed,
    keep_card,
    revalidating,
    unexpected,
)
from a2a_docgen.fetch.stems import Stems, entry_stem
from a2a_docgen.limits import Deadline, Limits
from a2a_docgen.load.aicatalog import (
    A2A_ENTRY_TYPES,
    CATALOG_MEDIA_TYPE,
    MAX_NESTING,
    Entry,
    catalog_findings,
    entries,
    is_catalog,
    supported_version,
)
from a2a_docgen.load.report import Report, locate_all
from a2a_docgen.load.source import PositionIndex
from a2a_docgen.model import JSONObject

__all__ = ["DEFAULT_MAX_ENTRIES", "Following", "follow", "keep_fetched"]

DEFAULT_MAX_ENTRIES = 200


@dataclass(slots=True, kw_only=True)
class Following:
    """What following the catalogues of one run shares: how to fetch, where to write, what was seen."""

    client: httpx.Client
    options: Options
    """The run's options (no conditional request: each entry has its own)."""
    directory: Path
    stems: Stems
    strict: bool
    limits: Limits
    max_entries: int = DEFAULT_MAX_ENTRIES
    credential: Credential | None = None
    """Set for ``--extended``: each card that offers an extended card is asked for it with this."""
    clock: Callable[[], float] = time.monotonic
    read: int = 0
    """Entries read so far, in all catalogues of the run."""
    visited: set[str] = field(default_factory=set)
    """The catalogues read, by final URL."""


@dataclass(frozen=True, slots=True)
class _Catalogue:
    given: str
    """The URL the user gave."""
    url: str
    """Where the catalogue was read from."""
    base: str
    """Its pointer in the document at ``url`` (``""``, or ``/entries/2/data`` for one inline)."""
    depth: int
    chain: tuple[str, ...]
    """The catalogue URLs from the user's to this one."""


def follow(run: Following, given: str, result: FetchResult) -> Iterator[FetchOutcome]:
    """The outcomes of the catalogue ``result`` (fetched for the URL ``given``): one for the catalogue, then one
    per A2A entry and nested catalogue, in document order."""
    assert result.card is not None
    run.visited.add(result.url)
    index = PositionIndex.build(result.text) if result.text else None
    yield from _catalogue(run, _Catalogue(given, result.url, "", 1, (result.url,)), result.card, index)


def _catalogue(
    run: Following, at: _Catalogue, catalog: JSONObject, index: PositionIndex | None
) -> Iterator[FetchOutcome]:
    where = at.url + (f"#{at.base}" if at.base else "")
    if not supported_version(catalog.get("specVersion")):
        shown = show(repr(catalog.get("specVersion")), 40)
        reason = f"an AI Catalog of specVersion {shown}; this reads 1.x: none of its entries was followed"
        yield failed(at.given, run.directory, CardFetchError(where, reason), at.url)
        return
    report = Report()
    catalog_findings(catalog, report, at.base)
    locate = index.locate if index is not None else lambda pointer, at_key=False: (1, 1)
    diagnostics = tuple(locate_all(report.findings, at.url, locate))
    listed = list(entries(catalog))
    yield FetchOutcome(
        requested=at.given,
        status="catalogue",
        path=run.directory,
        url=where,
        diagnostics=diagnostics,
        note=_note(listed),
    )
    for entry in listed:
        run.read += 1
        if run.read > run.max_entries:
            reason = (
                f"more than {run.max_entries} catalogue entries in all (--max-entries): {entry.pointer} and the "
                "entries after it were not followed"
            )
            yield failed(at.given, run.directory, CardFetchError(where, reason), at.url)
            return
        entry_at = f"{at.url}#{at.base}{entry.pointer}"
        try:
            if entry.type == CATALOG_MEDIA_TYPE:
                yield from _nested(run, at, entry, index)
            elif entry.type in A2A_ENTRY_TYPES:
                yield _card(run, at, entry)
        except Exception as exc:
            yield unexpected(entry_at, run.directory, exc)
        if run.read > run.max_entries:
            return


def _note(listed: list[Entry]) -> str:
    cards = sum(e.type in A2A_ENTRY_TYPES for e in listed)
    nested = sum(e.type == CATALOG_MEDIA_TYPE for e in listed)
    skipped = len(listed) - cards - nested
    parts = [f"{cards} A2A {'card' if cards == 1 else 'cards'}"]
    if nested:
        parts.append(f"{nested} nested {'catalogue' if nested == 1 else 'catalogues'}")
    if skipped:
        parts.append(f"{skipped} skipped (other types)")
    return f"{len(listed)} {'entry' if len(listed) == 1 else 'entries'}: " + ", ".join(parts)


def _nested(
    run: Following, at: _Catalogue, entry: Entry, index: PositionIndex | None
) -> Iterator[FetchOutcome]:
    entry_at = f"{at.url}#{at.base}{entry.pointer}"
    if at.depth >= MAX_NESTING:
        reason = f"a catalogue nested more than {MAX_NESTING} levels deep is not followed"
        yield failed(at.given, run.directory, CardFetchError(entry_at, reason))
        return
    if entry.has_data:
        if not isinstance(entry.data, dict):
            yield failed(
                at.given, run.directory, CardFetchError(entry_at, "the nested catalogue is not an object")
            )
            return
        inner = replace(at, base=f"{at.base}{entry.pointer}/data", depth=at.depth + 1)
        yield from _catalogue(run, inner, entry.data, index)
        return
    try:
        target = _entry_url(at.url, entry)
    except CardFetchError as exc:
        yield failed(at.given, run.directory, exc)
        return
    if target in at.chain:
        loop = " -> ".join(show(u, 120) for u in (*at.chain[at.chain.index(target) :], target))
        yield failed(
            at.given, run.directory, CardFetchError(entry_at, f"catalogue loop: {loop}; not followed")
        )
        return
    if target in run.visited:
        return  # listed by another catalogue too: its entries were read there
    run.visited.add(target)
    try:
        result = fetch_with(run.client, target, _options(run, at.given), run.limits)
    except CardFetchError as exc:
        yield failed(at.given, run.directory, exc, target)
        return
    if result.card is None or not is_catalog(result.card, result.content_type):
        reason = "the entry's type is an AI Catalog, but the URL serves something else; not followed"
        yield failed(at.given, run.directory, CardFetchError(result.url, reason), result.url)
        return
    run.visited.add(result.url)
    inner = _Catalogue(at.given, result.url, "", at.depth + 1, (*at.chain, result.url))
    yield from _catalogue(run, inner, result.card, PositionIndex.build(result.text) if result.text else None)


def _card(run: Following, at: _Catalogue, entry: Entry) -> FetchOutcome:
    entry_at = f"{at.url}#{at.base}{entry.pointer}"
    stem = run.stems.claim(entry_stem(entry.identifier, entry.name, entry.version), entry_at)
    path = run.directory / f"{stem}.json"
    deadline = Deadline.after(run.options.timeout, run.clock)
    if entry.has_data == (entry.url is not None):
        both = "both a url and data" if entry.has_data else "neither a url nor data"
        return failed(entry_at, path, CardFetchError(entry_at, f"the entry has {both}; not followed"))
    if entry.has_data:
        if not isinstance(entry.data, dict):
            return failed(
                entry_at, path, CardFetchError(entry_at, "the entry's data is not an object, so not a card")
            )
        inline = Provenance(url=at.url, requested=entry_at, catalog=at.url, entry=at.base + entry.pointer)
        return keep_fetched(run, entry.data, path, inline, deadline)
    try:
        target = _entry_url(at.url, entry)
    except CardFetchError as exc:
        return failed(entry_at, path, exc)
    options = revalidating(_options(run, at.given), path, target, extended=run.credential is not None)
    try:
        result = fetch_with(run.client, target, options, run.limits)
    except CardFetchError as exc:
        return failed(target, path, exc)
    if result.not_modified:
        return FetchOutcome(requested=target, status="not-modified", path=path, url=result.url)
    assert result.card is not None
    if is_catalog(result.card, result.content_type):
        reason = "the entry's type is an A2A Agent Card, but the URL serves an AI Catalog; not followed"
        return failed(target, path, CardFetchError(result.url, reason), result.url)
    provenance = Provenance(
        url=result.url,
        requested=target,
        etag=result.etag,
        last_modified=result.last_modified,
        catalog=at.url,
        entry=at.base + entry.pointer,
    )
    return keep_fetched(run, result.card, path, provenance, deadline)


def keep_fetched(
    run: Following, card: JSONObject, path: Path, provenance: Provenance, deadline: Deadline
) -> FetchOutcome:
    """Keep a fetched public card, or with ``run.credential`` the extended card it offers instead (marked)."""
    if run.credential is not None:
        try:
            extended = fetch_extended(
                run.client, card, provenance.url, run.credential, run.options, run.limits
            )
        except CardFetchError as exc:
            return failed(provenance.requested, path, exc, provenance.url)
        if extended is not None and extended.card is not None:
            card = extended.card
            provenance = replace(provenance, url=extended.url, etag=None, last_modified=None, extended=True)
    return keep_card(card, path, provenance, strict=run.strict, limits=run.limits, deadline=deadline)


def _options(run: Following, given: str) -> Options:
    named = httpx.URL(given.strip())
    return replace(run.options, exact=True, secrets_origin=(named.scheme, named.host, named.port))


def _entry_url(catalogue_url: str, entry: Entry) -> str:
    """An entry's ``url``, resolved against its catalogue's; raises ``CardFetchError`` for one not followed."""
    entry_at = f"{catalogue_url}#{entry.pointer}"
    written = entry.url or ""
    base = httpx.URL(catalogue_url)
    try:
        target = base.join(written.strip())
    except (httpx.InvalidURL, ValueError):
        raise CardFetchError(entry_at, f"the entry's url is not a valid URL: {show(written, 120)}") from None
    if target.scheme not in ("http", "https") or not target.host:
        raise CardFetchError(entry_at, f"the entry's url is not an http(s) URL: {show(written, 120)}")
    if target.userinfo:
        raise CardFetchError(entry_at, "the entry's url holds a user name or password; not followed")
    if base.scheme == "https" and target.scheme == "http":
        raise CardFetchError(
            entry_at,
            f"refused the entry's http URL in an https catalogue ({show(target, 120)}): it would drop encryption",
        )
    return str(target.copy_with(fragment=None))
