"""Apply a review configuration to findings: the severity of each code, and the accepted changes.

Accepted changes keep their severity but never fail a run. An acceptance that matches no finding, or has
expired (it stops applying the day after ``expires``), is a ``ConfigWarning``: stale acceptances should
not pile up. Days are UTC's (``utc_today``), so a review means the same in every time zone.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

from a2a_docgen.review.codes import ChangeSeverity, severity_rank
from a2a_docgen.review.config import Acceptance, ConfigWarning, ReviewConfig

__all__ = ["Settlement", "utc_today"]


def utc_today() -> date:
    """The day acceptances are judged on: UTC's, whatever the machine's time zone."""
    return datetime.now(timezone.utc).date()


class Settlement:
    """One review's use of a configuration; remembers which acceptances matched."""

    def __init__(self, config: ReviewConfig, today: date) -> None:
        self.config = config
        self.today = today
        self._used: set[int] = set()
        self._expired_matches: set[int] = set()

    def severity(self, code: str, cap: ChangeSeverity | None = None) -> ChangeSeverity | None:
        """The severity of a finding of ``code``; ``None`` when the configuration hides the code.

        ``cap`` is the most a finding can be in its context (``info`` for a change to a scheme that no
        requirement uses): an override never lifts a finding above it.
        """
        severity = self.config.severity(code)
        if severity is None:
            return None
        if cap is not None and severity_rank(severity) < severity_rank(cap):
            return cap
        return severity

    def acceptance(
        self, agent: str, skill: str | None, code: str, pointer: str, fingerprint: str
    ) -> Acceptance | None:
        """The first unexpired acceptance that matches the finding (every match counts as used)."""
        chosen = None
        for index, entry in enumerate(self.config.accept):
            if not entry.matches(agent, skill, code, pointer, fingerprint):
                continue
            if entry.expired(self.today):
                self._expired_matches.add(index)
                continue
            self._used.add(index)
            if chosen is None:
                chosen = entry
        return chosen

    def warnings(self) -> list[ConfigWarning]:
        """Acceptances that expired or matched nothing, in file order."""
        result = []
        for index, entry in enumerate(self.config.accept):
            if entry.expired(self.today):
                assert entry.expires is not None
                still = (
                    "the change it accepted is reported again"
                    if index in self._expired_matches
                    else "it matches no change either; remove it"
                )
                message = f"{entry.describe()} expired on {entry.expires.isoformat()}: {still}"
            elif index not in self._used:
                message = f"{entry.describe()} matches no change; remove it"
            else:
                continue
            result.append(ConfigWarning(file=entry.file, line=entry.line, message=message))
        return result
