"""The registry of diagnostic codes is complete, documented, and the only source of codes and severities."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

from a2a_docgen import diagnostics
from a2a_docgen.catalog import load_catalog
from a2a_docgen.diagnostics import CODES, Code
from a2a_docgen.load.report import Report
from tests.support.markdown_tokens import headings

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / diagnostics.DOCS
HEADING = re.compile(r"(?P<code>[a-z0-9]+(?:-[a-z0-9]+)*) \((?P<severities>[a-z]+(?:, or [a-z]+)*)\)")

CORPORA = [
    REPO / "examples" / "cards",
    REPO / "tests" / "data" / "cards",
    REPO / "tests" / "data" / "hostile",
    *sorted((REPO / "tests" / "golden").glob("*/input")),
]


def documented() -> list[tuple[str, tuple[str, ...], str]]:
    """``(code, severities, heading text)`` of every level-3 heading of docs/diagnostics.md, in order."""
    found = []
    for level, text in headings(DOCS.read_text(encoding="utf-8")):
        if level != 3:
            continue
        match = HEADING.fullmatch(text)
        assert match, f"docs/diagnostics.md: heading {text!r} is not '`code` (severity)'"
        found.append((match["code"], tuple(match["severities"].split(", or ")), text))
    return found


def test_every_registered_code_is_documented_with_its_severities_in_order() -> None:
    docs = documented()
    assert [(code, severities) for code, severities, _ in docs] == [
        (code.name, code.severities) for code in CODES.values()
    ]


def test_each_code_links_to_its_heading() -> None:
    anchors = {code: slugify(text, "-") for code, _, text in documented()}
    for code in CODES.values():
        assert code.anchor == anchors[code.name]


@pytest.mark.parametrize("code", CODES.values(), ids=lambda c: c.name)
def test_each_code_is_well_formed(code: Code) -> None:
    assert CODES[code.name] is code
    assert code.summary
    assert "\n" not in code.summary
    assert len(code.summary) <= 100
    assert code.severities
    assert set(code.severities) <= {"error", "warning", "hint"}
    constant = code.name.upper().replace("-", "_")
    assert getattr(diagnostics, constant) is code


def test_severity_comes_from_the_registry() -> None:
    report = Report()
    report.add(diagnostics.WRONG_TYPE, "/name", "message")
    report.add(diagnostics.PROTOCOL_VERSION_FORMAT, "/x", "message", severity="warning")
    assert [(f.severity, f.code) for f in report.findings] == [
        ("error", "wrong-type"),
        ("warning", "protocol-version-format"),
    ]
    with pytest.raises(ValueError, match="never reported as warning"):
        report.add(diagnostics.WRONG_TYPE, "/name", "message", severity="warning")
    with pytest.raises(ValueError, match="give the severity"):
        report.add(diagnostics.PROTOCOL_VERSION_FORMAT, "/x", "message")


def test_a_code_cannot_be_registered_twice() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        diagnostics._register("wrong-type", ("error",), "again")


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda p: str(p.relative_to(REPO)))
def test_every_diagnostic_reported_on_the_test_corpora_is_registered(corpus: Path) -> None:
    catalog = load_catalog([corpus])
    for d in catalog.diagnostics:
        assert d.code in CODES, d
        assert d.severity in CODES[d.code].severities, d
