"""Diagnostics as text for people, JSON for tools, or GitHub Actions workflow commands.

Shared by every command that reports on cards (``check``, ``build``, ``fetch``). Card text reaches these
messages (quoted names, ids, URLs), so every format neutralises characters a terminal or a log viewer
would interpret: control characters, bidi controls and other invisible characters are written as
``\\uXXXX`` escapes, and newlines never split one diagnostic over two lines.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Literal

from a2a_docgen.model import Diagnostic
from a2a_docgen.text.plural import plural

__all__ = [
    "FORMATS",
    "Format",
    "counts",
    "counts_text",
    "diagnostic_dict",
    "exit_code",
    "format_diagnostics",
    "format_github",
    "format_json",
    "format_line",
    "format_text",
    "hint_count",
    "log_line",
    "printable",
    "summary",
]

Format = Literal["text", "json", "github"]
FORMATS: tuple[Format, ...] = ("text", "json", "github")


_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with control, format (bidi, zero-width) and unassigned characters as ``\\uXXXX`` escapes."""
    if text.isascii() and text.isprintable():
        return text
    # json.dumps writes \uXXXX (a surrogate pair above U+FFFF) for any character outside ASCII.
    return "".join(
        json.dumps(c)[1:-1]
        if unicodedata.category(c) in _HIDDEN_CATEGORIES and not (keep_newlines and c == "\n")
        else c
        for c in text
    )


def _ordered(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=lambda d: (*d.sort_key(), d.severity, d.pointer))


def log_line(file: str, rest: str) -> str:
    """``file`` then ``rest`` as one line of a text report (``check``'s, ``diff``'s), made ``printable``.

    The line never starts with ``::`` (a CI runner such as GitHub Actions would take a file named
    ``::stop-commands::x.json`` for a workflow command): a path that starts with ``:`` (after any blanks) is
    written ``./...``, which names the same file.
    """
    shown = f"./{file}" if file.lstrip().startswith(":") else file
    return printable(f"{shown}{rest}")


def format_line(d: Diagnostic) -> str:
    """One diagnostic as one line of text: ``file:line:col: severity code message`` (``log_line``)."""
    return log_line(d.file, f":{d.line}:{d.column}: {d.severity} {d.code} {d.message}")


def format_text(diagnostics: Iterable[Diagnostic]) -> str:
    """``format_line`` of each diagnostic, one per line, sorted."""
    return "".join(format_line(d) + "\n" for d in _ordered(diagnostics))


def diagnostic_dict(diagnostic: Diagnostic) -> dict[str, str | int]:
    """The JSON object of one diagnostic (the keys are a stable interface)."""
    return {
        "file": diagnostic.file,
        "line": diagnostic.line,
        "column": diagnostic.column,
        "pointer": diagnostic.pointer,
        "severity": diagnostic.severity,
        "code": diagnostic.code,
        "message": diagnostic.message,
    }


def format_json(diagnostics: Iterable[Diagnostic]) -> str:
    """A JSON array of diagnostic objects, sorted, with a final newline.

    Non-ASCII text stays readable; only the characters ``printable`` escapes are written as escapes
    (JSON syntax is ASCII, so they can only occur inside strings, where an escape means the same).
    """
    text = json.dumps([diagnostic_dict(d) for d in _ordered(diagnostics)], ensure_ascii=False, indent=2)
    return printable(text, keep_newlines=True) + "\n"


def _github_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(value: str) -> str:
    return _github_data(value).replace(":", "%3A").replace(",", "%2C")


_GITHUB_LEVELS = {"error": "error", "warning": "warning", "hint": "notice"}


def format_github(diagnostics: Iterable[Diagnostic]) -> str:
    """GitHub Actions workflow commands (``::error file=...,line=...,col=...,title=code::message``); a hint is
    a ``::notice``."""
    lines = []
    for d in _ordered(diagnostics):
        properties = ",".join(
            f"{key}={printable(_github_property(str(value)))}"
            for key, value in (("file", d.file), ("line", d.line), ("col", d.column), ("title", d.code))
        )
        lines.append(f"::{_GITHUB_LEVELS[d.severity]} {properties}::{printable(_github_data(d.message))}\n")
    return "".join(lines)


def format_diagnostics(diagnostics: Iterable[Diagnostic], output_format: Format) -> str:
    """Diagnostics in one of ``FORMATS``."""
    if output_format == "json":
        return format_json(diagnostics)
    if output_format == "github":
        return format_github(diagnostics)
    return format_text(diagnostics)


def counts(diagnostics: Sequence[Diagnostic]) -> tuple[int, int]:
    """(errors, warnings); hints are counted by ``hint_count``."""
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = sum(1 for d in diagnostics if d.severity == "warning")
    return errors, warnings


def hint_count(diagnostics: Sequence[Diagnostic]) -> int:
    """How many of ``diagnostics`` are hints (quality findings of the grade)."""
    return sum(1 for d in diagnostics if d.severity == "hint")


def counts_text(errors: int, warnings: int, hints: int = 0) -> str:
    """``1 error, 2 warnings`` (and ``, 3 hints`` when there are hints)."""
    text = f"{plural(errors, 'error')}, {plural(warnings, 'warning')}"
    return f"{text}, {plural(hints, 'hint')}" if hints else text


def summary(files: int, diagnostics: Sequence[Diagnostic]) -> str:
    """``3 files, 1 error, 2 warnings`` (and ``, 3 hints`` when there are hints)."""
    return f"{plural(files, 'file')}, {counts_text(*counts(diagnostics), hint_count(diagnostics))}"


def exit_code(diagnostics: Sequence[Diagnostic], *, strict: bool = False) -> int:
    """1 when there is an error (or, with ``strict``, a warning), else 0; hints never fail."""
    errors, warnings = counts(diagnostics)
    return 1 if errors or (strict and warnings) else 0
