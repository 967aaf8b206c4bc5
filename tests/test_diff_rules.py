"""The rules a change is judged by are not the change's to set: with ``--base-ref`` (and so in the Action) the
configuration is read at the base revision, and what the head's configuration would change is reported.

Every test builds a real git repository in ``tmp_path``: the base commit, then the pull request's commit.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.cli import main

BASE_CARD = Path(__file__).parent / "data" / "diff" / "base" / "weather.json"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

ATTACK = """\
# the pull request's own rules
[diff]
version-policy = "off"

[diff.severity]
skill-removed = "off"
"""


def git(repo: Path, *argv: str) -> str:
    result = subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *argv],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout.strip()


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main(["diff", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def drop_first_skill(repo: Path) -> None:
    path = repo / "cards" / "weather.json"
    card = json.loads(path.read_text(encoding="utf-8"))
    card["skills"].pop(0)
    path.write_text(json.dumps(card, indent=2), encoding="utf-8")


def configure(repo: Path, text: str | None, where: str = ".") -> None:
    path = repo / where / ".a2a-docgen.toml"
    if text is None:
        path.unlink()
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose first commit holds cards/weather.json, as the current directory."""
    git(tmp_path, "init", "-q")
    (tmp_path / "cards").mkdir()
    shutil.copy(BASE_CARD, tmp_path / "cards" / "weather.json")
    monkeypatch.chdir(tmp_path)
    for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA", "GITHUB_RUN_ID"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def findings(out: str) -> list[dict[str, Any]]:
    changes: list[dict[str, Any]] = json.loads(out)["changes"]
    return changes


def by_code(out: str, code: str) -> list[dict[str, Any]]:
    return [c for c in findings(out) if c["code"] == code]


def test_a_pull_request_cannot_turn_off_what_it_breaks(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = commit(repo, "cards")
    drop_first_skill(repo)
    configure(repo, ATTACK)
    commit(repo, "drop forecast, and the rules that would report it")

    code, out, err = run(capsys, "--base-ref", base, "cards", "--format", "json")
    assert code == 1, err
    [removed] = by_code(out, "skill-removed")
    assert (removed["severity"], removed["skill"], removed["accepted"]) == ("breaking", "forecast", None)
    assert by_code(out, "version-not-bumped")  # the base has the version policy on
    loosened = {c["pointer"]: c for c in by_code(out, "config-loosened")}
    assert set(loosened) == {"/diff/severity/skill-removed", "/diff/version-policy"}
    severity = loosened["/diff/severity/skill-removed"]
    assert (severity["file"], severity["line"], severity["column"]) == (".a2a-docgen.toml", 6, 1)
    assert severity["severity"] == "breaking"  # it would hide a finding of this very review
    assert "turns skill-removed off" in severity["message"]
    assert "1 finding of this review" in severity["message"]
    policy = loosened["/diff/version-policy"]
    assert (policy["line"], policy["column"], policy["severity"]) == (3, 1, "breaking")
    assert "version policy off" in policy["message"]

    # Every format shows it, at its line of the head's file.
    code, text, _ = run(capsys, "--base-ref", base, "cards")
    assert code == 1
    assert ".a2a-docgen.toml:6: breaking: configuration: turns skill-removed off" in text
    _, github, _ = run(capsys, "--base-ref", base, "cards", "--format", "github")
    assert "::error file=.a2a-docgen.toml,line=6,col=1,title=Breaking change%3A config-loosened::" in github
    _, comment, _ = run(capsys, "--base-ref", base, "cards", "--format", "markdown", "--skip-empty")
    assert comment.startswith("<!-- a2a-docgen-diff -->\n### ❌ 1 breaking change")
    assert "#### Changes to the review's configuration" in comment
    assert "[`config-loosened`]" in comment
    assert "turns skill-removed off" in comment


def test_the_same_configuration_at_base_and_head_reports_nothing_more(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(repo, ATTACK)
    base = commit(repo, "cards, with a lenient configuration")
    drop_first_skill(repo)
    configure(
        repo,
        "# reformatted, the same rules\n[diff]\nversion-policy = false\n[diff.severity]\n"
        'skill-removed = "off"\nagent-removed = "breaking"\n',
    )
    commit(repo, "drop forecast")
    code, out, err = run(capsys, "--base-ref", base, "cards", "--format", "json")
    assert code == 0, err
    assert findings(out) == []  # the base's rules hide the removal, as its team decided


def test_a_tightened_configuration_is_info_and_judges_later_changes(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(repo, '[diff.severity]\nskill-removed = "non-breaking"\ndescription-changed = "off"\n')
    base = commit(repo, "cards, with skill removals allowed")
    drop_first_skill(repo)
    configure(repo, '[diff.severity]\ndescription-changed = "info"\n')
    commit(repo, "drop forecast; removals are breaking from now on")
    code, out, err = run(capsys, "--base-ref", base, "cards", "--format", "json")
    assert code == 0, err  # judged by the base: the removal is non-breaking
    assert [c["severity"] for c in by_code(out, "skill-removed")] == ["non-breaking"]
    tightened = {c["pointer"]: c for c in by_code(out, "config-tightened")}
    assert set(tightened) == {"/diff/severity/skill-removed", "/diff/severity/description-changed"}
    assert {c["severity"] for c in tightened.values()} == {"info"}
    # the removed override is shown at the table that no longer has it
    assert tightened["/diff/severity/skill-removed"]["line"] == 1
    assert (
        "skill-removed from non-breaking to breaking" in tightened["/diff/severity/skill-removed"]["message"]
    )
    description = tightened["/diff/severity/description-changed"]
    assert description["line"] == 2
    assert description["message"] == "turns description-changed on as info (off at the base)"
    assert by_code(out, "config-loosened") == []
