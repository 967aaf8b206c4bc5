"""Review findings as text, JSON, a pull-request comment (Markdown) or GitHub Actions annotations.

Messages carry card text (names, ids, URLs). Text, JSON and annotations pass it through ``printable`` so
no control or bidi character reaches a terminal or a log; the Markdown comment (``review.comment``)
encodes it with the ``render.escape`` encoders so no card text can start Markdown or HTML syntax.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Literal

from a2a_docgen.model import JSONValue
from a2a_docgen.report_formats import diagnostic_dict, log_line, printable
from a2a_docgen.review.changelog import changelog_markdown
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
from a2a_docgen.slugs import AgentAddress

__all__ = [
    "ANNOTATIONS_PER_LEVEL",
    "COMMENT_MARKER",
    "FORMATS",
    "MARKDOWN_BUDGET",
    "SCHEMA_VERSION",
    "LoadFailure",
    "ReviewFormat",
    "ReviewReport",
    "SourceLinks",
    "counts",
    "format_changelog",
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

ReviewFormat = Literal["text", "markdown", "json", "github", "changelog"]
FORMATS: tuple[ReviewFormat, ...] = ("text", "markdown", "json", "github", "changelog")

SCHEMA_VERSION = 2
"""Of the JSON report (docs/diff.schema.json). 2: an object with the summary, the findings (each with its
fingerprint and documentation link), the files that fail to load and the configuration warnings; 1 was the
bare array of findings."""

ANNOTATIONS_PER_LEVEL = 10
"""GitHub shows 10 error, 10 warning and 10 notice annotations per step (and 50 per job)."""

_ANNOTATION = {"breaking": "error", "non-breaking": "warning", "info": "notice"}
_TITLE = {"breaking": "Breaking change", "non-breaking": "Non-breaking change", "info": "Card change"}


def _base_line(change: Change) -> str:
    """`` (line 25 of the base card)``: a base-side finding's own line, beside a head path or none."""
    return f" (line {change.line} of the base {'configuration' if change.configuration else 'card'})"


def _text_line(change: Change, anchor_removals: bool) -> str:
    severity = f"{change.severity} (accepted)" if change.accepted is not None else change.severity
    text = f"{severity}: {where(change)}: {change.message} [{change.code}]{accepted_note(change)}"
    if change.side == "base" and anchor_removals:
        # --base-ref: a base line number next to the working-tree path would name another line.
        text += _base_line(change)
        if change.anchor is None:
            return log_line(change.file, f": {text}")
        return log_line(change.anchor.file, f":{change.anchor.line}: {text}")
    return log_line(change.file, f":{change.line}: {text}")


def format_text(changes: Sequence[Change], *, anchor_removals: bool = False) -> str:
    """One line per change (``file:line: severity: agent › skill: message [code]``), then the summary.

    Accepted changes say so after their severity and end with the reason. Lines are written by
    ``report_formats.log_line``, as ``check`` writes its own: printable, never a workflow command. With
    ``anchor_removals`` (``--base-ref``), a removal shows the working-tree path at its surviving parent and
    names its base line in the message.
    """
    lines = [_text_line(c, anchor_removals) + "\n" for c in changes]
    return "".join(lines) + summary(changes).capitalize() + ".\n"


def report_json(report: ReviewReport) -> dict[str, JSONValue]:
    """The JSON report as an object (see ``format_json``)."""
    numbers = counts([c for c in report.changes if not c.policy and c.accepted is None])
    return {
        "schemaVersion": SCHEMA_VERSION,
        "summary": {
            "text": summary(report.changes),
            "changes": sum(1 for c in report.changes if not c.policy),
            "breaking": numbers["breaking"],
            "nonBreaking": numbers["non-breaking"],
            "info": numbers["info"],
            "accepted": sum(1 for c in report.changes if c.accepted is not None),
            "policy": sum(1 for c in report.changes if c.policy),
            "loadFailures": len(report.failures),
        },
        "changes": [c.to_json() for c in report.changes],
        "loadErrors": [
            {
                "side": failure.side,
                "file": failure.file,
                "diagnostics": [
                    dict(diagnostic_dict(d)) for d in failure.diagnostics if d.severity == "error"
                ],
            }
            for failure in report.failures
        ],
        "warnings": [{"file": w.file, "line": w.line, "message": w.message} for w in report.warnings],
    }


def format_json(report: ReviewReport | Sequence[Change]) -> str:
    """The report as a JSON object with a final newline (described by docs/diff.schema.json).

    ``schemaVersion``, ``summary`` (the counts and the summary line), ``changes`` (the findings, ``[]``
    when nothing changed), ``loadErrors`` (each card file that fails to load, with its errors) and
    ``warnings`` (of the configuration). Non-ASCII text stays readable; control, bidi and other invisible
    characters are ``\\uXXXX`` escapes.
    """
    if not isinstance(report, ReviewReport):
        report = ReviewReport(changes=report)
    text = json.dumps(report_json(report), ensure_ascii=False, indent=2)
    return printable(text, keep_newlines=True) + "\n"  # raw newlines are layout: strings have them escaped


def format_changelog(changes: Sequence[Change]) -> str:
    """The changes as a changelog in Markdown (``review.changelog``), or a line saying there are none."""
    return changelog_markdown(changes) or "No changes to A2A agent cards.\n"


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
        message += _base_line(change)
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
        "step. The job summary of this run has the full report (so does a2a-docgen diff --format text)."
    )
    return "".join(kept) + _command("notice", note, title="a2a-docgen diff")


def format_codes(config: ReviewConfig | None = None, output_format: ReviewFormat = "text") -> str:
    """Every code with its severity (as ``config`` sets it), meaning and an example message."""
    config = config if config is not None else ReviewConfig()
    rows: list[dict[str, JSONValue]] = []
    for code, (default, meaning) in CODES.items():
        severity = config.severity(code)
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
        return format_json(report)
    if output_format == "changelog":
        return format_changelog(report.changes)
    if output_format == "github":
        return format_github(report.changes, report.warnings, anchor_removals=report.anchor_removals)
    if output_format == "markdown":
        return format_comment(report)
    return format_text(report.changes, anchor_removals=report.anchor_removals)


def format_changes(
    changes: Sequence[Change],
    output_format: ReviewFormat,
    *,
    site_url: str | None = None,
    addresses: Mapping[str, AgentAddress] | None = None,
) -> str:
    """Changes in one of ``FORMATS`` (a report with nothing else in it)."""
    return format_report(ReviewReport(changes=changes, site_url=site_url, addresses=addresses), output_format)
