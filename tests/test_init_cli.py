"""``a2a-docgen init``: the project for each engine, its configuration read back, never an overwrite.

The projects are built by each engine in ``tests/test_engines.py`` (slow); here the configurations are read
with the parsers the engines use (TOML, YAML) and checked for what the issue asks of them.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

from a2a_docgen.cli import main
from a2a_docgen.render import NAV
from a2a_docgen.render.assets import SCRIPTS, STYLESHEETS
from a2a_docgen.site.scaffold import ENGINES, install_command, quoted
from tests.conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

EXAMPLES = REPO / "examples" / "cards"


def init(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["init", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def assert_follows_the_system(palette: list[dict[str, object]]) -> None:
    """Light first for a light system, dark for a dark one (the theme picks the palette whose media query
    matches; without ``media`` it ignores the reader's setting); the toggle switches between the two."""
    assert [p.get("media") for p in palette] == [
        "(prefers-color-scheme: light)",
        "(prefers-color-scheme: dark)",
    ]


PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_zensical_install_line_is_the_tested_range() -> None:
    """``init`` prints the Zensical releases the engine tests run (the ``engines`` extra), never an unbounded
    ``pip install zensical`` (0.0.74 and later need a theme package the tests cannot install)."""
    pinned = next(r for r in PYPROJECT["optional-dependencies"]["engines"] if r.startswith("zensical"))
    tested = pinned.removeprefix("zensical==")
    install = ENGINES["zensical"].packages
    # quoted: a shell would read ">" and "<" as redirections
    assert install[0] == install[-1] == "'"
    assert install == f"'zensical>={tested},<{_next_patch(tested)}'"
    docs = (REPO / "docs" / "engines.md").read_text(encoding="utf-8")
    assert install_command(ENGINES["zensical"]) == f"pip install 'a2a-docgen[search]' {install}"
    assert f"`{install_command(ENGINES['zensical'])}`" in docs


@pytest.mark.parametrize("engine", list(ENGINES))
def test_the_install_line_brings_every_module_the_commands_import(engine: str) -> None:
    """Each module the engine's commands import comes from a distribution that the printed ``pip install``
    brings: a2a-docgen's own dependencies, the extra it names, or the engine's packages; and Pagefind, for
    the catalogue search's index, from the extra."""
    spec = ENGINES[engine]
    brought = {
        Requirement(r).name
        for r in [*PYPROJECT["dependencies"], *PYPROJECT["optional-dependencies"][spec.extra]]
    }
    brought |= {Requirement(word).name for word in shlex.split(spec.packages)}
    distributions = packages_distributions()
    for module, title in spec.modules:
        assert module in distributions, f"{title}: {module} is not installed here"
        assert set(distributions[module]) & brought, (title, distributions[module], brought)
    assert "pagefind" in brought


def _next_patch(version: str) -> str:
    *head, last = version.split(".")
    return ".".join([*head, str(int(last) + 1)])


def test_the_default_is_mkdocs_with_the_plugin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No ``--engine``: the plugin's site, in one command once ``a2a-docgen[material]`` is installed."""
    project = tmp_path / "catalogue"
    code, out, err = init(capsys, str(project))
    assert code == 0, err
    examples = {f"cards/{p.name}" for p in EXAMPLES.glob("*.json")}
    assert files(project) == {"mkdocs.yml", ".gitignore", "docs/.gitkeep", *examples}
    assert f"  mkdocs build -f {project}/mkdocs.yml\n  mkdocs serve -f {project}/mkdocs.yml\n" in out
    assert "(MkDocs)" in out


def test_zensical_gets_the_example_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "catalogue"
    code, out, err = init(capsys, "--engine", "zensical", str(project))
    assert code == 0, err
    examples = {f"cards/{p.name}" for p in EXAMPLES.glob("*.json")}
    assert files(project) == {"zensical.toml", ".gitignore", *examples}
    for name in examples:
        assert (project / name).read_bytes() == (EXAMPLES / name.removeprefix("cards/")).read_bytes()
    config = tomllib.loads((project / "zensical.toml").read_text(encoding="utf-8"))["project"]
    assert config["docs_dir"] == "docs"
    assert config["site_dir"] == "site"
    assert config["nav"] == [{entry.title: entry.path} for entry in NAV]
    assert config["extra_css"] == list(STYLESHEETS)
    assert config["extra_javascript"] == list(SCRIPTS)
    # The profile the pages are tested with: what they need, and none of the extensions that act on text by
    # themselves (emoji, magiclink, smartsymbols) or read files (snippets)
    extensions = config["markdown_extensions"]
    assert set(extensions) == {"admonition", "attr_list", "toc", "pymdownx"}
    assert set(extensions["pymdownx"]) == {"highlight", "superfences", "tabbed"}
    assert extensions["pymdownx"]["tabbed"] == {"alternate_style": True}
    assert "plugins" not in config  # search is on by default
    theme = config["theme"]
    assert theme["font"] is False
    assert "content.code.copy" in theme["features"]
    assert [p["scheme"] for p in theme["palette"]] == ["default", "slate"]
    assert all(p["toggle"]["name"] for p in theme["palette"])
    assert_follows_the_system(theme["palette"])
    # the commands, exactly, from where init ran
    # the commands, exactly, from where init ran: pages, site, search index, a server for the built site
    assert (
        f"  a2a-docgen build {project}/cards -o {project}/docs --dialect material\n"
        f"  zensical build -f {project}/zensical.toml\n"
        f"  a2a-docgen search-index {project}/site\n"
        f"  python3 -m http.server -d {project}/site\n"
    ) in out
    assert f"zensical serve -f {project}/zensical.toml" in out  # the live preview
    assert "--watch" in out
    assert "a2a-docgen build cards -o docs --dialect material" in (project / "zensical.toml").read_text(
        encoding="utf-8"
    )
    gitignore = (project / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert {"/site/", "/.cache/"} <= set(gitignore)


@pytest.mark.parametrize("engine", ["mkdocs", "properdocs"])
def test_plugin_engines_get_the_plugin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str
) -> None:
    project = tmp_path / "site"
    code, out, err = init(capsys, "--engine", engine, str(project))
    assert code == 0, err
    config_name = ENGINES[engine].config
    assert config_name == f"{engine}.yml"
    assert {config_name, ".gitignore", "docs/.gitkeep"} <= files(project)
    config = yaml.safe_load((project / config_name).read_text(encoding="utf-8"))
    assert config["docs_dir"] == "docs"
    assert config["plugins"] == ["search", {"a2a-docgen": {"cards": "cards"}}]
    assert "nav" not in config  # the plugin adds the catalogue's
    theme = config["theme"]
    assert theme["name"] == "material"
    assert theme["font"] is False
    assert "content.code.copy" in theme["features"]
    assert [p["scheme"] for p in theme["palette"]] == ["default", "slate"]
    assert_follows_the_system(theme["palette"])
    assert f"  {engine} build -f {project}/{config_name}\n" in out
    assert f"  {engine} serve -f {project}/{config_name}\n" in out


def _not_installed(out: str) -> list[str]:
    """The packages init names as missing (its ``Not installed in this environment: A, B.`` line)."""
    for line in out.splitlines():
        if line.startswith("Not installed in this environment: "):
            return line.removeprefix("Not installed in this environment: ").split(". ")[0].split(", ")
    return []


@pytest.mark.parametrize(
    ("engine", "hidden"),
    [
        ("mkdocs", ["material"]),
        ("mkdocs", ["pagefind", "pagefind_bin"]),
        ("properdocs", ["properdocs"]),
        ("properdocs", ["material", "properdocs"]),
        ("zensical", ["zensical", "pagefind", "pagefind_bin"]),
    ],
)
def test_what_is_missing_is_named_and_the_install_line_brings_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    engine: str,
    hidden: list[str],
) -> None:
    """Each package the commands need and the environment lacks is named (Material, not MkDocs, when only
    the theme is missing), before the ``pip install`` that brings them. A module set to None in
    ``sys.modules`` cannot be imported: Python's own way to leave a package out."""
    for module in hidden:
        monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # and no pagefind program on PATH
    spec = ENGINES[engine]
    code, out, err = init(capsys, "--engine", engine, str(tmp_path / "p"))
    assert code == 0, err
    named = _not_installed(out)
    titles = dict(spec.modules) | {"pagefind": "Pagefind", "pagefind_bin": "Pagefind"}
    for module, title in titles.items():
        if module in hidden:
            assert title in named, out
        elif importlib.util.find_spec(module) is not None:  # installed here: never named
            assert title not in named, out
    assert (
        f"Install what the commands need:\n\n  {install_command(spec)}\n\nThen, from this directory:" in out
    )


