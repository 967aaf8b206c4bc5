"""The grade of a card: 100 points, less a weight for every finding, in letter bands.

Every finding costs the points of its code (``WEIGHTS``; otherwise 15 for an error and 3 for a warning), up to
the code's cap, and an error repeated at the same place of several skills (or interfaces, schemes ...) costs
what one costs, so one kind of mistake repeated never sinks a card alone. A card with any error is graded D at
best: it breaks the spec, whatever else it does well. docs/grading.md lists every rule with its weight and fix
(a test keeps it in step with this table).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from a2a_docgen.model import Diagnostic, Severity

__all__ = [
    "BANDS",
    "BEST_WITH_ERRORS",
    "DEFAULT_WEIGHTS",
    "LETTERS",
    "WEIGHTS",
    "Deduction",
    "Letter",
    "Score",
    "Weight",
    "letter_for",
    "parse_letter",
    "score",
]

Letter = Literal["A", "B", "C", "D", "F"]
LETTERS: tuple[Letter, ...] = ("A", "B", "C", "D", "F")

BANDS: tuple[tuple[Letter, int], ...] = (("A", 90), ("B", 80), ("C", 70), ("D", 60), ("F", 0))
"""Each letter and the lowest score that earns it."""

BEST_WITH_ERRORS = 69
"""The highest score of a card with an error (a D)."""


@dataclass(frozen=True, slots=True)
class Weight:
    """What one finding of a code costs, the most that code can cost a card, and the most one rule of it can."""

    points: int
    cap: int
    per_rule: int | None = None
    """The most the findings of one rule cost: the code at the same place of every skill, interface or scheme
    (``/skills/0/tags`` and ``/skills/3/tags`` are one rule), so a mistake repeated in each skill costs what it
    costs once. ``None``: only ``cap`` bounds it."""


DEFAULT_WEIGHTS: dict[Severity, Weight] = {
    "error": Weight(15, 45, 15),
    "warning": Weight(3, 9),
    "hint": Weight(3, 9),
}
"""The weight of a code that ``WEIGHTS`` does not list, by the finding's severity."""

WEIGHTS: dict[str, Weight] = {
    # warnings of check that matter more (or less) for a reader or a client than most
    "era-mismatch": Weight(10, 10),
    "url-placeholder": Weight(10, 20),
    "url-not-https": Weight(6, 12),
    "example-mode-mismatch": Weight(3, 9),
    "scheme-unused": Weight(4, 8),
    "duplicate-agent-name": Weight(3, 3),
    "unknown-field": Weight(1, 3),  # vendor members are common and harmless to clients, typos rarer
    # the quality rules (hints)
    "interface-local": Weight(10, 10),
    "skill-no-examples": Weight(5, 15),
    "skill-description-thin": Weight(3, 9),
    "skill-description-duplicate": Weight(3, 9),
    "skill-few-tags": Weight(2, 6),
    "no-provider": Weight(5, 5),
    "no-documentation-url": Weight(5, 5),
    "no-icon": Weight(2, 2),
    "legacy-card-path": Weight(5, 5),
    # said, not weighed: example and test cards use reserved hosts on purpose, and a published card on one
    # fails its clients at once (the hint says why)
    "reserved-host": Weight(0, 0),
    # not a problem: check --jwks says which cards verified
    "signature-verified": Weight(0, 0),
}
"""Codes whose findings weigh other than their severity's default (``DEFAULT_WEIGHTS``). An error always weighs
the error default."""


def weight(code: str, severity: Severity) -> Weight:
    """What a finding of ``code`` reported as ``severity`` costs."""
    if severity == "error":
        return DEFAULT_WEIGHTS["error"]
    return WEIGHTS.get(code, DEFAULT_WEIGHTS[severity])


@dataclass(frozen=True, slots=True, kw_only=True)
class Deduction:
    """The points one code cost a card."""

    code: str
    severity: Severity
    count: int
    """How many findings of the code the card has."""
    points: int
    """The points they cost, after the code's cap."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Score:
    """A score out of 100 and its letter."""

    letter: Letter
    score: int
    deductions: tuple[Deduction, ...]
    """Every code that cost points, most points first (then by code)."""
    capped: bool
    """The card has an error, so its score was held at ``BEST_WITH_ERRORS``."""


def letter_for(points: int) -> Letter:
    """The band of a score."""
    return next(letter for letter, lowest in BANDS if points >= lowest)


_INDEX = re.compile(r"/[0-9]+(?=/|$)")


def rule_of(pointer: str) -> str:
    """The place a finding is about, whichever skill, interface or list item: ``/skills/*/tags``."""
    return _INDEX.sub("/*", pointer)


def score(findings: Iterable[Diagnostic]) -> Score:
    """The score of a card from all its findings (errors, warnings and hints)."""
    by_rule: Counter[tuple[str, Severity, str]] = Counter(
        (d.code, d.severity, rule_of(d.pointer)) for d in findings
    )
    counted: Counter[tuple[str, Severity]] = Counter()
    costs: Counter[tuple[str, Severity]] = Counter()
    for (code, severity, _), count in by_rule.items():
        cost = weight(code, severity)
        counted[code, severity] += count
        costs[code, severity] += min(cost.per_rule or cost.cap, cost.points * count)
    deductions = []
    for (code, severity), count in counted.items():
        points = min(weight(code, severity).cap, costs[code, severity])
        if points:  # a code of weight 0 is said (a hint), never listed as a loss
            deductions.append(Deduction(code=code, severity=severity, count=count, points=points))
    deductions.sort(key=lambda d: (-d.points, d.code, d.severity))
    points = max(0, 100 - sum(d.points for d in deductions))
    has_error = any(severity == "error" for _, severity in counted)
    capped = has_error and points > BEST_WITH_ERRORS
    if capped:
        points = BEST_WITH_ERRORS
    return Score(letter=letter_for(points), score=points, deductions=tuple(deductions), capped=capped)


def parse_letter(text: str) -> Letter:
    """``--min-grade`` value: a letter of ``LETTERS`` in either case; raises ``ValueError`` otherwise."""
    value = text.strip().upper()
    for letter in LETTERS:
        if value == letter:
            return letter
    raise ValueError(f"expected a grade {', '.join(LETTERS)}, not {text!r}")


def at_least(letter: Letter, minimum: Letter) -> bool:
    """``letter`` is ``minimum`` or better."""
    return LETTERS.index(letter) <= LETTERS.index(minimum)


def deductions_text(deductions: Sequence[Deduction], most: int = 4) -> str:
    """``-15 skill-no-examples (3), -5 no-provider`` for the first ``most`` deductions."""
    shown = [f"-{d.points} {d.code}" + (f" ({d.count})" if d.count > 1 else "") for d in deductions[:most]]
    if len(deductions) > most:
        shown.append(f"and {len(deductions) - most} more")
    return ", ".join(shown)
