"""Findings collected while reading one card, before they are located in the file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from a2a_docgen.diagnostics import Code
from a2a_docgen.model import Diagnostic, Severity


@dataclass(frozen=True, slots=True)
class Finding:
    """A diagnostic that knows its JSON Pointer but not yet its line and column."""

    severity: Severity
    code: str
    message: str
    pointer: str
    at_key: bool = False
    """Locate the member name rather than its value (for findings about the member itself)."""


@dataclass(slots=True)
class Report:
    """Collects findings for one file."""

    findings: list[Finding] = field(default_factory=list)

    def add(
        self,
        code: Code,
        pointer: str,
        message: str,
        *,
        at_key: bool = False,
        severity: Severity | None = None,
    ) -> None:
        """A finding of ``code`` at ``pointer``, with the code's registered severity (``severity`` only for a code
        registered with several)."""
        self.findings.append(Finding(code.resolve(severity), code.name, message, pointer, at_key))


Locator = Callable[..., tuple[int, int]]
"""``locate(pointer, at_key=False) -> (line, column)``."""


def locate_all(findings: list[Finding], file: str, locate: Locator) -> list[Diagnostic]:
    """Turn findings into diagnostics with ``locate(pointer, at_key=...) -> (line, column)``."""
    result = []
    # A member read twice (e.g. v0.2 ``authentication`` for schemes and requirements) is reported once.
    for finding in dict.fromkeys(findings):
        line, column = locate(finding.pointer, at_key=finding.at_key)
        result.append(
            Diagnostic(
                severity=finding.severity,
                code=finding.code,
                message=finding.message,
                file=file,
                line=line,
                column=column,
                pointer=finding.pointer,
            )
        )
    return result
