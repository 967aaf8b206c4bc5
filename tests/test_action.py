"""The repository's GitHub Action (action.yml, action/review.sh), run under a simulated Actions
environment: the ``GITHUB_*`` variables of a pull-request run, the ``INPUT_*`` variables action.yml sets,
and a clone whose ``origin/main`` is the base branch."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
ACTION, SCRIPT = REPO / "action.yml", REPO / "action" / "review.sh"
CARDS = Path(__file__).parent / "data" / "diff" / "base"

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("bash") is None, reason="needs git and bash"
)


def _action() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    action: dict[str, Any] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    return action


def git(cwd: Path, *argv: str) -> str:
    result = subprocess.run(
        [
            "git",
            "-c",
            "user.name=Test",
            "-c",
            "user.email=test@example.com",
            "-c",
            "init.defaultBranch=main",
            *argv,
        ],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout.strip()


@pytest.fixture
def pull_request(tmp_path: Path) -> Path:
    """A clone on a pull-request branch that removes a skill, with origin/main holding the cards."""
    upstream = tmp_path / "upstream"
    (upstream / "cards").mkdir(parents=True)
    git(upstream, "init", "-q")
    for card in ("weather.json", "fax.json"):
        shutil.copy(CARDS / card, upstream / "cards" / card)
    git(upstream, "add", ".")
    git(upstream, "commit", "-q", "-m", "cards")
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(upstream), str(work))
    git(work, "checkout", "-q", "-b", "pr")
    card = json.loads((work / "cards" / "weather.json").read_text(encoding="utf-8"))
    card["skills"].pop(0)
    (work / "cards" / "weather.json").write_text(json.dumps(card, indent=2), encoding="utf-8")
    git(work, "commit", "-q", "-am", "drop a skill")
    return work


def simulate(
    work: Path, tmp_path: Path, **inputs: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """Run action/review.sh as the composite step runs it; the outputs it wrote to $GITHUB_OUTPUT."""
    runner = tmp_path / "runner"
    runner.mkdir(exist_ok=True)
    output, summary = runner / "output", runner / "summary.md"
    output.write_text("", encoding="utf-8")
    env = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        # The action installs its own revision ($GITHUB_ACTION_PATH): this checkout, whatever is installed.
        "PYTHONPATH": str(REPO),
        "HOME": str(tmp_path),
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_BASE_REF": "main",
        "GITHUB_HEAD_REF": "pr",
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "acme/agents",
        "GITHUB_SHA": git(work, "rev-parse", "HEAD"),
        "GITHUB_RUN_ID": "4242",
        "GITHUB_WORKSPACE": str(work),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_ACTION_PATH": str(REPO),
        "RUNNER_TEMP": str(runner),
        **{f"INPUT_{name.upper()}": value for name, value in inputs.items()},
    }
    result = subprocess.run(
        ["bash", str(SCRIPT)], cwd=work, env=env, capture_output=True, text=True, check=False
    )
    outputs = dict(
        line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines() if "=" in line
    )
    return result, outputs


def test_the_action_reviews_a_pull_request(pull_request: Path, tmp_path: Path) -> None:
    result, outputs = simulate(pull_request, tmp_path, cards="cards", fail_on="breaking")
    assert result.returncode == 0, result.stderr  # the script never fails; the action's last step does
    assert (outputs["exit"], outputs["check-exit"]) == ("1", "0")
    comment = Path(outputs["comment-file"]).read_text(encoding="utf-8")
    assert comment.startswith("<!-- a2a-docgen-diff -->\n### ❌ ")
    sha = git(pull_request, "rev-parse", "HEAD")
    assert f"https://github.com/acme/agents/blob/{sha}/cards/weather.json#L" in comment
    summary = (tmp_path / "runner" / "summary.md").read_text(encoding="utf-8")
    assert "skill-removed" in summary
    report = json.loads(Path(outputs["report-file"]).read_text(encoding="utf-8"))
    assert report["schemaVersion"] == 2
    assert "skill-removed" in {c["code"] for c in report["changes"]}
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    assert any("skill-removed" in line and "file=cards/weather.json" in line for line in annotations)


def test_the_action_with_fail_on_never_and_no_change(pull_request: Path, tmp_path: Path) -> None:
    git(pull_request, "checkout", "-q", "main")
    _, outputs = simulate(pull_request, tmp_path, cards="cards", fail_on="never")
    assert outputs["exit"] == "0"
    assert (
        Path(outputs["comment-file"]).read_text(encoding="utf-8") == ""
    )  # --skip-empty: the old comment goes


def test_inputs_never_become_shell_code(pull_request: Path, tmp_path: Path) -> None:
    result, outputs = simulate(
        pull_request, tmp_path, cards="cards; touch pwned $(touch pwned2)", fail_on="x"
    )
    assert result.returncode == 0
    assert outputs["exit"] == "2"  # a usage error: no such paths, no such --fail-on
    assert outputs["comment-file"] == ""  # the comment step keeps the previous review, deletes nothing
    assert not (pull_request / "pwned").exists()
    assert not (pull_request / "pwned2").exists()


def test_action_yml_passes_inputs_through_the_environment_only() -> None:
    action = _action()
    assert {"cards", "fail-on"} <= set(action["inputs"])
    assert action["inputs"]["cards"]["required"] is True
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    for step in steps:
        assert "${{" not in step.get("run", ""), step.get("name")
    review = next(step for step in steps if step.get("id") == "review")
    assert review["run"] == '"$GITHUB_ACTION_PATH/action/review.sh"'
    assert set(review["env"]) == {
        "INPUT_CARDS",
        "INPUT_FAIL_ON",
        "INPUT_BASE_REF",
        "INPUT_CONFIG",
        "INPUT_SITE_URL",
    }
    install = next(step for step in steps if "pip install" in step.get("run", ""))
    assert '"$GITHUB_ACTION_PATH"' in install["run"]  # this action's own revision, no release to pin
    assert SCRIPT.stat().st_mode & 0o111


def test_the_fail_step_fails_on_findings_and_on_usage_errors(tmp_path: Path) -> None:
    fail = _action()["runs"]["steps"][-1]
    for exit_code, check_exit, expected, message in (
        ("1", "0", 1, "found changes at or above fail-on"),
        ("2", "0", 1, "exit 2, a usage error"),
        ("0", "1", 1, "found invalid cards"),
    ):
        env = {"PATH": os.environ["PATH"], "EXIT": exit_code, "CHECK_EXIT": check_exit}
        result = subprocess.run(
            ["bash", "-c", fail["run"]], env=env, capture_output=True, text=True, check=False
        )
        assert result.returncode == expected
        assert message in result.stdout


def test_a_usage_error_posts_no_comment_and_keeps_the_previous_one(
    pull_request: Path, tmp_path: Path
) -> None:
    """A mistyped cards path is exit 2: no comment file, so the comment step (which deletes the previous
    review when the comment is empty) leaves the previous review alone; the last step fails the job."""
    _, outputs = simulate(pull_request, tmp_path, cards="crads", fail_on="breaking")
    assert outputs["exit"] == "2"
    assert outputs["comment-file"] == ""
    assert not (tmp_path / "runner" / "summary.md").exists() or "a2a-docgen-diff" not in (
        tmp_path / "runner" / "summary.md"
    ).read_text(encoding="utf-8")
    script = next(s for s in _action()["runs"]["steps"] if s.get("name") == "Comment on the pull request")
    assert "if (!file || !fs.existsSync(file))" in script["with"]["script"]


def test_a_pull_request_that_adds_the_first_cards_is_reviewed(pull_request: Path, tmp_path: Path) -> None:
    """No cards at the base under a path the pull request creates: every agent is new (not exit 2)."""
    (pull_request / "more").mkdir()
    shutil.copy(CARDS / "fax.json", pull_request / "more" / "fax.json")
    git(pull_request, "add", ".")
    git(pull_request, "commit", "-q", "-m", "a first card under more/")
    _, outputs = simulate(pull_request, tmp_path, cards="more", fail_on="breaking")
    assert outputs["exit"] == "0"
    assert "agent-added" in Path(outputs["comment-file"]).read_text(encoding="utf-8")
    _, outputs = simulate(pull_request, tmp_path, cards="nowhere", fail_on="breaking")
    assert outputs["exit"] == "2"  # a path with cards on neither side is still wrong


def test_a_pull_request_cannot_set_the_rules_it_is_reviewed_by(pull_request: Path, tmp_path: Path) -> None:
    """The pull request drops a skill and adds a configuration that would turn the finding and the version
    policy off: the Action reviews it by origin/main's rules (none), and reports the configuration."""
    (pull_request / ".a2a-docgen.toml").write_text(
        '[diff]\nversion-policy = "off"\n\n[diff.severity]\nskill-removed = "off"\n', encoding="utf-8"
    )
    git(pull_request, "add", ".")
    git(pull_request, "commit", "-q", "-m", "the rules that would hide it")
    result, outputs = simulate(pull_request, tmp_path, cards="cards", fail_on="breaking")
    assert outputs["exit"] == "1", result.stderr
    comment = Path(outputs["comment-file"]).read_text(encoding="utf-8")
    assert comment.startswith("<!-- a2a-docgen-diff -->\n### ❌ 1 breaking change")
    assert "skill-removed" in comment
    assert "turns skill-removed off (breaking at the base): it would hide 1 finding" in comment
    sha = git(pull_request, "rev-parse", "HEAD")
    assert f"https://github.com/acme/agents/blob/{sha}/.a2a-docgen.toml#L5" in comment
    report = json.loads(Path(outputs["report-file"]).read_text(encoding="utf-8"))
    assert {c["code"] for c in report["changes"]} >= {
        "skill-removed",
        "version-not-bumped",
        "config-loosened",
    }
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    assert any("config-loosened" in line and "file=.a2a-docgen.toml,line=5" in line for line in annotations)
    # Named as the action's config input, the file is read at the base revision too.
    _, outputs = simulate(
        pull_request, tmp_path, cards="cards", fail_on="breaking", config=".a2a-docgen.toml"
    )
    assert outputs["exit"] == "1"
