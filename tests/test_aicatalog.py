"""``check`` of AI Catalog files: the format's rules (``load.aicatalog``) located like card findings, and the
cards held inline checked as cards, located in the catalogue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.cli import main
from a2a_docgen.load.aicatalog import A2A_CARD_TYPE, catalog_findings, is_catalog
from a2a_docgen.load.report import Report
from tests.test_fetch import CARD

GOOD = {
    "specVersion": "1.0",
    "host": {"displayName": "Example Agents"},
    "entries": [
        {
            "identifier": "urn:air:example.org:a2a:weather",
            "displayName": "Weather Agent",
            "type": A2A_CARD_TYPE,
            "mediaType": A2A_CARD_TYPE,
            "data": CARD,
        }
    ],
}


def check_json(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, object]]]:
    status = main(["check", "--format", "json", str(path)])
    return status, json.loads(capsys.readouterr().out)


def test_a_catalogue_of_the_conservative_profile_is_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ai-catalog.json"
    path.write_text(json.dumps(GOOD, indent=2))
    assert check_json(path, capsys) == (0, [])


def test_findings_are_located_in_the_catalogue(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad_card = {**CARD, "skills": [{"id": "x", "name": "X", "description": "d"}]}
    text = json.dumps(
        {
            "specVersion": "1.0",
            "entries": [
                {
                    "identifier": "urn:air:example.org:a2a:a",
                    "displayName": "A",
                    "type": A2A_CARD_TYPE,
                    "data": bad_card,
                },
                {
                    "identifier": "urn:air:example.org:a2a:a",
                    "displayName": "A",
                    "type": A2A_CARD_TYPE,
                    "url": "https://example.org/a.json",
                },
                {"identifier": "b", "displayName": "B", "mediaType": A2A_CARD_TYPE},
            ],
        },
        indent=2,
    )
    path = tmp_path / "listing.json"  # recognised by its shape, not its name
    path.write_text(text)
    status, found = check_json(path, capsys)
    assert status == 1
    by_code = {(d["code"], d["pointer"]): d for d in found}
    assert (
        "required-missing",
        "/entries/0/data/skills/0/tags",
    ) in by_code  # the inline card, checked as a card
    assert ("catalog-duplicate-entry", "/entries/1") in by_code
    assert ("catalog-invalid", "/entries/2") in by_code
    assert ("catalog-type-alias", "/entries/2/mediaType") in by_code
    assert ("catalog-ard", "/entries/2/identifier") in by_code
    lines = text.splitlines()
    for d in found:
        assert d["file"] == str(path)
        line = lines[int(d["line"]) - 1]  # type: ignore[call-overload]
        last = str(d["pointer"]).rsplit("/", 1)[-1]
        assert last.isdigit() or f'"{last}"' in line or d["code"] == "required-missing", d


@pytest.mark.parametrize(
    ("document", "code"),
    [
        ({"entries": []}, "catalog-spec-version"),
        ({"specVersion": "2.0", "entries": []}, "catalog-spec-version"),
        ({"specVersion": "1.0", "entries": {}}, "catalog-invalid"),
        ({"specVersion": "1.1", "entries": []}, "catalog-ard"),
        ({"specVersion": "1.0", "entries": [], "signature": "x"}, "catalog-ard"),
        ({"specVersion": "1.0", "entries": [], "host": {}}, "catalog-invalid"),
        (
            {
                "specVersion": "1.0",
                "entries": [
                    {
                        "identifier": "urn:air:a.b:c:d",
                        "displayName": "D",
                        "type": A2A_CARD_TYPE,
                        "url": "u",
                        "data": {},
                    }
                ],
            },
            "catalog-invalid",
        ),
        (
            {
                "specVersion": "1.0",
                "entries": [
                    {"identifier": "urn:air:a.b:c:d", "displayName": "D", "type": A2A_CARD_TYPE, "data": []}
                ],
            },
            "catalog-ard",
        ),
        (
            {
                "specVersion": "1.0",
                "entries": [{"identifier": "urn:air:a.b:c:d", "type": A2A_CARD_TYPE, "data": {}}],
            },
            "catalog-ard",
        ),
        (
            {
                "specVersion": "1.0",
                "entries": [
                    {
                        "identifier": "urn:air:a.b:c:d",
                        "displayName": "D",
                        "type": "t",
                        "mediaType": "u",
                        "url": "x",
                    }
                ],
            },
            "catalog-type-alias",
        ),
    ],
)
def test_each_rule(document: dict[str, object], code: str) -> None:
    report = Report()
    catalog_findings(document, report)  # type: ignore[arg-type]
    assert code in {f.code for f in report.findings}


_ENTRY = {
    "identifier": "urn:air:a.b:c:d",
    "displayName": "D",
    "type": A2A_CARD_TYPE,
    "url": "https://a.b/c.json",
}


@pytest.mark.parametrize(
    ("member", "value"),
    [
        ("url", "agents/d/card.json"),  # format: uri is an absolute URI
        ("tags", ["a", 1]),
        ("tags", []),  # the CDDL's [+ tstr]
        ("capabilities", "plan"),
        ("representativeQueries", ["one", {"two": 2}]),
        ("updatedAt", "yesterday"),
        ("updatedAt", "2026-09-01 12:00"),
        ("metadata", {"nested": {"no": 1}}),
        ("metadata", ["x"]),
    ],
)
def test_ard_schema_rules_of_an_entry(member: str, value: Any) -> None:
    clean: dict[str, Any] = {
        "specVersion": "1.0",
        "entries": [{**_ENTRY, "updatedAt": "2026-09-01T12:00:00.5+02:00"}],
    }
    report = Report()
    catalog_findings(clean, report)
    assert report.findings == []
    report = Report()
    catalog_findings({"specVersion": "1.0", "entries": [{**_ENTRY, member: value}]}, report)
    assert [(f.code, f.pointer) for f in report.findings] == [("catalog-ard", f"/entries/0/{member}")]


@pytest.mark.parametrize("member", ["documentationUrl", "logoUrl"])
def test_ard_wants_the_hosts_urls_absolute(member: str) -> None:
    report = Report()
    catalog_findings(
        {"specVersion": "1.0", "entries": [], "host": {"displayName": "H", member: "/docs/"}}, report
    )
    assert [(f.code, f.pointer) for f in report.findings] == [("catalog-ard", f"/host/{member}")]


def test_recognised_by_shape_or_media_type() -> None:
    assert is_catalog({"specVersion": "1.0", "entries": []})
    assert is_catalog({}, "application/ai-catalog+json; charset=utf-8")
    assert not is_catalog(CARD)
    assert not is_catalog([], "application/ai-catalog+json")


def test_cards_beside_a_catalogue_are_checked_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ai-catalog.json").write_text(json.dumps(GOOD))
    (tmp_path / "card.json").write_text(json.dumps({**CARD, "description": ""}))
    status, found = check_json(tmp_path, capsys)
    assert status == 1
    assert {d["file"] for d in found} == {str(tmp_path / "card.json")}
