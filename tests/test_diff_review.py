"""What a review must never get wrong in CI: a card clients cannot read, matching, renames, false
positives, where findings are shown, the big comment, fingerprints, the changelog and GitHub's autolinks."""

from __future__ import annotations

import copy
import html.parser
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.cli import main
from a2a_docgen.load.source import PositionIndex, resolve_pointer
from a2a_docgen.review.changelog import change_kind, changelog_markdown
from a2a_docgen.review.codes import DOCS_URL, REGISTRY
from a2a_docgen.review.comment import format_comment
from a2a_docgen.review.diff import Change
from a2a_docgen.review.markdown import comment_text
from a2a_docgen.review.report import ReviewReport

try:
    from tests.support import sdk_oracle as oracle
except ModuleNotFoundError:  # only tests/ is on sys.path, not the repository root
    from support import sdk_oracle as oracle  # type: ignore[no-redef]

DATA = Path(__file__).parent / "data" / "diff"
BASE = DATA / "base"

Card = dict[str, Any]


@pytest.fixture(autouse=True)
def _no_github_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA", "GITHUB_WORKSPACE", "GITHUB_RUN_ID"):
        monkeypatch.delenv(name, raising=False)


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main(["diff", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def weather() -> Card:
    card: Card = json.loads((BASE / "weather.json").read_text(encoding="utf-8"))
    return card


def write(path: Path, card: Card | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(card if isinstance(card, str) else json.dumps(card, indent=2), encoding="utf-8")
    return path


def sides(tmp_path: Path, base: Card | str, head: Card | str, name: str = "agent.json") -> tuple[Path, Path]:
    return write(tmp_path / "base" / name, base).parent, write(tmp_path / "head" / name, head).parent


def json_report(capsys: pytest.CaptureFixture[str], base: Path, head: Path, *argv: str) -> dict[str, Any]:
    _, out, _ = run(capsys, base, head, "--format", "json", "--no-config", *argv)
    report: dict[str, Any] = json.loads(out)
    return report


def codes(report: dict[str, Any]) -> set[tuple[str, str | None, str]]:
    return {(c["code"], c["skill"], c["severity"]) for c in report["changes"]}


# -- a head card clients cannot read is breaking, in every format ------------------------------------------


def _set(path: str, value: object) -> Callable[[Card], None]:
    def edit(card: Card) -> None:
        *parents, last = path.split("/")
        target: Any = card
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return edit


SDK_UNREADABLE: dict[str, Callable[[Card], None] | str] = {
    "examples as a string": _set("skills/0/examples", "What is the weather in Paris?"),
    "version as a number": _set("version", 1),
    "streaming as a string": _set("capabilities/streaming", "false"),
    "tags as a string": _set("skills/0/tags", "weather"),
    "default input modes as a string": _set("defaultInputModes", "text/plain"),
    "name as a list": _set("name", ["Weather Agent"]),
    "interfaces as an object": _set("supportedInterfaces", {"url": "https://weather.example.com/a2a"}),
    "not JSON": '{"name": "Weather Agent", "skills": [',
}


@pytest.mark.parametrize("case", list(SDK_UNREADABLE))
def test_a_head_the_sdk_cannot_parse_is_breaking_in_every_format(
    case: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    oracle.skip_unless_sdk()
    base = weather()
    edit = SDK_UNREADABLE[case]
    if isinstance(edit, str):
        head: Card | str = edit
    else:
        head = copy.deepcopy(base)
        edit(head)
        with pytest.raises(oracle.SdkConversionError):  # the oracle: the SDK's parse_agent_card refuses it
            oracle.sdk_convert_v03_card_resolver(head)
    oracle.sdk_convert_v03_card_resolver(base)  # and reads the base
    b, h = sides(tmp_path, base, head)

    report = json_report(capsys, b, h)
    unreadable = [c for c in report["changes"] if c["code"] in ("card-error-added", "card-unreadable")]
    assert unreadable, report["changes"]
    assert all(c["severity"] == "breaking" and c["agent"] == "Weather Agent" for c in unreadable)
    assert report["summary"]["breaking"] >= 1
    if isinstance(edit, str):
        assert [f["file"] for f in report["loadErrors"]] == [str(h / "agent.json")]
    for output_format in ("text", "json", "markdown", "github", "changelog"):
        code, out, _ = run(capsys, b, h, "--format", output_format, "--no-config")
        assert code == 1, output_format
        assert "card-error-added" in out or "card-unreadable" in out, output_format
    _, out, _ = run(capsys, b, h, "--format", "markdown", "--skip-empty", "--no-config")
    assert out.splitlines()[1].startswith("### ❌ ")
    assert "No breaking changes" not in out


def test_a_version_that_is_no_string_is_an_error_not_a_removal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = weather()
    head["version"] = 1
    found = codes(json_report(capsys, *sides(tmp_path, weather(), head)))
    assert found == {("card-error-added", None, "breaking")}


def test_an_error_that_was_there_before_is_not_new(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = weather()
    _set("skills/0/examples", "What is the weather?")(base)
    head = copy.deepcopy(base)
    head["description"] = "Another description, two lines longer\n\n\n"
    b, h = sides(tmp_path, base, head)
    assert codes(json_report(capsys, b, h)) == {("description-changed", None, "info")}


def test_an_error_whose_index_moved_is_not_new(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = weather()
    _set("skills/0/examples", "What is the weather?")(base)
    head = copy.deepcopy(base)
    head["skills"].insert(0, {**copy.deepcopy(base["skills"][1]), "id": "first", "name": "First"})
    found = codes(json_report(capsys, *sides(tmp_path, base, head)))
    assert {code for code, _, _ in found} == {"skill-added"}


def test_a_new_card_file_that_does_not_load_is_breaking(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    b, h = sides(tmp_path, weather(), weather())
    write(h / "new.json", "[1, 2")
    report = json_report(capsys, b, h)
    [unreadable] = report["changes"]
    assert (unreadable["code"], unreadable["agent"], unreadable["severity"]) == (
        "card-unreadable",
        "new.json",
        "breaking",
    )
    assert unreadable["message"].startswith("the file does not load as a card")
    # ... but one that failed in the base as well is not new
    write(b / "new.json", "{")
    assert json_report(capsys, b, h)["changes"] == []


# -- a side without cards ------------------------------------------------------------------------------


def test_a_side_without_card_files_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, tmp_path / "empty", BASE)
    assert code == 2
    assert "no card files (*.json) in" in err
    assert "--allow-empty-base" in err
    code, _, err = run(capsys, BASE, tmp_path / "empty")
    assert code == 2
    assert "--allow-empty-head" in err
    code, out, _ = run(capsys, tmp_path / "empty", BASE, "--allow-empty-base", "--format", "json")
    assert code == 0
    assert {c["code"] for c in json.loads(out)["changes"]} == {"agent-added"}


def test_both_sides_without_card_files_is_a_usage_error_whatever_is_allowed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A workflow allows either side to be empty (first cards added, last ones removed); a path with no
    cards on either side is still wrong, never "No changes"."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    code, out, err = run(capsys, tmp_path / "a", tmp_path / "b", "--allow-empty-base", "--allow-empty-head")
    assert (code, out) == (2, "")
    assert "no card files (*.json) found in" in err


# -- matching ------------------------------------------------------------------------------------------


def _agent(name: str, url: str) -> Card:
    card = weather()
    card["name"] = name
    card["supportedInterfaces"][0]["url"] = url
    return card


def test_a_name_reused_at_a_new_url_is_a_new_agent_not_a_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    desk = _agent("Support Desk", "https://support.example.com/a2a")
    b = write(tmp_path / "base" / "desk.json", desk).parent
    h = write(
        tmp_path / "head" / "desk.json", _agent("Support Desk (Legacy)", "https://support.example.com/a2a")
    )
    write(h.parent / "v2.json", _agent("Support Desk", "https://support-v2.example.com/a2a"))
    report = json_report(capsys, b, h.parent)
    found = {(c["code"], c["agent"]) for c in report["changes"]}
    assert ("agent-renamed", "Support Desk (Legacy)") in found
    assert ("agent-added", "Support Desk") in found
    assert not any(c["code"] == "interface-url-changed" for c in report["changes"])


def test_a_host_that_only_changes_case_is_no_change(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = weather()
    head = copy.deepcopy(base)
    url = head["supportedInterfaces"][0]["url"]
    scheme, rest = url.split("://", 1)
    host, _, path = rest.partition("/")
    head["supportedInterfaces"][0]["url"] = f"{scheme.upper()}://{host.upper()}/{path}"
    assert codes(json_report(capsys, *sides(tmp_path, base, head))) == set()
    # the path is case-sensitive
    head["supportedInterfaces"][0]["url"] = f"{scheme}://{host}/{path.upper()}X"
    assert ("interface-url-changed", None, "breaking") in codes(
        json_report(capsys, *sides(tmp_path, base, head))
    )


# -- renames -------------------------------------------------------------------------------------------


def _rename_scheme(card: Card, old: str, new: str) -> None:
    card["securitySchemes"][new] = card["securitySchemes"].pop(old)

    def rename(requirements: list[dict[str, Any]]) -> None:
        for requirement in requirements:
            schemes = requirement.get("schemes", requirement)
            if old in schemes:
                schemes[new] = schemes.pop(old)

    rename(card.get("securityRequirements", []))
    for skill in card["skills"]:
        rename(skill.get("securityRequirements", []))


def test_a_scheme_renamed_with_the_same_definition_says_why_it_breaks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = weather()
    head = copy.deepcopy(base)
    _rename_scheme(head, "oauth", "oauth2")
    report = json_report(capsys, *sides(tmp_path, base, head))
    contract = {(c, s, v) for c, s, v in codes(report) if c != "version-not-bumped"}
    assert contract == {("scheme-renamed", None, "breaking")}
    [renamed] = [c for c in report["changes"] if c["code"] == "scheme-renamed"]
    assert (renamed["before"], renamed["after"]) == ("oauth", "oauth2")
    assert "clients look credentials up by scheme name" in renamed["message"]
    # A scheme whose definition changed as well is no rename: removed and added, as before.
    head["securitySchemes"]["oauth2"]["oauth2SecurityScheme"]["description"] = "another one"
    assert ("scheme-renamed", None, "breaking") not in codes(
        json_report(capsys, *sides(tmp_path, base, head))
    )


def test_a_requirement_lost_with_a_renamed_scheme_is_named_as_the_base_wrote_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A scheme renamed while a requirement stops being satisfiable: the alternative clients lose is the
    one they know, under the base card's scheme name (not the new name they never used)."""
    base = weather()
    head = copy.deepcopy(base)
    _rename_scheme(head, "oauth", "oauth2")
    head["securitySchemes"]["key"] = {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}}
    head["securityRequirements"] = [{"schemes": {"key": {"list": []}}}]
    changes = json_report(capsys, *sides(tmp_path, base, head))["changes"]
    lost = [c for c in changes if c["code"] == "security-alternative-removed" and c["skill"] is None]
    assert lost, [c["code"] for c in changes]
    for change in lost:
        assert '"oauth"' in change["message"]
        assert '"oauth2"' not in change["message"]
        assert "oauth" in change["before"]


def test_a_changed_skill_id_is_one_finding(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = weather()
    head = copy.deepcopy(base)
    old_id = head["skills"][0]["id"]
    head["skills"][0]["id"] = old_id + "-v2"
    report = json_report(capsys, *sides(tmp_path, base, head))
    contract = {(c, s, v) for c, s, v in codes(report) if c != "version-not-bumped"}
    assert contract == {("skill-id-changed", old_id + "-v2", "breaking")}
    [moved] = [c for c in report["changes"] if c["code"] == "skill-id-changed"]
    assert (moved["before"], moved["after"], moved["pointer"]) == (old_id, old_id + "-v2", "/skills/0/id")


def test_a_requirement_naming_an_undeclared_scheme_accepts_nobody(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = weather()
    head = copy.deepcopy(base)
    head["securityRequirements"].append({"schemes": {"oatuh": {"list": []}}})  # a typo
    found = codes(json_report(capsys, *sides(tmp_path, base, head)))
    assert not any(code == "security-alternative-added" for code, _, _ in found)
    # Replacing the only working requirement by the typo removes the way to authenticate.
    head["securityRequirements"] = [{"schemes": {"oatuh": {"list": ["forecast"]}}}]
    found = codes(json_report(capsys, *sides(tmp_path, base, head)))
    assert ("security-alternative-removed", None, "breaking") in found


# -- where findings are shown --------------------------------------------------------------------------


def _line_of(path: Path, pointer: str) -> int:
    return PositionIndex.build(path.read_text(encoding="utf-8")).locate(pointer)[0]


def test_security_and_mode_findings_are_shown_on_the_element_that_changed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = weather()
    base["securityRequirements"] = [
        {"schemes": {"oauth": {"list": ["forecast"]}}},
        {"schemes": {"oauth": {"list": ["alerts"]}}},
    ]
    base["defaultInputModes"] = ["text/plain", "application/json", "image/png"]
    head = copy.deepcopy(base)
    head["securityRequirements"][1]["schemes"]["oauth"]["list"].append("admin")
    head["defaultInputModes"].append("audio/wav")
    b, h = sides(tmp_path, base, head)
    report = json_report(capsys, b, h)
    by_code = {c["code"]: c for c in report["changes"]}
    scope = by_code["security-scope-required"]
    assert scope["line"] == _line_of(h / "agent.json", "/securityRequirements/1")
    assert scope["line"] != _line_of(h / "agent.json", "/securityRequirements")
    added = by_code["input-mode-added"]
    assert added["line"] == _line_of(h / "agent.json", "/defaultInputModes/3")
    _, out, _ = run(capsys, b, h, "--format", "github", "--no-config")
    assert f"line={scope['line']}," in next(
        line for line in out.splitlines() if "security-scope-required" in line
    )


def test_scheme_and_skill_field_findings_are_shown_on_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = weather()
    base["skills"][0]["tags"] = ["a", "b", "c", "d", "e", "f"]
    head = copy.deepcopy(base)
    flow = "/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials"
    head["securitySchemes"]["oauth"]["oauth2SecurityScheme"]["flows"]["clientCredentials"]["tokenUrl"] = (
        "https://auth2.weather.example.net/token"
    )
    head["skills"][0]["tags"][4] = "E"
    b, h = sides(tmp_path, base, head)
    by_code = {c["code"]: c for c in json_report(capsys, b, h)["changes"]}
    assert by_code["oauth-url-changed"]["pointer"] == flow  # what the finding is about, for acceptances
    assert by_code["oauth-url-changed"]["line"] == _line_of(h / "agent.json", flow + "/tokenUrl")
    assert by_code["tags-changed"]["line"] == _line_of(h / "agent.json", "/skills/0/tags/4")


# -- the comment on big changes, as GitHub renders it -----------------------------------------------------


def _finding(agent: str, index: int, severity: str, code: str) -> Change:
    return Change(
        agent=agent,
        skill=f"s{index}",
        severity=severity,  # type: ignore[arg-type]
        code=code,
        message=f"change number {index}",
        pointer=f"/skills/{index}",
        before=None,
        after=f"s{index}",
        side="head",
        file="cards/a.json",
        line=index + 1,
        column=1,
    )


class _Html(html.parser.HTMLParser):
    """The text GitHub post-processes (outside links and code) and which rows sit inside ``<details>``."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.text: list[str] = []
        self.folded_rows = 0
        self.open_rows = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.append(tag)
        if tag == "tr" and "tbody" in self.open:
            if "details" in self.open:
                self.folded_rows += 1
            else:
                self.open_rows += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        if not {"a", "code", "pre"} & set(self.open):
            self.text.append(data)


def _github(markdown: str) -> _Html:
    cmarkgfm = pytest.importorskip("cmarkgfm")
    from cmarkgfm.cmark import Options

    rendered = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    parser = _Html()
    parser.feed(rendered)
    return parser


def test_a_big_comment_keeps_breaking_changes_open_and_folds_the_rest() -> None:
    breaking = [_finding(f"Agent {i % 7}", i, "breaking", "skill-removed") for i in range(60)]
    policy = [_finding(f"Agent {i}", 0, "breaking", "version-not-bumped") for i in range(7)]
    rest = [_finding(f"Agent {i % 7}", i, "info", "description-changed") for i in range(40)]
    report = ReviewReport(
        changes=[*breaking, *policy, *rest], full_report_url="https://github.com/o/r/actions/runs/1"
    )
    page = _github(format_comment(report))
    assert page.open_rows == 60  # every breaking change in view
    assert page.folded_rows == 0
    markdown = format_comment(report)
    assert markdown.index("change number 59") < markdown.index(
        "<details><summary>Version policy (7 findings)"
    )
    assert "#### Version policy" not in markdown
    assert markdown.count("<details>") == 1 + 7  # the version policy, then each agent's other changes

    many = [_finding(f"Agent {i % 3}", i, "breaking", "skill-removed") for i in range(1200)]
    capped = format_comment(
        ReviewReport(changes=many, full_report_url="https://github.com/o/r/actions/runs/1")
    )
    assert len(capped) < 65_536
    assert "the [full report](https://github.com/o/r/actions/runs/1) lists them." in capped
    assert "job log" not in capped
    _github(capped)  # renders


# -- card text on GitHub: no mention, issue reference or emoji ---------------------------------------------

MENTION = re.compile(r"(?:^|[^\w`])@[A-Za-z0-9][A-Za-z0-9-]*")
ISSUE = re.compile(r"(?:^|[^\w&])#\d+|[\w.-]+/[\w.-]+#\d+|\bGH-\d+", re.IGNORECASE)
EMOJI = re.compile(r":[a-z0-9_+-]+:")

HOSTILE_TEXTS = [
    "&#64;octocat",
    "@octocat",
    "ping @org/team",
    "&#35;1",
    "#12",
    "owner/repo&#35;1",
    "owner/repo#1",
    "GH-7",
    "&#58;rotating_light&#58;",
    ":rotating_light:",
    "&#x40;octocat &#X23;2",
    "mail admin@example.com",
]


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_card_text_in_the_comment_pings_nobody_and_links_no_issue(text: str) -> None:
    change = Change(
        agent=text,
        skill=text,
        severity="breaking",
        code="skill-removed",
        message=f"the skill is gone ({text}); clients that call it fail",
        pointer="/skills/0",
        before=text,
        after=None,
        side="base",
        file="cards/a.json",
        line=3,
        column=1,
    )
    info = Change(**{**{f: getattr(change, f) for f in Change.__dataclass_fields__}, "severity": "info"})
    for markdown in (
        format_comment(ReviewReport(changes=[change, info] * 15)),  # folded lists too
        changelog_markdown([change, info]),
    ):
        shown = "".join(_github(markdown).text)
        assert not MENTION.search(shown), shown
        assert not ISSUE.search(shown), shown
        assert not EMOJI.search(shown), shown


def test_inert_text_still_reads_as_written() -> None:
    cmarkgfm = pytest.importorskip("cmarkgfm")
    for text in HOSTILE_TEXTS:
        rendered = cmarkgfm.github_flavored_markdown_to_html(comment_text(text))
        shown = html.unescape(re.sub(r"<[^>]+>", "", rendered)).strip().replace("\u200b", "")
        assert shown == text


# -- text output never starts a workflow command ---------------------------------------------------------


def test_text_lines_never_start_a_workflow_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    base, head = weather(), weather()
    head["skills"].pop(0)
    write(tmp_path / "::error file=x::b" / "w.json", base)
    write(tmp_path / "::stop-commands::h" / "w.json", head)
    _, out, _ = run(capsys, "::error file=x::b", "::stop-commands::h", "--no-config")
    assert out.splitlines()
    assert not any(line.lstrip().startswith("::") for line in out.splitlines())
    assert out.startswith("./::stop-commands::h")


# -- fingerprints ----------------------------------------------------------------------------------------


def test_fingerprints_survive_moved_lines_and_reordered_arrays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = weather()
    head = copy.deepcopy(base)
    head["skills"][0]["inputModes"] = ["text/plain"]
    head["skills"].pop()
    first = json_report(capsys, *sides(tmp_path / "1", base, head))
    moved_base, moved_head = copy.deepcopy(base), copy.deepcopy(head)
    for card in (moved_base, moved_head):
        card["skills"].reverse()
        card["description"] = "A longer description\nthat moves every line below it."
    b = write(tmp_path / "2" / "base" / "agent.json", json.dumps(moved_base, indent=4)).parent
    h = write(tmp_path / "2" / "head" / "agent.json", json.dumps(moved_head, indent=1)).parent
    second = json_report(capsys, b, h)

    def prints(report: dict[str, Any]) -> dict[str, str]:
        return {c["fingerprint"]: c["code"] for c in report["changes"] if c["code"] != "description-changed"}

    assert prints(first) == prints(second)
    assert len(prints(first)) == len(first["changes"])  # distinct per finding
    assert {c["line"] for c in first["changes"]} != {c["line"] for c in second["changes"]}


# -- changelog -------------------------------------------------------------------------------------------


def test_changelog_groups_by_agent_and_kind_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, BASE, DATA / "head", "--format", "changelog", "--no-config")
    assert code == 1
    assert re.findall(r"^### (.+)$", out, re.MULTILINE) == ["Fax Gateway", "Maps Agent", "Weather Agent"]
    weather_part = out.split("### Weather Agent")[1]
    kinds = re.findall(r"^\*\*(\w+)\*\*$", weather_part, re.MULTILINE)
    assert kinds == ["Breaking", "Added", "Changed"]
    assert "version-not-bumped" not in out  # the version policy is about the change, not the agent
    assert f"([`skill-added`]({DOCS_URL}#code-skill-added))" in out
    assert '- Skill alerts: A new skill, "Alerts".' in out


def test_every_kind_of_change_has_a_changelog_kind() -> None:
    for name, code in REGISTRY.items():
        kind = change_kind(_finding("A", 0, code.severity, name))
        assert kind == "Breaking" if code.severity == "breaking" else kind in ("Added", "Changed", "Removed")


def test_the_pointer_of_every_example_card_finding_resolves(capsys: pytest.CaptureFixture[str]) -> None:
    report = json_report(capsys, BASE, DATA / "head")
    for change in report["changes"]:
        raw = json.loads(Path(change["file"]).read_text(encoding="utf-8"))
        assert resolve_pointer(raw, change["pointer"]) is not None or change["pointer"] == "", change
    assert os.path.isdir(BASE)


def test_a_capped_comment_has_no_table_or_section_without_rows() -> None:
    """Past the budget, an agent whose first breaking change does not fit gets no table head of its own,
    and the version policy, the other changes and the accepted changes that do not fit at all are only
    counted (no folded section that holds nothing but its note)."""
    breaking = [_finding(f"Agent {i // 5:03}", i, "breaking", "skill-removed") for i in range(1500)]
    policy = [_finding(f"Agent {i:03}", 0, "breaking", "version-not-bumped") for i in range(300)]
    rest = [_finding(f"Agent {i // 2:03}", i, "info", "description-changed") for i in range(600)]
    markdown = format_comment(ReviewReport(changes=[*breaking, *policy, *rest]))
    page = _github(markdown)  # renders
    assert page.open_rows > 0
    tables = markdown.split("| Agent | Skill | Change | Code |\n| --- | --- | --- | --- |\n")[1:]
    assert tables
    assert all(table.startswith("| ") for table in tables)
    assert "<details><summary>Version policy" not in markdown
    assert "#### Other changes" not in markdown
    assert "… and 300 more policy findings;" in markdown
    assert "… and 600 more other changes;" in markdown
    assert "more breaking changes of other agents;" in markdown
