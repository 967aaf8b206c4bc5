"""What the history learnt of each card version and each step, kept from one build to the next.

Two tables, both keyed by git blob ids (a blob id names its bytes, so an entry never goes stale):

- ``versions``: blob id -> the version's name, preferred interface URL and card version, or ``None`` when it
  does not load as a card: what the walk pairs agents by (with the file it is in), without reading or parsing
  the blob again;
- ``findings``: (old blob, old display path, new blob, new display path) -> the differ's findings.

A ``Store`` lives for the process (``mkdocs serve`` rebuilds) and, when given a file, on disk
(``history.cache_files``: where, and never through a link): a JSON document stamped with a fingerprint of this
package's code and the limits, so an upgrade or a changed limit starts it afresh. The file holds what the latest
build used (it does not grow with old history), is written atomically, and is safe to delete. Every value read
is checked (blob ids are 40 or 64 lowercase hex digits, texts are bounded strings, a finding's severity and code
are the differ's); a file with anything else is no cache at all. A cached entry is what the walk would compute
again, so the cache never changes a page.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from a2a_docgen.history.cache_files import read_cache_file, write_cache_file
from a2a_docgen.history.entries import HistoryFinding
from a2a_docgen.limits import Limits
from a2a_docgen.model import AgentCard
from a2a_docgen.review.codes import CODES, SEVERITIES
from a2a_docgen.review.match import identity

__all__ = [
    "FORMAT",
    "MAX_TEXT",
    "FindingsKey",
    "Store",
    "VersionFacts",
    "code_fingerprint",
    "facts_from_json",
    "facts_json",
    "finding_from_json",
    "finding_json",
    "object_id",
    "optional_text",
    "text",
]

FORMAT = 2
FILE_NAME = "history.cache"
"""Not ``.json``: a catalogue read from the repository's top never takes it for a card."""

MAX_TEXT = 1 << 20
"""Characters a text read from a cache file may have (a card file is at most ``max_file_bytes``, 1 MiB)."""

FindingsKey = tuple[str, str, str, str]
_OBJECT_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


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
        """Add the entries of the file at ``path`` when it has ``stamp`` and every value is one a build writes;
        anything else leaves the store as it is."""
        data = read_cache_file(path)
        if data is None:
            return
        try:
            document = json.loads(data)
            if not isinstance(document, dict) or document.get("stamp") != stamp:
                return
            versions = {object_id(oid): facts_from_json(value) for oid, value in document["versions"].items()}
            findings = {
                _key(key): tuple(finding_from_json(row) for row in rows)
                for key, rows in document["findings"].items()
            }
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
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


def facts_from_json(value: object) -> VersionFacts | None:
    """``facts_json`` read back; ``ValueError`` for anything else."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError("a version's facts are three values")
    name, url, version = value
    return VersionFacts(optional_text(name), optional_text(url), optional_text(version))


def finding_json(finding: HistoryFinding) -> list[str | None]:
    """A finding as the cache files hold it (this store's and the snapshot's, ``history.snapshot``)."""
    return [finding.severity, finding.code, finding.skill, finding.message]


def finding_from_json(row: object) -> HistoryFinding:
    """``finding_json`` read back; ``ValueError`` for anything else."""
    if not isinstance(row, list) or len(row) != 4:
        raise ValueError("a finding is four values")
    severity, code, skill, message = row
    if severity not in SEVERITIES or code not in CODES:
        raise ValueError("a finding's severity and code are the differ's")
    return HistoryFinding(severity, code, optional_text(skill), text(message))


def text(value: object) -> str:
    """A text read from a cache file: a string of at most ``MAX_TEXT`` characters; ``ValueError`` for anything
    else."""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ValueError("expected a string")
    return value


def optional_text(value: object) -> str | None:
    """``text``, or ``None``."""
    return None if value is None else text(value)


def object_id(value: object) -> str:
    """A git object id read from a cache file: 40 or 64 lowercase hex digits; ``ValueError`` for anything else."""
    if not isinstance(value, str) or _OBJECT_ID.fullmatch(value) is None:
        raise ValueError("not an object id")
    return value


def facts_json(facts: VersionFacts | None) -> list[str | None] | None:
    """A version's facts as the cache files hold them (``None``: it does not load)."""
    if facts is None:
        return None
    return [facts.name, facts.url, facts.version]


def _key(key: str) -> FindingsKey:
    parts = text(key).split("\x1f")
    if len(parts) != 4:
        raise ValueError("a findings key has four parts")
    return object_id(parts[0]), parts[1], object_id(parts[2]), parts[3]


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
