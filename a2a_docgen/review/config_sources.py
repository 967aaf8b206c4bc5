"""Which configuration judges a change, and which one the change leaves behind.

The nearest ``.a2a-docgen.toml`` is the nearest to the head cards (their directory or a parent, up to the root
of the repository that holds them: ``review.place``), never to the working directory, so the same change is
judged by the same rules from anywhere. Its path is shown from the repository's top.

- **Two card sets compared without git** (``diff BASE HEAD``): the nearest ``.a2a-docgen.toml`` to HEAD on disk
  (or ``--config FILE``), as always. Nothing says which side the file belongs to, so there is nothing to
  compare it with.
- **With a git revision** (``--base-ref``, ``--since-default-branch``, the Action): the rules a change is
  judged by are not the change's to set. The configuration is the base revision's, found by the same rule as
  on disk and read through git, never from the working tree. The working tree's file is the head's:
  ``review.rules`` reports what it would change. ``--config FILE`` inside the repository is read at the base revision too (the path
  is the caller's choice, the file's content at the head is the change's); outside the repository it is
  the caller's own file, read from disk, and has no head side.
- ``--no-config``: no configuration, and nothing to compare.
- ``--list-codes``, which has no cards: the nearest to the current directory (``place`` is its).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from a2a_docgen.errors import UsageError
from a2a_docgen.git import repository_path
from a2a_docgen.review.config import (
    CONFIG_NAME,
    ConfigError,
    ReviewConfig,
    decode_config,
    find_config,
    load_config,
    shown_path,
)
from a2a_docgen.review.git import GitRevision
from a2a_docgen.review.place import ReviewPlace
from a2a_docgen.review.rules import HeadConfig

__all__ = ["ReviewRules", "review_rules"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewRules:
    """The configuration a review applies, and the head's, to compare with it."""

    config: ReviewConfig | None
    """``None``: no configuration file, the defaults."""
    head: HeadConfig | None = None
    """The head's configuration; ``None`` when there is no base revision to tell the sides apart."""


def review_rules(
    *, config: str | None, no_config: bool, revision: GitRevision | None, place: ReviewPlace
) -> ReviewRules:
    """The rules of a review given ``--config`` and ``--no-config``, with or without a base revision, for the
    head cards at ``place``."""
    if no_config:
        if config is not None:
            raise UsageError("--config and --no-config exclude each other")
        return ReviewRules(config=None)
    if revision is None:
        found = config if config is not None else find_config(place.start)
        return ReviewRules(config=load_config(found, root=place.top) if found is not None else None)
    if config is None:
        candidates = _nearest_candidates(revision, place.start)
        on_disk = next((path for path in candidates if Path(revision.top, path).is_file()), None)
        head = _head(Path(revision.top, on_disk) if on_disk is not None else None, revision.top)
        return ReviewRules(config=_config_at(revision, candidates), head=head)
    inside = repository_path(config, cwd=os.getcwd(), top=revision.top)
    if inside is None:  # the caller's own file: no side of the change
        return ReviewRules(config=load_config(config, root=place.top))
    base = _config_at(revision, [inside])
    head = _head(Path(revision.top, inside) if os.path.lexists(config) else None, revision.top)
    if base is None and head.path is None:
        raise ConfigError(f"{config}: no such configuration file, here or at {revision.revision}")
    return ReviewRules(config=base, head=head)


def _nearest_candidates(revision: GitRevision, start: str) -> list[str]:
    """The paths from the repository root where the configuration nearest to ``start`` may be, nearest first."""
    here = revision.repo_path(start)
    parts = PurePosixPath(here).parts if here else ()
    return [PurePosixPath(*parts[:depth], CONFIG_NAME).as_posix() for depth in range(len(parts), -1, -1)]


def _config_at(revision: GitRevision, candidates: list[str]) -> ReviewConfig | None:
    """The first of ``candidates`` (paths from the repository root) that exists at ``revision``, read."""
    for path in candidates:
        data = revision.read_file(path)
        if data is None:
            continue
        try:
            return decode_config(data, path)
        except ConfigError as exc:
            raise ConfigError(
                f"{exc} (the configuration at {revision.revision}, which judges this change)",
                line=exc.line,
                column=exc.column,
            ) from None
    return None


def _head(path: Path | None, top: str) -> HeadConfig:
    """The head's configuration file at ``path`` in the repository at ``top``; one that cannot be used is kept
    as its error."""
    if path is None:
        return HeadConfig(path=None)
    shown = shown_path(path, top)
    try:
        return HeadConfig(path=shown, config=load_config(path, root=top))
    except ConfigError as exc:
        return HeadConfig(path=shown, error=exc)
