"""Layers import downward, and a command imports only what it uses: checked in fresh interpreters.

``sys.modules`` of a new process shows what an import or a whole command really loaded, including modules
imported inside functions, which reading the import lines would miss.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_docgen import cli

REPO = Path(__file__).resolve().parents[1]
CARDS = REPO / "tests" / "data" / "cards"

HEAVY = ("jinja2", "httpx", "markdown", "markdown_it", "mkdocs")
"""Third-party packages that cost tenths of a second to import; only build, diff, fetch and the plugin need them."""

BOTTOM = (
    "a2a_docgen.model",
    "a2a_docgen.limits",
    "a2a_docgen.errors",
    "a2a_docgen.collector",
    "a2a_docgen.protocol",
    "a2a_docgen.diagnostics",
    "a2a_docgen.files",
    "a2a_docgen.text",
    "a2a_docgen.lazy",
    "a2a_docgen.version",
)
"""The bottom layer: these import nothing of a2a-docgen but each other."""


def loaded_after(code: str, *argv: str) -> set[str]:
    """The modules loaded once ``code`` has run in a new interpreter (``argv`` in ``sys.argv[1:]``)."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)), file=sys.__stderr__)"
    result = subprocess.run(
        [sys.executable, "-c", script, *argv], capture_output=True, text=True, check=False, cwd=REPO
    )
    return set(json.loads(result.stderr.strip().splitlines()[-1]))


def run_cli(*argv: str) -> set[str]:
    return loaded_after("import sys\nfrom a2a_docgen.cli import main\nmain(sys.argv[1:])", *argv)


def packages(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


@pytest.mark.parametrize(
    "argv",
    [
        ("--help",),
        ("--version",),
        ("check", "--help"),
        ("check", str(CARDS / "minimal-v1.json")),
        ("check", "--format", "json", str(REPO / "tests" / "data" / "hostile")),
        ("check",),
    ],
    ids=" ".join,
)
def test_help_and_check_import_no_renderer_and_no_http_client(argv: tuple[str, ...]) -> None:
    loaded = run_cli(*argv)
    assert packages(loaded) & set(HEAVY) == set()
    assert not any(
        name.startswith(("a2a_docgen.render", "a2a_docgen.fetch", "a2a_docgen.site")) for name in loaded
    )


def test_a_command_module_is_imported_only_when_chosen() -> None:
    loaded = run_cli("check", str(CARDS / "minimal-v1.json"))
    assert {name for name in loaded if name.startswith("a2a_docgen.commands.")} == {
        "a2a_docgen.commands.check"
    }
    assert not any(name.startswith("a2a_docgen.commands.") for name in run_cli("--help"))


@pytest.mark.parametrize("name", cli.COMMANDS)
def test_the_static_help_table_is_each_command_s_own(name: str) -> None:
    module = __import__(cli.command_module(name), fromlist=["HELP"])
    assert cli.COMMANDS[name] == module.HELP


def test_the_command_is_the_first_argument_that_is_not_an_option() -> None:
    assert cli.chosen_command(["--version"]) is None
    assert cli.chosen_command(["-h", "check"]) == "check"
    assert cli.chosen_command(["check", "build"]) == "check"
    assert cli.chosen_command(["nonsense", "check"]) is None


def a2a_modules(code: str) -> set[str]:
    return {name for name in loaded_after(code) if name.startswith("a2a_docgen.")}


@pytest.mark.parametrize("module", BOTTOM)
def test_the_bottom_layer_imports_only_the_bottom_layer(module: str) -> None:
    above = {
        name
        for name in a2a_modules(f"import {module}")
        if not any(name == bottom or name.startswith(f"{bottom}.") for bottom in BOTTOM)
    }
    assert above == set()


@pytest.mark.parametrize(
    ("module", "never"),
    [
        ("a2a_docgen.load", ("a2a_docgen.validate", "a2a_docgen.catalog", "a2a_docgen.render")),
        ("a2a_docgen.validate", ("a2a_docgen.render", "a2a_docgen.catalog", "a2a_docgen.fetch")),
        ("a2a_docgen.catalog", ("a2a_docgen.render", "a2a_docgen.fetch", "a2a_docgen.review")),
        (
            "a2a_docgen.quality",
            ("a2a_docgen.catalog", "a2a_docgen.render", "a2a_docgen.fetch", "a2a_docgen.review"),
        ),
        (
            "a2a_docgen.convert",
            ("a2a_docgen.render", "a2a_docgen.fetch", "a2a_docgen.review", "a2a_docgen.site"),
        ),
        ("a2a_docgen.fetch", ("a2a_docgen.render", "a2a_docgen.site", "a2a_docgen.review")),
        ("a2a_docgen.render.escape", ("a2a_docgen.load", "a2a_docgen.validate")),
        # The renderer reads the history as plain data; reading it (git, the differ) is a layer beside review.
        ("a2a_docgen.render", ("a2a_docgen.review", "a2a_docgen.history.read", "a2a_docgen.history.walk")),
        (
            "a2a_docgen.history.entries",
            ("a2a_docgen.load", "a2a_docgen.catalog", "a2a_docgen.review", "a2a_docgen.render"),
        ),
        ("a2a_docgen.history.read", ("a2a_docgen.render", "a2a_docgen.site", "a2a_docgen.fetch")),
        # The one module that runs git, just above the bottom: review and history both import it.
        (
            "a2a_docgen.git",
            (
                "a2a_docgen.load",
                "a2a_docgen.catalog",
                "a2a_docgen.review",
                "a2a_docgen.history",
                "a2a_docgen.render",
            ),
        ),
    ],
)
def test_layers_import_downward(module: str, never: tuple[str, ...]) -> None:
    loaded = a2a_modules(f"import {module}")
    assert module in loaded
    assert {name for name in loaded if name.startswith(never)} == set()


def test_importing_the_encoders_loads_neither_jinja2_nor_multiprocessing() -> None:
    """``render/__init__`` re-exports lazily: a leaf of the package (the encoders) costs that leaf alone."""
    loaded = loaded_after("import a2a_docgen.render.escape")
    assert packages(loaded) & {"jinja2", "multiprocessing", "concurrent"} == set()
    assert {name for name in loaded if name.startswith("a2a_docgen.render")} == {
        "a2a_docgen.render",
        "a2a_docgen.render.escape",
    }


def test_no_module_imports_the_package_root() -> None:
    """The root's face imports the layers above on demand; the version lives at the bottom (``version``)."""
    offenders = []
    for path in sorted((REPO / "a2a_docgen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            from_root = isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "a2a_docgen"
            root = isinstance(node, ast.Import) and any(alias.name == "a2a_docgen" for alias in node.names)
            if from_root or root:
                offenders.append(f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}")
    assert offenders == []
