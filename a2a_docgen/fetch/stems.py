"""File names for fetched cards: one distinct, safe stem per URL, the same on every run.

``https://Agent.Example.com:8443/x`` is saved as ``agent.example.com-8443.json``; URLs on one host are told
apart by their path, and stems that would still collide (or be too long) get a hash of the URL.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import httpx

from a2a_docgen.fetch.urls import LEGACY_WELL_KNOWN_PATH, WELL_KNOWN_PATH
from a2a_docgen.text.slug import plain_slug

__all__ = ["assign_stems", "host_slug"]

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


def _path_suffix(url: httpx.URL) -> str:
    path = url.path
    for tail in (WELL_KNOWN_PATH, LEGACY_WELL_KNOWN_PATH, ".json"):
        path = path.removesuffix(tail)
    return plain_slug(path.replace("/", "-"), keep=".-")[:40].strip(".-")


def _with_hash(stem: str, url: httpx.URL) -> str:
    digest = hashlib.sha256(str(url).encode()).hexdigest()[:8]
    return f"{stem[: _MAX_STEM - 9].rstrip('.-')}-{digest}"
