"""Fetch cards into a directory: one file per agent, a sidecar with where it came from, no needless writes.

Each card is written as ``<stem>.json`` (pretty JSON) with ``<stem>.fetch.json`` beside it (``fetch.saving``).
A second run asks the server whether the card changed and leaves both files untouched when it did not, so a
directory under version control stays clean. A URL that answers with an AI Catalog has each A2A card it lists
fetched (``fetch.catalogues``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import httpx

from a2a_docgen.errors import FetchError, UsageError
from a2a_docgen.fetch.catalogues import DEFAULT_MAX_ENTRIES, Following, follow, keep_fetched
from a2a_docgen.fetch.client import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_TIMEOUT,
    Options,
    fetch_with,
    new_client,
)
from a2a_docgen.fetch.extended import Credential
from a2a_docgen.fetch.saving import (
    FetchOutcome,
    Provenance,
    Status,
    failed,
    format_card,
    revalidating,
    sidecar_path,
    unexpected,
)
from a2a_docgen.fetch.stems import Stems, assign_stems
from a2a_docgen.fetch.urls import check_url
from a2a_docgen.limits import DEFAULT_LIMITS, Deadline, Limits
from a2a_docgen.load.aicatalog import is_catalog

__all__ = ["FetchOutcome", "Status", "fetch_to_directory", "format_card", "sidecar_path"]


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
    max_entries: int = DEFAULT_MAX_ENTRIES,
    extended: Credential | None = None,
) -> list[FetchOutcome]:
    """Fetch each URL into ``out_dir/<slug>.json`` (plus a ``.fetch.json`` sidecar): one outcome per URL, and
    for a URL that answers with an AI Catalog, one for the catalogue and one per A2A entry it lists.

    Every URL is checked before anything is fetched (``UsageError``); after that one URL's (or entry's)
    failure, whatever it is (a refused address, a timeout, a full disk, memory running out), never stops the
    others. Each card is validated; an invalid card is still written unless ``strict``, and an answer that is
    not a card at all (JSON without a usable name: an error page, a metadata service's credentials) is never
    written. Files are replaced atomically and left untouched (mtime included) when the server answers 304 or
    sends the same card again, so a directory under version control stays clean. ``on_outcome`` is called
    with each outcome as soon as it is known. ``timeout`` covers a URL (or an entry) as a whole, fetching and
    checking: the checking stops once it has passed (measured on ``clock``), with a ``checking-stopped``
    error. ``max_entries`` bounds the catalogue entries read in all (``fetch.catalogues``). ``extended``: the
    credential to ask each agent that offers one for its extended card, kept instead of the public card and
    marked as extended in its sidecar (``fetch.extended``); without it no extended card is ever asked for.
    """
    options = Options.checked(headers, timeout, max_bytes, max_redirects, allow_private=allow_private)
    if max_entries < 1:
        raise UsageError("--max-entries must be positive")
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
        run = Following(
            client=client,
            options=options,
            directory=directory,
            stems=Stems(stems),
            strict=strict,
            limits=limits,
            max_entries=max_entries,
            credential=extended,
            clock=clock,
        )
        for given, stem in zip(unique, stems, strict=True):
            path = directory / f"{stem}.json"
            try:
                for outcome in _fetch_one(run, given, path):
                    outcomes.append(outcome)
                    if on_outcome is not None:
                        on_outcome(outcome)
            except Exception as exc:
                outcomes.append(unexpected(given, path, exc))
                if on_outcome is not None:
                    on_outcome(outcomes[-1])
    return outcomes


def _fetch_one(run: Following, url: str, path: Path) -> Iterator[FetchOutcome]:
    deadline = Deadline.after(run.options.timeout, run.clock)  # the network's share is bounded on its own
    options = revalidating(run.options, path, url, extended=run.credential is not None)
    try:
        result = fetch_with(run.client, url, options, run.limits)
    except FetchError as exc:
        yield failed(url, path, exc)
        return
    if result.not_modified:
        yield FetchOutcome(requested=url, status="not-modified", path=path, url=result.url)
        return
    assert result.card is not None
    if is_catalog(result.card, result.content_type):
        yield from follow(run, url, result)
        return
    provenance = Provenance(
        url=result.url, requested=url, etag=result.etag, last_modified=result.last_modified
    )
    yield keep_fetched(run, result.card, path, provenance, deadline)
