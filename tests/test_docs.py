"""The documentation stays true: every command is documented, the README's Quick start is what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from a2a_docgen.cli import COMMANDS, main
from a2a_docgen.render import NAV

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: a2a-docgen {command}")


def test_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s", out, re.MULTILINE), command


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_in_readme_and_cli_docs(command: str) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    cli_docs = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    assert f"a2a-docgen {command}" in readme
    assert re.search(rf"^## {command}\b", cli_docs, re.MULTILINE), (
        f"docs/cli.md has no '## {command}' section"
    )


def quick_start_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section, re.DOTALL)


def test_quick_start_has_exactly_two_one_line_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)
    assert "mkdocs serve" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert quick_start_commands()[1] in ci


def test_docs_links_resolve() -> None:
    """Relative links between the Markdown documents point at files that exist (code blocks aside)."""
    documents = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").glob("*.md"))]
    broken = []
    for document in documents:
        text = re.sub(
            r"^(```|~~~).*?^\1", "", document.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE
        )
        text = re.sub(r"`[^`\n]*`", "", text)
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            if not (document.parent / target).exists():
                broken.append(f"{document.relative_to(REPO)} -> {target}")
    assert not broken, broken


def test_public_api_names_resolve() -> None:
    import a2a_docgen

    for name in a2a_docgen.__all__:
        assert getattr(a2a_docgen, name) is not None, name
    with pytest.raises(AttributeError):
        _ = a2a_docgen.no_such_name  # type: ignore[attr-defined]


def _architecture_rows() -> list[str]:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    layout = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    return [line for line in layout.splitlines() if line.startswith("| `")]


def _named_in(row: str, module: str) -> bool:
    """A row names a module by its path, by its package (``a2a_docgen/signing/``), or by its file name beside
    another module of its directory (``render/requests.py``, ``snippets.py``)."""
    cell = row.split(" | ", 1)[0]
    directory, _, name = module.rpartition("/")
    return (
        f"`{module}`" in cell
        or f"`{directory}/`" in cell
        or (f"`{name}`" in cell and f"`{directory}/" in cell)
    )


def test_every_module_has_a_row_in_the_architecture_page() -> None:
    rows = _architecture_rows()
    modules = [
        path.relative_to(REPO).as_posix()
        for path in sorted((REPO / "a2a_docgen").rglob("*.py"))
        if path.stat().st_size > 0  # an empty package marker has no job of its own
    ]
    assert [module for module in modules if not any(_named_in(row, module) for row in rows)] == []


def test_the_navigation_the_docs_show_is_the_registry_s() -> None:
    """docs/engines.md shows the start of the Zensical navigation ``init`` writes (``render.NAV``, derived
    from the registry of page kinds), and docs/cli.md lists every page of it."""
    engines = (REPO / "docs" / "engines.md").read_text(encoding="utf-8")
    shown = re.search(r"\nnav = \[\n(.*?)\n\]\n", engines, re.DOTALL)
    assert shown is not None, "docs/engines.md shows no Zensical nav"
    entries = re.findall(r'^  \{ "([^"]+)" = "([^"]+)" \},$', shown.group(1), re.MULTILINE)
    assert entries
    assert entries == [(entry.title, entry.path) for entry in NAV][: len(entries)]
    cli = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    listed = {
        path
        for row in cli.splitlines()
        if row.startswith("| `")
        for path in re.findall(r"`([^`]+)`", row.split(" | ")[0])
    }
    assert [entry.path for entry in NAV if entry.path not in listed] == []
