"""File names for fetched cards: one distinct, safe stem per URL, the same on every run.

``https://Agent.Example.com:8443/x`` is saved as ``agent.example.com-8443.json``; URLs on one host are told
apart by their path, and stems that would still collide (or be too long) get a hash of the URL. A card listed
in an AI Catalog is named after its entry (``urn:air:example.org:a2a:travel`` version ``2.0`` ->
``example.org-a2a-travel-2.0``), with a hash of where it was listed when that name is taken.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import httpx

from a2a_docgen.fetch.urls import LEGACY_WELL_KNOWN_PATH, WELL_KNOWN_PATH
from a2a_docgen.text.slug import plain_slug

__all__ = ["Stems", "assign_stems", "entry_stem", "host_slug"]

_MAX_STEM = 120


def host_slug(url: httpx.URL) -> str:
    """``https://Agent.Example.com:8443/x`` -> ``agent.example.com-8443`` (IDNs in their ASCII form)."""
    host = url.raw_host.decode("ascii", "replace")
    return plain_slug(host + (f"-{url.port}" if url.port is not None else ""), keep=".-") or "agent"


def assign_stems(urls: Sequence[httpx.URL]) -> list[str]:
    """A distinct, safe file stem per URL: the host slug, plus a path suffix where hosts are shared.

    Deterministic and independent of order. A stem never contains ``/`` and never starts with ``.``.
    """
    hosts = [host_slug(u) for u in urls]
    stems = list(hosts)
    for i, url in enumerate(urls):
        if hosts.count(hosts[i]) > 1:
            suffix = _path_suffix(url)
            stems[i] = f"{hosts[i]}-{suffix}" if suffix else hosts[i]
        if stems[i].endswith(".fetch"):  # "x.fetch.json" would be the sidecar of "x.json"
            stems[i] = stems[i][: -len(".fetch")] + "-fetch"
    shared = {stem for stem in stems if stems.count(stem) > 1}
    return [
        _with_hash(stem, url) if stem in shared or len(stem) > _MAX_STEM else stem
        for stem, url in zip(stems, urls, strict=True)
    ]


_URN_PREFIXES = ("urn:air:", "urn:ai:", "https://", "http://")
_MAX_ENTRY_TEXT = 200
"""Characters of an identifier read for a stem (an identifier may be megabytes long)."""


def entry_stem(identifier: str | None, name: str | None, version: str | None) -> str:
    """The stem of a catalogue entry's card, from its identifier (else its display name) and version."""
    text = (identifier or "").strip()[:_MAX_ENTRY_TEXT] or (name or "").strip()[:_MAX_ENTRY_TEXT]
    lowered = text.lower()
    for prefix in _URN_PREFIXES:
        if lowered.startswith(prefix):
            text = text[len(prefix) :]
            break
    stem = plain_slug(text, keep=".-")[:80].strip(".-") or "agent"
    if version:
        suffix = plain_slug(version[:40], keep=".-")
        stem = f"{stem}-{suffix}" if suffix else stem
    return stem


class Stems:
    """The stems taken in one run: a stem asked for twice gets a hash of its key the second time."""

    def __init__(self, taken: Sequence[str] = ()) -> None:
        self._taken = set(taken)

    def claim(self, stem: str, key: str) -> str:
        """``stem``, made safe and distinct from every stem claimed before (``key`` says where it is from)."""
        if stem.endswith(".fetch"):
            stem = stem[: -len(".fetch")] + "-fetch"
        if stem in self._taken or len(stem) > _MAX_STEM or stem.startswith("."):
            stem = _with_hash(stem.lstrip("."), key)
        self._taken.add(stem)
        return stem


def _path_suffix(url: httpx.URL) -> str:
    path = url.path
    for tail in (WELL_KNOWN_PATH, LEGACY_WELL_KNOWN_PATH, ".json"):
        path = path.removesuffix(tail)
    return plain_slug(path.replace("/", "-"), keep=".-")[:40].strip(".-")


def _with_hash(stem: str, key: httpx.URL | str) -> str:
    digest = hashlib.sha256(str(key).encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{stem[: _MAX_STEM - 9].rstrip('.-')}-{digest}"