def test_nothing_missing_no_install_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("material")
    pytest.importorskip("pagefind")
    code, out, _ = init(capsys, str(tmp_path / "p"))
    assert code == 0
    assert "pip install" not in out
    assert "Not installed" not in out
    assert "Next, from this directory:" in out


def test_the_plugins_quiet_option_is_one_uncommented_line_away(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``mkdocs.yml`` names the ``quiet`` option, commented, with what it does; uncommented, MkDocs reads it
    as the plugin's option."""
    pytest.importorskip("material")
    from mkdocs.config import load_config

    project = tmp_path / "p"
    assert init(capsys, str(project))[0] == 0
    config_file = project / "mkdocs.yml"
    text = config_file.read_text(encoding="utf-8")
    assert "`quiet: true`\n      # logs the errors only" in text
    assert text.count("      # quiet: true\n") == 1
    config_file.write_text(text.replace("      # quiet: true\n", "      quiet: true\n"), encoding="utf-8")
    config = load_config(str(config_file))
    assert config.plugins["a2a-docgen"].config.quiet is True


def test_cards_of_your_own_are_referenced_not_copied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = tmp_path / "repo" / "cards"
    cards.mkdir(parents=True)
    (cards / "a.json").write_bytes((EXAMPLES / "unit-converter.json").read_bytes())
    project = tmp_path / "repo" / "site"
    assert init(capsys, "--engine", "mkdocs", "--cards", str(cards), str(project))[0] == 0
    config = yaml.safe_load((project / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["plugins"][1]["a2a-docgen"]["cards"] == "../cards"
    assert not (project / "cards").exists()
    zensical = tmp_path / "repo" / "zensical"
    code, out, _ = init(capsys, "--engine", "zensical", "--cards", str(cards), str(zensical))
    assert code == 0
    assert "a2a-docgen build ../cards -o docs --dialect material" in (zensical / "zensical.toml").read_text(
        encoding="utf-8"
    )
    assert f"  a2a-docgen build {cards} -o {zensical}/docs --dialect material\n" in out


def test_here_needs_no_config_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = init(capsys, "--engine", "zensical", ".")
    assert code == 0
    assert (
        "  a2a-docgen build cards -o docs --dialect material\n  zensical build\n"
        "  a2a-docgen search-index site\n  python3 -m http.server -d site\n"
    ) in out
    (tmp_path / "mkdocs").mkdir()
    monkeypatch.chdir(tmp_path / "mkdocs")
    code, out, _ = init(capsys, ".")
    assert code == 0
    assert "\n\n  mkdocs build\n  mkdocs serve\n\n" in out


def test_existing_files_are_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "mkdocs.yml").write_text("site_name: mine\n", encoding="utf-8")
    code, out, err = init(capsys, "--engine", "mkdocs", str(project))
    assert code == 2
    assert out == ""
    assert "mkdocs.yml already exists; nothing written" in err
    assert files(project) == {"mkdocs.yml"}
    assert (project / "mkdocs.yml").read_text(encoding="utf-8") == "site_name: mine\n"
    # other files in the directory are no obstacle
    other = tmp_path / "q"
    other.mkdir()
    (other / "README.md").write_text("# Mine\n", encoding="utf-8")
    assert init(capsys, str(other))[0] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--engine", "hugo"], "invalid choice"),
        (["--cards", "nowhere"], "--cards nowhere: no such file or directory"),
        (["--site-name", "a\x07b"], "control characters"),
    ],
)
def test_usage_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = init(capsys, *args, "project")
    assert code == 2
    assert message in err
    assert not (tmp_path / "project").exists()


