"""A fetched card kept in the output directory: its file, its sidecar, no needless writes.

Each card is written as ``<stem>.json`` (pretty JSON) with ``<stem>.fetch.json`` beside it (URL, ETag,
Last-Modified, time of the fetch, and for a card a catalogue listed, the catalogue and the entry). A card that
is the same as the file already there leaves both files untouched, so a directory under version control stays
clean. No credential is ever part of what is written: the sidecar records where a card came from, never how
it was asked for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.errors import FetchError
from a2a_docgen.fetch.client import Options
from a2a_docgen.fetch.errors import CardFetchError, CardWriteError, NotACard
from a2a_docgen.files import same_bytes, write_atomic
from a2a_docgen.limits import Deadline, Limits
from a2a_docgen.load import SIDECAR_SUFFIX
from a2a_docgen.model import AgentCard, Diagnostic, JSONObject
from a2a_docgen.text.jsonio import json_document

__all__ = [
    "FetchOutcome",
    "Provenance",
    "Status",
    "failed",
    "format_card",
    "keep_card",
    "read_sidecar",
    "revalidating",
    "sidecar_path",
    "unexpected",
]


def format_card(card: JSONObject) -> str:
    """The card as written to disk: indent 2, UTF-8 text, members in document order, final newline.

    Raises ``ValueError`` for a value with no JSON spelling (infinite numbers).
    """
    return json_document(card)


Status = Literal["written", "unchanged", "not-modified", "rejected", "failed", "catalogue"]


@dataclass(frozen=True, slots=True, kw_only=True)
class FetchOutcome:
    """What happened to one URL of ``fetch_to_directory``, or to one entry of a catalogue it found.

    ``written``: the card (and its sidecar) were written. ``unchanged``: the body was the same as the file
    already there, so nothing was rewritten. ``not-modified``: the server answered 304. ``rejected``: the
    card has errors and ``strict`` was set, so it was not written. ``failed``: see ``error``. ``catalogue``:
    an AI Catalog was found, whose entries follow as outcomes of their own (``note`` counts them).
    """

    requested: str
    status: Status
    path: Path
    """The card file (written or not); the output directory for a catalogue."""
    url: str | None = None
    """The card's final URL, once known."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Validation findings for a fetched card (or catalogue); none for unchanged cards (they are not
    re-checked)."""
    error: FetchError | None = None
    note: str = ""
    """For a catalogue: what its entries are."""
    extended: bool = False
    """The card kept is the agent's extended card (``fetch --extended``)."""

    @property
    def ok(self) -> bool:
        return self.status not in ("rejected", "failed")

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)


def failed(requested: str, path: Path, error: FetchError, url: str | None = None) -> FetchOutcome:
    return FetchOutcome(requested=requested, status="failed", path=path, url=url, error=error)


@dataclass(frozen=True, slots=True, kw_only=True)
class Provenance:
    """Where a card came from: what its sidecar records."""

    url: str
    """The card's final URL (for a card inline in a catalogue, the catalogue's)."""
    requested: str
    """What was asked for: the URL given, an entry's URL, or ``<catalogue URL>#<entry pointer>``."""
    etag: str | None = None
    last_modified: str | None = None
    catalog: str | None = None
    """The AI Catalog that listed the card."""
    entry: str | None = None
    """The JSON Pointer of the card's entry in ``catalog``."""
    extended: bool = False
    """The card is an agent's extended card, given only to authenticated clients (``fetch --extended``)."""

    def sidecar(self) -> dict[str, str | bool | None]:
        """The sidecar's members (without ``fetched_at``); the optional ones only when they are set, so the
        sidecar of a card fetched as before is as before."""
        record: dict[str, str | bool | None] = {
            "url": self.url,
            "requested": self.requested,
            "etag": self.etag,
            "last_modified": self.last_modified,
        }
        if self.catalog is not None:
            record["catalog"] = self.catalog
            record["entry"] = self.entry
        if self.extended:
            record["extended"] = True
        return record


