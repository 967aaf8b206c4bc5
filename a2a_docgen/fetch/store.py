"""Keep fetched cards in a directory: one file per agent, a sidecar with where it came from, no needless writes.

Each card is written as ``<stem>.json`` (pretty JSON) with ``<stem>.fetch.json`` beside it (URL, ETag,
Last-Modified, time of the fetch). A second run asks the server whether the card changed and leaves both files
untouched when it did not, so a directory under version control stays clean.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

import httpx

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.errors import FetchError, UsageError
from a2a_docgen.fetch.client import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_TIMEOUT,
    Options,
    fetch_with,
    new_client,
)
from a2a_docgen.fetch.errors import CardFetchError, CardWriteError, NotACard
from a2a_docgen.fetch.stems import assign_stems
from a2a_docgen.fetch.urls import check_url
from a2a_docgen.files import same_bytes, write_atomic
from a2a_docgen.limits import DEFAULT_LIMITS, Deadline, Limits
from a2a_docgen.load import SIDECAR_SUFFIX
from a2a_docgen.model import AgentCard, Diagnostic, JSONObject
from a2a_docgen.text.jsonio import json_document

__all__ = ["FetchOutcome", "Status", "fetch_to_directory", "format_card", "sidecar_path"]


def format_card(card: JSONObject) -> str:
    """The card as written to disk: indent 2, UTF-8 text, members in document order, final newline.

    Raises ``ValueError`` for a value with no JSON spelling (infinite numbers).
    """
    return json_document(card)


Status = Literal["written", "unchanged", "not-modified", "rejected", "failed"]


@dataclass(frozen=True, slots=True, kw_only=True)
class FetchOutcome:
    """What happened to one URL of ``fetch_to_directory``.

    ``written``: the card (and its sidecar) were written. ``unchanged``: the body was the same as the file
    already there, so nothing was rewritten. ``not-modified``: the server answered 304. ``rejected``: the
    card has errors and ``strict`` was set, so it was not written. ``failed``: see ``error``.
    """

    requested: str
    status: Status
    path: Path
    """The card file (written or not)."""
    url: str | None = None
    """The card's final URL, once known."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Validation findings for a fetched card; none for unchanged cards (they are not re-checked)."""
    error: FetchError | None = None

    @property
    def ok(self) -> bool:
        return self.status not in ("rejected", "failed")

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)


def sidecar_path(card_path: Path) -> Path:
    """``cards/host.json`` -> ``cards/host.fetch.json``."""
    return card_path.with_name(card_path.name.removesuffix(".json") + SIDECAR_SUFFIX)


