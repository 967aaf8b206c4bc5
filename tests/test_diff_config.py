"""The review configuration (.a2a-docgen.toml): parsing with exact messages, discovery, and its effects."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.cli import main
from a2a_docgen.review.codes import CODES, EXAMPLES
from a2a_docgen.review.config import ConfigError, find_config, parse_config

DATA = Path(__file__).parent / "data" / "diff"
BASE, HEAD = DATA / "base", DATA / "head"

EXAMPLE = """\
# what the Weather team accepted
[diff]
version-policy = "breaking"

[diff.severity]
extension-removed = "non-breaking"
description-changed = "off"

[[diff.accept]]
agent = "Weather Agent"
skill = "forecast"
code = "input-mode-removed"
pointer = "/skills/0/inputModes"
reason = "No client sends JSON to forecast"
expires = 2999-12-31

[[diff.accept]]
agent = "Fax Gateway"
code = "agent-removed"
reason = "Retired; its clients moved to Mail"
"""


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main(["diff", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty repository directory as the current directory, with a copy of tests/data/diff in ``data``:
    the configuration is looked up from the head cards, so they are copied below it."""
    (tmp_path / ".git").mkdir()
    shutil.copytree(DATA, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def configure(directory: Path, text: str) -> Path:
    path = directory / ".a2a-docgen.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- parsing ------------------------------------------------------------------------------------------------


def test_the_example_parses() -> None:
    config = parse_config(EXAMPLE, ".a2a-docgen.toml")
    assert config.severities == {
        "extension-removed": "non-breaking",
        "description-changed": None,
        "version-not-bumped": "breaking",  # what version-policy = "breaking" sets
    }
    assert config.version_policy is True
    first, second = config.accept
    assert (first.agent, first.skill, first.code, first.pointer) == (
        "Weather Agent",
        "forecast",
        "input-mode-removed",
        "/skills/0/inputModes",
    )
    assert first.expires == date(2999, 12, 31)
    assert (first.file, first.line) == (".a2a-docgen.toml", 9)
    assert (second.skill, second.pointer, second.expires, second.line) == (None, None, None, 17)


def test_an_empty_file_is_the_default() -> None:
    config = parse_config("", "c.toml")
    assert (config.severities, config.version_policy, config.accept) == ({}, True, ())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[diff]\nversion-policy = 'sometimes'\n",
            "c.toml:2: diff.version-policy: 'sometimes' is not a version policy",
        ),
        ("[diff]\nversion-policy = false\n", None),
        (
            "[diff]\nversoin-policy = false\n",
            "c.toml:2: diff.versoin-policy: unknown key (did you mean version-policy?)",
        ),
        ("[dif]\n", "c.toml:1: dif: unknown table; a2a-docgen diff reads its settings from [diff]"),
        (
            "[diff.severity]\nextention-removed = 'info'\n",
            "c.toml:2: diff.severity.extention-removed: unknown code (did you mean extension-removed?)",
        ),
        (
            "[diff.severity]\nextension-removed = 'minor'\n",
            "c.toml:2: diff.severity.extension-removed: 'minor' is not a severity; use one of 'breaking', "
            "'non-breaking', 'info', 'off'",
        ),
        (
            "[diff.severity]\nskill-removed = 1\n",
            "c.toml:2: diff.severity.skill-removed: a number is not a severity",
        ),
        (
            "[diff]\nversion-policy = 'info'\n[diff.severity]\nversion-not-bumped = 'info'\n",
            "c.toml:2: diff.version-policy: diff.severity.version-not-bumped is set too",
        ),
        (
            "[[diff.accept]]\nagent = 'A'\ncode = 'skill-removed'\n",
            "c.toml:1: diff.accept[0]: reason is missing (every acceptance needs agent, code and reason, "
            "or fingerprint and reason)",
        ),
        (
            "[[diff.accept]]\nagent = 'A'\ncode = 'skill-removed'\nreason = 'x'\n\n"
            "[[diff.accept]]\nagent = 'A'\ncode = 'skil-removed'\nreason = 'x'\n",
            "c.toml:8: diff.accept[1].code: unknown code 'skil-removed' (did you mean skill-removed?)",
        ),
        (
            "[[diff.accept]]\nagent = 'A'\ncode = 'skill-removed'\nreason = '  '\n",
            "c.toml:4: diff.accept[0].reason: must not be empty",
        ),
        (
            "[[diff.accept]]\nagent = 'A'\ncode = 'skill-removed'\nreason = 'x'\nexpires = 'soon'\n",
            "c.toml:5: diff.accept[0].expires: 'soon' is not a date; write it as 2025-09-30",
        ),
        (
            "[[diff.accept]]\nagent = 'A'\ncode = 'skill-removed'\nreason = 'x'\npointer = 'skills/0'\n",
            "c.toml:5: diff.accept[0].pointer: 'skills/0' is not a JSON Pointer",
        ),
        (
            "[[diff.accept]]\nagent = 'A'\ncode = 'skill-removed'\nreason = 'x'\nresaon = 'y'\n",
            "c.toml:5: diff.accept[0].resaon: unknown key (did you mean reason?)",
        ),
        (
            "[[diff.accept]]\nagent = 1\ncode = 'skill-removed'\nreason = 'x'\n",
            "c.toml:2: diff.accept[0].agent: must be a string, not a number",
        ),
        (
            "[diff]\naccept = 'x'\n",
            "c.toml:2: diff.accept: must be an array of tables ([[diff.accept]]), not a string",
        ),
        (
            "[[diff.accept]]\nfingerprint = '3E5C6F97A9B2E253'\nreason = 'x'\n",
            "c.toml:2: diff.accept[0].fingerprint: '3E5C6F97A9B2E253' is not a fingerprint (16 lowercase",
        ),
        (
            "[[diff.accept]]\nfingerprint = '3e5c6f97a9b2e253'\n",
            "c.toml:1: diff.accept[0]: reason is missing (every acceptance needs agent, code and reason, "
            "or fingerprint and reason)",
        ),
        (
            "[[diff.accept]]\nfingerprint = '3e5c6f97a9b2e253'\ncode = 'skil-removed'\nreason = 'x'\n",
            "c.toml:3: diff.accept[0].code: unknown code 'skil-removed'",
        ),
        ("[diff]\nseverity = = 1\n", "c.toml:2:12: not valid TOML: Invalid value"),
        ("[diff]\nseverity = [\n", "c.toml:2: not valid TOML: Invalid value"),
    ],
)
def test_problems_name_the_file_line_and_key(text: str, message: str | None) -> None:
    if message is None:
        assert parse_config(text, "c.toml").version_policy is False
        return
    with pytest.raises(ConfigError) as raised:
        parse_config(text, "c.toml")
    assert str(raised.value).startswith(message), str(raised.value)


