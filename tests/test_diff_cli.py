"""``a2a-docgen diff`` end to end: exit codes, the four formats, hostile card text, and ``--base-ref``."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.catalog import load_catalog
from a2a_docgen.cli import main
from a2a_docgen.render.escape import md_code
from a2a_docgen.review.codes import DOCS_URL
from a2a_docgen.review.comment import format_comment
from a2a_docgen.review.diff import Change
from a2a_docgen.review.formats import (
    COMMENT_MARKER,
    MARKDOWN_BUDGET,
    ReviewReport,
    format_markdown,
    page_url,
)
from a2a_docgen.review.git import load_catalog_at_revision
from a2a_docgen.slugs import site_addresses
from tests.support.markdown_tokens import html_tokens, links, table_rows

DATA = Path(__file__).parent / "data" / "diff"
BASE, HEAD, ERA = DATA / "base", DATA / "head", DATA / "era"

GITHUB_COMMAND = re.compile(
    r"^::(error|warning|notice) file=[^,:\n]+,line=[1-9]\d*,col=[1-9]\d*,title=[^,:\n]+::[^\r\n]+$"
)


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main(["diff", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def weather() -> dict[str, Any]:
    card: dict[str, Any] = json.loads((BASE / "weather.json").read_text(encoding="utf-8"))
    return card


def broken_copy(source: Path, target: Path, text: str = '{"name": "Weather Agent", "skills": [') -> Path:
    """A copy of the directory ``source`` at ``target`` whose weather.json no longer parses."""
    shutil.copytree(source, target)
    (target / "weather.json").write_text(text, encoding="utf-8")
    return target


def write(path: Path, card: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(card, indent=2), encoding="utf-8")
    return path


# -- exit codes ------------------------------------------------------------------------------------------


def test_identical_inputs_exit_0_with_an_empty_array(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, BASE, BASE, "--format", "json")
    assert code == 0
    assert json.loads(out)["changes"] == []


@pytest.fixture
def data(tmp_path: Path) -> tuple[Path, Path]:
    """Copies of BASE and HEAD in no repository (there, paths are shown as typed; in one, from its top)."""
    base, head = tmp_path / "base", tmp_path / "head"
    shutil.copytree(BASE, base)
    shutil.copytree(HEAD, head)
    return base, head


def test_breaking_changes_exit_1(capsys: pytest.CaptureFixture[str], data: tuple[Path, Path]) -> None:
    base, head = data
    code, out, _ = run(capsys, base, head)
    assert code == 1
    lines = out.splitlines()
    assert lines[-1] == "8 changes: 3 breaking, 3 non-breaking, 2 info; 1 policy finding: 1 breaking."
    assert f"{base / 'fax.json'}:1: breaking: Fax Gateway: the agent is gone [agent-removed]" in lines
    assert len(lines) == 10


@pytest.mark.parametrize(
    ("base", "head", "fail_on", "expected"),
    [
        (BASE, HEAD, "never", 0),
        (BASE, HEAD, "breaking", 1),
        (ERA / "v0.3.json", ERA / "v1.0.json", "breaking", 0),
        (ERA / "v0.3.json", ERA / "v1.0.json", "non-breaking", 0),
        (ERA / "v0.3.json", ERA / "v1.0.json", "info", 1),
        (BASE / "weather.json", BASE / "weather.json", "info", 0),
    ],
)
def test_fail_on(
    capsys: pytest.CaptureFixture[str], base: Path, head: Path, fail_on: str, expected: int
) -> None:
    assert run(capsys, base, head, "--fail-on", fail_on)[0] == expected


def test_non_breaking_change_fails_only_from_non_breaking(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = weather()
    head["capabilities"]["pushNotifications"] = True
    changed = write(tmp_path / "weather.json", head)
    assert run(capsys, BASE / "weather.json", changed)[0] == 0
    assert run(capsys, BASE / "weather.json", changed, "--fail-on", "non-breaking")[0] == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([BASE], "give BASE and HEAD"),
        ([BASE, HEAD, HEAD], "give BASE and HEAD"),
        ([BASE, DATA / "missing"], "no such file or directory"),
        (["--base-ref", "HEAD"], "--base-ref needs HEAD"),
        ([BASE, HEAD, "--site-url", "javascript:alert(1)"], "--site-url"),
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[object], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert out == ""
    assert "Traceback" not in err


def test_unknown_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, BASE, HEAD, "--format", "yaml")[0] == 2


def test_invalid_cards_are_reported_and_the_rest_is_compared(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = broken_copy(HEAD, tmp_path / "head")
    code, out, err = run(capsys, BASE, head, "--format", "json")
    assert code == 1
    assert "a2a-docgen diff: head cards with errors (1 not read):" in err
    assert re.search(r"weather\.json:1:\d+: error ", err)
    assert "Traceback" not in err
    report = json.loads(out)
    changes = report["changes"]
    assert {c["agent"] for c in changes if c["code"] == "agent-removed"} == {"Fax Gateway"}
    [unreadable] = [c for c in changes if c["code"] == "card-unreadable"]
    assert (unreadable["agent"], unreadable["severity"], unreadable["line"]) == (
        "Weather Agent",
        "breaking",
        1,
    )
    assert unreadable["file"] == str(head / "weather.json")
    assert any(c["code"] == "agent-added" and c["agent"] == "Maps Agent" for c in changes)
    [failure] = report["loadErrors"]
    assert (failure["side"], failure["file"]) == ("head", str(head / "weather.json"))
    assert failure["diagnostics"][0]["code"] == "json-syntax"
    assert report["summary"]["loadFailures"] == 1


# -- formats ---------------------------------------------------------------------------------------------


def test_json_objects_carry_every_field(capsys: pytest.CaptureFixture[str], data: tuple[Path, Path]) -> None:
    base, head = data
    _, out, err = run(capsys, base, head, "--format", "json")
    changes = json.loads(out)["changes"]
    assert err.strip() == (
        "a2a-docgen diff: 8 changes: 3 breaking, 3 non-breaking, 2 info; 1 policy finding: 1 breaking"
    )
    required = {"agent", "skill", "severity", "code", "message", "pointer", "before", "after", "file", "line"}
    assert all(required <= set(c) for c in changes)
    forecast = next(c for c in changes if c["code"] == "input-mode-removed")
    assert (
        forecast["fingerprint"]
        == Change(
            **{
                k: v
                for k, v in forecast.items()
                if k in Change.__dataclass_fields__ and k not in {"anchor", "accepted"}
            }
        ).fingerprint
    )  # type: ignore[arg-type]
    assert forecast["docs"] == DOCS_URL + "#code-input-mode-removed"
    assert forecast | {"message": "", "fingerprint": "", "docs": ""} == {
        "fingerprint": "",
        "docs": "",
        "agent": "Weather Agent",
        "skill": "forecast",
        "severity": "breaking",
        "code": "input-mode-removed",
        "message": "",
        "pointer": "/skills/0/inputModes",
        "before": "application/json",
        "after": None,
        "side": "head",
        "file": str(head / "weather.json"),
        "line": 30,
        "column": 22,
        "anchor": {
            "file": str(head / "weather.json"),
            "line": 30,
            "column": 22,
            "pointer": "/skills/0/inputModes",
        },
        "policy": False,
        "accepted": None,
    }


def test_github_annotations_follow_the_workflow_command_syntax(
    capsys: pytest.CaptureFixture[str], data: tuple[Path, Path]
) -> None:
    base, head = data
    _, out, _ = run(capsys, base, head, "--format", "github")
    lines = out.splitlines()
    assert len(lines) == 9
    assert all(GITHUB_COMMAND.match(line) for line in lines), lines
    levels = [line.split(" ", 1)[0] for line in lines]
    assert levels.count("::error") == 4
    assert levels.count("::warning") == 3
    assert levels.count("::notice") == 2
    removed = next(line for line in lines if "agent-removed" in line)
    assert removed.startswith(
        f"::error file={base / 'fax.json'},line=1,col=1,title=Breaking change%3A agent-removed::"
    )


def test_markdown_comment(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, BASE, HEAD, "--format", "markdown", "--site-url", "https://docs.example.com/")
    lines = out.splitlines()
    assert lines[0] == COMMENT_MARKER
    assert lines[1] == "### ❌ 3 breaking changes to A2A agent cards"
    assert "**3** breaking · **3** non-breaking · **2** info · 3 agents · **1** policy finding" in lines
    rows = table_rows(out)
    assert rows[0] == ["Agent", "Skill", "Change", "Code"]
    assert len(rows) == 4  # the head and three breaking changes; the version policy has its section
    assert out.index("#### Breaking changes") < out.index("#### Version policy") < out.index("#### Other")
    assert rows[1][:2] == ["Fax Gateway", "(agent)"]
    assert any(row[1] == "forecast" and row[3] == "input-mode-removed" for row in rows)
    hrefs = links(out)
    weather = site_addresses(load_catalog([str(BASE)]).cards)["Weather Agent"]
    assert page_url("https://docs.example.com", weather, "forecast") in hrefs
    assert page_url("https://docs.example.com", weather) == "https://docs.example.com/agents/weather-agent/"
    assert page_url("https://docs.example.com", weather, "forecast").endswith("/#skill-forecast")
    # what the change adds has no page on the published site yet
    assert not [h for h in hrefs if "maps-agent" in h or "#skill-alerts-" in h]
    assert "Maps Agent" in out
    assert out.index("#### Breaking changes") < out.index("#### Other changes")
    assert "<details>" not in out


def test_markdown_without_changes(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, BASE, BASE, "--format", "markdown")
    assert out.splitlines() == [COMMENT_MARKER, "### ✅ No changes to A2A agent cards"]


def test_markdown_without_breaking_changes_lists_the_rest_plainly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, ERA / "v0.3.json", ERA / "v1.0.json", "--format", "markdown")
    assert "### ✅ No breaking changes to A2A agent cards" in out
    assert "#### Breaking changes" not in out
    assert "<details>" not in out
    assert (
        "- info · [`era-changed`](https://github.com/a2a-docgen/a2a-docgen/blob/main/docs/review.md#code-era-changed)"
        " · the card is now written in the v1.0 shape (was v0.3)"
    ) in out


HOSTILE_NAME = "<img src=x onerror=alert(1)> | **bold** [x](javascript:alert(1))"


def test_hostile_card_text_stays_inert(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = weather()
    base["name"] = HOSTILE_NAME
    base["skills"][0]["id"] = "`code` <script>x</script> | cell"
    head = copy.deepcopy(base)
    head["skills"].pop(0)
    head["name"] = HOSTILE_NAME + "\n::error::injected"
    b, h = write(tmp_path / "b" / "x.json", base), write(tmp_path / "h" / "x.json", head)
    _, out, _ = run(capsys, b, h, "--format", "markdown", "--site-url", "https://docs.example.com")
    assert [t.content.strip() for t in html_tokens(out)] == [COMMENT_MARKER]
    assert all(len(row) == 4 for row in table_rows(out))
    assert all(
        href.startswith(("https://docs.example.com/agents/", DOCS_URL + "#code-")) for href in links(out)
    )
    assert "<img" not in out
    assert "<script" not in out

    _, out, _ = run(capsys, b, h, "--format", "github")
    lines = out.splitlines()
    assert [line.split("title=")[1].split("::")[0] for line in lines] == [
        "Breaking change%3A version-not-bumped",
        "Breaking change%3A skill-removed",
        "Card change%3A agent-renamed",
    ]
    assert all(GITHUB_COMMAND.match(line) for line in lines)
    assert all("\n::error::injected" not in line for line in lines)

    _, out, _ = run(capsys, b, h, "--format", "text")
    assert len(out.splitlines()) == 4
    assert not any(line.startswith("::") for line in out.splitlines())


# -- --base-ref --------------------------------------------------------------------------------------------


def git(repo: Path, *argv: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *argv],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose first commit has cards/weather.json, cards/fax.json and files that are not cards."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    git(tmp_path, "init", "-q")
    cards = tmp_path / "cards"
    cards.mkdir()
    shutil.copy(BASE / "weather.json", cards / "weather.json")
    shutil.copy(BASE / "fax.json", cards / "fax.json")
    (cards / "weather.fetch.json").write_text("{}", encoding="utf-8")
    write(cards / "node_modules" / "x.json", {"name": "not scanned"})
    (tmp_path / "README.md").write_text("cards\n", encoding="utf-8")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "cards")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_base_ref_compares_the_working_tree_with_a_revision(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(HEAD / "weather.json", repo / "cards" / "weather.json")
    (repo / "cards" / "fax.json").unlink()
    shutil.copy(HEAD / "maps.json", repo / "cards" / "maps.json")
    code, out, err = run(capsys, "--base-ref", "HEAD", "cards", "--format", "json")
    assert code == 1, err
    changes = json.loads(out)["changes"]
    by_code = {(c["agent"], c["code"]): c for c in changes}
    assert by_code["Fax Gateway", "agent-removed"]["file"] == str(Path("cards", "fax.json"))
    assert by_code["Maps Agent", "agent-added"]["file"] == str(Path("cards", "maps.json"))
    assert by_code["Weather Agent", "skill-added"]["file"] == str(Path("cards", "weather.json"))
    assert len(changes) == 9
    assert "not scanned" not in out


def test_base_ref_reads_the_same_catalogue_as_the_working_tree(repo: Path) -> None:
    from a2a_docgen.catalog import load_catalog

    at_revision = load_catalog_at_revision(["cards"], "HEAD")
    on_disk = load_catalog(["cards"])
    assert at_revision == on_disk
    assert [c.source.path for c in at_revision.cards] == [c.source.path for c in on_disk.cards]


def test_base_ref_with_a_file_argument_and_from_a_subdirectory(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    head = weather()
    head["skills"].pop()
    write(repo / "cards" / "weather.json", head)
    code, out, _ = run(capsys, "--base-ref", "HEAD", "cards/weather.json", "--format", "json")
    assert code == 1
    assert {c["code"] for c in json.loads(out)["changes"]} == {"skill-removed", "version-not-bumped"}
    monkeypatch.chdir(repo / "cards")
    code, out, _ = run(capsys, "--base-ref", "HEAD", ".", "--format", "json")
    assert {(c["code"], c["file"]) for c in json.loads(out)["changes"]} == {  # from the repository's top
        ("skill-removed", os.path.join("cards", "weather.json")),
        ("version-not-bumped", os.path.join("cards", "weather.json")),
    }


def test_base_ref_when_the_directory_is_gone(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.rmtree(repo / "cards")
    code, _, err = run(capsys, "--base-ref", "HEAD", "cards", "--format", "json")
    assert code == 2
    assert "no card files (*.json) in cards: is the path right?" in err
    code, out, _ = run(capsys, "--base-ref", "HEAD", "cards", "--format", "json", "--allow-empty-head")
    assert code == 1
    assert sorted(c["agent"] for c in json.loads(out)["changes"]) == ["Fax Gateway", "Weather Agent"]


def test_base_ref_when_the_cards_are_new(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "new").mkdir()
    shutil.copy(HEAD / "maps.json", repo / "new" / "maps.json")
    code, _, err = run(capsys, "--base-ref", "HEAD", "new", "--format", "json")
    assert code == 2
    assert "no card files (*.json) at HEAD" in err
    code, out, _ = run(capsys, "--base-ref", "HEAD", "new", "--format", "json", "--allow-empty-base")
    assert code == 0
    assert [c["code"] for c in json.loads(out)["changes"]] == ["agent-added"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--base-ref", "no-such-branch", "cards"], "cannot resolve --base-ref 'no-such-branch'"),
        (["--base-ref=--upload-pack=x", "cards"], "is not a revision"),
        (["--base-ref", "HEAD", "nowhere"], "nowhere: no such file or directory, here or at HEAD"),
        (["--base-ref", "HEAD", "cards", "/"], "/: outside the git repository"),
    ],
)
def test_base_ref_usage_errors(
    repo: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err


def test_base_ref_outside_a_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    outside = tmp_path / "plain"
    write(outside / "cards" / "x.json", weather())
    monkeypatch.chdir(outside)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    code, _, err = run(capsys, "--base-ref", "HEAD", "cards")
    assert code == 2
    assert "cannot find the git repository" in err


def _change(agent: str, index: int, severity: str = "info") -> Change:
    return Change(
        agent=agent,
        skill=f"s{index}",
        severity=severity,  # type: ignore[arg-type]
        code="description-changed" if severity == "info" else "skill-removed",
        message=f"change number {index} " + "x" * 200,
        pointer=f"/skills/{index}",
        before=None,
        after=None,
        side="head",
        file="cards/a.json",
        line=index + 1,
        column=1,
    )


def test_markdown_folds_long_lists_per_agent() -> None:
    changes = [_change("Alpha", i) for i in range(8)] + [_change("Beta", i) for i in range(4)]
    out = format_markdown(changes)
    tokens = [t.content.strip() for t in html_tokens(out)]
    assert tokens.count("</details>") == 2
    assert "<details><summary><b>Alpha</b> (8 info)</summary>" in tokens
    assert out.count(f"- info · [`description-changed`]({DOCS_URL}#code-description-changed) · ") == 12


def test_markdown_stays_under_the_comment_limit() -> None:
    changes = [_change("Alpha", i, "breaking") for i in range(400)] + [_change("Beta", i) for i in range(400)]
    out = format_markdown(changes)
    assert len(out) <= MARKDOWN_BUDGET
    assert "more breaking changes of this agent; `a2a-docgen diff --format text` lists them." in out
    assert "**Alpha** (400 breaking changes)" in out
    assert out.endswith("more other changes; `a2a-docgen diff --format text` lists them.\n")
    run_url = "https://github.com/o/r/actions/runs/7"
    linked = format_comment(ReviewReport(changes=changes, full_report_url=run_url))
    assert f"more breaking changes of this agent; the [full report]({run_url}) lists them." in linked
    assert "see the job log" not in linked
    whole = format_comment(ReviewReport(changes=changes, budget=0))
    assert len(whole) > MARKDOWN_BUDGET
    assert len(table_rows(whole)) == 401
    assert "more" not in whole.split("#### Other changes")[1]
    rows = table_rows(out)
    assert 10 < len(rows) < 401


# -- the documented workflow and the pre-commit hook ---------------------------------------------------

REPO = Path(__file__).resolve().parents[1]


def _workflow() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    text = (REPO / "docs" / "review.md").read_text(encoding="utf-8")
    block = text.split("# .github/workflows/agent-cards.yml\n", 1)[1].split("```", 1)[0]
    workflow: dict[str, Any] = yaml.safe_load(block)
    return workflow


def _action_step(workflow: dict[str, Any]) -> dict[str, Any]:
    steps = workflow["jobs"]["review"]["steps"]
    [action] = [step for step in steps if step.get("uses", "").startswith("a2a-docgen/a2a-docgen@")]
    return action


def test_documented_workflow_uses_this_repositorys_action() -> None:
    workflow = _workflow()
    steps = workflow["jobs"]["review"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@")
    assert steps[0]["with"]["fetch-depth"] == 0
    action = _action_step(workflow)
    assert re.fullmatch(r"a2a-docgen/a2a-docgen@[0-9a-f]{40}", action["uses"])  # a commit, not a release
    yaml = pytest.importorskip("yaml")
    inputs = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))["inputs"]
    assert set(action["with"]) <= set(inputs)
    assert "pip install" not in json.dumps(workflow)  # nothing pinned to a version that was never released


def test_documented_workflow_reviews_every_path_it_is_started_for() -> None:
    workflow = _workflow()
    triggers = workflow[True]["pull_request"]["paths"]  # YAML 1.1 reads the key "on" as true
    cards = _action_step(workflow)["with"]["cards"].split()
    assert ".well-known/agent-card.json" in cards
    for path in cards:
        assert path in triggers or f"{path}/**" in triggers, path
    assert set(triggers) - {p for c in cards for p in (c, f"{c}/**")} == {".a2a-docgen.toml"}


def test_documented_workflow_is_safe_to_rerun() -> None:
    workflow = _workflow()
    assert workflow["concurrency"]["cancel-in-progress"] is True
    assert "github.event.pull_request.number" in workflow["concurrency"]["group"]
    assert workflow["permissions"] == {"contents": "read", "pull-requests": "write"}


def test_documented_pre_commit_config_pins_a_commit() -> None:
    yaml = pytest.importorskip("yaml")
    text = (REPO / "docs" / "review.md").read_text(encoding="utf-8")
    block = text.split("# .pre-commit-config.yaml\n", 1)[1].split("```", 1)[0]
    [repo] = yaml.safe_load(block)["repos"]
    assert re.fullmatch(r"[0-9a-f]{40}", repo["rev"])
    assert {hook["id"] for hook in repo["hooks"]} == set(_hooks())


def _hooks() -> dict[str, dict[str, Any]]:
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return {hook["id"]: hook for hook in hooks}


@pytest.mark.parametrize(
    ("path", "checked"),
    [
        (".well-known/agent-card.json", True),
        ("public/.well-known/agent.json", True),
        ("services/x/agent-card.json", True),
        ("weather.a2a.json", True),
        ("cards/weather.json", True),
        ("examples/agent-cards/deep/weather.json", True),
        ("cards/weather.fetch.json", False),
        ("package.json", False),
        ("scorecards/x.json", False),
    ],
)
def test_pre_commit_hook_selects_card_files(path: str, checked: bool) -> None:
    hooks = _hooks()
    check, review = hooks["a2a-docgen-check"], hooks["a2a-docgen-diff"]
    assert check["entry"] == "a2a-docgen check"
    for hook in (check, review):
        selected = re.search(hook["files"], path) is not None and re.search(hook["exclude"], path) is None
        assert selected is checked


def test_pre_push_hook_diffs_against_where_the_branch_left_the_default_branch() -> None:
    hook = _hooks()["a2a-docgen-diff"]
    assert hook["entry"] == "a2a-docgen diff --since-default-branch"
    assert hook["stages"] == ["pre-push"]
    assert hook["pass_filenames"] is False
    assert re.search(hook["files"], ".a2a-docgen.toml")


def test_the_upstream_revision_resolves_and_says_when_there_is_none(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--base-ref", "@{upstream}", "cards")
    assert code == 2
    assert "no upstream configured" in err
    assert "--base-ref origin/main" in err
    assert "--set-upstream" not in err  # the hook would block that push too
    git(repo, "branch", "-q", "base")
    git(repo, "branch", "-q", "--set-upstream-to", "base")
    assert run(capsys, "--base-ref", "@{upstream}", "cards")[0] == 0


def test_a_first_push_is_reviewed_against_the_default_branch(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git(repo, "branch", "-q", "-M", "main")
    git(repo, "checkout", "-q", "-b", "feature")  # no upstream: its first push
    card = weather()
    card["skills"].pop(0)
    write(repo / "cards" / "weather.json", card)
    git(repo, "commit", "-q", "-am", "drop a skill")
    code, out, _ = run(capsys, "--since-default-branch", "cards", "--format", "json", "--no-config")
    assert code == 1
    assert "skill-removed" in {c["code"] for c in json.loads(out)["changes"]}
    # main moving on does not change the base: it is where the branch left main
    git(repo, "checkout", "-q", "main")
    (repo / "cards" / "fax.json").unlink()
    git(repo, "commit", "-q", "-am", "retire fax")
    git(repo, "checkout", "-q", "feature")
    _, out, _ = run(capsys, "--since-default-branch", "cards", "--format", "json", "--no-config")
    assert "agent-removed" not in {c["code"] for c in json.loads(out)["changes"]}
    # --base-ref wins
    _, out, _ = run(capsys, "--since-default-branch", "--base-ref", "main", "cards", "--format", "json")
    assert "agent-added" in {c["code"] for c in json.loads(out)["changes"]}


def test_since_default_branch_without_one_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git(repo, "branch", "-q", "-M", "trunk")
    code, _, err = run(capsys, "--since-default-branch", "cards")
    assert code == 2
    assert "no default branch found" in err


def test_json_escapes_invisible_characters_and_round_trips(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = weather()
    base["name"] = "Weather \u202eAgent\u0085"
    head = copy.deepcopy(base)
    head["skills"].pop()
    b, h = write(tmp_path / "b.json", base), write(tmp_path / "h.json", head)
    _, out, _ = run(capsys, b, h, "--format", "json")
    assert "\u202e" not in out
    assert "\u0085" not in out
    assert "\\u202e" in out
    assert {c["agent"] for c in json.loads(out)["changes"]} == {"Weather \u202eAgent\u0085"}


# -- issue 16 ----------------------------------------------------------------------------------------------


def test_head_card_that_no_longer_loads_says_so_in_two_directory_mode(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = broken_copy(BASE, tmp_path / "head")
    _, out, _ = run(capsys, BASE, head, "--format", "json")
    changes = json.loads(out)["changes"]
    assert not [c for c in changes if c["code"] == "agent-removed" and c["agent"] == "Weather Agent"]
    unreadable = {c["agent"]: c["message"] for c in changes if c["code"] == "card-unreadable"}
    assert unreadable["Weather Agent"].startswith(
        "the file no longer loads as a card, so no client can read it: "
    )


def test_head_file_that_no_longer_loads_when_comparing_two_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "other-name.json"
    broken.write_text("{", encoding="utf-8")
    _, out, _ = run(capsys, BASE / "weather.json", broken, "--format", "json")
    [unreadable] = json.loads(out)["changes"]
    assert unreadable["code"] == "card-unreadable"
    assert unreadable["file"] == str(broken)
    assert unreadable["message"].startswith("the file no longer loads as a card, so no client can read it: ")


def test_removed_card_whose_file_is_deleted_has_no_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = tmp_path / "head"
    shutil.copytree(BASE, head)
    (head / "fax.json").unlink()
    (head / "sub").mkdir()
    (head / "sub" / "fax.json").write_text("{", encoding="utf-8")
    _, out, _ = run(capsys, BASE, head, "--format", "json")
    removed, unreadable = json.loads(out)["changes"]
    assert removed["message"] == "the agent is gone"
    assert (unreadable["code"], unreadable["agent"]) == ("card-unreadable", "fax.json")
    assert unreadable["message"].startswith("the file does not load as a card")


@pytest.fixture(autouse=True)
def _no_github_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA", "GITHUB_WORKSPACE"):
        monkeypatch.delenv(name, raising=False)


def test_base_ref_annotations_of_removals_land_on_the_surviving_parent(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = weather()
    head["skills"].pop()  # "observations", at the end of the base file
    head["description"] = "Forecasts for any place, and a much longer description that moves no line."
    write(repo / "cards" / "weather.json", head)
    (repo / "cards" / "fax.json").unlink()
    _, out, _ = run(capsys, "--base-ref", "HEAD", "cards", "--format", "github")
    lines = out.splitlines()
    assert all(GITHUB_COMMAND_ANY.match(line) for line in lines), lines
    skill = next(line for line in lines if "skill-removed" in line)
    text = (repo / "cards" / "weather.json").read_text(encoding="utf-8").splitlines()
    line = int(skill.split(",line=")[1].split(",")[0])
    assert text[line - 1].strip() == '"skills": ['
    assert skill.startswith(f"::error file={Path('cards', 'weather.json')},line={line},col=")
    assert "(line 31 of the base card)" in skill
    fax = next(line for line in lines if "agent-removed" in line)
    assert fax.startswith("::error title=Breaking change%3A agent-removed::Fax Gateway: the agent is gone")

    _, out, _ = run(capsys, "--base-ref", "HEAD", "cards", "--format", "json")
    anchors = {c["code"]: c["anchor"] for c in json.loads(out)["changes"]}
    assert anchors["agent-removed"] is None
    assert anchors["skill-removed"]["pointer"] == "/skills"


def test_base_ref_text_shows_removals_at_their_working_tree_place(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = weather()
    head["skills"].pop()  # "observations", line 31 of the base file
    write(repo / "cards" / "weather.json", head)
    _, out, _ = run(capsys, "--base-ref", "HEAD", "cards", "--no-config")
    [line] = [line for line in out.splitlines() if "skill-removed" in line]
    text = (repo / "cards" / "weather.json").read_text(encoding="utf-8").splitlines()
    shown = int(line.split(":")[1])
    assert line.startswith(f"{Path('cards', 'weather.json')}:{shown}: breaking: ")
    assert text[shown - 1].strip() == '"skills": ['  # the working-tree line, not base line 31
    assert line.endswith("(line 31 of the base card)")


def test_an_invalid_head_card_does_not_ask_for_a_version_bump(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = weather()
    head["skills"][0]["examples"] = "What is the weather?"  # a string: the SDK refuses the card
    b, h = write(tmp_path / "b" / "w.json", weather()), write(tmp_path / "h" / "w.json", head)
    _, out, _ = run(capsys, b, h, "--format", "json", "--no-config")
    assert [c["code"] for c in json.loads(out)["changes"]] == ["card-error-added"]


def test_base_ref_annotation_of_a_card_that_no_longer_loads_is_on_its_first_line(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "cards" / "fax.json").write_text("{", encoding="utf-8")
    _, out, _ = run(capsys, "--base-ref", "HEAD", "cards", "--format", "github")
    [line] = out.splitlines()
    assert line.startswith(
        f"::error file={Path('cards', 'fax.json')},line=1,col=2,title=Breaking change%3A card-unreadable::"
    )
    assert "the file no longer loads as a card" in line


GITHUB_COMMAND_ANY = re.compile(
    r"^::(error|warning|notice) (file=[^,:\n]+,line=[1-9]\d*,col=[1-9]\d*,)?title=[^,:\n]+::[^\r\n]+$"
)


def test_github_annotations_keep_to_the_limits_most_important_first() -> None:
    from a2a_docgen.review.formats import format_github

    changes = (
        [_change("Alpha", i, "breaking") for i in range(14)]
        + [_change("Beta", i, "non-breaking") for i in range(3)]
        + [_change("Gamma", i) for i in range(12)]
    )
    lines = format_github(changes).splitlines()
    levels = [line.split(" ", 1)[0] for line in lines]
    assert levels == ["::error"] * 10 + ["::warning"] * 3 + ["::notice"] * 10
    assert lines[-1].startswith("::notice title=a2a-docgen diff::")
    assert "7 more findings not annotated" in lines[-1]  # 4 errors and 3 notices (9 kept, then this one)
    assert all(GITHUB_COMMAND_ANY.match(line) for line in lines)
    assert len(format_github(changes[:10]).splitlines()) == 10


def test_markdown_lists_card_files_that_fail_to_load(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = broken_copy(BASE, tmp_path / "head", '{"name": "Weather <b>Agent</b>", "skills": [')
    _, out, _ = run(capsys, BASE, head, "--format", "markdown")
    section = out.split("#### Card files that fail to load\n", 1)[1].split("\n#### ", 1)[0]
    assert f"- head · {md_code(str(head / 'weather.json'))}" in section
    assert "  - line 1, column " in section
    assert {t.content.strip() for t in html_tokens(out)} == {COMMENT_MARKER}
    assert "**1** file fails to load" in out


def test_markdown_links_findings_to_their_file_and_line(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    head = weather()
    head["skills"].pop()
    head["skills"][0]["inputModes"] = ["text/plain"]
    write(repo / "cards" / "weather.json", head)
    sha = "0123456789abcdef0123456789abcdef01234567"
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", "acme/cards")
    monkeypatch.setenv("GITHUB_SHA", sha)
    _, out, _ = run(capsys, "--base-ref", "HEAD", "cards", "--format", "markdown")
    hrefs = links(out)
    base_commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    narrowed = next(
        c
        for c in json.loads(run(capsys, "--base-ref", "HEAD", "cards", "--format", "json")[1])["changes"]
        if c["code"] == "input-mode-removed"
    )
    assert f"https://github.com/acme/cards/blob/{sha}/cards/weather.json#L{narrowed['line']}" in hrefs
    assert f"https://github.com/acme/cards/blob/{base_commit}/cards/weather.json#L31" in hrefs  # removed
    assert table_rows(out)[0] == ["Agent", "Skill", "Change", "Code", "Where"]

    _, out, _ = run(
        capsys,
        "--base-ref",
        "HEAD",
        "cards",
        "--format",
        "markdown",
        "--repo-url",
        "https://github.example.com/team/cards/",
        "--head-sha",
        "abcdef1",
    )
    assert (
        f"https://github.example.com/team/cards/blob/abcdef1/cards/weather.json#L{narrowed['line']}"
        in links(out)
    )


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (
            ["--repo-url", "javascript:alert(1)", "--head-sha", "abcdef1"],
            {},
            "--repo-url: 'javascript:alert(1)'",
        ),
        (["--repo-url", "https://github.com/a/b"], {}, "--repo-url needs --head-sha"),
        (["--head-sha", "abcdef1"], {}, "--head-sha needs --repo-url"),
        (
            ["--repo-url", "https://github.com/a/b", "--head-sha", "main;rm"],
            {},
            "--head-sha: 'main;rm' is not a commit id",
        ),
        (
            [],
            {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "a/b", "GITHUB_SHA": "x"},
            "$GITHUB_SHA: 'x'",
        ),
        (["--skip-empty", "--format", "json"], {}, "--skip-empty applies to --format markdown"),
    ],
)
def test_link_and_comment_options_are_checked(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    env: dict[str, str],
    message: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    format_args = [] if "--format" in argv else ["--format", "markdown"]
    code, out, err = run(capsys, BASE, HEAD, *format_args, *argv)
    assert code == 2
    assert out == ""
    assert message in err


def test_skip_empty_writes_no_comment_when_there_is_nothing_to_say(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, BASE, BASE, "--format", "markdown", "--skip-empty")
    assert (code, out) == (0, "")
    assert "no comment written" in err
    code, out, _ = run(capsys, BASE, HEAD, "--format", "markdown", "--skip-empty")
    assert out.startswith(COMMENT_MARKER)
    broken = tmp_path / "broken"
    shutil.copytree(BASE, broken)
    (broken / "other.json").write_text("[]", encoding="utf-8")
    _, out, _ = run(capsys, broken, broken, "--format", "markdown", "--skip-empty")
    assert "#### Card files that fail to load" in out  # something to say, though nothing changed


def test_markdown_shows_configuration_warnings_and_accepted_changes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".a2a-docgen.toml").write_text(
        '[[diff.accept]]\nagent = "Fax Gateway"\ncode = "agent-removed"\nreason = "Retired <now>"\n'
        '[[diff.accept]]\nagent = "Nobody"\ncode = "agent-removed"\nreason = "old"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    base, head = shutil.copytree(BASE, tmp_path / "base"), shutil.copytree(HEAD, tmp_path / "head")
    _, out, _ = run(capsys, base, head, "--format", "markdown")
    assert "#### Configuration" in out
    assert "- ⚠️ `.a2a-docgen.toml:5`: the acceptance of agent-removed for Nobody" in out
    assert "<details><summary>Accepted changes (1)</summary>" in out
    assert "accepted: Retired &lt;now>" in out
    assert "**1** accepted" in out
    _, out, _ = run(capsys, base, head, "--format", "github")
    assert "::warning file=.a2a-docgen.toml,line=5,title=a2a-docgen configuration::the acceptance of" in out


def test_markdown_groups_many_breaking_changes_per_agent() -> None:
    changes = [_change("Alpha", i, "breaking") for i in range(15)] + [
        _change("Beta", i, "breaking") for i in range(10)
    ]
    out = format_markdown(changes)
    tokens = [t.content.strip() for t in html_tokens(out)]
    assert tokens == [COMMENT_MARKER]  # every breaking change stays open: nothing folds them
    assert "**Alpha** (15 breaking changes)" in out
    assert "**Beta** (10 breaking changes)" in out
    assert len(table_rows(out)) == 25 + 2  # a head row per table
    few = format_markdown(changes[:20])
    assert "<details>" not in few
    assert len(table_rows(few)) == 21


def test_json_output_follows_the_documented_schema(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from a2a_docgen.review.codes import CODES

    schema = json.loads((REPO / "docs" / "diff.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["$defs"]["change"]["properties"]["code"]["enum"]) == set(CODES)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".a2a-docgen.toml").write_text(
        '[[diff.accept]]\nagent = "Fax Gateway"\ncode = "agent-removed"\nreason = "Retired"\nexpires = 2999-01-01\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    _, out, _ = run(
        capsys,
        shutil.copytree(BASE, tmp_path / "base"),
        shutil.copytree(HEAD, tmp_path / "head"),
        "--format",
        "json",
    )
    report = json.loads(out)
    changes = report["changes"]
    assert any(c["accepted"] for c in changes)
    assert any(c["policy"] for c in changes)
    assert report["schemaVersion"] == 2
    jsonschema.Draft202012Validator(schema).validate(report)
    keys = set(Change.__dataclass_fields__) | {"policy", "fingerprint", "docs"}
    assert set(schema["$defs"]["change"]["required"]) == keys


def test_the_warnings_left_to_check_are_counted_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """One warning beside the errors of a head card is "1 warning", not "1 warnings"."""
    card = weather()
    write(tmp_path / "base" / "weather.json", card)
    card["version"] = 2  # an error
    card["description"] = "Forecasts\u200b"  # and one warning (an invisible character)
    write(tmp_path / "head" / "weather.json", card)
    _, _, err = run(capsys, "--no-config", tmp_path / "base", tmp_path / "head")
    assert "(and 1 warning: run a2a-docgen check for them)" in err
