"""The quality of a card: discoverability findings (``hint``) and a grade from A to F with fix hints.

``grade_card(card, diagnostics)`` runs the quality rules (``quality.rules``) on a loaded card, then scores
them together with the card's ``check`` diagnostics (``quality.grade``). Nothing here changes what ``check``
reports by default: the hints and the grade are asked for (``check --grade``, ``--min-grade``) or shown on
the site (agent pages, ``catalog.json``, a badge per agent). Above ``load`` and ``validate``; never imports
``catalog``, the renderer or the fetcher.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from a2a_docgen.diagnostics import CARD_GRADE, diagnostic
from a2a_docgen.load.report import Report, locate_all
from a2a_docgen.load.source import PositionIndex
from a2a_docgen.model import AgentCard, Catalog, Diagnostic, JSONObject
from a2a_docgen.quality.grade import (
    BANDS,
    LETTERS,
    Deduction,
    Letter,
    at_least,
    deductions_text,
    parse_letter,
    score,
)
from a2a_docgen.quality.rules import QUALITY_RULES

__all__ = [
    "BADGE_COLORS",
    "BANDS",
    "LETTERS",
    "Deduction",
    "Grade",
    "Letter",
    "at_least",
    "badge",
    "grade_card",
    "grade_catalog",
    "grade_diagnostic",
    "parse_letter",
    "quality_findings",
]

GRADING_DOCS = "docs/grading.md"


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade:
    """The grade of one card."""

    file: str
    """The card's file (``CardSource.path``), as its diagnostics name it."""
    letter: Letter
    score: int
    """Out of 100."""
    deductions: tuple[Deduction, ...]
    """What cost points, most first: the first fixes to make."""
    hints: tuple[Diagnostic, ...]
    """The quality findings (severity ``hint``), located, sorted."""
    capped: bool
    """The card has an error, so it is graded D at best."""

    @property
    def label(self) -> str:
        """``B (84/100)``."""
        return f"{self.letter} ({self.score}/100)"


def quality_findings(card: AgentCard) -> list[Diagnostic]:
    """The ``hint`` findings of every quality rule on ``card``, located in its file."""
    report = Report()
    for rule in QUALITY_RULES:
        rule(card, report)
    if not report.findings:
        return []
    index: list[PositionIndex] = []  # built for the first finding inside the card: most are about all of it

    def locate(pointer: str, at_key: bool = False) -> tuple[int, int]:
        if not pointer:
            return 1, 1
        if not index:
            index.append(PositionIndex.build(card.source.text))
        return index[0].locate(pointer, at_key=at_key)

    return sorted(locate_all(report.findings, card.source.path, locate), key=Diagnostic.sort_key)


def grade_card(card: AgentCard, diagnostics: Iterable[Diagnostic]) -> Grade:
    """The grade of ``card`` from its ``check`` diagnostics (those of its file) and the quality rules."""
    hints = quality_findings(card)
    own = [d for d in diagnostics if d.file == card.source.path and d.severity != "hint"]
    result = score([*own, *hints])
    return Grade(
        file=card.source.path,
        letter=result.letter,
        score=result.score,
        deductions=result.deductions,
        hints=tuple(hints),
        capped=result.capped,
    )


def grade_catalog(catalog: Catalog) -> dict[str, Grade]:
    """The grade of every card of a catalogue, by file, in catalogue order."""
    by_file: dict[str, list[Diagnostic]] = {}
    for d in catalog.diagnostics:
        by_file.setdefault(d.file, []).append(d)
    return {card.source.path: grade_card(card, by_file.get(card.source.path, ())) for card in catalog.cards}


def grade_diagnostic(grade: Grade, minimum: Letter | None = None) -> Diagnostic:
    """The ``card-grade`` line of one card: a hint, or an error when the grade is below ``minimum``."""
    below = minimum is not None and not at_least(grade.letter, minimum)
    lost = deductions_text(grade.deductions)
    message = f"grade {grade.label}"
    if below:
        message += f" is below the minimum {minimum} (--min-grade)"
    if grade.capped:
        message += "; a card with errors is graded D at best"
    if lost:
        message += f"; points lost: {lost}"
    if grade.letter != "A":
        message += f"; an A needs {BANDS[0][1]} points without errors (see {GRADING_DOCS})"
    return diagnostic(CARD_GRADE, message, file=grade.file, severity="error" if below else "hint")


BADGE_COLORS: dict[Letter, str] = {
    "A": "brightgreen",
    "B": "green",
    "C": "yellow",
    "D": "orange",
    "F": "red",
}


def badge(grade: Grade) -> JSONObject:
    """The shields.io endpoint JSON of a grade (https://shields.io/badges/endpoint-badge)."""
    return {
        "schemaVersion": 1,
        "label": "A2A card",
        "message": grade.letter,
        "color": BADGE_COLORS[grade.letter],
    }


def worst(grades: Sequence[Grade]) -> Letter | None:
    """The lowest letter among ``grades``."""
    return max((g.letter for g in grades), key=LETTERS.index, default=None)