def fetch_to_directory(
    urls: Sequence[str],
    out_dir: str | os.PathLike[str],
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_redirects: int = DEFAULT_MAX_REDIRECTS,
    strict: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    on_outcome: Callable[[FetchOutcome], object] | None = None,
    allow_private: bool = False,
    clock: Callable[[], float] = time.monotonic,
) -> list[FetchOutcome]:
    """Fetch each URL into ``out_dir/<slug>.json`` (plus a ``.fetch.json`` sidecar), one outcome per URL.

    Every URL is checked before anything is fetched (``UsageError``); after that one URL's failure, whatever
    it is (a refused address, a timeout, a full disk, memory running out), never stops the others. Each card
    is validated; an invalid card is still written unless ``strict``, and an answer that is not a card at all
    (JSON without a usable name: an error page, a metadata service's credentials) is never written. Files
    are replaced atomically and left untouched (mtime included) when the server answers 304 or sends the
    same card again, so a directory under version control stays clean. ``on_outcome`` is called with
    each outcome as soon as it is known. ``timeout`` covers a URL as a whole, fetching and checking: the
    checking stops once it has passed (measured on ``clock``), with a ``checking-stopped`` error.
    """
    options = Options.checked(headers, timeout, max_bytes, max_redirects, allow_private=allow_private)
    parsed: dict[str, tuple[str, httpx.URL]] = {}  # one fetch per distinct URL, kept as first written
    for given in urls:
        checked = check_url(given)
        parsed.setdefault(str(checked), (given.strip(), checked))
    unique = [given for given, _ in parsed.values()]
    stems = assign_stems([url for _, url in parsed.values()])
    directory = Path(out_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the output directory {directory}: {exc.strerror or exc}") from None
    outcomes: list[FetchOutcome] = []
    with new_client(timeout, allow_private=allow_private) as client:
        for given, stem in zip(unique, stems, strict=True):
            path = directory / f"{stem}.json"
            try:
                outcome = _fetch_one(client, given, path, options, strict, limits, clock)
            except Exception as exc:
                outcome = _unexpected(given, path, exc)
            outcomes.append(outcome)
            if on_outcome is not None:
                on_outcome(outcomes[-1])
    return outcomes


def _unexpected(url: str, path: Path, exc: Exception) -> FetchOutcome:
    """The outcome of a failure no rule foresaw (``MemoryError`` ...): reported, and the next URL fetched."""
    detail = str(exc).strip()
    reason = f"failed unexpectedly: {type(exc).__name__}" + (f": {detail}" if detail else "")
    return FetchOutcome(requested=url, status="failed", path=path, error=CardFetchError(url, reason))


def _fetch_one(
    client: httpx.Client,
    url: str,
    path: Path,
    options: Options,
    strict: bool,
    limits: Limits,
    clock: Callable[[], float],
) -> FetchOutcome:
    deadline = Deadline.after(options.timeout, clock)  # the network's share is bounded on its own (transport)
    meta_path = sidecar_path(path)
    previous = _read_sidecar(meta_path) if path.is_file() else None
    if previous is not None and previous.get("requested") == url:
        options = replace(
            options,
            etag=previous.get("etag"),
            last_modified=previous.get("last_modified"),
            cached_url=previous.get("url"),
        )
    try:
        result = fetch_with(client, url, options, limits)
    except FetchError as exc:
        return FetchOutcome(requested=url, status="failed", path=path, error=exc)
    if result.not_modified:
        return FetchOutcome(requested=url, status="not-modified", path=path, url=result.url)
    assert result.card is not None
    data = format_card(result.card).encode("utf-8")
    metadata = {
        "url": result.url,
        "requested": url,
        "etag": result.etag,
        "last_modified": result.last_modified,
    }
    try:
        if same_bytes(path, data):
            if previous is None or any(previous.get(k) != metadata[k] for k in ("url", "requested")):
                _write_sidecar(meta_path, metadata)
            return FetchOutcome(requested=url, status="unchanged", path=path, url=result.url)
        card, diagnostics = _validate(data, str(path), limits, deadline)
        if card is None:  # its text is not repeated: it may be anything, credentials included
            not_a_card = NotACard(
                result.url, "the answer is JSON but not an Agent Card (no usable name); nothing was written"
            )
            return FetchOutcome(requested=url, status="failed", path=path, url=result.url, error=not_a_card)
        if strict and any(d.severity == "error" for d in diagnostics):
            located_at_url = tuple(replace(d, file=result.url) for d in diagnostics)
            return FetchOutcome(
                requested=url, status="rejected", path=path, url=result.url, diagnostics=located_at_url
            )
        write_atomic(path, data)
        _write_sidecar(meta_path, metadata)
    except OSError as exc:
        error = CardWriteError(f"cannot write {path}: {exc.strerror or exc}")
        return FetchOutcome(requested=url, status="failed", path=path, url=result.url, error=error)
    return FetchOutcome(requested=url, status="written", path=path, url=result.url, diagnostics=diagnostics)


def _validate(
    data: bytes, display: str, limits: Limits, deadline: Deadline
) -> tuple[AgentCard | None, tuple[Diagnostic, ...]]:
    card, diagnostics = load_card_bytes(data, display=display, limits=limits, deadline=deadline)
    return card, tuple(sorted(diagnostics, key=Diagnostic.sort_key))


def _read_sidecar(path: Path) -> dict[str, str] | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(value, dict):
        return None
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def _write_sidecar(path: Path, metadata: Mapping[str, str | None]) -> None:
    fetched_at = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    write_atomic(path, json_document({**metadata, "fetched_at": fetched_at}).encode("utf-8"))
