"""Where a review stands, found from its head cards alone.

A review's verdict and report are a function of the cards, their history and the trusted side's configuration,
never of the working directory or of how a path is spelt (docs/security.md). So what a review locates, it
locates from the head cards: the repository that holds them (``--base-ref`` reads it), the directory the
configuration is looked up from (theirs, up to the repository's top), and the directory paths are shown from
(the top, as git shows paths: ``cards/weather.json`` from anywhere, through any link). Cards in no repository
are shown as typed: whoever runs that chose both directories, and there is nothing else to show them from.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from a2a_docgen.git import find_repository, repository_path

__all__ = ["ReviewPlace", "review_place"]


@dataclass(frozen=True, slots=True)
class ReviewPlace:
    """The repository and directory a review is anchored at."""

    top: str | None
    """The top directory of the repository that holds the head cards (the first head path's; a real path);
    ``None`` outside one."""
    start: str
    """Where the configuration is looked up from: the head cards' directory (a file's own; with several head
    paths, the deepest directory that holds them all), a real path."""

    def spelling(self, path: str) -> str:
        """``path`` (as typed) as the review reads and shows it: from the repository's top (``.`` for the top
        itself), absolute when it lies outside; as typed without a repository."""
        if self.top is None:
            return path
        inside = repository_path(path, cwd=os.getcwd(), top=self.top)
        if inside is None:
            return os.path.abspath(path)
        return os.path.join(*inside.split("/")) if inside else os.curdir

    def path(self, spelling: str) -> str:
        """Where a path spelt by ``spelling`` is on disk."""
        return os.path.join(self.top, spelling) if self.top is not None else spelling


def review_place(head: Sequence[str]) -> ReviewPlace:
    """The place of a review whose head cards are at ``head`` (paths as typed, at least one)."""
    directories = [_directory(os.path.realpath(path)) for path in head]
    repository = find_repository(directories[0])
    start = os.path.commonpath(directories)
    return ReviewPlace(top=repository.top if repository is not None else None, start=start)


def _directory(path: str) -> str:
    """The directory of the cards at ``path``: itself, or a card file's (one deleted from the working tree
    is known by its name)."""
    if os.path.isdir(path) or not (os.path.exists(path) or path.endswith(".json")):
        return path
    return os.path.dirname(path)
