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


def test_an_acceptance_the_change_adds_does_not_apply_to_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = commit(repo, "cards")
    drop_first_skill(repo)
    configure(
        repo,
        '[[diff.accept]]\nagent = "Weather Agent"\nskill = "forecast"\ncode = "skill-removed"\n'
        'reason = "nobody calls it"\n',
    )
    commit(repo, "drop forecast, accepted by itself")
    code, out, _ = run(capsys, "--base-ref", base, "cards", "--format", "json")
    assert code == 1
    [removed] = by_code(out, "skill-removed")
    assert removed["accepted"] is None
    [loosened] = by_code(out, "config-loosened")
    assert (loosened["pointer"], loosened["line"], loosened["severity"]) == ("/diff/accept/0", 1, "breaking")
    assert loosened["message"] == (
        "adds the acceptance of skill-removed for Weather Agent › forecast (for good): "
        "it would accept 1 finding of this review"
    )


def test_a_loosening_that_hides_nothing_here_is_shown_but_does_not_fail(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = commit(repo, "cards")
    drop_first_skill(repo)
    configure(repo, '[diff.severity]\nextension-removed = "info"\n')
    commit(repo, "drop forecast; extensions are ours to drop")
    code, out, _ = run(capsys, "--base-ref", base, "cards", "--format", "json", "--fail-on", "breaking")
    [loosened] = by_code(out, "config-loosened")
    assert loosened["severity"] == "non-breaking"
    assert loosened["message"] == (
        "lowers extension-removed from breaking to info: no finding of this review is concerned; "
        "it applies once merged"
    )
    assert code == 1  # the removal itself, as the base judges it
    # With nothing else changed the comment stays (it is not "nothing to say"), and the run passes.
    git(repo, "checkout", "-q", base, "--", "cards")
    code, comment, _ = run(capsys, "--base-ref", base, "cards", "--format", "markdown", "--skip-empty")
    assert code == 0
    assert comment.startswith("<!-- a2a-docgen-diff -->\n### ✅ No breaking changes")
    assert "lowers extension-removed from breaking to info" in comment


def test_an_invalid_head_configuration_is_a_finding_not_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = commit(repo, "cards")
    configure(repo, '[diff.severity]\nskill-remove = "off"\n')
    commit(repo, "a typo")
    code, out, err = run(capsys, "--base-ref", base, "cards", "--format", "json")
    assert code == 1, err
    [invalid] = findings(out)
    assert (invalid["code"], invalid["severity"], invalid["file"], invalid["line"]) == (
        "config-invalid",
        "breaking",
        ".a2a-docgen.toml",
        2,
    )
    assert "diff.severity.skill-remove: unknown code (did you mean skill-removed?)" in invalid["message"]
    configure(repo, "[diff\n")
    _, text, _ = run(capsys, "--base-ref", base, "cards")
    assert text.startswith(".a2a-docgen.toml:1: breaking: configuration: the configuration cannot be used")


def test_an_invalid_base_configuration_is_a_usage_error_naming_the_revision(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(repo, "[diff]\nversion-policy = 3\n")
    base = commit(repo, "cards, and a bad configuration")
    configure(repo, "")
    code, _, err = run(capsys, "--base-ref", base, "cards")
    assert code == 2
    assert ".a2a-docgen.toml:2: diff.version-policy: 3 is not a version policy" in err
    assert f"(the configuration at {base}, which judges this change)" in err


def test_the_nearest_configuration_is_found_in_the_base_tree(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(repo, '[diff.severity]\nskill-removed = "info"\n')
    configure(repo, '[diff.severity]\nskill-removed = "non-breaking"\n', where="cards")
    base = commit(repo, "cards, the team's rules in cards/")
    drop_first_skill(repo)
    configure(repo, None, where="cards")  # the head would fall back to the root's, more lenient
    commit(repo, "drop forecast and the nearer rules")
    monkeypatch.chdir(repo / "cards")
    code, out, _ = run(capsys, "--base-ref", base, ".", "--format", "json")
    assert [c["severity"] for c in by_code(out, "skill-removed")] == ["non-breaking"]  # cards/'s, at base
    [loosened] = by_code(out, "config-loosened")
    assert loosened["file"] == ".a2a-docgen.toml"  # the head's nearest, which would judge, from the top
    assert loosened["message"].startswith("lowers skill-removed from non-breaking to info: it would lower 1")
    assert (loosened["severity"], code) == ("breaking", 1)  # the change would have judged itself


def test_a_deleted_configuration_is_shown_at_the_base_file(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(repo, '# strict\n[diff.severity]\ndescription-changed = "breaking"\n')
    base = commit(repo, "cards, strict about descriptions")
    path = repo / "cards" / "weather.json"
    card = json.loads(path.read_text(encoding="utf-8"))
    card["description"] = "Another description"
    path.write_text(json.dumps(card, indent=2), encoding="utf-8")
    configure(repo, None)
    commit(repo, "a new description, and no more rules")
    code, out, _ = run(capsys, "--base-ref", base, "cards", "--format", "json")
    assert code == 1
    assert [c["severity"] for c in by_code(out, "description-changed")] == ["breaking"]
    [loosened] = by_code(out, "config-loosened")
    assert (loosened["side"], loosened["file"], loosened["line"]) == ("base", ".a2a-docgen.toml", 3)
    assert loosened["message"].endswith("(the change deletes .a2a-docgen.toml)")
    _, text, _ = run(capsys, "--base-ref", base, "cards")
    assert "(line 3 of the base configuration)" in text


def test_config_option_inside_the_repository_is_read_at_the_base(
    repo: Path, capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    configure(repo, '[diff.severity]\nskill-removed = "non-breaking"\n', where="ci")
    base = commit(repo, "cards, rules in ci/")
    drop_first_skill(repo)
    configure(repo, '[diff.severity]\nskill-removed = "off"\n', where="ci")
    commit(repo, "drop forecast, hide it")
    code, out, _ = run(
        capsys, "--base-ref", base, "cards", "--config", "ci/.a2a-docgen.toml", "--format", "json"
    )
    assert [c["severity"] for c in by_code(out, "skill-removed")] == ["non-breaking"]
    [loosened] = by_code(out, "config-loosened")
    assert (loosened["file"], loosened["line"], loosened["severity"]) == (
        "ci/.a2a-docgen.toml",
        2,
        "breaking",
    )
    assert code == 1
    # A file outside the repository is the runner's own: read from disk, nothing to compare.
    runner = tmp_path_factory.mktemp("runner") / "rules.toml"
    runner.write_text('[diff.severity]\nskill-removed = "info"\n', encoding="utf-8")
    code, out, _ = run(capsys, "--base-ref", base, "cards", "--config", runner, "--format", "json")
    assert code == 0
    assert [c["code"] for c in findings(out) if c["policy"]] == []
    assert [c["severity"] for c in by_code(out, "skill-removed")] == ["info"]
    # Named, but at neither side: as without a revision.
    code, _, err = run(capsys, "--base-ref", base, "cards", "--config", "nowhere.toml")
    assert code == 2
    assert f"nowhere.toml: no such configuration file, here or at {base}" in err


def test_no_config_compares_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = commit(repo, "cards")
    configure(repo, ATTACK)
    code, out, _ = run(capsys, "--base-ref", base, "cards", "--format", "json", "--no-config")
    assert (code, findings(out)) == (0, [])


def test_a_symbolic_link_at_the_base_is_not_followed(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "rules.toml").write_text(ATTACK, encoding="utf-8")
    (repo / ".a2a-docgen.toml").symlink_to("rules.toml")
    base = commit(repo, "cards, rules behind a link")
    code, _, err = run(capsys, "--base-ref", base, "cards")
    assert code == 2
    assert f".a2a-docgen.toml: a symbolic link at {base}, which is not followed" in err


def test_two_directories_without_git_keep_the_working_trees_configuration(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(repo / "cards", repo / "head")
    configure(repo, ATTACK)
    path = repo / "head" / "weather.json"
    card = json.loads(path.read_text(encoding="utf-8"))
    card["skills"].pop(0)
    path.write_text(json.dumps(card), encoding="utf-8")
    code, out, _ = run(capsys, "cards", "head", "--format", "json")
    assert (code, findings(out)) == (0, [])  # the caller chose both directories and the file