_VALIDATORS = frozenset({"etag", "last_modified", "fetched_at"})
"""Sidecar members that may change without the card changing: they alone never rewrite a sidecar."""


def sidecar_path(card_path: Path) -> Path:
    """``cards/host.json`` -> ``cards/host.fetch.json``."""
    return card_path.with_name(card_path.name.removesuffix(".json") + SIDECAR_SUFFIX)


def keep_card(
    card: JSONObject,
    path: Path,
    provenance: Provenance,
    *,
    strict: bool,
    limits: Limits,
    deadline: Deadline,
) -> FetchOutcome:
    """Check ``card`` and write it to ``path`` with its sidecar, unless it is the file already there, has
    errors under ``strict``, or is not a card at all (never written, its text never repeated)."""
    url, requested = provenance.url, provenance.requested
    data = format_card(card).encode("utf-8")
    metadata = provenance.sidecar()
    meta_path = sidecar_path(path)
    try:
        if same_bytes(path, data):
            previous = read_sidecar(meta_path)
            if previous is None or _identity(previous) != _identity(metadata):
                _write_sidecar(meta_path, metadata)
            return FetchOutcome(
                requested=requested, status="unchanged", path=path, url=url, extended=provenance.extended
            )
        checked, diagnostics = _validate(data, str(path), limits, deadline)
        if checked is None:  # its text is not repeated: it may be anything, credentials included
            not_a_card = NotACard(
                url, "the answer is JSON but not an Agent Card (no usable name); nothing was written"
            )
            return failed(requested, path, not_a_card, url)
        if strict and any(d.severity == "error" for d in diagnostics):
            located_at_url = tuple(replace(d, file=url) for d in diagnostics)
            return FetchOutcome(
                requested=requested, status="rejected", path=path, url=url, diagnostics=located_at_url
            )
        write_atomic(path, data)
        _write_sidecar(meta_path, metadata)
    except OSError as exc:
        return failed(requested, path, CardWriteError(f"cannot write {path}: {exc.strerror or exc}"), url)
    return FetchOutcome(
        requested=requested,
        status="written",
        path=path,
        url=url,
        diagnostics=diagnostics,
        extended=provenance.extended,
    )


def revalidating(options: Options, path: Path, requested: str, *, extended: bool) -> Options:
    """``options`` with the validators of the card kept at ``path`` (a conditional request), when it was
    fetched from ``requested`` and as the same kind of card (public or extended): a 304 must never keep an
    extended card where a public one is asked for, nor the other way round."""
    previous = read_sidecar(sidecar_path(path)) if path.is_file() else None
    if previous is None or previous.get("requested") != requested or extended or previous.get("extended"):
        return options
    return replace(
        options,
        etag=_text(previous.get("etag")),
        last_modified=_text(previous.get("last_modified")),
        cached_url=_text(previous.get("url")),
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def unexpected(requested: str, path: Path, exc: Exception) -> FetchOutcome:
    """The outcome of a failure no rule foresaw (``MemoryError`` ...): reported, and the next URL fetched."""
    detail = str(exc).strip()
    reason = f"failed unexpectedly: {type(exc).__name__}" + (f": {detail}" if detail else "")
    return failed(requested, path, CardFetchError(requested, reason))


def _identity(record: Mapping[str, object]) -> dict[str, object]:
    return {k: v for k, v in record.items() if k not in _VALIDATORS and v is not None}


def _validate(
    data: bytes, display: str, limits: Limits, deadline: Deadline
) -> tuple[AgentCard | None, tuple[Diagnostic, ...]]:
    card, diagnostics = load_card_bytes(data, display=display, limits=limits, deadline=deadline)
    return card, tuple(sorted(diagnostics, key=Diagnostic.sort_key))


def read_sidecar(path: Path) -> dict[str, str | bool] | None:
    """A sidecar's string and boolean members, ``None`` when there is none or it is not one."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, (str, bool))}


def _write_sidecar(path: Path, metadata: Mapping[str, str | bool | None]) -> None:
    fetched_at = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    write_atomic(path, json_document({**metadata, "fetched_at": fetched_at}).encode("utf-8"))
