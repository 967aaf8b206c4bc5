"""What the history learnt of each card version and each step, kept from one build to the next.

Two tables, both keyed by git blob ids (a blob id names its bytes, so an entry never goes stale):

- ``versions``: blob id -> the version's name, preferred interface URL and card version, or ``None`` when it
  does not load as a card: what the walk pairs agents by (with the file it is in), without reading or parsing
  the blob again;
- ``findings``: (old blob, old display path, new blob, new display path) -> the differ's findings.

A ``Store`` lives for the process (``mkdocs serve`` rebuilds) and, when given a file, on disk: a JSON document
stamped with a fingerprint of this package's code and the limits, so an upgrade or a changed limit starts it
afresh. The file holds what the latest build used (it does not grow with old history), is written atomically,
and is safe to delete; a file that cannot be read or written is ignored. A cached entry is what the walk would
compute again, so the cache never changes a page.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from a2a_docgen.files import write_atomic
from a2a_docgen.history.entries import HistoryFinding
from a2a_docgen.limits import Limits
from a2a_docgen.model import AgentCard
from a2a_docgen.review.match import identity

__all__ = [
    "CACHE_ENV",
    "FORMAT",
    "FindingsKey",
    "Store",
    "VersionFacts",
    "cache_file",
    "code_fingerprint",
    "facts_from_json",
    "facts_json",
    "finding_from_json",
    "finding_json",
    "write_cache_file",
]

FORMAT = 2
CACHE_ENV = "A2A_DOCGEN_HISTORY_CACHE"
"""A directory for the cache file, or ``off`` for none (default: ``.cache/a2a-docgen/`` in the repository)."""
FILE_NAME = "history.cache"
"""Not ``.json``: a catalogue read from the repository's top never takes it for a card."""

FindingsKey = tuple[str, str, str, str]


@dataclass(frozen=True, slots=True)
class VersionFacts:
    """What the walk needs of a version that loads, without its model: what its bytes say, wherever they are
    (the file's path is the walk's)."""

    name: str | None
    url: str | None
    """The preferred interface URL as agents are paired by it (``review.match.Identity``)."""
    version: str | None

    @classmethod
    def of(cls, card: AgentCard) -> VersionFacts:
        return cls(card.name, identity(card).url, card.version)


@dataclass
class Store:
    versions: dict[str, VersionFacts | None] = field(default_factory=dict)
    findings: dict[FindingsKey, tuple[HistoryFinding, ...]] = field(default_factory=dict)
    used_versions: set[str] = field(default_factory=set)
    used_findings: set[FindingsKey] = field(default_factory=set)
    """What this build asked for: what the file keeps."""
    dirty: bool = False
    """Something was added since the file was read."""

    def version(self, oid: str) -> VersionFacts | None:
        """The facts of a blob the store knows (``oid in store.versions``), ``None`` when it does not load."""
        self.used_versions.add(oid)
        return self.versions[oid]

    def add_version(self, oid: str, facts: VersionFacts | None) -> None:
        self.versions[oid] = facts
        self.used_versions.add(oid)
        self.dirty = True

    def finding(self, key: FindingsKey) -> tuple[HistoryFinding, ...] | None:
        found = self.findings.get(key)
        if found is not None:
            self.used_findings.add(key)
        return found

    def add_findings(self, key: FindingsKey, found: tuple[HistoryFinding, ...]) -> None:
        self.findings[key] = found
        self.used_findings.add(key)
        self.dirty = True

    def stale(self) -> bool:
        """Whether the file should be written again: something was added, or something it holds went unused."""
        return (
            self.dirty
            or len(self.used_versions) != len(self.versions)
            or len(self.used_findings) != len(self.findings)
        )

    def start_build(self) -> None:
        self.used_versions.clear()
        self.used_findings.clear()

    def trim(self, most: int) -> None:
        """Keep only what the latest build used when the tables hold more than ``most`` entries."""
        if len(self.findings) + len(self.versions) > most:
            self.versions = {k: self.versions[k] for k in self.used_versions if k in self.versions}
            self.findings = {k: self.findings[k] for k in self.used_findings if k in self.findings}

    def read(self, path: Path, stamp: str) -> None:
        """Add the entries of the file at ``path`` when it has ``stamp``; anything else leaves the store as it is."""
        try:
            document = json.loads(path.read_bytes())
            if not isinstance(document, dict) or document.get("stamp") != stamp:
                return
            versions = {oid: facts_from_json(value) for oid, value in document["versions"].items()}
            findings = {
                _key(key): tuple(finding_from_json(row) for row in rows)
                for key, rows in document["findings"].items()
            }
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return
        for oid, facts in versions.items():
            self.versions.setdefault(oid, facts)
        for key, found in findings.items():
            self.findings.setdefault(key, found)

    def write(self, path: Path, stamp: str) -> None:
        """Write what the latest build used to ``path`` (atomically); quietly nothing when it cannot."""
        document: dict[str, Any] = {
            "stamp": stamp,
            "versions": {
                oid: facts_json(self.versions[oid])
                for oid in sorted(self.used_versions)
                if oid in self.versions
            },
            "findings": {
                "\x1f".join(key): [finding_json(f) for f in self.findings[key]]
                for key in sorted(self.used_findings)
                if key in self.findings
            },
        }
        write_cache_file(path, document)
        self.dirty = False


