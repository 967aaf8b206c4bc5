""" "Did you mean": the closest of a set of names, at a cost bounded whatever the names and their number.

``difflib.get_close_matches`` compares a name with every candidate, each comparison up to quadratic in the
lengths; a card can name thousands of schemes and refer to thousands of undeclared ones. ``Suggestions``
indexes its candidates once, compares a name only with at most ``MAX_CANDIDATES`` of similar length, skips
names longer than ``MAX_NAME_CHARS``, and stops comparing once ``MAX_COMPARISONS`` are spent (an exact match
in another case is still found, by lookup). So a card's suggestions cost its size plus a constant.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["MAX_CANDIDATES", "MAX_COMPARISONS", "MAX_NAME_CHARS", "Suggestions"]

CUTOFF = 0.75
"""The ``difflib`` ratio a candidate needs to be suggested."""
MAX_CANDIDATES = 16
"""Candidates compared with one name: those closest to it in length (then first declared)."""
MAX_NAME_CHARS = 64
"""A longer name (or candidate) gets no similarity suggestion: a typo is short."""
MAX_COMPARISONS = 256
"""Candidate comparisons one ``Suggestions`` makes in all."""


class Suggestions:
    """The candidates for one kind of name (a card's declared schemes, the members of an object ...)."""

    def __init__(self, candidates: Iterable[str]) -> None:
        self._folded: dict[str, str] = {}
        self._by_length: dict[int, list[str]] = {}
        for candidate in candidates:
            self._folded.setdefault(candidate.casefold(), candidate)
            if len(candidate) <= MAX_NAME_CHARS:
                bucket = self._by_length.setdefault(len(candidate), [])
                if len(bucket) < MAX_CANDIDATES:
                    bucket.append(candidate)
        self.comparisons_left = MAX_COMPARISONS
        self.compared = 0
        """Candidate comparisons made so far (tests count them)."""

    def closest(self, name: str) -> str | None:
        """The candidate ``name`` most likely means, or None."""
        close = self._similar(name)
        if close is None:
            close = self._folded.get(name.casefold())
        return close

    def hint(self, name: str) -> str:
        """`` (did you mean "x"?)``, or nothing."""
        close = self.closest(name)
        return f' (did you mean "{close}"?)' if close else ""

    def _similar(self, name: str) -> str | None:
        if len(name) > MAX_NAME_CHARS or self.comparisons_left <= 0:
            return None
        # A ratio of CUTOFF or more needs 2 * min(len) >= CUTOFF * (sum of the lengths): nearest lengths first.
        lengths = sorted(self._by_length, key=lambda n: (abs(n - len(name)), n))
        chosen: list[str] = []
        for length in lengths:
            if 2 * min(length, len(name)) < CUTOFF * (length + len(name)) or len(chosen) >= MAX_CANDIDATES:
                break
            chosen.extend(self._by_length[length][: MAX_CANDIDATES - len(chosen)])
        chosen = chosen[: self.comparisons_left]
        self.comparisons_left -= len(chosen)
        self.compared += len(chosen)
        close = difflib.get_close_matches(name, chosen, n=1, cutoff=CUTOFF)
        return close[0] if close else None
