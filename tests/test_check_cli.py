"""``a2a-docgen check``: output formats, exit codes, usage errors, limits and hostile text."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_docgen import cli
from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.commands import check
from a2a_docgen.errors import UsageError
from a2a_docgen.limits import DEFAULT_LIMITS, LIMIT_NAMES, Limits
from a2a_docgen.model import Diagnostic
from a2a_docgen.report_formats import format_github, format_json, format_text, printable, summary

DATA = Path(__file__).parent / "data" / "cards"
REPO = Path(__file__).resolve().parents[1]
TREE = str(DATA / "tree")
BROKEN = str(DATA / "broken")
LINE = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning) (?P<code>[a-z0-9-]+) (?P<message>.+)$"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_tree_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(DATA / "tree" / ".well-known"))
    assert (code, out, err) == (0, "", "1 file, 0 errors, 0 warnings\n")


def test_text_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, TREE, BROKEN)
    assert code == 1
    lines = out.splitlines()
    parsed = [LINE.match(line) for line in lines]
    assert all(parsed), lines
    found = [
        (Path(m["file"]).name, int(m["line"]), int(m["col"]), m["severity"], m["code"]) for m in parsed if m
    ]
    assert found == [
        ("trailing-comma.json", 4, 1, "error", "json-syntax"),
        ("undeclared.json", 9, 41, "error", "undeclared-scheme"),
        ("agent.json", 5, 10, "warning", "url-not-https"),
    ]
    assert lines[0].startswith(os.path.join(BROKEN, "trailing-comma.json") + ":")
    assert (
        err == "by code: 1 json-syntax, 1 undeclared-scheme, 1 url-not-https\n4 files, 2 errors, 1 warning\n"
    )


def test_quiet_prints_the_errors_and_counts_everything(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--quiet", TREE, BROKEN)
    assert code == 1
    assert [line.split(": ")[1].split()[0] for line in out.splitlines()] == ["error", "error"]
    assert (
        err == "by code: 1 json-syntax, 1 undeclared-scheme, 1 url-not-https\n4 files, 2 errors, 1 warning\n"
    )
    code, _, _ = run(capsys, "--quiet", "--strict", TREE)
    assert code == 1  # a warning still fails --strict, shown or not


def test_json_format_is_sorted_and_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--format", "json", BROKEN, TREE)
    assert code == 1
    items = json.loads(out)
    assert [set(item) for item in items] == [
        {"file", "line", "column", "pointer", "severity", "code", "message"}
    ] * 3
    assert items == sorted(items, key=lambda i: (i["file"], i["line"], i["column"], i["code"], i["message"]))
    assert items[1] == {
        "file": os.path.join(BROKEN, "undeclared.json"),
        "line": 9,
        "column": 41,
        "pointer": "/securityRequirements/0/schemes/oauth",
        "severity": "error",
        "code": "undeclared-scheme",
        "message": items[1]["message"],
    }
    assert run(capsys, "--format", "json", BROKEN, TREE)[1] == out


def test_github_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--format", "github", TREE)
    assert code == 0
    path = os.path.join(TREE, "legacy", ".well-known", "agent.json")
    assert out.startswith(f"::warning file={path},line=5,col=10,title=url-not-https::the interface URL ")
    assert out.count("\n") == 1


def test_github_escaping() -> None:
    diagnostic = Diagnostic(
        severity="error",
        code="x",
        message="50% done\r\nnext: a,b",
        file="odd,name:1%.json",
        line=3,
        column=7,
        pointer="",
    )
    assert format_github([diagnostic]) == (
        "::error file=odd%2Cname%3A1%25.json,line=3,col=7,title=x::50%25 done%0D%0Anext: a,b\n"
    )


def test_hostile_text_cannot_reach_the_terminal_raw() -> None:
    diagnostic = Diagnostic(
        severity="warning",
        code="x",
        message='name "\u202eexe.txt" \x1b[31mred\x1b[0m\nfake.json:1:1: error',
        file="a\nb.json",
        line=1,
        column=1,
        pointer="/name",
    )
    for output in (format_text([diagnostic]), format_json([diagnostic]), format_github([diagnostic])):
        assert "\u202e" not in output
        assert "\x1b" not in output
    assert format_text([diagnostic]).count("\n") == 1
    assert "\\u202e" in format_text([diagnostic])
    assert json.loads(format_json([diagnostic]))[0]["message"] == diagnostic.message
    assert printable("Café ☕") == "Café ☕"


def test_strict_fails_on_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, TREE)[0] == 0
    assert run(capsys, "--strict", TREE)[0] == 1


def test_missing_path_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, TREE, str(tmp_path / "nope"))
    assert (code, out) == (2, "")
    assert "no such file or directory" in err
    assert "Traceback" not in err


def test_empty_directory_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path))
    assert code == 2
    assert "no card files" in err


@pytest.mark.parametrize(
    "argv",
    [["--format", "xml", TREE], ["--max-file-bytes", "0", TREE], ["--max-depth", "many", TREE], ["--bogus"]],
)
def test_bad_options_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, _ = run(capsys, *argv)
    assert (code, out) == (2, "")


def test_limit_options_reach_the_loader(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--max-file-bytes", "100", "--format", "json", TREE)
    assert code == 1
    assert {item["code"] for item in json.loads(out)} == {"file-too-large"}
    assert err.splitlines()[-1].startswith("2 files, 2 errors")
    code, out, _ = run(capsys, "--max-label-chars", "5", "--format", "json", str(DATA / "minimal-v1.json"))
    assert code == 1
    assert "--max-label-chars" in json.loads(out)[0]["message"]


LIMIT_CODES = {"limit-exceeded", "file-too-large", "too-deep", "too-many-values"}


def _skill(n: int) -> dict[str, object]:
    return {"id": f"s{n}", "name": f"Skill {n}", "description": "Does one thing.", "tags": ["t"]}


def _over(limit: str) -> dict[str, object]:
    """A minimal card, changed to exceed ``limit`` (a field of ``Limits``) by a little."""
    card: dict[str, object] = json.loads((DATA / "minimal-v1.json").read_text(encoding="utf-8"))
    skill = _skill(0)
    card["skills"] = [skill]
    over = getattr(DEFAULT_LIMITS, limit) + 1
    if limit == "max_text_chars":
        card["description"] = "d" * over
    elif limit == "max_example_chars":
        skill["examples"] = ["e" * over]
    elif limit == "max_label_chars":
        card["name"] = "n" * over
    elif limit == "max_url_chars":
        card["documentationUrl"] = "https://docs.example.com/" + "p" * over
    elif limit == "max_skills":
        card["skills"] = [_skill(n) for n in range(over)]
    elif limit == "max_tags":
        skill["tags"] = [f"t{n}" for n in range(over)]
    elif limit == "max_examples":
        skill["examples"] = [f"example {n}" for n in range(over)]
    elif limit == "max_media_types":
        card["defaultInputModes"] = [f"text/x-{n}" for n in range(over)]
    elif limit == "max_depth":
        card["capabilities"] = {
            "extensions": [{"uri": "urn:x", "params": {"deep": json.loads("[" * 40 + "]" * 40)}}]
        }
    elif limit == "max_nodes":
        card["capabilities"] = {"extensions": [{"uri": "urn:x", "params": {"many": [0] * over}}]}
    return card


@pytest.mark.parametrize("limit", LIMIT_NAMES)
def test_each_limit_message_names_the_option_that_raises_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, limit: str
) -> None:
    path = tmp_path / "card.json"
    text = json.dumps(_over(limit))
    if limit == "max_file_bytes":
        text += " " * DEFAULT_LIMITS.max_file_bytes
    path.write_text(text, encoding="utf-8")
    option = Limits.option_name(limit)

    _, out, _ = run(capsys, "--format", "json", str(path))
    reported = [d for d in json.loads(out) if d["code"] in LIMIT_CODES]
    assert reported, f"nothing exceeds {limit}"
    assert all(f"raise it with {option})" in d["message"] for d in reported), reported

    raised = str(getattr(DEFAULT_LIMITS, limit) * 4)
    _, out, _ = run(capsys, "--format", "json", option, raised, str(path))
    assert [d for d in json.loads(out) if d["code"] in LIMIT_CODES] == []


def test_a_description_over_the_limit_names_max_text_chars_although_examples_share_its_value() -> None:
    assert DEFAULT_LIMITS.max_text_chars == DEFAULT_LIMITS.max_example_chars
    _, diagnostics = load_card_bytes(json.dumps(_over("max_text_chars")).encode(), display="card.json")
    (message,) = [d.message for d in diagnostics if d.code == "limit-exceeded"]
    assert message.endswith("(raise it with --max-text-chars)")


def test_an_over_long_url_is_reported_but_never_cut() -> None:
    card = _over("max_url_chars")
    loaded, diagnostics = load_card_bytes(json.dumps(card).encode(), display="card.json")
    assert loaded is not None
    assert loaded.documentation_url == card["documentationUrl"]
    (finding,) = [d for d in diagnostics if d.code == "limit-exceeded"]
    assert finding.pointer == "/documentationUrl"
    assert "--max-url-chars" in finding.message


def test_one_bad_file_does_not_stop_the_others(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"\xff\xfe\x00\x00")
    (tmp_path / "b.json").write_text("[]")
    (tmp_path / "c.json").write_text((DATA / "minimal-v1.json").read_text(encoding="utf-8"))
    code, out, err = run(capsys, "--format", "json", str(tmp_path))
    assert code == 1
    assert [(Path(i["file"]).name, i["code"]) for i in json.loads(out)] == [
        ("a.json", "encoding"),
        ("b.json", "not-an-object"),
    ]
    assert err == "by code: 1 encoding, 1 not-an-object\n3 files, 2 errors, 0 warnings\n"


def test_without_path_the_example_catalogue_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    examples = REPO / "examples" / "cards"
    if not any(examples.glob("*.json")):
        pytest.skip("examples/cards is empty in this checkout")
    code, _, err = run(capsys)
    assert code == 0
    assert err.startswith(f"{len(list(examples.glob('*.json')))} files, 0 errors")


def test_without_path_and_without_examples(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing() -> Path:
        raise UsageError(
            "no PATH given and the example catalogue (examples/cards) is not installed; give a PATH"
        )

    monkeypatch.setattr(check, "default_catalogue", missing)
    code, _, err = run(capsys)
    assert code == 2
    assert "example catalogue" in err


def test_summary_wording() -> None:
    assert summary(0, []) == "0 files, 0 errors, 0 warnings"


def test_real_entry_point_never_prints_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text('{"a": ' + "[" * 50_000 + "]" * 50_000 + "}")
    (tmp_path / "bidi.json").write_text(json.dumps({"name": "\u202eevil", "skills": 3}))
    result = subprocess.run(
        [sys.executable, "-m", "a2a_docgen", "check", "--format", "json", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert {i["code"] for i in json.loads(result.stdout)} >= {
        "too-deep",
        "invisible-characters",
        "wrong-type",
    }