def test_expires_accepts_a_quoted_date_and_a_date_time() -> None:
    text = (
        "[[diff.accept]]\nagent='A'\ncode='skill-removed'\nreason='x'\nexpires='2030-01-02'\n"
        "[[diff.accept]]\nagent='A'\ncode='skill-removed'\nreason='x'\nexpires=2030-01-03T10:00:00Z\n"
    )
    assert [a.expires for a in parse_config(text, "c.toml").accept] == [date(2030, 1, 2), date(2030, 1, 3)]


def test_inline_acceptances_are_found_at_their_key() -> None:
    text = "[diff]\naccept = [\n  {agent = 'A', code = 'nope', reason = 'x'},\n]\n"
    with pytest.raises(ConfigError, match=r"^c\.toml:2: diff\.accept\[0\]\.code: unknown code 'nope'"):
        parse_config(text, "c.toml")


def test_find_config_looks_upwards_to_the_repository_root(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    deep = repo / "cards" / "deep"
    deep.mkdir(parents=True)
    (repo / ".git").mkdir()
    assert find_config(deep) is None
    configure(tmp_path, "")  # outside the repository: never read
    assert find_config(deep) is None
    path = configure(repo, "")
    assert find_config(deep) == path.resolve()
    assert find_config(repo) == path.resolve()


# -- effects ------------------------------------------------------------------------------------------------


def test_accepted_changes_are_shown_and_never_fail(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(
        here,
        """
[[diff.accept]]
agent = "Fax Gateway"
code = "agent-removed"
reason = "Retired; its clients moved to Mail"
""",
    )
    weather_only = here / "b"
    weather_only.mkdir()
    shutil.copy(here / "data" / "base" / "fax.json", weather_only / "fax.json")
    empty = here / "h"
    empty.mkdir()
    shutil.copy(here / "data" / "head" / "maps.json", empty / "maps.json")
    code, out, err = run(capsys, weather_only, empty)
    assert code == 0, out + err
    assert (
        f"{weather_only / 'fax.json'}:1: breaking (accepted): Fax Gateway: the agent is gone [agent-removed] "
        in out
    )
    assert "(accepted: Retired; its clients moved to Mail)" in out
    assert out.splitlines()[-1] == "2 changes: 0 breaking, 1 non-breaking, 0 info, 1 accepted."
    assert "warning" not in err

    code, out, _ = run(capsys, weather_only, empty, "--format", "json")
    removed = next(c for c in json.loads(out)["changes"] if c["code"] == "agent-removed")
    assert removed["severity"] == "breaking"
    assert removed["accepted"] == {
        "reason": "Retired; its clients moved to Mail",
        "expires": None,
        "file": ".a2a-docgen.toml",
        "line": 2,
    }

    code, out, _ = run(capsys, weather_only, empty, "--format", "markdown")
    assert "### ✅ No breaking changes to A2A agent cards" in out
    assert "— accepted: Retired; its clients moved to Mail" in out

    code, out, _ = run(capsys, weather_only, empty, "--format", "github")
    assert (
        f"::notice file={weather_only / 'fax.json'},line=1,col=1,title=Accepted breaking change%3A agent-removed::"
        in out
    )


def _accept(
    code: str, *, skill: str | None = None, pointer: str | None = None, expires: str | None = None
) -> str:
    lines = ["[[diff.accept]]", 'agent = "Weather Agent"', f'code = "{code}"', 'reason = "agreed"']
    if skill is not None:
        lines.append(f'skill = "{skill}"')
    if pointer is not None:
        lines.append(f'pointer = "{pointer}"')
    if expires is not None:
        lines.append(f"expires = {expires}")
    return "\n".join(lines) + "\n"


def review_weather(here: Path, capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    """``diff --format json`` of the weather card from tests/data/diff/base to head, as copied ``here``."""
    data = here / "data"
    return run(
        capsys, data / "base" / "weather.json", data / "head" / "weather.json", "--format", "json", *argv
    )


def _codes(out: str) -> dict[str, Any]:
    return {c["code"]: c for c in json.loads(out)["changes"]}


def test_acceptance_by_skill_and_pointer(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(
        here,
        _accept("input-mode-removed", skill="forecast", pointer="/skills/0/inputModes")
        + _accept("security-scope-required", skill="observations", pointer="/elsewhere"),
    )
    code, out, err = review_weather(here, capsys)
    changes = _codes(out)
    assert changes["input-mode-removed"]["accepted"]["reason"] == "agreed"
    assert changes["security-scope-required"]["accepted"] is None
    assert code == 1
    assert (
        "a2a-docgen diff: warning: .a2a-docgen.toml:7: the acceptance of security-scope-required for "
        "Weather Agent › observations at /elsewhere matches no change; remove it" in err
    )


def test_an_acceptance_without_skill_matches_only_agent_wide_changes(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(here, _accept("input-mode-removed"))
    _, out, err = review_weather(here, capsys)
    assert _codes(out)["input-mode-removed"]["accepted"] is None
    assert "the acceptance of input-mode-removed for Weather Agent matches no change" in err


def test_expired_acceptances_stop_applying(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(
        here,
        _accept("input-mode-removed", skill="forecast", expires="2020-01-31")
        + _accept("skill-removed", skill="nowhere", expires="2020-02-01"),
    )
    code, out, err = review_weather(here, capsys)
    assert _codes(out)["input-mode-removed"]["accepted"] is None
    assert code == 1
    assert (
        ".a2a-docgen.toml:1: the acceptance of input-mode-removed for Weather Agent › forecast expired on "
        "2020-01-31: the change it accepted is reported again" in err
    )
    assert "expired on 2020-02-01: it matches no change either; remove it" in err


def test_an_acceptance_applies_on_its_last_day() -> None:
    from a2a_docgen.catalog import load_catalog
    from a2a_docgen.review.diff import review_catalogs

    config = parse_config(_accept("input-mode-removed", skill="forecast", expires="2030-05-01"), "c.toml")
    base, head = load_catalog([BASE / "weather.json"]), load_catalog([HEAD / "weather.json"])
    on_the_day = review_catalogs(base, head, config=config, today=date(2030, 5, 1))
    after = review_catalogs(base, head, config=config, today=date(2030, 5, 2))
    assert [c.accepted is not None for c in on_the_day.changes if c.code == "input-mode-removed"] == [True]
    assert [c.accepted is not None for c in after.changes if c.code == "input-mode-removed"] == [False]
    assert on_the_day.warnings == []
    assert [w.line for w in after.warnings] == [1]


def test_accepting_every_breaking_change_also_settles_the_version_policy(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(
        here,
        _accept("input-mode-removed", skill="forecast")
        + _accept("security-scope-required", skill="observations"),
    )
    code, out, _ = review_weather(here, capsys)
    assert "version-not-bumped" not in _codes(out)
    assert code == 0


def test_version_not_bumped_can_itself_be_accepted(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(here, _accept("version-not-bumped"))
    code, out, _ = run(
        capsys, here / "data" / "base" / "weather.json", here / "data" / "head" / "weather.json"
    )
    assert "breaking (accepted): Weather Agent: breaking changes ship" in out
    assert out.splitlines()[-1].endswith("; 1 policy finding: 1 accepted.")
    assert code == 1  # the breaking changes themselves still fail


def test_severity_overrides(here: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = json.loads((here / "data" / "base" / "weather.json").read_text(encoding="utf-8"))
    base["capabilities"]["extensions"] = [{"uri": "https://ext.example.com/trace"}]
    (here / "b.json").write_text(json.dumps(base), encoding="utf-8")
    with_extension = here / "b.json"
    code, out, _ = run(capsys, with_extension, here / "data" / "base" / "weather.json", "--format", "json")
    assert (code, _codes(out)["extension-removed"]["severity"]) == (1, "breaking")
    assert "version-not-bumped" in _codes(out)

    configure(here, '[diff.severity]\nextension-removed = "non-breaking"\n')
    code, out, _ = run(capsys, with_extension, here / "data" / "base" / "weather.json", "--format", "json")
    assert code == 0
    assert _codes(out)["extension-removed"]["severity"] == "non-breaking"
    assert "version-not-bumped" not in _codes(out)  # the policy judges the severities as configured

    configure(here, '[diff.severity]\nextension-removed = "off"\n')
    code, out, _ = run(capsys, with_extension, here / "data" / "base" / "weather.json", "--format", "json")
    assert (code, json.loads(out)["changes"]) == (0, [])


def test_an_override_never_lifts_a_change_to_an_unused_scheme(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = json.loads((here / "data" / "base" / "weather.json").read_text(encoding="utf-8"))
    base["securitySchemes"]["key"] = {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}}
    head = json.loads(json.dumps(base))
    head["securitySchemes"]["key"]["apiKeySecurityScheme"]["location"] = "query"
    (here / "b.json").write_text(json.dumps(base), encoding="utf-8")
    (here / "h.json").write_text(json.dumps(head), encoding="utf-8")
    configure(here, '[diff.severity]\napi-key-location-changed = "breaking"\n')
    code, out, _ = run(capsys, here / "b.json", here / "h.json", "--format", "json")
    assert (code, [(c["code"], c["severity"]) for c in json.loads(out)["changes"]]) == (
        0,
        [("api-key-location-changed", "info")],
    )


@pytest.mark.parametrize(
    ("policy", "expected"), [("false", None), ("'off'", None), ("'info'", "info"), ("true", "breaking")]
)
def test_version_policy(
    here: Path, capsys: pytest.CaptureFixture[str], policy: str, expected: str | None
) -> None:
    configure(here, f"[diff]\nversion-policy = {policy}\n")
    _, out, _ = review_weather(here, capsys)
    found = _codes(out).get("version-not-bumped")
    assert (found["severity"] if found else None) == expected


def test_config_option_and_no_config(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(here, '[diff.severity]\ninput-mode-removed = "off"\n')
    other = here / "other.toml"
    other.write_text('[diff.severity]\nsecurity-scope-required = "off"\n', encoding="utf-8")
    args = (
        here / "data" / "base" / "weather.json",
        here / "data" / "head" / "weather.json",
        "--format",
        "json",
    )
    assert "input-mode-removed" not in _codes(run(capsys, *args)[1])
    chosen = _codes(run(capsys, *args, "--config", other)[1])
    assert "input-mode-removed" in chosen
    assert "security-scope-required" not in chosen
    plain = _codes(run(capsys, *args, "--no-config")[1])
    assert {"input-mode-removed", "security-scope-required"} <= plain.keys()


@pytest.mark.parametrize(
    ("argv", "text", "message"),
    [
        (["--config", "missing.toml"], None, "missing.toml: no such configuration file"),
        ([], "[diff.severity]\nskill-removed = 'major'\n", ".a2a-docgen.toml:2: diff.severity.skill-removed"),
        ([], "[diff\n", ".a2a-docgen.toml:1:6: not valid TOML"),
        (["--config", "x.toml", "--no-config"], None, "--config and --no-config exclude each other"),
    ],
)
def test_a_bad_configuration_is_a_usage_error(
    here: Path, capsys: pytest.CaptureFixture[str], argv: list[str], text: str | None, message: str
) -> None:
    if text is not None:
        configure(here, text)
    code, out, err = run(capsys, here / "data" / "base", here / "data" / "head", *argv)
    assert code == 2
    assert out == ""
    assert f"a2a-docgen diff: error: {message}" in err
    assert "Traceback" not in err


# -- --list-codes -------------------------------------------------------------------------------------------


def test_list_codes(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--list-codes")
    assert code == 0
    assert "extension-removed (breaking): an extension is no longer supported\n" in out
    assert "api-key-location-changed (breaking; info when no requirement uses the scheme): " in out
    assert f"    e.g. {EXAMPLES['skill-added']}\n" in out
    assert out.count("\n    e.g. ") == len(CODES)

    configure(here, '[diff]\nversion-policy = false\n[diff.severity]\nextension-removed = "non-breaking"\n')
    _, out, _ = run(capsys, "--list-codes")
    assert "extension-removed (non-breaking; default breaking, set in .a2a-docgen.toml): " in out
    assert "version-not-bumped (breaking; version policy off in .a2a-docgen.toml): " in out

    _, out, _ = run(capsys, "--list-codes", "--format", "json")
    rows = {row["code"]: row for row in json.loads(out)}
    assert rows.keys() == CODES.keys()
    assert rows["extension-removed"] | {"example": ""} == {
        "code": "extension-removed",
        "severity": "non-breaking",
        "default": "breaking",
        "meaning": "an extension is no longer supported",
        "example": "",
        "policy": False,
        "usedSchemesOnly": False,
    }


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--list-codes", "cards"], "--list-codes takes no paths"),
        (["--list-codes", "--format", "github"], "text or json"),
    ],
)
def test_list_codes_usage(
    here: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err


def test_every_code_has_an_example() -> None:
    assert EXAMPLES.keys() == CODES.keys()
    assert all(example.strip() and "\n" not in example for example in EXAMPLES.values())


def test_the_documented_configuration_parses() -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "review.md").read_text(encoding="utf-8")
    block = docs.split("```toml\n# .a2a-docgen.toml\n", 1)[1].split("```", 1)[0]
    config = parse_config(block, ".a2a-docgen.toml")
    assert [a.code for a in config.accept] == ["input-mode-removed", "agent-removed", None]
    assert config.accept[2].fingerprint == "3e5c6f97a9b2e253"
    assert config.severities["extension-removed"] == "non-breaking"


def _fingerprint(out: str, code: str) -> str:
    fingerprint: str = _codes(out)[code]["fingerprint"]
    return fingerprint


def test_a_fingerprint_acceptance_survives_a_skill_inserted_before_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Accepted by fingerprint, a change stays accepted when a new skill moves it to another array index
    (and another line); the same acceptance by pointer no longer matches."""
    _, out, _ = review_weather(here, capsys, "--no-config")
    fingerprint = _fingerprint(out, "input-mode-removed")
    card = json.loads((here / "data" / "head" / "weather.json").read_text(encoding="utf-8"))
    card["skills"].insert(0, {"id": "tides", "name": "Tides", "description": "Tide tables.", "tags": ["sea"]})
    moved = here / "head" / "weather.json"
    moved.parent.mkdir()
    moved.write_text(json.dumps(card, indent=2), encoding="utf-8")
    configure(
        here,
        f'[[diff.accept]]\nfingerprint = "{fingerprint}"\nreason = "agreed"\n\n'
        + _accept("input-mode-removed", skill="forecast", pointer="/skills/0/inputModes"),
    )
    _, out, err = run(capsys, here / "data" / "base" / "weather.json", moved, "--format", "json")
    change = _codes(out)["input-mode-removed"]
    assert change["pointer"] == "/skills/1/inputModes"
    assert change["fingerprint"] == fingerprint
    assert change["accepted"] == {"reason": "agreed", "expires": None, "file": ".a2a-docgen.toml", "line": 1}
    assert "a2a-docgen diff: warning: .a2a-docgen.toml:5: the acceptance of input-mode-removed" in err
    assert ".a2a-docgen.toml:1" not in err  # the fingerprint acceptance matched


def test_a_fingerprint_acceptance_also_checks_what_it_names(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """agent, skill and code written beside a fingerprint must match too; a fingerprint alone leaves the
    skill open (it names the skill)."""
    _, out, _ = review_weather(here, capsys, "--no-config")
    fingerprint = _fingerprint(out, "input-mode-removed")
    configure(
        here,
        f'[[diff.accept]]\nfingerprint = "{fingerprint}"\ncode = "skill-removed"\nreason = "wrong code"\n',
    )
    _, out, err = review_weather(here, capsys)
    assert _codes(out)["input-mode-removed"]["accepted"] is None
    assert (
        f"the acceptance of skill-removed with fingerprint {fingerprint} matches no change; remove it" in err
    )
    configure(here, f'[[diff.accept]]\nfingerprint = "{fingerprint}"\nskill = "forecast"\nreason = "ok"\n')
    _, out, err = review_weather(here, capsys)
    assert _codes(out)["input-mode-removed"]["accepted"]["reason"] == "ok"
    assert "warning" not in err
