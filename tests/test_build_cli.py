"""``a2a-docgen build`` through ``main([...])``: output tree, determinism, stale pages, strictness, formats."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from a2a_docgen.cli import main
from a2a_docgen.site.writer import MANIFEST_NAME
from tests.conftest import REPO

EXAMPLES = REPO / "examples" / "cards"
SUMMARY = re.compile(
    r"^(\d+) agents?, (\d+) skills?.*: (\d+) written, (\d+) unchanged, (\d+) removed -> (.+)$", re.M
)


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    directory = tmp_path / "cards"
    shutil.copytree(EXAMPLES, directory)
    return directory


def build(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["build", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def summary(err: str) -> tuple[int, ...]:
    match = SUMMARY.search(err)
    assert match, err
    return tuple(int(g) for g in match.groups()[:5])


def test_build_writes_pages_and_prints_a_summary(
    tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code, stdout, err = build(capsys, str(cards), "-o", str(out))
    assert code == 0, err
    assert stdout == ""  # the examples are clean
    agents, skills, written, unchanged, removed = summary(err)
    assert agents == 4
    assert skills == 11
    assert written == len(tree(out)) - 1  # every file but the manifest
    assert (unchanged, removed) == (0, 0)
    assert err.rstrip().endswith(f"-> {out}")
    assert (out / MANIFEST_NAME).is_file()
    assert any(path.endswith(".md") for path in tree(out))


def test_two_builds_give_byte_identical_trees(
    tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(capsys, str(cards), "-o", str(tmp_path / "one"))
    build(capsys, str(cards), "-o", str(tmp_path / "two"))
    assert tree(tmp_path / "one") == tree(tmp_path / "two")
    code, _, err = build(capsys, str(cards), "-o", str(tmp_path / "one"))
    assert code == 0
    _, _, written, unchanged, removed = summary(err)
    assert (written, removed) == (0, 0)
    assert unchanged == len(tree(tmp_path / "one")) - 1


def test_removing_a_card_removes_its_pages(
    tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    build(capsys, str(cards), "-o", str(out))
    before = tree(out)
    (cards / "unit-converter.json").unlink()
    (out / "notes.md").write_text("my own page\n")
    code, _, err = build(capsys, str(cards), "-o", str(out))
    assert code == 0
    after = tree(out)
    gone = sorted(set(before) - set(after))
    assert gone
    assert summary(err)[4] == len(gone)
    assert all("unit-converter" in path or "unit" in path for path in gone if path.startswith("agents/"))
    assert not any(b"Unit Converter" in data for path, data in after.items() if path != "notes.md")
    assert after["notes.md"] == b"my own page\n"


def test_strict_fails_on_any_diagnostic_and_writes_nothing(
    tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card = json.loads((cards / "unit-converter.json").read_text())
    card["skills"][0]["tags"] = []  # a required list left empty
    (cards / "unit-converter.json").write_text(json.dumps(card))
    out = tmp_path / "out"
    code, stdout, err = build(capsys, str(cards), "-o", str(out), "--strict")
    assert code == 1
    assert "unit-converter.json:" in stdout
    assert "--strict" in err
    assert "nothing written" in err
    assert not out.exists()


def test_cards_with_errors_are_rendered_and_non_cards_listed(
    tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card = json.loads((cards / "unit-converter.json").read_text())
    del card["version"]
    (cards / "unit-converter.json").write_text(json.dumps(card))
    (cards / "notes.json").write_text('{"not": "a card"}')
    (cards / "broken.json").write_text("{")
    out = tmp_path / "out"
    code, stdout, err = build(capsys, str(cards), "-o", str(out))
    assert code == 0, err
    assert "unit-converter.json:" in stdout
    assert "broken.json:" in stdout
    assert summary(err)[0] == 4
    assert "2 files excluded" in err
    pages = b"".join(data for path, data in tree(out).items() if path.endswith(".md"))
    assert b"Unit Converter" in pages
    assert b"broken" in pages  # listed on the excluded page


def test_defaults_are_examples_cards_into_site_src(
    tmp_path: Path, cards: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "examples").mkdir()
    cards.rename(tmp_path / "examples" / "cards")
    monkeypatch.chdir(tmp_path)
    code, _, err = build(capsys)
    assert code == 0, err
    assert err.rstrip().endswith("-> site_src")
    assert (tmp_path / "site_src" / MANIFEST_NAME).is_file()


def test_no_cards_outside_a_checkout_builds_the_embedded_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = build(capsys)
    assert code == 0, err
    built = tree(tmp_path / "site_src")
    committed = tree(REPO / "site_src")
    assert built == committed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing-dir"], "no such file or directory"),
        (["EMPTY"], "no card files"),
        (["CARDS", "--max-file-bytes", "0"], "positive whole number"),
        (["CARDS", "--jobs", "0"], "positive whole number"),
        (["CARDS", "--templates", "missing-templates"], "--templates"),
        (["CARDS", "--site-url", "ftp://example.org/"], "--site-url"),
        (["CARDS", "--site-url", "not a url"], "--site-url"),
        (["CARDS", "--format", "xml"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2(
    tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (tmp_path / "empty").mkdir()
    args = [{"CARDS": str(cards), "EMPTY": str(tmp_path / "empty")}.get(a, a) for a in args]
    code, _, err = build(capsys, *args, "-o", str(tmp_path / "out"))
    assert code == 2
    assert message in err
    assert not (tmp_path / "out").exists()


def test_output_that_would_overwrite_a_foreign_file_fails(
    tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    build(capsys, str(cards), "-o", str(out))
    (out / MANIFEST_NAME).unlink()
    victim = next(p for p in sorted(out.rglob("*.md")))
    victim.write_text("edited by hand\n")
    code, _, err = build(capsys, str(cards), "-o", str(out))
    assert code == 1
    assert "was not generated by a2a-docgen" in err
    assert victim.read_text() == "edited by hand\n"


@pytest.mark.parametrize("fmt", ["json", "github", "text"])
def test_diagnostic_formats(
    tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    (cards / "broken.json").write_text("{")
    code, stdout, _ = build(capsys, str(cards), "-o", str(tmp_path / "out"), "--format", fmt)
    assert code == 0
    if fmt == "json":
        [diagnostic] = json.loads(stdout)
        assert diagnostic["file"].endswith("broken.json")
        assert diagnostic["severity"] == "error"
    elif fmt == "github":
        assert stdout.startswith("::error file=")
    else:
        assert re.match(r"^\S+broken\.json:1:\d+: error \S+ ", stdout)


def test_limits_apply(tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, err = build(capsys, str(cards), "-o", str(tmp_path / "out"), "--max-file-bytes", "100")
    assert code == 0, err
    assert stdout.count("file-too-large") == 4
    assert "0 agents" in err


def test_site_url_reaches_the_pages(tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = "https://docs.example.org/teams/agents/"
    _, _, plain_err = build(capsys, str(cards), "-o", str(tmp_path / "plain"))
    code, _, err = build(capsys, str(cards), "-o", str(tmp_path / "url"), "--site-url", url)
    assert code == 0, err
    plain, with_url = tree(tmp_path / "plain"), tree(tmp_path / "url")
    assert plain.keys() == with_url.keys()
    differ = sorted(path for path in plain if plain[path] != with_url[path])
    assert differ
    # the pages (their Markdown copies, llms-full.txt) show the raw card's URL; ai-catalog.json lists it absolute
    assert "ai-catalog.json" in differ
    page = r"agents/[a-z0-9-]+/index\.md(\.txt)?"
    assert all(re.fullmatch(rf"{page}|ai-catalog\.json|llms-full\.txt", path) for path in differ)
    # without the URL, one warning says what is relative and how to set it
    assert plain_err.count("warning:") == 1
    assert "ai-catalog.json lists each agent's card by a URL relative" in plain_err
    assert "--site-url" in plain_err
    assert "warning:" not in err


def test_committed_site_src_is_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)  # the default cards, examples/cards, are found from the repository's top
    # Without the change history: the committed pages must not depend on how deep the clone is (CI clones are
    # shallow), and they are the embedded example's pages too, which has no history.
    code, _, err = build(capsys, "--no-history", "-o", str(tmp_path / "fresh"))
    assert code == 0, err
    fresh, committed = tree(tmp_path / "fresh"), tree(REPO / "site_src")
    stale = sorted(p for p in fresh.keys() | committed.keys() if fresh.get(p) != committed.get(p))
    assert not stale, (
        f"site_src/ does not match examples/cards ({len(stale)} files differ, e.g. {stale[:3]}); "
        "run `a2a-docgen build --no-history` from the repository root and commit site_src/"
    )


def test_a_failing_render_leaves_the_previous_output_intact(
    tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    build(capsys, str(cards), "-o", str(out))
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(out.rglob("*")) if p.is_file()}
    (cards / "unit-converter.json").unlink()
    overrides = tmp_path / "templates"
    overrides.mkdir()
    (overrides / "excluded.md.jinja").write_text("# Excluded\n{% if %}\n")
    code, _, err = build(capsys, str(cards), "-o", str(out), "--templates", str(overrides))
    assert code == 2
    assert "template" in err
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(out.rglob("*")) if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards", "out", "templates"]


def test_every_build_option_is_documented() -> None:
    import argparse

    from a2a_docgen.cli import build_parser

    parser = build_parser("build")
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    build_parser_ = subparsers.choices["build"]
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text[text.index("\n## build") :]
    options = [
        o for action in build_parser_._actions for o in action.option_strings if o not in {"-h", "--help"}
    ]
    missing = [o for o in options if o not in section and not o.startswith("--max-")]
    assert not missing, f"docs/cli.md, ## build, does not mention {missing}"
