"""The grade: each quality rule, the score, golden grades of the example cards, check --grade / --min-grade,
the site's badges and catalog.json, and docs/grading.md in step with the weights."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen import cli
from a2a_docgen.catalog import load_card_bytes, load_catalog
from a2a_docgen.diagnostics import CODES
from a2a_docgen.model import Diagnostic
from a2a_docgen.quality import Grade, badge, grade_card, grade_catalog, parse_letter, quality_findings
from a2a_docgen.quality.grade import BANDS, DEFAULT_WEIGHTS, WEIGHTS, Weight, letter_for, score
from a2a_docgen.quality.rules import local_host, reserved_host
from a2a_docgen.render import render_catalog
from a2a_docgen.render.escape import md_inline
from a2a_docgen.render.kinds import build_views
from tests.support.markdown_tokens import inline_text, parse, walk
from tests.test_validate import OAUTH_V1, interface, v03_card, v1_card

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "cards"


def good_card(**members: Any) -> dict[str, Any]:
    """A v1.0 card that earns an A with no point lost."""
    card = v1_card(
        provider={"organization": "Example Org", "url": "https://example.com"},
        documentationUrl="https://example.com/docs",
        iconUrl="https://example.com/icon.png",
    )
    card["skills"] = [
        {
            "id": "answer",
            "name": "Answer",
            "description": "Answers one question about a test suite, with the test names that prove it.",
            "tags": ["qa", "tests"],
            "examples": ["Which tests cover the parser?"],
        }
    ]
    card.update(members)
    return card


def graded(card: dict[str, Any] | str, display: str = "card.json") -> Grade:
    text = card if isinstance(card, str) else json.dumps(card, indent=2, ensure_ascii=False)
    loaded, diagnostics = load_card_bytes(text.encode(), display=display)
    assert loaded is not None
    return grade_card(loaded, diagnostics)


ON_PURPOSE = "reserved-host"
"""The test cards use hosts reserved for examples (``example.com``) on purpose: the tests of that hint look
for it, the others leave it out."""


def hints_of(grade: Grade) -> tuple[Diagnostic, ...]:
    return tuple(h for h in grade.hints if h.code != ON_PURPOSE)


def hint_codes(grade: Grade) -> list[str]:
    return [h.code for h in hints_of(grade)]


def test_a_complete_card_earns_a_clean_a() -> None:
    grade = graded(good_card())
    assert (grade.letter, grade.score, grade.deductions, hints_of(grade)) == ("A", 100, (), ())


# -- each rule ---------------------------------------------------------------------------------------------------


def test_card_members_provider_documentation_icon() -> None:
    card = good_card()
    for key in ("provider", "documentationUrl", "iconUrl"):
        del card[key]
    grade = graded(card)
    assert hint_codes(grade) == ["no-documentation-url", "no-icon", "no-provider"]
    assert all((h.line, h.column, h.pointer, h.severity) == (1, 1, "", "hint") for h in hints_of(grade))
    assert grade.score == 100 - 5 - 2 - 5


def test_a_member_present_but_invalid_is_a_check_finding_not_a_hint() -> None:
    grade = graded(good_card(iconUrl="", documentationUrl=42))
    assert "no-icon" not in hint_codes(grade)
    assert "no-documentation-url" not in hint_codes(grade)
    assert {d.code for d in grade.deductions} >= {"empty-value", "wrong-type"}


def test_skill_rules_are_located_at_what_to_edit() -> None:
    card = good_card()
    base = card["skills"][0]
    card["skills"] = [
        {**base, "id": "a", "examples": []},
        {**base, "id": "b", "description": "Answers.", "tags": ["qa"]},
        {**base, "id": "c"},  # the same description as "a"
        {**base, "id": "d", "description": "D"},
    ]
    text = json.dumps(card, indent=2)
    grade = graded(text)
    found = {(h.code, h.pointer) for h in hints_of(grade)}
    assert found == {
        ("skill-no-examples", "/skills/0"),
        ("skill-description-thin", "/skills/1/description"),
        ("skill-few-tags", "/skills/1/tags"),
        ("skill-description-duplicate", "/skills/2/description"),
        ("skill-description-thin", "/skills/3/description"),
    }
    duplicate = next(h for h in hints_of(grade) if h.code == "skill-description-duplicate")
    assert '"c"' in duplicate.message
    assert '"a"' in duplicate.message
    line = text.splitlines()[duplicate.line - 1]
    assert line[duplicate.column - 1 :].startswith('"Answers one question')


def test_near_duplicate_descriptions_differ_by_a_word() -> None:
    card = good_card()
    base = card["skills"][0]
    longer = "Finds the flights between two airports on one day and lists them by price, with the airline"
    card["skills"] = [
        {**base, "id": "a", "description": longer + " and the stops."},
        {**base, "id": "b", "description": longer + " and the stop."},
        {**base, "id": "c", "description": "Books one of the flights found, with the traveller's details."},
    ]
    assert [(h.code, h.pointer) for h in hints_of(graded(card))] == [
        ("skill-description-duplicate", "/skills/1/description")
    ]


@pytest.mark.parametrize(
    ("description", "thin"),
    [
        ("Answers one question.", True),
        ("Answer", True),  # repeats the name
        ("Create, read, update, and delete tasks", False),
        ("最近の分析結果一覧を取得する（フィード）", False),
        ("깔끔하고 읽기 쉬운 마크다운 문서를 생성합니다", False),
        ("検索", True),
    ],
)
def test_thin_descriptions_count_letters_of_every_script(description: str, thin: bool) -> None:
    card = good_card()
    card["skills"][0]["description"] = description
    assert ("skill-description-thin" in hint_codes(graded(card))) is thin


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://localhost:10000/", "localhost"),
        ("https://127.0.0.1/a2a", "127.0.0.1"),
        ("http://0.0.0.0:8080", "0.0.0.0"),
        ("http://192.168.1.20:8000/", "192.168.1.20"),
        ("https://agent.internal/a2a", "agent.internal"),
        ("localhost:50051", "localhost"),
        ("[::1]:50051", "::1"),
        ("https://agent.example.com/a2a", None),
        ("grpc.example.com:443", None),
        ("https://8.8.8.8/", None),
        ("not a url", None),
    ],
)
def test_local_hosts(url: str, local: str | None) -> None:
    assert local_host(url) == local


def test_a_local_interface_is_a_hint_at_its_url_and_http_elsewhere_a_warning() -> None:
    card = good_card(
        supportedInterfaces=[
            interface("http://localhost:9999/a2a"),
            interface("http://agent.example.com/a2a", "HTTP+JSON"),
        ]
    )
    grade = graded(card)
    assert [(h.code, h.pointer) for h in hints_of(grade)] == [
        ("interface-local", "/supportedInterfaces/0/url")
    ]
    assert {(d.code, d.points) for d in grade.deductions} == {("interface-local", 10), ("url-not-https", 6)}
    assert grade.letter == "B"


@pytest.mark.parametrize(
    ("url", "reserved"),
    [
        ("https://example.com", "example.com"),
        ("https://agent.example.org/a2a", "agent.example.org"),
        ("https://EXAMPLE.NET./docs", "example.net"),
        ("https://agent.invalid/a2a", "agent.invalid"),
        ("http://stage.agent.test:8080/", "stage.agent.test"),
        ("https://my-agent.example/", "my-agent.example"),
        ("wss://agent.example.com/stream", "agent.example.com"),
        ("grpc.example.com:443", "grpc.example.com"),
        ("http://dev.localhost/", "dev.localhost"),
        ("https://notexample.com/", None),
        ("https://example.com.evil.dev/", None),
        ("https://a2a.acme.dev/", None),
        ("https://test.acme.dev/", None),
        ("https://8.8.8.8/", None),
        ("not a url", None),
    ],
)
def test_reserved_hosts(url: str, reserved: str | None) -> None:
    assert reserved_host(url) == reserved


def _published(**members: Any) -> dict[str, Any]:
    """``good_card`` with every URL on a host that is not reserved, then ``members``."""
    card = good_card(
        supportedInterfaces=[interface("https://a2a.acme.dev/a2a")],
        provider={"organization": "Acme", "url": "https://acme.dev"},
        documentationUrl="https://acme.dev/docs",
    )
    card.update(members)
    return card


def test_a_published_card_on_real_hosts_has_no_reserved_host_hint() -> None:
    grade = graded(_published(iconUrl="https://example.com/icon.png"))  # the icon is not read
    assert (grade.score, grade.deductions, grade.hints) == (100, (), ())


def test_reserved_hosts_are_one_finding_at_the_first_url_naming_the_first_three() -> None:
    card = _published(
        supportedInterfaces=[
            interface("https://a2a.acme.dev/a2a"),
            interface("https://agent.example.com/a2a", "HTTP+JSON"),
        ],
        documentationUrl="https://docs.agent.test/",
        securitySchemes=OAUTH_V1,
        securityRequirements=[{"schemes": {"oauth": {"list": ["read"]}}}],
    )
    text = json.dumps(card, indent=2)
    grade = graded(text)
    (hint,) = grade.hints
    assert (hint.code, hint.severity, hint.pointer) == ("reserved-host", "hint", "/supportedInterfaces/1/url")
    line = text.splitlines()[hint.line - 1]
    assert line[hint.column - 1 :].startswith('"https://agent.example.com/a2a"')
    assert hint.message.startswith("4 URLs are on hosts reserved for examples and tests")
    assert hint.message.endswith(
        'clients will use; "https://agent.example.com/a2a", "https://docs.agent.test/", '
        '"https://auth.example.com/authorize" and 1 more'
    )
    assert (grade.letter, grade.score, grade.deductions) == ("A", 100, ())  # said, not weighed


def test_an_oauth_url_alone_is_found_and_localhost_stays_interface_local() -> None:
    card = _published(
        supportedInterfaces=[interface("http://localhost:9999/a2a")],
        securitySchemes=OAUTH_V1,
        securityRequirements=[{"schemes": {"oauth": {"list": ["read"]}}}],
    )
    found = {(h.code, h.pointer) for h in graded(card).hints}
    assert found == {
        ("interface-local", "/supportedInterfaces/0/url"),
        (
            "reserved-host",
            "/securitySchemes/oauth/oauth2SecurityScheme/flows/authorizationCode/authorizationUrl",
        ),
    }
    assert "2 URLs are" in next(h.message for h in graded(card).hints if h.code == "reserved-host")


def test_a_v03_card_is_graded_at_its_own_members() -> None:
    card = v03_card(url="http://127.0.0.1:8000/")
    grade = graded(card)
    assert ("interface-local", "/url") in {(h.code, h.pointer) for h in hints_of(grade)}


def _fetched(tmp_path: Path, url: str, requested: str) -> Grade:
    (tmp_path / "agent.json").write_text(json.dumps(good_card(), indent=2))
    (tmp_path / "agent.fetch.json").write_text(json.dumps({"url": url, "requested": requested}))
    catalog = load_catalog([tmp_path])
    assert [card.source.fetched is not None for card in catalog.cards] == [True]
    return grade_catalog(catalog)[catalog.cards[0].source.path]


def test_a_card_fetch_found_only_at_the_legacy_path(tmp_path: Path) -> None:
    grade = _fetched(tmp_path, "https://a.example.com/.well-known/agent.json", "https://a.example.com/")
    assert hint_codes(grade) == ["legacy-card-path"]
    assert grade.score == 95


@pytest.mark.parametrize(
    ("url", "requested"),
    [
        ("https://a.example.com/.well-known/agent-card.json", "https://a.example.com"),
        ("https://a.example.com/.well-known/agent.json", "https://a.example.com/.well-known/agent.json"),
    ],
)
def test_a_card_at_the_current_path_or_asked_for_at_the_legacy_one(
    tmp_path: Path, url: str, requested: str
) -> None:
    assert hint_codes(_fetched(tmp_path, url, requested)) == []


def test_a_broken_sidecar_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "agent.json").write_text(json.dumps(good_card()))
    (tmp_path / "agent.fetch.json").write_text("[not json")
    catalog = load_catalog([tmp_path])
    assert catalog.cards[0].source.fetched is None
    assert catalog.diagnostics == ()


# -- the score ------------------------------------------------------------------------------------------------------


def finding(code: str, severity: Any = "warning", pointer: str = "") -> Diagnostic:
    return Diagnostic(severity=severity, code=code, message="m", file="f", line=1, column=1, pointer=pointer)


def test_caps_defaults_and_the_error_ceiling() -> None:
    five_examples = [finding("skill-no-examples", "hint")] * 5
    assert score(five_examples).score == 85  # 5 x 5, at most 15
    assert score([finding("legacy-field")] * 4).score == 91  # the default warning weight: 3, at most 9
    one_error = score([finding("required-missing", "error")])
    assert (one_error.letter, one_error.score, one_error.capped) == ("D", 69, True)
    codes = ("wrong-type", "url-invalid", "required-missing")
    many = score([finding(c, "error", f"/{member}") for c in codes for member in ("name", "url", "version")])
    assert (many.letter, many.score) == ("F", 0)
    assert [d.points for d in many.deductions] == [45, 45, 45]
    # An error of a code that is also a warning weighs as an error.
    assert score([finding("media-type-invalid", "error")]).deductions[0].points == 15


def test_one_rule_broken_in_every_skill_costs_what_it_costs_once() -> None:
    no_skills = v1_card()
    del no_skills["skills"]
    untagged = good_card()
    untagged["skills"] = [dict(untagged["skills"][0], id=f"s{i}") for i in range(3)]
    for skill in untagged["skills"]:
        del skill["tags"]
    untagged["skills"][1]["description"] = (
        "Answers another question about a test suite, with the names that prove it."
    )
    untagged["skills"][2]["description"] = (
        "Explains why a test failed, with the log lines and the change to blame."
    )
    lost = {d.code: d.points for d in graded(untagged).deductions}
    assert lost == {"required-missing": 15}
    assert graded(no_skills).deductions[0].points >= lost["required-missing"]
    distinct = score(
        [finding("required-missing", "error", p) for p in ("/skills/0/tags", "/name", "/version")]
    )
    assert distinct.deductions[0].points == 45  # three rules: each costs its own


def test_unknown_members_are_one_light_finding_per_object() -> None:
    card = good_card()
    card["skills"][0].update({f"x-vendor-{i}": i for i in range(12)})
    card["capabilities"] = {"streamin": True}
    grade = graded(card)
    text = json.dumps(card, indent=2, ensure_ascii=False)
    _, diagnostics = load_card_bytes(text.encode(), display="card.json")
    unknown = [d for d in diagnostics if d.code == "unknown-field"]
    assert [d.pointer for d in unknown] == ["/capabilities/streamin", "/skills/0/x-vendor-0"]
    assert "12 members" in unknown[1].message
    assert '"x-vendor-7"' in unknown[1].message
    assert "and 2 more" in unknown[1].message
    assert 'did you mean "streaming"' in unknown[0].message
    assert {d.code: d.points for d in grade.deductions} == {"unknown-field": 2}
    assert grade.letter == "A"


@pytest.mark.parametrize(
    ("points", "letter"), [(100, "A"), (90, "A"), (89, "B"), (70, "C"), (60, "D"), (59, "F")]
)
def test_bands(points: int, letter: str) -> None:
    assert letter_for(points) == letter


def test_min_grade_letters() -> None:
    assert parse_letter(" b ") == "B"
    with pytest.raises(ValueError, match="A, B, C, D, F"):
        parse_letter("E")


# -- golden grades ---------------------------------------------------------------------------------------------------

GOLDEN_GRADES = {
    "harbour-transit-route-planner.json": ("A", 98),
    "ledger-expense-assistant.json": ("A", 98),
    "support-desk-triage.json": ("A", 98),
    "unit-converter.json": ("B", 88),
}


def test_golden_grades_of_the_example_catalogue() -> None:
    grades = grade_catalog(load_catalog([EXAMPLES]))
    assert {Path(path).name: (g.letter, g.score) for path, g in grades.items()} == GOLDEN_GRADES
    units = next(g for path, g in grades.items() if path.endswith("unit-converter.json"))
    assert [(d.code, d.points) for d in units.deductions] == [
        ("no-documentation-url", 5),
        ("no-provider", 5),
        ("no-icon", 2),
    ]


def test_quality_findings_are_registered_hints_with_a_fix() -> None:
    card, _ = load_card_bytes(json.dumps(v03_card(url="http://localhost:1/")).encode(), display="x.json")
    assert card is not None
    found = quality_findings(card)
    assert found
    for d in found:
        assert CODES[d.code].severities == ("hint",)
        assert d.severity == "hint"
        assert ":" in d.message or ";" in d.message


def test_hints_are_words_a_page_shows_whole() -> None:
    """A hint is text for people: on a page it reads as written, with no code span cut out of its middle."""
    card = v03_card(url="http://localhost:1/")
    card["skills"] = [
        dict(card["skills"][0], id=f"s{i}", examples=[], description="Short.") for i in range(2)
    ]
    loaded, _ = load_card_bytes(json.dumps(card).encode(), display="x.json")
    assert loaded is not None
    found = quality_findings(loaded)
    assert {"no-provider", "no-documentation-url", "no-icon", "skill-no-examples"} <= {d.code for d in found}
    for d in found:
        rendered = md_inline(d.message, max_len=1000)
        chips = [t.content for t in walk(parse(rendered)) if t.type == "code_inline"]
        # A card's URL may be a code span of its own, never a piece of a JSON snippet.
        assert all(not set(chip) & set('"{}[],') for chip in chips), (d.code, rendered)
        assert inline_text(rendered) == [d.message]


# -- check --grade, --min-grade ------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_without_grade_reports_no_hint(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", str(EXAMPLES))
    assert (code, out) == (0, "")
    assert err.strip() == "4 files, 0 errors, 0 warnings"


def test_check_grade_reports_hints_and_a_line_per_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "--grade", str(EXAMPLES))
    assert code == 0
    lines = out.splitlines()
    grades = [line for line in lines if " card-grade " in line]
    assert len(grades) == 4
    (units,) = [line for line in grades if "unit-converter.json" in line]
    assert units.endswith(
        "unit-converter.json:1:1: hint card-grade grade B (88/100); points lost: -5 no-documentation-url, "
        "-5 no-provider, -2 no-icon; an A needs 90 points without errors (see docs/grading.md)"
    )
    assert err.strip() == (
        "by code: 4 no-icon, 3 reserved-host, 1 no-documentation-url, 1 no-provider\n"
        "4 files, 0 errors, 0 warnings, 13 hints; grades: 3 A, 1 B"
    )


def test_check_min_grade_fails_below_it_with_a_message_per_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "--min-grade", "A", str(EXAMPLES))
    assert code == 1
    errors = [line for line in out.splitlines() if ": error " in line]
    assert len(errors) == 1
    assert "unit-converter.json:1:1: error card-grade grade B (88/100) is below the minimum A" in errors[0]
    assert err.strip().endswith("grades: 3 A, 1 B; 1 below A")
    code, _, err = run(capsys, "check", "--min-grade", "b", str(EXAMPLES))
    assert code == 0
    assert err.strip().endswith("all B or better")


def test_check_min_grade_json_and_github(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--min-grade", "A", "--format", "json", str(EXAMPLES))
    assert code == 1
    data = json.loads(out)
    assert {d["severity"] for d in data} == {"hint", "error"}
    assert [d["code"] for d in data if d["severity"] == "error"] == ["card-grade"]
    _, out, _ = run(capsys, "check", "--grade", "--format", "github", str(EXAMPLES))
    assert out.splitlines()
    assert all(line.startswith("::notice ") for line in out.splitlines())


def test_strict_does_not_count_hints(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "check", "--grade", "--strict", str(EXAMPLES))
    assert code == 0


def test_bad_min_grade_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "--min-grade", "Z", str(EXAMPLES))
    assert code == 2
    assert "expected a grade" in err


def test_check_grade_layers_import_no_renderer() -> None:
    from tests.test_layers import run_cli

    loaded = run_cli("check", "--grade", str(EXAMPLES))
    assert "a2a_docgen.quality" in loaded
    assert not any(name.startswith(("a2a_docgen.render", "a2a_docgen.fetch", "jinja2")) for name in loaded)


# -- the site ------------------------------------------------------------------------------------------------------


def test_badges_catalog_json_and_views_carry_the_grade() -> None:
    catalog = load_catalog([EXAMPLES])
    site = render_catalog(catalog)
    badges = {path: json.loads(data) for path, data in site.files.items() if path.startswith("badges/")}
    assert len(badges) == 4
    assert all(re.fullmatch(r"badges/[a-z0-9-]+-[0-9a-f]{10}\.json", path) for path in badges)
    assert sorted(b["message"] for b in badges.values()) == ["A", "A", "A", "B"]
    assert {json.dumps(b, sort_keys=True) for b in badges.values()} == {
        json.dumps(
            {"schemaVersion": 1, "label": "A2A card", "message": "A", "color": "brightgreen"}, sort_keys=True
        ),
        json.dumps(
            {"schemaVersion": 1, "label": "A2A card", "message": "B", "color": "green"}, sort_keys=True
        ),
    }
    data = json.loads(site.files["catalog.json"])
    for agent in data["agents"]:
        grade = agent["grade"]
        assert grade["badge"] in badges
        assert badges[grade["badge"]]["message"] == grade["letter"]
    views = build_views(catalog)
    for agent in views.agents:
        assert agent.grade is not None
        assert agent.badge_json == views.addresses.agent(agent.card).badge
        assert type(agent.grade.letter) is str  # plain text: a template may print it as is
    assert [a.grade.letter for a in views.agents if a.grade] == ["A", "A", "A", "B"]


def test_a_page_shows_a_hint_that_costs_nothing_and_no_empty_list_of_losses(tmp_path: Path) -> None:
    (tmp_path / "agent.json").write_text(json.dumps(good_card(), indent=2))
    site = render_catalog(load_catalog([tmp_path]))
    (page,) = [text for path, text in site.pages.items() if re.fullmatch(r"agents/[^/]+/index\.md", path)]
    quality = page.split("### Card quality", 1)[1]
    assert "Grade A, 100 points of 100." in quality
    assert "Points lost" not in quality
    (hint,) = [line for line in quality.splitlines() if line.startswith("- ")]
    assert inline_text(hint[2:]) == [graded(good_card()).hints[0].message]


def test_badge_colours() -> None:
    colours = {}
    for letter, lowest in BANDS:
        grade = Grade(file="f", letter=letter, score=lowest, deductions=(), hints=(), capped=False)
        colours[letter] = badge(grade)["color"]
    assert colours == {"A": "brightgreen", "B": "green", "C": "yellow", "D": "orange", "F": "red"}


# -- docs/grading.md -------------------------------------------------------------------------------------------------

ROW = re.compile(
    r"^\| (`(?P<code>[a-z0-9-]+)`|any (?P<any>error|other warning)) \| (?P<severity>\w+) \| (?P<points>\d+) \| "
    r"(?P<cap>\d+) \| (?P<per_rule>\d+|-) \|"
)


def test_grading_docs_list_every_rule_with_its_weight() -> None:
    rows: dict[str, tuple[str, Weight]] = {}
    for line in (REPO / "docs" / "grading.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            key = match["code"] or match["any"]
            per_rule = None if match["per_rule"] == "-" else int(match["per_rule"])
            rows[key] = (match["severity"], Weight(int(match["points"]), int(match["cap"]), per_rule))
    assert rows.pop("error") == ("error", DEFAULT_WEIGHTS["error"])
    assert rows.pop("other warning") == ("warning", DEFAULT_WEIGHTS["warning"])
    assert rows == {code: (CODES[code].severities[0], w) for code, w in WEIGHTS.items()}
    hints = {name for name, code in CODES.items() if code.severities == ("hint",)}
    assert hints <= set(WEIGHTS), "every quality rule has its own weight"