def test_a_file_in_place_of_the_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p").write_text("", encoding="utf-8")
    code, _, err = init(capsys, str(tmp_path / "p"))
    assert code == 2
    assert "is not a directory" in err


@pytest.mark.parametrize("name", ['Agents "R" Us \\ co', "Catalogue d'agents ✓", "x: [y] # z"])
def test_site_names_round_trip_through_toml_and_yaml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert init(capsys, "--engine", "zensical", "--site-name", name, str(tmp_path / "z"))[0] == 0
    toml_config = tomllib.loads((tmp_path / "z" / "zensical.toml").read_text(encoding="utf-8"))
    assert toml_config["project"]["site_name"] == name
    assert init(capsys, "--engine", "properdocs", "--site-name", name, str(tmp_path / "p"))[0] == 0
    yaml_config = yaml.safe_load((tmp_path / "p" / "properdocs.yml").read_text(encoding="utf-8"))
    assert yaml_config["site_name"] == name
    assert json.loads(quoted(name)) == name


def without_nav(text: str) -> str:
    """``text`` with the entries of a Zensical ``nav`` left out: docs/engines.md shows the first few
    (tests/test_docs.py checks them against ``NAV``), so a new page kind does not make the docs a copy to edit."""
    return re.sub(r"^nav = \[\n.*?^\]\n", "nav = [...]\n", text, flags=re.MULTILINE | re.DOTALL)


def test_engines_md_shows_the_files_init_writes() -> None:
    """docs/engines.md quotes each configuration exactly as ``init`` writes it (default cards and name)."""
    from a2a_docgen.site.scaffold import project_files

    text = without_nav((REPO / "docs" / "engines.md").read_text(encoding="utf-8"))
    for name, engine in ENGINES.items():
        written = project_files(engine, cards="cards")
        language = "toml" if name == "zensical" else "yaml"
        assert f"```{language}\n{without_nav(written[engine.config])}```\n" in text, engine.config
    for name in ("zensical", "mkdocs"):
        assert f"```gitignore\n{project_files(ENGINES[name], cards='cards')['.gitignore']}```\n" in text
