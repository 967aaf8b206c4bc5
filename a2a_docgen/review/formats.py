"""Review findings as text, JSON, a pull-request comment (Markdown) or GitHub Actions annotations.

Messages carry card text (names, ids, URLs). Text, JSON and annotations pass it through ``printable`` so
no control or bidi character reaches a terminal or a log; the Markdown comment (``review.comment``)
encodes it with the ``render.escape`` encoders so no card text can start Markdown or HTML syntax.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal

from a2a_docgen.model import JSONValue
from a2a_docgen.report_formats import printable
from a2a_docgen.review.codes import CODES, EXAMPLES, POLICY_CODES, SCHEME_DETAIL_CODES
from a2a_docgen.review.comment import (
    COMMENT_MARKER,
    MARKDOWN_BUDGET,
    format_comment,
    format_markdown,
    page_url,
)
from a2a_docgen.review.config import ConfigWarning, ReviewConfig
from a2a_docgen.review.diff import Change
from a2a_docgen.review.report import (
    LoadFailure,
    ReviewReport,
    SourceLinks,
    accepted_note,
    counts,
    has_news,
    plural,
    summary,
    where,
)

__all__ = [
    "ANNOTATIONS_PER_LEVEL",
    "COMMENT_MARKER",
    "FORMATS",
    "MARKDOWN_BUDGET",
    "LoadFailure",
    "ReviewFormat",
    "ReviewReport",
    "SourceLinks",
    "counts",
    "format_changes",
    "format_codes",
    "format_github",
    "format_json",
    "format_markdown",
    "format_report",
    "format_text",
    "has_news",
    "page_url",
    "summary",
]

ReviewFormat = Literal["text", "markdown", "json", "github"]
FORMATS: tuple[ReviewFormat, ...] = ("text", "markdown", "json", "github")

ANNOTATIONS_PER_LEVEL = 10
"""GitHub shows 10 error, 10 warning and 10 notice annotations per step (and 50 per job)."""

_ANNOTATION = {"breaking": "error", "non-breaking": "warning", "info": "notice"}
_TITLE = {"breaking": "Breaking change", "non-breaking": "Non-breaking change", "info": "Card change"}


def format_text(changes: Sequence[Change]) -> str:
    """One line per change (``file:line: severity: agent › skill: message [code]``), then the summary.

    Accepted changes say so after their severity and end with the reason.
    """
    lines = []
    for c in changes:
        severity = f"{c.severity} (accepted)" if c.accepted is not None else c.severity
        text = f"{c.file}:{c.line}: {severity}: {where(c)}: {c.message} [{c.code}]{accepted_note(c)}"
        lines.append(printable(text) + "\n")
    return "".join(lines) + summary(changes).capitalize() + ".\n"


def format_json(changes: Sequence[Change]) -> str:
    """A JSON array of change objects (``[]`` when nothing changed), with a final newline.

    Non-ASCII text stays readable; control, bidi and other invisible characters are ``\\uXXXX`` escapes.
    The objects are described by docs/diff.schema.json.
    """
    text = json.dumps([c.to_json() for c in changes], ensure_ascii=False, indent=2)
    return printable(text, keep_newlines=True) + "\n"  # raw newlines are layout: strings have them escaped


def _github_data(value: str) -> str:
    return printable(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(value: str) -> str:
    return _github_data(value).replace(":", "%3A").replace(",", "%2C")


def _command(
    level: str,
    message: str,
    *,
    title: str,
    file: str | None = None,
    line: int | None = None,
    column: int | None = None,
) -> str:
    properties = [("file", file), ("line", line), ("col", column), ("title", title)]
    shown = ",".join(
        f"{key}={_github_property(str(value))}" for key, value in properties if value is not None
    )
    return f"::{level} {shown}::{_github_data(message)}\n"


def _annotation(change: Change, anchor_removals: bool) -> tuple[str, str]:
    """(level, workflow command) of one finding."""
    if change.accepted is not None:
        level, title = "notice", f"Accepted {_TITLE[change.severity].lower()}: {change.code}"
    else:
        level, title = _ANNOTATION[change.severity], f"{_TITLE[change.severity]}: {change.code}"
    message = f"{where(change)}: {change.message}{accepted_note(change)}"
    if change.side == "base" and anchor_removals:
        message += f" (line {change.line} of the base card)"
        location = change.anchor
        if location is None:
            return level, _command(level, message, title=title)
        return level, _command(
            level, message, title=title, file=location.file, line=location.line, column=location.column
        )
    return level, _command(
        level, message, title=title, file=change.file, line=change.line, column=change.column
    )


def format_github(
    changes: Sequence[Change],
    warnings: Sequence[ConfigWarning] = (),
    *,
    anchor_removals: bool = False,
    per_level: int = ANNOTATIONS_PER_LEVEL,
) -> str:
    """Workflow commands: ``::error`` for breaking, ``::warning`` non-breaking, ``::notice`` info.

    Each annotation sits on the changed line of the head card (of the base card for what was removed, or,
    with ``anchor_removals``, of the nearest part of the head card that remains; none when the file is
    gone). Accepted changes are notices. GitHub shows ``per_level`` annotations of each level per step, so
    the most important come first (breaking, then configuration warnings, non-breaking, accepted, info),
    and one last notice counts what was left out.
    """
    levels: dict[str, list[str]] = {"error": [], "warning": [], "notice": []}
    for warning in warnings:
        levels["warning"].append(
            _command(
                "warning",
                warning.message,
                title="a2a-docgen configuration",
                file=warning.file,
                line=warning.line,
            )
        )
    ordered = sorted(
        changes, key=lambda c: (c.accepted is None and c.severity == "info", c.accepted is not None)
    )
    for change in ordered:
        level, command = _annotation(change, anchor_removals)
        levels[level].append(command)
    total = sum(len(commands) for commands in levels.values())
    if all(len(commands) <= per_level for commands in levels.values()):
        return "".join(levels["error"] + levels["warning"] + levels["notice"])
    kept = levels["error"][:per_level] + levels["warning"][:per_level] + levels["notice"][: per_level - 1]
    left = total - len(kept)
    note = (
        f"{plural(left, 'more finding')} not annotated: GitHub shows {per_level} annotations of each level per "
        "step. The review comment, the job summary and a2a-docgen diff --format text list them all."
    )
    return "".join(kept) + _command("notice", note, title="a2a-docgen diff")


def format_codes(config: ReviewConfig | None = None, output_format: ReviewFormat = "text") -> str:
    """Every code with its severity (as ``config`` sets it), meaning and an example message."""
    config = config if config is not None else ReviewConfig()
    rows: list[dict[str, JSONValue]] = []
    for code, (default, meaning) in CODES.items():
        severity = config.severities.get(code, default) if code in config.severities else default
        rows.append(
            {
                "code": code,
                "severity": severity,
                "default": default,
                "meaning": meaning,
                "example": EXAMPLES[code],
                "policy": code in POLICY_CODES,
                "usedSchemesOnly": code in SCHEME_DETAIL_CODES,
            }
        )
    if output_format == "json":
        return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
    lines = []
    for row in rows:
        notes = []
        if row["severity"] != row["default"]:
            notes.append(f"default {row['default']}, set in {config.path}")
        if row["usedSchemesOnly"]:
            notes.append("info when no requirement uses the scheme")
        if row["policy"] and not config.version_policy:
            notes.append(f"version policy off in {config.path}")
        shown = row["severity"] if row["severity"] is not None else "off"
        extra = f"; {'; '.join(notes)}" if notes else ""
        lines.append(f"{row['code']} ({shown}{extra}): {row['meaning']}\n    e.g. {row['example']}\n")
    return "".join(lines)


def format_report(report: ReviewReport, output_format: ReviewFormat) -> str:
    """The report in one of ``FORMATS``."""
    if output_format == "json":
        return format_json(report.changes)
    if output_format == "github":
        return format_github(report.changes, report.warnings, anchor_removals=report.anchor_removals)
    if output_format == "markdown":
        return format_comment(report)
    return format_text(report.changes)


def format_changes(
    changes: Sequence[Change], output_format: ReviewFormat, *, site_url: str | None = None
) -> str:
    """Changes in one of ``FORMATS`` (a report with nothing else in it)."""
    return format_report(ReviewReport(changes=changes, site_url=site_url), output_format)