def write_cache_file(path: Path, document: dict[str, Any]) -> None:
    """A cache file (this store's, or the snapshot's beside it) written atomically as compact JSON, its directory
    made; quietly nothing when it cannot be."""
    data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data)


def facts_from_json(value: object) -> VersionFacts | None:
    """``facts_json`` read back; ``ValueError`` for anything else."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError("a version's facts are three values")
    name, url, version = value
    return VersionFacts(_text(name), _text(url), _text(version))


def finding_json(finding: HistoryFinding) -> list[str | None]:
    """A finding as the cache files hold it (this store's and the snapshot's, ``history.snapshot``)."""
    return [finding.severity, finding.code, finding.skill, finding.message]


def finding_from_json(row: object) -> HistoryFinding:
    """``finding_json`` read back; ``ValueError`` for anything else."""
    if not isinstance(row, list) or len(row) != 4:
        raise ValueError("a finding is four values")
    severity, code, skill, message = row
    if not isinstance(severity, str) or not isinstance(code, str) or not isinstance(message, str):
        raise ValueError("a finding's severity, code and message are strings")
    return HistoryFinding(severity, code, _text(skill), message)


def _text(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError("expected a string")
    return value


def facts_json(facts: VersionFacts | None) -> list[str | None] | None:
    """A version's facts as the cache files hold them (``None``: it does not load)."""
    if facts is None:
        return None
    return [facts.name, facts.url, facts.version]


def _key(text: str) -> FindingsKey:
    parts = text.split("\x1f")
    if len(parts) != 4:
        raise ValueError("a findings key has four parts")
    return parts[0], parts[1], parts[2], parts[3]


def cache_file(top: str) -> Path | None:
    """The cache file for the repository at ``top``, ``None`` when the cache is off."""
    setting = os.environ.get(CACHE_ENV, "")
    if setting.strip().lower() == "off":
        return None
    directory = Path(setting) if setting.strip() else Path(top, ".cache", "a2a-docgen")
    return directory / FILE_NAME


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A digest of this package's Python code: a cache written by other code is not read."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for module in sorted(package.rglob("*.py")):
        with contextlib.suppress(OSError):
            digest.update(module.relative_to(package).as_posix().encode() + b"\0" + module.read_bytes())
    return digest.hexdigest()[:32]


def stamp_for(limits: Limits) -> str:
    """The stamp a cache file must carry to be read: the code and the limits that made it."""
    return f"{code_fingerprint()}:{limits!r}"
