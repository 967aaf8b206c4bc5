"""Read cards: find card files, read each strictly and normalise it, with its findings.

Validation is not done here: ``a2a_docgen.catalog`` (above both ``load`` and ``validate``) reads with these
functions, validates, and locates every finding. One bad file never stops the others: each file's problems
become diagnostics.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from a2a_docgen.diagnostics import FILE_TOO_LARGE, NOT_A_CARD, SYMLINK_OUTSIDE, UNREADABLE, Code, diagnostic
from a2a_docgen.errors import UsageError
from a2a_docgen.limits import DEFAULT_LIMITS, Limits
from a2a_docgen.load.memo import SkillMemo
from a2a_docgen.load.normalize import detect_era, normalize
from a2a_docgen.load.report import Report, locate_all
from a2a_docgen.load.source import ParsedSource, SourceError, line_col, parse_bytes
from a2a_docgen.model import AgentCard, CardSource, Diagnostic, FetchRecord, card_key, card_keys
from a2a_docgen.text.unicode import strip_invisible

__all__ = [
    "SIDECAR_SUFFIX",
    "SKIPPED_DIRS",
    "CardFile",
    "ReadCard",
    "SkillMemo",
    "detect_era",
    "discover",
    "file_too_large",
    "read_card_bytes",
    "read_card_file",
    "read_fetch_record",
]

SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", "site"}
)
"""Directories never scanned (``.well-known`` is scanned: it is where cards live)."""

SIDECAR_SUFFIX = ".fetch.json"
"""Metadata written by ``a2a-docgen fetch`` beside each card; not a card."""


@dataclass(frozen=True, slots=True)
class CardFile:
    """A file to read: its display path, the argument it was found under, and its path below that."""

    path: Path
    display: str
    root: str
    relpath: str
    problem: str | None = None
    """Set when the file must not be read (a link leading out of the scanned tree)."""
    problem_code: Code = SYMLINK_OUTSIDE
    """The diagnostic code of ``problem``."""
    position: int = 0
    """Which of the paths given ``root`` is."""
    key: str = ""
    """Its identity key (``CardSource.key``), set by ``discover``."""


def discover(paths: Sequence[str | os.PathLike[str]], *, base: str | None = None) -> list[CardFile]:
    """Every card file under ``paths``, in a deterministic order (arguments in order, then by path).

    Relative paths are read from ``base`` (the working directory by default) and shown as given, so a site
    built from cards configured as ``cards/`` never shows where the project lies on the build machine.
    Raises ``UsageError`` for a path that does not exist.
    """
    found: list[tuple[int, CardFile]] = []
    seen: set[str] = set()
    for position, argument in enumerate(paths):
        root = Path(base, argument) if base is not None else Path(argument)
        if not root.exists():
            raise UsageError(f"{os.fspath(argument)}: no such file or directory")
        files = (
            list(_walk(root, os.fspath(argument)))
            if root.is_dir()
            else [_checked(CardFile(root, os.fspath(argument), os.fspath(argument), root.name))]
        )
        for card_file in files:
            key = os.path.realpath(card_file.path)
            if key not in seen:
                seen.add(key)
                found.append((position, card_file))
    keys = card_keys([(position, card_file.relpath) for position, card_file in found])
    return [
        replace(card_file, position=position, key=key)
        for (position, card_file), key in zip(found, keys, strict=True)
    ]


def _walk(root: Path, argument: str) -> Iterator[CardFile]:
    real_root = os.path.realpath(root)
    entries: list[tuple[str, Path]] = []
    for directory, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        for dirname in list(dirnames):
            if os.path.islink(os.path.join(directory, dirname)):
                target = os.path.realpath(os.path.join(directory, dirname))
                if target == real_root or target.startswith(real_root + os.sep):
                    continue  # inside the tree: its files are found through their real path
                rel = Path(directory, dirname).relative_to(root).as_posix()
                entries.append((rel, Path(directory, dirname)))
        for filename in filenames:
            if filename.endswith(".json") and not filename.endswith(SIDECAR_SUFFIX):
                path = Path(directory, filename)
                entries.append((path.relative_to(root).as_posix(), path))
    for rel, path in sorted(entries):
        display = os.path.join(argument, *rel.split("/"))
        problem = None
        if path.is_symlink():
            target = os.path.realpath(path)
            if not (target == real_root or target.startswith(real_root + os.sep)):
                # Neither the target nor the directory is named: they are paths of the build machine
                # (/proc/self/cwd, a home directory, the directory as typed), and this message is published
                # on the Excluded cards page.
                problem = "is a symbolic link to a file outside the scanned directory; it is not read"
            elif path.is_dir():
                continue
        yield _checked(CardFile(path, display, argument, rel, problem))


def _checked(card_file: CardFile) -> CardFile:
    """``card_file``, with a problem when it is not a regular file (a FIFO would block a read forever)."""
    if card_file.problem is not None:
        return card_file
    try:
        mode = card_file.path.stat().st_mode
    except OSError:
        return card_file  # reading reports why
    if stat.S_ISREG(mode):
        return card_file
    return CardFile(
        card_file.path,
        card_file.display,
        card_file.root,
        card_file.relpath,
        f"is {_kind(mode)}, not a regular file; it is not read",
        UNREADABLE,
    )


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "a special file"


def read_card_file(card_file: CardFile, limits: Limits) -> bytes | Diagnostic:
    """The bytes of one file, or the diagnostic that says why it is not read (never raises for the file)."""
    if card_file.problem is not None:
        return diagnostic(card_file.problem_code, card_file.problem, file=card_file.display)
    try:
        # O_NONBLOCK: a file swapped for a FIFO after discovery cannot block the open; fstat tells.
        fd = os.open(card_file.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as handle:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                problem = f"is {_kind(status.st_mode)}, not a regular file; it is not read"
                return diagnostic(UNREADABLE, problem, file=card_file.display)
            if status.st_size > limits.max_file_bytes:
                return file_too_large(card_file.display, status.st_size, limits)
            data = handle.read(limits.max_file_bytes + 1)
    except OSError as exc:
        return diagnostic(UNREADABLE, f"cannot read the file: {exc.strerror or exc}", file=card_file.display)
    if len(data) > limits.max_file_bytes:  # grew after stat
        return file_too_large(card_file.display, len(data), limits)
    return data


_MAX_SIDECAR_BYTES = 64 * 1024


def read_fetch_record(card_path: Path) -> FetchRecord | None:
    """The sidecar ``fetch`` wrote beside a card file (``host.json`` -> ``host.fetch.json``), or ``None`` when
    there is none or it is not one. Never raises."""
    sidecar = card_path.with_name(card_path.name.removesuffix(".json") + SIDECAR_SUFFIX)
    try:
        with sidecar.open("rb") as handle:
            data = handle.read(_MAX_SIDECAR_BYTES + 1)
        value = json.loads(data) if len(data) <= _MAX_SIDECAR_BYTES else None
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    url, requested = value.get("url"), value.get("requested")
    if not isinstance(url, str) or not isinstance(requested, str):
        return None
    return FetchRecord(url=url, requested=requested, extended=value.get("extended") is True)


@dataclass(slots=True)
class ReadCard:
    """One card read and normalised; its findings are not located yet (the validator adds its own first)."""

    card: AgentCard
    report: Report
    parsed: ParsedSource
    display: str

    def finish(self) -> tuple[AgentCard | None, list[Diagnostic]]:
        """The card (``None`` when it has no name to document it by) and every finding, located."""
        why = self.unnamed()
        card: AgentCard | None = self.card if why is None else None
        if why is not None:
            self.report.add(NOT_A_CARD, "/name", why)
        index = self.parsed
        diagnostics = locate_all(
            self.report.findings,
            self.display,
            lambda pointer, at_key=False: index.index.locate(pointer, at_key=at_key),
        )
        return card, diagnostics

    def unnamed(self) -> str | None:
        """Why the card has no name to document it by, ``None`` when it has one: without the findings, which
        locating costs a scan of the text (the change history needs only this)."""
        if not self.card.name or not self.card.name.strip():
            return "without a name this file cannot be documented as an agent; it is listed as excluded"
        if not strip_invisible(self.card.name).strip():
            return (
                "the name is made only of invisible characters, so a reader sees no name; this file cannot be "
                "documented as an agent and is listed as excluded"
            )
        return None


def read_card_bytes(
    data: bytes,
    *,
    display: str,
    root: str = "",
    relpath: str = "",
    key: str = "",
    limits: Limits = DEFAULT_LIMITS,
    fetched: FetchRecord | None = None,
    memo: SkillMemo | None = None,
) -> ReadCard | Diagnostic:
    """Parse and normalise one card from bytes (a file, a git revision, an HTTP body), or the one diagnostic of
    a document that is not a JSON object. Never raises for its content. ``key``: the file's identity key
    (``CardSource.key``; ``relpath``'s own when not given). ``fetched`` is the card's fetch sidecar, kept in its ``CardSource``;
    ``memo``, the skills of the file's other versions (``load.memo``)."""
    try:
        parsed = parse_bytes(data, limits)
    except SourceError as exc:
        problem = exc.problem
        line, column = line_col(exc.text, problem.offset) if exc.text else (1, 1)
        return diagnostic(
            problem.code, problem.message, file=display, line=line, column=column, pointer=problem.pointer
        )
    report = Report()
    for warning in parsed.warnings:
        report.add(warning.code, warning.pointer, warning.message)
    relpath = relpath or Path(display).as_posix()  # no root given: the display path is all there is to key by
    source = CardSource(
        path=display,
        root=root,
        relpath=relpath,
        key=key or card_key(0, relpath),
        raw=parsed.value,
        text=parsed.text,
        fetched=fetched,
    )
    return ReadCard(normalize(parsed.value, source, report, limits, memo), report, parsed, display)


def file_too_large(display: str, size: int, limits: Limits, *, where: str = "") -> Diagnostic:
    """``file-too-large`` for a file of ``size`` bytes; ``where`` says where it was found (`` at the base
    revision``)."""
    return diagnostic(
        FILE_TOO_LARGE,
        f"the file has {size} bytes{where}, more than the limit of {limits.max_file_bytes} "
        f"(limit max_file_bytes, raise it with {Limits.option_name('max_file_bytes')}); it is not read",
        file=display,
    )
